"""What a model is shown of the math catalog, through both providers' real request types.

A script hands the whole catalog (`math.find`) and `tool_spec(math.tool(id), …)` entries to
`llm_step`; the real CLI sends them to a fake server on 127.0.0.1 speaking the OpenAI
chat-completions and Anthropic Messages wire formats (replies built from the official SDKs'
response models). Each captured request must validate against the official SDK's request
parameter type, carry tool names the APIs accept, and give every operation its full request
schema — structure, text patterns, bounds — exactly as the catalog exports it.
"""

from __future__ import annotations

import json
import re

import pytest
from pydantic import TypeAdapter

from conftest import run_synsema, synsema_env
from llm.fakes import FakeServer, anthropic_text, openai_text
from synsema.stdlib.math import catalog

PROGRAM = '''require llm
let everything be math.find("", limit = 100)
print(llm_step("Which operations are there?", everything, "").kind)
let chosen be [tool_spec(math.tool("linalg.det"), "Exact determinant"),
               tool_spec(math.tool("nt.integer.gcd"), "Exact gcd with Bezout coefficients")]
print(llm_step("Compute det [[1, 2], [3, 4]]", chosen, "").kind)
'''
WIRE_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")


def _sent(provider: str, tmp_path, reply: dict) -> list[dict]:
    program = tmp_path / "catalog.syn"
    program.write_text(PROGRAM, encoding="utf-8")
    with FakeServer() as server:
        server.reply(reply).reply(reply)
        env = synsema_env(SYNSEMA_LLM_PROVIDER=provider, SYNSEMA_LLM_MODEL="fake-model",
                          SYNSEMA_LLM_TIMEOUT="10",
                          SYNSEMA_LLM_BASE_URL=server.url + ("/v1" if provider == "openai" else ""),
                          OPENAI_API_KEY="sk-test", ANTHROPIC_API_KEY="sk-ant-test")
        done = run_synsema("run", program, cwd=tmp_path, env=env)
        assert done.returncode == 0, done.stderr
        assert done.stdout.split() == ["final", "final"]
        return server.bodies()


def _check_what_the_model_receives(tools: list[tuple[str, str, dict]]) -> None:
    """(wire name, description, schema) per tool: names carried, schemas exactly exported."""
    by_wire = {identifier.replace(".", "_"): identifier for identifier in catalog.TOOLS}
    for wire, description, schema in tools:
        assert WIRE_NAME.fullmatch(wire)
        tool = catalog.TOOLS[by_wire[wire]]
        assert schema == catalog.request_schema(tool)
        assert "$ref" not in json.dumps(schema)
        assert schema["type"] == "object" and schema["additionalProperties"] is False
        assert description


def _spot_checks(schemas: dict[str, dict]) -> None:
    """Structure, patterns and bounds a model needs to write a first valid request."""
    det = schemas["linalg_det"]["properties"]["matrix"]
    assert det["required"] == ["nrows", "ncols", "rows"]
    assert det["properties"]["rows"]["items"]["items"]["anyOf"][1]["pattern"].startswith("^(0|-?")
    assert "square" in det["description"].lower()
    gcd = schemas["nt_integer_gcd"]["properties"]["values"]
    assert (gcd["minItems"], gcd["maxItems"]) == (1, 8)
    assert gcd["items"]["anyOf"][1]["pattern"] == "^(0|-?([1-9][0-9]{0,299}))$"
    assert "Example: {\"values\": [12, 18, 27]}" in schemas["nt_integer_gcd"]["description"]


def test_openai_requests_validate_against_the_sdk_and_carry_every_schema(tmp_path):
    from openai.types.chat import ChatCompletion
    from openai.types.chat.completion_create_params import CompletionCreateParamsNonStreaming
    reply = ChatCompletion.model_validate(openai_text("done")).model_dump(mode="json")
    bodies = _sent("openai", tmp_path, reply)
    adapter = TypeAdapter(CompletionCreateParamsNonStreaming)
    for body in bodies:
        request = adapter.validate_python(body)
        list(request["messages"]), list(request["tools"])  # the SDK's iterables validate lazily
    everything = [(t["function"]["name"], t["function"]["description"], t["function"]["parameters"])
                  for t in bodies[0]["tools"]]
    assert len(everything) == len(catalog.TOOLS)
    _check_what_the_model_receives(everything)
    _spot_checks({name: schema for name, _, schema in everything})
    chosen = {t["function"]["name"]: t["function"]["parameters"] for t in bodies[1]["tools"]}
    assert sorted(chosen) == ["linalg_det", "nt_integer_gcd"]
    _check_what_the_model_receives([(n, "x", s) for n, s in chosen.items()])


def test_anthropic_requests_validate_against_the_sdk_and_carry_every_schema(tmp_path):
    from anthropic.types import Message
    from anthropic.types.message_create_params import MessageCreateParamsNonStreaming
    reply = Message.model_validate(anthropic_text("done")).model_dump(mode="json")
    bodies = _sent("anthropic", tmp_path, reply)
    adapter = TypeAdapter(MessageCreateParamsNonStreaming)
    for body in bodies:
        request = adapter.validate_python(body)
        list(request["messages"]), list(request["tools"])
    everything = [(t["name"], t["description"], t["input_schema"]) for t in bodies[0]["tools"]]
    assert len(everything) == len(catalog.TOOLS)
    _check_what_the_model_receives(everything)
    _spot_checks({name: schema for name, _, schema in everything})
    assert sorted(t["name"] for t in bodies[1]["tools"]) == ["linalg_det", "nt_integer_gcd"]


@pytest.mark.parametrize("identifier", ["linalg.det", "smt.solve", "sat.solve"])
def test_tool_spec_of_a_math_tool_and_its_find_entry_carry_the_same_schema(tmp_path, identifier):
    program = tmp_path / "spec.syn"
    program.write_text(f'''let spec be tool_spec(math.tool("{identifier}"), "d")
let entry be math.find("{identifier}", limit = 1)[0]
print(json_encode(spec.input_schema == entry.input_schema))
print(json_encode(keys(spec)))
print(json_encode(spec.input_schema))
''', encoding="utf-8")
    done = run_synsema("run", program, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    same, names, schema = done.stdout.splitlines()
    assert same == "true"
    assert json.loads(names) == ["name", "describe", "params", "optional", "input_schema"]
    assert json.loads(schema) == catalog.request_schema(catalog.TOOLS[identifier])
