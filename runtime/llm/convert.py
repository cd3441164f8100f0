"""Model-written tool arguments, converted to the parameter types the model was shown.

Models write `"2"` where a number was asked for, `"[1,2]"` for a list, `5` for a text. The seed's
table fixes what each of those becomes; this module applies it by the JSON Schema sent with the
tool (so the schema the model saw and the conversion can never disagree). What cannot be read
as the declared type is left as text on purpose: `call_tool` then rejects it with an error the
script feeds back to the model, instead of a guess being run.

Decisions the seed leaves open, each pinned by a test:
- a number written as integer text (`"2"`, `" -3 "`) becomes an int; any other finite decimal
  numeral (`"2.5"`, `"2.0"`, `"1e3"`) a float; `"nan"`, `"inf"`, `"1e999"`, `"1_000"`, `"0x10"`
  stay text;
- bool text is `true`/`false` in any case, surrounding spaces ignored;
- a non-text value for a text (or untyped) parameter becomes its compact JSON text (`5` → `"5"`,
  `[1, 2]` → `"[1,2]"`), and so does `null` when that parameter is required;
- keys the tool does not declare pass through untouched (`call_tool` reports them).
"""

from __future__ import annotations

import json
import math
import re

_NUMERAL = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")
_INTEGER = re.compile(r"[+-]?\d+")
_CONTAINERS = {"array": list, "object": dict}


def convert_args(args: dict, schema: dict | None) -> dict:
    """`args` converted by `schema` (an input_schema); None (an unknown tool) converts nothing."""
    if schema is None:
        return dict(args)
    properties = schema.get("properties", {})
    required = set(schema.get("required", ()))
    converted = {}
    for name, value in args.items():
        declared = properties.get(name)
        if declared is None:
            converted[name] = value
            continue
        wanted = declared.get("type")
        if _is_null(value) and (name not in required or wanted != "string"):
            continue  # the default runs, or call_tool says the parameter is missing
        converted[name] = convert_value(value, wanted)
    return converted


def convert_value(value, wanted: str | None):
    """One value converted to the JSON Schema type `wanted`; unreadable values become text."""
    if wanted == "string":
        return value if isinstance(value, str) else _json_text(value)
    if wanted in ("number", "integer"):
        if type(value) in (int, float):
            return value
        if isinstance(value, str):
            text = value.strip()
            if _INTEGER.fullmatch(text):
                return int(text)
            if _NUMERAL.fullmatch(text) and math.isfinite(float(text)):
                return float(text)
        return _as_text(value)
    if wanted == "boolean":
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in ("true", "false"):
            return value.strip().lower() == "true"
        return _as_text(value)
    if wanted in _CONTAINERS:
        kind = _CONTAINERS[wanted]
        if isinstance(value, kind):
            return value
        if isinstance(value, str):
            try:
                decoded = json.loads(value)
            except ValueError:
                return value
            if isinstance(decoded, kind):
                return decoded
        return _as_text(value)
    return value  # a schema without one simple type: the JSON value as the model wrote it


def _is_null(value) -> bool:
    return value is None or (isinstance(value, str) and value.strip() == "null")


def _as_text(value) -> str:
    """An unreadable value, left as text for `call_tool` to reject by its type."""
    return value if isinstance(value, str) else _json_text(value)


def _json_text(value) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
