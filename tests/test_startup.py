"""Start-up stays light: running a hello-world program must not import the heavy backends."""

from __future__ import annotations

import json
import subprocess
import sys

from conftest import ROOT, synsema_env

HEAVY = ("sympy", "z3", "pysat", "prompt_toolkit", "pydantic", "httpx", "stdlib.math.tool",
         "mcp", "anyio", "runtime.mcp")

PROBE = """
import json, sys
from runtime.cli import main
code = main(["run", sys.argv[1]])
print(json.dumps({"code": code, "modules": sorted(sys.modules)}))
"""


def test_hello_world_imports_no_heavy_backend(tmp_path):
    program = tmp_path / "hello.syn"
    program.write_text('print("hello")\nlet xs be sort([3, 1, 2])\nprint(xs, math)\n', encoding="utf-8")
    result = subprocess.run([sys.executable, "-c", PROBE, str(program)], capture_output=True, text=True,
                            env=synsema_env(), cwd=ROOT, timeout=60)
    lines = result.stdout.splitlines()
    assert lines[0] == "hello"
    assert lines[1] == "[1, 2, 3] module math"
    report = json.loads(lines[-1])
    assert report["code"] == 0
    loaded = [m for m in report["modules"]
              if m.split(".")[0] in HEAVY or m in HEAVY or m.startswith("runtime.mcp.")]
    assert loaded == []
