"""The tool schemas `mcp serve --math` lists (issue 31: a compact `tools/list`), through the
official SDK client.

Each math tool's inputSchema stays inlined (models are shown it, and several providers do not
resolve `$ref`) and must accept every example the catalog publishes and refuse a payload the
operation refuses; its outputSchema is the compact form (`catalog.shared_result_schema`:
Pydantic's `$defs`, no titles, no keyword that decides nothing, repeats stored once) and must
accept and refuse exactly what the inlined result schema that `math.describe` shows does: on
every published example's result (the client itself checks each against the listed schema),
on fixed variants of them and on hypothesis-mutated ones; each rule that drops keywords is
also checked alone on hypothesis-generated JSON values.
"""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
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


@pytest.fixture(scope="module")
def served():
    """The math tools `mcp serve --math` lists, and the structured result of every published
    example of each, through the official client (which checks each result against the listed
    outputSchema itself)."""
    async def body(session):
        listed = [t for t in (await session.list_tools()).tools if t.name in BY_NAME]
        results = {}
        for tool in listed:
            results[tool.name] = []
            for example in catalog.TOOLS[BY_NAME[tool.name]].examples:
                result = await session.call_tool(tool.name, example.payload)
                assert result.isError is False, (tool.name, text_of(result))
                results[tool.name].append(result.structuredContent)
        return listed, results

    return with_session("--math")(body)


def test_every_math_tool_schema_is_compact_and_exactly_as_strict_as_the_operation(served):
    listed, results = served
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
        for variant in [v for result in results[tool.name] for v in _variants(result)]:
            verdict = compact.is_valid(variant)
            assert verdict == inlined.is_valid(variant), (tool.name, variant)
            refused += not verdict
    assert refused > len(listed)   # the variants do test something


# JSON values, and the text forms an exact number takes (what the output schemas' patterns judge).
_NUMBER_TEXT = st.sampled_from(["0", "-0", "7", "-12", "007", "1/2", "-3/4", "6/2", "1/0", "0.5",
                                "1e3", " 1", "9" * 4001, "x"])
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6) | _NUMBER_TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6)


def _places(value, path=()):
    """Every path into a JSON value (the value itself first)."""
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _places(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _places(item, (*path, index))


def _mutated(data, value):
    """`value` with one place changed: replaced by a JSON value, an exact number turned into
    text or the other way round, a key dropped or added, a list item dropped or repeated."""
    value = copy.deepcopy(value)
    path = data.draw(st.sampled_from(list(_places(value))))
    if not path:
        return data.draw(_JSON)
    *head, last = path
    parent = value
    for step in head:
        parent = parent[step]
    old = parent[last]
    how = data.draw(st.sampled_from(["replace", "retype", "drop", "add", "repeat"]))
    if how == "replace":
        parent[last] = data.draw(_JSON)
    elif how == "retype":
        parent[last] = (str(old) if isinstance(old, int) and not isinstance(old, bool)
                        else int(old) if isinstance(old, str) and old.lstrip("-").isdigit()
                        else data.draw(_JSON))
    elif how == "drop":
        del parent[last]
    elif how == "add" and isinstance(old, dict):
        old[data.draw(st.text(max_size=6))] = data.draw(_JSON)
    elif how == "repeat" and isinstance(old, list) and old:
        old.append(copy.deepcopy(old[0]))
    else:
        parent[last] = data.draw(_JSON)
    return value


@pytest.fixture(scope="module")
def judges(served):
    """Per math tool: its listed outputSchema's validator, the inlined one's, its results."""
    listed, results = served
    return [(tool.name, Draft202012Validator(tool.outputSchema),
             Draft202012Validator(catalog.result_schema(catalog.TOOLS[BY_NAME[tool.name]])),
             results[tool.name]) for tool in listed]


@settings(max_examples=60, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_compact_output_schema_judges_mutated_results_as_the_inlined_one_does(judges, data):
    """Every tool's results, each with a few places changed at random: the listed (compact)
    outputSchema and the inlined result schema `math.describe` shows give the same verdict."""
    for name, compact, inlined, results in judges:
        result = data.draw(st.sampled_from(results))
        for _ in range(data.draw(st.integers(1, 3))):
            result = _mutated(data, result)
        listed_verdict, inlined_verdict = compact.is_valid(result), inlined.is_valid(result)
        assert listed_verdict == inlined_verdict, (name, result)


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


# (schema, the keywords its compact form keeps at the top) for each rule of
# catalog._without_redundant_keywords, the cases it must leave alone included.
_REWRITES = [
    ({"anyOf": [{"type": "integer", "minimum": 0}, {"type": "string", "pattern": "^[0-9]+$"}],
      "description": "an exact integer"},
     {"type", "minimum", "pattern", "description"}),
    ({"anyOf": [{"type": "string", "minLength": 2}, {"type": "array", "minItems": 2},
                {"type": "null"}]}, {"type", "minLength", "minItems"}),
    ({"anyOf": [{"type": "integer"}, {"type": "number", "maximum": 5}]}, {"anyOf"}),   # one kind
    ({"anyOf": [{"type": "string", "description": "d"}, {"type": "null"}]}, {"anyOf"}),
    ({"anyOf": [{"type": "string", "const": "a"}, {"type": "integer"}]}, {"anyOf"}),
    ({"anyOf": [{"type": "string", "pattern": "^a"}, {"type": "null"}], "pattern": "b$"},
     {"anyOf", "pattern"}),
    ({"type": "string", "const": "a"}, {"const"}),
    ({"type": "boolean", "const": True}, {"const"}),
    ({"type": "integer", "const": True}, {"type", "const"}),                # true is no integer
    ({"type": "integer", "const": 1.0}, {"const"}),
    ({"type": "integer", "enum": [1, 2.5]}, {"type", "enum"}),
    ({"type": "integer", "enum": [10**400, -1]}, {"enum"}),
    ({"type": ["integer", "string"], "enum": [1, "a"]}, {"enum"}),
    ({"type": "object", "anyOf": [{"type": "object", "required": ["a"]},
                                  {"type": "array"}, {"required": ["b"]}]}, {"type", "anyOf"}),
]


@pytest.mark.parametrize("schema, kept", _REWRITES)
def test_each_redundant_keyword_rule_keeps_every_verdict(schema, kept):
    compact = catalog._without_redundant_keywords(schema)
    assert set(compact) == kept, compact
    if schema.get("type") == "object":      # a branch's type the parent states goes
        assert compact["anyOf"] == [{"required": ["a"]}, {"type": "array"}, {"required": ["b"]}]
    Draft202012Validator.check_schema(compact)
    before, after = Draft202012Validator(schema), Draft202012Validator(compact)

    @settings(max_examples=200, deadline=None, database=None)
    @given(instance=_JSON | st.dictionaries(st.sampled_from("ab"), _JSON, max_size=2))
    def same_verdict(instance):
        assert before.is_valid(instance) == after.is_valid(instance), instance

    same_verdict()
