"""`--audit json|PATH` through the real CLI: one line per check, then the summary."""

from __future__ import annotations

import json

from .cli import run_program

PROGRAM = """require env("APP_*")
print(env("APP_NAME", "x"))
try
    env("HOME")
recover e
    print("denied")
print(now() > 0)
"""


def test_audit_to_a_file(tmp_path):
    result = run_program(PROGRAM, tmp_path, "--audit", "audit.jsonl")
    assert (result.code, result.out) == (0, "x\ndenied\ntrue\n"), result
    records = [json.loads(line) for line in (tmp_path / "audit.jsonl").read_text().splitlines()]
    assert [(r["capability"], r["scope"], r["granted"], r["reason"]) for r in records[1:-1]] == [
        ("env", "APP_NAME", True, 'require: env("APP_*")'),
        ("env", "HOME", False, "not granted"),
        ("time", None, True, "auto-granted: time"),
    ]
    assert all(set(r) == {"run", "ts", "capability", "scope", "granted", "reason", "file", "line"} for r in records[1:-1])
    assert records[-1] == {"run": records[0]["run"], "summary": {"records": 3, "granted": 2, "denied": 1, "exit": 0}}


def test_audit_json_on_stderr_records_the_failing_exit(tmp_path):
    result = run_program(PROGRAM, tmp_path, "--sandbox", "--audit", "json")
    assert result.code == 1
    lines = result.err.splitlines()
    records = [json.loads(line) for line in lines if line.startswith("{")]
    assert records[1]["reason"] == "above the host ceiling" and records[1]["granted"] is False
    assert records[-1] == {"run": records[0]["run"], "summary": {"records": 1, "granted": 0, "denied": 1, "exit": 1}}
    assert any(line.startswith("Runtime error: prog.syn:2:7: Capability not granted: env(\"APP_NAME\") — declared but "
                               "above the host ceiling") for line in lines)


def test_stdout_checks_are_audited_under_a_ceiling(tmp_path):
    result = run_program('print("a")\n', tmp_path, "--cap-set", "stdout", "--audit", "a.jsonl")
    assert result.code == 0
    records = [json.loads(line) for line in (tmp_path / "a.jsonl").read_text().splitlines()]
    assert records[1]["capability"] == "stdout" and records[1]["granted"] is True


def test_unwritable_audit_path_is_a_usage_error(tmp_path):
    result = run_program('print("a")\n', tmp_path, "--audit", "no/such/dir/a.jsonl")
    assert result.code == 2 and "--audit" in result.err and "Traceback" not in result.err


def test_audit_lines_name_the_call_site(tmp_path):
    run_program(PROGRAM, tmp_path, "--audit", "audit.jsonl")
    records = [json.loads(line) for line in (tmp_path / "audit.jsonl").read_text().splitlines()]
    assert [(r["file"], r["line"]) for r in records[1:-1]] == [("prog.syn", 2), ("prog.syn", 4), ("prog.syn", 7)]
