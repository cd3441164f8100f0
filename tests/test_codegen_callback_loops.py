"""`where(xs, (x) => …)` and its kin (`apply`, `count_where`, `every`, `some`, `find_first`,
`reduce(xs, (acc, x) => …, init)`) with a literal lambda are a loop at the call site
(runtime/codegen.py `Generator.callback_loop`): the lambda's body is written inline on each item,
no lambda value is made and no Python call is made per item. The loop keeps what the builtin and calls.callback keep: the global is tested to still
hold that builtin (a rebound `where` is called instead), the list is tested to be a list (else the
builtin's own error), the call's depth test and each callback's, a step per item, the body one
level below the builtin, a host failure reported as the builtin's, errors located where they
were, short-circuits (`every`, `some`, `find_first`) and the order of the calls. A body that needs
a frame list (a nested lambda) is the ordinary call. Each program runs generated and on the
closures, with and without --labels (tests/test_codegen_differential.py's harness), and what it
prints is asserted too, so each of those tests fails if it is dropped from the loop."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from synsema.runtime import codegen
from synsema.runtime.calls import RECURSION_LIMIT
from tests.test_codegen_differential import EXAMPLES, PRELUDE, _expressions, assert_same

LIMIT = RECURSION_LIMIT

# name: (program, its whole stdout, text its stderr must hold or None)
PROGRAMS = {
    "every builtin of the loop, in a task and in a top-level loop": (
        "let k be 3\n"
        "task all_of(xs)\n"
        "    give [apply(xs, (x) => x * k), where(xs, (x) => x > 1), count_where(xs, (x) => x > 1),\n"
        "        every(xs, (x) => x > 0), some(xs, (x) => x > 2), find_first(xs, (x) => x > 1),\n"
        "        find_first(xs, (x) => x > 10), where(xs, (x) => x), apply(xs, (k) => k)]\n"
        "print(all_of([1, 2, 3]))\nprint(all_of([]))\nprint(all_of([0, 0]))\n"
        "task words_of(text)\n    let cleaned be lower(text)\n    give where(split(cleaned, \" \"), (w) => length(w) > 2)\n"
        "print(words_of(\"A Big cat ON the Mat\"))\n"
        "each n in [2, 5]\n    print(where(range(n), (x) => x % 2 == 0), apply([n], (x) => `<{x}>`))\n",
        "[[3, 6, 9], [2, 3], 2, true, true, 2, nothing, [1, 2, 3], [1, 2, 3]]\n"
        "[[], [], 0, true, false, nothing, nothing, [], []]\n"
        "[[0, 0], [], 0, false, false, nothing, nothing, [], [0, 0]]\n"
        "[\"big\", \"cat\", \"the\", \"mat\"]\n[0] [\"<2>\"]\n[0, 2, 4] [\"<5>\"]\n", None),
    "reduce from an initial value": (
        "task fold(xs, k)\n    give [reduce(xs, (acc, x) => acc * 10 + x, 0), reduce(xs, (a, b) => a + b + k, k),\n"
        "        reduce(xs, (acc, x) => append(acc, x * k), []), reduce(xs, (acc, x) => acc + x), reduce(xs, (a) => a, 5)]\n"
        "print(fold([1, 2, 3], 100))\nprint(fold([7], 1))\n"
        "task count(xs)\n    let before be steps()\n    let r be reduce(xs, (a, b) => a + b, 0)\n    give [r, steps() - before]\n"
        "print(count(range(6)))\nprint(fold([], 1))\n",
        "[123, 406, [100, 200, 300], 6, 5]\n[7, 9, [7], 7, 5]\n[15, 6]\n",
        "prog.syn:3:57: reduce of an empty list needs an initial value"),
    "the lambda reads its task's names, the globals and names bound later": (
        "let base be 10\n"
        "task shift(xs, by)\n    let extra be by * 2\n    give apply(xs, (x) => x + by + extra + base + later)\n"
        "let later be 1000\nprint(shift([1, 2], 1))\nset base to 20\nprint(shift([1], 0))\n"
        "task shadow(x)\n    give apply([x, x + 1], (x) => x * 100)\nprint(shadow(1))\n",
        "[1014, 1015]\n[1021]\n[100, 200]\n", None),
    "the calls' order and the short-circuits": (
        "task note(x)\n    print(`saw {x}`)\n    give x > 1\n"
        "task run(xs)\n    print(every(xs, (x) => note(x)))\n    print(some(xs, (x) => note(x)))\n"
        "    print(find_first(xs, (x) => note(x)))\n    print(count_where(xs, (x) => note(x)))\n"
        "run([3, 1, 2])\n",
        "saw 3\nsaw 1\nfalse\nsaw 3\ntrue\nsaw 3\n3\nsaw 3\nsaw 1\nsaw 2\n2\n", None),
    "a rebound where, apply, every or reduce is called instead": (
        "task keep(xs)\n    give where(xs, (x) => x > 1)\n"
        "task mine(xs, f)\n    give [\"mine\", length(xs), f(5)]\n"
        "print(keep([1, 2, 3]))\nlet original be where\nset where to mine\nprint(keep([1, 2, 3]))\n"
        "set where to apply\nprint(keep([1, 2, 3]))\nset where to original\nprint(keep([1, 2, 3]))\n"
        "task all_big(xs)\n    give every(xs, (x) => x > 1)\nset every to (xs, f) => f(0)\nprint(all_big([5]))\n"
        "task fold(xs)\n    give reduce(xs, (a, b) => a + b, 0)\nset reduce to (xs, f, init) => [f(init, 1), init]\nprint(fold([5]))\n"
        "set where to 7\nprint(keep([1]))\n",
        "[2, 3]\n[\"mine\", 3, true]\n[false, true, true]\n[2, 3]\nfalse\n[1, 0]\n",
        "prog.syn:2:10: Cannot call number"),
    "what is not a list gets the builtin's own error": (
        "task keep(xs)\n    give where(xs, (x) => x > 1)\n"
        "each v in [\"abc\", {\"a\": 1}, nothing]\n    try\n        print(keep(v))\n    recover e\n        print(e)\n"
        "print(keep((x) => x))\n",
        "where takes a list and a function — where(list, fn) or where(fn, list) — got text and task\n"
        "where takes a list and a function — where(list, fn) or where(fn, list) — got map and task\n"
        "where takes a list and a function — where(list, fn) or where(fn, list) — got nothing and task\n",
        "prog.syn:2:10: where takes a list and a function"),
    "an error in the body is located where it happens": (
        "task bad(xs)\n    give where(xs, (w) => w > 2)\nprint(bad([3, \"a\"]))\n",
        "", "prog.syn:2:27: Unsupported operation: text > number"),
    "an error in a task the body calls is located there": (
        "task fail(x)\n    give x / 0\ntask worse(xs)\n    give apply(xs, (w) => fail(w))\n"
        "try\n    print(worse([1]))\nrecover e\n    print(e)\nprint(worse([2]))\n",
        "Division by zero\n", "prog.syn:2:10: Division by zero"),
    "a step per item": (
        "task count(xs)\n    let before be steps()\n    let kept be where(xs, (x) => x % 3 == 0)\n"
        "    let mapped be apply(xs, (x) => x + 1)\n    let found be find_first(xs, (x) => x == 4)\n"
        "    give [length(kept), length(mapped), found, steps() - before]\n"
        "print(count(range(10)))\n",
        "[4, 10, 4, 25]\n", None),
    "a body with a closure in it is an ordinary call": (
        "task nest(xs)\n    give apply(xs, (x) => apply([1, 2], (y) => x * 10 + y))\n"
        "task named(xs)\n    give apply(xs, (x) => sort_by([x, 0 - x], (v) => v, desc = true))\n"
        "print(nest([1, 2]), named([3]))\n",
        "[[11, 12], [21, 22]] [[3, -3]]\n", None),
}

# The depth tests: where(...) at the bottom of `n` task calls, with an empty and a one-item list,
# the body with and without a builtin call of its own: the call's level, the callback's and the
# body's (two below the call) each meet the limit at their own `n`.
DEPTH = (
    "task down(n, xs, f)\n    when n == 0\n        give [where(xs, (w) => length(w) > 1), where(xs, (w) => w != \"\")]\n"
    "    give down(n - 1, xs, f)\n"
    "task down_plain(n, xs)\n    when n == 0\n        give where(xs, (w) => w != \"\")\n    give down_plain(n - 1, xs)\n"
    f"each n in [{LIMIT - 4}, {LIMIT - 3}, {LIMIT - 2}, {LIMIT - 1}]\n"
    "    each xs in [[], [\"ab\"]]\n"
    "        try\n            print(`{n} {length(xs)} {down(n, xs, 0)}`)\n        recover e\n            print(`{n} {length(xs)} {e}`)\n"
    "        try\n            print(`{n} {length(xs)} plain {down_plain(n, xs)}`)\n        recover e\n"
    "            print(`{n} {length(xs)} plain {e}`)\n"
    # an error in a body caught many times over leaves the depth where it was
    "let i be 0\ntask wrong(xs)\n    give where(xs, (x) => length(x) > 1)\n"
    "while i < 40\n    try\n        print(wrong([1, 2]))\n    recover e\n        set i to i + 1\n"
    f"print(i, down_plain({LIMIT - 3}, [\"a\"]))\n"
)


def _depth_expected() -> str:
    deep = "maximum recursion depth exceeded"
    lines = []
    for n in (LIMIT - 4, LIMIT - 3, LIMIT - 2, LIMIT - 1):
        # down(n)'s where runs at depth n + 1: the call fails from there at LIMIT, the callback
        # (one below) at LIMIT - 1, the body's `length` (two below) at LIMIT - 2
        call, callback, body = n + 1 >= LIMIT, n + 2 >= LIMIT, n + 3 >= LIMIT
        for size in (0, 1):
            both = deep if call or (size and callback) or (size and body) else ("[[], []]" if not size else '[["ab"], ["ab"]]')
            plain = deep if call or (size and callback) else ("[]" if not size else '["ab"]')
            lines += [f"{n} {size} {both}", f"{n} {size} plain {plain}"]
    lines.append(f"40 [\"a\"]")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("labels", [False, True])
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_callback_loops_match_the_closures(tmp_path, name, labels):
    source, expected, error = PROGRAMS[name]
    code, out, err, _ = assert_same(tmp_path, source, labels)
    assert out == expected
    if error is None:
        assert code == 0, err
    else:
        assert code != 0 and error in err, err


@pytest.mark.parametrize("labels", [False, True])
def test_callback_loops_keep_the_depth_limit(tmp_path, labels):
    code, out, err, _ = assert_same(tmp_path, DEPTH, labels)
    assert code == 0, err
    assert out == _depth_expected()


def test_a_host_failure_in_the_body_is_the_builtins(tmp_path):
    """Comparing two values nested past Python's recursion limit fails in the body; the error is
    where's, as calls.call_builtin reports a failure inside the builtin (its callbacks included)."""
    source = ("let a be []\nlet b be []\nlet i be 0\nwhile i < 210000\n    set a to [a]\n    set b to [b]\n"
              "    set i to i + 1\ntask same(xs)\n    give where(xs, (x) => x == b)\n"
              "try\n    print(same([a]))\nrecover e\n    print(e)\n")
    code, out, err, _ = assert_same(tmp_path, source, False)
    assert code == 0, err
    assert out.startswith("maximum recursion depth exceeded (in where:"), out


def test_the_loop_is_written(tmp_path):
    """The programs above do go through the loop: a generated body holds it (no lambda value is
    made on the builtin's branch)."""
    sources = []
    original = codegen._compiled

    def spy(source):
        sources.append(source)
        return original(source)
    codegen._compiled = spy
    try:
        assert_same(tmp_path, PROGRAMS["every builtin of the loop, in a task and in a top-level loop"][0], False)
    finally:
        codegen._compiled = original
    written = "\n".join(sources)
    assert written.count("next(STEPS)\n") and "for c" in written and ".append(c" in written, written


# Random lambda bodies (the differential test's expressions over the lambda's parameters, the task's
# names and the globals) in every builtin of the loop, in a task and in a top-level loop.
_BODY = _expressions(["y", "z", "x", "p", "a", "b", "c"])
_LIST = st.sampled_from(["b", "[]", "[1, \"ab\", nothing]", "range(4)", "x", "c", "[[1], 2.5, true]"])
_CALL = st.one_of(
    st.tuples(st.sampled_from(["where", "apply", "count_where", "every", "some", "find_first"]), _LIST, _BODY)
    .map(lambda t: f"{t[0]}({t[1]}, (y) => {t[2].replace('z', 'y')})"),
    st.tuples(_LIST, _BODY, _BODY).map(lambda t: f"reduce({t[0]}, (z, y) => {t[1]}, {t[2].replace('y', 'a').replace('z', 'a')})"))
loop_programs = st.tuples(_CALL, _CALL).map(
    lambda t: PRELUDE + "task body(x)\n    let p be 1\n    print(" + t[0] + ")\n    give steps()\n"
    "print(body(a))\nprint(body(b))\neach p in [1, 2]\n    let x be p\n    print(" + t[1].replace("z", "y") + ")\n"
    "print(steps())\n")


@settings(max_examples=max(20, EXAMPLES // 2), deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(source=loop_programs, labels=st.booleans())
def test_random_bodies_compute_what_the_closures_compute(tmp_path, source, labels):
    assert_same(tmp_path, source, labels)
