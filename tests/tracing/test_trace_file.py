"""`synsema run --trace FILE`: the run as one tree of spans in JSON lines (docs/tracing.md),
holding only what stdout could show."""

from __future__ import annotations

import json

from conftest import run_synsema, synsema_env
from llm.fakes import FakeServer

from .programs import AGENT, AGENT_PUBLIC, PLAINTEXT_SECRET, PRIVATE_BALANCE, agent_env, agent_replies


def _run_agent(tmp_path, *flags, **env):
    program = tmp_path / "agent.syn"
    program.write_text(AGENT if "--labels" in flags else AGENT_PUBLIC, encoding="utf-8")
    trace = tmp_path / "run.jsonl"
    with FakeServer() as server:
        agent_replies(server)
        done = run_synsema("run", "--trace", trace, *flags, program, cwd=tmp_path, env=agent_env(server, **env))
    assert done.returncode == 0, done.stderr
    return done, trace


def _records(trace) -> list[dict]:
    return [json.loads(line) for line in trace.read_text(encoding="utf-8").splitlines()]


def test_the_run_is_one_tree_of_model_and_tool_spans(tmp_path):
    done, trace = _run_agent(tmp_path, "--labels")
    assert done.stdout.splitlines() == ["owed: private(bank)", "Done: hello ada", "refused"]
    records = _records(trace)
    assert records[0]["type"] == "trace" and records[0]["version"] == 1
    assert len({r["trace"] for r in records}) == 1
    starts = [r for r in records if r["type"] == "span_start"]
    ends = {r["span"]: r for r in records if r["type"] == "span_end"}
    assert [s["name"] for s in starts] == ["invoke_agent agent.syn", "execute_tool balance", "chat gpt-4.1-mini",
                                           "execute_tool greet", "chat gpt-4.1-mini"]
    root = starts[0]
    assert root["parent"] is None and all(s["parent"] == root["span"] for s in starts[1:])
    assert set(ends) == {s["span"] for s in starts}
    first_chat, greet = starts[2], starts[3]
    assert first_chat["attrs"]["gen_ai.operation.name"] == "chat"
    assert first_chat["attrs"]["gen_ai.provider.name"] == "openai"
    assert first_chat["attrs"]["gen_ai.request.model"] == "gpt-4.1-mini"
    assert first_chat["attrs"]["server.address"] == "127.0.0.1"
    assert ends[first_chat["span"]]["attrs"]["gen_ai.response.finish_reasons"] == ["tool_calls"]
    assert ends[first_chat["span"]]["attrs"]["synsema.tokens"] == 48
    called = ends[first_chat["span"]]["attrs"]["synsema.llm.tool_calls"][0].split("#")[1]
    assert greet["attrs"]["gen_ai.tool.call.id"] == called   # the tool span names the call it answers
    assert ends[root["span"]]["status"] == "ok" and ends[root["span"]]["attrs"]["synsema.exit_code"] == 0
    denied = [r for r in records if r["type"] == "event" and r["name"] == "capability.denied"]
    assert len(denied) == 1 and denied[0]["span"] == root["span"]
    assert denied[0]["attrs"]["synsema.capability"] == "file.read"
    assert denied[0]["attrs"]["synsema.line"] == 19


def test_content_is_recorded_only_on_opt_in_and_then_redacted(tmp_path):
    _, plain = _run_agent(tmp_path)
    assert "gen_ai.input.messages" not in plain.read_text() and "gen_ai.tool.call.arguments" not in plain.read_text()
    _, captured = _run_agent(tmp_path, "--labels", OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT="true")
    text = captured.read_text(encoding="utf-8")
    records = _records(captured)
    results = [r["attrs"].get("gen_ai.tool.call.result") for r in records if r["type"] == "span_end"]
    assert "private(bank)" in results and "hello ada" in results
    assert any(r["attrs"].get("gen_ai.tool.call.arguments") == '{name: "ada"}' for r in records
               if r["type"] == "span_start")
    # the run made a private value before its model calls: their content is not recorded at all
    assert "gen_ai.input.messages" not in text
    assert PLAINTEXT_SECRET not in text and str(PRIVATE_BALANCE) not in text


def test_message_content_of_a_run_without_private_data_shows_secrets_redacted(tmp_path):
    _, captured = _run_agent(tmp_path, OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT="true")
    text = captured.read_text(encoding="utf-8")
    chats = [r for r in _records(captured) if r["type"] == "span_start" and r["op"] == "chat"]
    assert "Key: secret(API_KEY)" in chats[0]["attrs"]["gen_ai.input.messages"]
    assert PLAINTEXT_SECRET not in text


def test_a_label_violation_and_the_failed_run_are_recorded(tmp_path):
    program = tmp_path / "leak.syn"
    program.write_text('let s be private(41, "bank")\nwhen s > 40\n    print("big")\n', encoding="utf-8")
    trace = tmp_path / "leak.jsonl"
    done = run_synsema("run", "--labels", "--trace", trace, program, cwd=tmp_path)
    assert done.returncode == 1 and "label_violation" in done.stderr
    records = _records(trace)
    violation = [r for r in records if r["type"] == "event" and r["name"] == "label.violation"]
    assert len(violation) == 1 and violation[0]["attrs"] == {"synsema.file": str(program), "synsema.line": 3}
    end = [r for r in records if r["type"] == "span_end"][-1]
    assert end["status"] == "error" and "label_violation" in end["error"]


def test_no_trace_flag_no_file_and_bad_paths_are_usage_errors(tmp_path):
    program = tmp_path / "p.syn"
    program.write_text('print("hi")\n', encoding="utf-8")
    assert run_synsema("run", program, cwd=tmp_path).stdout == "hi\n"
    assert list(tmp_path.iterdir()) == [program]
    missing = run_synsema("run", "--trace", tmp_path / "no" / "such" / "t.jsonl", program, cwd=tmp_path)
    assert missing.returncode == 2 and "--trace: cannot write" in missing.stderr
    over = run_synsema("run", "--trace", program, program, cwd=tmp_path)
    assert over.returncode == 2 and program.read_text() == 'print("hi")\n'
    dangling = run_synsema("run", program, "--trace", cwd=tmp_path, env=synsema_env())
    assert dangling.returncode == 2 and "--trace needs a value" in dangling.stderr


def test_retries_and_a_budget_stop_are_events_of_their_spans(tmp_path):
    from llm.fakes import openai_error, openai_text
    program = tmp_path / "ask.syn"
    program.write_text('require llm\nprint(llm_step("one", [], nothing)["text"])\n'
                       'print(llm_step("two", [], nothing)["text"])\n', encoding="utf-8")
    trace = tmp_path / "ask.jsonl"
    with FakeServer() as server:
        server.reply(openai_error("busy"), status=503, headers={"retry-after": "0"})
        server.reply(openai_text("first", prompt=300, completion=20))
        done = run_synsema("run", "--trace", trace, program, cwd=tmp_path,
                           env=agent_env(server, SYNSEMA_LLM_BUDGET="100"))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["first", "[llm budget exceeded: used 320 of 100 tokens]"]
    records = _records(trace)
    chat = next(r for r in records if r["type"] == "span_start" and r["op"] == "chat")
    retry = [r for r in records if r["type"] == "event" and r["name"] == "llm.retry"]
    assert len(retry) == 1 and retry[0]["span"] == chat["span"]
    assert retry[0]["attrs"]["http.response.status_code"] == 503 and retry[0]["attrs"]["synsema.attempt"] == 1
    budget = [r for r in records if r["type"] == "event" and r["name"] == "llm.budget_exceeded"]
    assert len(budget) == 1 and budget[0]["attrs"] == {"synsema.tokens": 320, "synsema.budget": 100}


def test_cost_comes_from_the_price_table_or_the_hosts_prices(tmp_path):
    from llm.fakes import openai_text
    program = tmp_path / "cost.syn"
    program.write_text('require llm\nlet a be llm_step("hi", [], nothing)\nprint(llm_usage(), llm_usage("cost"))\n',
                       encoding="utf-8")
    shown = []
    for extra in ({}, {"SYNSEMA_LLM_PRICES": "gpt-4.1-mini=1/2"}, {"SYNSEMA_LLM_MODEL": "unknown-model"}):
        trace = tmp_path / "cost.jsonl"
        with FakeServer() as server:
            server.reply(openai_text("hello", prompt=1000, completion=500))
            env = {**agent_env(server), **extra}
            done = run_synsema("run", "--trace", trace, program, cwd=tmp_path, env=env)
        assert done.returncode == 0, done.stderr
        shown.append(done.stdout.strip())
        chat_end = [r for r in _records(trace) if r["type"] == "span_end"][0]
        assert chat_end["attrs"]["gen_ai.usage.input_tokens"] == 1000
        assert chat_end["attrs"]["gen_ai.usage.output_tokens"] == 500
    # gpt-4.1-mini's table price ($0.40 / $1.60 per million), the host's ($1 / $2), and no price
    assert shown == ["1500 0.0012", "1500 0.002", "1500 nothing"]
    bad = run_synsema("run", program, cwd=tmp_path, env=synsema_env(SYNSEMA_LLM_PRICES="gpt=cheap"))
    assert bad.returncode != 0 and "SYNSEMA_LLM_PRICES" in bad.stderr and "MODEL=IN/OUT" in bad.stderr
