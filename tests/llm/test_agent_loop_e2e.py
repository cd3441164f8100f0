"""The documented loop that runs every parallel call, end to end through the real CLI: three
tool turns of two parallel calls each, then a final answer, on each provider. Every request the
fake server receives is checked against the SDK's request types (see fakes.py)."""

import pytest

from .fakes import FakeServer, anthropic_text, anthropic_tool_uses, openai_text, openai_tool_calls
from .test_cli_programs import synsema

# The loop of README "Using a real model", as written there.
LOOP = '''\
require llm

task get_weather(city)
    give "weather in " + city + ": sunny"

task add(a: number, b: number = 1)
    give a + b

let tools be {"get_weather": get_weather, "add": add}      -- the allow-list
let catalog be [tool_spec(get_weather, "Weather for a city"), tool_spec(add, "Add two numbers")]

task run_agent(question, max_steps)
    let convo be []
    let n be 0
    while n < max_steps
        set n to n + 1
        let step be llm_step(question, catalog, convo)
        when step["kind"] == "final"
            give step["text"]
        set convo to convo + [step]                        -- the model's own turn, every call in it
        each call in step["calls"]                         -- run them all, in the model's order
            when contains(tools, call["name"])
                try
                    set convo to convo + [tool_result(call, call_tool(tools[call["name"]], call["args"]))]
                recover err
                    set convo to convo + [tool_result(call, "error: " + err)]
            otherwise
                set convo to convo + [tool_result(call, "not allowed")]
    give "out of steps"

print(run_agent("Weather in Lima and Quito, and 2+3, 4+5, 6+1?", 5))
print(llm_usage())
'''


def openai_script(server):
    server.reply(openai_tool_calls([("get_weather", '{"city": "Lima"}'), ("get_weather", '{"city": "Quito"}')]))
    server.reply(openai_tool_calls([("add", '{"a": "2", "b": 3}'), ("delete_files", '{"path": "/"}')]))
    server.reply(openai_tool_calls([("add", '{"a": 4, "b": 5}'), ("add", '{"a": "six"}')]))
    server.reply(openai_text("Sunny in both; 5 and 9; 6+1 failed."))


def anthropic_script(server):
    server.reply(anthropic_tool_uses([("get_weather", {"city": "Lima"}), ("get_weather", {"city": "Quito"})],
                                     text="Checking both cities."))
    server.reply(anthropic_tool_uses([("add", {"a": "2", "b": 3}), ("delete_files", {"path": "/"})]))
    server.reply(anthropic_tool_uses([("add", {"a": 4, "b": 5}), ("add", {"a": "six"})]))
    server.reply(anthropic_text("Sunny in both; 5 and 9; 6+1 failed."))


def openai_results(body) -> list[tuple[str, str]]:
    return [(m["tool_call_id"], m["content"]) for m in body["messages"] if m["role"] == "tool"]


def anthropic_results(body) -> list[tuple[str, str]]:
    return [(block["tool_use_id"], block["content"]) for m in body["messages"] if m["role"] == "user"
            for block in m["content"] if isinstance(block, dict) and block["type"] == "tool_result"]


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_three_turns_of_two_parallel_calls_then_a_final(tmp_path, provider):
    program = tmp_path / "loop.syn"
    program.write_text(LOOP)
    with FakeServer() as server:
        if provider == "openai":
            openai_script(server)
            env = {"SYNSEMA_LLM_PROVIDER": "openai", "OPENAI_BASE_URL": server.url + "/v1", "OPENAI_API_KEY": "k"}
        else:
            anthropic_script(server)
            env = {"SYNSEMA_LLM_PROVIDER": "anthropic", "ANTHROPIC_BASE_URL": server.url, "ANTHROPIC_API_KEY": "k"}
        done = synsema(["run", str(program)], env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["Sunny in both; 5 and 9; 6+1 failed.", "100" if provider == "openai" else "148"]
    bodies = server.bodies()
    assert len(bodies) == 4
    results = (openai_results if provider == "openai" else anthropic_results)(bodies[3])
    prefix = "call" if provider == "openai" else "toolu"
    assert [call_id for call_id, _ in results] == [f"{prefix}_1", f"{prefix}_2"] * 3
    contents = [content for _, content in results]
    assert contents[:4] == ["weather in Lima: sunny", "weather in Quito: sunny", "5", "not allowed"]
    assert contents[4] == "9" and contents[5].startswith("error: ") and "'a' must be number, got text" in contents[5]
    # each request carries the whole conversation so far: 2 more results per turn
    assert [len((openai_results if provider == "openai" else anthropic_results)(b)) for b in bodies] == [0, 2, 4, 6]
