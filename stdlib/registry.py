"""The one table of builtins.

Each builtin is declared where it is implemented, with the `builtin` decorator:

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

A run must not import every builtin's module to know the builtins (compiling them is most of a
start-up without `.pyc` files), so the declarations are also collected, once, into one generated
table, stdlib/builtins.json: every builtin's name, module, arity, named arguments, capability
and label behaviour, in the order `load_all` registers them. `BUILTINS` is built from that table
alone; a builtin's module is imported on its first call (or when something asks for its
implementation). The two cannot drift: importing a module checks each declaration against its
row and refuses a difference, and tests/builtins/test_builtin_table.py rebuilds the table from the
modules and compares. After adding or changing a declaration, rewrite the table with
`python -m synsema.stdlib.registry`. The table is JSON, not Python, because compiling a 400-row
Python literal costs more than the start-up it saves when there is no `.pyc` cache.
"""


from __future__ import annotations

import importlib
import json
import math
import os
from collections.abc import Callable

PACKAGE = "synsema.stdlib."
TABLE_PATH = os.path.join(os.path.dirname(__file__), "builtins.json")


class BuiltinSpec:
    """How to call one builtin: its name, arity, accepted named arguments, capability, and
    how it meets labelled values under `--labels` (`flow`, see `builtin`).

    `fn` is what a call site calls: until the builtin's module is imported it is a stand-in that
    imports it and then calls the real function (`implementation`)."""

    __slots__ = ("name", "fn", "min_args", "max_args", "named", "cap", "module", "flow", "changes",
                 "reads", "_implementation")

    def __init__(self, name: str, module: str, min_args: int, max_args: int | None,
                 named: tuple[str, ...], cap: str | None, flow: str,
                 changes: tuple[str, ...] = (), reads: tuple[str, ...] = ()):
        self.name = name
        self.module = module
        self.min_args = min_args
        self.max_args = max_args
        self.named = named
        self.cap = cap
        self.flow = flow
        self.changes = changes   # process states it changes (runtime.effects), checked under labels
        self.reads = reads       # process states whose private changes its answer carries
        self._implementation = None
        self.fn = self._first_call

    def declaration(self) -> tuple:
        """What its table row says, in the row's order (stdlib/builtins.json)."""
        return (self.name, self.min_args, self.max_args, self.named, self.cap, self.flow, self.changes,
                self.reads)

    def implementation(self) -> Callable:
        """The Python function that implements it, importing its module the first time."""
        if self._implementation is None:
            importlib.import_module(self.module)
            if self._implementation is None:
                raise RuntimeError(f"stdlib/builtins.json lists builtin {self.name!r} in {self.module}, "
                                   f"which does not declare it: run `python -m synsema.stdlib.registry`")
        return self._implementation

    def _first_call(self, rt, *args, **named):
        return self.implementation()(rt, *args, **named)

    @property
    def unsupported(self) -> bool:
        """A tier-C builtin (stdlib.unsupported): present only to explain that it is missing."""
        return self.module == "synsema.stdlib.unsupported"

    def signature(self) -> str:
        """How a call is written, `split(t, sep)`: the reference's form (stdlib.reference)."""
        from synsema.stdlib.reference import BuiltinDoc
        return BuiltinDoc(self).signature()


def _read_table() -> dict[str, BuiltinSpec]:
    with open(TABLE_PATH, encoding="utf-8") as f:
        modules = json.load(f)["modules"]
    return {name: BuiltinSpec(name, PACKAGE + module, low, high, tuple(named), cap, flow, tuple(changes),
                              tuple(reads))
            for module, rows in modules.items() for name, low, high, named, cap, flow, changes, reads in rows}


# Modules that declare builtins, in the order `load_all` imports them and the table lists them.
MODULES = tuple(PACKAGE + name for name in (
    "core", "convert", "text", "collections", "numbers", "formats", "bytes", "secrets", "time_random", "files_env", "net",
    "tools", "llm", "script_math", "labels", "mcp", "concurrency", "memory", "unsupported"))

# Every builtin, from the table: nothing here imports a builtin's module.
BUILTINS: dict[str, BuiltinSpec] = _read_table()

# The number constants a program's globals start with.
CONSTANTS = {"pi": math.pi, "tau": math.tau, "e": math.e, "inf": math.inf, "nan": math.nan}

# Capabilities whose builtins send data out of the program: under --labels they are sinks.
_SINK_CAPS = ("file", "file.read", "file.write", "net", "env", "secret", "exec", "stdin")

# Off only while `write_table` collects the declarations to rewrite the table.
_CHECKED = {"against_table": True}
# name -> (module, declaration row) of every builtin whose module has been imported
DECLARED: dict[str, tuple[str, tuple]] = {}


def builtin(name: str, min_args: int, max_args: int | None = -1, *, named: tuple[str, ...] = (),
            cap: str | None = None, flow: str | None = None, changes: tuple[str, ...] = (),
            reads: tuple[str, ...] = ()):
    """Declare the decorated function as builtin `name` (its row in the table must say the same).

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
        if name in DECLARED:
            raise RuntimeError(f"builtin {name!r} declared twice")
        top = min_args if max_args == -1 else max_args
        kind = flow or ("sink" if cap in _SINK_CAPS else "propagate")
        from synsema.runtime.effects import EFFECTS
        unknown = [state for state in changes + reads if state not in EFFECTS]
        if unknown:
            raise RuntimeError(f"builtin {name!r} names an undeclared effect {unknown[0]!r}")
        row = (name, min_args, top, named, cap, kind, changes, reads)
        DECLARED[name] = (fn.__module__, row)
        if not _CHECKED["against_table"]:
            return fn
        spec = BUILTINS.get(name)
        if spec is None or spec.module != fn.__module__ or spec.declaration() != row:
            listed = "is not in it" if spec is None else f"says {spec.module}: {spec.declaration()}"
            raise RuntimeError(f"builtin {name!r} is declared in {fn.__module__} as {row}, but "
                               f"stdlib/builtins.json {listed}: run `python -m synsema.stdlib.registry`")
        spec._implementation = fn
        spec.fn = fn
        return fn
    return register


def declared() -> dict[str, BuiltinSpec]:
    """Every builtin, without importing any builtin's module: what a run, `check` and the
    editor need (names, arity, capability, label behaviour)."""
    return BUILTINS


def load_all() -> dict[str, BuiltinSpec]:
    """Every builtin with its module imported: for what reads implementations (the reference,
    docstrings, signatures) or must see every declaration."""
    for module in MODULES:
        importlib.import_module(module)
    return BUILTINS


def global_names() -> list[str]:
    """The names a program's globals start with (the keys of runtime.interp.builtin_globals):
    every builtin not reached through a module, the constants and `math`. For the static tools,
    which need the names but not the values (and not the evaluator they would import)."""
    return [*(name for name in BUILTINS if "." not in name), *CONSTANTS, "math"]


def members(module: str) -> list[BuiltinSpec]:
    """The builtins reached through the module value `module` (`math.run` for "math")."""
    prefix = module + "."
    return [spec for name, spec in BUILTINS.items() if name.startswith(prefix)]


def render_table() -> str:
    """The text of stdlib/builtins.json, from the declarations of every builtin module (which
    this imports; `write_table` turns the check against the old table off first)."""
    load_all()
    by_module: dict[str, list[tuple]] = {module: [] for module in MODULES}
    for module, row in DECLARED.values():
        by_module[module].append(row)
    lines = ["{", f'"generated_by": {json.dumps(_GENERATED_BY)},', f'"row": {json.dumps(_ROW)},', '"modules": {']
    for i, (module, rows) in enumerate(by_module.items()):
        lines.append(f"{json.dumps(module[len(PACKAGE):])}: [")
        lines.append(",\n".join(json.dumps(row) for row in rows))
        lines.append("]" + ("," if i < len(by_module) - 1 else ""))
    lines.append("}}")
    return "\n".join(lines) + "\n"


_GENERATED_BY = ("python -m synsema.stdlib.registry, from the @builtin declarations (stdlib/registry.py): "
                 "do not edit by hand; tests/builtins/test_builtin_table.py checks it")
_ROW = ("name", "min_args", "max_args (null: repeated)", "named arguments", "capability", "flow under --labels",
        "process states it changes", "process states whose changes its answer carries")


def write_table() -> None:
    """Rewrite stdlib/builtins.json from the declarations: in a fresh process, before any
    builtin module is imported (`python -m synsema.stdlib.registry`)."""
    from pathlib import Path
    _CHECKED["against_table"] = False
    Path(TABLE_PATH).write_text(render_table(), encoding="utf-8")


if __name__ == "__main__":
    from synsema.stdlib import registry   # the module the builtin modules see, not this __main__
    registry.write_table()
