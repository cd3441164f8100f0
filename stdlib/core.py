"""Core builtins: output, conversions, type tests, errors, program control and assertions.

Conversions are where untrusted text enters a program, so each one is strict about what it
accepts (`number` gives floats, `int` exact integers, `decimal` exact decimals) and has a
*total form*: an extra argument returned instead of raising, so input can be validated
without `try`. The assertion family raises errors flagged `assertion=True`, which the test
runner reports as failed expectations rather than crashes.

The module also holds `wrong_type`, the one message shape every builtin module uses when an
argument has the wrong type, so errors read the same across the standard library.
"""

from __future__ import annotations

import math
import re
from decimal import Decimal, InvalidOperation

from synsema.lang.errors import SynError
from synsema.runtime.control import ExitProgram, SkipTest
from synsema.runtime.limits import MAX_INT_DIGITS, check_decimal, check_int
from synsema.runtime.values import CALLABLE_TYPES, display, equal, type_name
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


def wrong_type(fname: str, expected: str, value) -> SynError:
    """`upper expects text, got number`: the shared wrong-argument message."""
    return SynError(f"{fname} expects {expected}, got {type_name(value)}")


def short(value, limit: int = 40) -> str:
    """A value's display form cut to `limit` characters, for quoting it inside a message."""
    shown = '"' + value + '"' if type(value) is str else display(value)
    return shown if len(shown) <= limit else shown[:limit - 1] + "…"


def is_callable(value) -> bool:
    """Tasks, lambdas, builtins and constructors: what `rt.call` accepts."""
    return isinstance(value, CALLABLE_TYPES)


# ------------------------------------------------------------------ output
@builtin("print", 0, None, cap="stdout", flow="raw")
def print_(rt, *values):
    """Write the display forms of `values`, joined by one space, then a newline.

    Example: print("total:", 3) => total: 3
    """
    rt.stdout(" ".join([display(v) for v in values]) + "\n")


@builtin("eprint", 0, None, cap="stdout", flow="raw")
def eprint(rt, *values):
    """Like print, to stderr: diagnostics that must not mix with a program's output.

    The console is one output behind the `stdout` capability: a host ceiling without `stdout`
    refuses eprint as it refuses print.

    Example: eprint("debug") => nothing
    """
    rt.stderr(" ".join([display(v) for v in values]) + "\n")


@builtin("flush", 0)
def flush(rt):
    """Do nothing: output is never pending (kept so older programs run).

    Output is written as it is produced, so there is never anything pending: a no-op kept
    so that programs written for older engines still run.

    Example: flush() => nothing
    """
    return None


@builtin("read_line", 0, 1, cap="stdin", flow="sink")
def read_line(rt, prompt=None):
    """One line of stdin without its newline; `nothing` at end of input.

    Example: type_of(read_line) => "task"
    """
    return rt.read_line(None if prompt is None else display(prompt))


@builtin("args", 0)
def args(rt):
    """The program's arguments after `--`, as a fresh list the program may change.

    Example: args() => []
    """
    return list(rt.argv)


@builtin("steps", 0, flow="clock")
def steps(rt):
    """How many task calls the program has made so far (a cost meter). Under --labels it is
    private to every principal the run has touched.

    Example: steps() >= 0 => true
    """
    return rt.steps()


# ------------------------------------------------------------------ conversions
@builtin("text", 1)
def text(rt, value):
    """The display form of any value as text.

    Example: text(42) => "42"
    Example: text([1, 2]) + "!" => "[1, 2]!"
    """
    return display(value)


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


# ------------------------------------------------------------------ type tests
@builtin("type_of", 1)
def type_of(rt, value):
    """The type name of a value: number, text, bool, nothing, list, map, task, builtin….

    Example: type_of(1) => "number"
    Example: type_of({}) => "map"
    """
    return type_name(value)


@builtin("is_integer", 1)
def is_integer(rt, value):
    """Whether `value` is an integer: a type test, so is_integer(1.0) is false.

    A type test, not a value test: is_integer(1.0) is false (1.0 is a float).

    Example: is_integer(3) => true
    Example: is_integer(1.0) => false
    """
    return type(value) is int


@builtin("is_decimal", 1)
def is_decimal(rt, value):
    """Whether `value` is a decimal (`1.5d`).

    Example: is_decimal(1.5d) => true
    """
    return type(value) is Decimal


@builtin("is_text", 1)
def is_text(rt, value):
    """Whether `value` is text.

    Example: is_text("a") => true
    Example: is_text(1) => false
    """
    return type(value) is str


@builtin("is_list", 1)
def is_list(rt, value):
    """Whether `value` is a list.

    Example: is_list([1]) => true
    """
    return type(value) is list


@builtin("is_map", 1)
def is_map(rt, value):
    """Whether `value` is a map (records and modules are maps too).

    Example: is_map({a: 1}) => true
    """
    return type_name(value) == "map"


@builtin("length", 1)
def length(rt, value):
    """The number of items of a list, keys of a map, characters of a text or bytes of bytes.

    Example: length([1, 2, 3]) => 3
    Example: length("héllo") => 5
    """
    t = type(value)
    if t is str or t is list or t is dict or t is bytes:
        return len(value)
    raise wrong_type("length", "text, a list or a map", value)


# ------------------------------------------------------------------ errors and control
@builtin("raise", 1)
def raise_(rt, message):
    """Fail on purpose (or re-raise a recovered message); the message is coerced to text.

    Example: raise("out of stock") => error: out of stock
    """
    raise SynError(display(message))


@builtin("exit", 0, 1, flow="sink")
def exit_(rt, code=0):
    """End the program with an exit status; travels past `recover`.

    Example: type_of(exit) => "task"
    """
    if type(code) is not int or not 0 <= code <= 255:
        raise SynError(f"exit: the code must be an integer from 0 to 255, got {short(code)}")
    raise ExitProgram(code)


# ------------------------------------------------------------------ assertions
def _failure(message: str, note) -> SynError:
    if note is not None:
        message = f"{display(note)}: {message}"
    return SynError(message, assertion=True)


@builtin("assert", 1, 2)
def assert_(rt, condition, message=None):
    """Fail the test (or program) unless `condition` is truthy.

    Example: assert(1 < 2) => nothing
    Example: assert(length("") > 0, "name is empty") => error: name is empty
    """
    if not condition:  # Synsema truthiness coincides with Python's for every value type
        raise SynError("assertion failed" if message is None else display(message), assertion=True)


def _both(expected, actual) -> tuple[str, str]:
    """Display forms of two values, with their types added when the forms alone look equal."""
    shown_e = display(expected)
    shown_a = display(actual)
    if shown_e == shown_a:
        shown_e += f" ({type_name(expected)})"
        shown_a += f" ({type_name(actual)})"
    return shown_e, shown_a


@builtin("assert_eq", 2, 3)
def assert_eq(rt, actual, expected, message=None):
    """Fail unless `actual == expected` (structural equality); the failure shows both.

    Example: assert_eq(1 + 1, 2) => nothing
    Example: assert_eq([1, 2], [1, 3]) => error: expected [1, 3], got [1, 2]
    """
    if not equal(actual, expected):
        shown_e, shown_a = _both(expected, actual)
        raise _failure(f"expected {shown_e}, got {shown_a}", message)


@builtin("assert_ne", 2, 3)
def assert_ne(rt, actual, other, message=None):
    """Fail if `actual == other`.

    Example: assert_ne(1, 2) => nothing
    Example: assert_ne("a", "a") => error: expected values to differ, both a
    """
    if equal(actual, other):
        raise _failure(f"expected values to differ, both {display(actual)}", message)


@builtin("assert_error", 1)
def assert_error(rt, fn):
    """Pass only if calling `fn` raises; returns the error's message for further checks.

    Runaway recursion counts as raising, exactly as `try`/`recover` sees it.

    Example: assert_error(() => 1 / 0) => "Division by zero"
    """
    if not is_callable(fn):
        raise SynError(f"assert_error expects a task or lambda, got {type_name(fn)}")
    try:
        rt.call(fn, [])
    except SynError as error:
        if not error.catchable:
            raise  # label verdicts and errors about private data are never absorbed
        return error.message
    except RecursionError:
        return "maximum recursion depth exceeded"
    raise SynError("expected an error, but none was raised", assertion=True)


# ------------------------------------------------------------------ test markers
def _only_under_test(rt, fname: str) -> None:
    if rt.mode != "test":
        raise SynError(f"{fname}() marks a test block, and only `synsema test` runs test blocks",
                       hint=f"call {fname}() as the first line inside a `test \"name\"` block")


@builtin("skip", 0, 1, flow="sink")
def skip(rt, reason=None):
    """End the running test here; `synsema test` reports it skipped, with the reason.

    First in a test block it skips the test outright; under a condition (`when env("KEY", "")
    == ""`) it skips where the test cannot run. At a file's top level it skips the whole file.
    Under `--labels` the reason and the decision to skip must not depend on private data.

    Example: skip("needs the network") => error: skip() marks a test block
    """
    _only_under_test(rt, "skip")
    if reason is not None and type(reason) is not str:
        raise SynError(f"skip() takes a text reason, got {type_name(reason)}")
    raise SkipTest("" if reason is None else reason[:500])


@builtin("only", 0)
def only(rt):
    """As the first line of a test block: run only the tests marked so, then fail the run.

    A focus marker for debugging, as in deno: the other tests do not run, and `synsema test`
    exits 1 with a reminder to remove `only()` before committing. Anywhere else in a test it
    does nothing.

    Example: only() => error: only() marks a test block
    """
    _only_under_test(rt, "only")
