"""Conversion builtins: `number`, `float`, `decimal` and `int`, from text and between number kinds.

Conversions are where untrusted text enters a program, so each one is strict about what it
accepts (`number` gives floats, `int` exact integers, `decimal` exact decimals) and has a
*total form*: an extra argument returned instead of raising, so input can be validated
without `try`. They are a module of their own, loaded at the first call of one of them, so a
program that converts nothing (hello world) never compiles them or their patterns.
"""

from __future__ import annotations

import math
import re
from decimal import Decimal, InvalidOperation

from synsema.lang.errors import SynError
from synsema.runtime.limits import MAX_INT_DIGITS, check_decimal, check_int
from synsema.runtime.values import display, type_name
from synsema.stdlib.core import short
from synsema.stdlib.registry import builtin

# Beyond ±2^53 not every integer has a float: `number` refuses such integer text.
_FLOAT_EXACT = 2 ** 53
# CPython's own guard against quadratic-time conversions; `int` keeps it for every base.
# Number text: digits with `_` only between two digits, optional fraction and exponent.
_DIGITS = r"\d+(?:_\d+)*"
_NUMBER_TEXT = re.compile(rf"[+-]?(?:{_DIGITS}(?:\.(?:{_DIGITS})?)?|\.{_DIGITS})(?:[eE][+-]?\d+)?")
_INTEGER_TEXT = re.compile(rf"[+-]?{_DIGITS}")
_UNSIGNED = re.compile(_DIGITS)
_PREFIXED = {"0x": (16, re.compile(r"[0-9a-fA-F]+(?:_[0-9a-fA-F]+)*")),
             "0o": (8, re.compile(r"[0-7]+(?:_[0-7]+)*")),
             "0b": (2, re.compile(r"[01]+(?:_[01]+)*"))}
_WORD = re.compile(r"[0-9a-zA-Z]+(?:_[0-9a-zA-Z]+)*")
_NO_DEFAULT = object()


def _number_text(fname: str, value: str, kind: str = "a number") -> str:
    """The text of a decimal number with its `_` separators removed, or a conversion error."""
    cleaned = value.strip()
    if not _NUMBER_TEXT.fullmatch(cleaned):
        raise SynError(f"Cannot convert {short(value)} to {kind} — {fname}(x, default) gives "
                       f"the default instead of this error")
    return cleaned.replace("_", "")


def _finite_float(fname: str, digits: str, original) -> float:
    result = float(digits)
    if math.isinf(result):
        raise SynError(f"{fname}: {short(original)} is out of range for a float")
    return result


def _beyond_float(digits: str) -> bool:
    """Whether unsigned integer digits exceed 2^53 (by length first: int() of very long text
    is refused by CPython)."""
    significant = digits.lstrip("0")
    return len(significant) > 16 or int(significant or "0") > _FLOAT_EXACT


def _inexact(fname: str, value) -> SynError:
    return SynError(f"{fname}: {short(value)} is an integer beyond ±2^53, where a float loses "
                    f"digits — use int(x) to keep it exact")


def _to_float(fname: str, value, exact_only: bool) -> float:
    """Text, int or decimal as a float; `exact_only` refuses integers a float cannot hold."""
    t = type(value)
    if t is float:
        return value
    if t is int:
        if exact_only and abs(value) > _FLOAT_EXACT:
            raise _inexact(fname, value)
        try:
            return float(value)
        except OverflowError:
            raise SynError(f"{fname}: {short(value)} is too large for a float") from None
    if t is Decimal:
        if value.is_nan() or value.is_infinite():
            return float(value)
        return _finite_float(fname, str(value), value)
    if t is str:
        digits = _number_text(fname, value)
        if exact_only and _INTEGER_TEXT.fullmatch(digits) and _beyond_float(digits.lstrip("+-")):
            raise _inexact(fname, value)
        return _finite_float(fname, digits, value)
    raise SynError(f"Cannot convert {type_name(value)} to a number — {fname} takes text or a number")


def _total(convert, fname: str, value, default):
    """Run a conversion; with a default given, any failure returns the default instead."""
    if default is _NO_DEFAULT:
        return convert(fname, value)
    try:
        return convert(fname, value)
    except SynError:
        return default


@builtin("number", 1, 2)
def number(rt, value, default=_NO_DEFAULT):
    """Text or number as a number (a float from text); `default` when text does not parse.

    Text or number → float. Integer text past 2^53 is refused: a float would change it.

    Example: number("2.5") => 2.5
    Example: number("abc", 0) => 0
    """
    return _total(lambda f, v: _to_float(f, v, True), "number", value, default)


@builtin("float", 1, 2)
def float_(rt, value, default=_NO_DEFAULT):
    """Like number, but asked for explicitly: a large integer is rounded to the nearest float,
    and a bool is 1.0 or 0.0.

    Example: float("2.5") => 2.5
    Example: float(3) => 3.0
    Example: float(true) => 1.0
    """
    if type(value) is bool:
        return float(value)
    return _total(lambda f, v: _to_float(f, v, False), "float", value, default)


def _to_decimal(fname: str, value) -> Decimal:
    t = type(value)
    if t is Decimal:
        return value
    if t is int:
        check_int(fname, value)
        return check_decimal(fname, Decimal(value))
    if t is float:
        if math.isnan(value) or math.isinf(value):
            raise SynError(f"decimal: {display(value)} has no decimal value")
        return Decimal(repr(value))  # the shortest text of the float: decimal(0.1) is 0.1
    if t is str:
        try:
            return check_decimal(fname, Decimal(_number_text(fname, value, "a decimal")))
        except InvalidOperation:
            raise SynError(f"Cannot convert {short(value)} to a decimal") from None
    raise SynError(f"Cannot convert {type_name(value)} to a decimal — decimal takes text or a number")


@builtin("decimal", 1, 2)
def decimal(rt, value, default=_NO_DEFAULT):
    """Exact base-10 number from text (scale kept: "1.50"), an int, or a float's shortest text.

    Example: decimal("1.50") => 1.50
    Example: decimal("x", 0) => 0
    """
    return _total(_to_decimal, "decimal", value, default)


def _int_from_text(value: str, base) -> int:
    """Integer text: sign, digits with `_` separators, a 0x/0o/0b prefix, or digits in `base`."""
    cleaned = value.strip()
    sign = -1 if cleaned[:1] == "-" else 1
    body = cleaned[1:] if cleaned[:1] in "+-" else cleaned
    if base is None:
        radix, pattern = _PREFIXED.get(body[:2].lower(), (10, None))
        if pattern is None:
            pattern = _UNSIGNED
        else:
            body = body[2:]
    else:
        radix, pattern = base, _WORD
    if len(body) > MAX_INT_DIGITS:
        raise SynError(f"value too large: int: the text has {len(body):,} digits; integers are read "
                       f"from at most {MAX_INT_DIGITS:,} digits")
    if pattern.fullmatch(body):
        try:
            return sign * int(body, radix)
        except ValueError:
            pass
    if base is None:   # the message is built only when it is shown
        raise SynError(f"Cannot convert {short(value)} to an integer — int takes digits like "
                       f"-42, 1_000, 0xff, 0o17 or 0b101")
    raise SynError(f"Cannot convert {short(value)} to an integer in base {base}")


def _to_int(value, base) -> int:
    t = type(value)
    if base is not None and t is not str:
        raise SynError(f"int: base = applies to text, got {type_name(value)}")
    if t is int:
        return value
    if t is float or t is Decimal:
        finite = value.is_finite() if t is Decimal else math.isfinite(value)
        if not finite or value != int(value):
            raise SynError(f"int: {display(value)} is not a whole number — use round(x), floor(x), "
                           f"ceil(x) or trunc(x) to choose how to round it")
        return int(value)
    if t is str:
        return _int_from_text(value, base)
    raise SynError(f"Cannot convert {type_name(value)} to an integer — int takes text or a number")


@builtin("int", 1, 2, named=("fallback", "base"))
def int_(rt, value, *extra, fallback=_NO_DEFAULT, base=None):
    """Exact integer from an int, a whole float or decimal, or integer text (any base).

    A second positional argument is the default, as for `number(x, d)`, except an integer
    from 2 to 36: `int("ff", 16)` reads as Python's base, so that one must be named.

    Example: int("42") => 42
    Example: int("ff", base = 16) => 255
    Example: int("x", fallback = 0) => 0
    Example: int("x", 0) => 0
    """
    if value.__class__ is str and not extra and base is None and value.isascii() and value.isdigit() \
            and len(value) <= MAX_INT_DIGITS:
        return int(value)   # plain decimal digits: what _int_from_text reads them as, without its regex
    if extra:
        default = extra[0]
        if type(default) is int and 2 <= default <= 36:
            raise SynError(f"int(x, {default}): the second argument is the fallback value, not the base, "
                           f"and from 2 to 36 it is ambiguous: write int(x, base = {default}) to read text "
                           f"in that base, or int(x, fallback = {default}) to get it instead of an error")
        if fallback is not _NO_DEFAULT:
            raise SynError("int: the default is given twice, by position and as fallback =")
        fallback = default
    if base is not None and (type(base) is not int or not 2 <= base <= 36):
        raise SynError(f"int: base must be an integer from 2 to 36, got {short(base)}")
    if fallback is _NO_DEFAULT:
        return _to_int(value, base)
    try:
        return _to_int(value, base)
    except SynError:
        return fallback
