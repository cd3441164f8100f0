"""The `synsema` command.

Exit codes: 0 success, 1 a program error or a failed test, 2 a usage error (unknown flag or
subcommand, unreadable path, `--sandbox` with `--cap-set`, an output path that is an input),
3 a host resource limit (`--time-limit`, `--memory-limit`) ended the command, 5 `synsema test`
ran no test (none selected or none written), 130 SIGINT (Ctrl-C) or 143 SIGTERM ended it (the
audit log still gets its summary), 141 stdout or
stderr was a pipe whose reader went away. Programs run on a worker thread
with a large stack so that 3,000 nested Synsema calls end in the language's own
`maximum recursion depth exceeded`, never in a crashed interpreter.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import threading
from contextlib import contextmanager

from synsema import __version__ as VERSION

class UsageError(Exception):
    """A mistake in the command line itself: reported with the usage text, exit 2."""


def _usage_error(message: str, command: str | None = None) -> int:
    where = f"see: synsema {command} --help" if command else "synsema --help shows the commands"
    sys.stderr.write(f"synsema: {message}\n({where})\n")
    return 2


def refuse_output_over_input(flag: str, output: str | None, inputs: list[str]) -> None:
    """An output flag that names one of the input files would destroy it before it is read."""
    if output is None:
        return
    for path in inputs:
        if path == "-":
            continue
        try:
            same = os.path.samefile(output, path)
        except OSError:  # the output does not exist yet (or cannot be inspected): compare names
            same = os.path.realpath(output) == os.path.realpath(path)
        if same:
            raise UsageError(f"{flag} {output} is one of the input files; it would be overwritten — "
                             "write the output somewhere else")


class HostFlags:
    """The flags every program-running command shares, completed by the project file
    (runtime.project): a flag given on the command line wins over the file's key."""

    def __init__(self):
        self.labels = False
        self.sandbox = False
        self.cap_set = None
        self.audit = None
        self.mcp_config = None
        self.memory_dir = None
        self.time_limit = None
        self.memory_limit = None
        self.math_prewarm = None
        self.env_file = None
        self.no_env_file = False
        self.config = None
        self.no_config = False
        self.audit_in_report = False   # `run --format json`: `--audit json` goes into the report
        self.project = None            # the runtime.project.Project in force, once loaded
        self.sources: dict[str, str] = {}   # setting → where its value came from (a flag, a file:line)
        self._audit = None

    _SWITCHES = ("--labels", "--sandbox", "--no-env-file", "--no-config")
    _VALUED = ("--cap-set", "--audit", "--mcp-config", "--memory-dir", "--time-limit", "--memory-limit", "--math-prewarm",
               "--env-file", "--config")

    def take(self, args: list[str], i: int) -> int:
        """Consume the host flag at args[i] if it is one; the index after it, or i unchanged."""
        arg = args[i]
        if arg in self._SWITCHES:
            self._set(arg, True)
            return i + 1
        for flag in self._VALUED:
            if arg == flag:
                if i + 1 >= len(args):
                    raise UsageError(f"{flag} needs a value")
                self._set(flag, args[i + 1])
                return i + 2
            if arg.startswith(flag + "="):
                self._set(flag, arg[len(flag) + 1:])
                return i + 1
        return i

    def _set(self, flag: str, value) -> None:
        name = flag[2:].replace("-", "_")
        setattr(self, name, value)
        self.sources[name] = flag

    def load_project(self, paths: list[str] = ()) -> None:
        """Find and read the project file (unless --no-config) and take each `[host]` key the
        command line did not give; a key the environment overrides (SYNSEMA_TIME_LIMIT, …) is
        left to it. A malformed file is a usage error naming its line and key."""
        from synsema.runtime import project_search
        if self.no_config:
            if self.config is not None:
                raise UsageError("--config and --no-config cannot be used together")
            return
        path = self.config if self.config is not None else project_search.find(
            project_search.start_directory(list(paths)))
        if path is None:
            return
        from synsema.runtime import project
        try:
            self.project = project.load(path)
        except project.ProjectError as problem:
            raise UsageError(str(problem)) from None
        ceiling_given = {"cap_set", "sandbox"} & self.sources.keys()
        for dotted, setting in self.project.settings.items():
            key = setting.key
            if key.table != "host" or key.name in self.sources or (key.env and os.environ.get(key.env, "").strip()):
                continue
            if key.name in ("cap_set", "sandbox") and ceiling_given:
                continue  # a ceiling on the command line replaces the file's
            value = (",".join(setting.value) or "none") if key.kind == "list" else setting.value
            setattr(self, key.name, value)
            self.sources[key.name] = self.project.source(dotted)

    def _from_file(self, name: str) -> str | None:
        """`file:line` when setting `name` came from the project file, else None."""
        source = self.sources.get(name)
        return None if source is None or source.startswith("--") else source

    def audit_path(self) -> str | None:
        """The file `--audit` writes, when it names one (not `json` or `fd:N`)."""
        if self.audit is None or self.audit == "json" or (self.audit.startswith("fd:") and self.audit[3:].isdigit()):
            return None
        return self.audit

    def runtime_options(self) -> dict:
        from synsema.lang.errors import SynError
        from synsema.runtime.capabilities import Ceiling
        llm_config = self.settle_llm()
        if self.sandbox and self.cap_set is not None:
            raise UsageError("--sandbox and --cap-set cannot be used together: --sandbox is the ceiling "
                             "'stdout,time'; pass that to --cap-set instead if you need more")
        ceiling = None
        try:
            if self.sandbox:
                ceiling = Ceiling.sandbox()
            elif self.cap_set is not None:
                in_file = self._from_file("cap_set")
                ceiling = Ceiling.parse(self.cap_set, self.project.directory if in_file else None)
        except SynError as problem:
            in_file = self._from_file("cap_set")
            raise UsageError(f"{in_file}: [host] cap_set: {problem.message.removeprefix('--cap-set: ')}"
                             if in_file else problem.message) from None
        audit = None
        if self.audit is not None:
            from synsema.runtime.audit import Audit
            try:
                audit = Audit.collecting() if self.audit == "json" and self.audit_in_report \
                    else Audit.open(self.audit)
            except OSError as problem:
                raise UsageError(f"--audit: cannot open {self.audit}: {problem.strerror}") from None
        self._audit = audit
        options = {"ceiling": ceiling, "audit": audit}
        if self.mcp_config is not None:
            from synsema.runtime.mcp.config import ConfigError, load
            try:
                options["mcp_config"] = load(self.mcp_config)
            except ConfigError as problem:
                raise UsageError(f"{self._from_file('mcp_config') or '--mcp-config'}: {problem}") from None
        if self.labels:
            options["labels"] = True
        options["host_files"] = self.host_files(llm_config)
        memory_dir = self.memory_folder()
        if memory_dir is not None:
            options["memory_dir"] = memory_dir
        return options

    def memory_folder(self) -> str | None:
        """The memory folder (absolute): --memory-dir, SYNSEMA_MEMORY_DIR, `[host] memory_dir`,
        else .synsema/memory beside the project file; None leaves it to the run (beside the program)."""
        from synsema.runtime.capabilities import DEFAULT_MEMORY_FOLDER
        folder = self.memory_dir or os.environ.get("SYNSEMA_MEMORY_DIR", "").strip() or None
        if folder is None and self.project is not None:
            folder = os.path.join(self.project.directory, DEFAULT_MEMORY_FOLDER)
        return None if folder is None else os.path.abspath(folder)

    def env_file_path(self) -> str | None:
        """The env file the host named (`--env-file`, `[host] env_file`), unless --no-env-file."""
        return None if self.no_env_file else self.env_file

    def host_files(self, llm_config=None):
        """The files of this host configuration, which no file builtin may touch: the project
        file, the MCP config, the env file and the cassette and its side file (of `llm_config` when it was
        resolved already, else of the environment)."""
        from synsema.runtime.capabilities import HostFiles
        named = [self.project.path] if self.project is not None else []
        named += [path for path in (self.mcp_config, self.env_file) if path is not None]
        cassette = llm_config.cassette.value if llm_config is not None else \
            os.environ.get("SYNSEMA_LLM_CASSETTE", "").strip()
        if cassette:
            from synsema.runtime.llm.cassette import missing_path
            named += [cassette, missing_path(cassette)]   # and the side file replay writes misses to
        return HostFiles(named)

    def llm_config(self):
        """The LLM configuration this host configuration gives, problems included (for the
        commands that show it rather than run a program)."""
        from synsema.runtime.llm.config import load_config
        env_file = self.env_file_path()
        if env_file is not None and not os.path.isfile(env_file):
            raise UsageError(f"{self._from_file('env_file') or '--env-file'}: cannot read {env_file}: "
                             "no such file")
        return load_config(env_file=env_file,
                           project=self.project.llm_settings() if self.project is not None else {})

    def settle_llm(self):
        """Resolve the LLM configuration now, before the program runs, when a file feeds it (an
        env file, the project's [llm] table): any problem is then a usage error that names the
        setting and never shows its value. Without such a file it comes from the process
        environment alone, which no program can change, on the first model call."""
        from_project = self.project is not None and self.project.llm_settings()
        if self.env_file_path() is None and not from_project:
            return None
        from synsema.runtime.llm import session
        config = self.llm_config()
        if config.problems:
            raise UsageError("the LLM configuration cannot be used: " + "; ".join(config.problems)
                             + " (synsema llm status shows every setting and its source)")
        session.reset(config)
        return config

    def start_math_prewarm(self) -> None:
        """`--math-prewarm DOMAINS|all`: load those backends into the math worker on a
        background thread (an unknown domain is a usage error)."""
        if self.math_prewarm is None:
            return
        from synsema.runtime.extras import need
        need("math", "--math-prewarm")
        from synsema.stdlib.math import prewarm_in_background
        from synsema.stdlib.math.errors import MathError
        try:
            prewarm_in_background(self.math_prewarm)
        except MathError as problem:
            raise UsageError(problem.one_line()) from None

    def run(self, fn) -> int:
        """Run `fn()` on the big stack under the host resource limits; its exit code.

        The memory limit is set before the worker starts; when the time limit passes, the
        command ends from this (main) thread with LIMIT_EXIT, whatever the worker is doing.
        """
        from synsema.runtime import resources
        try:
            seconds, memory = resources.resolve(self.time_limit, self.memory_limit)
        except resources.LimitSpecError as problem:
            in_file = self._from_file("time_limit") if "time" in str(problem) else self._from_file("memory_limit")
            raise UsageError(f"{in_file}: {problem}" if in_file else str(problem)) from None
        resources.apply_memory_limit(memory)
        self.start_math_prewarm()
        try:
            with _sigterm_raises():
                code = on_big_stack(fn, seconds)
            self.end_audit(code)  # `run` and `repl` wrote it already; `test` has it here
            return code
        except OutOfTime:
            pass
        except KeyboardInterrupt:  # _dispatch reports it: exit 130
            self.end_audit(130)
            raise
        except Terminated:
            self.end_audit(143)
            sys.stderr.write("Terminated\n")
            return 143
        sys.stderr.write(f"Runtime error: time limit of {seconds:g} s exceeded (--time-limit); "
                         "the command was stopped\n")
        if self._audit is not None:
            self._audit.limit("time", seconds, resources.LIMIT_EXIT)
        return resources.LIMIT_EXIT

    def end_audit(self, exit_code: int) -> None:
        """The audit log ends with its summary line however the command ends — a signal
        included — so a log without one can only come from a process killed outright."""
        if self._audit is not None:
            self._audit.summary(exit_code)


class Terminated(Exception):
    """SIGTERM arrived while a program ran: the command ends as Ctrl-C ends it, exit 143."""


@contextmanager
def _sigterm_raises():
    """While the body runs, SIGTERM raises Terminated on the main thread (which waits on the
    program's worker), instead of killing the process before the audit summary is written."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def terminated(signum, frame):
        raise Terminated()

    previous = signal.signal(signal.SIGTERM, terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _roomy(fn):
    """Call `fn()` from a frame that reserves a large block of CPython's frame stack.

    CPython 3.11 keeps Python frames in 16 KB chunks and frees a chunk as soon as the last frame
    in it returns; a recursion that oscillates across a chunk edge then pays an mmap/munmap pair
    per call (fib(25) spent two thirds of its time there). This frame claims an oversized value
    stack, so CPython gives it a 1 MB chunk and the program's frames fit in the rest of it.
    """
    return fn()


_roomy.__code__ = _roomy.__code__.replace(co_stacksize=100_000)


class OutOfTime(Exception):
    """The time limit passed while the program was still running."""


def on_big_stack(fn, seconds: float | None = None):
    """Run `fn()` on a thread with room for 3,000 nested Synsema calls; return its result.

    With `seconds`, wait at most that long, then raise OutOfTime (the worker is a daemon thread:
    it ends with the process)."""
    sys.setrecursionlimit(200_000)
    result = []
    failure = []

    def target():
        try:
            result.append(_roomy(fn))
        except BaseException as problem:  # re-raised on the caller's thread
            failure.append(problem)

    worker = threading.Thread(target=target, name="synsema", daemon=True)
    # Only this thread gets the big stack: helper threads (timers, MCP, parallel_map's items)
    # started later keep the default, so they do not each reserve 512 MB under --memory-limit.
    previous = threading.stack_size(512 * 1024 * 1024)
    try:
        worker.start()
    finally:
        threading.stack_size(previous)
    worker.join(seconds)
    if worker.is_alive():
        raise OutOfTime()
    if failure:
        raise failure[0]
    return result[0]


# ---------------------------------------------------------------------- run
def cmd_run(args: list[str]) -> int:
    host = HostFlags()
    fmt = "human"
    trace_path = None
    path = None
    program_args: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        nxt = host.take(args, i)
        if nxt != i:
            i = nxt
            continue
        if arg == "--":
            program_args = args[i + 1:]
            break
        if arg == "--format":
            if i + 1 >= len(args):
                raise UsageError("--format needs a value: human or json")
            fmt = args[i + 1]
            i += 2
            continue
        if arg == "--trace" or arg.startswith("--trace="):
            trace_path, i = _flag_value(args, i, "--trace")
            continue
        if arg.startswith("--format="):
            fmt = arg.split("=", 1)[1]
            i += 1
            continue
        if arg.startswith("-") and arg != "-":
            raise UsageError(f"unknown flag for run: {arg}")
        if path is not None:
            program_args = args[i:]
            break
        path = arg
        i += 1
    if path is None:
        raise UsageError("run needs a FILE (or - to read the program from stdin)")
    if fmt not in ("human", "json"):
        raise UsageError(f"--format must be human or json, not {fmt}")
    host.load_project([path])
    refuse_output_over_input("--audit", host.audit_path(), [path])
    refuse_output_over_input("--trace", trace_path, [path])
    host.audit_in_report = fmt == "json"
    options = host.runtime_options()
    try:
        source = _read_source(path)
    except UsageError:
        host.end_audit(2)
        raise
    if trace_path is None and _OTLP_ENDPOINTS.isdisjoint(os.environ):   # no trace can be wanted
        return host.run(lambda: _run_program(source, path, program_args, options, fmt, False))
    from synsema.runtime import trace
    try:
        trace.start(trace_path, path)
    except trace.TraceSetupError as problem:
        host.end_audit(2)
        raise UsageError(str(problem)) from None
    try:
        return host.run(lambda: _run_program(source, path, program_args, options, fmt, trace.enabled()))
    finally:
        trace.stop()


# A run's trace needs --trace or one of these (runtime.trace.otlp_requested decides the rest):
# without them a run never loads runtime.trace (start-up without .pyc, issue 31).
_OTLP_ENDPOINTS = frozenset(("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_ENDPOINT"))


def _flag_value(args: list[str], i: int, flag: str) -> tuple[str, int]:
    """The value of `flag` at args[i] (`--flag VALUE` or `--flag=VALUE`) and the index after it."""
    if args[i] == flag:
        if i + 1 >= len(args):
            raise UsageError(f"{flag} needs a value")
        return args[i + 1], i + 2
    return args[i][len(flag) + 1:], i + 1


def _read_source(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except UnicodeDecodeError:
        raise UsageError(f"cannot read {path}: it is not UTF-8 text") from None
    except OSError as problem:
        raise UsageError(f"cannot read {path}: {problem.strerror}") from None


def _run_program(source: str, path: str, argv: list[str], options: dict, fmt: str, traced: bool) -> int:
    from synsema.runtime.interp import Runtime
    captured: list[str] | None = [] if fmt == "json" else None
    errors: list = []
    kwargs = dict(options)
    if captured is not None:
        kwargs["out"] = captured.append
    rt = Runtime(mode="run", argv=argv, **kwargs)
    if traced:
        code = _traced(rt, source, path, errors)
    else:
        code = execute(rt, source, path, errors)
    sources = None
    if errors:  # what explains them quotes the program (lang.diagnostics: a clean run never loads it)
        from synsema.lang.diagnostics import Sources, human
        sources = Sources()
        sources.add(path, source)
    if captured is None:
        for problem in errors:
            shown = problem if type(problem) is str else human(problem, sources, hints=not options.get("labels"))
            sys.stderr.write(shown + "\n")
    rt.caps.finish(code)  # after the error report, which quotes the program's own text
    if captured is not None:
        from synsema.runtime.calls import REG
        from synsema.runtime.llm.session import used_tokens
        touched = rt.labels is not None and rt.labels.touched
        audit = kwargs.get("audit")
        report = {"ok": code == 0, "output": "".join(captured).splitlines(),
                  "errors": [p if type(p) is str else p.report() for p in errors],
                  "diagnostics": [_diagnostic(p, path, sources, not options.get("labels")) for p in errors],
                  "audit": audit.records if audit is not None else None, "exit": code,
                  "llm_tokens": used_tokens(),
                  "steps": None if touched else REG.steps}
        sys.stdout.write(json.dumps(report) + "\n")
    return code


def _traced(rt, source: str, path: str, errors: list) -> int:
    """`execute` inside the run's invoke_agent span (GenAI conventions: the script is the agent)."""
    from synsema.runtime import trace
    trace.current_tracer().labels = rt.labels
    attrs = {"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": os.path.basename(path),
             "synsema.file": path, "synsema.labels": rt.labels is not None}
    with trace.span("invoke_agent", f"invoke_agent {os.path.basename(path)}", attrs) as span:
        code = execute(rt, source, path, errors)
        span.set({"synsema.exit_code": code})
        if errors:
            first = errors[0]
            span.fail(first if type(first) is str else first.report())  # as stderr shows it
            if getattr(first, "violation", False):  # uncatchable: every violation ends the run here
                where = first.span
                span.event("label.violation", {"synsema.file": where.file if where else None,
                                               "synsema.line": where.line if where else None})
    return code


def _diagnostic(problem, path: str, sources, hints: bool) -> dict:
    """The structured form of one uncaught problem (lang.diagnostics.as_json); no hint under
    --labels, where a hint could quote private data."""
    from synsema.lang.diagnostics import as_json
    if type(problem) is not str:
        return {**as_json(problem, sources), **({} if hints else {"hint": None})}
    return {"file": path, "line": None, "col": None, "end_line": None, "end_col": None,
            "code": "internal" if problem.startswith("Internal error") else "runtime",
            "message": problem.split(": ", 1)[-1], "hint": None}


def execute(rt, source: str, path: str, errors: list) -> int:
    """Run the main program; the exit code. Uncaught problems go to `errors`: a SynError, or
    the report line of one that has no source position to show."""
    from synsema.lang.errors import SynError
    from synsema.runtime.calls import REG
    from synsema.runtime.control import ExitProgram, StopLoop
    try:
        rt.run_main(source, path, only=True)
        return 0
    except SynError as error:
        errors.append(error)
        if getattr(error, "out_of_memory", False):
            return _memory_exhausted(rt, error)
    except ExitProgram as done:
        return done.code
    except StopLoop:
        errors.append(SynError("stop used outside a loop", REG.stop_span))
    except RecursionError:
        errors.append(f"Runtime error: {path}: maximum recursion depth exceeded")
    except MemoryError:
        from synsema.runtime.calls import host_failure
        error = host_failure("the program", MemoryError())
        errors.append(f"Runtime error: {path}: {error.message}")
        return _memory_exhausted(rt, error)
    except KeyboardInterrupt:
        errors.append("Interrupted")
        return 130
    except Exception as bug:  # never show a user a Python traceback, even for our own bugs
        from synsema.runtime.extras import explain
        missing = explain(bug, "the program")
        if missing is not None:
            errors.append(f"Runtime error: {path}: {missing.message}")
            return 1
        errors.append(f"Internal error: {type(bug).__name__}: {bug} — this is a bug in synsema, "
                      "not in your program; please report it with the program that caused it")
    return 1


def _memory_exhausted(rt, error) -> int:
    """An uncaught `out of memory` ends the run as a host limit does: audited, LIMIT_EXIT."""
    from synsema.runtime.resources import LIMIT_EXIT
    audit = rt.caps.audit
    if audit is not None:
        audit.limit("memory", None, LIMIT_EXIT, error.span)
    return LIMIT_EXIT


def _handler(name: str):
    """The function that runs command `name`. `run` is here; every other command's handler is in
    runtime.subcommands, which is imported only when one of them runs, so a `run` never compiles
    them (start-up without `.pyc` files, issue 31)."""
    if name == "run":
        return cmd_run
    from synsema.runtime import subcommands
    return subcommands.HANDLERS[name]


def _reopen_closed_stdio() -> None:
    """A standard stream the caller closed (`2>&-`) reads as empty and swallows what is written,
    as CPython's own `print` does with no stdout; nothing fails for want of it."""
    for fd, name in ((0, "stdin"), (1, "stdout"), (2, "stderr")):
        if getattr(sys, name) is None:
            null = os.open(os.devnull, os.O_RDONLY if fd == 0 else os.O_WRONLY)
            if null != fd:
                os.dup2(null, fd)
                os.close(null)
            setattr(sys, name, open(fd, "r" if fd == 0 else "w", encoding="utf-8", closefd=False))


def main(argv: list[str] | None = None) -> int:
    """The command line; a broken stdout or stderr ends any command quietly with exit 141."""
    _reopen_closed_stdio()
    try:
        return _dispatch(list(sys.argv[1:] if argv is None else argv))
    except BrokenPipeError:
        from synsema.runtime.control import BROKEN_PIPE_EXIT, quiet_broken_pipe
        quiet_broken_pipe(sys.stdout)
        quiet_broken_pipe(sys.stderr)
        return BROKEN_PIPE_EXIT


def _dispatch(args: list[str]) -> int:
    """Find the command in runtime.commands' table; answer --help from it and refuse a flag it
    does not list; then run the command's handler."""
    from synsema.runtime import commands
    if not args:
        sys.stderr.write(commands.render_overview())
        return 2
    if args[0] in commands.HELP_FLAG.names:
        sys.stdout.write(commands.render_overview())
        return 0
    if args[0] == "--version":
        args = ["version", *args[1:]]
    if args[0] == "help":
        return _help(args[1:])
    command, taken = commands.find(args)
    if command is None:
        return _usage_error(commands.unknown_command(args[0]))
    rest = args[taken:]
    if command.subcommands:  # a group named alone, or with a sub-command it does not have
        if rest and rest[0] in (*commands.HELP_FLAG.names, "help"):
            sys.stdout.write(commands.render(command))
            return 0
        return _usage_error(commands.unknown_subcommand(command, rest[0] if rest else None), command.name)
    if commands.wants_help(command, rest):
        sys.stdout.write(commands.render(command))
        return 0
    problem = commands.unknown_flag(command, rest)
    if problem is not None:
        return _usage_error(problem, command.name)
    from synsema.runtime.extras import MissingExtra, explain
    try:
        return _handler(args[0])(args[1:])
    except UsageError as problem:
        return _usage_error(str(problem), command.name)
    except MissingExtra as problem:  # a command, or a host flag, whose extra is not installed
        sys.stderr.write(f"synsema: {problem.message}\n")
        return 1
    except ModuleNotFoundError as problem:
        missing = explain(problem, f"synsema {command.name}")
        if missing is None:
            raise
        sys.stderr.write(f"synsema: {missing.message}\n")
        return 1
    except KeyboardInterrupt:  # Ctrl-C reaches the main thread while the program runs beside it
        sys.stderr.write("Interrupted\n")
        return 130


def _help(words: list[str]) -> int:
    """`synsema help [COMMAND [SUBCOMMAND]]`."""
    from synsema.runtime import commands
    if not words:
        sys.stdout.write(commands.render_overview())
        return 0
    if words[0] in commands.HELP_FLAG.names:
        words = ["help"]
    command, taken = commands.find(words)
    if command is None:
        return _usage_error(commands.unknown_command(words[0]))
    if taken < len(words):
        if command.subcommands:
            return _usage_error(commands.unknown_subcommand(command, words[taken]), command.name)
        return _usage_error(f"help takes one command: {' '.join(words)}", "help")
    sys.stdout.write(commands.render(command))
    return 0


if __name__ == "__main__":
    sys.exit(main())
