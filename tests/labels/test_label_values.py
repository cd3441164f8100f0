"""Labels must not change what a program computes: the same expression gives the same value
with a private operand, only private. Each case runs `declassify(EXPR, "test")` under
`--labels` and compares with the plain value; a second check prints EXPR directly and expects
the redacted text (the result depends on private data, so it must be private).
"""

from __future__ import annotations

import pytest

from conftest import run_synsema

PRELUDE = 'let s be private(2, "app")\nlet f be private(false, "app")\n'

# (expression using s = 2 and f = false, both private to app; its plain value)
CASES = [
    ("not f", "true"),
    ("not not f", "false"),
    ("not s", "false"),
    ("[not f, 1]", "[true, 1]"),
    ("-s", "-2"),
    ("s * 3 - 1", "5"),
    ("s > 1 and not f", "true"),
    ("f or s == 2", "true"),
    ("when f then \"y\" otherwise \"n\"", "n"),
    ("s in [1, 2]", "true"),
    ("sort([3, s, 1])", "[1, 2, 3]"),
    ("max([3, s, 1])", "3"),
    ("range(s)", "[0, 1]"),
    ("apply((x) => x * s, [1, 2])", "[2, 4]"),
    ("reduce([1, 2, 3], (a, b) => a + b * s, 0)", "12"),
    ("where([1, 2, 3], (x) => x > s)", "[3]"),
    ("count_where([1, 2, 3], (x) => x > s)", "1"),
    ("find_first([1, 2, 3], (x) => x > s)", "3"),
    ("every([1, 2, 3], (x) => x > s)", "false"),
    ("some([1, 2, 3], (x) => x > 5 + s)", "false"),
    ("index_of([1, 2, 3], (x) => x == s)", "1"),
    ("transform([1, 2, 3], (x) => x * 10, (x) => x > s)", "[1, 2, 30]"),
    ("sort_by([3, 1, 2], (x) => x * s)", "[1, 2, 3]"),
    ("where([1, 2, 3], (x) => not (x == s))", "[1, 3]"),
]


def _run(tmp_path, source: str):
    (tmp_path / "prog.syn").write_text(source, encoding="utf-8")
    return run_synsema("run", "--labels", "prog.syn", cwd=tmp_path)


@pytest.mark.parametrize("expr, expected", CASES, ids=[c[0] for c in CASES])
def test_value_is_unchanged_by_labels(tmp_path, expr, expected):
    proc = _run(tmp_path, PRELUDE + f'print(declassify({expr}, "test"))\n')
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, expected + "\n", "")


@pytest.mark.parametrize("expr, expected", CASES, ids=[c[0] for c in CASES])
def test_result_of_private_operands_is_private(tmp_path, expr, expected):
    proc = _run(tmp_path, PRELUDE + f"print({expr})\n")
    assert proc.returncode == 0, proc.stderr
    # printed redacted, as a whole or element by element, never in the clear
    assert proc.stdout != expected + "\n", f"{expr} printed in the clear: {proc.stdout!r}"
    assert "private(app)" in proc.stdout


@pytest.mark.parametrize("guard, expected", [
    ('private(false, "app")', "otherwise"),
    ('private(true, "app")', "guard"),
    ('private(0, "app") > 1', "otherwise"),
])
def test_match_guard_on_private_data_decides_by_its_value(tmp_path, guard, expected):
    proc = _run(tmp_path, f"""\
let r be private("none", "app")
match 1
    is _ when {guard}
        set r to "guard"
    otherwise
        set r to "otherwise"
print(declassify(r, "test"))
""")
    assert (proc.returncode, proc.stdout) == (0, expected + "\n"), proc.stderr


def test_when_not_private_takes_the_right_branch(tmp_path):
    proc = _run(tmp_path, """\
let f be private(false, "app")
let r be private("unset", "app")
when not f
    set r to "taken"
otherwise
    set r to "skipped"
print(declassify(r, "test"))
""")
    assert (proc.returncode, proc.stdout) == (0, "taken\n"), proc.stderr


def test_each_over_a_range_of_private_length(tmp_path):
    """`each i in range(n)` with a private n walks n numbers under private control flow."""
    proc = _run(tmp_path, """\
let n be private(3, "app")
let total be private(0, "app")
each i in range(n)
    set total to total + i
print(total)
print(declassify(total, "test"))
each i in range(1, n, 1)
    set total to total + i
print(declassify(total, "test"))
""")
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "private(app)\n3\n6\n", "")


def test_printing_inside_each_over_a_range_of_private_length_is_a_violation(tmp_path):
    proc = _run(tmp_path, """\
let n be private(3, "app")
try
    each i in range(n)
        print("line")
recover err
    print("caught: " + err)
""")
    assert proc.returncode == 1, proc.stdout
    assert proc.stdout == ""
    assert "label_violation: print called under private control flow" in proc.stderr
