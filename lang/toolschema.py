"""The one derivation of a tool's JSON Schema from its parameters (SPEC §4).

`code outline --json` publishes this schema per task and the LLM providers send the same schema
to the model, so what a model is told and what `call_tool` later checks cannot disagree. There
are two ways in because parameters reach us in two shapes: from a task signature (name, type,
required) and from a catalog entry written by `tool_spec` or by hand (`"a: number"`, `"city"`
plus an `optional` list). Both end in `input_schema`.

This module lives in `lang/` because the static tools need it and `lang` imports nothing from
`runtime` or `stdlib`.
"""

from __future__ import annotations

from collections.abc import Iterable

from synsema.lang.errors import SynError

# Synsema type name → JSON Schema type. An untyped parameter is text (SPEC §4).
JSON_TYPES = {"number": "number", "text": "string", "bool": "boolean", "list": "array", "map": "object"}


def json_type(type_name: str | None) -> str:
    """The JSON Schema type for a Synsema parameter type (None = untyped → "string")."""
    if type_name is None:
        return "string"
    try:
        return JSON_TYPES[type_name]
    except KeyError:
        known = ", ".join(JSON_TYPES)
        raise SynError(f"unknown parameter type '{type_name}' (known types: {known})") from None


def input_schema(params: Iterable[tuple[str, str | None, bool]]) -> dict:
    """Schema from (name, type or None, required) triples, in declaration order."""
    properties: dict[str, dict] = {}
    required: list[str] = []
    for name, type_name, is_required in params:
        properties[name] = {"type": json_type(type_name)}
        if is_required:
            required.append(name)
    return {"type": "object", "properties": properties, "required": required,
            "additionalProperties": False}


def parse_param(spec: str) -> tuple[str, str | None]:
    """Split a catalog parameter string: `"a: number"` → ("a", "number"), `"city"` → ("city", None)."""
    name, colon, type_name = spec.partition(":")
    name = name.strip()
    type_name = type_name.strip()
    if not name or (colon and not type_name):
        raise SynError(f"malformed parameter '{spec}': write 'name' or 'name: type'")
    return name, (type_name if colon else None)


def catalog_schema(params: Iterable[str], optional: Iterable[str] = ()) -> dict:
    """Schema from a catalog entry's `params` strings and its `optional` names."""
    skipped = set(optional)
    parsed = [parse_param(spec) for spec in params]
    return input_schema((name, type_name, name not in skipped) for name, type_name in parsed)
