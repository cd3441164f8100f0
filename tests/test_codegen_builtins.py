"""Builtin calls written inline by the generator (runtime/codegen.py `builtin_call`) behave
exactly as `calls.call_builtin`: the same results, the same errors at the same spans (wrong
arity, wrong type, named arguments, a result past the size limit, a host failure), one level of
the call depth per builtin, the call site a capability check names, and a global rebound to
something else. Each program runs generated and on the closures (`SYNSEMA_CLOSURES`'s switch),
with and without --labels (tests/test_codegen_differential.py's harness), and the edge cases
also assert what the right answer is, so a guard dropped from both paths would still fail.
"""

from __future__ import annotations

import json

import pytest

from synsema.runtime.calls import RECURSION_LIMIT
from synsema.runtime.limits import MAX_LIST_LENGTH, MAX_TEXT_LENGTH
from tests.test_codegen_differential import _run, assert_same

# Each program calls the builtins from a direct task body, a lambda, a task holding a closure
# (frame mode) and a top-level loop (frame mode with globals), the four shapes generated.
PROGRAMS = {
    "results": (
        "task direct(t)\n    let parts be split(t, \",\")\n"
        "    give [length(parts), int(parts[0]) + int(trim(parts[1])), get({a: 1}, \"a\", 0), get({}, \"b\", 7),\n"
        "          text(12), join(parts, \"+\"), lower(\"AB\"), keys({x: 1, y: 2}), slice(parts, 0, 1)]\n"
        "task framed(t)\n    let f be (x) => x + length(t)\n    give [f(1), split(t, \"\"), int(\"-0x1f\")]\n"
        "let shape be (t) => length(split(t, \" \"))\n"
        "let out be []\n"
        "each w in [\"a b\", \"c d e\", \"\"]\n    set out to append(out, shape(w))\n"
        "print(direct(\"12, 30\"), framed(\"ab\"), out)\n"
        "print(apply([1, 2, 3], (x) => text(x * 2)), sort([3, 1, 2]), where(split(\"a bb ccc\", \" \"), (w) => length(w) > 1))\n"),
    "wrong arity": "task f(t)\n    give split(t)\nprint(f(\"a\"))\n",
    "wrong arity, too many": "task f(t)\n    give length(t, t)\nprint(f(\"a\"))\n",
    "no arguments": "task f()\n    give length()\nprint(f())\n",
    "wrong type": "task f(t)\n    give split(t, \",\")\nprint(f(\"a,b\"))\nprint(f(12))\n",
    "wrong type, second argument": "let i be 0\nwhile i < 3\n    print(split(\"a b\", i))\n    set i to i + 1\n",
    "int of bad text": "task f(t)\n    give int(t)\nprint(f(\"42\"), f(\" 7 \"), f(\"1_000\"))\nprint(f(\"4x2\"))\n",
    "named arguments": ("task f(t)\n    give [int(t, fallback = 0), int(\"ff\", base = 16), split(t, \"\")]\n"
                        "print(f(\"x\"))\ntask g(t)\n    give split(t, sep = \",\")\nprint(g(\"a\"))\n"),
    "named given twice": "task f(t)\n    give int(t, 0, fallback = 1)\nprint(f(\"x\"))\n",
    "recovered error, then the loop goes on": (
        "let n be 0\neach t in [\"1\", \"x\", \"3\"]\n    try\n        set n to n + int(t)\n"
        "    recover e\n        print(e)\nprint(n)\n"),
    "host failure": ("task deep(n)\n    let x be []\n    let i be 0\n    while i < n\n        set x to [x]\n"
                     "        set i to i + 1\n    give x\ntask as_text(v)\n    give text(v)\nprint(length(as_text(deep(50))))\n"
                     "print(as_text(deep(200000)))\n"),
    "a rebound global": ("task f(s)\n    give length(s)\nprint(f(\"abc\"))\nlet length be (x) => 99\nprint(f(\"abc\"))\n"
                         "set length to 5\nprint(f(\"abc\"))\n"),
    "a local shadowing a builtin": "task f(split)\n    give split(\"a\", \"b\")\nprint(f((a, b) => a + b))\nprint(f(7))\n",
    "value semantics of results and arguments": (
        "task f(xs)\n    let ys be slice(xs, 0, 2)\n    set ys[0] to 9\n    let ks be keys({a: 1})\n"
        "    set ks to append(ks, \"z\")\n    give [xs, ys, ks, sort(xs)]\nlet b be [3, 1, 2]\nprint(f(b), b)\n"),
    "int of plain digits and everything else": (
        "task f(t)\n    give int(t, fallback = \"no\")\n"
        "print(apply([\"007\", \"0\", \"\u0663\", \"+5\", \"-5\", \" 5\", \"1_0\", \"0x1f\", \"\", \"\u00b2\", \"5.0\"], f))\n"
        "print(int(\"12\", 3), int(\"12\", base = 3))\n"),
    "int of too many digits": "task f(t)\n    give int(t)\nprint(f(join(apply(range(50001), (i) => \"7\"), \"\")))\n",
    "text joined to a literal": (
        "task f(x)\n    give [\"w\" + x, x + \"!\", \"\" + x]\nprint(f(\"a\"), f(\"\"))\n"
        "print(f(3), f(2.5), f(true))\nprint(f([1]))\n"),
    "division and powers in a direct lambda": (
        "let f be (i) => i * 7919 % 100003 + i % 7 / 8\nlet p be (a, b) => a ** b\n"
        "print(apply([1, 2, 3], f), p(2, 10), p(2.0, 0.5), p(1.5d, 2))\nprint(f(1) / 0)\n"),
    "a power past the integer limit": "let p be (a, b) => a ** b\nprint(p(10, 60000))\n",
    "templates": (
        "task f(x, y)\n    give `{x}-{y}: {length(text(x))}`\nprint(f(1, \"b\"), f([1], {a: nothing}), f(2.5, 1.5d), `plain`)\n"
        "print(f(18446744073709551616, -18446744073709551615), f(-18446744073709551616, true), f(0, 2 ** 70))\n"),
    "replace and its errors": (
        "task f(t, a, b)\n    give replace(t, a, b)\nprint(f(\"a,b,,c\", \",\", \" \"), f(\"aaa\", \"a\", \"bb\"), f(\"x\", \"y\", \"\"))\n"
        "each args in [[1, \"a\", \"b\"], [\"a\", 1, \"b\"], [\"a\", \"\", \"b\"], [\"a\", \"a\", nothing]]\n"
        "    try\n        f(args[0], args[1], args[2])\n    recover e\n        print(e)\n"),
    "json_encode of texts": (
        "task f(x)\n    give json_encode(x)\n"
        "print(f([\"a\\\"b\", \"tab\\there\", \"\u00e9\u4e2d\", \"\\u0001\\n\", {\"k\\\"ey\": \"\u2028\"}]))\n"
        "print(json_decode(f({\"x y\": [\"\\\\\", \"/\"]})))\n"),
    "length and get written as Python": (
        "task n(x)\n    give length(x)\ntask g2(m, k)\n    give get(m, k)\ntask g3(m, k, d)\n    give get(m, k, d)\n"
        "let m be {\"a\": [1], \"1\": \"one\"}\n"
        "print(n(\"h\u00e9llo\"), n([1, 2]), n(m), n(\"\"), n(bytes(\"ab\")))\n"
        "print(g2(m, \"a\"), g2(m, \"zz\"), g2(m, 1), g3(m, \"zz\", 0), g3(m, 1, 0), g3([5, 6], 1, 0), g3([5], 9, \"d\"))\n"
        "each bad in [[5], [nothing], [true]]\n    try\n        print(n(bad[0]))\n    recover e\n        print(e)\n"
        "each bad in [[5, \"a\"], [\"t\", \"a\"], [[1], \"a\"]]\n    try\n        print(g2(bad[0], bad[1]))\n    recover e\n        print(e)\n"
        "print(where([\"ab\", \"abc\", \"\"], (w) => length(w) > 2))\nprint(n(5))\n"),
    "replace, lower and split written as Python": (
        "task r(t, a, b)\n    give replace(t, a, b)\ntask l(t)\n    give lower(t)\ntask s(t, sep)\n    give split(t, sep)\n"
        "print(r(\"a,b\", \",\", \"\"), r(\"a,b\", \",\", \";\"), r(\"a,b\", \",\", \";;\"), r(\"abab\", \"ab\", \"x\"), r(\"\", \"a\", \"\"))\n"
        "print(l(\"\u0130A\u00c9\"), length(l(\"\u0130\")), s(\"a  b\", \" \"), s(\"ab\", \"\"), s(\"\", \",\"), s(\"a--b\", \"--\"))\n"
        "each bad in [[5, \"a\", \"b\"], [\"t\", [1], \"b\"], [\"t\", \"\", \"b\"], [\"t\", \"\", \"\"], [\"t\", \"t\", 1]]\n"
        "    try\n        print(r(bad[0], bad[1], bad[2]))\n    recover e\n        print(e)\n"
        "each bad in [[5, \",\"], [\"a\", 5], [\"a\", nothing]]\n    try\n        print(s(bad[0], bad[1]))\n    recover e\n        print(e)\n"
        "print(l(5))\n"),
}


def text_of(name: str, char: str, size: int) -> str:
    """A program line building `name`, a text of `size` copies of `char`, by doubling."""
    return (f'let {name} be "{char}"\nwhile length({name}) * 2 <= {size}\n    set {name} to {name} + {name}\n'
            f'set {name} to {name} + slice({name}, 0, {size} - length({name}))\n')


# Size limits the builtins and operators written faster must still refuse, at the same span.
PAST_LIMITS = {
    "split past the list limit": (text_of("t", "a", MAX_LIST_LENGTH) + 'task f(x)\n    give split(x, "a")\nprint(f(t))\n',
                                  "split would make a list of 10,000,001 items", "prog.syn:6:10"),
    "text joined to a literal past the text limit": (
        text_of("t", "a", MAX_TEXT_LENGTH) + 'task f(x)\n    give x + "!"\nprint(length(f(t)))\n',
        "would make a text of 50,000,001 characters", "prog.syn:6:10"),
    "a template past the text limit": (
        text_of("t", "a", MAX_TEXT_LENGTH // 2) + 'task f(x)\n    give `{x}{x}!`\nprint(length(f(t)))\n',
        "a template would make a text of 50,000,001 characters", "prog.syn:6:10"),
}


@pytest.mark.parametrize("labels", [False, True])
@pytest.mark.parametrize("name", sorted(PAST_LIMITS))
def test_size_limits_still_refuse(tmp_path, name, labels):
    source, message, where = PAST_LIMITS[name]
    code, _, err, _ = assert_same(tmp_path, source, labels)
    assert code == 1 and message in err and where in err, err


@pytest.mark.parametrize("labels", [False, True])
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_builtin_calls_match_the_closures(tmp_path, name, labels):
    code, out, err, _ = assert_same(tmp_path, PROGRAMS[name], labels)
    expected = {
        "wrong arity": (1, "prog.syn:2:10", "split() takes 2 arguments, got 1"),
        "wrong type": (1, "prog.syn:2:10", "split"),
        "int of bad text": (1, "prog.syn:2:10", "Cannot convert"),
        "named arguments": (1, "prog.syn:5:10", "sep"),
        "host failure": (1, "prog.syn:9:10", "maximum recursion depth exceeded (in text"),
        "int of plain digits and everything else": (1, "prog.syn:4:7", "from 2 to 36 it is ambiguous"),
        "int of too many digits": (1, "prog.syn:2:10", "integers are read from at most 50,000 digits"),
        "text joined to a literal": (1, "prog.syn:2:11", "Cannot add text and list"),
        "length and get written as Python": (1, "prog.syn:2:10", "length"),
        "replace, lower and split written as Python": (1, "prog.syn:4:10", "lower expects text, got number"),
    }.get(name)
    if expected is not None:
        assert code == expected[0] and expected[1] in err and expected[2] in err, err
    if name == "length and get written as Python":
        assert out == ("5 2 2 0 2\n[1] nothing one 0 one 6 d\n" + "".join(
            f"length expects text, a list or a map, got {kind}\n" for kind in ("number", "nothing", "bool"))
            + "get expects a map or a list, got number\nget expects a map or a list, got text\n"
            "get: a list index must be an integer, got \"a\"\n[\"abc\"]\n"), out
    if name == "replace, lower and split written as Python":
        empty = "replace: the text to find is empty — there is nothing to replace\n"
        assert out == ('ab a;b a;;b xx \ni\u0307a\u00e9 2 ["a", "", "b"] ["a", "b"] [""] ["a", "b"]\n'
                       "replace expects text, got number\nreplace expects the text to find as its second argument, got list\n"
                       + empty + empty + "replace expects replacement text as its third argument, got number\n"
                       "split expects text, got number\nsplit expects a text separator, got number\n"
                       "split expects a text separator, got nothing\n"), out
    if name == "a rebound global":
        assert out == "3\n99\n" and "prog.syn:2:10" in err
    if name == "int of plain digits and everything else":   # `²` is a digit to Python, not to int
        assert out == '[7, 0, 3, 5, -5, 5, 10, 31, "no", "no", "no"]\n'
    if name == "recovered error, then the loop goes on":
        assert out.endswith("4\n")


def _depth_program(builtin_call: str, levels: int) -> str:
    """`levels` nested task calls, then `builtin_call` at the bottom."""
    return (f"task down(n)\n    when n == 0\n        give {builtin_call}\n    give down(n - 1)\n"
            f"print(down({levels - 1}))\n")


@pytest.mark.parametrize("labels", [False, True])
def test_a_builtin_call_is_one_level_of_the_call_depth(tmp_path, labels):
    """At the bottom of RECURSION_LIMIT - 1 task levels a builtin still runs; at the bottom of
    RECURSION_LIMIT it fails; a builtin calling back (`apply`) takes a level of its own, so its
    callback fails one level earlier."""
    fits = assert_same(tmp_path, _depth_program('length("abc")', RECURSION_LIMIT - 1), labels)
    assert fits[:2] == (0, "3\n"), fits
    full = assert_same(tmp_path, _depth_program('length("abc")', RECURSION_LIMIT), labels)
    assert full[0] == 1 and "maximum recursion depth exceeded" in full[2] and "prog.syn:3:14" in full[2]
    callback = assert_same(tmp_path, _depth_program("apply([1], (x) => x)", RECURSION_LIMIT - 1), labels)
    assert callback[0] == 1 and "maximum recursion depth exceeded" in callback[2]
    room = assert_same(tmp_path, _depth_program("apply([1], (x) => x)", RECURSION_LIMIT - 2), labels)
    assert room[:2] == (0, "[1]\n"), room


@pytest.fixture(scope="module")
def too_long_file(tmp_path_factory):
    """A file one character longer than a text may be: read_file's result is refused by the
    result-size test alone (read_file does not measure it beforehand)."""
    path = tmp_path_factory.mktemp("big") / "big.txt"
    path.write_bytes(b"a" * (MAX_TEXT_LENGTH + 1))
    return path


@pytest.mark.parametrize("labels", [False, True])
def test_a_result_past_the_size_limit_is_refused_at_the_call(tmp_path, too_long_file, labels):
    folder = json.dumps(str(too_long_file.parent))
    source = (f"require file.read({folder})\ntask f(p)\n    give length(read_file(p))\n"
              f"print(f({json.dumps(str(too_long_file))}))\n")
    code, _, err, _ = assert_same(tmp_path, source, labels)
    assert code == 1 and "value too large: read_file would make a text of 50,000,001 characters" in err
    assert "prog.syn:3:17" in err


@pytest.mark.parametrize("labels", [False, True])
def test_a_capability_check_names_the_call_site(tmp_path, labels):
    """The audit line of a capability-gated builtin names the line of the call that ran it."""
    folder = json.dumps(str(tmp_path))
    source = (f"require file.read({folder})\ntask f(p)\n    give read_file(p)\n"
              f"let i be 0\nwhile i < 2\n    print(length(f({json.dumps(str(tmp_path / 'prog.syn'))})))\n"
              "    set i to i + 1\nprint(read_file(\"/etc/hostname\"))\n")
    path = str(tmp_path / "prog.syn")
    lines = {}
    for generated in (False, True):
        code, out, err, files = _run(path, source, labels, generated, ("--audit", "audit.log"))
        records = [json.loads(line) for line in dict(files)["audit.log"].decode().splitlines()]
        lines[generated] = (code, out, err, [(r.get("capability"), r.get("granted"), r.get("line"))
                                            for r in records if "capability" in r])
    assert lines[True] == lines[False]
    assert lines[True][3] == [("file.read", True, 3), ("file.read", True, 3), ("file.read", False, 8)], lines
