"""`synsema test` through the real CLI: -x, -k expressions, skip()/only(), exit 5 when no test
ran, --format json, --junit, -j N and the progress line on a terminal (a real pty).

Exit statuses mirror pytest (0 passed, 1 failed, 2 usage, 5 nothing ran) and `only()` fails
the run as deno's `only` does. Each case runs the real command on files written to tmp_path."""

from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import sys
import time
import xml.etree.ElementTree as ElementTree

import pytest

from tests.conftest import ROOT, run_synsema, synsema_env

FILES = {
    "pass.syn": '''\
task add(a, b)
    give a + b

test "adds two"
    assert_eq(add(1, 2), 3)

test "Adds Three"
    assert_eq(add(1, 2) + 0, 3)
''',
    "fail.syn": '''\
test "first passes"
    assert(true)

test "second fails"
    print("before the failure")
    assert_eq([1, 2], [1, 3])

test "third would pass"
    assert(true)
''',
    "skip.syn": '''\
test "skipped outright"
    skip("needs the network")
    assert(false)

test "skipped under a condition"
    when 1 < 2
        skip()
    assert(false)

test "recover does not absorb a skip"
    try
        skip("still skipped")
    recover e
        print("caught " + e)
    assert(false)

test "runs"
    assert(true)
''',
    "only.syn": '''\
test "focused"
    only()
    assert(true)

test "not focused"
    assert(false)
''',
    "none.syn": 'print("no tests here")\n',
    "broken.syn": 'print("loads")\nprint(1 +)\n',
}

# (case id, files, flags, exit status, outcome lines, last lines of stdout)
CASES = [
    ("pass", ["pass.syn"], [], 0, ["  ✓ adds two", "  ✓ Adds Three"], ["2 passed, 0 failed (2 total)"]),
    ("fail", ["fail.syn"], [], 1,
     ["  ✓ first passes", "  ✗ second fails: expected [1, 3], got [1, 2]", "  ✓ third would pass"],
     ["2 passed, 1 failed (3 total)"]),
    ("skip", ["skip.syn"], [], 0,
     ["  - skipped outright: skipped (needs the network)", "  - skipped under a condition: skipped",
      "  - recover does not absorb a skip: skipped (still skipped)", "  ✓ runs"],
     ["1 passed, 0 failed, 3 skipped (4 total)"]),
    ("only", ["only.syn", "pass.syn"], [], 1, ["  ✓ focused"],
     ["1 passed, 0 failed (1 total)",
      "the run fails because only() is used in only.syn: the other tests did not run; "
      "remove only() before committing"]),
    ("no tests", ["none.syn"], [], 5, [],
     ["0 passed, 0 failed (0 total)", "no tests ran: the files have no test blocks (exit status 5)"]),
    ("broken file", ["broken.syn"], [], 1, None, ["0 passed, 1 failed (1 total)"]),
    ("-x in a file", ["fail.syn"], ["-x"], 1, ["  ✓ first passes", "  ✗ second fails: expected [1, 3], got [1, 2]"],
     ["1 passed, 1 failed (2 total)", "stopped at the first failure (-x): 1 selected test not run"]),
    ("-x across files", ["fail.syn", "pass.syn"], ["-x"], 1, None,
     ["1 passed, 1 failed (2 total)", "stopped at the first failure (-x): 3 selected tests not run"]),
    ("-x all pass", ["pass.syn"], ["-x"], 0, ["  ✓ adds two", "  ✓ Adds Three"], ["2 passed, 0 failed (2 total)"]),
    ("-x skip", ["skip.syn"], ["-x"], 0, None, ["1 passed, 0 failed, 3 skipped (4 total)"]),
    ("-k substring, any case", ["pass.syn"], ["-k", "ADDS T"], 0, ["  ✓ adds two", "  ✓ Adds Three"], None),
    ("-k phrase", ["pass.syn"], ["-k", "adds two"], 0, ["  ✓ adds two"], ["1 passed, 0 failed (1 total)"]),
    ("-k regex", ["pass.syn"], ["-k", "/^A/"], 0, ["  ✓ Adds Three"], ["1 passed, 0 failed (1 total)"]),
    ("-k regex is case-sensitive", ["pass.syn"], ["-k", "/^a/"], 0, ["  ✓ adds two"], None),
    ("-k not", ["fail.syn"], ["-k", "not fails"], 0, ["  ✓ first passes", "  ✓ third would pass"], None),
    ("-k and/or/parens", ["fail.syn", "pass.syn"], ["-k", "(passes or third) and not /^Adds/"], 0,
     ["  ✓ first passes", "  ✓ third would pass"], ["2 passed, 0 failed (2 total)"]),
    ("-k chains of three", ["fail.syn", "pass.syn"], ["-k", "first or third or two and not zzz and not yyy"], 0,
     ["  ✓ first passes", "  ✓ third would pass", "  ✓ adds two"], ["3 passed, 0 failed (3 total)"]),
    ("-k selects a failure", ["fail.syn"], ["-k", "second"], 1, ["  ✗ second fails: expected [1, 3], got [1, 2]"],
     None),
    ("-k matches nothing", ["pass.syn"], ["-k", "nothing like it"], 5, [],
     ["0 passed, 0 failed (0 total)", "no tests ran: no test block matched -k (exit status 5)"]),
    ("-k skip", ["skip.syn"], ["-k", "outright"], 0, ["  - skipped outright: skipped (needs the network)"],
     ["0 passed, 0 failed, 1 skipped (1 total)"]),
    ("-k outside only", ["only.syn"], ["-k", "not focused"], 1, [], None),
]


@pytest.fixture
def project(tmp_path):
    for name, text in FILES.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path


def outcome_lines(stdout: str) -> list[str]:
    return [line for line in stdout.splitlines() if line.startswith(("  ✓", "  ✗", "  -"))]


@pytest.mark.parametrize("files, flags, status, outcomes, tail", [case[1:] for case in CASES],
                         ids=[case[0] for case in CASES])
def test_flags_select_and_report(project, files, flags, status, outcomes, tail):
    done = run_synsema("test", *flags, *files, cwd=project)
    assert done.returncode == status, done.stdout + done.stderr
    assert "\r" not in done.stdout and "\x1b" not in done.stdout   # a pipe gets plain text
    if outcomes is not None:
        assert outcome_lines(done.stdout) == outcomes, done.stdout
    if tail is not None:
        assert done.stdout.splitlines()[-len(tail):] == tail, done.stdout


def test_only_leaves_other_files_out_entirely(project):
    done = run_synsema("test", "fail.syn", "only.syn", "pass.syn", cwd=project)
    assert done.returncode == 1
    assert "fail.syn" not in done.stdout.replace("only.syn", "") and "adds two" not in done.stdout
    assert "not focused" not in done.stdout


def test_a_file_level_skip_skips_the_file(project):
    (project / "later.syn").write_text('skip("not on this platform")\n\ntest "never"\n    assert(false)\n')
    done = run_synsema("test", "later.syn", cwd=project)
    assert done.returncode == 0, done.stdout
    assert outcome_lines(done.stdout) == ["  - (loading later.syn): skipped (not on this platform)"]


@pytest.mark.parametrize("source, message", [
    ('skip("x")\n', "skip() marks a test block, and only `synsema test` runs test blocks"),
    ('only()\n', "only() marks a test block, and only `synsema test` runs test blocks"),
], ids=["skip", "only"])
def test_markers_outside_synsema_test_are_errors(tmp_path, source, message):
    (tmp_path / "prog.syn").write_text(source)
    done = run_synsema("run", "prog.syn", cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr.startswith(f"Runtime error: prog.syn:1:1: {message}"), done.stderr
    assert 'hint: call ' in done.stderr


def test_skip_needs_a_text_reason_and_assert_error_does_not_absorb_it(tmp_path):
    (tmp_path / "t.syn").write_text('test "number reason"\n    skip(3)\n\n'
                                    'test "inside assert_error"\n    assert_error(() => skip("s"))\n')
    done = run_synsema("test", "t.syn", cwd=tmp_path)
    assert outcome_lines(done.stdout) == ["  ✗ number reason: skip() takes a text reason, got number (at t.syn:2:5)",
                                          "  - inside assert_error: skipped (s)"]
    assert done.returncode == 1


def test_a_skip_decided_by_private_data_is_a_label_violation(tmp_path):
    (tmp_path / "t.syn").write_text('let s be private(1, "app")\n\ntest "secret skip"\n'
                                    '    when s > 0\n        skip("has a secret")\n')
    done = run_synsema("test", "--labels", "t.syn", cwd=tmp_path)
    assert done.returncode == 1, done.stdout
    assert "label_violation" in done.stdout and "skipped" not in done.stdout
    assert "the test run stopped: a label violation ends it (see above)" in done.stdout


@pytest.mark.parametrize("flags, message", [
    (["-k", "(adds"], "-k: a '(' is never closed"),
    (["-k", "/[/"], "-k: invalid regex /[/"),
    (["-k", "adds and"], "-k: expected a word or a /regex/"),
    (["-k", "adds )"], "-k: unexpected ')'"),
    (["-k", ""], "-k needs an expression"),
    (["-k"], "-k needs a value"),
    (["-j", "0"], "-j needs a number of worker processes from 1 to 64, not 0"),
    (["-j", "two"], "-j needs a number of worker processes from 1 to 64, not two"),
    (["-j", "2", "--audit", "json"], "-j cannot be combined with --audit"),
    (["--format", "xml"], "--format must be human or json, not xml"),
], ids=["paren", "bad regex", "dangling and", "stray paren", "empty", "no value", "-j 0", "-j word",
        "-j audit", "format"])
def test_usage_errors_exit_2(project, flags, message):
    done = run_synsema("test", "pass.syn", *flags, cwd=project)
    assert done.returncode == 2, done.stdout + done.stderr
    assert message in done.stderr, done.stderr


def test_a_hostile_k_regex_ends_with_a_usage_error_not_a_hang(tmp_path):
    # 40 letters: the `regex` library checks its timeout only now and then (about every 3 s of
    # matching, measured on 2025.11 and 2026.11), and 30 letters can finish before that check
    (tmp_path / "t.syn").write_text(f'test "{"a" * 40}!"\n    assert(true)\n')
    started = time.monotonic()
    done = run_synsema("test", "-k", "/(a|aa)+$/", "t.syn", cwd=tmp_path, timeout=60)
    assert time.monotonic() - started < 30
    assert done.returncode == 2, done.stdout + done.stderr
    assert "took more than 1 s on the test name" in done.stderr


# ---------------------------------------------------------------- --format json
def events(stdout: str) -> list[dict]:
    return [json.loads(line) for line in stdout.splitlines()]


def test_json_has_one_event_per_test_then_a_summary(project):
    done = run_synsema("test", "--format", "json", "fail.syn", "skip.syn", cwd=project)
    assert done.returncode == 1
    stream = events(done.stdout)
    tests, summary = stream[:-1], stream[-1]
    assert [(e["file"], e["name"], e["line"], e["outcome"]) for e in tests] == [
        ("fail.syn", "first passes", 1, "passed"), ("fail.syn", "second fails", 4, "failed"),
        ("fail.syn", "third would pass", 8, "passed"), ("skip.syn", "skipped outright", 1, "skipped"),
        ("skip.syn", "skipped under a condition", 5, "skipped"),
        ("skip.syn", "recover does not absorb a skip", 10, "skipped"), ("skip.syn", "runs", 17, "passed")]
    for e in tests:
        assert e["event"] == "test"
        assert set(e) == {"event", "file", "name", "line", "outcome", "duration", "message", "detail", "output",
                          "diagnostic"}
        assert isinstance(e["duration"], (int, float)) and 0 <= e["duration"] < 30
    failed = tests[1]
    # `message` is the whole failure text the human report shows: the reason, then `detail`
    assert failed["message"] == "expected [1, 3], got [1, 2]\n" + failed["detail"]
    assert failed["detail"].startswith("  at fail.syn:6:5\n  6 |     assert_eq([1, 2], [1, 3])\n")
    assert failed["output"] == "before the failure\n"
    diagnostic = {k: v for k, v in failed["diagnostic"].items() if k != "detail"}
    assert diagnostic == {"file": "fail.syn", "line": 6, "col": 5, "end_line": 6, "end_col": 14,
                          "code": "assertion", "message": "expected [1, 3], got [1, 2]", "hint": None}
    assert tests[0]["message"] is None and tests[0]["detail"] is None and tests[0]["diagnostic"] is None
    assert tests[3]["message"] == "needs the network" and tests[4]["message"] is None
    assert summary == {"event": "summary", "passed": 3, "failed": 1, "skipped": 3, "total": 7, "not_run": 0,
                       "only": [], "stopped": None, "exit": 1}


def test_json_load_failure_carries_the_structured_error(project):
    done = run_synsema("test", "--format", "json", "broken.syn", cwd=project)
    assert done.returncode == 1
    (load, summary) = events(done.stdout)
    assert load["event"] == "load" and load["name"] is None and load["outcome"] == "failed"
    diagnostic = load["diagnostic"]
    assert {"file", "line", "col", "end_line", "end_col", "code", "message", "hint"} <= set(diagnostic)
    assert diagnostic["file"] == "broken.syn" and diagnostic["code"] == "syntax"
    assert diagnostic["line"] >= 1 and diagnostic["col"] >= 1 and diagnostic["end_col"] > diagnostic["col"]
    assert load["message"].startswith("Parse error: broken.syn:")
    assert diagnostic["message"] in load["message"]
    assert summary["failed"] == 1 and summary["exit"] == 1


@pytest.mark.parametrize("files, flags, summary", [
    (["none.syn"], [], {"total": 0, "exit": 5, "stopped": None}),
    (["fail.syn", "pass.syn"], ["-x"], {"total": 2, "not_run": 3, "exit": 1, "stopped": "fail_fast"}),
    (["only.syn", "pass.syn"], [], {"total": 1, "only": ["only.syn"], "exit": 1}),
    (["pass.syn"], ["-k", "zzz"], {"total": 0, "exit": 5}),
], ids=["no tests", "-x", "only", "-k none"])
def test_json_summary_per_case(project, files, flags, summary):
    done = run_synsema("test", "--format", "json", *flags, *files, cwd=project)
    last = events(done.stdout)[-1]
    assert last["event"] == "summary"
    assert {key: last[key] for key in summary} == summary
    assert done.returncode == summary["exit"]


# ---------------------------------------------------------------- --junit
def test_junit_carries_file_line_time_skips_failures_and_output(project):
    report = project / "report.xml"
    done = run_synsema("test", "--junit", str(report), "fail.syn", "skip.syn", "broken.syn", cwd=project)
    assert done.returncode == 1
    root = ElementTree.parse(report).getroot()
    assert root.tag == "testsuites"
    assert (root.get("tests"), root.get("failures"), root.get("skipped")) == ("8", "2", "3")
    suites = {suite.get("name"): suite for suite in root.findall("testsuite")}
    assert list(suites) == ["fail.syn", "skip.syn", "broken.syn"]
    fail = suites["fail.syn"]
    assert (fail.get("tests"), fail.get("failures"), fail.get("skipped")) == ("3", "1", "0")
    cases = fail.findall("testcase")
    assert [(c.get("name"), c.get("file"), c.get("line")) for c in cases] == [
        ("first passes", "fail.syn", "1"), ("second fails", "fail.syn", "4"), ("third would pass", "fail.syn", "8")]
    assert all(float(c.get("time")) >= 0 for c in cases)
    failure = cases[1].find("failure")
    assert failure.get("message") == "expected [1, 3], got [1, 2]"
    assert failure.text.startswith("expected [1, 3], got [1, 2]\n  at fail.syn:6:5\n")
    assert cases[1].find("system-out").text == "before the failure\n"
    assert cases[0].find("failure") is None and cases[0].find("system-out") is None
    skip = suites["skip.syn"]
    assert (skip.get("tests"), skip.get("failures"), skip.get("skipped")) == ("4", "0", "3")
    skipped = skip.findall("testcase")[0].find("skipped")
    assert skipped.get("message") == "needs the network"
    broken = suites["broken.syn"].find("testcase")
    assert broken.get("name") == "(loading)" and broken.find("failure").get("message").startswith("Parse error")


def test_junit_holds_output_xml_cannot_carry(tmp_path):
    (tmp_path / "t.syn").write_text('test "prints a control character"\n    print("bell \\u{7} here")\n'
                                    '    assert(false)\n')
    report = tmp_path / "r.xml"
    run_synsema("test", "--junit", str(report), "t.syn", cwd=tmp_path)
    case = ElementTree.parse(report).getroot().find("testsuite/testcase")
    assert "bell" in case.find("system-out").text and "here" in case.find("system-out").text


# ---------------------------------------------------------------- -j N
MANY = ["fail.syn", "pass.syn", "skip.syn", "broken.syn", "only_free.syn"]


@pytest.mark.parametrize("flags", [["-v", "-k", "not three"], ["--format", "json"]], ids=["-v -k", "json"])
def test_parallel_files_report_exactly_what_one_process_reports(project, flags):
    (project / "only_free.syn").write_text('test "prints"\n    print("hello")\n    assert(true)\n')

    def normal(stdout):
        if "--format" not in flags:
            return stdout
        return [{k: v for k, v in e.items() if k != "duration"} for e in events(stdout)]
    one = run_synsema("test", *flags, "-j", "1", *MANY, cwd=project)
    two = run_synsema("test", *flags, "-j", "2", *MANY, cwd=project)
    assert one.returncode == two.returncode == 1
    assert normal(two.stdout) == normal(one.stdout)
    assert "fail.syn:\n" in one.stdout or "--format" in flags


def test_parallel_keeps_each_files_output_together_in_file_order(project):
    for n in range(4):
        (project / f"p{n}.syn").write_text(
            "".join(f'test "p{n} t{k}"\n    print("{n}.{k}")\n    assert(true)\n\n' for k in range(3)))
    done = run_synsema("test", "-v", "-j", "3", "p0.syn", "p1.syn", "p2.syn", "p3.syn", cwd=project)
    assert done.returncode == 0
    expected = []
    for n in range(4):
        expected.append(f"p{n}.syn:")
        for k in range(3):
            expected += [f"  ✓ p{n} t{k}", f"  | {n}.{k}"]
    assert done.stdout.splitlines() == expected + ["12 passed, 0 failed (12 total)"]


def test_parallel_totals_exit_and_junit_sum_over_files(project):
    report = project / "j.xml"
    done = run_synsema("test", "-j", "2", "--junit", str(report), "pass.syn", "skip.syn", cwd=project)
    assert done.returncode == 0
    assert done.stdout.splitlines()[-1] == "3 passed, 0 failed, 3 skipped (6 total)"
    root = ElementTree.parse(report).getroot()
    assert (root.get("tests"), root.get("failures"), root.get("skipped")) == ("6", "0", "3")
    assert [c.get("line") for c in root.iter("testcase")] == ["4", "7", "1", "5", "10", "17"]


@pytest.mark.parametrize("files, flags, status, tail", [
    (["none.syn", "pass.syn"], [], 0, "2 passed, 0 failed (2 total)"),
    (["none.syn", "none.syn"], [], 5, "no tests ran: the files have no test blocks (exit status 5)"),
    (["only.syn", "pass.syn", "fail.syn"], [], 1,
     "the run fails because only() is used in only.syn: the other tests did not run; remove only() before committing"),
    (["fail.syn", "pass.syn", "skip.syn"], ["-x"], 1, "stopped at the first failure (-x): 7 selected tests not run"),
    (["pass.syn", "fail.syn"], ["-k", "nothing"], 5, "no tests ran: no test block matched -k (exit status 5)"),
], ids=["no-tests file among others", "no tests at all", "only", "-x", "-k none"])
def test_parallel_exit_status_is_the_worst(project, files, flags, status, tail):
    done = run_synsema("test", "-j", "2", *flags, *files, cwd=project)
    assert done.returncode == status, done.stdout + done.stderr
    assert done.stdout.splitlines()[-1] == tail


def test_parallel_label_violation_ends_the_run(project):
    (project / "leak.syn").write_text('let s be private(1, "app")\n\ntest "leaks"\n    let pub be 0\n'
                                      '    when s > 0\n        set pub to 1\n')
    done = run_synsema("test", "--labels", "-j", "2", "leak.syn", "pass.syn", cwd=project)
    assert done.returncode == 1, done.stdout
    assert "label_violation" in done.stdout and "adds two" not in done.stdout
    assert done.stdout.splitlines()[-1] == "the test run stopped: a label violation ends it (see above)"


# ---------------------------------------------------------------- progress on a terminal
def run_on_pty(args: list[str], cwd) -> tuple[int, str]:
    """The command with its stdout on a real pseudo-terminal; (exit status, what it showed)."""
    leader, follower = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "synsema", *args], cwd=cwd, stdout=follower,
                            stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, env=synsema_env(COLUMNS="200"))
    os.close(follower)
    shown = b""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        ready, _, _ = select.select([leader], [], [], 1)
        if ready:
            try:
                chunk = os.read(leader, 65536)
            except OSError:       # the follower side closed: the command is done
                break
            if not chunk:
                break
            shown += chunk
        elif proc.poll() is not None:
            break
    os.close(leader)
    return proc.wait(timeout=30), shown.decode("utf-8", "replace")


def test_a_terminal_gets_a_progress_line_that_is_erased(project):
    status, shown = run_on_pty(["test", "fail.syn", "pass.syn"], project)
    assert status == 1
    assert "\r\x1b[2K[1/2] fail.syn › second fails" in shown
    assert "\r\x1b[2K[2/2] pass.syn › adds two" in shown
    plain = shown.replace("\r\n", "\n")
    final = plain.rsplit("\x1b[2K", 1)[-1]
    assert final.rstrip("\n").splitlines()[-1] == "4 passed, 1 failed (5 total)"
    assert "  ✗ second fails: expected [1, 3], got [1, 2]" in plain


def test_no_progress_line_in_json_even_on_a_terminal(project):
    status, shown = run_on_pty(["test", "--format", "json", "pass.syn"], project)
    assert status == 0
    assert "\x1b" not in shown
    assert [json.loads(line)["event"] for line in shown.split("\r\n") if line] == ["test", "test", "summary"]


def test_under_pytest_skip_is_a_pytest_skip_and_only_does_not_narrow(tmp_path):
    (tmp_path / "pytest.ini").write_text("[pytest]\nsynsema_files = *.syn\n")
    (tmp_path / "t.syn").write_text(FILES["skip.syn"] + "\n" + FILES["only.syn"])
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-rs"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120, env=synsema_env())
    assert done.returncode == 1, done.stdout + done.stderr
    assert "2 passed" in done.stdout and "1 failed" in done.stdout and "3 skipped" in done.stdout
    assert "needs the network" in done.stdout
