"""Start-up stays light: running a hello-world program must not import the heavy backends."""

from __future__ import annotations

import json
import subprocess
import sys

from conftest import ROOT, synsema_env

HEAVY = ("sympy", "z3", "pysat", "prompt_toolkit", "pydantic", "httpx", "synsema.stdlib.math.tool",
         "mcp", "anyio", "synsema.runtime.mcp", "lark")

PROBE = """
import json, sys
from synsema.runtime.cli import main
code = main(["run", sys.argv[1]])
print(json.dumps({"code": code, "modules": sorted(sys.modules)}))
"""


# Modules a plain run without --labels never uses: the label compiler, what explains a failed
# assertion, help rendering, the LLM layer, the test runner and REPL, the standard modules
# only some builtins need, and the builtin modules of builtins the program does not call. Each costs start-up time (and more without a .pyc cache, issue 19).
ON_FIRST_USE = ("synsema.runtime.label_compiler", "synsema.runtime.diffs", "difflib", "synsema.lang.unparse", "synsema.runtime.llm",
                "synsema.runtime.testrunner", "synsema.runtime.testsession", "synsema.runtime.repl", "secrets", "csv", "datetime",
                "fractions", "hashlib",
                # builtins are known from stdlib/builtins.json: a module loads at its first call
                *(f"synsema.stdlib.{name}" for name in ("text", "numbers", "formats", "bytes", "secrets",
                                                        "time_random", "files_env", "net", "tools", "llm",
                                                        "script_math", "labels", "mcp", "concurrency",
                                                        "memory", "unsupported")),
                "synsema.runtime.memory",
                # the generator of task, lambda and loop bodies: this program has none
                "synsema.runtime.codegen",
                # every command's handler and help but `run`'s, the audit log, what explains a
                # program's errors, source that does not parse, and `match`
                "synsema.runtime.subcommands", "synsema.runtime.command_table", "synsema.runtime.audit",
                "synsema.lang.diagnostics", "synsema.lang.parse_errors", "synsema.runtime.patterns",
                "synsema.runtime.concurrency",
                # the project file's settings and reader: there is no synsema.toml above the program
                "synsema.runtime.project",
                # reduce functions written for the grammar rules a long parse uses most
                "synsema.lang.reduce_code")


def hello_world_modules(tmp_path) -> list[str]:
    """The modules loaded once `main(["run", hello])` returns, in a fresh interpreter."""
    program = tmp_path / "hello.syn"
    program.write_text('print("hello")\nlet xs be sort([3, 1, 2])\nassert_eq(xs, [1, 2, 3])\nprint(xs, math)\n',
                       encoding="utf-8")
    result = subprocess.run([sys.executable, "-c", PROBE, str(program)], capture_output=True, text=True,
                            env=synsema_env(), cwd=ROOT, timeout=60)
    lines = result.stdout.splitlines()
    assert lines[0] == "hello"
    assert lines[1] == "[1, 2, 3] module math"
    report = json.loads(lines[-1])
    assert report["code"] == 0
    return report["modules"]


def test_hello_world_imports_no_heavy_backend(tmp_path):
    loaded = [m for m in hello_world_modules(tmp_path)
              if m.split(".")[0] in HEAVY or m in HEAVY or m.startswith("synsema.runtime.mcp.")]
    assert loaded == []


def test_hello_world_imports_nothing_only_some_programs_need(tmp_path):
    loaded = [m for m in hello_world_modules(tmp_path)
              if m in ON_FIRST_USE or m.startswith(tuple(name + "." for name in ON_FIRST_USE))]
    assert loaded == []
