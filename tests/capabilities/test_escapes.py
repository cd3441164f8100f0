"""The escape suite: programs that try to get a capability they must not have.

Each `escapes/NAME.syn` is an attempt; it must end with exit 1 and the denial message in its
`-- expect:` lines. Its twin `escapes/NAME.ok.syn` does the legitimate thing and must succeed
with its `-- stdout:` text, so a denial can never pass by breaking the feature altogether.
Header lines: `-- flags: …` (host flags, split on spaces), `-- expect: …` (each must appear on
stderr), `-- stdout: …`. `{TMP}` is the real path of the run directory (see conftest `tree`),
`{PORT}` the test HTTP server's port. Runs go through the real CLI.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from .cli import synsema

ESCAPES = Path(__file__).parent / "escapes"
ATTEMPTS = sorted(path for path in ESCAPES.glob("*.syn") if not path.name.endswith(".ok.syn"))
ENV = {"APP_NAME": "demo", "APPNAME": "no"}


def load(path: Path, subs: dict[str, str]) -> tuple[dict[str, list[str]], str]:
    source = path.read_text(encoding="utf-8")
    for key, value in subs.items():
        source = source.replace(key, value)
    header: dict[str, list[str]] = {}
    for line in source.splitlines():
        if not line.startswith("-- ") or ":" not in line:
            break
        key, _, value = line[3:].partition(":")
        header.setdefault(key.strip(), []).append(value.strip())
    return header, source


def run(path: Path, tree: Path, subs: dict[str, str]):
    header, source = load(path, subs)
    program = tree / path.name
    program.write_text(source, encoding="utf-8")
    flags = " ".join(header.get("flags", [])).split()
    return header, synsema("run", *flags, program.name, cwd=tree, env=ENV)


def test_every_attempt_has_a_twin_and_an_expectation():
    assert len(ATTEMPTS) >= 20
    for attempt in ATTEMPTS:
        assert attempt.with_name(attempt.stem + ".ok.syn").exists(), attempt.name
        header, _ = load(attempt, {})
        assert header.get("escape") and header.get("expect"), attempt.name


@pytest.mark.parametrize("attempt", ATTEMPTS, ids=[path.stem for path in ATTEMPTS])
def test_escape_is_denied_and_its_twin_succeeds(attempt, tree, http_server):
    subs = {"{TMP}": os.path.realpath(tree), "{PORT}": str(http_server)}
    header, result = run(attempt, tree, subs)
    assert result.code == 1, result
    assert "Traceback" not in result.err, result
    for fragment in header["expect"]:
        assert fragment in result.err, result

    twin = attempt.with_name(attempt.stem + ".ok.syn")
    header, result = run(twin, tree, subs)
    assert result.code == 0, result
    for fragment in header["stdout"]:
        assert fragment in result.out, result
