"""Conformance programs: each tests/conformance/**/NAME.syn runs through `synsema run` and must
print exactly NAME.out on stdout and NAME.err on stderr, and exit with NAME.exit (default 0).
NAME.cmd, when present, holds the command and flags to use instead of `run` (`run --labels`,
`check`): the program's name is given last."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from conftest import run_synsema

HERE = Path(__file__).resolve().parent / "conformance"
PROGRAMS = sorted(HERE.rglob("*.syn"))


def _expected(program: Path, suffix: str, default: str = "") -> str:
    path = program.with_suffix(suffix)
    return path.read_text(encoding="utf-8") if path.exists() else default


@pytest.mark.parametrize("program", PROGRAMS, ids=[str(p.relative_to(HERE)) for p in PROGRAMS])
def test_program(program: Path):
    command = shlex.split(_expected(program, ".cmd", "run"))
    result = run_synsema(*command, program.name, cwd=program.parent)
    assert result.stdout == _expected(program, ".out")
    assert result.stderr == _expected(program, ".err")
    assert result.returncode == int(_expected(program, ".exit", "0").strip())


def test_there_are_programs_of_every_kind():
    assert len(PROGRAMS) >= 30
    assert any(p.with_suffix(".err").exists() for p in PROGRAMS)
