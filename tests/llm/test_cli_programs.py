"""Synsema programs through the real CLI (`python -m synsema`), with a fake model server.

The server runs in this process on 127.0.0.1; the interpreter runs as a child process
configured only by environment variables, exactly as a user would configure it.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import LLM_VARIABLES, OPENAI_KEY
from .fakes import (FakeServer, anthropic_text, anthropic_tool_use, openai_error, openai_text,
                    openai_tool_call)

ROOT = Path(__file__).resolve().parents[2]

# The seed's "The safe loop", as written there, plus a line that runs it.
SAFE_LOOP = '''\
require llm

task get_weather(city)
    require net("api.weather.com")               -- the tool's own declaration
    give "weather in " + city + ": sunny"

let tools be {"get_weather": get_weather}        -- ALLOW-LIST (name → task)
let catalog be [{"name": "get_weather", "describe": "Weather for a city", "params": ["city"]}]

task run_agent(question, max_steps, budget)
    let spent be 0
    let n be 0
    let ctx be ""
    while (n < max_steps) and (spent <= budget)  -- bounded loop (budget guard in the condition)
        set n to n + 1
        let step be llm_step(question, catalog, ctx)
        set spent to spent + step["tokens"]
        when step["kind"] == "final"
            give step["text"]
        otherwise when contains(tools, step["name"])     -- only allow-listed names dispatch
            try                                          -- the model wrote the args: they can be wrong
                let result be call_tool(tools[step["name"]], step["args"])
                set ctx to ctx + " [" + step["name"] + " => " + text(result) + "]"
            recover err
                set ctx to ctx + " [" + step["name"] + " => error: " + err + "]"
        otherwise
            set ctx to ctx + " [" + step["name"] + " => not allowed]"   -- injected/hallucinated → rejected
    give "out of steps"

print(run_agent("Weather in Lima?", MAX_STEPS, BUDGET))
print(llm_usage())
'''


def safe_loop(tmp_path, max_steps=5, budget=10000) -> Path:
    path = tmp_path / "safe_loop.syn"
    path.write_text(SAFE_LOOP.replace("MAX_STEPS", str(max_steps)).replace("BUDGET", str(budget)))
    return path


def synsema(args, env=None, cwd=None) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in LLM_VARIABLES}
    clean["PYTHONPATH"] = str(ROOT)
    clean.update(env or {})
    return subprocess.run([sys.executable, "-m", "synsema", *args], capture_output=True, text=True,
                          env=clean, cwd=cwd or ROOT, timeout=60)


def openai_env(server: FakeServer, **extra) -> dict:
    return {"SYNSEMA_LLM_PROVIDER": "openai", "SYNSEMA_LLM_BASE_URL": server.url + "/v1",
            "OPENAI_API_KEY": "test", **extra}


def contexts(server: FakeServer) -> list[str]:
    """The user message of each request the server received."""
    return [body["messages"][1]["content"] for body in server.bodies()]


def test_the_seed_safe_loop_runs_a_tool_feeds_back_errors_and_rejections_then_ends(tmp_path):
    with FakeServer() as server:
        server.reply(openai_tool_call("get_weather", '{"city": "Lima", "units": "celsius"}', 50, 10))
        server.reply(openai_tool_call("delete_files", '{"path": "/"}', 60, 10))
        server.reply(openai_tool_call("get_weather", '{"city": "Lima"}', 70, 10))
        server.reply(openai_text("It is sunny in Lima.", 80, 10))
        done = synsema(["run", str(safe_loop(tmp_path))], openai_env(server))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["It is sunny in Lima.", "300"]
    sent = contexts(server)
    assert len(sent) == 4 and sent[0] == "Weather in Lima?"
    assert "[get_weather => error: " in sent[1] and "units" in sent[1]
    assert sent[2].endswith("[delete_files => not allowed]")
    assert sent[3].endswith("[get_weather => weather in Lima: sunny]")


def test_the_safe_loop_is_bounded_by_its_steps(tmp_path):
    with FakeServer() as server:
        for _ in range(3):
            server.reply(openai_tool_call("rm", "{}"))
        done = synsema(["run", str(safe_loop(tmp_path, max_steps=3))], openai_env(server))
    assert done.stdout.splitlines()[0] == "out of steps" and len(server.requests) == 3


def test_the_safe_loop_stops_at_its_own_token_budget(tmp_path):
    with FakeServer() as server:
        server.reply(openai_tool_call("rm", "{}", 100, 20)).reply(openai_tool_call("rm", "{}", 100, 20))
        done = synsema(["run", str(safe_loop(tmp_path, budget=200))], openai_env(server))
    assert done.stdout.splitlines() == ["out of steps", "240"] and len(server.requests) == 2


def test_the_process_budget_answers_the_budget_message(tmp_path):
    with FakeServer() as server:
        server.reply(openai_tool_call("rm", "{}", 100, 20))
        done = synsema(["run", str(safe_loop(tmp_path))], openai_env(server, SYNSEMA_LLM_BUDGET="100"))
    assert done.stdout.splitlines() == ["[llm budget exceeded: used 120 of 100 tokens]", "120"]


def test_a_malformed_reply_reaches_the_script_as_a_final(tmp_path):
    with FakeServer() as server:
        server.reply(openai_tool_call("get_weather", '{"city": '))
        done = synsema(["run", str(safe_loop(tmp_path))], openai_env(server))
    assert done.returncode == 0
    assert done.stdout.startswith("[invalid model reply: the arguments for 'get_weather' are not JSON")


def test_a_provider_error_is_a_runtime_error_with_location_not_a_traceback(tmp_path):
    with FakeServer() as server:
        server.reply(openai_error("bad key"), status=401)
        done = synsema(["run", str(safe_loop(tmp_path))], openai_env(server))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "safe_loop.syn:16:" in done.stderr
    assert "llm provider openai: HTTP 401 Unauthorized: bad key" in done.stderr


def test_typed_arguments_from_the_model_reach_call_tool_as_numbers(tmp_path):
    program = tmp_path / "add.syn"
    program.write_text('''require llm

task add(a: number, b: number = 1)
    give a + b

let tools be {"add": add}
let catalog be [tool_spec(add, "Add two numbers")]
let step be llm_step("What is 2 plus 3?", catalog, "")
when step["kind"] == "tool" and contains(tools, step["name"])
    print(call_tool(tools[step["name"]], step["args"]))
''')
    with FakeServer() as server:
        server.reply(openai_tool_call("add", '{"a": "2", "b": "3"}'))
        done = synsema(["run", str(program)], openai_env(server))
    assert done.returncode == 0, done.stderr
    assert done.stdout == "5\n"
    function = server.bodies()[0]["tools"][0]["function"]
    assert function["strict"] is True and function["parameters"] == {  # strict: the optional b is nullable
        "type": "object", "properties": {"a": {"type": "number"}, "b": {"type": ["number", "null"]}},
        "required": ["a", "b"], "additionalProperties": False}


def test_the_expression_forms_through_the_cli(tmp_path):
    program = tmp_path / "forms.syn"
    program.write_text('print(decide between ["yes", "no"] given "it rains")\nprint(reason about "the sky")\n')
    with FakeServer() as server:
        server.reply(openai_tool_call("choose", '{"choice": "Yes"}')).reply(openai_text("Rayleigh scattering."))
        done = synsema(["run", str(program)], openai_env(server))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["yes", "Rayleigh scattering."]


def test_llm_status_through_the_cli_never_prints_the_key(tmp_path):
    (tmp_path / ".env").write_text(f"OPENAI_API_KEY={OPENAI_KEY}\n")
    text = synsema(["llm", "status", "--env-file", ".env"], cwd=tmp_path)
    as_json = synsema(["llm", "status", "--json", "--env-file", ".env"], cwd=tmp_path)
    assert text.returncode == 0 and as_json.returncode == 0
    assert OPENAI_KEY not in text.stdout + text.stderr + as_json.stdout + as_json.stderr
    assert json.loads(as_json.stdout)["keys"]["OPENAI_API_KEY"] == {"present": True, "source": ".env"}
    not_named = synsema(["llm", "status", "--json"], cwd=tmp_path)  # a .env lying there is not read
    assert json.loads(not_named.stdout)["keys"]["OPENAI_API_KEY"] == {"present": False, "source": None}
    offline = synsema(["llm", "status", "--json"], cwd=tmp_path / "..")
    assert offline.returncode == 0 and json.loads(offline.stdout)["live"] is False
    broken = synsema(["llm", "status"], cwd=tmp_path / "..", env={"SYNSEMA_LLM_PROVIDER": "chatbot"})
    assert broken.returncode == 1 and "problem: unknown SYNSEMA_LLM_PROVIDER 'chatbot'" in broken.stdout


def test_a_program_that_never_asks_a_model_never_imports_httpx(tmp_path):
    program = tmp_path / "hello.syn"
    program.write_text('print("hello")\n')
    env = {"SYNSEMA_LLM_PROVIDER": "openai", "OPENAI_API_KEY": "test"}
    clean = {k: v for k, v in os.environ.items() if k not in LLM_VARIABLES}
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "synsema", "run", str(program)],
                          capture_output=True, text=True, cwd=ROOT, env={**clean, **env})
    assert done.stdout == "hello\n"
    imported = {line.split("|")[-1].strip() for line in done.stderr.splitlines() if "|" in line}
    assert not {name for name in imported if name.split(".")[0] in ("httpx", "httpcore")}
    assert "synsema.runtime.llm.http" not in imported


def test_the_json_report_counts_llm_tokens(tmp_path):
    with FakeServer() as server:
        server.reply(openai_text("done", 30, 12))
        done = synsema(["run", "--format", "json", str(safe_loop(tmp_path))], openai_env(server))
    assert json.loads(done.stdout)["llm_tokens"] == 42


def test_the_safe_loop_against_the_anthropic_messages_api(tmp_path):
    with FakeServer() as server:
        server.reply(anthropic_tool_use("get_weather", {"city": "Lima", "units": "C"}, text="Let me check."))
        server.reply(anthropic_tool_use("get_weather", {"city": "Lima"}))
        server.reply(anthropic_text("Sunny in Lima."))
        env = {"SYNSEMA_LLM_PROVIDER": "anthropic", "SYNSEMA_LLM_BASE_URL": server.url, "ANTHROPIC_API_KEY": "test"}
        done = synsema(["run", str(safe_loop(tmp_path))], env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["Sunny in Lima.", "111"]
    assert server.requests[0]["path"] == "/v1/messages"
    assert "[get_weather => error: " in server.bodies()[1]["messages"][0]["content"]


def test_math_catalog_entries_travel_under_wire_names_and_come_back_as_identifiers(tmp_path):
    program = tmp_path / "math_step.syn"
    program.write_text('let catalog be math.find("characteristic polynomial")\n'
                       'let step be llm_step("charpoly of [[1,2],[3,4]]", catalog, "")\n'
                       'print(step["name"], step["args"])\n')
    with FakeServer() as server:
        matrix = json.dumps({"nrows": 2, "ncols": 2, "rows": [[1, 2], [3, 4]]})
        server.reply(openai_tool_call("linalg_charpoly", json.dumps({"matrix": matrix})))
        done = synsema(["run", str(program)], openai_env(server))
    assert done.returncode == 0, done.stderr
    assert done.stdout == 'linalg.charpoly {matrix: {nrows: 2, ncols: 2, rows: [[1, 2], [3, 4]]}}\n'
    assert "linalg_charpoly" in [tool["function"]["name"] for tool in server.bodies()[0]["tools"]]


# ---------------------------------------------------------------- examples/agent_loop.syn
EXAMPLE = ROOT / "examples" / "agent_loop.syn"
REPLAY = {"SYNSEMA_LLM_PROVIDER": "replay", "SYNSEMA_LLM_CASSETTE": "examples/agent_loop.cassette.jsonl"}


def test_the_example_agent_loop_replays_a_multi_step_run_offline():
    done = synsema(["run", str(EXAMPLE)], REPLAY)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        'step 1: the model asks for get_weather with {city: "Atlantis"}',
        'step 2: the model asks for web_search with {query: "Atlantis weather forecast"}',
        'step 3: the model asks for get_weather with {city: "Lima"}',
        "In Lima it is sunny. I cannot tell you about Atlantis: there is no weather station there.",
        "tokens used: 1100",
    ]


def test_the_example_cassette_says_what_it_holds():
    first = (ROOT / "examples" / "agent_loop.cassette.jsonl").read_text().splitlines()[0]
    assert "Scripted model replies" in json.loads(first)["note"]


@pytest.mark.parametrize("env", [{}, REPLAY], ids=["offline", "replay"])
def test_the_example_agent_loop_passes_synsema_test(env):
    done = synsema(["test", str(EXAMPLE)], env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip().endswith("5 passed, 0 failed (5 total)")


@pytest.mark.parametrize("env, fragment", [
    ({"SYNSEMA_LLM_PROVIDER": "openai", "SYNSEMA_LLM_BASE_URL": "http://127.0.0.1:port/v1"}, "is not a valid URL"),
    ({"SYNSEMA_LLM_PROVIDER": "openai", "OPENAI_API_KEY": "\u201csk-pasted\u201d"}, "U+201C at position 1"),
])
def test_configuration_problems_are_errors_a_script_can_catch(tmp_path, env, fragment):
    program = tmp_path / "catch.syn"
    program.write_text('require llm\ntry\n    print(llm_step("hi", [], ""))\nrecover err\n    print("caught: " + err)\n')
    done = synsema(["run", str(program)], env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("caught: llm configuration: ") and fragment in done.stdout
    assert "Internal error" not in done.stderr and "sk-pasted" not in done.stdout
