"""Core builtins: output, `text`, type tests, errors, program control and assertions.

The number conversions (`number`, `float`, `decimal`, `int`) are stdlib.convert. The
assertion family raises errors flagged `assertion=True`, which the test runner reports as
failed expectations rather than crashes.

The module also holds `wrong_type`, the one message shape every builtin module uses when an
argument has the wrong type, so errors read the same across the standard library.
"""

from __future__ import annotations

from decimal import Decimal

from synsema.lang.errors import SynError
from synsema.runtime.control import ExitProgram, SkipTest
from synsema.runtime.values import CALLABLE_TYPES, display, equal, type_name
from synsema.stdlib.registry import builtin


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


# ------------------------------------------------------------------ text
@builtin("text", 1)
def text(rt, value):
    """The display form of any value as text.

    Example: text(42) => "42"
    Example: text([1, 2]) + "!" => "[1, 2]!"
    """
    return display(value)


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
