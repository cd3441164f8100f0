"""Helpers for the bounds tests: the real CLI in a subprocess, never allowed to hurt the host."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import ROOT, synsema_env

# Every reproducer must end within this many seconds; the limits below keep a regression from
# taking the machine with it (a runaway gets killed instead of swapping).
DEADLINE = 5
HOST_MEMORY = 2 * 1024 ** 3


def run_bounded(*args, stdin: str = "", cwd=None, env=None, timeout: float = DEADLINE,
                pass_fds=()) -> subprocess.CompletedProcess:
    """Run `synsema ARGS` under `prlimit` (address space) and a wall-clock `timeout`."""
    command = ["prlimit", f"--as={HOST_MEMORY + 1024 ** 3}", "--",
               sys.executable, "-m", "synsema", *map(str, args)]
    return subprocess.run(command, input=stdin, capture_output=True, text=True, cwd=cwd,
                          env=env or synsema_env(), timeout=timeout, pass_fds=pass_fds)


def assert_language_error(result, *fragments: str, code: int = 1) -> None:
    """A clean failure: the expected exit code, the fragments in stderr, no Python leaking out."""
    assert result.returncode == code, (result.returncode, result.stdout, result.stderr)
    for fragment in fragments:
        assert fragment in result.stderr, result.stderr
    assert_no_leak(result)


def assert_no_leak(result) -> None:
    """Nothing of Python's own reached the user."""
    shown = result.stderr + result.stdout
    for leak in ("Traceback", "Internal error", "ValueError", "MemoryError", "RecursionError",
                 "OSError", "UnicodeDecodeError"):
        assert leak not in shown, shown


@pytest.fixture
def program(tmp_path):
    """Write a program file and give back its path."""
    def write(source: str, name: str = "p.syn"):
        path = tmp_path / name
        path.write_text(source, encoding="utf-8")
        return path
    return write
