"""One run of a Synsema program: its globals, modules, capabilities, output and host services.

`Runtime` is the `rt` every builtin receives (runtime/RUNTIME_API.md): callbacks, output,
capability checks, program arguments. It also loads modules (`use`), runs the main program and
collects `test` blocks for the test runner. Parsing is `lang`'s job and compiling is
`runtime.compiler`'s; this module wires them to the host.
"""

from __future__ import annotations

import functools
import os
import sys

from synsema.lang.errors import SynError
from synsema.lang.gcpause import collector_paused, hold
from synsema.runtime.calls import REG, call_value, callback, invoke, run_body
from synsema.runtime.capabilities import Capabilities, validate_required
from synsema.runtime.compiler import INTENT_FROZEN, Compiler
from synsema.runtime import limits
from synsema.runtime.control import quiet_broken_pipe
from synsema.runtime.labels import EMPTY, LabelState, make_secret, strip, unwrap, wrap
from synsema.runtime.values import Builtin, ModuleValue, Task, display
from synsema.stdlib.registry import CONSTANTS, declared, members


def builtin_globals() -> dict:
    """A fresh global dictionary holding every builtin and constant (users may shadow them)."""
    return dict(_builtin_table())


@functools.cache
def _builtin_table() -> dict:
    """Every builtin as a value, the constants and the `math` module, built once per process from
    the registry's table: a builtin's module is imported when the builtin is first called."""
    table = {sys.intern(name): Builtin(spec) for name, spec in declared().items() if "." not in name}
    table.update((sys.intern(name), value) for name, value in CONSTANTS.items())   # keys interned: see Compiler.binder
    math = {spec.name[len("math."):]: Builtin(spec) for spec in members("math")}
    table["math"] = ModuleValue("math", math, list(math))
    return table


class Flow:
    """One flow of control's share of the run's state: the call depth, the running builtin's
    call site, where console output goes, the capability frames and audit of `call_tool`, and
    the label pc (pc, give taint, callback labels, the running builtin's argument labels) — what
    runtime.concurrency swaps per item."""

    __slots__ = ("depth", "site", "out", "err", "frames", "audit", "labels")

    def __init__(self, depth, site, out, err, frames, audit, labels):
        self.depth, self.site, self.out, self.err = depth, site, out, err
        self.frames, self.audit, self.labels = frames, audit, labels

    def for_item(self, buffer, item_depth: int) -> "Flow":
        """An item's flow: the caller's frames, pc and audit (its records kept in order), output
        into `buffer`, and room for `item_depth` nested calls."""
        from synsema.runtime.calls import RECURSION_LIMIT
        from synsema.runtime.capabilities import AuditBuffer
        audit = AuditBuffer(self.audit, buffer) if self.audit is not None else None
        return Flow(max(self.depth, RECURSION_LIMIT - item_depth), None, buffer.out, buffer.err,
                    list(self.frames), audit, self.labels)


class Runtime:
    """The host side of a run. `mode` is "run" or "test" (human prompts auto-pass in tests)."""

    def __init__(self, *, mode: str = "run", argv=(), ceiling=None, audit=None, labels: bool = False,
                 out=None, err=None, cwd: str | None = None, stdin=None, mcp_config=None, host_files=None,
                 memory_dir: str | None = None):
        limits.install()  # this thread's decimal context and CPython's int↔text guard
        self.mode = mode
        self.labels = LabelState(ceiling) if labels else None
        self._compiler = Compiler
        if labels:  # only a --labels run loads the label compiler
            from synsema.runtime.label_compiler import LabelCompiler
            self._compiler = LabelCompiler
        self.argv = list(argv)
        self.cwd = cwd or os.getcwd()
        self.caps = Capabilities(ceiling, audit=audit, cwd=self.cwd, host_files=host_files)
        self._memory_dir = memory_dir   # the host's memory folder; None: the project's default
        self.caps.labels = self.labels
        self._out = out or _StreamWriter(sys.stdout)
        self._err = err or _StreamWriter(sys.stderr)
        self._stdin = stdin or sys.stdin
        self._checked_stdout = ceiling is not None
        # A ceiling without `stdout` closes the console to the program: host notes are dropped.
        self._console_closed = ceiling is not None and not ceiling.allows("stdout")
        self.intent = None
        self.site = None          # the call site of the capability-gated builtin running now
        self.file = "<main>"
        self.root = self.cwd
        self.globals = builtin_globals()
        self._modules: dict[str, ModuleValue] = {}
        self._loading: list[str] = []
        self._mcp_servers = mcp_config or {}   # name → runtime.mcp.config.ServerSpec
        self._mcp_hub = None
        self.caps.protect_folder(self.memory_folder())

    # ------------------------------------------------------------------ running
    def compile(self, source: str, file: str, globals_: dict, tests: list | None = None,
                is_module: bool = False, module=None):
        """Parse (unless `module` is the parsed tree) and compile a file: (closure running its
        top level, names it exports)."""
        if module is None:
            from synsema.lang.parser import parse
            module = parse(source, file)
        if self.labels is not None and not is_module:
            # The redacted text names every principal the program can declare, read before it
            # runs from its source and every module it can load: it never changes at run time.
            from synsema.lang.check import declared_principals
            self.labels.declare_principals(declared_principals(module) |
                                           {spec.principal for spec in self._mcp_servers.values()})
        compiler = self._compiler(self, globals_, file, is_module)
        code = compiler.program(module.body, tests)
        return code, compiler.exported

    def run_main(self, source: str, file: str, tests: list | None = None, only: bool = False) -> None:
        """Load and run the main program; `tests` (a list) collects test blocks instead of skipping.

        Loading runs with the cyclic collector held off (lang.gcpause). With `only` (the program
        lives as long as the process: `synsema run`, each script `synsema mcp serve` loads)
        everything alive once it is loaded is then frozen out of the collector's generations,
        so the collections the program causes walk only what it builds; what it drops is still
        freed by reference counting."""
        self.file = file
        self.root = os.path.dirname(os.path.abspath(file)) if file != "-" else self.cwd
        self.caps.protect_folder(self.memory_folder())
        if file != "-":
            self._loading.append(os.path.realpath(file))
        from synsema.lang.parser import parse
        with collector_paused():
            module = parse(source, file)
            code, _ = self.compile(source, file, self.globals, tests, module=module)
            del module
            if only:
                hold()
        REG.depth = 0
        code(None)

    def load_module(self, path: str, origin: str, span) -> ModuleValue:
        """`use "path" as x`: a local .syn file, relative to the importing file, loaded once."""
        if not path.endswith(".syn"):
            raise SynError(f"use: '{path}' is not a .syn file — modules are local Synsema files", span)
        if "\0" in path:
            raise SynError("use: a path cannot contain a NUL character", span)
        base = os.path.dirname(os.path.abspath(origin)) if origin not in ("-", "<repl>") else self.cwd
        full = os.path.realpath(os.path.join(base, path))
        root = os.path.realpath(self.root)
        if os.path.commonpath([full, root]) != root:
            raise SynError(f"use: '{path}' is outside the project (the main program's folder and below)", span)
        cached = self._modules.get(full)
        if cached is not None:
            return cached
        if full in self._loading:
            chain = " → ".join(os.path.basename(p) for p in [*self._loading, full])
            raise SynError(f"circular import: {chain}", span)
        try:
            with open(full, encoding="utf-8") as handle:
                source = handle.read()
        except OSError as problem:
            raise SynError(f"module not found: use cannot read '{path}': {problem.strerror}", span) from None
        except UnicodeDecodeError:
            raise SynError(f"use: cannot read '{path}': it is not UTF-8 text", span) from None
        self._loading.append(full)
        shown = os.path.relpath(full, self.cwd) if full.startswith(self.cwd + os.sep) else full
        try:
            module_globals = builtin_globals()
            code, exported = self.compile(source, shown, module_globals, None, is_module=True)
            code(None)
        finally:
            self._loading.pop()
        value = ModuleValue(os.path.splitext(os.path.basename(full))[0], module_globals, exported)
        self._modules[full] = value
        return value

    # ------------------------------------------------------------------ builtins' services
    def call(self, fn, args: list):
        """A callback from a builtin: permissive arity.

        Under labels the builtin gets the callback's answer without labels (it is ordinary
        Python code); the labels go to the builtin's result instead (see LabelCompiler._builtin).
        """
        st = self.labels
        if st is None:
            if type(fn) is Task and len(args) == len(fn.code.names):
                return invoke(fn, list(args))
            return call_value(self, fn, list(args), None, strict=False)
        fn, fn_labels = unwrap(fn)
        pc, taint, data = st.pc, st.give_taint, st.data
        st.pc = pc | data | fn_labels   # the builtin's private arguments decide this call
        st.give_taint = st.data = EMPTY
        try:
            if type(fn) is Builtin:  # a builtin as a callback meets the same label rules
                from synsema.runtime.label_compiler import call_labelled_builtin
                result, found = strip(call_labelled_builtin(self, fn.spec, list(args), [], None))
            else:
                result, found = strip(call_value(self, fn, list(args), None, strict=False))
            found = found | st.pc   # what leaves the callback carries its pc (label_compiler._leaving)
        except SynError as error:
            raise make_secret(error, st.pc)
        finally:
            st.pc, st.give_taint, st.data = pc, taint, data
        st.callback_labels = st.callback_labels | found | fn_labels
        return result

    def run_task(self, task: Task, frame: list):
        """Run a bound frame of `task` for the running builtin (`call`, `call_tool`): under
        labels, as a callback runs — under the pc its private arguments raise, its result
        carrying the pc it ended with, an error there secret."""
        st = self.labels
        if st is None:
            return run_body(task.code, frame)
        pc, taint, data = st.pc, st.give_taint, st.data
        st.pc = pc | data
        st.give_taint = st.data = EMPTY
        try:
            result = run_body(task.code, frame)
            return wrap(result, st.pc) if st.pc else result
        except SynError as error:
            raise make_secret(error, st.pc)
        finally:
            st.pc, st.give_taint, st.data = pc, taint, data

    def callback(self, fn, arity: int):
        """`fn` as a Python function of `arity` arguments, called as `call` would call it: for
        a builtin that calls one callback many times. A task of that arity gets the direct path
        (calls.callback, or under labels label_compiler.labelled_callback); anything else goes
        through `call`."""
        if type(fn) is Task:
            if self.labels is None:
                direct = callback(fn, arity)
            else:
                from synsema.runtime.label_compiler import labelled_callback
                direct = labelled_callback(self, fn, arity)
            if direct is not None:
                return direct
        return lambda *args: self.call(fn, args)

    def flow(self) -> "Flow":
        """What belongs to the running flow of control (see runtime.concurrency)."""
        st = self.labels
        return Flow(REG.depth, self.site, self._out, self._err, self.caps.frames(), self.caps.audit,
                    (st.pc, st.give_taint, st.callback_labels, st.data) if st is not None else None)

    def resume(self, flow: "Flow") -> None:
        """Make `flow` the running one (the thread switching in holds the evaluation lock)."""
        REG.depth = flow.depth
        self.site = flow.site
        self._out, self._err = flow.out, flow.err
        self.caps.set_flow(flow.frames, flow.audit)
        if flow.labels is not None:
            st = self.labels
            st.pc, st.give_taint, st.callback_labels, st.data = flow.labels

    def write_out(self, text: str) -> None:
        """Text already allowed out (a parallel item's buffered print): no check again."""
        self._out(text)

    def write_err(self, text: str) -> None:
        self._err(text)

    def stdout(self, text: str, what: str = "print") -> None:
        if self.labels is not None:
            self.labels.stdout(what)
        if self._checked_stdout:
            self.caps.check("stdout", None, self.site)
        self._out(text)

    def stderr(self, text: str, what: str = "eprint") -> None:
        """eprint, `log`: the console is one output behind one capability, `stdout` — a host
        ceiling without it silences stderr too — and under --labels it is a sink like stdout."""
        if self.labels is not None:
            self.labels.stdout(what)
        if self._checked_stdout:
            self.caps.check("stdout", None, self.site)
        self._err(text)

    def warn(self, text: str, what: str) -> None:
        """A note of the host's own on stderr (builtin `what` is deprecated). Its text is fixed,
        but when it appears is the program's doing: a sink under --labels, and dropped (never an
        error) when the ceiling closes the console."""
        if self.labels is not None:
            self.labels.stdout(what)
        if not self._console_closed:
            self._err(text)

    def check_cap(self, name: str, scope: str | None, grant: str | None = None) -> None:
        """Allow or refuse an access; `grant` is the narrowest `require` covering it, for the
        hint, when the request as checked is not how the program would write it (a path)."""
        self.caps.check(name, scope, self.site, grant)

    def check_secret_destination(self, sources, scope: str) -> None:
        self.caps.check_secret_destination(sources, scope, self.site)

    def read_line(self, prompt: str | None = None) -> str | None:
        self.caps.check("stdin", None, self.site)
        if prompt:
            self.stdout(prompt, "read_line's prompt")
        line = self._stdin.readline()
        if not line:
            return None
        return line[:-1] if line.endswith("\n") else line

    def mcp_tools(self, server: str):
        """The tools of an MCP server the host listed: name → runtime.mcp.client.ToolInfo."""
        return self._mcp().tools(server)

    def mcp_call(self, server: str, tool: str, arguments: dict):
        """Call one MCP tool with JSON arguments; its result as Synsema values."""
        from synsema.runtime.concurrency import waiting
        hub = self._mcp()
        with waiting():   # parallel_map's other items run while this one waits
            return hub.call(server, tool, arguments)

    def mcp_principal(self, server: str) -> str:
        """The label principal the host config gives that server's results."""
        return self._mcp().spec(server).principal

    def _mcp(self):
        if self._mcp_hub is None:
            if not self._mcp_servers:
                raise SynError("no MCP servers are listed: the host must pass --mcp-config FILE "
                               "(the mcpServers JSON format) to let a program reach one")
            from synsema.runtime.extras import need
            need("mcp", "reaching an MCP server")
            from synsema.runtime.mcp.client import Hub
            self._mcp_hub = Hub(self._mcp_servers)
        return self._mcp_hub

    def memory_folder(self) -> str:
        """Where the memory files are: the host's folder, else .synsema/memory in the project
        (the main program's folder)."""
        if self._memory_dir is not None:
            return self._memory_dir
        from synsema.runtime.capabilities import DEFAULT_MEMORY_FOLDER
        return os.path.join(self.root, DEFAULT_MEMORY_FOLDER)

    def memory(self):
        """The program's memory (runtime.memory.Store) for one call of a memory builtin, after
        the capability check of that call: each read and write is a check, so audited."""
        name = self.caps.memory_name(self.site)
        self.caps.check("memory", name, self.site)
        from synsema.runtime.memory import Store
        return Store(self.memory_folder(), name)

    def steps(self) -> int:
        """Task calls so far (under labels the `steps` builtin's "clock" flow labels it)."""
        return REG.steps

    # ------------------------------------------------------------------ labels
    def declare_principal(self, principal: str) -> None:
        """A principal the host gives (an MCP server's): declared before the run with the
        program's own, so the redacted text does not change here."""
        if principal not in self.labels.principals:
            self.labels.declare_principals([principal])

    def llm_host(self) -> tuple[str, ...] | None:
        """How the model's host may be named in a ceiling item `llm=<p>@<host>`; replaying, the
        host the cassette was recorded against; None when nothing leaves the process (offline)."""
        from synsema.runtime.llm.session import current
        return current().destination()

    # ------------------------------------------------------------------ evaluator hooks
    def validate_cap(self, name: str, scoped: bool, span) -> None:
        validate_required(name, scoped, span)

    def grant_cap(self, name: str, scope: str | None, span) -> None:
        self.caps.grant(name, scope, span)

    def enter_sandbox(self, under):
        return self.caps.enter_sandbox(under)

    def enter_tool(self, declared, task_name: str):
        return self.caps.enter_tool(list(declared), task_name)

    def leave_caps(self, token) -> None:
        self.caps.leave(token)

    def declare_intent(self, text: str, span) -> None:
        if self.intent is not None:
            raise SynError(INTENT_FROZEN, span)
        self.intent = text

    def llm_expression(self, kind: str, subject, given, objective, with_: dict) -> str:
        self.caps.check("llm", None, self.site)
        from synsema.runtime.llm.expressions import evaluate
        return evaluate(self, kind, subject, given, objective, with_)

    def human(self, kind: str, value, extra):
        """`show`, `ask`, `approve`, `confirm`: ask a person at a terminal; decide without one."""
        if kind == "show":
            shown = display(value)
            self.stdout((f"{display(extra)}: {shown}" if extra is not None else shown) + "\n")
            return value
        options = extra if kind == "ask" and type(extra) is list else None
        interactive = self.mode == "run" and self._stdin.isatty()
        if not interactive:
            if kind == "ask":
                return display(options[0]) if options else ""
            return self.mode == "test"
        question = display(value)
        if kind == "ask":
            if options:
                question += " [" + " / ".join(display(o) for o in options) + "]"
            return self.read_line(question + " ") or ""
        answer = self.read_line(question + " [y/N] ") or ""
        return answer.strip().lower() in ("y", "yes")


class _StreamWriter:
    """Write and flush at once: `synsema run` shows each line as the program produces it."""

    def __init__(self, stream):
        self.stream = stream

    def __call__(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except BrokenPipeError:
            # The reader went away (`synsema run p.syn | head -1`): stop quietly, as a Unix tool
            # killed by SIGPIPE would, and keep Python from complaining at exit.
            raise quiet_broken_pipe(self.stream) from None
