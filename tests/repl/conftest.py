"""Shared helpers: a session whose output is captured, and the real command with piped input."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from synsema.runtime.repl import Session

REPO = Path(__file__).resolve().parents[2]


class Shown:
    """What one entry printed, and the exit status it asked for (None: the session goes on)."""

    def __init__(self, code, out: str, err: str):
        self.code = code
        self.out = out
        self.err = err

    def __repr__(self) -> str:
        return f"code {self.code}\n--- out\n{self.out}--- err\n{self.err}"


class CapturedRepl:
    """A REPL session whose output is kept, entry by entry."""

    def __init__(self, options: dict | None = None):
        self.out: list[str] = []
        self.err: list[str] = []
        self.session = Session(options or {}, out=self.out.append, err=self.err.append)

    def enter(self, entry: str) -> Shown:
        seen_out, seen_err = len(self.out), len(self.err)
        code = self.session.handle(entry)
        return Shown(code, "".join(self.out[seen_out:]), "".join(self.err[seen_err:]))


@pytest.fixture
def repl():
    return CapturedRepl()


class Completed:
    def __init__(self, proc: subprocess.CompletedProcess):
        self.code = proc.returncode
        self.out = proc.stdout
        self.err = proc.stderr

    def __repr__(self) -> str:
        return f"exit {self.code}\n--- stdout\n{self.out}--- stderr\n{self.err}"


def repl_env(data_home: Path) -> dict:
    """The environment of a subprocess: repository importable, LLM offline, history under `data_home`."""
    env = {key: value for key, value in os.environ.items()
           if not key.endswith("_API_KEY") and not key.startswith("SYNSEMA_")}
    env.update({"PYTHONPATH": str(REPO), "SYNSEMA_LLM_PROVIDER": "offline",
                "XDG_DATA_HOME": str(data_home)})
    return env


@pytest.fixture
def piped_repl(tmp_path):
    """Run `python -m synsema repl FLAGS…` with `text` on a pipe as stdin."""
    def run(text: str, *flags: str, cwd: Path | None = None) -> Completed:
        proc = subprocess.run([sys.executable, "-m", "synsema", "repl", *flags], input=text,
                              capture_output=True, text=True, timeout=60, cwd=cwd or tmp_path,
                              env=repl_env(tmp_path / "data"))
        return Completed(proc)
    return run
