"""`synsema eval`: a task over a dataset's rows, each row isolated in its own process, scored,
one RESULTS line per row, resumable after a kill at any moment (the real CLI in a subprocess)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from conftest import ROOT, run_synsema, synsema_env
from llm.fakes import FakeServer, openai_text

ARITHMETIC = ROOT / "examples" / "eval" / "arithmetic.syn"


def _results(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _by_row(path) -> dict[str, dict]:
    return {record["row"]: record for record in _results(path)}


def _write(path, text: str):
    path.write_text(text, encoding="utf-8")
    return path


def test_each_row_is_called_checked_scored_and_written_once(tmp_path):
    out = tmp_path / "results.jsonl"
    example = (ROOT / "examples" / "eval" / "arithmetic.jsonl").read_text(encoding="utf-8")
    data = _write(tmp_path / "d.jsonl", example + '{"id": "text", "a": "two", "b": 2, "expected": 4}\n')
    done = run_synsema("eval", ARITHMETIC, "--data", data, "--workers", "2", "--out", out, cwd=tmp_path)
    assert done.returncode == 1, done.stderr            # the row "text" errored
    assert "1 of 5 rows errored" in done.stderr
    rows = _by_row(out)
    assert sorted(rows) == ["negative", "off", "small", "text", "zero"]
    assert rows["small"]["output"] == "3" and rows["small"]["scores"] == {"score_close": 1, "score_exact": True}
    assert rows["small"]["arguments"] == {"a": 1, "b": 2, "expected": 3}
    assert rows["off"]["scores"] == {"score_close": 0, "score_exact": False} and rows["off"]["error"] is None
    assert rows["text"]["error"] == {"kind": "rejected", "message": "eval(solve): 'a' must be number, got text"}
    for record in rows.values():
        assert set(record) == {"row", "arguments", "output", "scores", "error", "tokens", "duration", "trace"}
        assert record["tokens"] == {"input": 0, "output": 0} and record["duration"] > 0
        first = json.loads((tmp_path / record["trace"]).read_text().splitlines()[0])
        assert first["type"] == "trace"                  # the row's own trace, beside RESULTS
    assert done.stdout.splitlines()[0] == "5 rows: 3 passed, 1 failed, 1 errored"
    assert "score score_exact: mean 0.75 over 4 rows" in done.stdout
    assert "duration per row: p50" in done.stdout


def test_csv_cells_become_the_declared_types(tmp_path):
    out = tmp_path / "r.jsonl"
    done = run_synsema("eval", ARITHMETIC, "--data", ROOT / "examples" / "eval" / "arithmetic.csv",
                       "--out", out, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    rows = _by_row(out)
    assert rows["half"]["arguments"] == {"a": 0.5, "b": 0.25, "expected": 0.75}
    assert rows["half"]["scores"]["score_exact"] is True


BAD_ROWS = '''require stdout, time

task answer(n: number)
    when n == 2
        while true
            let spin be 1
    when n == 3 and private(100, "hr") > 50
        print("a public line under private control flow")
    when n == 4
        give 1 / 0
    print(`row {n}`)
    give n * 10
'''


def test_bad_rows_are_error_lines_and_the_eval_goes_on(tmp_path):
    program = _write(tmp_path / "bad.syn", BAD_ROWS)
    data = _write(tmp_path / "data.jsonl", '{"n": 1}\nnot json\n{"n": 2}\n{"n": 3}\n{"n": 4}\n'
                                           '{"m": 5}\n[1]\n{"n": 6}\n')
    out = tmp_path / "r.jsonl"
    done = run_synsema("eval", "--labels", "--time-limit", "2", program, "--data", data, "--workers", "2",
                       "--out", out, cwd=tmp_path)
    assert done.returncode == 1
    assert "6 of 8 rows errored" in done.stderr
    rows = _by_row(out)
    kinds = {row: (record["error"] or {}).get("kind") for row, record in rows.items()}
    assert kinds == {"1": None, "2": "malformed_row", "3": "time_limit", "4": "label_violation",
                     "5": "runtime", "6": "rejected", "7": "malformed_row", "8": None}
    assert rows["1"]["output"] == "10" and rows["8"]["output"] == "60"
    assert "private control flow" in rows["4"]["error"]["message"]
    assert "division by zero" in rows["5"]["error"]["message"].lower()


def test_unknown_task_or_unreadable_data_is_a_usage_error(tmp_path):
    data = _write(tmp_path / "d.jsonl", '{"a": 1, "b": 2}\n')
    unknown = run_synsema("eval", ARITHMETIC, "--data", data, "--task", "nope", cwd=tmp_path)
    assert unknown.returncode == 2 and "no top-level task named nope" in unknown.stderr
    missing = run_synsema("eval", ARITHMETIC, "--data", tmp_path / "absent.jsonl", cwd=tmp_path)
    assert missing.returncode == 2 and "cannot read it" in missing.stderr
    no_data = run_synsema("eval", ARITHMETIC, cwd=tmp_path)
    assert no_data.returncode == 2 and "--data" in no_data.stderr
    assert not (tmp_path / "results.jsonl").exists()


SLOW = '''require time

task slow(n: number)
    require time
    sleep(0.3)
    give n
'''


def test_a_killed_eval_resumed_loses_nothing_and_repeats_nothing(tmp_path):
    program = _write(tmp_path / "slow.syn", SLOW)
    data = _write(tmp_path / "d.jsonl", "".join(f'{{"n": {n}}}\n' for n in range(12)))
    out = tmp_path / "r.jsonl"
    command = [sys.executable, "-m", "synsema", "eval", str(program), "--data", str(data), "--out", str(out),
               "--workers", "2"]
    first = subprocess.Popen(command, cwd=tmp_path, env=synsema_env(), stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not out.exists() or len(out.read_bytes().splitlines()) < 3):
        time.sleep(0.02)
    os.killpg(first.pid, signal.SIGKILL)                    # the eval and every row's process
    first.wait()
    before = _results(out)
    assert 3 <= len(before) < 12
    with open(out, "ab") as handle:                         # a write cut in its middle
        handle.write(b'{"row": "11", "arguments"')
    resumed = run_synsema("eval", program, "--data", data, "--out", out, "--workers", "2", "--resume",
                          cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    after = _results(out)
    assert after[:len(before)] == before                    # nothing lost
    assert sorted(int(r["row"]) for r in after) == list(range(1, 13))   # nothing repeated
    assert all(r["output"] == str(int(r["row"]) - 1) for r in after)
    assert resumed.stdout.startswith("12 rows: 12 passed")
    again = run_synsema("eval", program, "--data", data, "--out", out, "--resume", cwd=tmp_path)
    assert again.returncode == 0 and _results(out) == after  # nothing left to run


AUDITED = '''require stdout, file.read("data")

task peek(path: text)
    require file.read("data")
    give length(read_file(path))
'''


def test_one_audit_log_tags_each_rows_records_with_its_id(tmp_path):
    program = _write(tmp_path / "peek.syn", AUDITED)
    (tmp_path / "data").mkdir()
    _write(tmp_path / "data" / "in.txt", "four")
    data = _write(tmp_path / "d.jsonl", '{"id": "ok", "path": "data/in.txt"}\n{"id": "no", "path": "/etc/hostname"}\n')
    audit, out = tmp_path / "audit.jsonl", tmp_path / "r.jsonl"
    done = run_synsema("eval", "--cap-set", "stdout,file.read", "--audit", audit, program,
                       "--data", data, "--out", out, cwd=tmp_path)
    assert done.returncode == 1
    rows = _by_row(out)
    assert rows["ok"]["output"] == "4" and "not granted" in rows["no"]["error"]["message"]
    records = [json.loads(line) for line in audit.read_text().splitlines()]
    run_ids = {record["run"] for record in records}
    assert len(run_ids) == 1                                 # one log, one run
    checks = [record for record in records if "capability" in record]
    assert {(r["row"], r["granted"]) for r in checks if r["capability"] == "file.read"} >= {("ok", True), ("no", False)}
    assert records[-1]["summary"]["exit"] == 1 and records[-1]["summary"]["records"] == len(records) - 2


ASKING = '''require llm

task answer(question: text)
    require llm
    give llm_step(question, [], nothing)["text"]

task score_said_paris(output)
    give contains(output, "Paris")
'''


def test_model_rows_count_tokens_share_one_budget_and_replay_from_a_cassette(tmp_path):
    program = _write(tmp_path / "ask.syn", ASKING)
    data = _write(tmp_path / "d.jsonl", '{"question": "capital of France?"}\n{"question": "and of Italy?"}\n'
                                        '{"question": "and of Spain?"}\n')
    cassette, out = tmp_path / "c.jsonl", tmp_path / "r.jsonl"
    with FakeServer() as server:
        for answer in ("Paris", "Rome", "Madrid"):
            server.reply(openai_text(answer, prompt=20, completion=5))
        env = synsema_env(SYNSEMA_LLM_PROVIDER="record", SYNSEMA_LLM_RECORD_PROVIDER="openai",
                          SYNSEMA_LLM_BASE_URL=server.url + "/v1", OPENAI_API_KEY="k", SYNSEMA_LLM_MODEL="m",
                          SYNSEMA_LLM_CASSETTE=str(cassette), SYNSEMA_LLM_BUDGET="50")
        done = run_synsema("eval", program, "--data", data, "--out", out, cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stderr
    rows = _by_row(out)
    assert rows["1"]["output"] == "Paris" and rows["1"]["scores"] == {"score_said_paris": True}
    assert rows["1"]["tokens"] == {"input": 20, "output": 5} and rows["2"]["tokens"] == {"input": 20, "output": 5}
    assert "budget exceeded" in rows["3"]["output"] and len(server.requests) == 2  # 50 tokens: two rows
    assert "tokens: 40 input, 10 output" in done.stdout
    replayed = tmp_path / "replayed.jsonl"
    again = run_synsema("eval", program, "--data", data, "--out", replayed, "--limit", "2", "--workers", "2",
                        cwd=tmp_path, env=synsema_env(SYNSEMA_LLM_PROVIDER="replay", SYNSEMA_LLM_CASSETTE=str(cassette)))
    assert again.returncode == 0, again.stderr
    assert {r: rec["output"] for r, rec in _by_row(replayed).items()} == {"1": "Paris", "2": "Rome"}


def test_results_open_in_view_with_a_link_to_each_rows_trace(tmp_path):
    out = tmp_path / "results.jsonl"
    run_synsema("eval", ARITHMETIC, "--data", ROOT / "examples" / "eval" / "arithmetic.csv", "--out", out,
                cwd=tmp_path)
    viewed = run_synsema("view", out, cwd=tmp_path)
    assert viewed.returncode == 0, viewed.stderr
    assert (tmp_path / "results.jsonl.traces" / "row-small.html").exists()
    assert '"trace_page": "results.jsonl.traces/row-small.html"' in (tmp_path / "results.html").read_text()


def test_ray_engine_gives_the_local_engines_results_row_for_row(tmp_path):
    data = ROOT / "examples" / "eval" / "arithmetic.jsonl"
    local, on_ray = tmp_path / "local.jsonl", tmp_path / "ray.jsonl"
    assert run_synsema("eval", ARITHMETIC, "--data", data, "--out", local, cwd=tmp_path).returncode == 0
    env = {k: v for k, v in synsema_env().items() if k != "RAY_ADDRESS"}
    done = run_synsema("eval", ARITHMETIC, "--data", data, "--engine", "ray", "--workers", "2", "--out", on_ray,
                       cwd=tmp_path, env=env, timeout=300)
    if done.returncode == 2 and "cannot start a local Ray" in done.stderr:
        pytest.skip(done.stderr)
    assert done.returncode == 0, done.stderr

    def comparable(path):
        return {row: {k: v for k, v in record.items() if k != "duration"} for row, record in _by_row(path).items()}
    assert comparable(on_ray) == {row: {**record, "trace": record["trace"].replace("local.jsonl", "ray.jsonl")}
                                  for row, record in comparable(local).items()}
    for record in _results(on_ray):                          # each row's trace came back from its worker
        assert json.loads((tmp_path / record["trace"]).read_text().splitlines()[0])["type"] == "trace"


SCORED = '''task double(n: number)
    give n * 2

task score_even(output)
    give output % 2 == 0

task score_named(output, label: text)
    give `{label}: {output}`
'''


def test_score_names_the_scorers_and_a_scorer_must_give_a_number_or_a_bool(tmp_path):
    program = _write(tmp_path / "s.syn", SCORED)
    data = _write(tmp_path / "d.jsonl", '{"n": 2, "label": "x"}\n')
    only = run_synsema("eval", program, "--data", data, "--score", "score_even", "--task", "double",
                       "--out", tmp_path / "a.jsonl", cwd=tmp_path)
    assert only.returncode == 1                              # `label` is declared by no chosen scorer
    assert _results(tmp_path / "a.jsonl")[0]["error"]["kind"] == "rejected"
    both = run_synsema("eval", program, "--data", data, "--task", "double", "--out", tmp_path / "b.jsonl",
                       cwd=tmp_path)
    record = _results(tmp_path / "b.jsonl")[0]
    assert both.returncode == 1 and record["error"]["kind"] == "scorer" and record["output"] == "4"
    assert "score_named gave x: 4" in record["error"]["message"]
    unknown = run_synsema("eval", program, "--data", data, "--score", "score_odd", cwd=tmp_path)
    assert unknown.returncode == 2 and "no task named score_odd" in unknown.stderr
    ambiguous = run_synsema("eval", _write(tmp_path / "two.syn", "task a(x)\n    give x\n\ntask b(x)\n    give x\n"),
                            "--data", data, cwd=tmp_path)
    assert ambiguous.returncode == 2 and "--task NAME (the program's tasks: a, b)" in ambiguous.stderr


def test_a_progress_line_on_a_terminal_and_none_in_a_pipe(tmp_path):
    import pty
    data = ROOT / "examples" / "eval" / "arithmetic.jsonl"
    primary, secondary = pty.openpty()
    done = subprocess.run([sys.executable, "-m", "synsema", "eval", str(ARITHMETIC), "--data", str(data),
                           "--out", str(tmp_path / "r.jsonl")], cwd=tmp_path, env=synsema_env(),
                          stdout=subprocess.PIPE, stderr=secondary, timeout=120)
    os.close(secondary)
    shown = b""
    while True:
        try:
            chunk = os.read(primary, 4096)
        except OSError:
            break
        if not chunk:
            break
        shown += chunk
    os.close(primary)
    assert done.returncode == 0
    assert b"eval: 1/4 rows, 0 errored" in shown and b"eval: 4/4 rows, 0 errored" in shown
    piped = run_synsema("eval", ARITHMETIC, "--data", data, "--out", tmp_path / "p.jsonl", cwd=tmp_path)
    assert piped.returncode == 0 and piped.stderr == ""
