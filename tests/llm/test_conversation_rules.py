"""What both APIs demand of a conversation, kept before anything is sent: every call answered
(else the request is refused naming the missing ids), call ids unique across the whole
conversation when the server gives none, a failed call's result marked as an error, cache
breakpoints on the conversation's last turns (with cache tokens counted), and lone surrogates
replaced the same way live, recorded and replayed."""

import json

import pytest

from synsema.lang.errors import SynError
from synsema.runtime.llm import session
from synsema.runtime.llm.step import llm_step
from synsema.stdlib import llm as llm_builtins

from .fakes import (FakeServer, anthropic_blocks, anthropic_events, anthropic_message, anthropic_text,
                    anthropic_tool_uses, anthropic_usage, openai_text, openai_tool_calls)
from .test_cli_programs import synsema

ADD = [{"name": "add", "describe": "Add two numbers", "params": ["a: number", "b: number"]}]


def two_calls(provider, ids=True):
    """An answer with two calls to add; `ids` false: as servers that send none."""
    if provider == "openai":
        answer = openai_tool_calls([("add", '{"a": 1, "b": 2}'), ("add", '{"a": 3, "b": 4}')])
        if not ids:
            for call in answer["choices"][0]["message"]["tool_calls"]:
                del call["id"]
        return answer
    answer = anthropic_tool_uses([("add", {"a": 1, "b": 2}), ("add", {"a": 3, "b": 4})])
    if not ids:
        for block in answer["content"]:
            del block["id"]
    return answer


def done(provider):
    return openai_text("done") if provider == "openai" else anthropic_text("done")


def sent_results(provider, body) -> list[tuple]:
    """(id, content, is_error) of each tool result in a request."""
    if provider == "openai":
        return [(m["tool_call_id"], m["content"], None) for m in body["messages"] if m["role"] == "tool"]
    return [(b["tool_use_id"], b["content"], b.get("is_error")) for m in body["messages"] if m["role"] == "user"
            for b in m["content"] if isinstance(b, dict) and b["type"] == "tool_result"]


def test_a_call_left_unanswered_is_refused_before_sending_naming_it(served, rt):
    provider, server, _ = served
    server.reply(two_calls(provider))
    step = llm_step("sums", ADD, "")
    prefix = "call" if provider == "openai" else "toolu"
    with pytest.raises(SynError) as raised:
        llm_step("sums", ADD, [step, llm_builtins.tool_result(rt, step["calls"][0], 3)])
    assert raised.value.message == (
        f"llm_step: context[0]: no tool_result for the step's call '{prefix}_2'; add tool_result(call, value) "
        "for every call in the step's 'calls' (both APIs refuse a call left unanswered)")
    with pytest.raises(SynError, match=rf"no tool_result for the step's calls '{prefix}_1', '{prefix}_2'"):
        llm_step("sums", ADD, [step, "and then?"])
    assert len(server.requests) == 1


def test_a_result_for_no_open_call_is_refused(llm_env, rt):
    call = {"id": "call_7", "name": "add", "args": {}}
    with pytest.raises(SynError, match=r"llm_step: context\[1\]: the tool_result for 'call_7' answers no call of "
                                       r"the step before it"):
        llm_step("sums", ADD, ["hi", llm_builtins.tool_result(rt, call, 1)])


def test_made_up_ids_are_unique_across_the_conversation(served, rt):
    provider, server, _ = served
    server.reply(two_calls(provider, ids=False)).reply(two_calls(provider, ids=False)).reply(done(provider))
    convo = []
    for _ in range(2):
        step = llm_step("sums", ADD, convo)
        convo += [step] + [llm_builtins.tool_result(rt, call, 0) for call in step["calls"]]
    llm_step("sums", ADD, convo)
    prefix = "call" if provider == "openai" else "toolu"
    ids = [result[0] for result in sent_results(provider, server.bodies()[2])]
    assert ids == [f"{prefix}_{n}" for n in range(4)]


def test_a_failed_call_s_result_is_marked_as_an_error(served, rt):
    provider, server, _ = served
    server.reply(two_calls(provider)).reply(done(provider))
    step = llm_step("sums", ADD, "")
    first, second = step["calls"]
    failed = llm_builtins.tool_result(rt, second, "'a' must be number", error=True)
    assert failed["error"] is True
    llm_step("sums", ADD, [step, llm_builtins.tool_result(rt, first, 3), failed])
    results = sent_results(provider, server.bodies()[1])
    if provider == "openai":  # chat completions have no flag: the text says it
        assert [content for _, content, _ in results] == ["3", "Error: 'a' must be number"]
    else:
        assert [(content, flag) for _, content, flag in results] == [("3", None), ("'a' must be number", True)]


def test_error_must_be_true_or_false(rt):
    with pytest.raises(SynError, match="tool_result: 'error' must be true or false, got text"):
        llm_builtins.tool_result(rt, {"id": "c", "name": "add"}, "x", error="yes")


def test_anthropic_caches_the_conversation_s_last_turns_and_counts_cache_tokens(anthropic_server, rt):
    usage = anthropic_usage(10, 5, cache_write=200, cache_read=800)
    anthropic_server.reply(anthropic_message(anthropic_blocks([("add", {"a": 1, "b": 2})]), "tool_use", usage))
    anthropic_server.reply(anthropic_message(anthropic_blocks([("add", {"a": 3, "b": 4})]), "tool_use", usage))
    anthropic_server.stream(anthropic_events(anthropic_blocks(text="3 and 7"), "end_turn", usage=usage,
                                             output_tokens=5))
    convo = []
    for _ in range(3):
        step = llm_step("sums", ADD, convo, len(convo) == 4)  # the last one streamed
        convo += [step, llm_builtins.tool_result(rt, step, 0)] if step["kind"] == "tool" else []
    assert step["text"] == "3 and 7"
    assert session.used_tokens() == 3 * (10 + 5 + 200 + 800)
    body = anthropic_server.bodies()[2]
    marked = [(index, block["type"]) for index, message in enumerate(body["messages"])
              for block in message["content"] if "cache_control" in block]
    # the last two user messages: the previous step's results and this step's
    assert marked == [(2, "tool_result"), (4, "tool_result")]
    assert body["system"][0]["cache_control"] == {"type": "ephemeral"}
    assert "cache_control" not in json.dumps(anthropic_server.bodies()[0]["messages"])  # a text context: none


LONE = "Cut here: \ud83d and a pair: \ud83d\ude00"
CLEAN = "Cut here: \ufffd and a pair: 😀"


def test_lone_surrogates_are_replaced_the_same_live_recorded_and_replayed(tmp_path):
    program = tmp_path / "s.syn"
    program.write_text('require llm\nprint(llm_step("hi", [], "").text)\n'
                       'let whole be llm_stream("hi", "", (piece) => print(piece))\n')
    cassette = tmp_path / "s.jsonl"
    outputs = {}
    for provider in ("openai", "anthropic"):
        with FakeServer() as server:
            if provider == "openai":
                server.reply(openai_text(LONE)).stream([e for e in _openai_stream(LONE)])
            else:
                server.reply(anthropic_text(LONE)).stream(anthropic_events(anthropic_blocks(text=LONE), piece=11))
            env = {"SYNSEMA_LLM_BASE_URL": server.url + ("/v1" if provider == "openai" else ""),
                   "OPENAI_API_KEY": "k", "ANTHROPIC_API_KEY": "k"}
            live = synsema(["run", str(program)], {**env, "SYNSEMA_LLM_PROVIDER": provider})
            server.reply(openai_text(LONE) if provider == "openai" else anthropic_text(LONE))
            server.stream(_openai_stream(LONE) if provider == "openai" else anthropic_events(
                anthropic_blocks(text=LONE), piece=11))
            cassette.unlink(missing_ok=True)
            recorded = synsema(["run", str(program)], {**env, "SYNSEMA_LLM_PROVIDER": "record",
                                                       "SYNSEMA_LLM_RECORD_PROVIDER": provider,
                                                       "SYNSEMA_LLM_CASSETTE": str(cassette)})
        replayed = synsema(["run", str(program)], {"SYNSEMA_LLM_PROVIDER": "replay",
                                                   "SYNSEMA_LLM_CASSETTE": str(cassette)})
        for run in (live, recorded, replayed):
            assert run.returncode == 0, run.stderr
        assert live.stdout == recorded.stdout == replayed.stdout
        assert live.stdout.splitlines()[0] == CLEAN and CLEAN in "".join(live.stdout.splitlines()[1:])
        outputs[provider] = live.stdout.splitlines()[0]
    assert outputs["openai"] == outputs["anthropic"]


def _openai_stream(text):
    from .fakes import openai_chunks
    return openai_chunks([{"content": text[i:i + 11]} for i in range(0, len(text), 11)])
