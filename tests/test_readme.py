"""The README's commands pass as written, and what it shows of the examples is true.

A shell block whose fence reads ```` ```sh runnable ```` is run: every such block, top to bottom,
in one bash (so `. .venv/bin/activate` carries over), each starting at the repository root, each
command required to succeed (`set -e`), with stdin empty (the REPL then reads no line and ends).
Blocks that need a key, a network or an editor are not marked.
"""

from __future__ import annotations

import re
import subprocess

import pytest

from conftest import ROOT, run_synsema, synsema_env

RUNNABLE = re.compile(r"^```sh runnable\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def runnable_blocks() -> list[str]:
    return RUNNABLE.findall((ROOT / "README.md").read_text(encoding="utf-8"))


def test_the_readme_marks_its_first_commands_runnable():
    blocks = runnable_blocks()
    assert any("synsema test examples/" in block for block in blocks)
    assert any("synsema init" in block for block in blocks)


def test_every_runnable_block_of_the_readme_passes_as_written(tmp_path):
    if not (ROOT / ".venv" / "bin" / "activate").exists():
        pytest.fail("the README's commands need the venv `make test` creates (.venv)")
    script = "set -e\n" + "".join(f'cd "{ROOT}"\n{block}' for block in runnable_blocks())
    env = {k: v for k, v in synsema_env().items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["TMPDIR"] = str(tmp_path)  # what a block makes with mktemp goes where pytest cleans up
    done = subprocess.run(["bash", "-c", script], cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "0 failed" in done.stdout and "1 failed" not in done.stdout


def test_every_example_is_in_canonical_form():
    done = run_synsema("fmt", "--check", "examples/", cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_skip_example_skips_as_written(tmp_path):
    """The README's `skip` example, run with API_KEY unset: one skip, not a failure (issue 29)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    (block,) = [b for b in re.findall(r"^  ```synsema\n(.*?)^  ```$", text, re.MULTILINE | re.DOTALL)
                if 'skip("needs API_KEY")' in b]
    (tmp_path / "api_test.syn").write_text("\n".join(line[2:] for line in block.splitlines()) + "\n")
    env = {k: v for k, v in synsema_env().items() if k != "API_KEY"}
    done = run_synsema("test", "api_test.syn", cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 skipped" in done.stdout and "0 failed" in done.stdout, done.stdout
    env["API_KEY"] = "k"
    ran = run_synsema("test", "api_test.syn", cwd=tmp_path, env=env)
    assert ran.returncode == 0 and "1 passed" in ran.stdout, ran.stdout + ran.stderr
