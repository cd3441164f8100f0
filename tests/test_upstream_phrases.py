"""Each user-facing message keeps our hints and carries upstream Synsema's key phrase (issue 32
item 12), so tools and people that match on upstream's words keep working: one row per message
site, the program that reaches it, and the phrase upstream's interpreter writes there."""

from __future__ import annotations

import pytest

from conftest import run_synsema

ORDERS = 'export task total_orders()\n    give 42\n\ntask secret_helper()\n    give 1\n'

# (name, program, flags, upstream's key phrase)
SITES = [
    ("capability not granted", 'print(read_file("notes.txt"))\n', (),
     'Capability not granted: file_read("'),
    ("capability: a permission", 'print(read_file("notes.txt"))\n', (),
     "— this is a permission, not a bug: add "),
    ("capability written", 'write_file("out.txt", "x")\n', (), 'Capability not granted: file_write("'),
    ("capability above the ceiling", 'require file.read("notes.txt")\nprint(read_file("notes.txt"))\n',
     ("--cap-set", "stdout"), "declared but above the host ceiling"),
    ("ceiling: who fixes it", 'require net("api.example.com")\nprint(fetch("https://api.example.com"))\n',
     ("--cap-set", "stdout"), "The program cannot fix this; the host must widen the ceiling"),
    ("capability net", 'print(fetch("https://api.example.com/x"))\n', (),
     'Capability not granted: net("api.example.com")'),
    ("frozen intent", 'intent: "a"\nprint(1)\nintent: "b"\n', (),
     "Cannot declare a new intent after execution has started"),
    ("recursion limit", 'task r(n)\n    give r(n + 1)\nr(0)\n', (), "maximum recursion depth exceeded"),
    ("undefined variable", "print(nope)\n", (), "Undefined variable: 'nope'"),
    ("set before let", "set y to 1\n", (), "Cannot set undefined variable: 'y'. Use 'let' first."),
    ("iterate", "each x in 5\n    print(x)\n", (), "Cannot iterate over number"),
    ("text plus nothing", 'print("a" + nothing)\n', (),
     "Cannot add text and nothing — convert it on purpose: text(x), or interpolate it"),
    ("division", "print(1 / 0)\n", (), "Division by zero"),
    ("modulo", "print(5 % 0)\n", (), "Modulo by zero"),
    ("zero power", "print(0 ** -1)\n", (), "Zero cannot be raised to a negative power"),
    ("invariant", 'invariant "positive": 1 < 0\n', (), "Invariant violation: positive"),
    ("missing key", 'let m be {"a": 1}\nprint(m.b)\n', (), "Map has no key 'b'"),
    ("of precedence", 'let request be {"user": "ada"}\nlet u be user of request.role\n', (), "bind first"),
    ("module export", 'use "./orders.syn" as orders\nprint(orders.secret_helper())\n', (),
     "has no export 'secret_helper'"),
    ("missing argument", "task f(a, b)\n    give a\nf(1)\n", (),
     "task 'f' is missing argument 'b' — pass it, or give the parameter a default"),
    ("too many arguments", "task f(a)\n    give a\nf(1, 2, 3)\n", (), "task 'f' takes 1 argument, got 3"),
    ("int base", 'print(int("ff", 16))\n', (), "the second argument is the fallback value, not the base"),
    ("index into", "print(5[0])\n", (), "Cannot index into number"),
    ("exit code", "exit(300)\n", (), "exit: the code must be an integer from 0 to 255, got 300"),
    ("assert_error", "assert_error(5)\n", (), "assert_error expects a task or lambda, got number"),
    ("module not found", 'use "./absent.syn" as a\n', (), "module not found: "),
    ("module require", 'use "./needs.syn" as n\n', (), "must not have a top-level 'require'"),
    ("label: assignment", 'let s be private(5, "a")\nlet x be 0\nwhen s > 3\n    set x to 1\n', ("--labels",),
     "label_violation: cannot assign to 'x' (public) under private control flow (pc = [a])"),
    ("label: stdout", 'let s be private(5, "a")\nwhen s > 3\n    print("big")\n', ("--labels",),
     "print called under private control flow (pc = [a]); stdout is public and the NUMBER of lines "
     "is not redacted"),
    ("label: sink", 'require file.write("out.txt")\nlet s be private("x", "a")\nwrite_file("out.txt", s)\n',
     ("--labels",), "is private to a, the sink accepts (public)"),
]


@pytest.mark.parametrize(("program", "flags", "phrase"), [row[1:] for row in SITES], ids=[row[0] for row in SITES])
def test_the_message_carries_upstreams_key_phrase(tmp_path, program, flags, phrase):
    (tmp_path / "orders.syn").write_text(ORDERS, encoding="utf-8")
    (tmp_path / "needs.syn").write_text("require time\n", encoding="utf-8")
    (tmp_path / "notes.txt").write_text("hi", encoding="utf-8")
    (tmp_path / "prog.syn").write_text(program, encoding="utf-8")
    result = run_synsema("run", *flags, "prog.syn", cwd=tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    assert phrase in result.stderr, result.stderr


def test_bind_first_is_said_only_for_the_key_of_b_c(tmp_path):
    """`a of f(x).c` where `f` itself fails on another key: that error is not about `of`."""
    (tmp_path / "prog.syn").write_text('let request be {"user": {"a": 1}}\ntask lookup(m)\n    give m.zz\n'
                                       'print(user of lookup(request).role)\n', encoding="utf-8")
    result = run_synsema("run", "prog.syn", cwd=tmp_path)
    assert result.returncode == 1 and "Map has no key 'zz'" in result.stderr
    assert "bind first" not in result.stderr
