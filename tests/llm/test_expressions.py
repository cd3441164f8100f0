"""reason / analyze / generate / decide with a live provider (the fake OpenAI server)."""

import json

import pytest

from synsema.lang.errors import SynError
from synsema.runtime.llm.expressions import evaluate

from .fakes import openai_text, openai_tool_call


def choose(value: str) -> dict:
    return openai_tool_call("choose", json.dumps({"choice": value}))


def test_reason_sends_the_subject_and_its_details_and_returns_the_text(openai_server):
    openai_server.reply(openai_text("Because of the pressure drop."))
    answer = evaluate(None, "reason", "falling barometer", "it is windy", "forecast", {"depth": 2})
    assert answer == "Because of the pressure drop."
    body = openai_server.bodies()[0]
    prompt = body["messages"][1]["content"]
    assert "Subject: falling barometer" in prompt and "Given: it is windy" in prompt
    assert "Objective: forecast" in prompt and "depth: 2" in prompt
    assert "tools" not in body


def test_analyze_and_generate_return_the_model_text(openai_server):
    openai_server.reply(openai_text("Mostly positive.")).reply(openai_text("Rain on tin roofs"))
    assert evaluate(None, "analyze", ["great", "ok"], None, "sentiment", {}) == "Mostly positive."
    assert evaluate(None, "generate", "a haiku", None, None, {}) == "Rain on tin roofs"
    assert 'Subject: ["great", "ok"]' in openai_server.bodies()[0]["messages"][1]["content"]
    assert "Target: a haiku" in openai_server.bodies()[1]["messages"][1]["content"]


def test_an_empty_answer_is_an_invalid_model_reply_text(openai_server):
    openai_server.reply(openai_text(""))
    assert evaluate(None, "reason", "x", None, None, {}) == "[invalid model reply: no content and no tool call]"


def test_decide_forces_a_choice_tool_with_the_options_as_an_enum(openai_server):
    openai_server.reply(choose("approve"))
    assert evaluate(None, "decide", ["approve", "reject"], "the refund is $20", None, {}) == "approve"
    body = openai_server.bodies()[0]
    assert body["tool_choice"] == {"type": "function", "function": {"name": "choose"}}
    parameters = body["tools"][0]["function"]["parameters"]
    assert parameters["properties"]["choice"] == {"type": "string", "enum": ["approve", "reject"]}
    assert "Given: the refund is $20" in body["messages"][1]["content"]


@pytest.mark.parametrize("said", ["  APPROVE ", '"approve"', "Approve.", "'approve'", "approve\n"])
def test_decide_normalises_case_whitespace_quotes_and_a_final_period(openai_server, said):
    openai_server.reply(openai_text(said))
    assert evaluate(None, "decide", ["approve", "reject"], None, None, {}) == "approve"
    assert len(openai_server.requests) == 1


def test_decide_returns_the_option_byte_for_byte(openai_server):
    openai_server.reply(choose("needs review"))
    assert evaluate(None, "decide", ["Needs  Review", "Done"], None, None, {}) == "Needs  Review"


def test_decide_retries_once_with_feedback(openai_server):
    openai_server.reply(choose("maybe")).reply(choose("reject"))
    assert evaluate(None, "decide", ["approve", "reject"], None, None, {}) == "reject"
    retry = openai_server.bodies()[1]["messages"][1]["content"]
    assert 'Your previous answer was "maybe", which is not one of the options.' in retry


def test_decide_retries_after_an_unreadable_reply(openai_server):
    openai_server.reply(openai_tool_call("choose", "{broken")).reply(choose("approve"))
    assert evaluate(None, "decide", ["approve", "reject"], None, None, {}) == "approve"
    assert "Your previous answer was nothing readable" in openai_server.bodies()[1]["messages"][1]["content"]


def test_decide_fails_with_an_error_after_a_second_miss(openai_server):
    openai_server.reply(choose("maybe")).reply(openai_text("perhaps"))
    with pytest.raises(SynError) as raised:
        evaluate(None, "decide", ["approve", "reject"], None, None, {})
    assert raised.value.message == ('decide: the model chose none of the options ["approve", "reject"] '
                                    '(it answered "maybe", then "perhaps")')
    assert len(openai_server.requests) == 2


def test_an_ambiguous_normalised_answer_is_a_miss(openai_server):
    openai_server.reply(openai_text("YES")).reply(choose("Yes"))
    assert evaluate(None, "decide", ["Yes", "yes"], None, None, {}) == "Yes"
    assert len(openai_server.requests) == 2


def test_decide_returns_non_text_options_as_values(openai_server):
    openai_server.reply(choose("2"))
    assert evaluate(None, "decide", [1, 2, 3], None, None, {}) == 2


def test_decide_splits_text_options_at_commas(openai_server):
    openai_server.reply(choose("reject"))
    assert evaluate(None, "decide", " approve ,reject,, ", None, None, {}) == "reject"
    parameters = openai_server.bodies()[0]["tools"][0]["function"]["parameters"]
    assert parameters["properties"]["choice"]["enum"] == ["approve", "reject"]


@pytest.mark.parametrize("subject, fragment", [([], "an empty list"), ({"a": 1}, "map"), (3, "number")])
def test_decide_needs_a_non_empty_list_even_offline(llm_env, subject, fragment):
    with pytest.raises(SynError, match=f"decide needs a non-empty list of options, or text of options "
                                       f"separated by commas, got {fragment}"):
        evaluate(None, "decide", subject, None, None, {})


def test_decide_text_without_an_option_is_refused_offline(llm_env):
    with pytest.raises(SynError, match="got text with none"):
        evaluate(None, "decide", " , ", None, None, {})
