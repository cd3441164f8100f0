"""The anthropic provider against a fake Messages API server on 127.0.0.1 (real HTTP)."""

import pytest

from synsema.lang.errors import SynError
from synsema.runtime.llm.step import llm_step

from .conftest import ANTHROPIC_KEY
from .fakes import anthropic_error, anthropic_text, anthropic_tool_use

ADD = [{"name": "add", "describe": "Add two numbers", "params": ["a: number", "b: number"], "optional": ["b"]}]


def test_a_tool_use_block_with_string_typed_input_arrives_converted(anthropic_server):
    anthropic_server.reply(anthropic_tool_use("add", {"a": "2", "b": 3}, input_tokens=50, output_tokens=11))
    assert llm_step("What is 2 plus 3?", ADD, "") == {
        "kind": "tool", "name": "add", "args": {"a": 2, "b": 3}, "id": "toolu_1",
        "calls": [{"id": "toolu_1", "name": "add", "args": {"a": 2, "b": 3}}], "tokens": 61}


def test_the_request_is_a_messages_call_with_tools(anthropic_server):
    anthropic_server.reply(anthropic_text("5"))
    llm_step("What is 2 plus 3?", ADD, " [add => 5]")
    [request] = anthropic_server.requests
    assert request["path"] == "/v1/messages"
    assert request["headers"]["x-api-key"] == ANTHROPIC_KEY
    assert request["headers"]["anthropic-version"] == "2023-06-01"
    body = request["body"]
    assert body["model"] == "fake-model" and body["max_tokens"] == 1024 and body["system"]
    assert body["messages"] == [{"role": "user", "content": "What is 2 plus 3?\n\nContext so far:\n[add => 5]"}]
    assert body["tools"] == [{"name": "add", "description": "Add two numbers", "input_schema": {
        "type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
        "required": ["a"], "additionalProperties": False}}]
    assert body["tool_choice"] == {"type": "auto"}


def test_tool_use_wins_over_the_text_that_comes_with_it(anthropic_server):
    anthropic_server.reply(anthropic_tool_use("add", {"a": 1}, text="I will add."))
    assert llm_step("add", ADD, "")["kind"] == "tool"


def test_text_blocks_are_the_final_answer(anthropic_server):
    anthropic_server.reply(anthropic_text("Five.", input_tokens=9, output_tokens=2))
    assert llm_step("add", ADD, "") == {"kind": "final", "text": "Five.", "tokens": 11}


def test_a_hallucinated_tool_name_passes_through(anthropic_server):
    anthropic_server.reply(anthropic_tool_use("send_email", {"to": "x@example.com"}))
    step = llm_step("add", ADD, "")
    assert (step["name"], step["args"]) == ("send_email", {"to": "x@example.com"})


def test_input_that_is_not_a_json_object_is_an_invalid_model_reply(anthropic_server):
    reply = anthropic_tool_use("add", {}, input_tokens=5, output_tokens=1)
    reply["content"][0]["input"] = "{oops"  # off the SDK's types: what a broken proxy might send
    anthropic_server.reply(reply)
    step = llm_step("add", ADD, "")
    assert step["kind"] == "final" and step["tokens"] == 6
    assert step["text"].startswith("[invalid model reply: the arguments for 'add' are not JSON")


def test_empty_content_is_an_invalid_model_reply(anthropic_server):
    anthropic_server.reply(anthropic_text(""))
    assert llm_step("add", ADD, "")["text"] == "[invalid model reply: no content and no tool call]"


def test_an_unknown_shape_is_an_invalid_model_reply(anthropic_server):
    anthropic_server.reply({"type": "message", "completion": "legacy"})
    assert llm_step("add", ADD, "")["text"] == "[invalid model reply: unexpected response shape (no content list)]"


def test_overloaded_529_then_success_is_retried(anthropic_server):
    anthropic_server.reply(anthropic_error("Overloaded"), status=529, headers={"retry-after": "0"})
    anthropic_server.reply(anthropic_text("ok"))
    assert llm_step("add", ADD, "")["text"] == "ok"
    assert len(anthropic_server.requests) == 2


def test_an_error_status_names_the_provider_and_the_api_message(anthropic_server):
    anthropic_server.reply(anthropic_error("invalid x-api-key", "authentication_error"), status=401)
    with pytest.raises(SynError) as raised:
        llm_step("add", ADD, "")
    assert raised.value.message == "llm provider anthropic: HTTP 401 Unauthorized: invalid x-api-key"


def test_dotted_names_are_translated_for_the_api_and_back(anthropic_server):
    catalog = [{"name": "nt.factor", "describe": "Factor an integer", "params": ["n: number"]}]
    anthropic_server.reply(anthropic_tool_use("nt_factor", {"n": "12"}))
    step = llm_step("factor 12", catalog, "")
    assert anthropic_server.bodies()[0]["tools"][0]["name"] == "nt_factor"
    assert (step["name"], step["args"]) == ("nt.factor", {"n": 12})
