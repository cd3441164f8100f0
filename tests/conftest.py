"""Shared helpers: every test drives the real `synsema` command in a subprocess."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def synsema_env(**extra: str) -> dict:
    """The environment of a test run: no LLM keys leak in from the machine, offline by default."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY") and not k.startswith("SYNSEMA_")}
    env["PYTHONPATH"] = str(ROOT)
    env.update(extra)
    return env


def run_synsema(*args: str, cwd=None, stdin: str | None = None, env: dict | None = None,
                timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "synsema", *map(str, args)], cwd=cwd,
                          input=stdin if stdin is not None else "", capture_output=True, text=True,
                          timeout=timeout,
                          env=env or synsema_env())


@pytest.fixture
def synsema():
    return run_synsema
