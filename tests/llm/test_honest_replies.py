"""Replies as the providers mean them: every parallel call, cut-offs, refusals, errors sent with
HTTP 200, and reasoning kept out of the answer — on both APIs, against the fake servers."""

import pytest

from synsema.lang.errors import SynError
from synsema.runtime.llm.step import llm_step

from .fakes import (anthropic_text, anthropic_tool_uses, anthropic_usage, openai_error, openai_text,
                    openai_tool_calls, request_problem)

WEATHER = [{"name": "get_weather", "describe": "Weather for a city", "params": ["city"]}]
ADD = [{"name": "add", "describe": "Add two numbers", "params": ["a: number", "b: number"], "optional": ["b"]}]


def test_the_fake_servers_refuse_a_request_the_sdk_types_refuse():
    ok = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
    assert request_problem("/v1/chat/completions", ok) is None
    assert "tool_call_id" in request_problem("/v1/chat/completions", {
        "model": "m", "messages": [{"role": "tool", "content": "x"}]})
    assert "keep only" in request_problem("/v1/chat/completions", {**ok, "max_token": 5})
    assert request_problem("/v1/messages", {"model": "m", "max_tokens": 5, "messages": ok["messages"]}) is None
    assert request_problem("/v1/messages", {"model": "m", "messages": ok["messages"]})  # max_tokens is required


# ---------------------------------------------------------------- parallel calls
def test_anthropic_parallel_tool_use_blocks_are_all_in_calls(anthropic_server):
    anthropic_server.reply(anthropic_tool_uses([("add", {"a": "1", "b": 2}), ("get_weather", {"city": "Lima"})],
                                               text="Two things at once."))
    step = llm_step("go", ADD + WEATHER, "")
    assert step["calls"] == [{"id": "toolu_1", "name": "add", "args": {"a": 1, "b": 2}},
                             {"id": "toolu_2", "name": "get_weather", "args": {"city": "Lima"}}]
    assert (step["id"], step["name"], step["text"]) == ("toolu_1", "add", "Two things at once.")


def test_a_malformed_second_call_makes_the_whole_reply_invalid(openai_server):
    openai_server.reply(openai_tool_calls([("add", '{"a": 1}'), ("add", '{"a": ')]))
    assert llm_step("go", ADD, "")["text"].startswith("[invalid model reply: the arguments for 'add' are not JSON")


# ---------------------------------------------------------------- the token limit
def test_a_cut_off_openai_answer_is_a_truncated_final(openai_server):
    openai_server.reply(openai_text("The answer is forty", finish_reason="length"))
    assert llm_step("go", ADD, "") == {"kind": "final", "text": "The answer is forty", "truncated": True, "tokens": 25}


def test_a_cut_off_anthropic_answer_is_a_truncated_final(anthropic_server):
    anthropic_server.reply(anthropic_text("Once upon", stop_reason="max_tokens"))
    step = llm_step("go", ADD, "")
    assert step["truncated"] is True and step["text"] == "Once upon"


def test_a_complete_answer_has_no_truncated_key(openai_server):
    openai_server.reply(openai_text("Done."))
    assert "truncated" not in llm_step("go", ADD, "")


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_a_cut_off_tool_call_is_invalid_and_names_the_tool(request, provider):
    server = request.getfixturevalue(f"{provider}_server")
    if provider == "openai":
        server.reply(openai_tool_calls([("get_weather", '{"city": "Lima"}'), ("add", '{"a": 1, "b"')],
                                       finish_reason="length"))
    else:
        server.reply(anthropic_tool_uses([("add", {})], stop_reason="max_tokens"))
    step = llm_step("go", ADD + WEATHER, "")
    assert step["kind"] == "final"
    assert step["text"] == ("[invalid model reply: the call to 'add' was cut off by the token limit "
                            "(raise SYNSEMA_LLM_MAX_TOKENS)]")


def test_a_limit_reached_before_any_answer_says_so(openai_server):
    openai_server.reply(openai_text(None, finish_reason="length", reasoning_content="thinking hard..."))
    assert "cut the reply off before any answer" in llm_step("go", ADD, "")["text"]


# ---------------------------------------------------------------- refusals and filters
def test_an_openai_refusal_is_a_refused_final_with_its_text(openai_server):
    openai_server.reply(openai_text(None, refusal="I can't help with that."))
    assert llm_step("go", ADD, "") == {"kind": "final", "text": "I can't help with that.", "refused": True,
                                       "tokens": 25}


def test_a_content_filter_finish_is_refused_with_what_text_there_is(openai_server):
    openai_server.reply(openai_text("Partial answ", finish_reason="content_filter"))
    openai_server.reply(openai_text(None, finish_reason="content_filter"))
    first, second = llm_step("go", ADD, ""), llm_step("go", ADD, "")
    assert (first["text"], first["refused"]) == ("Partial answ", True)
    assert (second["text"], second["refused"]) == ("[refused by the provider: finish_reason content_filter]", True)


def test_an_anthropic_refusal_stop_is_refused(anthropic_server):
    anthropic_server.reply(anthropic_text("I won't do that.", stop_reason="refusal"))
    anthropic_server.reply(anthropic_text("", stop_reason="refusal"))
    first, second = llm_step("go", ADD, ""), llm_step("go", ADD, "")
    assert (first["text"], first["refused"]) == ("I won't do that.", True)
    assert second["text"] == "[refused by the provider: stop_reason refusal]" and second["refused"] is True


# ---------------------------------------------------------------- an error body with HTTP 200
def test_an_openrouter_style_error_with_status_200_is_a_provider_error(openai_server):
    openai_server.reply({"error": {"message": "No endpoints found for fake-model.", "code": 404}})
    with pytest.raises(SynError) as raised:
        llm_step("go", ADD, "")
    assert raised.value.message == ("llm provider openai: the answer (HTTP 200) is an error: "
                                    "No endpoints found for fake-model.")


def test_an_anthropic_error_event_with_status_200_is_a_provider_error(anthropic_server):
    anthropic_server.reply({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}})
    with pytest.raises(SynError, match=r"llm provider anthropic: the answer \(HTTP 200\) is an error: Overloaded"):
        llm_step("go", ADD, "")


def test_openai_error_builder_shape_is_caught_too(openai_server):
    openai_server.reply(openai_error("quota exceeded"))
    with pytest.raises(SynError, match="quota exceeded"):
        llm_step("go", ADD, "")


# ---------------------------------------------------------------- reasoning
@pytest.mark.parametrize("field", ["reasoning_content", "reasoning"])
def test_reasoning_fields_of_compatible_servers_stay_out_of_text(openai_server, field):
    openai_server.reply(openai_text("42", **{field: "6 times 7"}))
    assert llm_step("go", ADD, "") == {"kind": "final", "text": "42", "reasoning": "6 times 7", "tokens": 25}


def test_a_think_block_is_reasoning_not_answer(openai_server):
    openai_server.reply(openai_text("<think>\nThe user wants a sum.\n</think>\n\nThe sum is 5."))
    step = llm_step("go", ADD, "")
    assert (step["text"], step["reasoning"]) == ("The sum is 5.", "The user wants a sum.")


def test_a_think_block_before_tool_calls_is_reasoning_of_the_tool_step(openai_server):
    openai_server.reply(openai_tool_calls([("add", '{"a": 2}')], content="<think>add 2</think>"))
    step = llm_step("go", ADD, "")
    assert step["kind"] == "tool" and step["reasoning"] == "add 2" and "text" not in step


def test_an_unclosed_think_block_is_all_reasoning(openai_server):
    openai_server.reply(openai_text("<think>still going", finish_reason="length"))
    assert "before any answer" in llm_step("go", ADD, "")["text"]


def test_anthropic_thinking_blocks_are_reasoning(anthropic_server):
    anthropic_server.reply(anthropic_text("Five.", thinking="2 + 3 = 5"))
    step = llm_step("go", ADD, "")
    assert (step["text"], step["reasoning"]) == ("Five.", "2 + 3 = 5")


# ---------------------------------------------------------------- usage with the prompt cache
def test_anthropic_cache_tokens_count_in_usage_and_the_budget(anthropic_server, llm_env):
    from synsema.runtime.llm import session
    anthropic_server.reply(anthropic_text("ok", usage=anthropic_usage(10, 5, cache_write=2000, cache_read=300)))
    assert llm_step("go", ADD, "")["tokens"] == 2315
    assert session.used_tokens() == 2315
