"""Offline placeholders, the process token budget, and configuration problems at first use."""

import pytest

from synsema.lang.errors import SynError
from synsema.runtime.llm import session
from synsema.runtime.llm.expressions import evaluate
from synsema.runtime.llm.step import llm_step
from synsema.stdlib import llm as llm_builtins

from .fakes import FakeServer, openai_text


def test_offline_llm_step_is_the_seed_placeholder(llm_env, rt):
    assert llm_builtins.llm_available(rt) is False
    assert llm_builtins.llm_step(rt, "Weather in Lima?", [], "") == {
        "kind": "final", "text": "[no llm provider]", "tokens": 0}
    assert llm_builtins.llm_usage(rt) == 0


@pytest.mark.parametrize("kind, subject, expected", [
    ("reason", "the sky", "[reasoning about: the sky]"),
    ("analyze", [1, "two"], '[analysis of: [1, "two"]]'),
    ("generate", "a haiku", "[generated: a haiku]"),
    ("decide", ["a", "b"], "[decision pending]"),
])
def test_offline_expression_forms_are_placeholders(llm_env, kind, subject, expected):
    assert evaluate(None, kind, subject, None, None, {}) == expected


def test_offline_ignores_the_budget(llm_env):
    llm_env(SYNSEMA_LLM_BUDGET="0")
    assert llm_step("hi", [], "")["text"] == "[no llm provider]"
    assert evaluate(None, "reason", "x", None, None, {}) == "[reasoning about: x]"


def test_past_the_budget_every_operation_answers_the_budget_message(llm_env):
    with FakeServer() as server:
        llm_env(SYNSEMA_LLM_PROVIDER="openai", SYNSEMA_LLM_BASE_URL=server.url + "/v1", SYNSEMA_LLM_BUDGET="30")
        server.reply(openai_text("first", prompt=20, completion=5)).reply(openai_text("second", prompt=20, completion=5))
        assert llm_step("one", [], "")["text"] == "first"      # 25 used: under 30
        assert llm_step("two", [], "")["text"] == "second"     # 50 used: past 30
        message = "[llm budget exceeded: used 50 of 30 tokens]"
        assert llm_step("three", [], "") == {"kind": "final", "text": message, "tokens": 0}
        for kind, subject in (("reason", "x"), ("analyze", "x"), ("generate", "x"), ("decide", ["a", "b"])):
            assert evaluate(None, kind, subject, None, None, {}) == message
        assert len(server.requests) == 2 and session.used_tokens() == 50


def test_a_budget_is_spent_when_used_reaches_it_and_zero_allows_nothing(llm_env):
    with FakeServer() as server:
        llm_env(SYNSEMA_LLM_PROVIDER="openai", SYNSEMA_LLM_BASE_URL=server.url + "/v1", SYNSEMA_LLM_BUDGET="25")
        server.reply(openai_text("only", prompt=20, completion=5))
        llm_step("one", [], "")
        assert llm_step("two", [], "")["text"] == "[llm budget exceeded: used 25 of 25 tokens]"
        llm_env(SYNSEMA_LLM_BUDGET="0")
        assert llm_step("one", [], "")["text"] == "[llm budget exceeded: used 0 of 0 tokens]"
        assert len(server.requests) == 1


def test_a_configuration_problem_is_a_language_error_at_first_use(llm_env, rt):
    llm_env(SYNSEMA_LLM_PROVIDER="openai", SYNSEMA_LLM_TIMEOUT="soon")
    assert llm_builtins.llm_available(rt) is False
    with pytest.raises(SynError, match=r"llm configuration: SYNSEMA_LLM_TIMEOUT must be .* \(see: synsema llm status\)"):
        llm_step("hi", [], "")
    with pytest.raises(SynError, match="llm configuration"):
        evaluate(None, "reason", "x", None, None, {})


# ---------------------------------------------------------------- catalog checks (offline too)
@pytest.mark.parametrize("catalog, fragment", [
    ("tools", "the catalog must be a list of tool maps, got text"),
    ([{"describe": "x"}], "catalog[0] must be a map with a text 'name'"),
    (["add"], "catalog[0] must be a map with a text 'name'"),
    ([{"name": "a"}, {"name": "a"}], "the catalog names 'a' twice"),
    ([{"name": "a", "describe": 3}], "catalog entry 'a': 'describe' must be text, got number"),
    ([{"name": "a", "params": "x"}], "catalog entry 'a': 'params' must be a list of texts"),
    ([{"name": "a", "params": ["x"], "optional": [1]}], "catalog entry 'a': 'optional' must be a list of texts"),
    ([{"name": "a", "params": ["x: float"]}], "catalog entry 'a': unknown parameter type 'float'"),
    ([{"name": "a", "input_schema": "{}"}], "catalog entry 'a': 'input_schema' must be a map of JSON data"),
])
def test_a_malformed_catalog_is_an_error_even_offline(llm_env, catalog, fragment):
    with pytest.raises(SynError, match="llm_step: " + fragment.replace("[", r"\[").replace("]", r"\]")):
        llm_step("hi", catalog, "")


def test_an_entry_may_bring_its_own_input_schema(llm_env):
    with FakeServer() as server:
        llm_env(SYNSEMA_LLM_PROVIDER="openai", SYNSEMA_LLM_BASE_URL=server.url + "/v1")
        schema = {"type": "object", "properties": {"matrix": {"type": "object"}}, "required": ["matrix"],
                  "additionalProperties": False}
        server.reply(openai_text("ok"))
        llm_step("det", [{"name": "linalg.det", "describe": "d", "params": ["matrix"], "input_schema": schema}], "")
        assert server.bodies()[0]["tools"][0]["function"]["parameters"] == schema
