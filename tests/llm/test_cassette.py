"""Record against the fake server, then replay without it; misses are errors that name the request."""

import json

import pytest

from synsema.lang.errors import SynError
from synsema.runtime.llm import session
from synsema.runtime.llm.expressions import evaluate
from synsema.runtime.llm.step import llm_step

from .fakes import FakeServer, openai_text, openai_tool_call

ADD = [{"name": "add", "describe": "Add two numbers", "params": ["a: number", "b: number"], "optional": ["b"]}]


def record_then_replay(llm_env, tmp_path, script, run):
    """Run `run()` recording against a fake server answering `script`, then again replaying."""
    cassette = tmp_path / "agent.cassette.jsonl"
    with FakeServer() as server:
        for answer in script:
            server.reply(answer)
        llm_env(SYNSEMA_LLM_PROVIDER="record", SYNSEMA_LLM_CASSETTE=str(cassette), OPENAI_API_KEY="sk-rec",
                SYNSEMA_LLM_BASE_URL=server.url + "/v1")
        recorded = run()
    llm_env(SYNSEMA_LLM_PROVIDER="replay", OPENAI_API_KEY="", SYNSEMA_LLM_BASE_URL="")
    replayed = run()
    return cassette, recorded, replayed


def test_a_recorded_loop_replays_identically_without_the_server(llm_env, tmp_path):
    script = [openai_tool_call("add", '{"a": "2", "b": "3"}'), openai_tool_call("add", '{"a": 2,'),
              openai_text("The sum is 5.")]

    def run():
        return [llm_step("What is 2 plus 3?", ADD, ""), llm_step("What is 2 plus 3?", ADD, " [add => 5]"),
                llm_step("What is 2 plus 3?", ADD, " [add => 5] [add => 5]"), session.used_tokens()]

    cassette, recorded, replayed = record_then_replay(llm_env, tmp_path, script, run)
    assert recorded == replayed
    assert recorded[0]["args"] == {"a": 2, "b": 3}
    assert recorded[1]["text"].startswith("[invalid model reply:")
    assert recorded[2]["text"] == "The sum is 5." and recorded[3] == 75
    lines = [json.loads(line) for line in cassette.read_text().splitlines()]
    assert "scripted model replies" in lines[0]["note"].lower() and len(lines) == 4
    # the cassette keeps the model's raw arguments: conversion happens again on replay
    assert lines[1]["reply"] == {"kind": "tool", "calls": [{"id": "call_1", "name": "add", "args": {"a": "2", "b": "3"}}],
                                 "tokens": 25, "usage": {"input": 20, "output": 5, "cache_read": 0, "cache_write": 0},
                                 "model": "fake-model", "id": "chatcmpl-fake"}
    assert "sk-rec" not in cassette.read_text()


def test_expression_forms_record_and_replay(llm_env, tmp_path):
    script = [openai_text("It will rain."), openai_tool_call("choose", '{"choice": "umbrella"}')]

    def run():
        return [evaluate(None, "reason", "the clouds", None, None, {}),
                evaluate(None, "decide", ["umbrella", "sunglasses"], "dark clouds", None, {})]

    _, recorded, replayed = record_then_replay(llm_env, tmp_path, script, run)
    assert recorded == replayed == ["It will rain.", "umbrella"]


def replay_miss(llm_env, cassette, prompt, catalog, context) -> str:
    """The message of the miss `llm_step` meets replaying from an empty `cassette`."""
    cassette.write_text("")
    llm_env(SYNSEMA_LLM_PROVIDER="replay", SYNSEMA_LLM_CASSETTE=str(cassette))
    with pytest.raises(SynError) as raised:
        llm_step(prompt, catalog, context)
    return raised.value.message


def test_a_miss_is_an_error_naming_the_request(llm_env, tmp_path):
    cassette = tmp_path / "empty.jsonl"
    message = replay_miss(llm_env, cassette, "What is 2 plus 3?", ADD, " [add => 5]")
    assert message.startswith('replay: no recorded reply for llm_step "What is 2 plus 3?" with context "[add => 5]" '
                              "(request key ")
    assert str(cassette) in message and "SYNSEMA_LLM_PROVIDER=record" in message


def test_replies_to_the_same_request_are_served_in_order_then_the_last_repeats(llm_env, tmp_path):
    cassette = tmp_path / "c.jsonl"
    with FakeServer() as server:
        server.reply(openai_text("first")).reply(openai_text("second"))
        llm_env(SYNSEMA_LLM_PROVIDER="record", SYNSEMA_LLM_CASSETTE=str(cassette), OPENAI_API_KEY="k",
                SYNSEMA_LLM_BASE_URL=server.url + "/v1")
        llm_step("same", [], "")
        llm_step("same", [], "")
    llm_env(SYNSEMA_LLM_PROVIDER="replay", OPENAI_API_KEY="")
    assert [llm_step("same", [], "")["text"] for _ in range(3)] == ["first", "second", "second"]


def test_recording_appends_to_an_existing_cassette(llm_env, tmp_path):
    cassette = tmp_path / "c.jsonl"
    for answer in ("one", "two"):
        with FakeServer() as server:
            server.reply(openai_text(answer))
            llm_env(SYNSEMA_LLM_PROVIDER="record", SYNSEMA_LLM_CASSETTE=str(cassette), OPENAI_API_KEY="k",
                    SYNSEMA_LLM_BASE_URL=server.url + "/v1")
            llm_step(answer, [], "")
    lines = cassette.read_text().splitlines()
    assert len(lines) == 3 and "synsema_cassette" in lines[0]


HELLO = {"op": "step", "prompt": "hello", "context": "", "tools": [], "force": None}


def test_a_hand_written_line_needs_no_key(llm_env, tmp_path):
    cassette = tmp_path / "c.jsonl"
    cassette.write_text(json.dumps({"request": HELLO, "reply": {"kind": "text", "text": "hi!", "tokens": 3}}) + "\n")
    llm_env(SYNSEMA_LLM_PROVIDER="replay", SYNSEMA_LLM_CASSETTE=str(cassette))
    assert llm_step("hello", [], "") == {"kind": "final", "text": "hi!", "tokens": 3}


def test_a_key_that_is_not_its_request_s_hash_is_refused_with_the_right_one(llm_env, tmp_path):
    """Decision: `key` is optional, but one that is written must be true — a request edited after
    recording (or a key typed by hand) is reported, not silently ignored."""
    from synsema.runtime.llm.exchange import Ask
    right = Ask.from_json(HELLO).key()
    cassette = tmp_path / "c.jsonl"
    line = {"key": "stale", "request": HELLO, "reply": {"kind": "text", "text": "hi!", "tokens": 3}}
    cassette.write_text(json.dumps(line) + "\n")
    llm_env(SYNSEMA_LLM_PROVIDER="replay", SYNSEMA_LLM_CASSETTE=str(cassette))
    with pytest.raises(SynError) as raised:
        llm_step("hello", [], "")
    assert raised.value.message == (f'cassette {cassette} line 1: its key "stale" is not the key of its request, '
                                    f"{right} (was the request edited?); the key is optional: delete it, or "
                                    f"write {right}")
    cassette.write_text(json.dumps({**line, "key": right}) + "\n")
    assert llm_step("hello", [], "")["text"] == "hi!"


def test_a_miss_writes_the_line_that_would_answer_it_next_to_the_cassette(llm_env, tmp_path):
    cassette = tmp_path / "c.jsonl"
    message = replay_miss(llm_env, cassette, "What is 2 plus 3?", ADD, "")
    side = tmp_path / "c.missing.jsonl"
    assert f"the line to add, with the reply you want, is in {side}: " in message
    entry = json.loads(side.read_text(encoding="utf-8"))
    assert entry["request"]["prompt"] == "What is 2 plus 3?" and entry["request"]["tools"][0]["name"] == "add"
    entry["reply"] = {"kind": "tool", "calls": [{"id": "c1", "name": "add", "args": {"a": 2, "b": 3}}]}
    cassette.write_text(json.dumps(entry) + "\n")
    llm_env(SYNSEMA_LLM_PROVIDER="replay", SYNSEMA_LLM_CASSETTE=str(cassette))  # read the cassette again
    assert llm_step("What is 2 plus 3?", ADD, "")["args"] == {"a": 2, "b": 3}


def test_a_miss_on_a_long_request_shows_a_prefix_and_writes_the_whole_line(llm_env, tmp_path):
    """Issue 26: an agent with two math tools passed the old 2,000-character cut on its second
    request; the side file holds the whole line, whatever its length."""
    from synsema.runtime.llm.cassette import SHOWN_PREFIX
    message = replay_miss(llm_env, tmp_path / "c.jsonl", "word " * 5000, [], "")
    shown = message.split("c.missing.jsonl: ", 1)[1].split("…", 1)[0]
    assert len(shown) == SHOWN_PREFIX
    line = (tmp_path / "c.missing.jsonl").read_text(encoding="utf-8")
    assert line.startswith(shown) and line.endswith("\n") and len(line) > 25000
    assert json.loads(line)["request"]["prompt"] == "word " * 5000


def test_the_first_miss_of_a_run_replaces_the_side_file_and_later_ones_add_to_it(llm_env, tmp_path):
    cassette = tmp_path / "c.jsonl"
    side = tmp_path / "c.missing.jsonl"
    side.write_text("left by an earlier run\n")
    cassette.write_text("")
    llm_env(SYNSEMA_LLM_PROVIDER="replay", SYNSEMA_LLM_CASSETTE=str(cassette))
    for prompt in ("one", "two"):
        with pytest.raises(SynError):
            llm_step(prompt, [], "")
    assert [json.loads(line)["request"]["prompt"] for line in side.read_text().splitlines()] == ["one", "two"]


@pytest.mark.parametrize("content, fragment", [
    ("{not json\n", "line 1 is not JSON"),
    ('{"key": "k", "request": {"op": "step"}, "reply": {"kind": "text", "text": "x"}}\n',
     "line 1 is not an exchange"),
    ('{"key": "k", "request": {"op": "step", "prompt": "p", "context": "", "tools": [], "force": null}, '
     '"reply": {"kind": "final"}}\n', "line 1 is not an exchange"),
])
def test_a_broken_cassette_is_an_error_with_its_line(llm_env, tmp_path, content, fragment):
    cassette = tmp_path / "c.jsonl"
    cassette.write_text(content)
    llm_env(SYNSEMA_LLM_PROVIDER="replay", SYNSEMA_LLM_CASSETTE=str(cassette))
    with pytest.raises(SynError, match=fragment):
        llm_step("p", [], "")


def test_a_missing_cassette_file_is_an_error(llm_env, tmp_path):
    llm_env(SYNSEMA_LLM_PROVIDER="replay", SYNSEMA_LLM_CASSETTE=str(tmp_path / "nope.jsonl"))
    with pytest.raises(SynError, match="replay: cannot read cassette .*nope.jsonl"):
        llm_step("p", [], "")


def test_a_cassette_that_is_not_utf8_is_an_error_naming_the_byte(llm_env, tmp_path):
    cassette = tmp_path / "c.jsonl"
    cassette.write_bytes(b'{"synsema_cassette": 1}\n{"key": "\xff"}\n')
    llm_env(SYNSEMA_LLM_PROVIDER="replay", SYNSEMA_LLM_CASSETTE=str(cassette))
    with pytest.raises(SynError, match=r"replay: cassette .*c.jsonl is not UTF-8 text \(line 2 has the byte 0xff\)"):
        llm_step("p", [], "")


def test_a_torn_last_line_is_skipped_with_a_warning_and_record_starts_a_fresh_line(llm_env, tmp_path, capsys):
    cassette = tmp_path / "c.jsonl"
    with FakeServer() as server:
        server.reply(openai_text("one"))
        llm_env(SYNSEMA_LLM_PROVIDER="record", SYNSEMA_LLM_CASSETTE=str(cassette), OPENAI_API_KEY="k",
                SYNSEMA_LLM_BASE_URL=server.url + "/v1")
        llm_step("one", [], "")
    with cassette.open("a") as handle:
        handle.write('{"key": "abc", "request": {"op": "st')  # a record killed mid-line
    llm_env(SYNSEMA_LLM_PROVIDER="replay", OPENAI_API_KEY="", SYNSEMA_LLM_BASE_URL="")
    assert llm_step("one", [], "")["text"] == "one"
    assert "line 3 is cut off (an interrupted record?); skipped" in capsys.readouterr().err
    with FakeServer() as server:
        server.reply(openai_text("two"))
        llm_env(SYNSEMA_LLM_PROVIDER="record", OPENAI_API_KEY="k", SYNSEMA_LLM_BASE_URL=server.url + "/v1")
        llm_step("two", [], "")
    llm_env(SYNSEMA_LLM_PROVIDER="replay", OPENAI_API_KEY="", SYNSEMA_LLM_BASE_URL="")
    with pytest.raises(SynError, match="line 3 is not JSON"):  # no longer the last line: a real error
        llm_step("two", [], "")
    lines = cassette.read_text().split("\n")
    assert len(lines) == 5 and lines[-1] == "" and '"two"' in lines[3]


def test_record_can_wrap_anthropic_while_an_openai_key_is_set(llm_env, tmp_path):
    from .fakes import anthropic_text
    cassette = tmp_path / "c.jsonl"
    with FakeServer() as server:
        server.reply(anthropic_text("from claude"))
        llm_env(SYNSEMA_LLM_PROVIDER="record", SYNSEMA_LLM_RECORD_PROVIDER="anthropic", OPENAI_API_KEY="k",
                ANTHROPIC_API_KEY="ak", SYNSEMA_LLM_CASSETTE=str(cassette), ANTHROPIC_BASE_URL=server.url)
        assert llm_step("hi", [], "")["text"] == "from claude"
        assert server.requests[0]["path"] == "/v1/messages"
    llm_env(SYNSEMA_LLM_PROVIDER="replay")
    assert llm_step("hi", [], "")["text"] == "from claude"


def test_a_reply_s_usage_model_and_id_survive_the_cassette_and_old_lines_have_none():
    from synsema.runtime.llm.exchange import Reply
    stored = {"kind": "text", "text": "hi", "tokens": 30, "model": "m", "id": "r1",
              "usage": {"input": 25, "output": 5, "cache_read": 0, "cache_write": 0}}
    reply = Reply.from_json(stored)
    assert (reply.usage, reply.model, reply.id) == (stored["usage"], "m", "r1") and reply.to_json() == stored
    old = Reply.from_json({"kind": "text", "text": "hi", "tokens": 3})
    assert (old.usage, old.model, old.id) == (None, "", "")
    with pytest.raises(ValueError, match="'usage' must be a map of input, output, cache_read, cache_write"):
        Reply.from_json({**stored, "usage": {"input": "25"}})
