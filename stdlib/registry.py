"""The one table of builtins.

Each builtin is declared once, where it is implemented, with the `builtin` decorator:

    @builtin("append", 2)
    def append(rt, xs, item): ...

`rt` is the running interpreter (see `runtime.interp.Runtime`): builtins reach callbacks
(`rt.call(f, args)`), output (`rt.out(text)`), capabilities (`rt.check_cap(name, scope)`) and the
program's arguments through it and nothing else. Arity is checked by the evaluator from the
declaration before the function runs, so implementations can rely on their argument count.
Arguments arrive as Synsema values (see `runtime.values`); errors are raised as `SynError`
without a position: the evaluator adds the call site.

The builtin reference (`synsema doc`, the REPL's `:doc`, docs/builtins.md, arity messages) is
generated from these declarations, so a builtin documents itself in two places only:

* its Python signature gives the parameters: their names after `rt`, as written; a default
  is shown as the Synsema value it stands for (`None` is `nothing`); a default that is a private
  sentinel object means "optional, no default"; `*name` is a repeated argument (`name…`). Name
  parameters for the reader: `xs`, `fn`, `text`, `key`, not `a`, `b`.
* its docstring: the first line is a one-line summary ending in a period; then, optionally,
  more prose; then one or more lines

      Example: ENTRY => SHOWN

  where ENTRY is one line a user could type at the REPL and SHOWN is what the REPL shows for it:
  what it prints, then its value as the REPL echoes it (text in quotes), or the word `nothing`
  when it shows nothing; `=> error: MESSAGE` when the entry fails with a message that begins
  with MESSAGE. Examples run in CI (tests/diagnostics/test_reference.py), in order, in one
  session per builtin that holds every capability but `net` and `exec`, with a fresh temporary
  directory as its working directory.

For instance:

    @builtin("upper", 1)
    def upper(rt, text):
        '''Text in upper case.

        Example: upper("Hi") => "HI"
        '''
"""


from __future__ import annotations

from collections.abc import Callable


class BuiltinSpec:
    """How to call one builtin: its name, arity, accepted named arguments, capability, and
    how it meets labelled values under `--labels` (`flow`, see `builtin`)."""

    __slots__ = ("name", "fn", "min_args", "max_args", "named", "cap", "module", "flow", "changes",
                 "reads")

    def __init__(self, name: str, fn: Callable, min_args: int, max_args: int | None,
                 named: tuple[str, ...], cap: str | None, module: str, flow: str,
                 changes: tuple[str, ...] = (), reads: tuple[str, ...] = ()):
        self.name = name
        self.fn = fn
        self.min_args = min_args
        self.max_args = max_args
        self.named = named
        self.cap = cap
        self.module = module
        self.flow = flow
        self.changes = changes   # process states it changes (runtime.effects), checked under labels
        self.reads = reads       # process states whose private changes its answer carries

    @property
    def unsupported(self) -> bool:
        """A tier-C builtin (stdlib.unsupported): present only to explain that it is missing."""
        return self.module == "synsema.stdlib.unsupported"

    def signature(self) -> str:
        """How a call is written, `split(t, sep)`: the reference's form (stdlib.reference)."""
        from synsema.stdlib.reference import BuiltinDoc
        return BuiltinDoc(self).signature()


BUILTINS: dict[str, BuiltinSpec] = {}

# Modules that register builtins when imported; `load_all` imports them in this order.
MODULES = (
    "synsema.stdlib.core", "synsema.stdlib.text", "synsema.stdlib.collections", "synsema.stdlib.numbers", "synsema.stdlib.formats",
    "synsema.stdlib.bytes", "synsema.stdlib.secrets",
    "synsema.stdlib.time_random", "synsema.stdlib.files_env", "synsema.stdlib.net", "synsema.stdlib.tools", "synsema.stdlib.llm",
    "synsema.stdlib.script_math", "synsema.stdlib.labels", "synsema.stdlib.mcp", "synsema.stdlib.concurrency", "synsema.stdlib.memory",
    "synsema.stdlib.unsupported",
)


# Capabilities whose builtins send data out of the program: under --labels they are sinks.
_SINK_CAPS = ("file", "file.read", "file.write", "net", "env", "secret", "exec", "stdin")


def builtin(name: str, min_args: int, max_args: int | None = -1, *, named: tuple[str, ...] = (),
            cap: str | None = None, flow: str | None = None, changes: tuple[str, ...] = (),
            reads: tuple[str, ...] = ()):
    """Register the decorated function as builtin `name`.

    `max_args` defaults to `min_args`; pass None for varargs. `named` lists the only named
    arguments the builtin accepts (`int(x, fallback = d, base = b)`); `cap` documents the
    capability the builtin asks for (it still calls `rt.check_cap` itself with the scope).
    `flow` says what `--labels` does around a call: "propagate" (the default: arguments arrive
    without labels, the result carries their union), "sink" (labelled arguments or a private
    control flow are refused; the default for builtins behind a file/net/env/exec capability),
    "raw" (the builtin sees labelled values and handles them itself: print, declassify, …),
    "llm" (labelled prompts only where the host ceiling lets that principal reach the model) or
    "clock" (like "propagate", and the result reveals elapsed time or work done, so it is also
    private to every principal the run has touched: `now`, `steps`).
    `changes` and `reads` name the process states (runtime.effects.EFFECTS) the builtin changes
    and whose changes its answer reveals; under `--labels` they meet one gate,
    `LabelState.effect`: a private change is refused or remembered, and a reading carries it.
    """
    def register(fn: Callable) -> Callable:
        if name in BUILTINS:
            raise RuntimeError(f"builtin {name!r} declared twice")
        top = min_args if max_args == -1 else max_args
        kind = flow or ("sink" if cap in _SINK_CAPS else "propagate")
        from synsema.runtime.effects import EFFECTS
        unknown = [state for state in changes + reads if state not in EFFECTS]
        if unknown:
            raise RuntimeError(f"builtin {name!r} names an undeclared effect {unknown[0]!r}")
        BUILTINS[name] = BuiltinSpec(name, fn, min_args, top, named, cap, fn.__module__, kind,
                                     changes, reads)
        return fn
    return register


def load_all() -> dict[str, BuiltinSpec]:
    """Import every builtin module (cheap ones only: heavy backends load on first use)."""
    import importlib
    for module in MODULES:
        importlib.import_module(module)
    return BUILTINS


def global_names() -> list[str]:
    """The names a program's globals start with (the keys of runtime.interp.builtin_globals):
    every builtin not reached through a module, the constants and `math`. For the static tools,
    which need the names but not the values (and not the evaluator they would import)."""
    from synsema.stdlib.numbers import CONSTANTS
    return [*(name for name in load_all() if "." not in name), *CONSTANTS, "math"]
