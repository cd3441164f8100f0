"""The generator's pre-scan (runtime.codegen._needs_frame) says which task bodies cannot be direct.

A body the generator cannot write wholly inline keeps its frame list; the pre-scan decides that
before generating, so such a body is generated once, in frame mode, instead of a direct attempt
that gives up at its first closure and a second, framed pass (loading a big script paid for both).
A comparison without an int fast path (`in`, `not in`, a chain) is written by its closure; every
other operator is written inline (`/` and `**` call the general operator from the generated
code). The tests hold the pre-scan to what the generator does: a body is direct exactly when the
pre-scan finds nothing, and both evaluators print the same.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys

from conftest import ROOT, synsema_env

from synsema.lang import ast
from synsema.lang.parser import parse
from synsema.runtime import codegen
from synsema.runtime.interp import Runtime

# Task name -> whether its body can be direct (every node written inline).
BODIES = {
    "plain": ("a * b + a // 3 - a % 7 == b or a < b", True),
    "power": ("a ** 2 + b", True),
    "divide": ("a / 2", True),
    "member": ("a in [1, 2, 3]", False),
    "not_member": ("a not in [b]", False),
    "chained": ("0 < a < b", False),
    "nested": ("when a > b\n        give [a, {\"k\": a in [b]}]\n    give b", False),
}


def _program() -> str:
    tasks = "".join(f"task {name}(a, b)\n    {'' if body.startswith('when') else 'give '}{body}\n"
                    for name, (body, _) in BODIES.items())
    calls = "".join(f"print({name}(3, 4))\n" for name in BODIES)
    return tasks + calls


def test_the_prescan_says_which_bodies_are_direct():
    source = _program()
    bodies = {node.name: node.body for node in parse(source, "p.syn").body if type(node) is ast.TaskDef}
    rt = Runtime(mode="run", out=io.StringIO().write)
    rt.run_main(source, os.path.join(str(ROOT), "p.syn"))
    for name, (_, direct) in BODIES.items():
        assert codegen._needs_frame(bodies[name]) is not direct, name
        if codegen.ENABLED:
            assert (rt.globals[name].code.direct is not None) is direct, name


def test_prescanned_bodies_compute_what_the_closures_compute(tmp_path):
    (tmp_path / "p.syn").write_text(_program(), encoding="utf-8")

    def run(**extra):
        return subprocess.run([sys.executable, "-m", "synsema", "run", "p.syn"], capture_output=True, text=True,
                              cwd=tmp_path, env=synsema_env(**extra), timeout=60)
    generated, closures = run(), run(SYNSEMA_CLOSURES="1")
    assert generated.returncode == 0, generated.stderr
    assert (generated.stdout, generated.stderr) == (closures.stdout, closures.stderr)
    assert generated.stdout.splitlines() == ["true", "13", "1.5", "true", "true", "true", "4"]
