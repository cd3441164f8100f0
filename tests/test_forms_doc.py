"""docs/forms.md: every `synsema` block runs offline with no terminal and prints the `output`
block that follows it, so the page about the model and human forms cannot drift from them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import run_synsema

PAGE = Path(__file__).resolve().parent.parent / "docs" / "forms.md"
PAIRS = re.findall(r"```synsema\n(.*?)```\n\n```output\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.S)


def test_the_page_has_examples_of_both_kinds():
    programs = "".join(program for program, _ in PAIRS)
    for word in ("reason", "decide", "analyze", "generate", "approve", "confirm", "ask", "show"):
        assert re.search(rf"\b{word}\b", programs), word


@pytest.mark.parametrize("program, expected", PAIRS, ids=[f"example{i}" for i in range(len(PAIRS))])
def test_example_prints_its_output(tmp_path, program, expected):
    (tmp_path / "example.syn").write_text(program, encoding="utf-8")
    result = run_synsema("run", "example.syn", cwd=tmp_path)
    assert (result.stdout, result.stderr, result.returncode) == (expected, "", 0)


@pytest.mark.parametrize("document", ["README.md", "docs/builtins.md"])
def test_the_page_is_linked(document):
    assert "forms.md" in (PAGE.parent.parent / document).read_text(encoding="utf-8")
