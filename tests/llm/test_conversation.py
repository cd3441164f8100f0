"""Native multi-turn context: a list of texts, steps and tool results, sent as each API's own
conversation (assistant turns with their tool calls, role "tool" / tool_result blocks)."""

import json

import pytest

from synsema.lang.errors import SynError
from synsema.runtime.llm.step import llm_step
from synsema.stdlib import llm as llm_builtins

from .fakes import (FakeServer, anthropic_text, anthropic_tool_uses, openai_text, openai_tool_calls)

WEATHER = [{"name": "get_weather", "describe": "Weather for a city", "params": ["city"]}]
ADD = [{"name": "add", "describe": "Add two numbers", "params": ["a: number", "b: number"], "optional": ["b"]}]


def two_calls_then_results(server, rt, first_reply):
    server.reply(first_reply).reply(openai_text("done") if "choices" in first_reply else anthropic_text("done"))
    step = llm_step("Weather in Lima and 2+3?", WEATHER + ADD, "")
    results = [llm_builtins.tool_result(rt, step["calls"][0], "sunny"),
               llm_builtins.tool_result(rt, step["calls"][1], 5)]
    final = llm_step("Weather in Lima and 2+3?", WEATHER + ADD, ["Be brief.", step, *results])
    return step, results, final


def test_tool_result_is_a_map_naming_the_call(rt):
    call = {"id": "call_9", "name": "add", "args": {"a": 1}}
    assert llm_builtins.tool_result(rt, call, 3) == {"kind": "tool_result", "id": "call_9", "name": "add",
                                                     "content": "3"}
    assert llm_builtins.tool_result(rt, call, "three")["content"] == "three"
    assert llm_builtins.tool_result(rt, call, {"a": [1, 2.5, None]})["content"] == '{"a": [1, 2.5, null]}'
    assert rt.checked == [("llm", None)] * 3


@pytest.mark.parametrize("call, fragment", [
    ("call_1", "the call must be a step or an entry of its 'calls', got text"),
    ({"name": "add"}, "the call has no text 'id'"),
    ({"id": "c", "name": 3}, "the call has no text 'name'"),
])
def test_tool_result_refuses_what_is_not_a_call(rt, call, fragment):
    with pytest.raises(SynError, match=fragment):
        llm_builtins.tool_result(rt, call, 1)


def test_openai_gets_assistant_tool_calls_and_tool_messages(openai_server, rt):
    step, _, final = two_calls_then_results(openai_server, rt, openai_tool_calls(
        [("get_weather", '{"city": "Lima"}'), ("add", '{"a": "2", "b": 3}')], content="Checking."))
    assert final["text"] == "done"
    messages = openai_server.bodies()[1]["messages"]
    assert [m["role"] for m in messages] == ["system", "user", "user", "assistant", "tool", "tool"]
    assert messages[1] == {"role": "user", "content": "Weather in Lima and 2+3?"}
    assert messages[2] == {"role": "user", "content": "Be brief."}
    assert messages[3] == {"role": "assistant", "content": "Checking.", "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "Lima"}'}},
        {"id": "call_2", "type": "function", "function": {"name": "add", "arguments": '{"a": 2, "b": 3}'}}]}
    assert messages[4:] == [{"role": "tool", "tool_call_id": "call_1", "content": "sunny"},
                            {"role": "tool", "tool_call_id": "call_2", "content": "5"}]


def test_anthropic_gets_tool_use_turns_and_tool_result_blocks(anthropic_server, rt):
    two_calls_then_results(anthropic_server, rt, anthropic_tool_uses(
        [("get_weather", {"city": "Lima"}), ("add", {"a": 2, "b": 3})]))
    messages = anthropic_server.bodies()[1]["messages"]
    cached = {"cache_control": {"type": "ephemeral"}}  # the last two user turns are cache breakpoints
    assert messages == [
        {"role": "user", "content": [{"type": "text", "text": "Weather in Lima and 2+3?"},
                                     {"type": "text", "text": "Be brief.", **cached}]},
        {"role": "assistant", "content": [
            {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Lima"}},
            {"type": "tool_use", "id": "toolu_2", "name": "add", "input": {"a": 2, "b": 3}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "sunny"},
                                     {"type": "tool_result", "tool_use_id": "toolu_2", "content": "5", **cached}]}]


def test_tool_results_come_before_text_in_the_anthropic_user_turn(anthropic_server, rt):
    anthropic_server.reply(anthropic_tool_uses([("add", {"a": 1})])).reply(anthropic_text("ok"))
    step = llm_step("go", ADD, "")
    llm_step("go", ADD, [step, "note: a human is watching", llm_builtins.tool_result(rt, step, 2)])
    last = anthropic_server.bodies()[1]["messages"][-1]
    assert [block["type"] for block in last["content"]] == ["tool_result", "text"]


def test_a_final_step_goes_back_as_the_assistant_s_text(openai_server):
    openai_server.reply(openai_text("Paris."))
    llm_step("Capital of France?", [], [{"kind": "final", "text": "Lyon?", "tokens": 3}, "No, try again."])
    messages = openai_server.bodies()[0]["messages"]
    assert messages[2:] == [{"role": "assistant", "content": "Lyon?"}, {"role": "user", "content": "No, try again."}]


def test_dotted_tool_names_travel_under_their_wire_names_in_the_history(openai_server, rt):
    catalog = [{"name": "nt.factor", "describe": "Factor", "params": ["n: number"]}]
    openai_server.reply(openai_tool_calls([("nt_factor", '{"n": 12}')])).reply(openai_text("2^2*3"))
    step = llm_step("factor 12", catalog, "")
    assert step["name"] == "nt.factor"
    llm_step("factor 12", catalog, [step, llm_builtins.tool_result(rt, step, [2, 2, 3])])
    assistant = openai_server.bodies()[1]["messages"][2]
    assert assistant["tool_calls"][0]["function"]["name"] == "nt_factor"


def test_a_text_context_still_travels_in_the_user_message(openai_server):
    openai_server.reply(openai_text("ok"))
    llm_step("go", ADD, " [add => 5]")
    assert [m["role"] for m in openai_server.bodies()[0]["messages"]] == ["system", "user"]


@pytest.mark.parametrize("context, fragment", [
    ([3], "context[0] must be text, a step from llm_step or a tool_result(call, value), got number"),
    ([{"kind": "tool", "name": "add"}], "context[0]: a tool step needs its 'calls'"),
    ([{"kind": "final"}], "context[0]: a final step needs its 'text'"),
    ([{"kind": "tool_result", "id": "c"}], "context[0]: a tool_result needs text 'id', 'name' and 'content'"),
    ([{"kind": "tool", "calls": [{"id": "c", "name": "add", "args": "x"}]}], "context[0]: call 0 needs"),
])
def test_a_malformed_context_list_is_an_error_even_offline(llm_env, context, fragment):
    with pytest.raises(SynError, match=r"llm_step: " + fragment.replace("(", r"\(").replace(")", r"\)")
                       .replace("[", r"\[").replace("]", r"\]")):
        llm_step("go", ADD, context)


def test_cassette_keys_cover_the_structured_context(llm_env, tmp_path, rt):
    cassette = tmp_path / "c.jsonl"
    with FakeServer() as server:
        server.reply(openai_tool_calls([("add", '{"a": 1}')])).reply(openai_text("one")).reply(openai_text("two"))
        llm_env(SYNSEMA_LLM_PROVIDER="record", SYNSEMA_LLM_CASSETTE=str(cassette), OPENAI_API_KEY="k",
                SYNSEMA_LLM_BASE_URL=server.url + "/v1")
        step = llm_step("go", ADD, "")
        one = llm_step("go", ADD, [step, llm_builtins.tool_result(rt, step, 1)])["text"]
        two = llm_step("go", ADD, [step, llm_builtins.tool_result(rt, step, 2)])["text"]
    assert (one, two) == ("one", "two")
    exchanges = [json.loads(line) for line in cassette.read_text().splitlines()[1:]]
    assert len({entry["key"] for entry in exchanges}) == 3
    assert exchanges[1]["request"]["context"][1] == {"role": "tool", "id": "call_1", "name": "add", "text": "1"}
    llm_env(SYNSEMA_LLM_PROVIDER="replay", OPENAI_API_KEY="", SYNSEMA_LLM_BASE_URL="")
    replayed = llm_step("go", ADD, "")
    assert llm_step("go", ADD, [replayed, llm_builtins.tool_result(rt, replayed, 2)])["text"] == "two"
    assert llm_step("go", ADD, [replayed, llm_builtins.tool_result(rt, replayed, 1)])["text"] == "one"
