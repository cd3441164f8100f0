"""Under --labels, `where(xs, (x) => …)` and its kin with a literal lambda in a frame-mode body
are a loop at the call site (runtime/codegen_labels.py `LabelGenerator.callback_loop`) for a
call that starts while nothing is private: the lambda's body without labels (PlainCallback's
lines) inline per item, no lambda value and no Python call per item.

The loop is taken only when it is provably what the builtin and its labelled callback compute:
the global still holds that builtin, nothing is private (`st.touched` empty), the first argument
is a list, and every callee of the body still holds the builtin it held when the body was
written. Each rule below runs under --labels generated and on the closures (`SYNSEMA_CLOSURES`,
whose callbacks go through Runtime.call), comparing exit code, stdout, stderr and files, and its
stdout is written out here: each fails when the check that keeps it is dropped from the loop
(each was planted out once and seen to fail). tests/test_codegen_callback_loops.py runs its
programs (a rebound `where`, what is not a list, the depth limit, a step per item, random bodies)
under --labels too.

Likewise a `while` or `each` loop of a labelled frame-mode body whose body only computes and
stores (PlainLoop: let, set, when, each, while over operators, items, templates, map and list
literals and calls of the pure builtins) runs as runtime.codegen writes it, its `each` variables in
Python locals, when it starts while nothing is private (and, for `each`, walks a list) and every
global it calls still holds its builtin: nothing in it can run program code or make a private
value (PLAIN_LOOP_RULES, each test planted out once and seen to fail).
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from synsema.runtime import codegen
from synsema.runtime.calls import RECURSION_LIMIT
from test_codegen_labels import assert_rule
from tests.test_codegen_differential import assert_same

LIMIT = RECURSION_LIMIT

# name -> (program, required stdout, text required in stderr or None for a clean exit)
LOOP_RULES = {
    "each builtin of the loop in a task and in a top-level loop, with its steps": (
        'task all_of(xs)\n    let before be steps()\n'
        '    let r be [apply(xs, (x) => x * 2 + 1), where(xs, (x) => x > 1), count_where(xs, (x) => x > 1),\n'
        '        every(xs, (x) => x > 0), some(xs, (x) => x == 3), find_first(xs, (x) => x > 1),\n'
        '        find_first(xs, (x) => x > 9), reduce(xs, (a, x) => a * 10 + x, 0), reduce(xs, (a, x) => append(a, [x]), [])]\n'
        '    give [r, steps() - before]\n'
        'print(all_of([1, 2, 3]))\nprint(all_of([]))\n'
        'each n in [2, 4]\n    print(where(range(0, n), (x) => x % 2 == 0), apply([n, n], (x) => lower("A") + text(x)))\n',
        '[[[3, 5, 7], [2, 3], 2, true, true, 2, nothing, 123, [[1], [2], [3]]], 26]\n'
        '[[[], [], 0, true, false, nothing, nothing, 0, []], 0]\n'
        '[0] ["a2", "a2"]\n[0, 2] ["a4", "a4"]\n', None),
    "every, some and find_first stop at their answer": (
        'task checks(xs)\n    give [every(xs, (x) => x > 0), some(xs, (x) => x == 0), find_first(xs, (x) => x < 1)]\n'
        'print(checks([1, 0, "x"]))\nprint(checks([1, 2, "x"]))\n',
        '[false, true, 0]\n', "prog.syn:2:28: Unsupported operation: text > number"),
    "a call once something is private is the labelled builtin call": (
        'task keep(xs)\n    give where(xs, (x) => x > 1)\nprint(keep([3, 2, 0]))\n'
        'let p be private(3, "app")\nlet r be keep([p, 2, 0])\nprint(r, declassify(r, "t"))\n'
        'let q be keep([3, 2, 0])\nprint(q, declassify(q, "t"))\n',
        '[3, 2]\nprivate(app) [3, 2]\n[3, 2] [3, 2]\n', None),
    "a callee of the body rebound before the call is called, labels and all": (
        'task keep(xs)\n    give where(xs, (w) => length(w) > 2)\nprint(keep(["a", "abc"]))\n'
        'set length to (w) => 3\nprint(keep(["a", "abc"]))\n'
        'set length to (w) => private(5, "app")\nlet r be keep(["a", "abc"])\nprint(r, declassify(r, "t"))\n',
        '["abc"]\n["a", "abc"]\nprivate(app) ["a", "abc"]\n', None),
    "steps: one per item, after a rebound callee too": (
        'task keep(xs)\n    let before be steps()\n    let r be where(xs, (w) => length(w) > 2)\n    give [r, steps() - before]\n'
        'print(keep(["a", "abc", "abcd"]))\nset length to (w) => 3\nprint(keep(["a", "abc", "abcd"]))\n',
        '[["abc", "abcd"], 3]\n[["a", "abc", "abcd"], 6]\n', None),
    "a rebound where is called instead": (
        'task keep(xs)\n    give where(xs, (x) => x > 1)\nprint(keep([1, 2, 3]))\n'
        'set where to (xs, f) => ["mine", f(5)]\nprint(keep([1, 2, 3]))\n',
        '[2, 3]\n["mine", true]\n', None),
    "the depth limit met by the call is located at the call": (
        'task f(n)\n    when n == 0\n        give where([1], (x) => x > 1)\n    give f(n - 1)\n'
        f'print(f({LIMIT - 3}))\nprint(f({LIMIT - 2}))\n',
        '[]\n', "prog.syn:3:14: maximum recursion depth exceeded"),
    "what is not a list is the builtin's": (
        'task keep(xs)\n    give where(xs, (w) => w > 1)\n'
        'print(keep(range(0, 3)))\ntry\n    print(keep("abc"))\nrecover e\n    print(e)\n',
        '[2]\nwhere takes a list and a function — where(list, fn) or where(fn, list) — got text and task\n', None),
    "an error in the body is located there, catchable, and leaves the depth as it was": (
        'task bad(xs)\n    give apply(xs, (w) => 10 // w)\nlet n be 0\n'
        'each i in range(0, 3500)\n    try\n        print(bad([0]))\n    recover e\n        set n to n + 1\n'
        'print(n, bad([5, 2]))\nprint(bad([1, 0]))\n',
        '3500 [2, 5]\n', "prog.syn:2:27: Division by zero"),
    "a pure builtin's error in the body is the builtin's, located at its call": (
        'task lens(xs)\n    give apply(xs, (w) => length(w) + 1)\nprint(lens(["ab", [1]]))\nprint(lens(["ab", 5]))\n',
        '[3, 2]\n', "2:27: length expects text, a list or a map, got number"),
    "an empty list at the depth where one item would fail": (
        'task f(n, xs)\n    when n == 0\n        give where(xs, (x) => x > 1)\n    give f(n - 1, xs)\n'
        f'each n in [{LIMIT - 3}, {LIMIT - 2}]\n    each xs in [[], [5]]\n'
        '        try\n            print(n, f(n, xs))\n        recover e\n            print(n, e)\n',
        f'{LIMIT - 3} []\n{LIMIT - 3} [5]\n{LIMIT - 2} []\n{LIMIT - 2} maximum recursion depth exceeded\n', None),
    "the body's builtin call one level below the callback": (
        'task f(n, xs)\n    when n == 0\n        give apply(xs, (x) => length(text(x)))\n    give f(n - 1, xs)\n'
        f'each n in [{LIMIT - 4}, {LIMIT - 3}]\n'
        '    try\n        print(n, f(n, [12]))\n    recover e\n        print(n, e)\n',
        f'{LIMIT - 4} [2]\n{LIMIT - 3} maximum recursion depth exceeded\n', None),
}


# A `while` or `each` loop whose body only computes and stores (LabelGenerator.s_While/s_Each,
# PlainLoop) runs as runtime.codegen writes it, without labels, when it starts while nothing is private.
_FIRST = "a while and an each loop that start while nothing is private, and once something is"
PLAIN_LOOP_RULES = {
    _FIRST: (
        'let xs be []\nlet i be 0\nwhile i < 3\n    let sq be i * i\n'
        '    set xs to append(xs, {"n": i, "t": `v{sq}`, "k": [sq, "a"][1]})\n    set i to i + 1\n'
        'print(xs, sq, steps())\nlet counts be {}\neach w in ["a", "b", "a"]\n'
        '    set counts[w] to get(counts, w, 0) + length(w)\nprint(counts)\nlet p be private(2, "app")\n'
        'let j be 0\nlet ys be []\nwhile j < 2\n    set ys to append(ys, j + p)\n    set j to j + 1\n'
        'print(declassify(ys, "t"))\neach w in [p, "c"]\n    set counts[w] to get(counts, w, 0) + 1\n'
        'print(declassify(counts, "t"))\n',
        '[{n: 0, t: "v0", k: "a"}, {n: 1, t: "v1", k: "a"}, {n: 2, t: "v4", k: "a"}] 4 0\n{a: 2, b: 1}\n'
        '[2, 3]\n{a: 2, b: 1, 2: 1, c: 1}\n', None),
    'a while loop that starts once something is private is labelled': (
        'let p be private(2, "app")\nlet n be 0\nlet i be 0\nwhile i < 2\n    when p > 1\n'
        '        set n to n + 1\n    set i to i + 1\nprint(i)\n',
        '', "prog.syn:6:9: label_violation: cannot assign to 'n' (public) under private cont"),
    'an each loop that starts once something is private is labelled': (
        'let p be private(2, "app")\nlet n be 0\neach w in [1, 2]\n    when p > 1\n        set n to n + 1\n'
        'print(n)\n',
        '', "prog.syn:5:9: label_violation: cannot assign to 'n' (public) under private cont"),
    'each over a text, a map, a range and what cannot be walked': (
        'let n be 0\neach c in "ab"\n    set n to n + length(c)\neach k in {"x": 1, "yy": 2}\n'
        '    set n to n + length(k)\neach k in range(0, 3)\n    set n to n + k\nprint(n)\neach x in 5\n'
        '    set n to n + 1\n',
        '8\n', 'prog.syn:9:11: Cannot iterate over number'),
    'a callee rebound before the loop is called': (
        'let counts be {}\nset get to (m, k, d) => 7\neach w in ["a", "b", "a"]\n'
        '    set counts[w] to get(counts, w, 0) + 1\nprint(counts)\nlet i be 0\nset length to (x) => 40\n'
        'while i < 2\n    set counts[text(i)] to length("ab")\n    set i to i + 1\nprint(counts)\n',
        '{a: 8, b: 8}\n{a: 8, b: 8, 0: 40, 1: 40}\n', None),
    'a loop that rebinds a name it calls is labelled': (
        'let out be []\nlet i be 0\nwhile i < 2\n    set out to append(out, length("abc"))\n'
        '    set length to upper\n    set i to i + 1\nprint(out)\n',
        '[3, "ABC"]\n', None),
    'a loop that makes a private value is labelled': (
        'let i be 0\nlet n be 0\nwhile i < 3\n    let s be private(i, "app")\n    when s > 0\n'
        '        set n to n + 1\n    set i to i + 1\nprint(n)\n',
        '', "prog.syn:6:9: label_violation: cannot assign to 'n' (public) under private cont"),
    'the depth and the errors of a loop without labels': (
        'task f(n, xs)\n    let keep be (x) => x\n    when n == 0\n        let total be 0\n'
        '        each w in xs\n            set total to total + length(text(w))\n        give total\n'
        '    give f(n - 1, xs)\neach n in [2997, 2998, 2999]\n    try\n        print(n, f(n, [12, 345]))\n'
        '    recover e\n        print(n, e)\nlet m be {"a": 1}\nlet i be 0\nwhile i < 2\n'
        '    set m["a"] to m["a"] * 10 // (1 - i)\n    set i to i + 1\n',
        '2997 5\n2998 5\n2999 maximum recursion depth exceeded\n', 'prog.syn:17:19: Division by zero'),
}


@pytest.mark.parametrize("name", sorted(LOOP_RULES))
def test_labelled_callback_loops_keep_the_rules(tmp_path, name):
    assert_rule(tmp_path, *LOOP_RULES[name])


@pytest.mark.parametrize("name", sorted(PLAIN_LOOP_RULES))
def test_plain_loops_keep_the_rules(tmp_path, name):
    assert_rule(tmp_path, *PLAIN_LOOP_RULES[name])


def test_a_host_failure_in_the_body_is_the_builtins_under_labels(tmp_path):
    """A comparison nested past Python's recursion limit fails in the body: the error is where's,
    as calls.call_builtin reports a failure inside the builtin (its callbacks included)."""
    source = ("let a be []\nlet b be []\nlet i be 0\nwhile i < 210000\n    set a to [a]\n    set b to [b]\n"
              "    set i to i + 1\ntask same(xs)\n    give where(xs, (x) => x == b)\n"
              "try\n    print(same([a]))\nrecover e\n    print(e)\n")
    code, out, err, _ = assert_same(tmp_path, source, True)
    assert code == 0, err
    assert out.startswith("maximum recursion depth exceeded (in where:"), out


def generated(tmp_path, source: str) -> list:
    """The generated functions' texts of `source` run under --labels (with the closures' run)."""
    sources = []
    original = codegen._compiled

    def spy(text):
        sources.append(text)
        return original(text)
    codegen._compiled = spy
    try:
        assert_same(tmp_path, source, True)
    finally:
        codegen._compiled = original
    return sources


def test_the_labelled_loop_is_written(tmp_path):
    """The rules above do go through the loop (a silent fall back to the builtin call would pass
    them all): a labelled frame-mode body holds it, guarded by `st.touched`."""
    sources = generated(tmp_path, LOOP_RULES["each builtin of the loop in a task and in a top-level loop, with its steps"][0])
    written = [s for s in sources if "for v1 in " in s]
    assert len(written) == 2, sources   # the task's body and the top-level loop's
    for source in written:
        assert "and not st.touched and " in source and "next(STEPS)" in source, source


def test_the_plain_loops_are_written(tmp_path):
    """The plain-loop rules do go through PlainLoop: the `while` and the `each` of the first
    rule are each a labelled loop function holding the plain loop behind its test."""
    written = "\n".join(generated(tmp_path, PLAIN_LOOP_RULES[_FIRST][0]))
    assert written.count("        if not st.touched and g.get(") == 4, written   # two `while` and two `each` loops


# Random loops of the shape PlainLoop writes, started with and without a private value in the run,
# with statements that make one or read one: generated and on the closures under --labels.
_ITEMS = st.sampled_from(['["a", "bb", "a", "ccc"]', "range(0, 4)", '"abc"', '{"x": 1, "yy": 2}', "[p, 1]", "[]", "7"])
_STATEMENTS = st.sampled_from([
    "set counts[text(w)] to get(counts, text(w), 0) + 1",
    "set total to total + length(text(w))",
    "when length(text(w)) > 1\n{pad}    set total to total + 1\n{pad}otherwise\n{pad}    set total to total - 1",
    "set total to total + p",
    "let last be [w, total]",
    "set seen to append(seen, `<{w}>`)",
    "when p > 2\n{pad}    set total to total * 2",
    'set total to total + private(1, "app")',
    "set counts[text(w)] to {\"n\": total, \"k\": [w][0]}",
])
plain_loops = st.tuples(st.booleans(), st.booleans(), _ITEMS, st.lists(_STATEMENTS, min_size=1, max_size=3)).map(
    lambda t: 'let counts be {}\nlet total be 0\nlet seen be []\nlet last be nothing\n'
    + ('let p be private(3, "app")\n' if t[0] else "let p be 3\n")
    + ("each w in " + t[2] + "\n" if t[1] else "let w be 0\nwhile w < 3\n")
    + "".join("    " + s.replace("{pad}", "    ") + "\n" for s in t[3])
    + ("" if t[1] else "    set w to w + 1\n")
    + 'print(declassify(counts, "t"), declassify(total, "t"), declassify(seen, "t"), declassify(last, "t"))\n')


@settings(max_examples=60, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(source=plain_loops)
def test_random_plain_loops_compute_what_the_closures_compute(tmp_path, source):
    assert_same(tmp_path, source, True)
