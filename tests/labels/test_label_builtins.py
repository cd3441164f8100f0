"""The label builtins and the label rules around them, through the real CLI.

`private`, `declassify`, `label_of`, `is_private` with and without `--labels`; violations that no
`try/recover` or `assert_error` can absorb; `synsema test --labels` ending the whole run on a
violation; declassify under a host ceiling; the redacted text; `--format json` reports.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import run_synsema

SECRET_LINE = "Runtime error: prog.syn:3: private(app): a runtime error whose message depends on private data\n"


def run(tmp_path: Path, source: str, *flags: str, name: str = "prog.syn"):
    path = tmp_path / name
    path.write_text(source, encoding="utf-8")
    return run_synsema("run", *flags, name, cwd=tmp_path)


def labels(tmp_path: Path, source: str, *flags: str):
    return run(tmp_path, source, "--labels", *flags)


def shown(proc) -> str:
    return f"exit {proc.returncode}\n--- stdout\n{proc.stdout}--- stderr\n{proc.stderr}"


# ---------------------------------------------------------------- violations are not catchable
def test_try_recover_does_not_catch_a_label_violation(tmp_path):
    proc = labels(tmp_path, """\
let s be private(1, "app")
let pub be 0
try
    when s > 0
        set pub to 1
recover e
    print("caught: " + e)
print("after")
""")
    assert proc.returncode == 1, shown(proc)
    assert proc.stdout == "", shown(proc)
    assert "label_violation: cannot assign to 'pub'" in proc.stderr


def test_try_recover_in_a_caller_does_not_catch_a_violation_from_a_task(tmp_path):
    proc = labels(tmp_path, """\
task report(flag)
    when flag
        print("flagged")

try
    report(private(true, "app"))
recover e
    print("caught")
print("after")
""")
    assert proc.returncode == 1, shown(proc)
    assert proc.stdout == ""
    assert "label_violation: print called under private control flow" in proc.stderr


def test_assert_error_does_not_absorb_a_label_violation(tmp_path):
    proc = labels(tmp_path, """\
let s be private(1, "app")
let pub be 0
task bad()
    when s > 0
        set pub to 1
assert_error(bad)
print("after")
""")
    assert proc.returncode == 1, shown(proc)
    assert proc.stdout == ""
    assert "label_violation" in proc.stderr


def test_assert_error_does_not_absorb_a_secret_error(tmp_path):
    proc = labels(tmp_path, """\
let xs be [1]
let i be private(3, "app")
assert_error(() => xs[i])
print("after")
""")
    assert proc.returncode == 1, shown(proc)
    assert proc.stdout == ""
    assert proc.stderr == SECRET_LINE


def test_an_ordinary_error_stays_catchable_under_labels(tmp_path):
    """Control for the tests above: labels on, nothing private, recover works as always."""
    proc = labels(tmp_path, """\
let xs be [1]
try
    print(xs[3])
recover e
    print("caught: " + e)
assert_error(() => xs[3])
print("after")
""")
    assert proc.returncode == 0, shown(proc)
    assert proc.stdout == "caught: Index 3 out of range (list length 1)\nafter\n"


@pytest.mark.parametrize("source, where", [
    ('let s be private(1, "app")\nlet pub be 0\nwhen s > 0\n    set pub to 1\n', "prog.syn:4:5"),
    ('let s be private(1, "app")\nwhen s > 0\n    print("x")\n', "prog.syn:3:5"),
    ('let s be private(1, "app")\nwhen s > 0\n    log "x"\n', "prog.syn:3:5"),
    ('let s be private(1, "app")\nwhen s > 0\n    show "x"\n', "prog.syn:3:5"),
], ids=["set", "print", "log", "show"])
def test_a_label_violation_names_its_file_line_and_column(tmp_path, source, where):
    """A violation is not secret (it reveals nothing): like every error it carries its place."""
    proc = labels(tmp_path, source)
    assert proc.returncode == 1, shown(proc)
    assert proc.stderr.startswith(f"Runtime error: {where}: label_violation: "), shown(proc)


# ---------------------------------------------------------------- synsema test --labels
VIOLATING_TESTS = """\
let s be private(1, "app")

test "first passes"
    assert_eq(1 + 1, 2)

test "leaks"
    let pub be 0
    when s > 0
        set pub to 1
    assert_eq(pub, 1)

test "third would pass"
    assert_eq(2, 2)
"""


def test_synsema_test_labels_ends_the_whole_run_with_one_outcome(tmp_path):
    (tmp_path / "t.syn").write_text(VIOLATING_TESTS)
    proc = run_synsema("test", "--labels", "t.syn", cwd=tmp_path)
    assert proc.returncode == 1, shown(proc)
    lines = proc.stdout.splitlines()
    outcomes = [line for line in lines if line.lstrip().startswith(("✓", "✗"))]
    assert len(outcomes) == 1, shown(proc)
    assert outcomes[0].startswith("  ✗ leaks: label_violation: cannot assign to 'pub'"), shown(proc)
    assert "(at t.syn:9:9)" in outcomes[0]
    assert "third would pass" not in proc.stdout
    assert "0 passed, 1 failed (1 total)" in lines
    assert "the test run stopped: a label violation ends it (see above)" in lines


def test_synsema_test_labels_violation_stops_the_other_files(tmp_path):
    (tmp_path / "a.syn").write_text(VIOLATING_TESTS)
    (tmp_path / "b.syn").write_text('test "in the second file"\n    assert(true)\n')
    proc = run_synsema("test", "--labels", "a.syn", "b.syn", cwd=tmp_path)
    assert proc.returncode == 1, shown(proc)
    assert "in the second file" not in proc.stdout
    assert "label_violation" in proc.stdout


def test_synsema_test_without_labels_runs_every_test(tmp_path):
    """Control: the same file without --labels cannot even load (private needs --labels)."""
    (tmp_path / "t.syn").write_text(VIOLATING_TESTS)
    proc = run_synsema("test", "t.syn", cwd=tmp_path)
    assert proc.returncode == 1
    assert "--labels" in proc.stdout
    assert "label_violation" not in proc.stdout


def test_synsema_test_labels_secret_error_is_a_redacted_failure(tmp_path):
    (tmp_path / "t.syn").write_text("""\
test "secret error"
    let xs be [1]
    let i be private(3, "app")
    try
        print(xs[i])
    recover e
        print("caught " + e)

test "after"
    assert(true)
""")
    proc = run_synsema("test", "--labels", "-v", "t.syn", cwd=tmp_path)
    assert proc.returncode == 1, shown(proc)
    assert "  ✗ secret error: private(app)" in proc.stdout.splitlines(), shown(proc)
    assert "caught" not in proc.stdout and "Index" not in proc.stdout


def test_synsema_test_labels_passes_a_clean_file(tmp_path):
    (tmp_path / "t.syn").write_text("""\
test "declassified"
    let s be private(41, "app")
    assert_eq(declassify(s + 1, "the answer is public"), 42)
""")
    proc = run_synsema("test", "--labels", "t.syn", cwd=tmp_path)
    assert proc.returncode == 0, shown(proc)
    assert "1 passed, 0 failed (1 total)" in proc.stdout


# ---------------------------------------------------------------- labels off
def test_private_without_labels_is_an_error_that_says_to_use_labels(tmp_path):
    proc = run(tmp_path, 'print("before")\nlet s be private(1, "app")\nprint("after")\n')
    assert proc.returncode == 1, shown(proc)
    assert proc.stdout == "before\n"
    assert proc.stderr.startswith("Runtime error: prog.syn:2:10: "), shown(proc)
    assert "--labels" in proc.stderr


def test_declassify_without_labels_is_the_identity(tmp_path):
    proc = run(tmp_path, """\
print(declassify(5, "r"))
print(declassify([1, "a", {"k": 2}], "r"))
print(declassify("x", "r", ["bank"]))
print(declassify(nothing, "r", "bank"))
""")
    assert proc.returncode == 0, shown(proc)
    assert proc.stdout == '5\n[1, "a", {k: 2}]\nx\nnothing\n'


def test_label_of_and_is_private_without_labels(tmp_path):
    proc = run(tmp_path, """\
print(label_of(5), is_private(5))
print(label_of([1, 2]), is_private({"a": 1}))
print(type_of(label_of("x")), type_of(is_private("x")))
""")
    assert proc.returncode == 0, shown(proc)
    assert proc.stdout == "[] false\n[] false\nlist bool\n"


def test_protected_label_names_cannot_be_rebound_to_callables_even_without_labels(tmp_path):
    proc = run(tmp_path, 'print("x")\nlet declassify be (v, r) => v\n')
    assert proc.returncode == 1
    assert proc.stdout == ""
    assert "protected name" in proc.stderr


# ---------------------------------------------------------------- labels on
def test_label_of_and_is_private_are_as_private_as_their_argument(tmp_path):
    proc = labels(tmp_path, """\
let s be private(1, "app")
print(label_of(s))
print(is_private(s))
print(is_private([1, s]))
print(label_of(1))
print(is_private(1))
print(declassify(label_of([1, s]), "r"))
print(declassify(is_private(s), "r"))
""")
    assert proc.returncode == 0, shown(proc)
    assert proc.stdout == 'private(app)\nprivate(app)\nprivate(app)\n[]\nfalse\n["app"]\ntrue\n'


def test_branching_on_label_of_is_branching_on_private_data(tmp_path):
    proc = labels(tmp_path, """\
let s be private(1, "app")
when is_private(s)
    print("it is private")
""")
    assert proc.returncode == 1, shown(proc)
    assert proc.stdout == ""
    assert "label_violation: print called under private control flow" in proc.stderr


def test_declassify_narrows_to_listed_principals(tmp_path):
    proc = labels(tmp_path, """\
let two be private(private(10, "app"), "bank")
print(declassify(label_of(two), "r"))
let narrowed be declassify(two, "the bank may see it", ["bank"])
print(declassify(label_of(narrowed), "r"))
print(narrowed)
let single be declassify(two, "the bank may see it", "bank")
print(declassify(label_of(single), "r"))
print(declassify(narrowed, "r") + 1)
""")
    assert proc.returncode == 0, shown(proc)
    assert proc.stdout == '["app", "bank"]\n["bank"]\nprivate(app, bank)\n["bank"]\n11\n'


@pytest.mark.parametrize("call", [
    'declassify(private(1, "app"), "r", ["app", "bank"])',
    'declassify(private(1, "app"), "r", "bank")',
    'declassify(5, "r", ["bank"])',
])
def test_declassify_never_widens(tmp_path, call):
    proc = labels(tmp_path, f'let v be {call}\nprint("went through")\n')
    assert proc.returncode == 1, shown(proc)
    assert proc.stdout == ""
    assert "never widen" in proc.stderr and "bank" in proc.stderr


def test_declassify_needs_a_reason(tmp_path):
    proc = labels(tmp_path, 'print(declassify(private(1, "app"), ""))\n')
    assert proc.returncode == 1, shown(proc)
    assert "needs a reason" in proc.stderr


def test_private_takes_a_literal_principal_checked_at_load(tmp_path):
    proc = labels(tmp_path, 'print("before")\nlet p be "app"\nlet s be private(1, p)\n')
    assert proc.returncode == 1, shown(proc)
    assert proc.stdout == ""          # a load error: nothing ran
    assert "text literal" in proc.stderr


def test_private_needs_two_arguments(tmp_path):
    proc = labels(tmp_path, 'print(private(1))\n')
    assert proc.returncode == 1
    assert "expects 2 arguments" in proc.stderr


def test_redacted_text_names_every_principal_the_program_declares(tmp_path):
    proc = labels(tmp_path, """\
let a be private(1, "app")
let b be private(2, "bank")
print(a)
print(b)
""")
    assert proc.returncode == 0, shown(proc)
    assert proc.stdout == "private(app, bank)\nprivate(app, bank)\n"


def test_a_private_call_through_an_alias_names_a_declared_principal_only(tmp_path):
    """Decision: principals come from the literal private(…, "p") calls of the source and its
    modules, so an alias cannot invent a new one at run time (the redacted text is fixed)."""
    proc = labels(tmp_path, 'let mark be private\nprint("start")\nlet s be mark(1, "bank")\n')
    assert proc.returncode == 1, shown(proc)
    assert proc.stdout == "start\n"
    assert "prog.syn:3:10: private: 'bank' is not a principal this program declares" in proc.stderr
    assert 'private(value, "bank")' in proc.stderr


def test_a_module_principal_is_declared_before_the_module_loads(tmp_path):
    (tmp_path / "lib.syn").write_text('export task mark(v)\n    give private(v, "zeta")\n')
    proc = labels(tmp_path, 'let s be private(1, "app")\nprint(s)\nuse "lib.syn" as lib\n'
                            'print(lib.mark(2))\n')
    assert proc.returncode == 0, shown(proc)
    assert proc.stdout == "private(app, zeta)\nprivate(app, zeta)\n"


def test_a_pure_task_gives_the_same_answers_and_steps_with_or_without_labels(tmp_path):
    """The public body (no private value yet) and the labelled one agree, also on steps()
    after a public body gave up and the labelled body ran the call again."""
    source = """\
let double be (x) => x * 2
task fib(n)
    when n < 2
        give n
    give fib(n - 1) + fib(n - 2)
task mixed(n)
    when n == 0
        give length([1, 2])
    give mixed(n - 1) + double(n)
print(fib(15), mixed(5), steps())
"""
    plain = run(tmp_path, source)
    labelled = labels(tmp_path, source)
    assert plain.returncode == 0, shown(plain)
    assert labelled.stdout == plain.stdout == "610 32 1984\n", shown(labelled)


def test_an_error_caught_from_a_public_body_leaves_the_call_depth_exact(tmp_path):
    """assert_error absorbing an error raised two public calls deep, a hundred times, must not
    use up call depth: the deep recursion after it runs with labels as it runs without."""
    source = """\
task boom(n)
    give 10 // n
task f(n)
    give boom(n)
task deep(n)
    when n == 0
        give 0
    give 1 + deep(n - 1)
each i in range(100)
    assert_error(() => f(0))
print(deep(2950))
"""
    plain = run(tmp_path, source)
    labelled = labels(tmp_path, source)
    assert plain.returncode == 0, shown(plain)
    assert (labelled.returncode, labelled.stdout) == (0, "2950\n"), shown(labelled)


def test_eprint_of_a_private_value_is_redacted(tmp_path):
    proc = labels(tmp_path, 'let s be private("pw", "app")\neprint("secret:", s)\n')
    assert proc.returncode == 0, shown(proc)
    assert proc.stderr == "secret: private(app)\n"


# ---------------------------------------------------------------- declassify under a ceiling
DECLASSIFY_APP = 'let s be private(7, "app")\nprint(declassify(s, "shown to its owner"))\n'


def test_declassify_under_a_ceiling_needs_a_declassify_item(tmp_path):
    proc = labels(tmp_path, DECLASSIFY_APP, "--cap-set", "stdout")
    assert proc.returncode == 1, shown(proc)
    assert proc.stdout == ""
    assert "label_violation" in proc.stderr and "declassify=app" in proc.stderr


def test_declassify_item_for_another_principal_does_not_help(tmp_path):
    proc = labels(tmp_path, DECLASSIFY_APP, "--cap-set", "stdout,declassify=bank")
    assert proc.returncode == 1, shown(proc)
    assert "declassify=app" in proc.stderr


@pytest.mark.parametrize("item", ["declassify=app", "declassify=*"])
def test_declassify_under_a_ceiling_with_its_item(tmp_path, item):
    proc = labels(tmp_path, DECLASSIFY_APP, "--cap-set", f"stdout,{item}")
    assert proc.returncode == 0, shown(proc)
    assert proc.stdout == "7\n"


def test_declassify_without_a_ceiling_needs_no_item(tmp_path):
    proc = labels(tmp_path, DECLASSIFY_APP)
    assert proc.returncode == 0, shown(proc)
    assert proc.stdout == "7\n"


def test_narrowing_under_a_ceiling_needs_the_items_of_the_principals_removed(tmp_path):
    source = """\
let two be private(private(10, "app"), "bank")
let narrowed be declassify(two, "the bank may see it", ["bank"])
print("narrowed")
"""
    refused = labels(tmp_path, source, "--cap-set", "stdout,declassify=bank")
    assert refused.returncode == 1, shown(refused)
    assert "declassify=app" in refused.stderr
    allowed = labels(tmp_path, source, "--cap-set", "stdout,declassify=app")
    assert allowed.returncode == 0, shown(allowed)
    assert allowed.stdout == "narrowed\n"


# ---------------------------------------------------------------- steps() and --format json
def test_steps_is_private_after_touching_private_data(tmp_path):
    proc = labels(tmp_path, """\
print(is_private(steps()))
let s be private(1, "app")
print(steps())
print(declassify(is_private(steps()), "r"))
""")
    assert proc.returncode == 0, shown(proc)
    assert proc.stdout == "false\nprivate(app)\ntrue\n"


def test_steps_stays_private_after_a_declassify(tmp_path):
    proc = labels(tmp_path, """\
let s be declassify(private(1, "app"), "r")
print(s)
print(steps())
""")
    assert proc.returncode == 0, shown(proc)
    assert proc.stdout == "1\nprivate(app)\n"


def test_format_json_steps_is_null_when_private_data_was_touched(tmp_path):
    touched = labels(tmp_path, 'let s be private(1, "app")\nprint(s)\n', "--format", "json")
    report = json.loads(touched.stdout)
    assert report["steps"] is None
    assert report["output"] == ["private(app)"]
    clean = labels(tmp_path, 'print(1)\n', "--format", "json")
    assert json.loads(clean.stdout)["steps"] == 0


def test_format_json_secret_error_is_redacted(tmp_path):
    proc = labels(tmp_path, """\
let xs be [1]
let i be private(3, "app")
try
    print(xs[i])
recover e
    print(e)
""", "--format", "json")
    assert proc.returncode == 1
    report = json.loads(proc.stdout)
    assert report["ok"] is False
    assert report["errors"] == ["Runtime error: prog.syn:4: private(app): a runtime error whose message depends "
                                "on private data"]
    assert report["diagnostics"][0] == {"file": "prog.syn", "line": 4, "col": None, "end_line": None,
                                        "end_col": None, "code": "runtime", "message": "private(app): a runtime "
                                        "error whose message depends on private data", "hint": None}
    assert report["output"] == []
