"""The peers: other ways to run model-written Python safely, timed on the CPython twins.

A user choosing a safe interpreter for model-written code would compare Synsema with these:

* `asteval` walks Python's AST in Python, with its own symbol table and a curated builtin set.
* smolagents' `LocalPythonExecutor` also walks the AST, and counts operations and `while`
  iterations (it refuses a loop past `MAX_WHILE_ITERATIONS`) under a wall-clock timeout.
* RestrictedPython compiles to ordinary bytecode after rewriting the AST so that attribute,
  item and iteration access go through guard functions; it has no bounds of its own.

Each peer runs the unchanged source of a CPython twin in bench/peers/ (the fib, loop and word
count of bench/programs/ at sizes a tree-walking peer finishes in seconds; each has its Synsema
twin beside it). Setting up the interpreter (imports, symbol tables, guard namespaces) is done
before the clock starts, as the harness does for Synsema; parsing or compiling the program is
timed, as CPython's `compile` + `exec` is. The program's output goes to stdout so the runner can
compare it with CPython's. A peer that cannot run a program raises `PeerRefused` with the
peer's own reason, and the row shows it.

The packages are the `bench` extra of pyproject.toml (`make bench` installs them, `make test`
never does).
"""

from __future__ import annotations

import sys
import time
import warnings
from typing import Callable

PEERS = ("asteval", "smolagents", "restrictedpython")


class PeerRefused(Exception):
    """The peer would not (or could not) run the program; the message is its reason."""


def _asteval(source: str) -> Callable[[], None]:
    from asteval import Interpreter
    interpreter = Interpreter(writer=sys.stdout, err_writer=sys.stderr)

    def run() -> None:
        interpreter(source, show_errors=False, raise_errors=False)
        if interpreter.error:
            raise PeerRefused(interpreter.error[0].get_error()[1].strip().splitlines()[-1])
    return run


def _smolagents(source: str) -> Callable[[], None]:
    from smolagents.local_python_executor import LocalPythonExecutor
    executor = LocalPythonExecutor(additional_authorized_imports=[])
    executor.send_tools({})

    def run() -> None:
        try:
            result = executor(source)
        except Exception as problem:  # the executor reports every refusal as an exception
            raise PeerRefused(str(problem).strip().splitlines()[-1]) from None
        sys.stdout.write(result.logs)
    return run


def _restrictedpython(source: str) -> Callable[[], None]:
    from RestrictedPython import (PrintCollector, compile_restricted, limited_builtins,
                                  safe_builtins, utility_builtins)
    from RestrictedPython.Eval import default_guarded_getitem, default_guarded_getiter
    from RestrictedPython.Guards import full_write_guard, safer_getattr
    namespace = {"__builtins__": {**safe_builtins, **limited_builtins, **utility_builtins,
                                  "sorted": sorted, "str": str, "len": len},
                 "__name__": "__main__", "_print_": PrintCollector, "_getattr_": safer_getattr,
                 "_getitem_": default_guarded_getitem, "_getiter_": default_guarded_getiter,
                 "_write_": full_write_guard}

    def run() -> None:  # compiling is timed, as the CPython side's `compile` + `exec` is
        with warnings.catch_warnings():  # "prints, but never reads 'printed'": we read `_print`
            warnings.simplefilter("ignore", SyntaxWarning)
            code = compile_restricted(source, "<program>", "exec")
        exec(code, namespace)
        sys.stdout.write(namespace["_print"]())
    return run


PREPARE = {"asteval": _asteval, "smolagents": _smolagents, "restrictedpython": _restrictedpython}


def time_peer(peer: str, path: str) -> tuple[int, float, float]:
    """(exit code, wall seconds, CPU seconds) of one run of the program at `path` in `peer`."""
    with open(path, encoding="utf-8") as handle:
        source = handle.read()
    run = PREPARE[peer](source)
    wall, cpu = time.perf_counter(), time.process_time()
    try:
        run()
        code = 0
    except PeerRefused as refusal:
        sys.stderr.write(f"{peer} refused: {refusal}\n")
        code = 1
    return code, time.perf_counter() - wall, time.process_time() - cpu
