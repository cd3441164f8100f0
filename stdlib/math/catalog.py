"""The registry of public operations and the catalog entries built from it (MATH.md §7.1).

Every declaration comes from a domain module's `TOOLS` tuple; nothing else is public. `get`
imports only the module that declares the one operation asked for (`index.MODULES` says which),
so a call builds the Pydantic models of its own domain module alone, and those only on first use
(`primitives.CONFIG` defers building); `TOOLS`, every declaration by identifier, imports all
modules and is what discovery reads. This module turns declarations into what discovery shows:
a summary entry (usable directly as an `llm_step` catalog item: name, describe, params,
optional, and input_schema, the full request JSON Schema that the model is shown), and a full
entry that adds the claim, the result JSON Schema, the examples, the bounds and the deadline.
Schemas have their references inlined and stay in the subset every provider accepts (several
do not resolve `$ref`).
"""

from __future__ import annotations

import copy
import functools
import importlib
import itertools
import json
import math
import re
from typing import Any

from pydantic import BaseModel, ConfigDict

from .index import DECLARED_IN, DOMAINS, IDENTIFIERS, MODULES, domain_modules
from .primitives import canonical_json
from .tool import MathTool


def get(identifier: str) -> MathTool | None:
    """The declaration of `identifier`, importing only its domain module; None if unknown."""
    module = DECLARED_IN.get(identifier)
    return None if module is None else _declared_by(module)[identifier]


def in_domains(domains) -> list[MathTool]:
    """Every declaration of the named domains, importing only the modules that hold them."""
    return [tool for module in domain_modules(domains)
            for tool in _declared_by(module).values() if tool.domain in domains]


@functools.lru_cache(maxsize=None)
def _declared_by(module: str) -> dict[str, MathTool]:
    tools = importlib.import_module(f"{__package__}.domains.{module}").TOOLS
    found = {tool.identifier: tool for tool in tools}
    if len(found) != len(tools) or sorted(found) != sorted(MODULES[module]):
        raise RuntimeError(f"stdlib/math/domains/{module}.py declares {sorted(found)}, but "
                           f"stdlib/math/index.py lists {sorted(MODULES[module])} for it")
    return found


def __getattr__(name: str) -> Any:
    """`TOOLS`: every declaration by identifier, in identifier order (imports every module)."""
    if name == "TOOLS":
        return _all()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@functools.lru_cache(maxsize=1)
def _all() -> dict[str, MathTool]:
    return {identifier: get(identifier) for identifier in IDENTIFIERS}


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


def request_schema(tool: MathTool, example: bool = True) -> dict:
    """The request's JSON Schema with references inlined and (unless `example` is False, for a
    listing whose tool description shows it already) the first example in the top-level
    description: the form every model provider accepts, sent to models as the tool's input
    schema (a fresh copy each call)."""
    return json.loads(_request_schema_text(tool.identifier, example))


@functools.lru_cache(maxsize=None)
def _request_schema_text(identifier: str, with_example: bool) -> str:
    tool = get(identifier)
    raw = tool.request.model_json_schema(mode="validation")
    schema = _inline(raw, raw.get("$defs", {}))
    example = f"Example: {canonical_json(tool.examples[0].payload)}"
    if with_example and example not in schema.get("description", ""):  # a model's text may show it
        schema["description"] = (schema["description"] + " " + example
                                 if "description" in schema else example)
    return json.dumps(schema)


def result_schema(tool: MathTool) -> dict:
    raw = tool.result_adapter.json_schema(mode="serialization")
    return _inline(raw, raw.get("$defs", {}))


def shared_result_schema(tool: MathTool) -> dict:
    """The result's JSON Schema in its compact form, for MCP's `outputSchema`: Pydantic's
    `$defs` kept rather than inlined, titles and OpenAPI `discriminator`s dropped (a tagged union
    becomes `anyOf`, as in `result_schema`), keywords that decide nothing dropped
    (`_without_redundant_keywords`), and every subschema of at least _SHARED_MIN characters that
    occurs more than once stored once in `$defs` (as `RepeatedN`) and referred to. Nothing a
    validator or a reader uses is lost; clients validate it as JSON Schema 2020-12, the dialect
    MCP names, where `$ref` is a core keyword. (Request schemas stay inlined: they
    are shown to models, and several providers do not resolve `$ref`.)"""
    return json.loads(_shared_result_schema_text(tool.identifier))


_SHARED_MIN = 120


@functools.lru_cache(maxsize=None)
def _shared_result_schema_text(identifier: str) -> str:
    return json.dumps(shared_schema(get(identifier).result_adapter.json_schema(mode="serialization")))


def shared_schema(raw: dict) -> dict:
    """`raw` (a Pydantic JSON Schema) in the compact form `shared_result_schema` describes."""
    schema = _without_redundant_keywords(_without_annotations(raw))
    defs = schema.pop("$defs", {})
    while True:
        counts: dict[str, int] = {}
        for node in (schema, *defs.values()):
            _count_subschemas(node, counts)
        repeated = [(len(text) * (n - 1), text) for text, n in counts.items() if n > 1]
        if not repeated:
            break
        text = max(repeated)[1]
        name = next(f"Repeated{n}" for n in itertools.count(1) if f"Repeated{n}" not in defs)
        ref = {"$ref": f"#/$defs/{name}"}
        schema = _replace_subschema(schema, text, ref)
        defs = {key: _replace_subschema(body, text, ref) for key, body in defs.items()}
        defs[name] = json.loads(text)
    schema, defs = _inline_single_uses(schema, defs)
    if defs:
        schema["$defs"] = defs
    return schema


def _inline_single_uses(schema: dict, defs: dict) -> tuple[dict, dict]:
    """Put each definition referred to exactly once back in its place (the indirection would
    cost more than it saves), except where that place is inside the definition itself."""
    while True:
        uses: dict[str, int] = {}
        for node in (schema, *defs.values()):
            _count_refs(node, uses)
        single = next((name for name in defs if uses.get(name) == 1
                       and not _count_refs(defs[name], {}).get(name)), None)
        if single is None:
            return schema, defs
        body = defs.pop(single)
        schema = _substitute(schema, single, body)
        defs = {name: _substitute(node, single, body) for name, node in defs.items()}


def _count_refs(schema: Any, uses: dict[str, int]) -> dict[str, int]:
    if isinstance(schema, dict):
        if "$ref" in schema:
            name = schema["$ref"].rsplit("/", 1)[1]
            uses[name] = uses.get(name, 0) + 1
        _with_subschemas(schema, lambda sub: _count_refs(sub, uses))
    return uses


def _substitute(schema: Any, name: str, body: dict) -> Any:
    """`schema` with {"$ref": name, ...} replaced by the definition, merged as `_inline` merges."""
    if not isinstance(schema, dict):
        return schema
    if schema.get("$ref") == f"#/$defs/{name}":
        merged = {**body, **{k: v for k, v in schema.items() if k != "$ref"}}
        if "description" in schema and "description" in body:
            merged["description"] = schema["description"] + " " + body["description"]
        return merged
    return _with_subschemas(schema, lambda sub: _substitute(sub, name, body))


def _without_annotations(schema: Any) -> Any:
    """Titles and OpenAPI discriminators dropped, `oneOf` written `anyOf` (its variants differ
    in their `const` tag, so at most one matches either way)."""
    if not isinstance(schema, dict):
        return schema
    out = {key: value for key, value in schema.items() if key not in ("title", "discriminator")}
    if "oneOf" in out and "anyOf" not in out:
        out["anyOf"] = out.pop("oneOf")
    return _with_subschemas(out, _without_annotations)


# The kind of instance each JSON Schema type names ("integer" and "number" are one kind), and the
# keywords that constrain instances of one kind only (an instance of another kind passes them).
_KIND = {"integer": "number", "number": "number", "string": "string", "array": "array",
         "object": "object", "boolean": "boolean", "null": "null"}
_ONLY_FOR = {"number": {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"},
             "string": {"minLength", "maxLength", "pattern", "format"},
             "array": {"items", "prefixItems", "minItems", "maxItems", "uniqueItems", "contains",
                       "minContains", "maxContains"},
             "object": {"properties", "required", "additionalProperties", "patternProperties",
                        "minProperties", "maxProperties", "propertyNames", "dependentRequired",
                        "dependentSchemas"},
             "boolean": set(), "null": set()}


def _without_redundant_keywords(schema: Any) -> Any:
    """`schema` with the same verdict on every instance and fewer keywords (JSON Schema 2020-12):
    * an `anyOf` whose branches each allow one type, of kinds that differ, and constrain only
      instances of that kind (an exact integer: integer, or text matching a pattern) becomes one
      schema with the list of types and every branch's keywords — an instance is of one kind, so
      exactly its branch's keywords apply to it, as before;
    * a `type` beside a `const` or `enum` whose values all have that type goes (the value decides);
    * a branch of `anyOf`/`allOf`/`oneOf` stating the very type its parent states drops it."""
    if not isinstance(schema, dict):
        return schema
    out = _with_subschemas(schema, _without_redundant_keywords)
    branches = out.get("anyOf")
    if "type" not in out and isinstance(branches, list) and _one_type_each(branches, set(out)):
        merged = {"type": [branch["type"] for branch in branches]}
        for branch in branches:
            merged.update((key, value) for key, value in branch.items() if key != "type")
        out = {**merged, **{key: value for key, value in out.items() if key != "anyOf"}}
    parent = out.get("type")
    if isinstance(parent, str):
        for key in ("anyOf", "allOf", "oneOf"):
            if isinstance(out.get(key), list):
                out[key] = [{k: v for k, v in branch.items() if k != "type"}
                            if isinstance(branch, dict) and branch.get("type") == parent else branch
                            for branch in out[key]]
    if "type" in out and ("const" in out or "enum" in out):
        allowed = out["type"] if isinstance(out["type"], list) else [out["type"]]
        values = [out["const"]] if "const" in out else out["enum"]
        if isinstance(values, list) and all(_has_a_type(value, allowed) for value in values):
            del out["type"]
    return out


def _one_type_each(branches: list, beside: set) -> bool:
    """Whether `branches` each allow one type, their kinds all differ, and each constrains only
    its own kind with keywords none of the others nor the parent (`beside`) uses."""
    kinds = []
    for branch in branches:
        if not (isinstance(branch, dict) and isinstance(branch.get("type"), str)
                and branch["type"] in _KIND):
            return False
        kind = _KIND[branch["type"]]
        if not set(branch) - {"type"} <= _ONLY_FOR[kind] or (set(branch) - {"type"}) & beside:
            return False
        kinds.append(kind)
    return len(kinds) > 1 and len(set(kinds)) == len(kinds)


def _has_a_type(value: Any, types: list) -> bool:
    """Whether the JSON `value` is an instance of one of `types` (1.0 is an integer, as in
    JSON Schema; a boolean is no number)."""
    if value is None:
        return "null" in types
    if isinstance(value, bool):
        return "boolean" in types
    if isinstance(value, int):
        return "number" in types or "integer" in types
    if isinstance(value, float):
        return "number" in types or ("integer" in types and value.is_integer())
    if isinstance(value, str):
        return "string" in types
    return ("array" if isinstance(value, list) else "object") in types


# Where JSON Schema keywords hold subschemas; every other keyword's value (const, default, enum,
# required, …) is data, never shared or replaced.
_SCHEMA_MAPS = ("properties", "patternProperties", "dependentSchemas", "$defs")
_SCHEMA_LISTS = ("anyOf", "allOf", "oneOf", "prefixItems")
_SCHEMA_ONE = ("items", "additionalProperties", "not", "contains", "propertyNames", "if", "then",
               "else", "unevaluatedItems", "unevaluatedProperties")


def _with_subschemas(schema: dict, change) -> dict:
    """A copy of `schema` with `change` applied to each of its direct subschemas."""
    out = {}
    for key, value in schema.items():
        if key in _SCHEMA_MAPS and isinstance(value, dict):
            out[key] = {name: change(sub) for name, sub in value.items()}
        elif key in _SCHEMA_LISTS and isinstance(value, list):
            out[key] = [change(sub) for sub in value]
        elif key in _SCHEMA_ONE and isinstance(value, dict):
            out[key] = change(value)
        else:
            out[key] = value
    return out


def _count_subschemas(schema: Any, counts: dict[str, int]) -> Any:
    """How often each subschema (as canonical JSON) of at least _SHARED_MIN characters occurs."""
    if isinstance(schema, dict):
        text = json.dumps(schema, sort_keys=True)
        if len(text) >= _SHARED_MIN and "$ref" not in schema:
            counts[text] = counts.get(text, 0) + 1
        _with_subschemas(schema, lambda sub: _count_subschemas(sub, counts))
    return schema


def _replace_subschema(schema: Any, text: str, ref: dict) -> Any:
    if not isinstance(schema, dict):
        return schema
    if len(text) >= _SHARED_MIN and json.dumps(schema, sort_keys=True) == text:
        return dict(ref)
    return _with_subschemas(schema, lambda sub: _replace_subschema(sub, text, ref))


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

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)
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
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)
    description: str
    payload: dict


class BoundsEntry(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)
    input: str
    computation: str
    output: str


class RuleEntry(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)
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
#
# Ranking: an exact identifier first, then identifiers the query is a prefix of, then the rest
# by score. A query word scores where it matches best, weighted by the field (identifier 4,
# vocabulary 3, summary 2, claim 1) and by how rare it is across the catalog (idf, so
# "matrix" counts less than "kernel"); a vocabulary phrase found whole in the query adds its
# words' idf again, twice. Words match by their English stem (snowball), or when one stem of
# at least six letters begins the other ("factorisation" finds "factor"). Ties go to the
# operation matching more query words, then to the one whose best match is in a heavier
# field, and only then to the identifier. A declaration's synonyms (informal names, and the
# field it works over: "GF", "mod p") count as vocabulary, so a query naming the domain ranks
# the operation over that domain first; notation such as A^-1 and GF(p) reads as its word.

_STOP = frozenset("""a an and are as at be by can do does for from give how i in into is it
    its me my of on or over please the this that to using what which whether with compute
    calculate find get determine want exact exactly""".split())
_FIELD_WEIGHTS = (("identifier", 4), ("vocabulary", 3), ("summary", 2), ("claim", 1))
_PHRASE_BONUS = 2
_PREFIX = 6
_QUERY_PREFIX = 4


@functools.lru_cache(maxsize=4096)
def _stem(word: str) -> str:
    return _STEMMER().stemWord(word)


@functools.lru_cache(maxsize=1)
def _STEMMER():
    import snowballstemmer
    return snowballstemmer.stemmer("english")


# Notation read as the word it stands for: A^-1 is an inverse; GF(p), F_7 and F_p name a
# finite field (searched as "gf", which the operations over one declare as a synonym); a
# product of two variables, x*y, is nonlinear; <, >, <=, >= state an inequality.
_NOTATION = ((re.compile(r"\^\s*\(?\s*-\s*1\s*\)?"), " inverse "),
             (re.compile(r"\b(?:gf\s*\(?\s*\w+\s*\)?|f_\(?\w+\)?)"), " gf "),
             (re.compile(r"\b[a-z]\s*\*\s*[a-z]\b"), " nonlinear "),
             (re.compile(r"[<>]=?|[≤≥]"), " inequality "))


# A coefficient times a variable ("3x", "5y") is notation of an example, not a word to rank by.
_MONOMIAL = re.compile(r"[0-9]+[a-z]")


def _words(text: str) -> list[str]:
    """Stemmed words of `text`, stop words and single characters dropped, in order."""
    text = text.lower()
    for pattern, word in _NOTATION:
        text = pattern.sub(word, text)
    return [_stem(w) for w in re.split(r"[^a-z0-9]+", text)
            if len(w) > 1 and w not in _STOP and not _MONOMIAL.fullmatch(w)]


def _matches(q: str, w: str, fragment: bool = True) -> bool:
    """A query word matches an indexed word when equal, when it is a `fragment` (no word of
    the catalog) that begins it and has at least _QUERY_PREFIX letters ("eigen" finds
    "eigenvalues"), or when the shorter of the two stems has at least _PREFIX letters and
    begins the other ("factorisation" finds "factor"). A query word that is a catalog word is
    that word, not the start of a longer one: "integers" (stem "integ") does not find
    "integrate" (stem "integr")."""
    if q == w:
        return True
    if fragment and len(q) >= _QUERY_PREFIX and w.startswith(q):
        return True
    short, long_ = (q, w) if len(q) <= len(w) else (w, q)
    return len(short) >= _PREFIX and long_.startswith(short)


# What a domain's abbreviated name stands for; searched as part of the identifier.
DOMAIN_WORDS = {"nt": "number theory integers", "comb": "combinatorics counting",
                "poly": "polynomial polynomials", "linalg": "linear algebra matrix matrices",
                "calculus": "calculus", "sat": "boolean propositional",
                "smt": "smt solver constraints"}


class _Indexed:
    """One operation's searchable words per field and its vocabulary phrases."""

    def __init__(self, tool: MathTool):
        self.tool = tool
        named = tool.identifier.replace("_", " ") + " " + DOMAIN_WORDS.get(tool.domain, "")
        terms = tool.vocabulary + tool.synonyms
        self.fields = {"identifier": set(_words(named)),
                       "vocabulary": {w for phrase in terms for w in _words(phrase)},
                       "summary": set(_words(tool.summary)), "claim": set(_words(tool.claim))}
        self.phrases = [tuple(_words(phrase)) for phrase in terms]
        self.all = set().union(*self.fields.values())


@functools.lru_cache(maxsize=1)
def _index() -> tuple[list[_Indexed], dict[str, float]]:
    indexed = [_Indexed(tool) for tool in _all().values()]
    frequency: dict[str, int] = {}
    for entry in indexed:
        for word in entry.all:
            frequency[word] = frequency.get(word, 0) + 1
    total = len(indexed)
    return indexed, {w: math.log((total + 1) / (n + 0.5)) for w, n in frequency.items()}


def _idf(word: str, idf: dict[str, float]) -> float:
    known = [v for w, v in idf.items() if _matches(word, w, word not in idf)]
    return max(known, default=0.0)


def _score(entry: _Indexed, query: list[str], idf: dict[str, float]) -> tuple:
    score, matched, heaviest = 0.0, 0, 0
    for q in set(query):
        fragment = q not in idf
        weight = next((w for name, w in _FIELD_WEIGHTS
                       if any(_matches(q, word, fragment) for word in entry.fields[name])), 0)
        if weight:
            score += weight * _idf(q, idf)
            matched += 1
            heaviest = max(heaviest, weight)
    n = len(query)
    for phrase in entry.phrases:
        k = len(phrase)
        if k and any(all(_matches(a, b, a not in idf) for a, b in zip(query[i:i + k], phrase))
                     for i in range(n - k + 1)):
            score += _PHRASE_BONUS * sum(_idf(w, idf) for w in phrase)
    return score, matched, heaviest


def search(query: str, domain: str | None) -> list[MathTool]:
    """Operations in ranking order (see above); an empty query lists all by identifier."""
    pool = [t for t in _all().values() if domain is None or t.domain == domain]
    q = query.strip().lower()
    if not q:
        return pool
    exact = [t for t in pool if t.identifier == q]
    prefix = [t for t in pool if t.identifier != q and t.identifier.startswith(q)]
    words = _words(q)
    indexed, idf = _index()
    scored = []
    for entry in indexed:
        if entry.tool in exact or entry.tool in prefix or entry.tool not in pool:
            continue
        score, matched, heaviest = _score(entry, words, idf)
        if score > 0:
            scored.append(((-round(score, 9), -matched, -heaviest, entry.tool.identifier),
                           entry.tool))
    return exact + prefix + [tool for _, tool in sorted(scored, key=lambda pair: pair[0])]
