"""A failed assertion explains itself, as pytest's does: where it is, both sides, the values of the
sub-expressions, and a structural diff; bounded for hostile values; private values redacted.

Each case runs through the real CLI and fixes the whole stderr: the first line is the one of
LANGUAGE.md §5 (unchanged), the rest is the explanation below it.
"""

from __future__ import annotations

import json
import textwrap

import pytest

from conftest import run_synsema

PRELUDE = '''let xs be [1, 2, 3]
let user be {name: "bob", age: 3, tags: ["a", "b"]}
'''

CASES = {
    "int comparison with a call": ("assert(length(xs) == 2)", """\
Runtime error: p.syn:3:1: assertion failed
  3 | assert(length(xs) == 2)
    | ^^^^^^
  assert 3 == 2
    where length(xs) = 3
          xs = [1, 2, 3]
"""),
    "text field": ('assert(user.name == "bo")', """\
Runtime error: p.syn:3:1: assertion failed
  3 | assert(user.name == "bo")
    | ^^^^^^
  assert "bob" == "bo"
    where user.name = "bob"
          user = {name: "bob", age: 3, tags: ["a", "b"]}
"""),
    "list": ("assert(xs == [1, 2, 4, 5])", """\
Runtime error: p.syn:3:1: assertion failed
  3 | assert(xs == [1, 2, 4, 5])
    | ^^^^^^
  assert [1, 2, 3] == [1, 2, 4, 5]
  differences:
    left 3 items, right 4
    [2]: left 3, right 4
    [3]: only in right: 5
"""),
    "map": ('assert_eq(user, {name: "bo", age: 3, tags: ["a"], id: 7})', """\
Runtime error: p.syn:3:1: expected {name: "bo", age: 3, tags: ["a"], id: 7}, got {name: "bob", age: 3, tags: ["a", "b"]}
  3 | assert_eq(user, {name: "bo", age: 3, tags: ["a"], id: 7})
    | ^^^^^^^^^
  differences:
    .name: got "bob", expected "bo"
    .tags: got 2 items, expected 1
    .tags[1]: only in got: "b"
    .id: only in expected: 7
"""),
    "nested paths": ('assert_eq([user, {"odd key": [1, {x: 2}]}], [user, {"odd key": [1, {x: 3}]}])', """\
Runtime error: p.syn:3:1: expected [{name: "bob", age: 3, tags: ["a", "b"]}, {odd key: [1, {x: 3}]}], got [{name: "bob", age: 3, tags: ["a", "b"]}, {odd key: [1, {x: 2}]}]
  3 | assert_eq([user, {"odd key": [1, {x: 2}]}], [user, {"odd key": [1, {x: 3}]}])
    | ^^^^^^^^^
  where user = {name: "bob", age: 3, tags: ["a", "b"]}
  differences:
    [1]["odd key"][1].x: got 2, expected 3
"""),
    "multi-line text": ('let before be `one\ntwo\nthree\nfour`\nlet after be `one\n2\nthree\nfour\nfive`\n'
                        "assert(before == after)", """\
Runtime error: p.syn:12:1: assertion failed
  12 | assert(before == after)
     | ^^^^^^
  assert "one\\ntwo\\nthree\\nfour" == "one\\n2\\nthree\\nfour\\nfive"
  differences:
    texts differ (- right, + left):
      @@ -1,5 +1,4 @@
       one
      -2
      +two
       three
       four
      -five
"""),
    "in": ("assert(xs[1] in [5, 6])", """\
Runtime error: p.syn:3:1: assertion failed
  3 | assert(xs[1] in [5, 6])
    | ^^^^^^
  assert 2 in [5, 6]
    where xs[1] = 2
          xs = [1, 2, 3]
"""),
    "a chain of <": ("assert(0 < length(xs) < 2)", """\
Runtime error: p.syn:3:1: assertion failed
  3 | assert(0 < length(xs) < 2)
    | ^^^^^^
  assert 3 < 2
    where length(xs) = 3
          xs = [1, 2, 3]
"""),
    "the failing side of and": ('assert(length(xs) == 3 and user.age >= 18, "an adult")', """\
Runtime error: p.syn:3:1: an adult
  3 | assert(length(xs) == 3 and user.age >= 18, "an adult")
    | ^^^^^^
  assert 3 >= 18
    where length(xs) = 3
          xs = [1, 2, 3]
          user.age = 3
          user = {name: "bob", age: 3, tags: ["a", "b"]}
"""),
    "a call that is not a comparison": ('assert(not contains(user.tags, "b"))', """\
Runtime error: p.syn:3:1: assertion failed
  3 | assert(not contains(user.tags, "b"))
    | ^^^^^^
  where contains(user.tags, "b") = true
        user.tags = ["a", "b"]
        user = {name: "bob", age: 3, tags: ["a", "b"]}
"""),
    "assert_ne": ("assert_ne(length(xs), 3)", """\
Runtime error: p.syn:3:1: expected values to differ, both 3
  3 | assert_ne(length(xs), 3)
    | ^^^^^^^^^
  where length(xs) = 3
        xs = [1, 2, 3]
"""),
    "plain names show only as sides": ("let n be 4\nassert(n == 5)", """\
Runtime error: p.syn:4:1: assertion failed
  4 | assert(n == 5)
    | ^^^^^^
  assert 4 == 5
"""),
    "a long single-line text": ('let long be join(apply(range(60), (i) => "ab"), "")\nassert(long + "x" == long + "y")', """\
Runtime error: p.syn:4:1: assertion failed
  4 | assert(long + "x" == long + "y")
    | ^^^^^^
  assert "abababababababababababababababababababababababababababababababababababababababab…" (121 characters) == "abababababababababababababababababababababababababababababababababababababababab…" (121 characters)
    where long = "abababababababababababababababababababababababababababababababababababababababab…" (120 characters)
  differences:
    texts differ at character 121 (left 121 characters, right 121):
      left:  …ababababababababababababababababababababx
      right: …ababababababababababababababababababababy
"""),
}


def _run(tmp_path, body: str, *flags: str):
    (tmp_path / "p.syn").write_text(PRELUDE + body + "\n", encoding="utf-8")
    return run_synsema("run", *flags, "p.syn", cwd=tmp_path, timeout=90)  # a hang guard, not a timing


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_a_failed_assertion_is_explained(tmp_path, case):
    body, expected = CASES[case]
    result = _run(tmp_path, body)
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == expected


def test_recover_gets_the_one_line_message_only(tmp_path):
    result = _run(tmp_path, "try\n    assert(length(xs) == 2)\nrecover e\n    print(e)")
    assert (result.returncode, result.stdout, result.stderr) == (0, "assertion failed\n", "")


def test_each_sub_expression_runs_once(tmp_path):
    """The values shown are the ones computed for the check: a task with an effect runs once."""
    program = '''let calls be 0
task count()
    set calls to calls + 1
    print(`count ran ({calls})`)
    give calls * 10
test "once"
    assert(count() + 0 == 5 and true)
'''
    (tmp_path / "t.syn").write_text(program, encoding="utf-8")
    result = run_synsema("test", "-v", "t.syn", cwd=tmp_path)
    assert result.stdout.splitlines() == [
        "  ✗ once: assertion failed",
        "    at t.syn:7:5",
        "    7 |     assert(count() + 0 == 5 and true)",
        "      |     ^^^^^^",
        "    assert 10 == 5",
        "      where count() = 10",
        "  | count ran (1)",
        "0 passed, 1 failed (1 total)",
    ]


def test_a_model_call_inside_an_assert_is_made_once(tmp_path):
    from llm.fakes import FakeServer, openai_text
    program = 'require llm\nassert((reason about "What is 2 + 2?") == "5")\n'
    (tmp_path / "m.syn").write_text(program, encoding="utf-8")
    with FakeServer() as server:
        server.reply(openai_text("4")).reply(openai_text("4"))
        env = {"SYNSEMA_LLM_PROVIDER": "openai", "SYNSEMA_LLM_BASE_URL": server.url + "/v1",
               "OPENAI_API_KEY": "test", "SYNSEMA_LLM_MODEL": "fake-model"}
        result = run_synsema("run", "m.syn", cwd=tmp_path, env=_environment(env))
    assert len(server.requests) == 1
    assert result.stderr.splitlines()[0] == "Runtime error: m.syn:2:1: assertion failed"
    assert result.stderr.splitlines()[3:] == ['  assert "4" == "5"', '    where reason … = "4"']


def _environment(extra: dict) -> dict:
    from conftest import synsema_env
    from llm.conftest import LLM_VARIABLES
    return {**{k: v for k, v in synsema_env().items() if k not in LLM_VARIABLES}, **extra}


def test_synsema_test_shows_the_same_explanation_and_json_carries_it(tmp_path):
    (tmp_path / "t.syn").write_text(PRELUDE + 'test "map"\n    assert_eq(user, {name: "bo", age: 3, tags: ["a", "b"]})\n',
                                    encoding="utf-8")
    result = run_synsema("test", "t.syn", cwd=tmp_path)
    assert result.stdout == textwrap.dedent("""\
          ✗ map: expected {name: "bo", age: 3, tags: ["a", "b"]}, got {name: "bob", age: 3, tags: ["a", "b"]}
            at t.syn:4:5
            4 |     assert_eq(user, {name: "bo", age: 3, tags: ["a", "b"]})
              |     ^^^^^^^^^
            differences:
              .name: got "bob", expected "bo"
        0 passed, 1 failed (1 total)
        """)
    ran = _run(tmp_path, 'assert_eq(user, {name: "bo", age: 3, tags: ["a", "b"]})', "--format", "json")
    diagnostic = json.loads(ran.stdout)["diagnostics"][0]
    assert diagnostic["message"] == 'expected {name: "bo", age: 3, tags: ["a", "b"]}, got {name: "bob", age: 3, tags: ["a", "b"]}'
    assert diagnostic["detail"] == ["differences:", '  .name: got "bob", expected "bo"']


def test_the_junit_failure_carries_the_explanation(tmp_path):
    from xml.etree import ElementTree
    (tmp_path / "t.syn").write_text(PRELUDE + 'test "len"\n    assert(length(xs) == 2)\n', encoding="utf-8")
    run_synsema("test", "--junit", "r.xml", "t.syn", cwd=tmp_path)
    failure = ElementTree.parse(tmp_path / "r.xml").getroot().find("testsuite/testcase/failure")
    assert failure.get("message") == "assertion failed"
    assert failure.text.splitlines()[1:] == ["  at t.syn:4:5", "  4 |     assert(length(xs) == 2)",
                                              "    |     ^^^^^^", "  assert 3 == 2",
                                              "    where length(xs) = 3", "          xs = [1, 2, 3]"]


def test_a_task_named_assert_is_not_explained(tmp_path):
    result = _run(tmp_path, 'task assert(c)\n    raise("mine")\nassert(1 == 2)')
    assert result.stderr == 'Runtime error: p.syn:4:5: mine\n  4 |     raise("mine")\n    |     ^^^^^\n'


# ------------------------------------------------------------------ labels
def test_under_labels_private_values_show_as_print_shows_them(tmp_path):
    body = ('let names be ["ann", private("bob", "app")]\n'
            'assert(declassify(length(names), "the count is public") == 3)')
    result = _run(tmp_path, body, "--labels")
    assert result.stderr == """\
Runtime error: p.syn:4:1: assertion failed
  4 | assert(declassify(length(names), "the count is public") == 3)
    | ^^^^^^
  assert 2 == 3
    where declassify(length(names), "the count is public") = 2
          length(names) = private(app)
          names = ["ann", private(app)]
"""
    assert "bob" not in result.stderr


@pytest.mark.parametrize("check", ['assert(secret == "x")', 'assert_eq(secret, "x")',
                                   'assert_eq([1, secret], [1, "x"])'])
def test_under_labels_a_failure_decided_by_private_data_stays_one_line(tmp_path, check):
    result = _run(tmp_path, f'let secret be private("hunter2", "app")\n{check}', "--labels")
    assert (result.returncode, result.stderr) == (
        1, "Runtime error: p.syn:4: private(app): a runtime error whose message depends on private data\n")


# ------------------------------------------------------------------ hostile values
HOSTILE = {
    "a list of a million items": ("let a be range(1000000)\nlet b be range(1, 1000001)\nassert(a == b)", 20),
    "maps of 100000 keys": ("let m be {}\nlet n be {}\neach i in range(100000)\n    set m[`k{i}`] to i\n"
                            "    set n[`j{i}`] to i\nassert(m == n)", 20),
    "texts of 100000 lines": ('let a be join(apply(range(100000), (i) => text(i)), "\\n")\n'
                              'let b be join(apply(range(100000), (i) => text(i * 7)), "\\n")\nassert(a == b)', 20),
    "nesting 3000 deep": ("let a be 1\nlet b be 2\neach i in range(3000)\n    set a to [a]\n    set b to [b]\n"
                          "assert(a == b)", 12),
    "a value with 2**60 paths": ("let a be [1]\nlet b be [1]\neach i in range(60)\n    set a to [a, a]\n"
                                 "    set b to [b, b]\nassert([0, a] == [1, b])", 12),
}


@pytest.mark.parametrize("case", HOSTILE, ids=list(HOSTILE))
def test_hostile_values_give_a_bounded_explanation(tmp_path, case):
    body, most_lines = HOSTILE[case]
    result = _run(tmp_path, body)
    lines = result.stderr.splitlines()
    assert result.returncode == 1 and lines[0].endswith("assertion failed"), result.stderr[:2000]
    assert len(lines) <= most_lines and max(len(line) for line in lines) <= 400, result.stderr[:4000]


# ------------------------------------------------------------------ the diff's bounds, fuzzed
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from synsema.runtime.diffs import LINES, differences, preview  # noqa: E402
from synsema.runtime.values import equal  # noqa: E402

VALUES = st.recursive(
    st.integers() | st.booleans() | st.none() | st.text(max_size=300) | st.text("ab\n", max_size=60),
    lambda inner: st.lists(inner, max_size=40) | st.dictionaries(st.text(max_size=80), inner, max_size=12),
    max_leaves=300)


@settings(max_examples=150, deadline=None)
@given(VALUES, VALUES)
def test_differences_are_bounded_and_empty_only_when_nothing_differs(got, expected):
    lines = differences(got, expected)
    assert len(lines) <= LINES + 1
    assert all(len(line) <= 700 for line in lines), lines
    assert len(preview(got)) <= 400
    if equal(got, expected):
        assert lines == []
    elif type(got) is type(expected) and type(got) in (list, dict):
        assert lines, (got, expected)
