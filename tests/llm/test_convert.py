"""Argument conversion: every row of the seed's table, plus the decisions the seed leaves open.

The table rows run twice: against `convert_args` directly, and end to end — the model's
arguments sent by the fake OpenAI-compatible server as the JSON text the API carries, read by
`llm_step` with a catalog written the way `tool_spec` writes it.
"""

import json

import pytest

from synsema.lang.toolschema import catalog_schema
from synsema.runtime.llm.convert import convert_args
from synsema.runtime.llm.step import llm_step

from .fakes import openai_tool_call

# (catalog params, optional, what the model wrote, what the script gets)
SEED_TABLE = [
    # a: number → "2" or 2 → the number 2
    (["a: number"], [], {"a": "2"}, {"a": 2}),
    (["a: number"], [], {"a": 2}, {"a": 2}),
    # ok: bool → "true" → true
    (["ok: bool"], [], {"ok": "true"}, {"ok": True}),
    # xs: list → "[1,2]" → [1, 2]
    (["xs: list"], [], {"xs": "[1,2]"}, {"xs": [1, 2]}),
    # m: map → "{\"a\":1}" → {a: 1}
    (["m: map"], [], {"m": "{\"a\":1}"}, {"m": {"a": 1}}),
    # s: text → 5 → the text "5"
    (["s: text"], [], {"s": 5}, {"s": "5"}),
    # an untyped parameter → 2 → the text "2"
    (["city"], [], {"city": 2}, {"city": "2"}),
    # a: number → "two" → the text "two" (call_tool rejects it)
    (["a: number"], [], {"a": "two"}, {"a": "two"}),
    # null or "null" for an optional parameter → the key is dropped
    (["a: number", "b: number"], ["b"], {"a": 1, "b": None}, {"a": 1}),
    (["a: number", "b: number"], ["b"], {"a": 1, "b": "null"}, {"a": 1}),
    (["name: text", "extra"], ["extra"], {"name": "n", "extra": None}, {"name": "n"}),
    # … or for a typed parameter other than text, even a required one
    (["a: number"], [], {"a": None}, {}),
    (["ok: bool"], [], {"ok": "null"}, {}),
    (["xs: list"], [], {"xs": None}, {}),
]


@pytest.mark.parametrize("params, optional, sent, expected", SEED_TABLE)
def test_seed_table_row(params, optional, sent, expected):
    assert convert_args(sent, catalog_schema(params, optional)) == expected


@pytest.mark.parametrize("params, optional, sent, expected", SEED_TABLE)
def test_seed_table_row_through_an_openai_compatible_endpoint(openai_server, params, optional, sent, expected):
    openai_server.reply(openai_tool_call("f", json.dumps(sent)))
    entry = {"name": "f", "describe": "a tool", "params": params, "optional": optional}
    step = llm_step("go", [entry], "")
    assert step == {"kind": "tool", "name": "f", "args": expected, "id": "call_1",
                    "calls": [{"id": "call_1", "name": "f", "args": expected}], "tokens": 25}
    assert type(step["args"].get("a", 0)) is type(expected.get("a", 0))


# ---------------------------------------------------------------- decisions the seed leaves open
@pytest.mark.parametrize("text, value", [
    ("2", 2), (" -3 ", -3), ("+4", 4), ("12345678901234567890", 12345678901234567890),
    ("2.5", 2.5), ("2.0", 2.0), ("1e3", 1000.0), (".5", 0.5),
])
def test_number_text_becomes_int_when_integral_text_else_float(text, value):
    got = convert_args({"a": text}, catalog_schema(["a: number"]))["a"]
    assert got == value and type(got) is type(value)


@pytest.mark.parametrize("text", ["nan", "inf", "-infinity", "1e999", "1_000", "0x10", "", "2 3"])
def test_number_text_that_is_not_a_finite_decimal_numeral_stays_text(text):
    assert convert_args({"a": text}, catalog_schema(["a: number"])) == {"a": text}


def test_a_json_float_stays_a_float_and_a_json_bool_is_not_a_number():
    schema = catalog_schema(["a: number"])
    assert convert_args({"a": 2.0}, schema)["a"] == 2.0
    assert convert_args({"a": True}, schema) == {"a": "true"}


@pytest.mark.parametrize("sent, value", [("TRUE", True), (" False ", False), (True, True), ("yes", "yes"),
                                         (1, "1")])
def test_bool_text_is_read_in_any_case_and_anything_else_stays_text(sent, value):
    assert convert_args({"ok": sent}, catalog_schema(["ok: bool"])) == {"ok": value}


def test_list_and_map_text_of_the_wrong_shape_stays_text():
    assert convert_args({"xs": "{\"a\":1}"}, catalog_schema(["xs: list"])) == {"xs": "{\"a\":1}"}
    assert convert_args({"m": "[1,2]"}, catalog_schema(["m: map"])) == {"m": "[1,2]"}
    assert convert_args({"m": "{not json"}, catalog_schema(["m: map"])) == {"m": "{not json"}
    assert convert_args({"xs": 3}, catalog_schema(["xs: list"])) == {"xs": "3"}


def test_non_text_values_for_text_become_compact_json_text():
    schema = catalog_schema(["s: text"])
    assert convert_args({"s": [1, 2]}, schema) == {"s": "[1,2]"}
    assert convert_args({"s": {"k": "v"}}, schema) == {"s": "{\"k\":\"v\"}"}
    assert convert_args({"s": 2.5}, schema) == {"s": "2.5"}
    assert convert_args({"s": True}, schema) == {"s": "true"}


def test_null_for_a_required_text_or_untyped_parameter_becomes_the_text_null():
    schema = catalog_schema(["s: text", "u"])
    assert convert_args({"s": None, "u": None}, schema) == {"s": "null", "u": "null"}
    assert convert_args({"s": "null"}, schema) == {"s": "null"}


def test_undeclared_keys_pass_through_for_call_tool_to_reject():
    schema = catalog_schema(["city"])
    assert convert_args({"city": "Lima", "units": 3}, schema) == {"city": "Lima", "units": 3}


def test_an_unknown_tool_converts_nothing():
    assert convert_args({"a": "2", "b": None}, None) == {"a": "2", "b": None}


def test_a_provided_schema_property_without_a_simple_type_keeps_the_json_value():
    schema = {"type": "object", "properties": {"p": {"anyOf": [{"type": "string"}, {"type": "object"}]}},
              "required": ["p"]}
    assert convert_args({"p": {"x": [1]}}, schema) == {"p": {"x": [1]}}


def test_integer_schema_properties_convert_like_numbers():
    schema = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
    assert convert_args({"n": "7"}, schema) == {"n": 7}
