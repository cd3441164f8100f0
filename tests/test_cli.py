"""The command line: exit codes, the test runner's output and options, check, version."""

from __future__ import annotations

import json
import os
import re
import sys
import xml.etree.ElementTree as ElementTree

from conftest import ROOT, run_synsema, synsema_env

SAMPLE = '''task double(x)
    give x * 2

print("top level runs")

test "doubles"
    assert_eq(double(2), 4)

test "fails with both values"
    print("inside the test")
    assert_eq(double(2), 5)

test "errors are reported with their location"
    let xs be [1]
    print(xs[4])

test "globals are restored after each test"
    set counter to counter + 1
    assert_eq(counter, 1)

test "still isolated"
    set counter to counter + 1
    assert_eq(counter, 1)

let counter be 0
'''


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_test_runner_reports_each_test_and_a_summary(tmp_path):
    path = write(tmp_path, "sample.syn", SAMPLE)
    result = run_synsema("test", path.name, cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout.splitlines() == [
        "  ✓ doubles",
        "  ✗ fails with both values: expected 5, got 4",
        "    at sample.syn:11:5",                    # below a failure: where, the caret, the values
        "    11 |     assert_eq(double(2), 5)",
        "       |     ^^^^^^^^^",
        "    where double(2) = 4",
        "  ✗ errors are reported with their location: Index 4 out of range (list length 1) (at sample.syn:15:11)",
        "    15 |     print(xs[4])",
        "       |           ^^",
        "    hint: positions run from 0 to 0, or from -1 back to -1; get(xs, i, default) gives a default instead",
        "  ✓ globals are restored after each test",
        "  ✓ still isolated",
        "3 passed, 2 failed (5 total)",
    ]
    assert "top level runs" not in result.stdout


def test_verbose_shows_test_output_and_k_selects(tmp_path):
    path = write(tmp_path, "sample.syn", SAMPLE)
    result = run_synsema("test", "-v", "-k", "both values", path.name, cwd=tmp_path)
    assert result.stdout.splitlines() == [
        "  ✗ fails with both values: expected 5, got 4",
        "    at sample.syn:11:5",
        "    11 |     assert_eq(double(2), 5)",
        "       |     ^^^^^^^^^",
        "    where double(2) = 4",
        "  | inside the test",
        "0 passed, 1 failed (1 total)",
    ]
    assert result.returncode == 1


def test_passing_run_exits_zero_and_several_files_get_headers(tmp_path):
    write(tmp_path, "a.syn", 'test "a"\n    assert(true)\n')
    write(tmp_path, "b.syn", 'test "b"\n    assert_ne(1, 2)\n')
    result = run_synsema("test", str(tmp_path), cwd=tmp_path)
    assert result.returncode == 0
    assert f"{tmp_path / 'a.syn'}:" in result.stdout
    assert "  ✓ b" in result.stdout
    assert result.stdout.splitlines()[-1] == "2 passed, 0 failed (2 total)"
    globbed = run_synsema("test", "*.syn", cwd=tmp_path)
    assert globbed.stdout.splitlines()[-1] == "2 passed, 0 failed (2 total)"


def test_junit_report_is_valid_xml(tmp_path):
    path = write(tmp_path, "sample.syn", SAMPLE)
    report = tmp_path / "report.xml"
    run_synsema("test", "--junit", str(report), path.name, cwd=tmp_path)
    suite = ElementTree.parse(report).getroot().find("testsuite")
    assert suite.get("tests") == "5" and suite.get("failures") == "2"
    failure = suite.findall("testcase")[1].find("failure")
    assert failure.get("message") == "expected 5, got 4"


def test_a_file_that_fails_to_load_is_one_failure(tmp_path):
    write(tmp_path, "broken.syn", 'let x be (\n')
    result = run_synsema("test", "broken.syn", cwd=tmp_path)
    assert result.returncode == 1
    assert "✗ (loading broken.syn): Lexer error: broken.syn" in result.stdout


def test_usage_errors_exit_2(tmp_path):
    assert run_synsema().returncode == 2
    assert run_synsema("frobnicate").returncode == 2
    assert run_synsema("run", "--nope", "x.syn").returncode == 2
    assert run_synsema("run", "missing.syn", cwd=tmp_path).returncode == 2
    assert run_synsema("test", "missing.syn", cwd=tmp_path).returncode == 2
    assert run_synsema("test", str(tmp_path)).returncode == 2  # no .syn files
    both = run_synsema("run", "--sandbox", "--cap-set", "stdout", "x.syn", cwd=tmp_path)
    assert both.returncode == 2 and "--sandbox and --cap-set" in both.stderr


def test_run_reads_stdin_and_passes_arguments(tmp_path):
    result = run_synsema("run", "-", "--", "one", "two", stdin='print(args())\n')
    assert result.stdout == '["one", "two"]\n'


def test_run_format_json(tmp_path):
    write(tmp_path, "p.syn", 'print("a")\nprint(1 / 0)\n')
    result = run_synsema("run", "--format", "json", "p.syn", cwd=tmp_path)
    report = json.loads(result.stdout)
    assert report["ok"] is False and report["exit"] == 1
    assert report["output"] == ["a"]
    assert report["errors"] == ["Runtime error: p.syn:2:7: Division by zero"]


def test_check_counts_statements_and_fails_on_errors(tmp_path):
    write(tmp_path, "ok.syn", 'let a be 1\nprint(a)\n')
    write(tmp_path, "bad.syn", 'let a be\n')
    ok = run_synsema("check", "ok.syn", cwd=tmp_path)
    assert ok.returncode == 0 and ok.stdout == "OK: 2 statements parsed.\n"
    bad = run_synsema("check", "bad.syn", cwd=tmp_path)
    assert bad.returncode == 1 and bad.stderr.startswith("Parse error: bad.syn:1:")


def test_version():
    result = run_synsema("version")
    assert result.returncode == 0 and result.stdout.startswith("synsema ")


def test_recursion_limit_is_exactly_3000(tmp_path):
    write(tmp_path, "deep.syn", 'task down(n)\n    when n == 0\n        give 0\n    give down(n - 1)\n'
                               'print(down(2999))\nprint(down(3000))\n')
    result = run_synsema("run", "deep.syn", cwd=tmp_path)
    assert result.stdout == "0\n"
    assert result.stderr == ("Runtime error: deep.syn:4:10: maximum recursion depth exceeded\n"
                             "  4 |     give down(n - 1)\n"
                             "    |          ^^^^\n")


def test_examples_pass_their_tests():
    env = synsema_env()
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "")
    for example in sorted((ROOT / "examples").glob("*.syn")):
        servers = example.with_suffix(".mcp.json")   # the MCP servers an example's host lists
        flags = ["--mcp-config", str(servers)] if servers.exists() else []
        result = run_synsema("test", *flags, str(example), cwd=ROOT, env=env)
        assert result.returncode == 0, (example, result.stdout, result.stderr)


def test_the_math_tour_labels_every_line_it_prints():
    result = run_synsema("run", "examples/math_tour.syn", cwd=ROOT)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[-1] == "is [0, 1] (a leading zero) a valid polynomial payload? false - polynomial_leading_zero"
    unlabelled = [line for line in lines if not re.match(r"[A-Za-z]+[ :]", line)]
    assert unlabelled == [], "each line starts with words that say what it shows"


def test_math_agent_replays_its_cassette():
    env = synsema_env(SYNSEMA_LLM_PROVIDER="replay",
                      SYNSEMA_LLM_CASSETTE=str(ROOT / "examples" / "math_agent.cassette.jsonl"))
    result = run_synsema("run", "examples/math_agent.syn", cwd=ROOT, env=env)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == 'step 1: math_find {query: "factor polynomial"}'
    assert lines[2].startswith('step 3: math_run {id: "poly.factor", payload: {polynomial:')
    assert lines[-1].startswith("Yes. x^4 - 1 factors exactly")


def test_conjecture_agent_replays_its_cassette_and_prints_the_evidence():
    env = synsema_env(SYNSEMA_LLM_PROVIDER="replay",
                      SYNSEMA_LLM_CASSETTE=str(ROOT / "examples" / "conjecture_agent.cassette.jsonl"))
    result = run_synsema("run", "examples/conjecture_agent.syn", cwd=ROOT, env=env)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "step 1: recognise {terms: [0, 1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89]}"
    assert lines[6].startswith("The conjecture is false.")
    evidence = lines[lines.index("evidence (from the exact operations, not from the model):") + 1:]
    assert evidence[0] == ('  recurrence of order 2 (determined) with coefficients ["1", "1"], '
                           "fitting all 12 given terms")
    assert '  4181 is composite: witness {kind: "miller_rabin_base", base: 2}' in evidence
    assert "  4181 = 37^1 * 113^1" in evidence
    assert any(line.startswith("  1066340417491710595814572169 is prime: certificate with 1 "
                               "steps and leaves [2, 11, 89") for line in evidence)
    assert evidence[-1] == "  (5/113) = -1, and 19 divides 113 - (-1): true"


def test_a_closed_pipe_ends_the_run_quietly(tmp_path):
    (tmp_path / "many.syn").write_text("each i in range(100000)\n    print(i)\n", encoding="utf-8")
    import subprocess
    import sys
    reader = subprocess.Popen([sys.executable, "-m", "synsema", "run", "many.syn"], cwd=tmp_path,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=synsema_env())
    first = reader.stdout.readline()
    reader.stdout.close()
    code = reader.wait(timeout=60)
    assert first == b"0\n"
    assert code == 141
    assert reader.stderr.read() == b""


def test_json_report_carries_the_audit(tmp_path):
    (tmp_path / "p.syn").write_text("print(now() > 0)\n", encoding="utf-8")
    result = run_synsema("run", "--format", "json", "--audit", "json", "p.syn", cwd=tmp_path)
    report = json.loads(result.stdout)
    assert result.stderr == ""
    start, check, summary = report["audit"]
    assert start["run"] == check["run"] and "start" in start
    assert (check["capability"], check["granted"], check["line"]) == ("time", True, 1)
    assert summary == {"run": check["run"], "summary": {"records": 1, "granted": 1, "denied": 0, "exit": 0}}
    plain = json.loads(run_synsema("run", "--format", "json", "p.syn", cwd=tmp_path).stdout)
    assert plain["audit"] is None
