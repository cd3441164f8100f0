"""llm_stream: server-sent events on both APIs (events built from the SDKs' chunk and event
models), on_chunk per piece, the whole text returned; offline and replay deterministic."""

import json

import pytest

from synsema.lang.errors import SynError
from synsema.runtime.llm.stream import llm_stream
from synsema.stdlib import llm as llm_builtins

from .fakes import FakeServer, anthropic_stream, openai_error, openai_stream, openai_text
from .test_cli_programs import synsema


def collect(prompt="Tell me a story", context=""):
    pieces = []
    text = llm_stream(prompt, context, pieces.append)
    return text, pieces


def test_offline_one_piece_the_placeholder(llm_env):
    assert collect() == ("[no llm provider]", ["[no llm provider]"])


def test_openai_streams_each_delta_and_counts_the_usage(openai_server):
    from synsema.runtime.llm import session
    openai_server.stream(openai_stream(["Once", " upon", " a time."], prompt=11, completion=4))
    assert collect() == ("Once upon a time.", ["Once", " upon", " a time."])
    body = openai_server.bodies()[0]
    assert body["stream"] is True and body["stream_options"] == {"include_usage": True} and "tools" not in body
    assert {k.lower(): v for k, v in openai_server.requests[0]["headers"].items()}["accept"] == "text/event-stream"
    assert session.used_tokens() == 15


def test_anthropic_streams_text_deltas_and_counts_the_usage(anthropic_server):
    from synsema.runtime.llm import session
    anthropic_server.stream(anthropic_stream(["Hel", "lo", "!"], input_tokens=12, output_tokens=3))
    assert collect() == ("Hello!", ["Hel", "lo", "!"])
    assert anthropic_server.bodies()[0]["stream"] is True
    assert session.used_tokens() == 15


def test_a_think_block_in_the_stream_is_never_a_piece(openai_server):
    openai_server.stream(openai_stream(["<thi", "nk>plan: be", " brief</think>", "\n\n", "Hi", " there"]))
    assert collect() == ("Hi there", ["Hi", " there"])


def test_text_that_only_looks_like_the_start_of_a_think_block_is_passed_on(openai_server):
    openai_server.stream(openai_stream(["<", "b>bold</b>"]))
    assert collect() == ("<b>bold</b>", ["<b>bold</b>"])


def test_a_stream_cut_off_before_any_text_ends_in_the_invalid_message(anthropic_server):
    anthropic_server.stream(anthropic_stream([], stop_reason="max_tokens"))
    text, pieces = collect()
    assert text == pieces[-1] and text.startswith("[invalid model reply: the token limit cut the reply off")


def test_an_error_event_is_a_provider_error(anthropic_server):
    events = anthropic_stream(["Hel"])[:3] + ['event: error\ndata: {"type": "error", "error": '
                                              '{"type": "overloaded_error", "message": "Overloaded"}}\n\n']
    anthropic_server.stream(events)
    with pytest.raises(SynError, match=r"llm provider anthropic: the answer \(HTTP 200\) is an error: Overloaded"):
        collect()


def test_a_json_error_answer_instead_of_a_stream_is_a_provider_error(openai_server):
    openai_server.reply(openai_error("No endpoints found"))
    with pytest.raises(SynError, match="is an error: No endpoints found"):
        collect()


def test_an_error_status_is_retried_before_the_stream_starts(openai_server):
    openai_server.reply(openai_error("busy"), status=503, headers={"retry-after": "0"})
    openai_server.stream(openai_stream(["ok"]))
    assert collect() == ("ok", ["ok"])


def test_a_conversation_context_streams_too(openai_server, rt):
    openai_server.stream(openai_stream(["Paris"]))
    collect("Capital?", [{"kind": "final", "text": "Lyon", "tokens": 1}, "No."])
    assert [m["role"] for m in openai_server.bodies()[0]["messages"]] == ["system", "user", "assistant", "user"]


def test_past_the_budget_one_piece_the_budget_message(llm_env):
    with FakeServer() as server:
        llm_env(SYNSEMA_LLM_PROVIDER="openai", SYNSEMA_LLM_BASE_URL=server.url + "/v1", SYNSEMA_LLM_BUDGET="0")
        assert collect() == ("[llm budget exceeded: used 0 of 0 tokens]", ["[llm budget exceeded: used 0 of 0 tokens]"])
        assert server.requests == []


def test_record_then_replay_gives_the_same_pieces(llm_env, tmp_path):
    cassette = tmp_path / "s.jsonl"
    with FakeServer() as server:
        server.stream(openai_stream(["a", "b", "c"]))
        llm_env(SYNSEMA_LLM_PROVIDER="record", SYNSEMA_LLM_CASSETTE=str(cassette), OPENAI_API_KEY="k",
                SYNSEMA_LLM_BASE_URL=server.url + "/v1")
        recorded = collect()
    llm_env(SYNSEMA_LLM_PROVIDER="replay", OPENAI_API_KEY="", SYNSEMA_LLM_BASE_URL="")
    assert collect() == recorded == ("abc", ["a", "b", "c"])
    reply = json.loads(cassette.read_text().splitlines()[1])["reply"]
    assert reply["chunks"] == ["a", "b", "c"] and reply["text"] == "abc"


def test_the_builtin_checks_its_callback_and_the_capability(llm_env, rt):
    with pytest.raises(SynError, match="llm_stream expects a task or lambda as on_chunk, got text"):
        llm_builtins.llm_stream(rt, "hi", "", "print")
    assert rt.checked == [("llm", None)]


def test_llm_stream_through_the_cli_prints_as_it_goes(tmp_path):
    program = tmp_path / "stream.syn"
    program.write_text('require llm\nlet pieces be []\n'
                       'task keep(piece)\n    print("piece: " + piece)\n'
                       'let whole be llm_stream("Tell me a story", "", keep)\nprint("whole: " + whole)\n')
    offline = synsema(["run", str(program)])
    assert offline.stdout.splitlines() == ["piece: [no llm provider]", "whole: [no llm provider]"]
    with FakeServer() as server:
        server.stream(anthropic_stream(["Once", " upon"]))
        done = synsema(["run", str(program)], {"SYNSEMA_LLM_PROVIDER": "anthropic", "ANTHROPIC_API_KEY": "k",
                                               "ANTHROPIC_BASE_URL": server.url})
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["piece: Once", "piece:  upon", "whole: Once upon"]


def test_a_failing_callback_stops_the_stream_with_its_error(tmp_path):
    program = tmp_path / "stream.syn"
    program.write_text('require llm\ntry\n    llm_stream("hi", "", (piece) => piece + nothing)\n'
                       'recover err\n    print("caught: " + err)\n')
    with FakeServer() as server:
        server.stream(openai_stream(["a", "b"]))
        done = synsema(["run", str(program)], {"SYNSEMA_LLM_PROVIDER": "openai", "OPENAI_BASE_URL": server.url + "/v1"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("caught: Cannot add text and nothing")


def test_a_whole_json_answer_to_a_stream_request_ends_in_the_invalid_message(openai_server):
    openai_server.reply(openai_text("whole"))  # a JSON answer, not an event stream
    text, pieces = collect()
    assert text == pieces[-1] and text.startswith("[invalid model reply:")


def test_under_labels_a_private_prompt_needs_the_host_s_llm_item(tmp_path):
    program = tmp_path / "private.syn"
    program.write_text('require llm\nlet p be private("plan", "bank")\n'
                       'let s be llm_stream(p, "", (piece) => nothing)\nprint("after")\n')
    done = synsema(["run", "--labels", str(program)])
    assert done.returncode == 1 and "after" not in done.stdout
    assert "label_violation: llm_stream() would send data private to bank" in done.stderr
