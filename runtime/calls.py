"""Calling things: binding arguments to a task's frame, running its body, calling builtins.

Direct calls are strict (`task 'f' takes 1 argument, got 3`); callbacks made by builtins or the
host are permissive (missing arguments arrive as `nothing`, extra ones are dropped), as
LANGUAGE.md §2 requires. A body's `give` comes back as the GIVE sentinel with its value in
`REG`, never as an exception; only a `stop` leaving its task is raised (StopLoop).
"""

from __future__ import annotations

import decimal
import itertools
import sys

from synsema.lang.errors import SynError
from synsema.runtime.control import StopLoop
from synsema.runtime.limits import MAX_DECIMAL_EXPONENT, MAX_LIST_LENGTH, check_result, too_large
from synsema.runtime.scope import UNBOUND
from synsema.runtime.values import Builtin, Constructor, Task, type_name

RECURSION_LIMIT = 3000


class _Signal:
    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return self.name


GIVE = _Signal("GIVE")
STOP = _Signal("STOP")


# Every task or lambda call counts one step by taking an item from STEPS: `next(STEPS)`, a C
# iterator's step that makes no object, where `steps += 1` made and freed an int per call (about
# 300 of a fib call's 2,000 CPU instructions). What the iterator has left says exactly how many
# were taken (Register.steps). It runs out after sys.maxsize calls (centuries of calls).
STEPS = itertools.repeat(None, sys.maxsize)
_STEPS_FULL = sys.maxsize


class Register:
    """Where a `give` leaves its value, the depth of calls (tasks, lambdas, builtins) in
    progress, and the task calls made so far (`steps`, counted by STEPS)."""

    __slots__ = ("value", "depth", "stop_span", "steps_offset")

    def __init__(self):
        self.value = None
        self.depth = 0
        self.stop_span = None
        self.steps_offset = 0   # what `steps` adds to the items taken from STEPS (its setter)

    @property
    def steps(self) -> int:
        """Task calls so far (the `steps` builtin's answer)."""
        return self.steps_offset + _STEPS_FULL - STEPS.__length_hint__()

    @steps.setter
    def steps(self, count: int) -> None:
        self.steps_offset = count - (_STEPS_FULL - STEPS.__length_hint__())

    def take_back(self, mark: int) -> None:
        """Count the steps taken since `mark = STEPS.__length_hint__()` as if they had not run
        (a public run given up part-way: label_compiler)."""
        self.steps_offset -= mark - STEPS.__length_hint__()


REG = Register()


class TaskCode:
    """A compiled task or lambda body, shared by every Task value made from one definition."""

    __slots__ = ("name", "label", "names", "arity", "defaults", "body", "extra", "has_defaults", "public", "closed",
                 "direct", "public_direct", "closed_direct")

    def __init__(self, name: str, is_lambda: bool, names: tuple[str, ...], defaults: list,
                 body, extra: list):
        self.name = name
        self.label = "lambda" if is_lambda else f"task '{name}'"
        self.names = names
        self.arity = len(names)
        self.defaults = defaults          # per parameter: compiled default or None
        self.body = body
        self.extra = extra                # UNBOUND for each local slot after the parameters
        self.has_defaults = any(d is not None for d in defaults)
        self.public = None                # under --labels: the body compiled without labels, for
        #                                   runs in which no private value exists yet (label_compiler)
        self.closed = None                # the same, when it reads nothing but its parameters: it
        #                                   may also run on public arguments once something is private
        self.direct = None                # `body` as direct(env, depth, *arguments), parameters and
        #                                   locals as Python locals (runtime.codegen), when it could be
        #                                   made; `depth` is the depth it runs at, REG.depth is left
        #                                   stale by it (callers put REG.depth back themselves)
        self.public_direct = None         # the same for `public` and `closed`
        self.closed_direct = None


def unknown_parameter(label: str, name: str, names, listing: bool = False) -> SynError:
    from synsema.lang import hints   # words errors only: loaded by the first (start-up without .pyc)
    return SynError(hints.unknown_parameter(label, name, names, listing))


def _task_call(code: TaskCode) -> str:
    """`call it as f(a, b)`: the hint of a task's arity errors."""
    from synsema.lang import hints
    return hints.call_as(code.name if code.label != "lambda" else None, code.names)


def bind(task: Task, args: list, named, strict: bool) -> list:
    """Build the frame for one call of `task`: parameters bound, defaults evaluated in it."""
    code = task.code
    names = code.names
    count = len(names)
    given = len(args)
    if given > count:
        if strict:
            from synsema.lang import hints
            raise SynError(hints.task_too_many(code.label, count, given), code="arity",
                           hint=_task_call(code))
        args = args[:count]
        given = count
    frame = [task.env, *args]
    if given < count:
        frame.extend([UNBOUND] * (count - given))
    frame.extend(code.extra)
    if named:
        for key, value in named:
            try:
                position = names.index(key)
            except ValueError:
                raise unknown_parameter(code.label, key, names) from None
            if frame[position + 1] is not UNBOUND:
                raise SynError(f"{code.label} got two values for '{key}'")
            frame[position + 1] = value
    if given < count or named:
        for position in range(count):
            if frame[position + 1] is UNBOUND:
                default = code.defaults[position]
                if default is not None:
                    frame[position + 1] = default(frame)
                elif strict:
                    from synsema.lang import hints
                    raise SynError(hints.task_missing(code.label, names[position]), code="arity",
                                   hint=_task_call(code))
                else:
                    frame[position + 1] = None
    return frame


def run_body(code: TaskCode, frame: list):
    """Execute a bound frame; the body's `give` value, or its last statement's value.

    The call depth goes back down however the body ends (a value, `give`, an error, a `stop`
    leaving through several frames, Ctrl-C), so code that catches an error and goes on —
    `recover`, `assert_error`, a callback's caller — never inherits a stale depth.
    """
    reg = REG
    if reg.depth >= RECURSION_LIMIT:
        raise SynError("maximum recursion depth exceeded")
    reg.depth += 1
    next(STEPS)
    try:  # free in CPython 3.11 when nothing is raised; keeps the depth exact on every exit
        result = code.body(frame)
    finally:
        reg.depth -= 1
    if result is GIVE:
        result = reg.value
        reg.value = None
        return result
    if result is STOP:
        raise StopLoop()
    return result


def invoke(task: Task, args: list):
    """A direct positional call: strict arity, the fast path of every `f(a, b)`."""
    code = task.code
    if len(args) == len(code.names):
        frame = [task.env, *args]
        if code.extra:
            frame += code.extra
    else:
        frame = bind(task, args, None, True)
    return run_body(code, frame)


def invoke1(task: Task, arg):
    """`invoke` for a call with exactly one argument, without building an argument list.
    (The compiler's call of a global task writes this and `run_body` out inline.)"""
    code = task.code
    if len(code.names) != 1:
        return invoke(task, [arg])
    return run_body(code, [task.env, arg, *code.extra] if code.extra else [task.env, arg])


def callback(task: Task, arity: int):
    """A Python function running `task` on exactly `arity` positional arguments, for a builtin
    that calls one callback per item (`apply`, `where`, `reduce`): `invoke` with the arity
    checked once instead of per call and no argument list. None when `task` takes another
    number of parameters (the permissive binding of `Runtime.call` then applies)."""
    code = task.code
    if len(code.names) != arity:
        return None
    env, extra = task.env, code.extra
    direct = code.direct
    entry = getattr(direct, "entry", None)   # a generated lambda body as one function (codegen)
    if entry is not None:
        made = entry(env)
        if made is not None:
            return made
    if direct is not None and arity == 1:
        def one(x):
            """`run_body` around the generated body, which takes its depth as an argument and
            may leave REG.depth stale (codegen's `sync_depth`): put back however it ends."""
            reg = REG
            depth = reg.depth
            if depth >= RECURSION_LIMIT:
                raise SynError("maximum recursion depth exceeded")
            next(STEPS)
            try:
                return direct(env, depth + 1, x)
            finally:
                reg.depth = depth
        return one
    if direct is not None and arity == 2:
        def two(a, b):
            reg = REG
            depth = reg.depth
            if depth >= RECURSION_LIMIT:
                raise SynError("maximum recursion depth exceeded")
            next(STEPS)
            try:
                return direct(env, depth + 1, a, b)
            finally:
                reg.depth = depth
        return two
    if extra:
        return lambda *args: run_body(code, [env, *args, *extra])
    if arity == 1:
        return lambda x: run_body(code, [env, x])
    if arity == 2:
        return lambda a, b: run_body(code, [env, a, b])
    return lambda *args: run_body(code, [env, *args])


def call_builtin(rt, spec, args: list, named, span=None):
    """Check a builtin's arity and named arguments against its declaration, then run it.

    A builtin behind a capability learns its call site (`rt.site`) so audit lines can name it.
    The call takes one level of the call depth, as upstream counts it: every call of a task, a
    lambda or a builtin is a level, so a recursion through `reduce`/`apply` meets the limit at
    its third of the depth, and a builtin called at the bottom of a full recursion fails.
    """
    if spec.cap is not None:
        rt.site = span
    if named:
        extra = [k for k, _ in named if k not in spec.named]
        if extra:  # before arity: `length(x = 1)` is a naming mistake, not a missing argument
            from synsema.lang import hints
            raise SynError(hints.builtin_named(spec.name, extra[0], spec.named), code="unknown-keyword",
                           hint=f"call it as {spec.signature()}")
        import inspect   # only for calls with named arguments: hello world does not load it
        code = inspect.unwrap(spec.implementation()).__code__   # its parameters after `rt`, in order
        positional = code.co_varnames[1:min(code.co_argcount, len(args) + 1)]
        twice = [k for k, _ in named if k in positional]
        if twice:
            raise SynError(f"{spec.name}: '{twice[0]}' is given twice, as argument "
                           f"{positional.index(twice[0]) + 1} and by name — give it one way",
                           code="arity", hint=f"call it as {spec.signature()}")
    given = len(args)
    if given < spec.min_args or (spec.max_args is not None and given > spec.max_args):
        from synsema.lang import hints
        raise SynError(hints.builtin_arity(spec.name, spec.min_args, spec.max_args, given), code="arity",
                       hint=f"call it as {spec.signature()}")
    reg = REG
    if reg.depth >= RECURSION_LIMIT:
        raise SynError("maximum recursion depth exceeded")
    reg.depth += 1
    try:
        result = spec.fn(rt, *args, **dict(named)) if named else spec.fn(rt, *args)
    except BUILTIN_FAILURES as problem:
        raise builtin_failure(spec.name, problem) from None
    finally:
        reg.depth -= 1
    if type(result) in SIZED_RESULTS and len(result) > MAX_LIST_LENGTH:
        check_result(spec.name, result)   # the smallest limit passed: the exact one decides
    return result


# Results runtime.limits bounds; MAX_LIST_LENGTH (the smallest limit) is the quick first test.
SIZED_RESULTS = (str, list, dict, bytes)


# What the host can throw at a builtin's Python code; each becomes a language error at the call.
_HOST_FAILURES = (MemoryError, RecursionError, OSError, UnicodeError, ArithmeticError, ValueError)
# The same, and a package of an extra that is not installed (ModuleNotFoundError).
BUILTIN_FAILURES = (*_HOST_FAILURES, ModuleNotFoundError)


def builtin_failure(name: str, problem: BaseException) -> SynError:
    """The language error for a BUILTIN_FAILURES exception raised inside builtin `name`
    (call_builtin, and the builtin calls runtime.codegen writes inline); an ImportError of a
    package no extra provides is re-raised as it is (an installation fault, not the program's)."""
    if not isinstance(problem, ModuleNotFoundError):
        return host_failure(name, problem)
    from synsema.runtime.extras import explain
    error = explain(problem, name)
    if error is None:
        raise problem
    return error


def host_failure(name: str, problem: BaseException) -> SynError:
    """The language error for a Python-level failure inside `name` (a builtin, or an operation):
    catchable by `recover`, located by the caller, never a traceback."""
    if isinstance(problem, MemoryError):
        error = SynError(f"out of memory in {name} — the run needs more memory than the host allows "
                         "(see --memory-limit)")
        error.out_of_memory = True  # uncaught, it ends the run as a host limit (runtime.resources)
        return error
    if isinstance(problem, RecursionError):
        return SynError(f"maximum recursion depth exceeded (in {name}: a value nested too deeply, "
                        "or a callback that never stops calling itself)")
    if isinstance(problem, UnicodeError):
        return SynError(f"{name}: the text cannot be encoded or decoded "
                        f"({getattr(problem, 'reason', problem)})")
    if isinstance(problem, OSError):
        return SynError(f"{name}: {problem.strerror or problem}")
    if isinstance(problem, decimal.Overflow):
        return too_large(name, "a decimal with an exponent beyond the limit", MAX_DECIMAL_EXPONENT,
                         "as the exponent")
    if isinstance(problem, decimal.DecimalException):
        return SynError(f"{name}: the decimal operation has no exact result here")
    return SynError(f"{name}: {problem}")


def call_value(rt, fn, args: list, named=None, strict: bool = True, span=None):
    """Call any callable value; `strict=False` is the permissive callback convention."""
    t = type(fn)
    if t is Task:
        if strict and not named:
            return invoke(fn, args)
        return run_body(fn.code, bind(fn, args, named, strict))
    if t is Builtin:
        return call_builtin(rt, fn.spec, args, named, span)
    if t is Constructor:
        if named:
            raise SynError(f"{fn.name}() takes its fields by position")
        return fn.build(args)
    raise SynError(f"Cannot call {type_name(fn)} — only tasks and lambdas can be called")
