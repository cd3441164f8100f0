"""The registry of public operations and the catalog entries built from it (MATH.md §7.1).

Every declaration comes from a domain module's `TOOLS` tuple; nothing else is public. This
module turns declarations into what discovery shows: a summary entry (usable directly as an
`llm_step` catalog item: name, describe, params, optional, and input_schema, the full request
JSON Schema that the model is shown), and a full entry that adds the claim, the result JSON
Schema, the examples, the bounds and the deadline. Schemas have their references inlined and
stay in the subset every provider accepts (several do not resolve `$ref`).
"""

from __future__ import annotations

import copy
import functools
import json
import re
from typing import Any

from pydantic import BaseModel, ConfigDict

from .domains import calculus, linalg, nt, poly, sat, smt
from .domains import arithmetic, certify, contfrac, inverse, resultant, sequence
from .primitives import canonical_json
from .tool import MathTool

_ALL = nt.TOOLS + poly.TOOLS + linalg.TOOLS + calculus.TOOLS + sat.TOOLS + smt.TOOLS
_ALL += inverse.TOOLS + arithmetic.TOOLS + contfrac.TOOLS + certify.TOOLS
_ALL += resultant.TOOLS + sequence.TOOLS
TOOLS: dict[str, MathTool] = {tool.identifier: tool for tool in sorted(
    _ALL, key=lambda t: t.identifier)}
if len(TOOLS) != len(_ALL):
    raise RuntimeError("duplicate math operation identifier")
DOMAINS = tuple(sorted({tool.domain for tool in _ALL}))


def get(identifier: str) -> MathTool | None:
    return TOOLS.get(identifier)


# --- schemas --------------------------------------------------------------------------------

def _inline(node: Any, defs: dict) -> Any:
    """Replace every {"$ref": "#/$defs/X"} by a copy of X and drop "title" annotations, and
    Pydantic's OpenAPI `discriminator` (its mapping points into the dropped `$defs`): a tagged
    union becomes `anyOf`, whose variants are already told apart by their `const` tag."""
    if isinstance(node, list):
        return [_inline(item, defs) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        target = _inline(copy.deepcopy(defs[node["$ref"].rsplit("/", 1)[1]]), defs)
        extra = {k: _inline(v, defs) for k, v in node.items() if k != "$ref"}
        if "description" in extra and "description" in target:
            extra["description"] = extra["description"] + " " + target.pop("description")
        return {**target, **extra}
    out = {}
    for key, value in node.items():
        if key in ("$defs", "title", "discriminator"):
            continue
        if key == "oneOf":
            out["anyOf"] = _inline(value, defs)
        elif key == "properties":
            out[key] = {name: _inline(sub, defs) for name, sub in value.items()}
        else:
            out[key] = _inline(value, defs)
    return out


def request_schema(tool: MathTool) -> dict:
    """The request's JSON Schema with references inlined and the first example in the
    top-level description: the form every model provider accepts, sent to models as the
    tool's input schema (a fresh copy each call)."""
    return json.loads(_request_schema_text(tool.identifier))


@functools.lru_cache(maxsize=None)
def _request_schema_text(identifier: str) -> str:
    tool = TOOLS[identifier]
    raw = tool.request.model_json_schema(mode="validation")
    schema = _inline(raw, raw.get("$defs", {}))
    example = f"Example: {canonical_json(tool.examples[0].payload)}"
    schema["description"] = (schema["description"] + " " + example
                             if "description" in schema else example)
    return json.dumps(schema)


def result_schema(tool: MathTool) -> dict:
    raw = tool.result_adapter.json_schema(mode="serialization")
    return _inline(raw, raw.get("$defs", {}))


_SCRIPT_TYPES = {"boolean": "bool", "integer": "number", "number": "number",
                 "string": "text", "array": "list", "object": "map"}


def params(tool: MathTool) -> list[tuple[str, str | None, bool]]:
    """The request's top-level fields as (name, script type or None, required).

    The script types are those of the language's task parameters; a field that accepts more
    than one JSON type (an exact integer as number or text, a rational) is untyped (None), so
    a model's text argument reaches the request validator unchanged.
    """
    schema = request_schema(tool)
    required = set(schema.get("required", ()))
    return [(name, _SCRIPT_TYPES.get(prop.get("type")), name in required)
            for name, prop in schema["properties"].items()]


# --- entries --------------------------------------------------------------------------------

class CatalogEntry(BaseModel):
    """What `find` returns per operation (detail "summary"): an `llm_step` catalog item whose
    `input_schema` (the full request schema) is what the model is shown."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    identifier: str
    name: str
    domain: str
    summary: str
    outcomes: list[str]
    describe: str
    params: list[str]
    optional: list[str]
    input_schema: dict


class ExampleEntry(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    description: str
    payload: dict


class BoundsEntry(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    input: str
    computation: str
    output: str


class RuleEntry(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    code: str
    text: str


class CatalogDetail(CatalogEntry):
    """What `describe` returns, and `find` with detail "full"."""

    claim: str
    result_schema: dict
    examples: list[ExampleEntry]
    bounds: BoundsEntry
    rules: list[RuleEntry]
    deadline_ms: int


def _summary_fields(tool: MathTool) -> dict:
    fields = params(tool)
    first = tool.examples[0]
    return dict(
        identifier=tool.identifier, name=tool.identifier, domain=tool.domain,
        summary=tool.summary, outcomes=list(tool.outcomes),
        describe=first.description + (
            f" Outcomes (status): {', '.join(tool.outcomes)}." if tool.outcomes != ("value",)
            else "") + f" Example arguments: {canonical_json(first.payload)}",
        params=[f"{name}: {kind}" if kind else name for name, kind, _ in fields],
        optional=[name for name, _, required in fields if not required],
        input_schema=request_schema(tool))


def entry(tool: MathTool) -> CatalogEntry:
    return CatalogEntry(**_summary_fields(tool))


def detail(tool: MathTool) -> CatalogDetail:
    return CatalogDetail(
        **_summary_fields(tool), claim=tool.claim, result_schema=result_schema(tool),
        examples=[ExampleEntry(description=e.description, payload=e.payload)
                  for e in tool.examples],
        bounds=BoundsEntry(input=tool.bounds.input, computation=tool.bounds.computation,
                           output=tool.bounds.output),
        rules=[RuleEntry(code=r.code, text=r.text) for r in tool.rules],
        deadline_ms=tool.deadline_ms)


# --- search ---------------------------------------------------------------------------------

_STOP = frozenset("a an and are as be by for in is of on or the to with".split())


def _tokens(text: str) -> set[str]:
    return {t for t in re.split(r"[^a-z0-9]+", text.lower()) if t and t not in _STOP}


def _overlap(query: set[str], words: set[str]) -> int:
    """How many query tokens match a word: equal, a prefix of it (3+ characters), or
    extending it (a word of 5+ characters, so "factorization" finds "factor")."""
    return sum(1 for q in query if any(
        q == w or (len(q) >= 3 and w.startswith(q)) or (len(w) >= 5 and q.startswith(w))
        for w in words))


def search(query: str, domain: str | None) -> list[MathTool]:
    """Operations in ranking order: exact identifier, identifier prefix, then token overlap
    with identifier, summary and claim; ties by identifier. An empty query lists all."""
    pool = [t for t in TOOLS.values() if domain is None or t.domain == domain]
    q = query.strip().lower()
    if not q:
        return pool
    wanted = _tokens(q)
    ranked = []
    for tool in pool:
        if tool.identifier == q:
            rank = (0, 0)
        elif tool.identifier.startswith(q):
            rank = (1, 0)
        else:
            score = _overlap(wanted, _tokens(tool.identifier) | _tokens(tool.summary)
                             | _tokens(tool.claim))
            if not score:
                continue
            rank = (2, -score)
        ranked.append((rank, tool.identifier, tool))
    return [tool for _, _, tool in sorted(ranked, key=lambda r: (r[0], r[1]))]
