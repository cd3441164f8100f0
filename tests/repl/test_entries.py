"""When an entry is complete, how the next line is indented, and how values are echoed."""

from __future__ import annotations

from decimal import Decimal

import pytest

from synsema.runtime.repl import echo_text, needs_more, next_indent


@pytest.mark.parametrize("text", [
    "task f()", "task f(a, b = 1)", "when x > 1", "each x in xs", "while true", "match x",
    "try", 'test "adds"', "type Point", "enum Color", "sandbox", 'trace "step"',
    # a block already begun, with no empty line yet
    "task f()\n    give 1", "when x\n    print(1)\notherwise",
    # open brackets and templates continue, blank lines inside them included
    "let xs be [1,", "print(f(1,\n", "let m be {", "`two\nlines", "`hole {x", "let xs be [1,\n\n",
    # a bracket that closes on a header line still needs the block
    "task f(a,\n       b)",
])
def test_unfinished_entries_wait_for_more(text):
    assert needs_more(text)


@pytest.mark.parametrize("text", [
    "", "   ", "1 + 1", "let x be 1", 'print("hi")', "-- only a comment",
    # an empty line ends a block, even one still missing its body (that is then an error)
    "task f()\n    give 1\n", "task f()\n    give 1\n    ", "when x\n    1\notherwise\n    2\n", "task f()\n",
    # a bracket continuation ends as soon as the bracket closes
    "let xs be [1,\n  2]",
    # an error is complete: it is shown at once
    "x = 1", "task f():", 'print "x"', '"unterminated', "x # y", "otherwise",
    # commands are one line
    ":help", ":type [1,",
    # `reason` may take a block but does not need one
    "reason about x",
])
def test_complete_entries_run_at_once(text):
    assert not needs_more(text)


@pytest.mark.parametrize("line, indent", [
    ("task f(n)", "    "), ("    when n > 1", "        "), ("        give n", "        "),
    ("otherwise", "    "), ("    recover err", "        "), ("    is [a, ...rest]", "        "),
    ("let xs be [1,", ""), ("", ""),
])
def test_the_next_line_is_indented_one_step_after_a_header(line, indent):
    assert next_indent(line) == indent


@pytest.mark.parametrize("value, shown", [
    ("hi", '"hi"'),                       # text is quoted, like Python's repr…
    ('say "x" \\ y', '"say \\"x\\" \\\\ y"'),
    ("", '""'),
    (42, "42"), (0.5, "0.5"), (Decimal("1.50"), "1.50"), (True, "true"),
    ([1, "a", None], '[1, "a", nothing]'),  # …so a value looks as it does inside a list
    ({"k": "v"}, '{k: "v"}'),
])
def test_echo_shows_values_as_inside_a_list(value, shown):
    assert echo_text(value) == shown
