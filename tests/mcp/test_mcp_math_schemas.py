"""The tool schemas `mcp serve --math` lists (issue 31: a compact `tools/list`), through the
official SDK client.

Each math tool's inputSchema stays inlined (models are shown it, and several providers do not
resolve `$ref`) and must accept every example the catalog publishes and refuse a payload the
operation refuses; its outputSchema is the compact form (`catalog.shared_result_schema`:
Pydantic's `$defs`, no titles, repeats stored once) and must accept and refuse exactly what the
inlined result schema that `math.describe` shows does. Calling every tool with its first example
makes the client validate the real result against the listed outputSchema.
"""

from __future__ import annotations

import copy
import json

from jsonschema import Draft202012Validator

from mcp_support import text_of, with_session
from synsema.stdlib.math import catalog

BY_NAME = {"math_" + identifier.replace(".", "_"): identifier for identifier in catalog.TOOLS}


def _keys(node) -> set[str]:
    if isinstance(node, list):
        return set().union(*map(_keys, node)) if node else set()
    if isinstance(node, dict):
        return set(node).union(*map(_keys, node.values()))
    return set()


def _repeated_subschemas(schema: dict) -> list[str]:
    """Subschemas of at least the sharing threshold that occur more than once."""
    counts: dict[str, int] = {}

    def walk(node):
        if isinstance(node, list):
            for item in node:
                walk(item)
        elif isinstance(node, dict):
            text = json.dumps(node, sort_keys=True)
            if len(text) >= catalog._SHARED_MIN and "$ref" not in node:
                counts[text] = counts.get(text, 0) + 1
            for value in node.values():
                walk(value)
    walk(schema)
    return [text for text, n in counts.items() if n > 1]


def _variants(result: dict) -> list:
    """The real result and results a validator must judge: each top-level key dropped, an
    unknown key added, each top-level value replaced by one of another JSON type."""
    out = [result, {**result, "unexpected": 1}]
    for key in result:
        out.append({k: v for k, v in result.items() if k != key})
        for wrong in ([], "text", {"x": 1}, 1.5, None):
            changed = copy.deepcopy(result)
            changed[key] = wrong
            out.append(changed)
    return out


def test_every_math_tool_schema_is_compact_and_exactly_as_strict_as_the_operation():
    async def body(session):
        listed = [t for t in (await session.list_tools()).tools if t.name in BY_NAME]
        results = {}
        for tool in listed:
            example = catalog.TOOLS[BY_NAME[tool.name]].examples[0].payload
            # the client checks structuredContent against the listed outputSchema itself
            result = await session.call_tool(tool.name, example)
            assert result.isError is False, (tool.name, text_of(result))
            results[tool.name] = result.structuredContent
        return listed, results

    listed, results = with_session("--math")(body)
    assert {t.name for t in listed} == set(BY_NAME)
    refused = 0
    for tool in listed:
        op = catalog.TOOLS[BY_NAME[tool.name]]
        Draft202012Validator.check_schema(tool.inputSchema)
        Draft202012Validator.check_schema(tool.outputSchema)
        # input: inlined, every published example accepted, what the operation refuses refused
        assert "$ref" not in json.dumps(tool.inputSchema)
        inputs = Draft202012Validator(tool.inputSchema)
        for example in op.examples:
            assert not list(inputs.iter_errors(example.payload)), (tool.name, example.payload)
        first = op.examples[0].payload
        assert list(inputs.iter_errors({**first, "unexpected": 1}))
        assert list(inputs.iter_errors({**first, next(iter(first)): {"not": "this"}}))
        # output: compact, and exactly as strict as the inlined result schema
        assert not {"title", "discriminator", "oneOf"} & _keys(tool.outputSchema)
        assert not _repeated_subschemas(tool.outputSchema), tool.name
        assert tool.outputSchema["type"] == "object"
        compact = Draft202012Validator(tool.outputSchema)
        inlined = Draft202012Validator(catalog.result_schema(op))
        for variant in _variants(results[tool.name]):
            verdict = compact.is_valid(variant)
            assert verdict == inlined.is_valid(variant), (tool.name, variant)
            refused += not verdict
    assert refused > len(listed)   # the variants do test something


def test_the_compact_output_schema_is_smaller_and_names_no_title():
    """The listing's outputSchemas are smaller than the inlined result schemas they replace."""
    for identifier, op in catalog.TOOLS.items():
        compact = json.dumps(catalog.shared_result_schema(op))
        assert len(compact) <= len(json.dumps(catalog.result_schema(op))), identifier
        assert '"title"' not in compact


def test_only_subschemas_are_shared_never_a_map_of_properties_or_a_value():
    """Two objects with the same (long) property map but different descriptions, and a long
    constant used twice: the property map and the constant are data of their keywords, not
    schemas, so they stay where they are; the repeated property schema itself is shared."""
    long_text = {"type": "string", "description": "a long description " * 8}
    fields = {"a": long_text, "b": {"type": "integer"}}
    constant = {"const": {"kind": "fixed", "note": "a long constant value " * 8}}
    raw = {"type": "object", "properties": {
        "first": {"type": "object", "description": "one", "properties": fields, "required": ["a"]},
        "second": {"type": "object", "description": "two", "properties": fields, "required": ["b"]},
        "third": constant, "fourth": constant}}
    shared = catalog.shared_schema(raw)
    assert shared["properties"]["first"]["properties"]["a"] == {"$ref": "#/$defs/Repeated2"}
    assert set(shared["properties"]["second"]["properties"]) == {"a", "b"}
    assert shared["properties"]["third"] == {"$ref": "#/$defs/Repeated1"}
    assert shared["$defs"]["Repeated1"] == constant      # the whole {"const": …} schema, once
    compact, original = Draft202012Validator(shared), Draft202012Validator(raw)
    instances = [{"first": {"a": "x"}, "second": {"b": 1}, "third": constant["const"]},
                 {"first": {"b": 1}}, {"second": {"a": 1, "b": 2}}, {"third": {"kind": "fixed"}},
                 {"fourth": constant["const"]}, {"first": {"a": 2}}]
    assert [compact.is_valid(i) for i in instances] == [original.is_valid(i) for i in instances]
    assert [original.is_valid(i) for i in instances] == [True, False, False, False, True, False]
