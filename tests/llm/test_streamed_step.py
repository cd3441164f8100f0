"""`llm_step` with `stream: true` (the named argument or SYNSEMA_LLM_STREAM): the answer asked
for as server-sent events and assembled — parallel tool-call deltas put together by their index
— gives exactly the step the same answer sent whole gives, on both providers."""

import json

import pytest

from synsema.lang.errors import SynError
from synsema.runtime.llm.step import llm_step

from .fakes import (anthropic_blocks, anthropic_events, anthropic_message, anthropic_usage, openai_call_deltas,
                    openai_chunks, openai_text, openai_tool_calls)
from .test_cli_programs import synsema

CATALOG = [{"name": "get_weather", "describe": "Weather for a city", "params": ["city"]},
           {"name": "add", "describe": "Add two numbers", "params": ["a: number", "b: number"]}]
CALLS = [("get_weather", {"city": "Lima, Perú"}), ("add", {"a": "2", "b": 3}), ("get_weather", {"city": "Quito"})]


def openai_pair(calls=CALLS, content=None):
    """(the whole answer, its stream) for the same parallel calls."""
    texts = [(name, json.dumps(args, ensure_ascii=False)) for name, args in calls]
    return (openai_tool_calls(texts, prompt=20, completion=5, content=content),
            openai_chunks(openai_call_deltas(texts, content=content), "tool_calls", prompt=20, completion=5))


def anthropic_pair(calls=CALLS, text=None, thinking=None):
    blocks = anthropic_blocks(calls, text=text, thinking=thinking)
    return (anthropic_message(blocks, "tool_use", anthropic_usage(30, 7)),
            anthropic_events(blocks, "tool_use", input_tokens=30, output_tokens=7))


def pair(provider, calls=CALLS):
    """(the whole answer, its stream): parallel calls with words beside them (and, on Anthropic,
    a thinking block)."""
    if provider == "openai":
        return openai_pair(calls, content="Checking.")
    return anthropic_pair(calls, text="Checking.", thinking="Two cities and a sum.")


def test_parallel_calls_assembled_from_deltas_equal_the_whole_answer(served):
    provider, server, _ = served
    whole, events = pair(provider)
    server.reply(whole).stream(events)
    plain = llm_step("Weather and a sum?", CATALOG, "")
    streamed = llm_step("Weather and a sum?", CATALOG, "", True)
    assert streamed == plain
    assert [call["args"] for call in streamed["calls"]] == [{"city": "Lima, Perú"}, {"a": 2, "b": 3}, {"city": "Quito"}]
    assert streamed["text"] == "Checking."
    first, second = server.bodies()
    assert "stream" not in first and second["stream"] is True
    assert {k: v for k, v in second.items() if k not in ("stream", "stream_options")} == first


def test_the_setting_streams_every_step(served):
    provider, server, configure = served
    configure(SYNSEMA_LLM_STREAM="true")
    whole, events = pair(provider)
    server.stream(events).reply(whole)
    streamed = llm_step("Weather and a sum?", CATALOG, "")
    assert llm_step("Weather and a sum?", CATALOG, "", False) == streamed
    assert [body.get("stream") for body in server.bodies()] == [True, None]


def test_a_text_answer_streamed_equals_it_whole(served):
    provider, server, _ = served
    if provider == "openai":
        server.reply(openai_text("<think>hmm</think>Sunny.", prompt=20, completion=5))
        server.stream(openai_chunks([{"content": "<think>h"}, {"content": "mm</think>Sun"}, {"content": "ny."}]))
    else:
        blocks = anthropic_blocks(text="Sunny.", thinking="Look it up.", signature="sig-x")
        server.reply(anthropic_message(blocks, "end_turn", anthropic_usage(30, 7)))
        server.stream(anthropic_events(blocks, "end_turn"))
    plain = llm_step("Weather?", CATALOG, "")
    assert llm_step("Weather?", CATALOG, "", True) == plain
    assert plain["text"] == "Sunny." and plain["reasoning"]


def test_stream_must_be_true_or_false(llm_env):
    with pytest.raises(SynError, match="llm_step: 'stream' must be true or false, got text"):
        llm_step("hi", [], "", "yes")


def test_the_named_argument_through_the_cli(tmp_path, served):
    provider, server, _ = served
    whole, events = pair(provider)
    server.stream(events)
    program = tmp_path / "step.syn"
    program.write_text('require llm\nlet tools be [{"name": "get_weather", "describe": "w", "params": ["city"]}, '
                       '{"name": "add", "describe": "a", "params": ["a: number", "b: number"]}]\n'
                       'let step be llm_step("Weather and a sum?", tools, [], stream = true)\n'
                       'print(json_encode(step["calls"]))\n')
    env = {"SYNSEMA_LLM_PROVIDER": provider, "OPENAI_API_KEY": "k", "ANTHROPIC_API_KEY": "k",
           "SYNSEMA_LLM_BASE_URL": server.url + ("/v1" if provider == "openai" else "")}
    done = synsema(["run", str(program)], env)
    assert done.returncode == 0, done.stderr
    assert [call["args"] for call in json.loads(done.stdout)] == [{"city": "Lima, Perú"}, {"a": 2, "b": 3},
                                                                  {"city": "Quito"}]
    assert server.bodies()[0]["stream"] is True
