"""Profile benchmark programs: where does the interpreter spend its time?

Three instruments, because each one lies differently:

* cProfile (deterministic): exact call counts, but it charges a fixed overhead to every Python
  call, and a closure-compiled evaluator is nothing but small calls, so it inflates the cost of
  tiny closures relative to builtins. Good for "how many times", rough for "how long".
* py-spy (sampling, if installed in the venv): no per-call overhead, so its self-time shares are
  the honest ones; it also gives line numbers inside a function.
* `python -X importtime` for start-up: per-module import cost, self and cumulative.

The program runs exactly as `synsema run` runs it (runtime.cli.main); cProfile is switched on
inside the CLI's worker thread, because that is where the program runs and cProfile only sees
the thread that enabled it. Reports go to bench/profiles/NAME.{cprofile,pyspy}.txt.

    .venv/bin/python bench/profiling.py cprofile fib while_loop word_count each_append
    .venv/bin/python bench/profiling.py pyspy fib while_loop word_count each_append
    .venv/bin/python bench/profiling.py pyspy word_count:labels      (the same run with --labels)
    .venv/bin/python bench/profiling.py startup
    .venv/bin/python bench/profiling.py parse
"""

from __future__ import annotations

import collections
import cProfile
import io
import os
import pstats
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BIN = os.path.dirname(sys.executable)
OUT = os.path.join(HERE, "profiles")
TOP = 25


def program_path(name: str) -> str:
    name = name.split(":")[0]
    for folder in ("programs", "agent"):
        path = os.path.join(HERE, folder, name + ".syn")
        if os.path.exists(path):
            return path
    raise SystemExit(f"profile: no benchmark program named {name}")


def _short(path: str) -> str:
    """A file name relative to the repository (or to site-packages / the stdlib)."""
    if path.startswith(ROOT + os.sep):
        return os.path.relpath(path, ROOT)
    for marker in ("site-packages" + os.sep, "lib" + os.sep + "python3"):
        if marker in path:
            return path.split(marker, 1)[1]
    return path


def _warm_up() -> None:
    sys.path.insert(0, ROOT)
    from synsema.lang.parser import parse
    from synsema.runtime import cli, interp  # noqa: F401  (loaded now so the profile holds no imports)
    from synsema.stdlib.registry import load_all
    load_all()
    parse("let warm_up be 1\n", "<warm-up>")


def _program_env(name: str) -> dict:
    """The agent loop answers from its cassette, as in bench/run.py."""
    if name.split(":")[0] != "agent_loop":
        return {}
    return {"SYNSEMA_LLM_PROVIDER": "replay",
            "SYNSEMA_LLM_CASSETTE": os.path.join(HERE, "agent", "agent.cassette.jsonl")}


def _flags(name: str) -> list[str]:
    """`word_count:labels` profiles `synsema run --labels word_count.syn`."""
    return ["--labels"] if name.endswith(":labels") else []


def _run_quietly(path: str, around=None, flags: list[str] = ()) -> None:
    """`synsema run PATH` in this process with stdout discarded; `around` wraps the worker's work."""
    from synsema.runtime import cli
    original = cli.on_big_stack
    if around is not None:
        cli.on_big_stack = lambda fn, *rest: original(lambda: around(fn), *rest)
    saved, sys.stdout = sys.stdout, open(os.devnull, "w")
    try:
        cli.main(["run", *flags, path])
    finally:
        sys.stdout.close()
        sys.stdout = saved
        cli.on_big_stack = original


def source_version() -> str:
    """The commit profiled, and whether the evaluator had uncommitted edits (line numbers move)."""
    def git(*args):
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    dirty = git("status", "--porcelain", "--", "runtime", "lang", "stdlib")
    return f"source {git('rev-parse', '--short', 'HEAD')}" + (" + uncommitted edits" if dirty else "")


# ---------------------------------------------------------------------- cProfile
def cprofile(name: str) -> str:
    _warm_up()
    os.environ.update(_program_env(name))
    profiler = cProfile.Profile()

    def around(fn):
        profiler.enable()
        try:
            return fn()
        finally:
            profiler.disable()

    start = time.perf_counter()
    _run_quietly(program_path(name), around, _flags(name))
    elapsed = time.perf_counter() - start
    stats = pstats.Stats(profiler)
    rows = []
    total = 0.0
    for (file, line, func), (cc, nc, tt, ct, _) in stats.stats.items():
        total += tt
        rows.append((tt, ct, nc, f"{_short(file)}:{line}({func})"))
    rows.sort(reverse=True)
    report = io.StringIO()
    report.write(f"cProfile of {name}.syn (worker thread only), wall {elapsed:.3f} s under the profiler, "
                 f"{total:.3f} s of self time recorded; {source_version()}\n\n")
    report.write(f"{'self s':>8} {'self %':>7} {'cum s':>8} {'calls':>10}  function\n")
    for tt, ct, nc, where in rows[:TOP]:
        report.write(f"{tt:8.3f} {100 * tt / total:6.1f}% {ct:8.3f} {nc:10d}  {where}\n")
    return report.getvalue()


# ---------------------------------------------------------------------- py-spy
def pyspy(name: str, rate: int = 1000) -> str:
    """Sample a child process running the program `repeat` times; aggregate leaf frames."""
    spy = os.path.join(BIN, "py-spy")
    if not os.path.exists(spy):
        spy = shutil.which("py-spy")
    if spy is None:
        return f"py-spy is not installed; no sampling profile for {name}\n"
    with tempfile.TemporaryDirectory() as folder:
        raw = os.path.join(folder, "samples.txt")
        subprocess.run([spy, "record", "--format", "raw", "--rate", str(rate), "--output", raw, "--",
                        sys.executable, __file__, "target", name], check=True, capture_output=True,
                       env=dict(os.environ, **_program_env(name)))
        with open(raw, encoding="utf-8") as handle:
            lines = handle.read().splitlines()
    return summarize_samples(name, lines, rate)


_FRAME = re.compile(r"^(?P<func>.*) \((?P<file>[^()]*):(?P<line>\d+)\)$")


def summarize_samples(name: str, lines: list[str], rate: int, anchor: str = "run_main") -> str:
    """Self time by function (with the hottest line inside it) and inclusive time, from
    py-spy's collapsed stacks, keeping only samples taken inside `anchor` (the program's run)."""
    by_function = collections.Counter()
    by_line = collections.Counter()
    inclusive = collections.Counter()
    kept = 0
    for line in lines:
        stack, _, count = line.rpartition(" ")
        frames = stack.split(";")
        if not any(f.split(" (")[0].endswith(anchor) for f in frames):
            continue
        n = int(count)
        kept += n
        parsed = []
        for frame in frames:
            m = _FRAME.match(frame)
            parsed.append((m["func"], _short(m["file"]), int(m["line"])) if m else (frame, "?", 0))
        func, file, lineno = parsed[-1]
        by_function[(func, file)] += n
        by_line[(func, file, lineno)] += n
        below = next(i for i, (f, _, _) in enumerate(parsed) if f.endswith(anchor))
        for func, file in {(f, fl) for f, fl, _ in parsed[below + 1:]}:
            inclusive[(func, file)] += n
    if not kept:
        return f"py-spy: no samples inside {anchor} for {name}\n"
    hottest = {}
    for (func, file, lineno), n in by_line.most_common():
        hottest.setdefault((func, file), (lineno, n))
    out = io.StringIO()
    out.write(f"py-spy of {name} at {rate} Hz: {kept} samples inside {anchor} "
              f"(~{kept / rate:.2f} s); {source_version()}\n\nself time (leaf frame); 'hot line' is the line with most samples\n")
    out.write(f"{'self %':>7} {'samples':>8}  function (file:hot line)\n")
    for (func, file), n in by_function.most_common(TOP):
        lineno, at = hottest[(func, file)]
        out.write(f"{100 * n / kept:6.1f}% {n:8d}  {func} ({file}:{lineno}, {100 * at / kept:.1f}% on that line)\n")
    out.write(f"\ninclusive time (function anywhere on the stack below {anchor})\n{'incl %':>7}  function (file)\n")
    for (func, file), n in inclusive.most_common(TOP):
        out.write(f"{100 * n / kept:6.1f}%  {func} ({file})\n")
    return out.getvalue()


def target(name: str) -> None:
    """The process py-spy samples: warm up, then run the program enough times to get samples."""
    _warm_up()
    path = program_path(name)
    deadline = time.perf_counter() + 3.0
    runs = 0
    while runs < 1 or (time.perf_counter() < deadline and runs < 20):
        _run_quietly(path, None, _flags(name))
        runs += 1


# ---------------------------------------------------------------------- parsing
def _parse_input() -> str:
    sys.path.insert(0, HERE)
    from gen_parse import generate
    return generate(10_000)[0]


def parse_profile() -> str:
    """cProfile and py-spy of `lang.parser.parse` on the generated 10,000-line program."""
    _warm_up()
    from synsema.lang.parser import parse
    source = _parse_input()
    profiler = cProfile.Profile()
    start = time.perf_counter()
    profiler.enable()
    parse(source, "parse_input.syn")
    profiler.disable()
    elapsed = time.perf_counter() - start
    stats = pstats.Stats(profiler)
    rows = sorted(((tt, ct, nc, f"{_short(file)}:{line}({func})")
                   for (file, line, func), (cc, nc, tt, ct, _) in stats.stats.items()), reverse=True)
    total = sum(r[0] for r in rows)
    out = io.StringIO()
    out.write(f"cProfile of lang.parser.parse on 10,000 generated lines: {elapsed:.3f} s under the profiler; "
              f"{source_version()}\n\n{'self s':>8} {'self %':>7} {'cum s':>8} {'calls':>10}  function\n")
    for tt, ct, nc, where in rows[:TOP]:
        out.write(f"{tt:8.3f} {100 * tt / total:6.1f}% {ct:8.3f} {nc:10d}  {where}\n")
    spy = os.path.join(BIN, "py-spy")
    if os.path.exists(spy):
        with tempfile.TemporaryDirectory() as folder:
            raw = os.path.join(folder, "samples.txt")
            subprocess.run([spy, "record", "--format", "raw", "--rate", "1000", "--output", raw, "--",
                            sys.executable, __file__, "parse-target"], check=True, capture_output=True)
            with open(raw, encoding="utf-8") as handle:
                out.write("\n" + summarize_samples("synsema.lang.parser.parse (10,000 lines)", handle.read().splitlines(),
                                                    1000, anchor="parse"))
    return out.getvalue()


def parse_target() -> None:
    _warm_up()
    from synsema.lang.parser import parse
    source = _parse_input()
    for _ in range(3):
        parse(source, "parse_input.syn")


# ---------------------------------------------------------------------- start-up
def startup() -> str:
    """-X importtime of `synsema run hello.syn`, and cProfile of the same run on one thread.

    Measured with a warm bytecode cache in a private PYTHONPYCACHEPREFIX (as bench/run.py does):
    with PYTHONDONTWRITEBYTECODE=1 every interpreter module is compiled from source at each
    start, which would bury the interpreter's own costs under `compile`.
    """
    with tempfile.TemporaryDirectory(prefix="synsema-pycache-") as cache:
        env = dict(os.environ, PYTHONPYCACHEPREFIX=cache)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        return _startup(env)


def _startup(env: dict) -> str:
    hello = os.path.join(HERE, "programs", "hello.syn")
    synsema = os.path.join(BIN, "synsema")
    subprocess.run([sys.executable, synsema, "run", hello], cwd=ROOT, env=env, capture_output=True, check=True)
    runs = 9
    samples: dict[str, list] = collections.defaultdict(list)
    order: list[tuple[int, str]] = []
    for run in range(runs):
        proc = subprocess.run([sys.executable, "-X", "importtime", synsema, "run", hello], cwd=ROOT,
                              env=env, capture_output=True, text=True, check=True)
        for line in proc.stderr.splitlines():
            m = re.match(r"import time:\s+(\d+) \|\s+(\d+) \|(\s*)(\S+)", line)
            if m:
                samples[m[4]].append((int(m[1]), int(m[2])))
                if run == 0:
                    order.append((len(m[3]) // 2, m[4]))
    # Medians over the runs: on a shared machine a single run's per-module times are noisy.
    imports = []
    for depth, module in order:
        own = statistics.median(o for o, _ in samples[module])
        cum = statistics.median(c for _, c in samples[module])
        imports.append((own, cum, depth, module))
    out = io.StringIO()
    out.write(f"python -X importtime synsema run hello.syn (warm .pyc cache), median of {runs} runs; "
              f"{source_version()}\n\n")
    tops = [i for i in imports if i[2] == 0]
    out.write(f"top-level imports by cumulative time (total {sum(c for _, c, _, _ in tops) / 1000:.1f} ms)\n")
    out.write(f"{'cum ms':>8} {'self ms':>8}  module\n")
    for own, cum, _, module in sorted(tops, key=lambda i: -i[1])[:TOP]:
        out.write(f"{cum / 1000:8.1f} {own / 1000:8.1f}  {module}\n")
    out.write(f"\nall modules by self time\n{'self ms':>8} {'cum ms':>8}  module\n")
    for own, cum, depth, module in sorted(imports, key=lambda i: -i[0])[:TOP]:
        out.write(f"{own / 1000:8.1f} {cum / 1000:8.1f}  {module}\n")
    out.write(f"\nimport tree (modules over 1 ms cumulative; indentation = imported by the line above)\n")
    for own, cum, depth, module in imports:
        if cum >= 1000:
            out.write(f"{cum / 1000:8.1f} {own / 1000:8.1f}  {'  ' * depth}{module}\n")
    # cProfile of the whole start-up path, on one thread (the worker thread is bypassed).
    code = ("import cProfile, pstats, sys, io\n"
            "p = cProfile.Profile(); p.enable()\n"
            "from synsema.runtime import cli\n"
            "cli.on_big_stack = lambda fn: fn()\n"
            f"cli.main(['run', {hello!r}])\n"
            "p.disable()\n"
            "s = io.StringIO(); pstats.Stats(p, stream=s).sort_stats('cumulative').print_stats(30)\n"
            "t = io.StringIO(); pstats.Stats(p, stream=t).sort_stats('tottime').print_stats(20)\n"
            "sys.stderr.write(s.getvalue() + t.getvalue())\n")
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                          check=True)
    report = re.sub(r"\S*/(site-packages|lib/python3\.\d+)/", "", proc.stderr).replace(ROOT + os.sep, "")
    out.write("\ncProfile of the same start-up (imports + parse + run on the main thread)\n")
    out.write(report)
    return out.getvalue()


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__)
        return 2
    tool, names = argv[0], argv[1:]
    if tool == "target":
        target(names[0])
        return 0
    if tool == "parse-target":
        parse_target()
        return 0
    os.makedirs(OUT, exist_ok=True)
    if tool == "startup":
        jobs = [("startup", "importtime", startup)]
    elif tool == "parse":
        jobs = [("parse", "profile", parse_profile)]
    elif tool in ("cprofile", "pyspy"):
        jobs = [(name, tool, (lambda n=name: cprofile(n) if tool == "cprofile" else pyspy(n))) for name in names]
    else:
        print(f"profile: unknown tool {tool} (cprofile, pyspy, startup, parse)")
        return 2
    for name, kind, job in jobs:
        text = job()
        with open(os.path.join(OUT, f"{name.replace(':', '.')}.{kind}.txt"), "w", encoding="utf-8") as handle:
            handle.write(text)
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
