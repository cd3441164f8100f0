"""A loop whose body calls nothing but its in-place `set xs to append(xs, v)` / `set xs to
slice(xs, i, j)` statements tests once, before the loop, that `append` and `slice` are still the
builtins (runtime/codegen.py `Generator.hoist_builtins`), instead of reading the globals at every
statement. These programs rebind the two names every way a program can while such a loop runs
or is about to: each must see exactly what the closures see (the test runs both, with and
without --labels, tests/test_codegen_differential.py's harness) and the right answer.
"""

from __future__ import annotations

import io

import pytest

from synsema.runtime import codegen
from synsema.runtime.interp import Runtime
from tests.test_codegen_differential import assert_same

HEAD = "let original be append\nlet original_slice be slice\ntask mine(xs, v)\n    give [\"mine\", v]\n"

PROGRAMS = {
    # a call in the body may rebind `append`: such a loop reads the global at every statement
    "a call in the loop rebinds append": (
        HEAD + "task rebind()\n    set append to mine\n    give 0\n"
        "task fill(n)\n    let xs be []\n    let i be 0\n    while i < n\n        set xs to append(xs, i)\n"
        "        when i == 1\n            rebind()\n        set i to i + 1\n    give xs\nprint(fill(4))\n",
        "[\"mine\", 3]\n"),
    # the test of a `while` runs every time round: a call there counts as one in the body
    "the loop's test rebinds append": (
        HEAD + "let calls be 0\ntask step()\n    set calls to calls + 1\n    when calls == 3\n"
        "        set append to mine\n    give calls < 5\n"
        "task fill()\n    let xs be []\n    while step()\n        set xs to append(xs, calls)\n    give xs\nprint(fill())\n",
        "[\"mine\", 4]\n"),
    # append rebound before the loop: its statement calls the global, which rebinds slice (and
    # puts append back); the next statements see both changes
    "the rebound append rebinds slice": (
        HEAD + "task cut(xs, a, b)\n    give [\"cut\", a, b]\n"
        "task flip(xs, v)\n    set slice to cut\n    set append to original\n    give [v, v, v]\n"
        "task g()\n    let xs be [1, 2, 3]\n    let i be 0\n    while i < 3\n        set xs to append(xs, i)\n"
        "        set xs to slice(xs, 0, -1)\n        set i to i + 1\n    give xs\n"
        "print(g())\nset append to flip\nprint(g())\n",
        "[1, 2, 3]\n[\"cut\", 0, -1]\n"),
    "a list shared inside the loop is copied, not changed": (
        "task h(items)\n    let xs be []\n    let keep be []\n    each v in items\n        set xs to append(xs, v)\n"
        "        when v == 2\n            set keep to xs\n        set xs to slice(xs, 1)\n    give [xs, keep]\n"
        "print(h([1, 2, 3]))\n",
        "[[], [2]]\n"),
    "a local named append is called": (
        "task local(append)\n    let xs be []\n    each v in [1, 2]\n        set xs to append(xs, v)\n    give xs\n"
        "print(local((a, b) => [b, b]))\n",
        "[2, 2]\n"),
    "a top-level loop rebinding append itself": (
        HEAD + "let top be []\neach v in [1, 2, 3]\n    set top to append(top, v)\n    when v == 2\n"
        "        set append to mine\nprint(top)\n",
        "[\"mine\", 3]\n"),
    # The item's own call rebinds the list's variable after the list was read: the append is
    # made to the list read first and the variable then holds it (the statement writes the
    # variable back only when it got another list or when the item holds a call).
    "the item's call rebinds the list": (
        "let acc be [1]\ntask sneaky(v)\n    set acc to [100]\n    give v\n"
        "each i in range(2)\n    set acc to append(acc, sneaky(i))\nprint(acc)\n"
        "task local(n)\n    let xs be []\n    each i in range(n)\n        set xs to append(xs, sneaky(i) + length(xs))\n"
        "    give xs\nprint(local(3), acc)\n",
        "[1, 0, 1]\n[0, 2, 4] [100]\n"),
    "not a list: the builtin's error": (
        "task f(xs)\n    let i be 0\n    while i < 2\n        set xs to append(xs, i)\n        set i to i + 1\n"
        "    give xs\nprint(f([]))\nprint(f(\"ab\"))\n",
        "[0, 1]\n"),
}


@pytest.mark.parametrize("labels", [False, True])
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_in_place_statements_in_loops_match_the_closures(tmp_path, name, labels):
    source, expected = PROGRAMS[name]
    code, out, err, _ = assert_same(tmp_path, source, labels)
    assert out == expected, err
    if name == "not a list: the builtin's error":
        assert code == 1 and "append" in err and "prog.syn:4:19" in err, err
    else:
        assert code == 0, err


def test_the_benchmark_loop_tests_the_builtins_once():
    """The match benchmark's loop is one the test is hoisted out of (a silent fall back to the
    per-statement test would pass every differential test)."""
    codegen._COMPILED.clear()
    rt = Runtime(out=io.StringIO().write, err=io.StringIO().write)
    rt.run_main("task run(n)\n    let s be []\n    let i be 0\n    while i < n\n        set s to append(s, i)\n"
                "        set s to slice(s, 1)\n        set i to i + 1\n    give s\nprint(run(3))\n", "m.syn")
    source = "\n".join(codegen._COMPILED)
    assert "_append = g.get(" in source and "_slice = g.get(" in source, source
