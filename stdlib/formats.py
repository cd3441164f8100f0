"""JSON: `json_encode` and `json_decode`, the data format agents exchange most.

Decoding keeps integers exact at any size (up to the 4,300-digit guard `int` uses), reads
numbers with a `.` or an exponent as floats, lets the last of duplicate keys win, and refuses
what a Synsema value cannot faithfully hold: a float out of range (`1e400`), `NaN`/`Infinity`
unless `allow_nan = true`, nesting deeper than 128 levels. Encoding is compact
(`{"a":1,"b":[1,2]}`), refuses the same things in the other direction, and never writes a
task, so `json_decode(json_encode(x))` gives `x` back for every data value.
"""

from __future__ import annotations

import base64
import json
import math
import re
from decimal import Decimal

from lang.errors import SynError
from runtime.values import decimal_text, int_text, type_name
from stdlib.core import short, wrong_type
from stdlib.registry import builtin

MAX_DEPTH = 128
_MAX_INT_DIGITS = 4300
_NO_DEFAULT = object()
# What changes the nesting depth: strings are skipped whole so brackets inside them do not count.
_NESTING = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


# ------------------------------------------------------------------ encode
def _encode(value, out: list, depth: int) -> None:
    t = type(value)
    if t is str:
        out.append(json.dumps(value, ensure_ascii=False))
    elif value is None:
        out.append("null")
    elif t is bool:
        out.append("true" if value else "false")
    elif t is int:
        out.append(int_text(value))
    elif t is float:
        if not math.isfinite(value):
            raise SynError(f"json_encode: {value!r} has no JSON form (JSON numbers are finite)")
        out.append(repr(value))
    elif t is Decimal:
        if not value.is_finite():
            raise SynError(f"json_encode: {decimal_text(value)} has no JSON form (JSON numbers are finite)")
        out.append(decimal_text(value))
    elif t is list or t is dict:
        if depth >= MAX_DEPTH:
            raise SynError(f"json_encode: the value is nested deeper than {MAX_DEPTH} levels")
        if t is list:
            out.append("[")
            for i, item in enumerate(value):
                if i:
                    out.append(",")
                _encode(item, out, depth + 1)
            out.append("]")
        else:
            out.append("{")
            for i, (key, item) in enumerate(value.items()):
                if i:
                    out.append(",")
                out.append(json.dumps(key, ensure_ascii=False))
                out.append(":")
                _encode(item, out, depth + 1)
            out.append("}")
    elif t is bytes:
        out.append('"' + base64.b64encode(value).decode("ascii") + '"')
    elif type_name(value) == "secret":
        out.append('"[redacted]"')
    else:
        raise SynError(f"json_encode: a {type_name(value)} has no JSON form — encode data "
                       f"(text, numbers, bools, nothing, lists, maps) only")


@builtin("json_encode", 1)
def json_encode(rt, value):
    """A value as compact JSON text (maps keep their key order).

    Example: json_encode([1, true, nothing]) => "[1,true,null]"
    """
    out: list[str] = []
    _encode(value, out, 0)
    return "".join(out)


# ------------------------------------------------------------------ decode
def _check_depth(text: str) -> None:
    """Refuse deep nesting before the parser recurses into it."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return
    depth = 0
    for token in _NESTING.finditer(text):
        bracket = token.group(0)
        if bracket in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise SynError(f"json_decode: the JSON is nested deeper than {MAX_DEPTH} levels")
        elif bracket in "]}":
            depth -= 1


def _parse_int(digits: str) -> int:
    if len(digits.lstrip("-")) > _MAX_INT_DIGITS:
        raise SynError(f"json_decode: an integer has more than {_MAX_INT_DIGITS} digits")
    return int(digits)


def _parse_float(digits: str) -> float:
    value = float(digits)
    if math.isinf(value):
        raise SynError(f"json_decode: the number {short(digits)} is out of range for a float")
    return value


def _refuse_constant(name: str):
    raise SynError(f"json_decode: {name} is not JSON — pass allow_nan = true to read it as a float")


_CONSTANTS = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}


def _decode(text, allow_nan: bool):
    if type(text) is not str:
        raise wrong_type("json_decode", "JSON text", text)
    _check_depth(text)
    try:
        return json.loads(text, parse_int=_parse_int, parse_float=_parse_float,
                          parse_constant=_CONSTANTS.__getitem__ if allow_nan else _refuse_constant)
    except json.JSONDecodeError as error:
        raise SynError(f"json_decode: invalid JSON at line {error.lineno} column {error.colno}: "
                       f"{error.msg} — json_decode(text, nothing) gives nothing instead of this error") from None
    except RecursionError:
        raise SynError(f"json_decode: the JSON is nested deeper than {MAX_DEPTH} levels") from None


@builtin("json_decode", 1, 2, named=("allow_nan",))
def json_decode(rt, text, default=_NO_DEFAULT, allow_nan=False):
    """Parse JSON text to Synsema values; with a `default`, any failure gives the default.

    Parse JSON text to Synsema values; with a default, any failure returns the default.

    Example: json_decode("[1, 2.5, null]") => [1, 2.5, nothing]
    Example: json_decode("oops", nothing) => nothing
    """
    if type(allow_nan) is not bool:
        raise SynError(f"json_decode: allow_nan must be true or false, got {short(allow_nan)}")
    if default is _NO_DEFAULT:
        return _decode(text, allow_nan)
    try:
        return _decode(text, allow_nan)
    except SynError:
        return default
