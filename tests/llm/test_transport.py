"""Connection faults, retry rules, redirects and the whole-request deadline, on both providers,
against the fake server on 127.0.0.1 (SDK-built answers, SDK-validated requests)."""

import pytest

from synsema.lang.errors import SynError
from synsema.runtime.llm.step import llm_step
from synsema.runtime.llm.stream import llm_stream

from .conftest import ANTHROPIC_KEY, OPENAI_KEY
from .fakes import (FakeServer, anthropic_error, anthropic_stream, anthropic_text, openai_error, openai_stream,
                    openai_text)

def answer(provider: str, text: str) -> dict:
    return openai_text(text) if provider == "openai" else anthropic_text(text)


def error(provider: str, message: str) -> dict:
    return openai_error(message) if provider == "openai" else anthropic_error(message)


def events(provider: str, pieces: list[str]) -> list[str]:
    return openai_stream(pieces) if provider == "openai" else anthropic_stream(pieces)


@pytest.mark.parametrize("fault", ["reset", "close"])
def test_a_reset_or_a_close_without_an_answer_is_retried(served, fault):
    provider, server, _ = served
    server.reply(fault=fault).reply(answer(provider, "second try"))
    assert llm_step("hi", [], "")["text"] == "second try"
    assert len(server.requests) == 2


def test_a_kept_alive_connection_closed_as_it_is_reused_is_retried_on_a_new_one(served):
    provider, server, _ = served
    server.reply(answer(provider, "one")).reply(fault="close").reply(answer(provider, "two"))
    assert llm_step("one", [], "")["text"] == "one"
    assert llm_step("two", [], "")["text"] == "two"
    first, dropped, retried = (request["peer"] for request in server.requests)
    assert dropped == first and retried != first  # the reused connection, then a fresh one


def test_a_stream_is_retried_when_the_connection_fails_before_it_starts(served):
    provider, server, _ = served
    server.reply(fault="reset").stream(events(provider, ["a", "b"]))
    pieces = []
    assert llm_stream("hi", "", pieces.append) == "ab" and pieces == ["a", "b"]


def test_connection_faults_are_retried_a_bounded_number_of_times(served):
    provider, server, _ = served
    for _ in range(3):
        server.reply(fault="reset")
    with pytest.raises(SynError, match=rf"llm provider {provider}: cannot reach http://127\.0\.0\.1:\d+/\S+ "
                                       r"after 3 attempts: \w+"):
        llm_step("hi", [], "")
    assert len(server.requests) == 3


def test_408_is_retried(served):
    provider, server, _ = served
    server.reply(error(provider, "request timeout"), status=408).reply(answer(provider, "ok"))
    assert llm_step("hi", [], "")["text"] == "ok" and len(server.requests) == 2


def test_x_should_retry_false_stops_a_retry_the_status_would_allow(served):
    provider, server, _ = served
    server.reply(error(provider, "do not retry"), status=503, headers={"x-should-retry": "false"})
    with pytest.raises(SynError, match=rf"llm provider {provider}: HTTP 503 Service Unavailable: do not retry"):
        llm_step("hi", [], "")
    assert len(server.requests) == 1


def test_x_should_retry_true_retries_a_status_that_would_not_be(served):
    provider, server, _ = served
    server.reply(error(provider, "try again"), status=400, headers={"x-should-retry": "true"})
    server.reply(answer(provider, "ok"))
    assert llm_step("hi", [], "")["text"] == "ok" and len(server.requests) == 2


@pytest.mark.parametrize("status", [307, 308])
def test_a_redirect_on_the_same_host_is_followed_with_the_same_post(served, status):
    provider, server, _ = served
    moved = "/api/v1/chat/completions" if provider == "openai" else "/api/v1/messages"
    server.reply(None, status=status, headers={"location": moved}, raw=b"").reply(answer(provider, "moved"))
    assert llm_step("hi", [], "")["text"] == "moved"
    first, second = server.requests
    assert second["path"] == moved and second["body"] == first["body"]
    key = {name.lower(): value for name, value in second["headers"].items()}
    assert (key.get("authorization") or key.get("x-api-key")) in (f"Bearer {OPENAI_KEY}", ANTHROPIC_KEY)


def test_a_redirect_to_another_host_is_refused_naming_it(served):
    provider, server, _ = served
    elsewhere = "http://localhost:9/v1/steal"
    server.reply(None, status=308, headers={"location": elsewhere}, raw=b"")
    with pytest.raises(SynError) as raised:
        llm_step("hi", [], "")
    assert raised.value.message.startswith(f"llm provider {provider}: HTTP 308 from http://127.0.0.1:")
    assert f"redirects to {elsewhere}, another host; the request (which carries the API key) is not sent " \
           "there" in raised.value.message
    assert len(server.requests) == 1


def test_the_timeout_bounds_the_whole_request_not_each_read(served):
    provider, server, configure = served
    configure(SYNSEMA_LLM_TIMEOUT="1")
    server.reply(answer(provider, "slowly, a byte at a time"), trickle=0.05)  # ~20 s in all, never idle 1 s
    with pytest.raises(SynError, match=rf"llm provider {provider}: no answer within 1 s \(SYNSEMA_LLM_TIMEOUT\)"):
        llm_step("hi", [], "")
    assert server.hung_up() and len(server.requests) == 1  # the client left mid-answer, and did not retry


def test_the_timeout_bounds_a_trickled_stream_too(served):
    provider, server, configure = served
    configure(SYNSEMA_LLM_TIMEOUT="1")
    server.stream(events(provider, ["slow"] * 20), trickle=0.02)
    with pytest.raises(SynError, match=r"no answer within 1 s \(SYNSEMA_LLM_TIMEOUT\)"):
        llm_stream("hi", "", lambda piece: None)
    assert len(server.requests) == 1
