"""Run one benchmark program inside a fresh interpreter process and time only the program.

`run.py` starts this file once per measurement, so nothing (caches, the `give` register, the LLM
session) carries over between repetitions. What is timed:

* `syn FILE [--labels]`: `runtime.cli.main(["run", …, FILE])` — exactly what `synsema run` does
  after its imports: read, parse, compile and run on the CLI's big-stack thread. Interpreter
  start-up, imports and taking in the parse tables are done *before* the clock starts (they are
  the start-up benchmark's business), so a 0.3 s start-up does not blur a 0.3 s program.
* `py FILE`: `compile` + `exec` of the twin, as `python FILE` would run it.
* `parse-syn FILE` / `parse-py FILE`: `lang.parser.parse` (tokenize + LALR + AST + nesting
  checks) against `ast.parse`, after a warm-up parse; prints the number of top-level statements.
* `peer-asteval FILE`, `peer-smolagents FILE`, `peer-restrictedpython FILE`: a CPython twin run
  by that peer (bench/peer_runners.py), its interpreter set up before the clock starts.

The program's own output goes to stdout untouched (the runner compares the two sides); the
timings are written as JSON to the file named by `--timing FILE`: wall seconds
(`time.perf_counter`) and CPU seconds of the whole process (`time.process_time`, which counts
the CLI's worker thread too), plus the exit code.
"""

from __future__ import annotations

import json
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _warm_up_synsema() -> None:
    """Import and build everything a run needs before the clock starts."""
    sys.path.insert(0, ROOT)
    from synsema.lang.parser import parse
    from synsema.runtime import cli, interp  # noqa: F401  (imported for their side effect: loaded modules)
    from synsema.stdlib.registry import load_all
    load_all()
    parse("let warm_up be 1\n", "<warm-up>")


def time_synsema(path: str, labels: bool) -> tuple[int, float, float]:
    _warm_up_synsema()
    from synsema.runtime import cli
    argv = ["run", *(["--labels"] if labels else []), path]
    wall, cpu = time.perf_counter(), time.process_time()
    try:
        code = cli.main(argv)
    except Exception as problem:  # a crash is a result too (for example an unsupported flag)
        sys.stderr.write(f"{type(problem).__name__}: {problem}\n")
        code = 99
    return code, time.perf_counter() - wall, time.process_time() - cpu


def time_python(path: str) -> tuple[int, float, float]:
    with open(path, encoding="utf-8") as handle:
        source = handle.read()
    namespace = {"__name__": "__main__", "__file__": path}
    wall, cpu = time.perf_counter(), time.process_time()
    exec(compile(source, path, "exec"), namespace)
    sys.stdout.flush()
    return 0, time.perf_counter() - wall, time.process_time() - cpu


def time_parse(path: str, language: str) -> tuple[int, float, float]:
    with open(path, encoding="utf-8") as handle:
        source = handle.read()
    if language == "syn":
        _warm_up_synsema()  # includes a first parse, so the parse tables are already loaded
        from synsema.lang.parser import parse
    else:
        import ast

        def parse(text, name):
            return ast.parse(text, name)
    wall, cpu = time.perf_counter(), time.process_time()
    tree = parse(source, path)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(len(tree.body), "top-level statements")
    return 0, wall, cpu


def main(argv: list[str]) -> int:
    timing = None
    if "--timing" in argv:
        at = argv.index("--timing")
        timing = argv[at + 1]
        del argv[at:at + 2]
    mode, path, *flags = argv
    if mode == "syn":
        code, wall, cpu = time_synsema(path, "--labels" in flags)
    elif mode == "py":
        code, wall, cpu = time_python(path)
    elif mode in ("parse-syn", "parse-py"):
        code, wall, cpu = time_parse(path, mode[len("parse-"):])
    elif mode.startswith("peer-"):
        from peer_runners import time_peer
        code, wall, cpu = time_peer(mode[len("peer-"):], path)
    else:
        sys.stderr.write(f"harness: unknown mode {mode}\n")
        return 2
    sys.stdout.flush()
    if timing:
        with open(timing, "w", encoding="utf-8") as handle:
            json.dump({"exit": code, "wall": wall, "cpu": cpu}, handle)
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
