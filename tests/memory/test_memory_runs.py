"""Persistent memory through the real CLI: what one run remembers, the next recalls; a run killed
while writing leaves the file whole; writers in parallel and in other processes all land; the
host decides where the files are; the audit log records every read and write."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from conftest import ROOT, run_synsema, synsema_env


def write(folder: Path, name: str, source: str) -> Path:
    path = folder / name
    path.write_text(source, encoding="utf-8")
    return path


def test_a_second_run_recalls_what_the_first_remembered_and_resumes_its_progress(tmp_path):
    write(tmp_path, "first.syn", 'require memory("agent")\n'
          'remember("learning", "API slow on Mondays", ["api"])\n'
          'add_rule("max_discount", "must", "discount <= 0.20", "pricing")\n'
          'create_progress("sync", ["fetch", "validate", "update"])\n'
          'start_step("sync", "fetch")\ncomplete_step("sync", "fetch", "100 items")\n'
          'start_step("sync", "validate")\n')
    write(tmp_path, "second.syn", 'require memory("agent")\n'
          'print(recall("learning", ["api"])[0].content)\n'
          'print(check_rules("pricing", {discount: 0.5})[0].rule)\n'
          'create_progress("sync", ["fetch", "validate", "update"])\n'
          'print(resume_point("sync"))\nprint(progress_percent("sync"))\n')
    first = run_synsema("run", "first.syn", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    second = run_synsema("run", "second.syn", cwd=tmp_path)
    assert second.returncode == 0, second.stderr
    assert second.stdout.splitlines() == ["API slow on Mondays", "max_discount", "validate",
                                          "33.333333333333336"]
    assert (tmp_path / ".synsema" / "memory" / "agent.db").is_file()


def test_each_memory_name_is_a_file_of_its_own(tmp_path):
    write(tmp_path, "a.syn", 'require memory("alpha")\nremember("context", "in alpha")\n')
    write(tmp_path, "b.syn", 'require memory("beta")\nprint(length(recall()))\nremember("context", "in beta")\n')
    assert run_synsema("run", "a.syn", cwd=tmp_path).returncode == 0
    beta = run_synsema("run", "b.syn", cwd=tmp_path)
    assert beta.stdout == "0\n", beta.stderr
    assert sorted(p.name for p in (tmp_path / ".synsema" / "memory").iterdir()) == ["alpha.db", "beta.db"]
    assert run_synsema("run", "b.syn", cwd=tmp_path).stdout == "1\n"   # its own entry, none of alpha's


# A writer that never stops: each create_progress is one transaction of 400 rows, so a kill
# at a random instant most likely lands inside one. A restarted writer goes on from its entries.
WRITER = '''require memory("killed")
let steps be apply(range(400), (i) => "step " + text(i))
let n be length(recall(limit = 1000000))
while true
    create_progress("task" + text(n), steps)
    remember("context", "entry " + text(n), ["n" + text(n)])
    set n to n + 1
'''


def test_a_run_killed_while_writing_leaves_a_whole_memory(tmp_path):
    write(tmp_path, "writer.syn", WRITER)
    database = tmp_path / ".synsema" / "memory" / "killed.db"
    for delay in (0.4, 0.7, 1.1):
        writer = subprocess.Popen([sys.executable, "-m", "synsema", "run", "writer.syn"], cwd=tmp_path,
                                  env=synsema_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        started = time.monotonic()
        while not database.exists() and time.monotonic() - started < 30:
            time.sleep(0.05)
        time.sleep(delay)
        writer.send_signal(signal.SIGKILL)
        writer.wait(timeout=30)
        assert writer.returncode == -signal.SIGKILL
    # The next run opens it (rolling back whatever was half done) and reads every task whole.
    reader = write(tmp_path, "reader.syn", 'require memory("killed")\n'
                   'let n be 0\nwhile progress_percent("task" + text(n)) == 0.0 and '
                   'resume_point("task" + text(n)) == "step 0"\n    set n to n + 1\n'
                   'print(n)\nprint(length(recall(limit = 100000)))\n'
                   'print(length(split(progress_display("task0"), "\\n")))\n')
    result = run_synsema("run", reader.name, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    tasks, entries, lines = (int(x) for x in result.stdout.split())
    assert tasks >= 1 and lines == 401
    assert entries in (tasks - 1, tasks)   # a task's entry is the next transaction
    with sqlite3.connect(database) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        counts = db.execute("SELECT task, count(*) FROM steps GROUP BY task").fetchall()
    assert len(counts) == tasks and {count for _, count in counts} == {400}


def test_parallel_map_items_and_other_processes_write_without_losing_an_entry(tmp_path):
    write(tmp_path, "fan.syn", 'require memory("shared")\n'
          'let ids be parallel_map((i) => remember("context", "item " + text(i), ["fan"]), range(40), 8)\n'
          'print(length(unique(ids)))\n')
    writers = [subprocess.Popen([sys.executable, "-m", "synsema", "run", "fan.syn"], cwd=tmp_path,
                                env=synsema_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
               for _ in range(3)]
    for writer in writers:
        out, err = writer.communicate(timeout=120)
        assert writer.returncode == 0, err
        assert out == "40\n"
    write(tmp_path, "count.syn", 'require memory("shared")\nprint(length(recall("context", ["fan"], limit = 1000)))\n')
    assert run_synsema("run", "count.syn", cwd=tmp_path).stdout == "120\n"


def test_the_host_chooses_the_folder_by_flag_variable_or_project_file(tmp_path):
    program = write(tmp_path, "p.syn", 'require memory("notes")\nremember("context", "here")\n')
    flag_dir, env_dir, file_dir = tmp_path / "by-flag", tmp_path / "by-env", tmp_path / "by-file"
    assert run_synsema("run", "--memory-dir", flag_dir, program, cwd=tmp_path).returncode == 0
    assert run_synsema("run", program, cwd=tmp_path,
                       env=synsema_env(SYNSEMA_MEMORY_DIR=str(env_dir))).returncode == 0
    write(tmp_path, "synsema.toml", '[host]\nmemory_dir = "by-file"\n')
    assert run_synsema("run", program, cwd=tmp_path).returncode == 0
    for folder in (flag_dir, env_dir, file_dir):
        assert (folder / "notes.db").is_file(), folder
    assert not (tmp_path / ".synsema").exists()
    shown = run_synsema("config", "--json", cwd=tmp_path)
    setting = json.loads(shown.stdout)["host"]["memory_dir"]
    assert setting["value"].endswith("by-file") and "synsema.toml" in setting["source"]


def test_the_audit_log_records_each_read_and_write_and_the_denials(tmp_path):
    write(tmp_path, "p.syn", 'require memory("notes")\nremember("context", "x")\nprint(length(recall()))\n')
    result = run_synsema("run", "--audit", "json", "p.syn", cwd=tmp_path)
    records = [json.loads(line) for line in result.stderr.splitlines() if '"capability"' in line]
    memory = [(r["capability"], r["scope"], r["granted"], r["line"]) for r in records if r["capability"] == "memory"]
    assert memory == [("memory", "notes", True, 2), ("memory", "notes", True, 3)]
    denied = run_synsema("run", "--audit", "json", "--cap-set", "stdout,memory=other", "p.syn", cwd=tmp_path)
    assert denied.returncode == 1
    records = [json.loads(line) for line in denied.stderr.splitlines() if '"capability": "memory"' in line]
    assert [(r["scope"], r["granted"]) for r in records] == [("notes", False)]


def test_synsema_test_uses_the_same_memory_folder_as_run(tmp_path):
    """A test block is a run of the program: same folder rule (the host isolates with --memory-dir)."""
    write(tmp_path, "t.syn", 'require memory("tested")\n'
          'test "remembers"\n    remember("decision", "ship it")\n'
          '    assert_eq(recall("decision")[0].content, "ship it")\n')
    result = run_synsema("test", "t.syn", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert (tmp_path / ".synsema" / "memory" / "tested.db").is_file()


def test_the_example_remembers_across_runs(tmp_path):
    source = (ROOT / "examples" / "memory_agent.syn").read_text(encoding="utf-8")
    program = write(tmp_path, "memory_agent.syn", source)
    first = run_synsema("run", program, cwd=tmp_path)
    second = run_synsema("run", program, cwd=tmp_path)
    assert first.returncode == 0 and second.returncode == 0, first.stderr + second.stderr
    assert "run 1" in first.stdout and "run 2" in second.stdout
    assert run_synsema("test", program, cwd=tmp_path).returncode == 0


def test_eval_rows_in_parallel_processes_share_the_memory(tmp_path):
    write(tmp_path, "agent.syn", 'require memory("evals")\n'
          'task solve(n: number)\n    require memory("evals")\n'
          '    give remember("context", "row " + text(n), ["row"])\n')
    write(tmp_path, "rows.jsonl", "".join(f'{{"id": {i}, "n": {i}}}\n' for i in range(12)))
    result = run_synsema("eval", "agent.syn", "--data", "rows.jsonl", "--workers", "4", "--out", "out.jsonl",
                         cwd=tmp_path, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    rows = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert len(rows) == 12 and all(row["error"] is None for row in rows), rows
    write(tmp_path, "count.syn", 'require memory("evals")\nprint(length(recall("context", ["row"])))\n')
    assert run_synsema("run", "count.syn", cwd=tmp_path).stdout == "12\n"
