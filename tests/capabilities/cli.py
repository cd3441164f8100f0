"""The real `synsema` command line, run as a subprocess with the repository importable."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


class Result:
    def __init__(self, proc: subprocess.CompletedProcess):
        self.code = proc.returncode
        self.out = proc.stdout
        self.err = proc.stderr

    def __repr__(self) -> str:
        return f"exit {self.code}\n--- stdout\n{self.out}--- stderr\n{self.err}"


def synsema(*args: str, cwd, env: dict | None = None, timeout: float = 60, stdin: str = "") -> Result:
    """`python -m synsema ARGS…` in `cwd`, with the repository importable and the LLM offline."""
    environment = {key: value for key, value in os.environ.items() if not key.endswith("_API_KEY")}
    environment.update({"PYTHONPATH": str(REPO), "SYNSEMA_LLM_PROVIDER": "offline", **(env or {})})
    proc = subprocess.run([sys.executable, "-m", "synsema", *args], cwd=cwd, env=environment,
                          input=stdin, capture_output=True, text=True, timeout=timeout)
    return Result(proc)


def run_program(source: str, tmp_path: Path, *flags: str, env: dict | None = None, stdin: str = "") -> Result:
    program = tmp_path / "prog.syn"
    program.write_text(source, encoding="utf-8")
    return synsema("run", *flags, program.name, cwd=tmp_path, env=env, stdin=stdin)
