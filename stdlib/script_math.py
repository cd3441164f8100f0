"""The built-in module `math` that scripts see: `math.find`, `math.run`, `math.tool`, …

A thin layer over `stdlib.math.script` (MATH.md, Decisions: Script API). The math library and
its backends load on the first call, never at start-up. `math.tool(id)` is an ordinary task
value whose parameters are the request's top-level fields, so `tool_spec`, `call`, `call_tool`
and allow-lists treat a math operation exactly like one of the script's own tasks.
"""

from __future__ import annotations

from synsema.lang.errors import SynError
from synsema.runtime.calls import TaskCode
from synsema.runtime.labels import make_secret, strip, wrap
from synsema.runtime.limits import tree_size
from synsema.runtime.values import Param, Task, type_name
from synsema.stdlib.registry import BUILTINS, builtin



def _library():
    from synsema.runtime.extras import need
    need("math", "the math module")
    from synsema.stdlib.math import script
    return script


def _guarded(action, payload=None):
    """Run a library call, turning its failures into language errors with the library's message.

    A payload is validated as a tree, so one that shares its lists is counted first
    (runtime.limits.tree_size) and refused before validation when that tree is too large."""
    from synsema.stdlib.math.errors import MathError
    if payload is not None:
        tree_size("a math payload", payload)
    from synsema.runtime.concurrency import waiting
    try:
        with waiting():   # the library runs no Synsema code: parallel items may run meanwhile
            return action()
    except MathError as problem:
        raise SynError(str(problem)) from None


def _text(value, what: str) -> str:
    if type(value) is not str:
        raise SynError(f"{what} must be text, got {type_name(value)}")
    return value


@builtin("math.find", 0, 4, named=("query", "domain", "detail", "limit"))
def find(rt, query="", domain=None, detail="summary", limit=10):
    """Catalog entries matching `query` (usable directly as an llm_step catalog).

    Example: length(math.find("prime", limit = 1)) => 1
    """
    return _guarded(lambda: _library().find(query=_text(query, "query"), domain=domain,
                                            detail=detail, limit=limit))


@builtin("math.describe", 1)
def describe(rt, op_id):
    """One operation's catalog entry: its summary, parameters and outcomes.

    Example: math.describe("nt.prime.test").domain => "nt"
    """
    return _guarded(lambda: _library().describe(_text(op_id, "the operation id")))


@builtin("math.run", 2, changes=("math",))
def run(rt, op_id, payload):
    """Validate the payload, run exactly one operation, return its typed result.

    Example: math.run("nt.prime.test", {n: 97}).status => "prime"
    """
    if type(payload) is not dict:
        raise SynError(f"math.run expects a map payload, got {type_name(payload)}")
    return _guarded(lambda: _library().run(_text(op_id, "the operation id"), payload), payload)


@builtin("math.run_many", 2)
def run_many(rt, op_id, payloads):
    """Run one operation over a list of payloads (at most 1000), results in order; each item is
    `{status: "ok", result}` or `{status: "error", kind, message, issues}` in its place, so one
    bad payload does not stop the others. Each item has the operation's own bounds and deadline.

    Example: math.run_many("comb.binomial", [{n: 4, k: 2}, {n: 5, k: 2}])[1].result.value => 10
    """
    if type(payloads) is not list:
        raise SynError(f"math.run_many expects a list of payload maps, got {type_name(payloads)}")
    return _guarded(lambda: _library().run_many(_text(op_id, "the operation id"), payloads),
                    payloads)


@builtin("math.check", 2)
def check(rt, op_id, payload):
    """`{valid, issues}` for a payload, without running anything.

    Example: math.check("nt.prime.test", {n: 7}) => {valid: true, issues: []}
    """
    if type(payload) is not dict:
        raise SynError(f"math.check expects a map payload, got {type_name(payload)}")
    return _guarded(lambda: _library().check(_text(op_id, "the operation id"), payload), payload)


@builtin("math.prewarm", 0, 1, changes=("math",), reads=("math",))
def prewarm(rt, domains=None):
    """Load the backends of the named domains (or "all") into the math worker now; the
    backends it holds.

    Each backend (sympy, mpmath, z3, pysat) otherwise loads on the first `math.run` that needs
    it, once per process. The cost is bounded before it starts: at most every backend is
    imported, once; domains already loaded cost nothing. With no argument it loads nothing and
    reports what the worker holds.

    Example: "z3" in math.prewarm(["smt"]) => true
    """
    return _guarded(lambda: _library().prewarm([] if domains is None else domains))


@builtin("math.tool", 1)
def tool(rt, op_id):
    """A task value running one math operation, its parameters the request's fields; its
    `tool_spec` carries the operation's full request schema.

    Example: let is_prime be math.tool("nt.prime.test") => nothing
    Example: is_prime(n = 7).status => "prime"
    """
    op_id = _text(op_id, "the operation id")
    fields = _guarded(lambda: _library().tool_params(op_id))
    names = tuple(name for name, _, _ in fields)

    def body(frame):
        payload = {name: frame[i + 1] for i, name in enumerate(names) if frame[i + 1] is not None}
        st = rt.labels
        if st is None:
            return _guarded(lambda: _library().run(op_id, payload), payload)
        # under --labels: as the builtin math.run is called (label_compiler.call_labelled_builtin)
        payload, labels = strip(payload)
        st.effect(f"math.tool({op_id!r})", BUILTINS["math.run"].changes, (), labels)
        try:
            return wrap(_guarded(lambda: _library().run(op_id, payload), payload), labels)
        except SynError as error:
            raise make_secret(error, labels)

    defaults = [None if required else (lambda frame: None) for _, _, required in fields]
    code = TaskCode(op_id, False, names, defaults, body, [])
    params = tuple(Param(name, kind, not required, not required) for name, kind, required in fields)
    return Task(op_id, params, code, None, input_schema=_library().input_schema(op_id))

