"""The handlers of every `synsema` command but `run` (runtime.cli keeps `run`, the flags every
program-running command shares, and the dispatch).

runtime.cli imports this module only when one of these commands runs: a `synsema run` does not
compile them, which is start-up time when there is no `.pyc` cache (issue 31).
"""

from __future__ import annotations

import json
import os
import sys

from synsema.runtime.cli import (VERSION, HostFlags, UsageError, _flag_value, _read_source, _usage_error,
                                 on_big_stack, refuse_output_over_input)


# ---------------------------------------------------------------------- test
def cmd_test(args: list[str]) -> int:
    """Flags: host flags, -v, -x, -k EXPR, -j N, --junit FILE, --format human|json; the run
    itself is runtime.testsession's (exit 0 passed, 1 failed, 5 no test ran)."""
    from synsema.runtime import testrunner, testsession
    host = HostFlags()
    fmt, args = _format_flag(args, "test")
    settings = testsession.Settings(fmt=fmt)
    passed_down: list[str] = []    # what a -j worker process is given: host flags, -k, -x
    paths: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        nxt = host.take(args, i)
        if nxt != i:
            passed_down += args[i:nxt]
            i = nxt
            continue
        if arg in ("-v", "--verbose"):
            settings.verbose = True
        elif arg in ("-x", "--exitfirst"):
            settings.fail_fast = True
            passed_down.append(arg)
        elif arg in ("-k", "-j", "--junit"):
            if i + 1 >= len(args):
                raise UsageError(f"{arg} needs a value")
            value = args[i + 1]
            if arg == "-k":
                try:
                    settings.pattern = testrunner.keyword_filter(value)
                except testrunner.FilterError as problem:
                    raise UsageError(str(problem)) from None
                passed_down += [arg, value]
            elif arg == "-j":
                if not value.isdigit() or not 1 <= int(value) <= 64:
                    raise UsageError(f"-j needs a number of worker processes from 1 to 64, not {value}")
                settings.jobs = int(value)
            else:
                settings.junit = value
            i += 1
        elif arg.startswith("-"):
            raise UsageError(f"unknown flag for test: {arg}")
        else:
            paths.append(arg)
        i += 1
    if not paths:
        raise UsageError("test needs at least one PATH (a .syn file, a directory or a glob)")
    try:
        files = testrunner.expand_paths(paths)
    except FileNotFoundError as missing:
        raise UsageError(f"no such file or directory: {missing.args[0]}") from None
    if not files:
        raise UsageError("no .syn files found in " + ", ".join(paths))
    host.load_project(paths)
    if settings.jobs > 1 and host.audit is not None:
        raise UsageError("-j cannot be combined with --audit: one audit log needs one process; drop -j")
    refuse_output_over_input("--audit", host.audit_path(), files)
    refuse_output_over_input("--junit", settings.junit, files)
    settings.host = host.runtime_options()
    settings.worker_flags = tuple(passed_down)

    def run_all():
        try:
            return testsession.run_session(files, settings)
        except testrunner.FilterError as problem:
            return _usage_error(str(problem), "test")
    return host.run(run_all)


# ---------------------------------------------------------------------- check, code
def cmd_check(args: list[str]) -> int:
    from synsema.lang.check import check_files
    from synsema.runtime.capabilities import RUN_MODE_AUTO_GRANTS
    from synsema.stdlib.registry import declared, global_names
    from synsema.stdlib.unsupported import tier_c_family
    fmt, files = _format_flag(args, "check")
    if not files:
        raise UsageError("check needs at least one FILE")
    for arg in files:
        if arg.startswith("-"):
            raise UsageError(f"unknown flag for check: {arg}")
        _read_source(arg)  # a missing or non-UTF-8 file is a usage error, as for run
    return on_big_stack(lambda: check_files(files, sys.stdout.write, sys.stderr.write, builtins=declared(),
                                            predeclared=global_names(),
                                            auto_granted=RUN_MODE_AUTO_GRANTS, tier_c=tier_c_family,
                                            as_json=fmt == "json"))


def _format_flag(args: list[str], command: str) -> tuple[str, list[str]]:
    """Take `--format human|json` (or `--format=…`) out of `args`: (format, the rest)."""
    fmt, rest = "human", []
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--format":
            if i + 1 >= len(args):
                raise UsageError("--format needs a value: human or json")
            fmt = args[i + 1]
            i += 2
            continue
        if arg.startswith("--format="):
            fmt = arg.split("=", 1)[1]
        else:
            rest.append(arg)
        i += 1
    if fmt not in ("human", "json"):
        raise UsageError(f"--format must be human or json, not {fmt}")
    return fmt, rest


def cmd_fmt(args: list[str]) -> int:
    from synsema.lang.format import run_fmt
    flags = {a for a in args if a.startswith("-") and a != "-"}
    unknown = flags - {"--check", "--diff"}
    if unknown:
        raise UsageError(f"unknown flag for fmt: {sorted(unknown)[0]}")
    paths = [a for a in args if a not in flags]
    if not paths:
        raise UsageError("fmt needs at least one PATH (a .syn file, a directory, or - for stdin)")
    try:
        return run_fmt(paths, "--check" in flags, "--diff" in flags, sys.stdout.write, sys.stderr.write)
    except FileNotFoundError as missing:
        raise UsageError(f"no such file or directory: {missing}") from None


def cmd_lsp(args: list[str]) -> int:
    if args:
        raise UsageError(f"lsp takes no arguments (it speaks LSP on stdin/stdout): {args[0]}")
    from synsema.runtime.extras import need
    need("lsp", "synsema lsp")
    from synsema.runtime.lsp import main as lsp_main
    return lsp_main()


def cmd_code(args: list[str]) -> int:
    if not args:
        raise UsageError("code needs a tool: outline, check or caps")
    tool, rest = args[0], args[1:]
    as_json = "--json" in rest
    files = [a for a in rest if a != "--json"]
    unknown = [a for a in files if a.startswith("-")]
    if unknown:
        raise UsageError(f"unknown flag for code {tool}: {unknown[0]}")
    if len(files) != 1:
        raise UsageError(f"code {tool} takes one FILE")
    if not os.path.isfile(files[0]):
        raise UsageError(f"no such file: {files[0]}")
    _read_source(files[0])
    if tool == "outline":
        from synsema.lang.outline import run_outline as run_tool
    elif tool == "check":
        from synsema.lang.check import run_code_check as run_tool
    elif tool == "caps":
        from synsema.lang.caps_outline import run_code_caps
        from synsema.runtime.capabilities import RUN_MODE_AUTO_GRANTS
        from synsema.runtime.interp import builtin_globals
        from synsema.stdlib.registry import declared

        def run_tool(path, as_json):
            return run_code_caps(path, as_json, declared(), builtin_globals().keys(), RUN_MODE_AUTO_GRANTS)
    else:
        raise UsageError(f"unknown code tool: {tool} (outline, check, caps)")
    return on_big_stack(lambda: run_tool(files[0], as_json))


def cmd_doc(args: list[str]) -> int:
    """`synsema doc` lists every builtin; `doc NAME` shows one; `--markdown` prints docs/builtins.md."""
    from synsema.stdlib.reference import describe, reference, render_entry, render_index, render_markdown
    markdown = "--markdown" in args
    names = [a for a in args if a != "--markdown"]
    unknown = [a for a in names if a.startswith("-")]
    if unknown:
        raise UsageError(f"unknown flag for doc: {unknown[0]}")
    if len(names) > 1 or (names and markdown):
        raise UsageError("doc takes at most one NAME (or --markdown alone)")
    if markdown:
        sys.stdout.write(render_markdown(reference()))
        return 0
    if not names:
        sys.stdout.write(render_index(reference()))
        return 0
    doc = describe(names[0])
    if doc is None:
        from synsema.lang.suggest import did_you_mean
        from synsema.stdlib.registry import declared
        guess = did_you_mean(names[0], declared())
        hint = f" — did you mean '{guess}'?" if guess else ""
        sys.stderr.write(f"synsema: no builtin named '{names[0]}'{hint} (synsema doc lists them all)\n")
        return 1
    sys.stdout.write(render_entry(doc))
    return 0


def cmd_llm(args: list[str]) -> int:
    if not args or args[0] != "status":
        raise UsageError("llm takes one subcommand: status [--json]")
    host, rest = _config_flags(args[1:])
    extra = [a for a in rest if a != "--json"]
    if extra:
        raise UsageError(f"unknown argument for llm status: {extra[0]}")
    from synsema.runtime.llm.status import status_main
    return status_main("--json" in rest, host.llm_config())


def _config_flags(args: list[str]) -> tuple[HostFlags, list[str]]:
    """The host flags among `args` with the project file loaded (searched from the paths among
    the rest, else the working directory), and the rest."""
    host = HostFlags()
    rest: list[str] = []
    i = 0
    while i < len(args):
        nxt = host.take(args, i)
        if nxt == i:
            rest.append(args[i])
            i += 1
        else:
            i = nxt
    host.load_project([a for a in rest if not a.startswith("-")])
    return host, rest


def cmd_config(args: list[str]) -> int:
    from synsema.runtime.hostconfig import report, render
    host, rest = _config_flags(args)
    paths = [a for a in rest if a != "--json"]
    unknown = [a for a in paths if a.startswith("-")]
    if unknown:
        raise UsageError(f"unknown flag for config: {unknown[0]}")
    missing = [p for p in paths if not os.path.exists(p)]
    if missing:
        raise UsageError(f"no such file or directory: {missing[0]}")
    config = host.llm_config()
    data = report(host, config)
    sys.stdout.write(json.dumps(data, indent=2) + "\n" if "--json" in rest else render(data))
    return 1 if config.problems else 0


def cmd_init(args: list[str]) -> int:
    from synsema.runtime.scaffold import ScaffoldError, scaffold
    unknown = [a for a in args if a.startswith("-")]
    if unknown:
        raise UsageError(f"unknown flag for init: {unknown[0]}")
    if len(args) > 1:
        raise UsageError("init takes at most one DIR")
    try:
        written = scaffold(args[0] if args else ".")
    except ScaffoldError as problem:
        raise UsageError(str(problem)) from None
    for path in written:
        sys.stdout.write(f"created {path}\n")
    return 0


def cmd_math(args: list[str]) -> int:
    from synsema.runtime.extras import need
    need("math", "synsema math")
    from synsema.stdlib.math.cli import main as math_main
    return math_main(args)


def cmd_repl(args: list[str]) -> int:
    host = HostFlags()
    i = 0
    while i < len(args):
        nxt = host.take(args, i)
        if nxt == i:
            raise UsageError(f"unknown flag for repl: {args[i]}")
        i = nxt
    host.load_project()
    from synsema.runtime.repl import INTERRUPTS, main as repl_main
    INTERRUPTS.install()  # on the main thread, where Python delivers Ctrl-C
    options = host.runtime_options()
    return host.run(lambda: repl_main(options))


def cmd_mcp(args: list[str]) -> int:
    if not args or args[0] != "serve":
        raise UsageError("mcp takes one subcommand: serve [host flags] [--math] [--http PORT] FILE…")
    host = HostFlags()
    with_math = False
    port = None
    paths: list[str] = []
    i = 1
    while i < len(args):
        arg = args[i]
        nxt = host.take(args, i)
        if nxt != i:
            i = nxt
            continue
        if arg == "--math":
            with_math = True
        elif arg == "--http":
            if i + 1 >= len(args) or not args[i + 1].isdigit() or not 0 < int(args[i + 1]) < 65536:
                raise UsageError("--http needs a port number from 1 to 65535 (it listens on 127.0.0.1)")
            port = int(args[i + 1])
            i += 1
        elif arg.startswith("-"):
            raise UsageError(f"unknown flag for mcp serve: {arg}")
        else:
            paths.append(arg)
        i += 1
    if not paths and not with_math:
        raise UsageError("mcp serve needs a FILE to serve, or --math")
    from synsema.runtime.extras import need
    need("mcp", "synsema mcp serve")
    if with_math:
        need("math", "synsema mcp serve --math")
    host.load_project(paths)
    options = host.runtime_options()
    files = [(path, _read_source(path)) for path in paths]
    limits = _call_limits(host)
    host.start_math_prewarm()
    from synsema.runtime.mcp.serve import serve
    return serve(files, options, with_math, port, limits)


def _call_limits(host: HostFlags) -> tuple[float | None, int | None]:
    """`mcp serve`'s --time-limit and --memory-limit bound each call, not the server: (seconds,
    bytes), 60 s and 1G unless given (flag, environment or project file; `off` for none)."""
    from synsema.runtime import resources
    from synsema.runtime.mcp.forked import CALL_MEMORY, CALL_SECONDS
    try:
        seconds, memory = resources.resolve(host.time_limit, host.memory_limit)
    except resources.LimitSpecError as problem:
        raise UsageError(str(problem)) from None
    if host.time_limit is None and not os.environ.get("SYNSEMA_TIME_LIMIT"):
        seconds = CALL_SECONDS
    if host.memory_limit is None and not os.environ.get("SYNSEMA_MEMORY_LIMIT"):
        memory = CALL_MEMORY
    return seconds, memory


def cmd_view(args: list[str]) -> int:
    from synsema import view
    output, serve, inputs = None, False, []
    i = 0
    while i < len(args):
        if args[i] in ("-o", "--output") or args[i].startswith("--output="):
            output, i = _flag_value(args, i, "--output" if args[i].startswith("--output") else "-o")
        elif args[i] == "--serve":
            serve, i = True, i + 1
        else:
            inputs.append(args[i])
            i += 1
    if len(inputs) != 1:
        raise UsageError("view needs exactly one TRACE_OR_RESULTS file")
    source = inputs[0]
    output = output or os.path.splitext(source)[0] + ".html"
    refuse_output_over_input("-o", output, [source])
    try:
        written = view.write_pages(source, output)
    except view.ViewError as problem:
        raise UsageError(str(problem)) from None
    except OSError as problem:
        raise UsageError(f"cannot write {problem.filename}: {problem.strerror}") from None
    for page in written:
        print(f"wrote {page}")
    if serve:
        view.serve(output)
    return 0


def cmd_eval(args: list[str]) -> int:
    """Flags: host flags, --data, --task, --score (repeatable), --workers, --engine, --ray-address,
    --out, --resume, --limit; the eval itself is runtime.evaluate's (exit 0 every row ran, 1 a row
    errored)."""
    from synsema.runtime import evaluate
    host = HostFlags()
    given: dict[str, str] = {}
    scores: list[str] = []
    resume, path = False, None
    i = 0
    while i < len(args):
        arg = args[i]
        nxt = host.take(args, i)
        if nxt != i:
            i = nxt
            continue
        flag = arg.split("=", 1)[0]
        if flag in ("--data", "--task", "--score", "--workers", "--engine", "--out", "--limit", "--ray-address"):
            value, i = _flag_value(args, i, flag)
            if flag == "--score":
                scores.append(value)
            else:
                given[flag] = value
        elif arg == "--resume":
            resume, i = True, i + 1
        elif arg.startswith("-"):
            raise UsageError(f"unknown flag for eval: {arg}")
        elif path is None:
            path, i = arg, i + 1
        else:
            raise UsageError(f"eval takes one FILE; {arg} is a second one")
    if path is None or "--data" not in given:
        raise UsageError("eval needs a FILE and --data DATA")
    workers, limit = _count(given.get("--workers", "1"), "--workers", 64), None
    if "--limit" in given:
        limit = _count(given["--limit"], "--limit", None)
    engine = given.get("--engine", "local")
    if engine not in ("local", "ray"):
        raise UsageError(f"--engine must be local or ray, not {engine}")
    out = given.get("--out", "results.jsonl")
    host.load_project([path])
    refuse_output_over_input("--out", out, [path, given["--data"]])
    try:
        return evaluate.command(host, path, given["--data"], given.get("--task"), scores, workers, out,
                                resume, limit, engine, given.get("--ray-address"))
    except evaluate.EvalUsageError as problem:
        raise UsageError(str(problem)) from None


def _count(text: str, flag: str, most: int | None) -> int:
    if not text.isdigit() or int(text) < 1 or (most is not None and int(text) > most):
        bound = f"from 1 to {most}" if most is not None else "of at least 1"
        raise UsageError(f"{flag} needs a whole number {bound}, not {text}")
    return int(text)


def cmd_version(args: list[str]) -> int:
    if args:
        raise UsageError(f"version takes no arguments: {args[0]}")
    sys.stdout.write(f"synsema {VERSION}\n")
    return 0


# What runs each command of runtime.commands.TABLE (a group's handler gets its sub-command too).


HANDLERS = {"test": cmd_test, "check": cmd_check, "fmt": cmd_fmt, "lsp": cmd_lsp,
            "code": cmd_code, "doc": cmd_doc, "llm": cmd_llm, "math": cmd_math, "repl": cmd_repl,
            "mcp": cmd_mcp, "config": cmd_config, "init": cmd_init, "view": cmd_view, "version": cmd_version,
            "eval": cmd_eval}
