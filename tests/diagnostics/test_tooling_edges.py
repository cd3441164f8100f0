"""Tooling edges a hostile program or user reaches (issue 25 item 9), each with the input that
broke it: line separators inside strings, escape sequences in test names and messages, doc
comments that `fmt` and `code outline` must agree on, a template that looks like a comment,
and a flag given without its value."""

from __future__ import annotations

import json

import pytest

from tests.conftest import run_synsema


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\u0085", "\x0c", "\x1c", "\x1d", "\x1e"])
def test_a_line_separator_inside_a_string_keeps_later_excerpts_on_their_line(tmp_path, separator):
    program = tmp_path / "p.syn"
    program.write_text(f'let s be "a{separator}b"\nlet t be `x{separator}y`\nprint(1 / 0)\n', encoding="utf-8")
    done = run_synsema("run", program)
    assert done.returncode == 1
    assert "p.syn:3:7: Division by zero" in done.stderr
    assert "  3 | print(1 / 0)" in done.stderr, done.stderr


def test_escape_sequences_in_test_names_and_messages_never_reach_the_terminal(tmp_path):
    tests = tmp_path / "t.syn"
    tests.write_text('test "clear \\u001b[2J\\u001b[H screen"\n'
                     '    assert(false, "moved \\u001b[1A title \\u001b]0;pwned\\u0007 \\u202e evil")\n'
                     'test "skips \\u001b[31m"\n    skip("why \\u009b")\n', encoding="utf-8")
    done = run_synsema("test", tests)
    assert done.returncode == 1
    shown = done.stdout + done.stderr
    for raw in ("\x1b", "\x07", "\u202e", "\x9b"):
        assert raw not in shown
    assert "clear \\x1b[2J\\x1b[H screen" in done.stdout
    assert "title \\x1b]0;pwned\\x07 \\u202e evil" in done.stdout
    assert "why \\x9b" in done.stdout


def _docs(path) -> dict:
    done = run_synsema("code", "outline", "--json", path)
    assert done.returncode == 0, done.stderr
    return {task["name"]: task["doc"] for task in json.loads(done.stdout)["tasks"]}


SOURCES = {
    "a comment indented in the block above": "task f()\n    give 1\n    -- ends f's block\ntask g()\n    give 2\n",
    "a doc right above": "let x be 1\n-- Doc of g.\ntask g()\n    give 2\n",
    "a doc after a block": "task f()\n    give 1\n-- Doc of g.\n-- Two lines.\ntask g()\n    give 2\n",
    "a nested task's doc": "task f()\n    -- Doc of h.\n    task h()\n        give 1\n    give h()\n",
    "a template that looks like a comment": "let msg be `first\n-- not a comment`\ntask g()\n    give msg\n",
}
EXPECTED = {
    "a comment indented in the block above": {"f": None, "g": None},
    "a doc right above": {"g": "Doc of g."},
    "a doc after a block": {"f": None, "g": "Doc of g.\nTwo lines."},
    "a nested task's doc": {"f": None, "h": "Doc of h."},
    "a template that looks like a comment": {"g": None},
}


@pytest.mark.parametrize("name", list(SOURCES))
def test_fmt_keeps_every_doc_comment_code_outline_reads(tmp_path, name):
    path = tmp_path / "p.syn"
    path.write_text(SOURCES[name], encoding="utf-8")
    before = _docs(path)
    assert before == EXPECTED[name]
    assert run_synsema("fmt", path).returncode == 0
    assert _docs(path) == before, path.read_text()


@pytest.mark.parametrize("command", [["run", "--format"], ["test", "--format"], ["run", "p.syn", "--format"]])
def test_a_flag_without_its_value_says_so(tmp_path, command):
    (tmp_path / "p.syn").write_text("print(1)\n", encoding="utf-8")
    done = run_synsema(*command, cwd=tmp_path)
    assert done.returncode == 2 and "--format needs a value: human or json" in done.stderr, done.stderr
