"""What goes on the wire for each endpoint and model: current default models, the token-limit
field, base URLs, strict function schemas and Anthropic's prompt cache."""

import typing

import anthropic.types
import openai.types
import pytest

from synsema.runtime.llm.config import DEFAULT_MODELS, load_config
from synsema.runtime.llm.openai_chat import strict_schema, token_field
from synsema.runtime.llm.step import llm_step

from .fakes import FakeServer, anthropic_text, openai_text, openai_tool_call

ADD = [{"name": "add", "describe": "Add two numbers", "params": ["a: number", "b: number"], "optional": ["b"]}]


def _literals(alias) -> set[str]:
    found = set()
    for arg in typing.get_args(alias):
        found |= set(typing.get_args(arg)) if typing.get_origin(arg) is typing.Literal else {arg}
    return {name for name in found if isinstance(name, str)}


def test_the_default_models_are_in_the_installed_sdks_model_lists():
    assert DEFAULT_MODELS["openai"] in _literals(openai.types.ChatModel)
    assert DEFAULT_MODELS["anthropic"] in _literals(anthropic.types.Model)
    assert load_config({"ANTHROPIC_API_KEY": "k"}).model.value == DEFAULT_MODELS["anthropic"]


# ---------------------------------------------------------------- the token-limit field
@pytest.mark.parametrize("model, base_url, field", [
    ("o1", "http://localhost:8000/v1", "max_completion_tokens"),
    ("o3-mini", "http://localhost:8000/v1", "max_completion_tokens"),
    ("o4-mini-2025-04-16", "https://example.test/v1", "max_completion_tokens"),
    ("gpt-5", "http://localhost:8000/v1", "max_completion_tokens"),
    ("gpt-5.4-mini", "http://localhost:8000/v1", "max_completion_tokens"),
    ("openai/gpt-5-mini", "https://openrouter.ai/api/v1", "max_completion_tokens"),
    ("gpt-4.1-mini", "https://api.openai.com/v1", "max_completion_tokens"),
    ("gpt-4.1-mini", "https://openrouter.ai/api/v1", "max_tokens"),
    ("llama3.1:8b", "http://localhost:11434/v1", "max_tokens"),
    ("qwen3-omni", "http://localhost:8000/v1", "max_tokens"),
    ("gpt-4o", "http://localhost:8000/v1", "max_tokens"),
])
def test_token_field(model, base_url, field):
    assert token_field(model, base_url) == field


def test_every_sdk_reasoning_model_gets_max_completion_tokens():
    reasoning = [m for m in _literals(openai.types.ChatModel) if m.startswith(("o1", "o3", "o4", "gpt-5", "gpt-6"))]
    assert reasoning and all(token_field(m, "http://localhost/v1") == "max_completion_tokens" for m in reasoning)
    assert token_field("gpt-4o-mini", "http://localhost/v1") == "max_tokens"


def test_a_reasoning_model_is_sent_max_completion_tokens_on_any_endpoint(openai_server, llm_env):
    llm_env(SYNSEMA_LLM_MODEL="o3-mini", SYNSEMA_LLM_MAX_TOKENS="300")
    openai_server.reply(openai_text("ok"))
    llm_step("hi", [], "")
    body = openai_server.bodies()[0]
    assert body["max_completion_tokens"] == 300 and "max_tokens" not in body


# ---------------------------------------------------------------- base URLs
@pytest.mark.parametrize("suffix", ["", "/", "/v1", "/v1/"])
def test_an_anthropic_base_url_with_or_without_v1_posts_to_v1_messages(llm_env, suffix):
    with FakeServer() as server:
        llm_env(SYNSEMA_LLM_PROVIDER="anthropic", ANTHROPIC_API_KEY="k", ANTHROPIC_BASE_URL=server.url + suffix)
        server.reply(anthropic_text("ok"))
        llm_step("hi", [], "")
        assert server.requests[0]["path"] == "/v1/messages"


def test_openai_base_url_variable_reaches_the_request(llm_env):
    with FakeServer() as server:
        llm_env(SYNSEMA_LLM_PROVIDER="openai", OPENAI_BASE_URL=server.url + "/v1")
        server.reply(openai_text("ok"))
        llm_step("hi", [], "")
        assert server.requests[0]["path"] == "/v1/chat/completions"


# ---------------------------------------------------------------- strict function schemas
NUMBER = {"type": "number"}


@pytest.mark.parametrize("schema, strict", [
    ({"type": "object", "properties": {}, "required": [], "additionalProperties": False},
     {"type": "object", "properties": {}, "required": [], "additionalProperties": False}),
    ({"type": "object", "properties": {"a": NUMBER, "b": NUMBER}, "required": ["a"], "additionalProperties": False},
     {"type": "object", "properties": {"a": NUMBER, "b": {"type": ["number", "null"]}}, "required": ["a", "b"],
      "additionalProperties": False}),
    ({"type": "object", "properties": {"c": {"type": "string", "enum": ["x", "y"], "description": "d"}},
      "required": [], "additionalProperties": False},
     {"type": "object", "properties": {"c": {"type": ["string", "null"], "enum": ["x", "y", None], "description": "d"}},
      "required": ["c"], "additionalProperties": False}),
    ({"type": "object", "properties": {"xs": {"type": "array", "items": NUMBER}}, "required": ["xs"],
      "additionalProperties": False},
     {"type": "object", "properties": {"xs": {"type": "array", "items": NUMBER}}, "required": ["xs"],
      "additionalProperties": False}),
    # what cannot be strict stays as it is
    ({"type": "object", "properties": {"m": {"type": "object"}}, "required": ["m"], "additionalProperties": False}, None),
    ({"type": "object", "properties": {"xs": {"type": "array"}}, "required": ["xs"], "additionalProperties": False}, None),
    ({"type": "object", "properties": {"n": {"type": "integer", "minimum": 0}}, "required": ["n"],
      "additionalProperties": False}, None),
    ({"type": "object", "properties": {"a": NUMBER}, "required": ["a"]}, None),
    ({"type": "object", "properties": {"a": {"anyOf": [NUMBER, {"type": "string"}]}}, "required": ["a"],
      "additionalProperties": False}, None),
])
def test_strict_schema_rule(schema, strict):
    assert strict_schema(schema) == strict


def test_a_tool_with_a_map_parameter_goes_without_strict(openai_server):
    openai_server.reply(openai_text("ok"))
    llm_step("hi", [{"name": "f", "describe": "f", "params": ["m: map", "n: number"]}], "")
    function = openai_server.bodies()[0]["tools"][0]["function"]
    assert "strict" not in function and function["parameters"]["properties"]["m"] == {"type": "object"}


def test_a_strict_null_for_an_optional_parameter_drops_the_key(openai_server):
    openai_server.reply(openai_tool_call("add", '{"a": 2, "b": null}'))
    step = llm_step("add", ADD, "")
    assert step["args"] == {"a": 2}
    assert openai_server.bodies()[0]["tools"][0]["function"]["strict"] is True


def test_decide_s_forced_choice_is_strict(openai_server):
    from synsema.runtime.llm.expressions import evaluate
    openai_server.reply(openai_tool_call("choose", '{"choice": "no"}'))
    assert evaluate(None, "decide", ["yes", "no"], None, None, {}) == "no"
    assert openai_server.bodies()[0]["tools"][0]["function"]["strict"] is True


# ---------------------------------------------------------------- Anthropic prompt caching
def test_the_system_prompt_carries_the_cache_breakpoint(anthropic_server):
    anthropic_server.reply(anthropic_text("ok")).reply(anthropic_text("ok"))
    llm_step("one", ADD, "")
    llm_step("two", ADD, " [add => 5]")
    first, second = anthropic_server.bodies()
    assert first["system"] == [{"type": "text", "text": first["system"][0]["text"],
                                "cache_control": {"type": "ephemeral"}}]
    assert (first["system"], first["tools"]) == (second["system"], second["tools"])  # the shared, cached prefix
