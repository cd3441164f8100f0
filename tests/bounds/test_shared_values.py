"""Every walk over values obeys runtime.limits: thirty steps of `set a to [a, a]` build 2^30
leaves out of 31 lists, and each walker either answers in time linear in those lists or refuses
the value as too large — within the bounds tests' deadline, never by running until killed."""

from __future__ import annotations

import pytest

from tests.bounds.conftest import DEADLINE, assert_language_error, assert_no_leak, run_bounded

DOUBLING = ("let a be [1]\nlet b be [1]\neach i in range(30)\n"
            "    set a to [a, a]\n    set b to [b, b]\n")

# walker: (host flags, statements after DOUBLING, the output it prints)
ANSWERED = {
    "equality": ((), "print(a == b)\nprint(a != [b, 1])", "true\ntrue\n"),
    "equality of maps": ((), "print({x: a, y: b} == {y: b, x: a})", "true\n"),
    "containment (in)": ((), "print(a in [1, b])", "true\n"),
    "containment (contains)": ((), "print(contains([b], a))", "true\n"),
    "containment (index_of)": ((), "print(index_of([1, 2, b], a))", "2\n"),
    "hashing (unique)": ((), "print(length(unique([a, b, a, 1])))", "2\n"),
    "ordering (sort)": ((), "print(sort([b, a]) == [a, b])", "true\n"),
    "match pattern": ((), "match a\n    is [x, y] when x == y\n        print(\"pair\")", "pair\n"),
    "call_tool checks and secret scan": (
        (), "task t(x: list)\n    give length(x)\nprint(call_tool(t, {x: a}))", "2\n"),
    "label strip": (("--labels",), "print(declassify(private(a, \"u\"), \"u\") == b)", "true\n"),
    "label strip of a mixed list": (("--labels",), "let m be [a, private(1, \"u\"), b]\n"
                                    "print(length(declassify(m, \"u\")))", "3\n"),
}

# walker: (host flags, statements, fragment of the refusal)
REFUSED = {
    "display": ((), "print(a)", "showing a list or map as text would make a text"),
    "display under --labels": (("--labels",), "print([private(1, \"u\"), a])",
                               "showing a list or map as text would make a text"),
    "template": ((), "print(`{a}`)", "would make a text"),
    "json_encode": ((), "print(json_encode(a))", "json_encode would make a text"),
    "JSON for a model": ((), "print(tool_result({id: \"1\", name: \"t\"}, a))",
                         "sending a value to a model would make a value of"),
    "math payload": ((), "print(math.run(\"nt.prime.test\", {n: a}))",
                     "a math payload would make a value of"),
}


@pytest.mark.parametrize("walker", sorted(ANSWERED))
def test_walker_answers_in_linear_time(program, walker):
    flags, statements, expected = ANSWERED[walker]
    result = run_bounded("run", *flags, program(DOUBLING + statements + "\n"), timeout=DEADLINE)
    assert result.returncode == 0, result.stderr
    assert result.stdout == expected
    assert_no_leak(result)


@pytest.mark.parametrize("walker", sorted(REFUSED))
def test_walker_refuses_the_tree_at_its_line(program, walker):
    flags, statements, fragment = REFUSED[walker]
    result = run_bounded("run", *flags, program(DOUBLING + statements + "\n"), timeout=DEADLINE)
    assert_language_error(result, "value too large", fragment, "p.syn:6:")


def test_equality_of_shared_values_keeps_float_semantics(program):
    # Comparing a list with itself is still element by element: nan is equal to nothing.
    source = ("let n be [nan]\nlet x be [n, n]\nprint(x == x)\n"
              "let y be [[1], [1]]\nprint(y == [[1], [1]])\nprint([y, y] == [y, [[1], [2]]])\n")
    result = run_bounded("run", program(source))
    assert result.returncode == 0, result.stderr
    assert result.stdout == "false\ntrue\nfalse\n"


def test_a_failing_assert_eq_on_shared_values_ends(program, tmp_path):
    path = program("test \"doubling\"\n" + "".join("    " + line + "\n" for line in
                                                      (DOUBLING + "set b to [b, 1]").splitlines())
                   + "    assert_eq(a, b)\n", name="t.syn")
    result = run_bounded("test", path, timeout=DEADLINE)
    assert result.returncode == 1, result.stderr
    assert "doubling" in result.stdout + result.stderr
    assert_no_leak(result)
