"""Answers that end early are never complete answers: a stream without its end marker (no
`finish_reason` on OpenAI, no `message_stop` on Anthropic) or whose connection breaks, and
Anthropic's `model_context_window_exceeded` stop. Text comes back `truncated`; a tool call comes
back as an invalid reply (its arguments may be cut), `truncated` too; usage is counted from what
arrived. And a budget holds when the server reports no usage at all."""

import json

import pytest

from synsema.runtime.llm import session
from synsema.runtime.llm.step import llm_step
from synsema.runtime.llm.stream import llm_stream

from .fakes import (anthropic_blocks, anthropic_events, anthropic_message, anthropic_usage, openai_call_deltas,
                    openai_chunks, openai_text)

ADD = [{"name": "add", "describe": "Add two numbers", "params": ["a: number", "b: number"]}]


def text_events(provider, pieces, end=True):
    """A streamed text answer; `end` false leaves out its end (and the usage after it)."""
    if provider == "openai":
        return openai_chunks([{"content": piece} for piece in pieces], "stop" if end else None,
                             prompt=20 if end else None)
    return anthropic_events(anthropic_blocks(text="".join(pieces)), "end_turn" if end else None, stop=end)


def call_events(provider, end=True):
    if provider == "openai":
        return openai_chunks(openai_call_deltas([("add", '{"a": 2, "b": 3}')]), "tool_calls" if end else None,
                             prompt=20 if end else None)
    return anthropic_events(anthropic_blocks([("add", {"a": 2, "b": 3})]), "tool_use" if end else None, stop=end)


def collect(prompt="Tell me"):
    pieces = []
    return llm_stream(prompt, "", pieces.append), pieces


def test_a_text_stream_without_its_end_is_truncated_with_usage_from_what_arrived(served):
    provider, server, _ = served
    server.stream(text_events(provider, ["Once", " upon", " a"], end=False))
    text, pieces = collect()
    assert "".join(pieces[:-1]) == "Once upon a"
    assert text == "".join(pieces) and pieces[-1] == "[truncated: the stream breaking off cut the answer off " \
                                                     "(the connection ended before the answer did)]"
    sent = len(json.dumps(server.bodies()[0]))
    if provider == "openai":  # nothing reported: the request and the text that came, estimated
        assert session.used_tokens() >= -(-sent // 4) + 1
    else:  # message_start reported the input; the output is estimated from what arrived
        assert session.used_tokens() >= 30 + 1
        assert session.used_tokens() < 30 + 30


def test_a_stream_whose_connection_breaks_is_truncated(served):
    provider, server, _ = served
    whole = "".join(text_events(provider, ["Once", " upon", " a time"])).encode()
    cut = whole.index(b"\n\n", whole.index(b"Once")) + 2  # the connection dies after the first piece
    server.reply(raw=whole, headers={"content-type": "text/event-stream"}, sent=cut)
    step = llm_step("Tell me", [], "", True)
    first = "Once" if provider == "openai" else "Once up"  # the fakes' first piece: a delta, or 7 characters
    assert (step["kind"], step["text"], step["truncated"]) == ("final", first, True)
    assert step["tokens"] > 0


def test_a_step_stream_without_its_end_is_a_truncated_final(served):
    provider, server, _ = served
    server.stream(text_events(provider, ["Lima ", "is in"], end=False))
    step = llm_step("Where is Lima?", ADD, "", True)
    assert (step["kind"], step["text"], step["truncated"]) == ("final", "Lima is in", True)


def test_a_tool_call_whose_stream_ends_early_is_never_a_complete_call(served):
    provider, server, _ = served
    server.stream(call_events(provider, end=False))
    step = llm_step("2+3?", ADD, "", True)
    assert step["kind"] == "final" and step["truncated"] is True
    assert step["text"] == ("[invalid model reply: the call to 'add' was cut off by the stream breaking off "
                            "(the connection ended before the answer did)]")


def test_a_stream_cut_by_the_token_limit_ends_with_the_marker(served):
    provider, server, _ = served
    if provider == "openai":
        server.stream(openai_chunks([{"content": "Once upon"}], "length"))
    else:
        server.stream(anthropic_events(anthropic_blocks(text="Once upon"), "max_tokens"))
    text, pieces = collect()
    assert text == "Once upon[truncated: the token limit cut the answer off (raise SYNSEMA_LLM_MAX_TOKENS)]"
    assert pieces[-1] == "[truncated: the token limit cut the answer off (raise SYNSEMA_LLM_MAX_TOKENS)]"


CONTEXT_CUT = "[invalid model reply: the call to 'add' was cut off by the model's context window " \
              "(shorten the conversation)]"


@pytest.mark.parametrize("streamed", [False, True])
def test_anthropic_s_context_window_stop_cuts_text_and_calls(anthropic_server, streamed):
    text_blocks = anthropic_blocks(text="The answer is")
    call_blocks = anthropic_blocks([("add", {})])
    stop = "model_context_window_exceeded"
    if streamed:
        anthropic_server.stream(anthropic_events(text_blocks, stop)).stream(anthropic_events(call_blocks, stop))
    else:
        anthropic_server.reply(anthropic_message(text_blocks, stop)).reply(anthropic_message(call_blocks, stop))
    text = llm_step("long", ADD, "", streamed)
    assert (text["kind"], text["text"], text["truncated"]) == ("final", "The answer is", True)
    call = llm_step("long", ADD, "", streamed)
    assert (call["kind"], call["text"], call["truncated"]) == ("final", CONTEXT_CUT, True)


def test_openai_s_length_stop_on_a_call_is_truncated_too(openai_server):
    openai_server.stream(openai_chunks(openai_call_deltas([("add", '{"a": 2,')]), "length"))
    step = llm_step("2+3?", ADD, "", True)
    assert step["truncated"] is True and "cut off by the token limit" in step["text"]


def without_usage(answer):
    """What a proxy that drops usage passes on: the answer without its `usage`, or the stream
    without the events that carry one."""
    if isinstance(answer, dict):
        return {key: value for key, value in answer.items() if key != "usage"}
    return [event for event in answer if '"usage"' not in event]


@pytest.mark.parametrize("streamed", [False, True])
def test_the_budget_holds_when_no_usage_is_reported(served, streamed):
    provider, server, configure = served
    configure(SYNSEMA_LLM_BUDGET="300")
    words = "a fairly long answer, " * 4
    for _ in range(6):
        if streamed:
            server.stream(without_usage(text_events(provider, [words])))
        elif provider == "openai":
            server.reply(without_usage(openai_text(words)))
        else:
            server.reply(without_usage(anthropic_message(anthropic_blocks(text=words), "end_turn")))
    steps = [llm_step(f"question {n}", [], "", streamed) for n in range(6)]
    sent = [step for step in steps if not step["text"].startswith("[llm budget exceeded")]
    assert all(step["text"] == words for step in sent)
    spent = [step["tokens"] for step in sent]
    assert all(tokens > 0 for tokens in spent)
    assert len(server.requests) == len(sent) < 6
    assert sum(spent[:-1]) < 300 <= sum(spent) == session.used_tokens()  # at most one request past it


@pytest.mark.parametrize("streamed", [False, True])
def test_each_reply_carries_its_usage_model_and_id(served, streamed):
    from synsema.runtime.llm.exchange import Ask
    provider, server, _ = served
    if provider == "openai":
        whole = openai_text("hello")
        whole["usage"]["prompt_tokens_details"] = {"cached_tokens": 8}
        events = openai_chunks([{"content": "hello"}])
        last = json.loads(events[-2].removeprefix("data: "))
        last["usage"]["prompt_tokens_details"] = {"cached_tokens": 8}
        events[-2] = f"data: {json.dumps(last)}\n\n"
        expected = ({"input": 20, "output": 5, "cache_read": 8, "cache_write": 0}, "chatcmpl-fake")
    else:
        spent = anthropic_usage(10, 5, cache_write=200, cache_read=800)
        whole = anthropic_message(anthropic_blocks(text="hello"), "end_turn", spent)
        events = anthropic_events(anthropic_blocks(text="hello"), "end_turn", usage=spent, output_tokens=5)
        expected = ({"input": 1010, "output": 5, "cache_read": 800, "cache_write": 200}, "msg_fake")
    if streamed:
        server.stream(events)
    else:
        server.reply(whole)
    reply = session.current().ask(Ask("step", "hi"), stream=streamed)
    assert (reply.usage, reply.id, reply.model) == (*expected, "fake-model")
    assert reply.tokens == reply.usage["input"] + reply.usage["output"]
