"""JSON: `json_encode` and `json_decode`, the data format agents exchange most.

Decoding keeps integers exact at any size (up to MAX_INT_DIGITS, the guard `int` uses), reads
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
from runtime.limits import MAX_INT_DIGITS, joined
from runtime.values import decimal_text, int_text, type_name
from stdlib.core import short, wrong_type
from stdlib.registry import builtin

MAX_DEPTH = 128
_NO_DEFAULT = object()
# What changes the nesting depth: a string is skipped whole (to its closing quote, or to the end
# of an unterminated one) so brackets inside it do not count. Possessive repeats and a string
# that always matches once opened mean no character is looked at twice: one linear pass.
_NESTING = re.compile(r'"(?:[^"\\]++|\\.)*+(?:"|\Z)|[\[\]{}]', re.S)


# ------------------------------------------------------------------ encode
def _encode(value, depth: int, seen: dict) -> str:
    """The JSON text of `value`. Each list or map is encoded once per call (`seen`, by identity)
    and joined from its items' texts with its size checked first, so a value that holds one list
    many times over (`set x to [x, x]` in a loop) costs time linear in its parts and is refused
    as soon as its text would pass MAX_TEXT_LENGTH, not after filling memory."""
    t = type(value)
    if t is str:
        return json.dumps(value, ensure_ascii=False)
    if value is None:
        return "null"
    if t is bool:
        return "true" if value else "false"
    if t is int:
        return int_text(value)
    if t is float:
        if not math.isfinite(value):
            raise SynError(f"json_encode: {value!r} has no JSON form (JSON numbers are finite)")
        return repr(value)
    if t is Decimal:
        if not value.is_finite():
            raise SynError(f"json_encode: {decimal_text(value)} has no JSON form (JSON numbers are finite)")
        return decimal_text(value)
    if t is list or t is dict:
        if depth >= MAX_DEPTH:
            raise SynError(f"json_encode: the value is nested deeper than {MAX_DEPTH} levels")
        done = seen.get(id(value))
        if done is not None:
            return done
        if t is list:
            parts = [_encode(item, depth + 1, seen) for item in value]
            opening, closing = "[", "]"
        else:
            parts = [json.dumps(key, ensure_ascii=False) + ":" + _encode(item, depth + 1, seen)
                     for key, item in value.items()]
            opening, closing = "{", "}"
        done = seen[id(value)] = opening + joined("json_encode", parts, ",") + closing
        return done
    if t is bytes:
        return '"' + base64.b64encode(value).decode("ascii") + '"'
    if type_name(value) == "secret":
        return '"[redacted]"'
    raise SynError(f"json_encode: a {type_name(value)} has no JSON form — encode data "
                   f"(text, numbers, bools, nothing, lists, maps) only")


@builtin("json_encode", 1)
def json_encode(rt, value):
    """A value as compact JSON text (maps keep their key order).

    Example: json_encode([1, true, nothing]) => "[1,true,null]"
    """
    return _encode(value, 0, {})


# ------------------------------------------------------------------ decode
def json_too_deep(text: str, limit: int = MAX_DEPTH) -> bool:
    """Whether JSON `text` nests arrays and objects deeper than `limit`, found in one linear
    pass before any recursive parser sees it (brackets inside strings do not count)."""
    if text.count("[") + text.count("{") <= limit:
        return False
    depth = 0
    for token in _NESTING.finditer(text):
        bracket = token.group(0)
        if bracket == "[" or bracket == "{":
            depth += 1
            if depth > limit:
                return True
        elif bracket == "]" or bracket == "}":
            depth -= 1
    return False


def _check_depth(text: str) -> None:
    if json_too_deep(text):
        raise SynError(f"json_decode: the JSON is nested deeper than {MAX_DEPTH} levels")


def _parse_int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_INT_DIGITS:
        raise SynError(f"json_decode: an integer has more than {MAX_INT_DIGITS:,} digits")
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
