"""Thinking and reasoning settings: Anthropic's thinking and redacted_thinking blocks kept in
the step and sent back verbatim (signature and all) with the turn, whether the answer came
whole or streamed or replayed; SYNSEMA_LLM_THINKING_BUDGET (Anthropic) and
SYNSEMA_LLM_REASONING_EFFORT (OpenAI) on the wire, the SDKs' request types checking both."""

import json
import typing

import pytest
from openai.types.shared import reasoning_effort

from synsema.lang.errors import SynError
from synsema.runtime.llm.config import REASONING_EFFORTS, load_config
from synsema.runtime.llm.expressions import evaluate
from synsema.runtime.llm.step import llm_step
from synsema.stdlib import llm as llm_builtins

from .fakes import (FakeServer, anthropic_blocks, anthropic_events, anthropic_message, anthropic_text, openai_chunks,
                    openai_text, openai_tool_call)
from .test_cli_programs import synsema

ADD = [{"name": "add", "describe": "Add two numbers", "params": ["a: number", "b: number"]}]
THOUGHT = {"type": "thinking", "thinking": "2 and 3 make 5; check with the tool.", "signature": "EqQBCgIYAhIM+sig=="}
REDACTED = {"type": "redacted_thinking", "data": "EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP"}


def thinking_answer(streamed: bool):
    blocks = anthropic_blocks([("add", {"a": 2, "b": 3})], text="Let me add.", thinking=THOUGHT["thinking"],
                              signature=THOUGHT["signature"], redacted=REDACTED["data"])
    return anthropic_events(blocks, "tool_use") if streamed else anthropic_message(blocks, "tool_use")


@pytest.mark.parametrize("streamed", [False, True])
def test_thinking_blocks_go_back_verbatim_with_the_tool_turn(anthropic_server, rt, streamed):
    if streamed:
        anthropic_server.stream(thinking_answer(True))
    else:
        anthropic_server.reply(thinking_answer(False))
    anthropic_server.reply(anthropic_text("5"))
    step = llm_step("2+3?", ADD, "", streamed)
    assert step["thinking"] == [THOUGHT, REDACTED]
    assert step["reasoning"] == THOUGHT["thinking"]
    llm_step("2+3?", ADD, [step, llm_builtins.tool_result(rt, step, 5)])
    assistant = anthropic_server.bodies()[1]["messages"][1]
    assert assistant == {"role": "assistant", "content": [
        THOUGHT, REDACTED, {"type": "text", "text": "Let me add."},
        {"type": "tool_use", "id": "toolu_1", "name": "add", "input": {"a": 2, "b": 3}}]}


def test_a_step_whose_thinking_was_edited_is_refused(anthropic_server):
    with pytest.raises(SynError, match=r"llm_step: context\[0\]: 'thinking' holds something that is not a thinking "
                                       r"block .* \(pass the step llm_step returned\)"):
        llm_step("hi", ADD, [{"kind": "final", "text": "x", "thinking": [{"type": "thinking", "thinking": "t"}]}])
    assert anthropic_server.requests == []


def test_thinking_survives_record_and_replay(llm_env, tmp_path, rt):
    cassette = tmp_path / "t.jsonl"
    with FakeServer() as server:
        server.reply(thinking_answer(False))
        llm_env(SYNSEMA_LLM_PROVIDER="record", SYNSEMA_LLM_RECORD_PROVIDER="anthropic", ANTHROPIC_API_KEY="k",
                SYNSEMA_LLM_BASE_URL=server.url, SYNSEMA_LLM_CASSETTE=str(cassette))
        recorded = llm_step("2+3?", ADD, "")
    llm_env(SYNSEMA_LLM_PROVIDER="replay", ANTHROPIC_API_KEY="", SYNSEMA_LLM_RECORD_PROVIDER="")
    assert llm_step("2+3?", ADD, "") == recorded and recorded["thinking"] == [THOUGHT, REDACTED]


def test_the_thinking_budget_is_sent_on_top_of_the_answer_s_limit(anthropic_server, llm_env):
    llm_env(SYNSEMA_LLM_THINKING_BUDGET="2048", SYNSEMA_LLM_MAX_TOKENS="500")
    anthropic_server.reply(anthropic_text("5", thinking="sum"))
    llm_step("2+3?", ADD, "")
    body = anthropic_server.bodies()[0]
    assert body["thinking"] == {"type": "enabled", "budget_tokens": 2048} and body["max_tokens"] == 2548


def test_a_forced_choice_is_sent_without_thinking(anthropic_server, llm_env):
    llm_env(SYNSEMA_LLM_THINKING_BUDGET="1024")
    anthropic_server.reply(anthropic_message(anthropic_blocks([("choose", {"choice": "b"})]), "tool_use"))
    assert evaluate(None, "decide", ["a", "b"], None, None, {}) == "b"
    body = anthropic_server.bodies()[0]
    assert "thinking" not in body and body["tool_choice"] == {"type": "tool", "name": "choose"}


def test_the_reasoning_effort_is_sent_to_openai(openai_server, llm_env):
    llm_env(SYNSEMA_LLM_REASONING_EFFORT="High", SYNSEMA_LLM_MODEL="o4-mini")
    openai_server.reply(openai_tool_call("add", '{"a": 2, "b": 3}')).reply(openai_text("5"))
    llm_step("2+3?", ADD, "")
    body = openai_server.bodies()[0]
    assert body["reasoning_effort"] == "high" and body["max_completion_tokens"] == 1024


def test_without_the_settings_nothing_is_added(served):
    provider, server, _ = served
    server.reply(openai_text("ok") if provider == "openai" else anthropic_text("ok"))
    llm_step("hi", [], "")
    assert not {"reasoning_effort", "thinking"} & set(server.bodies()[0])


def test_the_efforts_are_the_sdk_s():
    assert REASONING_EFFORTS == tuple(typing.get_args(typing.get_args(reasoning_effort.ReasoningEffort)[0]))


@pytest.mark.parametrize("name, value, fragment", [
    ("SYNSEMA_LLM_REASONING_EFFORT", "extreme", "SYNSEMA_LLM_REASONING_EFFORT must be one of none, minimal, low"),
    ("SYNSEMA_LLM_THINKING_BUDGET", "512", "SYNSEMA_LLM_THINKING_BUDGET must be a whole number of tokens, at "
                                           "least 1024, got '512'"),
    ("SYNSEMA_LLM_STREAM", "maybe", "SYNSEMA_LLM_STREAM must be one of true, false, 1, 0, got 'maybe'"),
])
def test_bad_settings_are_configuration_problems(tmp_path, name, value, fragment):
    config = load_config(environ={"SYNSEMA_LLM_PROVIDER": "anthropic", "ANTHROPIC_API_KEY": "k", name: value})
    assert any(fragment in problem for problem in config.problems), config.problems


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_the_settings_as_synsema_toml_llm_keys(tmp_path, provider):
    program = tmp_path / "p.syn"
    program.write_text('require llm\nprint(llm_step("2+3?", [], "").text)\n')
    with FakeServer() as server:
        setting = 'reasoning_effort = "low"' if provider == "openai" else "thinking_budget = 2048"
        (tmp_path / "synsema.toml").write_text(
            f'[llm]\nprovider = "{provider}"\nbase_url = "{server.url}{"/v1" if provider == "openai" else ""}"\n'
            f'{setting}\nstream = true\n')
        if provider == "openai":
            server.stream(openai_chunks([{"content": "5"}]))
        else:
            server.stream(anthropic_events(anthropic_blocks(text="5", thinking="2+3"), "end_turn"))
        done = synsema(["run", "p.syn"], {"OPENAI_API_KEY": "k", "ANTHROPIC_API_KEY": "k"}, cwd=tmp_path)
        status = json.loads(synsema(["llm", "status", "--json"], {"ANTHROPIC_API_KEY": "k"}, cwd=tmp_path).stdout)
    assert done.returncode == 0 and done.stdout == "5\n", done.stderr
    body = server.bodies()[0]
    assert body["stream"] is True
    if provider == "openai":
        assert body["reasoning_effort"] == "low"
        assert status["reasoning_effort"] == {"value": "low", "source": "synsema.toml:4"}
    else:
        assert body["thinking"] == {"type": "enabled", "budget_tokens": 2048}
        assert status["thinking_budget"] == {"value": 2048, "source": "synsema.toml:4"}
    assert status["stream"] == {"value": True, "source": "synsema.toml:5"}
