"""The openai provider against a fake chat-completions server on 127.0.0.1 (real HTTP)."""

import json
import time

import pytest

from synsema.lang.errors import SynError
from synsema.runtime.llm import session
from synsema.runtime.llm.step import llm_step
from synsema.stdlib import llm as llm_builtins

from .conftest import OPENAI_KEY
from .fakes import FakeServer, openai_error, openai_text, openai_tool_call, openai_tool_calls

WEATHER = [{"name": "get_weather", "describe": "Weather for a city", "params": ["city"]}]
ADD = [{"name": "add", "describe": "Add two numbers", "params": ["a: number", "b: number"], "optional": ["b"]}]


def test_a_tool_call_with_string_typed_arguments_arrives_converted(openai_server):
    openai_server.reply(openai_tool_call("add", '{"a": "2", "b": "3"}', prompt=40, completion=9))
    step = llm_step("What is 2 plus 3?", ADD, "")
    assert step == {"kind": "tool", "name": "add", "args": {"a": 2, "b": 3}, "id": "call_1",
                    "calls": [{"id": "call_1", "name": "add", "args": {"a": 2, "b": 3}}], "tokens": 49}


def test_the_request_is_a_chat_completion_with_function_tools(openai_server):
    openai_server.reply(openai_text("sunny"))
    llm_step("Weather in Lima?", WEATHER, " [get_weather => error: boom]")
    [request] = openai_server.requests
    assert request["path"] == "/v1/chat/completions"
    assert request["headers"]["authorization"] == f"Bearer {OPENAI_KEY}"
    body = request["body"]
    assert body["model"] == "fake-model" and body["max_tokens"] == 1024
    assert [m["role"] for m in body["messages"]] == ["system", "user"]
    assert body["messages"][1]["content"].startswith("Weather in Lima?")
    assert "[get_weather => error: boom]" in body["messages"][1]["content"]
    assert body["tools"] == [{"type": "function", "function": {
        "name": "get_weather", "description": "Weather for a city",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}},
                       "required": ["city"], "additionalProperties": False}, "strict": True}}]
    assert body["tool_choice"] == "auto"


def test_a_final_text_answer(openai_server):
    openai_server.reply(openai_text("It is sunny in Lima.", prompt=12, completion=6))
    assert llm_step("Weather in Lima?", WEATHER, "") == {"kind": "final", "text": "It is sunny in Lima.", "tokens": 18}


def test_a_hallucinated_tool_name_passes_through_unconverted(openai_server):
    openai_server.reply(openai_tool_call("delete_everything", '{"path": "/", "force": "true"}'))
    step = llm_step("clean up", WEATHER, "")
    assert step["kind"] == "tool" and step["name"] == "delete_everything"
    assert step["args"] == {"path": "/", "force": "true"}


def test_malformed_json_arguments_are_an_invalid_model_reply_with_its_tokens(openai_server):
    openai_server.reply(openai_tool_call("add", '{"a": 2,', prompt=30, completion=4))
    step = llm_step("add", ADD, "")
    assert step["kind"] == "final" and step["tokens"] == 34
    assert step["text"].startswith("[invalid model reply: the arguments for 'add' are not JSON")


def test_arguments_that_are_json_but_not_an_object_are_invalid(openai_server):
    openai_server.reply(openai_tool_call("add", "[1, 2]"))
    assert "not a JSON object" in llm_step("add", ADD, "")["text"]


def test_empty_arguments_text_means_no_arguments(openai_server):
    openai_server.reply(openai_tool_call("add", ""))
    assert llm_step("add", ADD, "")["args"] == {}


@pytest.mark.parametrize("content", [None, "", "   "])
def test_empty_content_is_an_invalid_model_reply(openai_server, content):
    openai_server.reply(openai_text(content))
    assert llm_step("hi", WEATHER, "") == {
        "kind": "final", "text": "[invalid model reply: no content and no tool call]", "tokens": 25}


def test_an_unknown_response_shape_is_an_invalid_model_reply(openai_server):
    answer = {"object": "list", "data": []}
    openai_server.reply(answer)
    step = llm_step("hi", WEATHER, "")
    assert step["text"] == "[invalid model reply: unexpected response shape (no choices[0].message)]"
    # no usage reported: estimated, a token per 4 characters of the request's and the answer's JSON
    sent = len(json.dumps(openai_server.bodies()[0]))
    assert step["tokens"] == -(-sent // 4) + -(-len(json.dumps(answer)) // 4)


def test_a_body_that_is_not_json_is_an_invalid_model_reply(openai_server):
    openai_server.reply(raw=b"<html>gateway</html>", headers={"content-type": "text/html"})
    assert llm_step("hi", WEATHER, "")["text"] == "[invalid model reply: the response body is not JSON]"


def test_content_parts_are_joined(openai_server):
    reply = openai_text("")
    reply["choices"][0]["message"]["content"] = [{"type": "text", "text": "sun"}, {"type": "text", "text": "ny"}]
    openai_server.reply(reply)  # off the SDK's types, as some compatible servers answer
    assert llm_step("hi", WEATHER, "")["text"] == "sunny"


def test_every_parallel_tool_call_is_in_calls_and_the_first_also_at_the_top(openai_server):
    openai_server.reply(openai_tool_calls([("get_weather", '{"city": "Lima"}'), ("add", '{"a": "1"}'),
                                           ("get_weather", '{"city": "Quito"}')]))
    step = llm_step("hi", WEATHER + ADD, "")
    assert step["calls"] == [{"id": "call_1", "name": "get_weather", "args": {"city": "Lima"}},
                             {"id": "call_2", "name": "add", "args": {"a": 1}},
                             {"id": "call_3", "name": "get_weather", "args": {"city": "Quito"}}]
    assert (step["id"], step["name"], step["args"]) == ("call_1", "get_weather", {"city": "Lima"})


def test_an_empty_catalog_sends_no_tools_and_forces_a_final(openai_server):
    openai_server.reply(openai_text("Hello"))
    assert llm_step("hi", [], "") == {"kind": "final", "text": "Hello", "tokens": 25}
    body = openai_server.bodies()[0]
    assert "tools" not in body and "tool_choice" not in body


def test_a_tool_call_against_an_empty_catalog_is_invalid(openai_server):
    openai_server.reply(openai_tool_call("get_weather", "{}"))
    assert llm_step("hi", [], "")["text"] == "[invalid model reply: a tool call, but the catalog is empty]"


def test_tool_names_the_api_cannot_carry_are_translated_both_ways(openai_server):
    catalog = [{"name": "linalg.det", "describe": "Determinant", "params": ["m: list"]},
               {"name": "linalg_det", "describe": "A clash", "params": []}]
    openai_server.reply(openai_tool_call("linalg_det_2", '{"m": "[[1,2],[3,4]]"}'))
    step = llm_step("det?", catalog, "")
    names = [tool["function"]["name"] for tool in openai_server.bodies()[0]["tools"]]
    assert names == ["linalg_det_2", "linalg_det"]
    assert step["name"] == "linalg.det" and step["args"] == {"m": [[1, 2], [3, 4]]}


def test_429_then_success_is_retried_honouring_retry_after(openai_server):
    openai_server.reply(openai_error("Rate limit reached"), status=429, headers={"retry-after": "0"})
    openai_server.reply(openai_text("ok"))
    assert llm_step("hi", WEATHER, "")["text"] == "ok"
    assert len(openai_server.requests) == 2


def test_5xx_without_retry_after_backs_off_and_retries(openai_server):
    openai_server.reply(openai_error("upstream"), status=502)
    openai_server.reply(openai_text("ok"))
    started = time.monotonic()
    assert llm_step("hi", WEATHER, "")["text"] == "ok"
    assert time.monotonic() - started >= 0.4  # the first backoff step is 0.5 s


def test_retries_are_bounded_and_the_error_names_provider_and_status(openai_server):
    for _ in range(3):
        openai_server.reply(openai_error("The server is overloaded"), status=503, headers={"retry-after": "0"})
    with pytest.raises(SynError) as raised:
        llm_step("hi", WEATHER, "")
    assert raised.value.message == ("llm provider openai: HTTP 503 Service Unavailable after 3 attempts: "
                                    "The server is overloaded")
    assert len(openai_server.requests) == 3


def test_a_retry_after_beyond_the_bound_fails_at_once(openai_server):
    openai_server.reply(openai_error("quota"), status=429, headers={"retry-after": "3600"})
    with pytest.raises(SynError, match=r"HTTP 429 Too Many Requests; it asks to retry after 3600 s, longer "
                                       r"than the 30 s this client waits: quota"):
        llm_step("hi", WEATHER, "")
    assert len(openai_server.requests) == 1


def test_a_client_error_is_not_retried_and_never_shows_the_key(openai_server):
    openai_server.reply(openai_error("Incorrect API key provided", "invalid_request_error"), status=401)
    with pytest.raises(SynError) as raised:
        llm_step("hi", WEATHER, "")
    assert raised.value.message == "llm provider openai: HTTP 401 Unauthorized: Incorrect API key provided"
    assert OPENAI_KEY not in raised.value.message
    assert len(openai_server.requests) == 1


def test_a_timeout_is_a_catchable_language_error_naming_the_knob(llm_env):
    with FakeServer() as server:
        llm_env(SYNSEMA_LLM_PROVIDER="openai", SYNSEMA_LLM_BASE_URL=server.url + "/v1", SYNSEMA_LLM_TIMEOUT="0.3")
        server.reply(openai_text("too late"), delay=1.0)
        with pytest.raises(SynError, match=r"llm provider openai: no answer within 0.3 s \(SYNSEMA_LLM_TIMEOUT\)"):
            llm_step("hi", WEATHER, "")


def test_an_unreachable_endpoint_is_a_language_error(llm_env):
    with FakeServer() as server:
        url = server.url
    llm_env(SYNSEMA_LLM_PROVIDER="openai", SYNSEMA_LLM_BASE_URL=url + "/v1")
    with pytest.raises(SynError, match=r"llm provider openai: cannot reach http://127\.0\.0\.1:\d+/v1/chat/completions"):
        llm_step("hi", WEATHER, "")


def test_no_key_sends_no_authorization_header(llm_env):
    with FakeServer() as server:
        llm_env(SYNSEMA_LLM_PROVIDER="openai", SYNSEMA_LLM_BASE_URL=server.url + "/v1")
        server.reply(openai_text("ok"))
        llm_step("hi", [], "")
        assert "authorization" not in {name.lower() for name in server.requests[0]["headers"]}


def test_tokens_accumulate_in_llm_usage(openai_server, rt):
    openai_server.reply(openai_text("a", prompt=10, completion=2)).reply(openai_text("b", prompt=20, completion=3))
    assert llm_builtins.llm_usage(rt) == 0
    llm_builtins.llm_step(rt, "one", [], "")
    llm_builtins.llm_step(rt, "two", [], "")
    assert llm_builtins.llm_usage(rt) == 35 == session.used_tokens()


def test_the_builtins_check_the_llm_capability_and_report_availability(openai_server, rt):
    openai_server.reply(openai_text("ok"))
    assert llm_builtins.llm_available(rt) is True
    llm_builtins.llm_step(rt, "hi", [], None)  # a context of nothing is no context
    assert rt.checked == [("llm", None)]
    assert openai_server.bodies()[0]["messages"][1]["content"] == "hi"


def test_max_tokens_and_model_come_from_the_knobs(llm_env):
    with FakeServer() as server:
        llm_env(SYNSEMA_LLM_PROVIDER="openai", SYNSEMA_LLM_BASE_URL=server.url + "/v1/",
                SYNSEMA_LLM_MODEL="m-1", SYNSEMA_LLM_MAX_TOKENS="77")
        server.reply(openai_text("ok"))
        llm_step("hi", [], "")
        body = server.bodies()[0]
        assert (body["model"], body["max_tokens"]) == ("m-1", 77)
        assert server.requests[0]["path"] == "/v1/chat/completions"
        assert json.dumps(body)  # a plain JSON request


def test_a_password_in_the_base_url_never_reaches_a_connection_error(llm_env):
    with FakeServer() as server:
        port = server.url.rsplit(":", 1)[1]
    llm_env(SYNSEMA_LLM_PROVIDER="openai", SYNSEMA_LLM_BASE_URL=f"http://me:hunter2@127.0.0.1:{port}/v1")
    with pytest.raises(SynError) as raised:
        llm_step("hi", WEATHER, "")
    assert "hunter2" not in raised.value.message
    assert f"cannot reach http://***@127.0.0.1:{port}/v1/chat/completions" in raised.value.message


def test_the_url_s_password_is_sent_as_basic_auth(llm_env):
    with FakeServer() as server:
        llm_env(SYNSEMA_LLM_PROVIDER="openai", SYNSEMA_LLM_BASE_URL=server.url.replace("//", "//me:pw@") + "/v1")
        server.reply(openai_text("ok"))
        assert llm_step("hi", [], "")["text"] == "ok"
        assert server.requests[0]["headers"]["Authorization"] == "Basic bWU6cHc="
