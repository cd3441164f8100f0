"""The documented loop that runs every parallel call, end to end through the real CLI: three
tool turns of two parallel calls each, then a final answer, on each provider. Every request the
fake server receives is checked against the SDK's request types (see fakes.py)."""

import json
import os
import subprocess
import sys

import pytest

from .conftest import LLM_VARIABLES
from .fakes import FakeServer, anthropic_text, anthropic_tool_uses, openai_text, openai_tool_calls
from .test_cli_programs import ROOT, synsema

EXAMPLE = ROOT / "examples" / "parallel_tools.syn"


def readme_section(title: str) -> str:
    text = (ROOT / "README.md").read_text()
    start = text.index(f"## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start:end if end != -1 else len(text)]


def test_the_readme_shows_the_example_s_loop_as_it_is():
    section = readme_section("Using a real model")
    block = section.split("### The loop that runs every call", 1)[1].split("```", 2)[1].removeprefix("\n")
    assert block.strip() and block in EXAMPLE.read_text()


def test_offline_the_example_answers_the_placeholder():
    done = synsema(["run", str(EXAMPLE)])
    assert done.returncode == 0 and done.stdout.splitlines() == ["[no llm provider]", "tokens used: 0"]


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
    program = EXAMPLE
    with FakeServer() as server:
        if provider == "openai":
            openai_script(server)
            env = {"SYNSEMA_LLM_PROVIDER": "openai", "OPENAI_BASE_URL": server.url + "/v1", "OPENAI_API_KEY": "k"}
        else:
            anthropic_script(server)
            env = {"SYNSEMA_LLM_PROVIDER": "anthropic", "ANTHROPIC_BASE_URL": server.url, "ANTHROPIC_API_KEY": "k"}
        done = synsema(["run", str(program)], env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["Sunny in both; 5 and 9; 6+1 failed.",
                                      "tokens used: 100" if provider == "openai" else "tokens used: 148"]
    bodies = server.bodies()
    assert len(bodies) == 4
    results = (openai_results if provider == "openai" else anthropic_results)(bodies[3])
    prefix = "call" if provider == "openai" else "toolu"
    # the fake server repeats the ids toolu_1/toolu_2 (call_1/call_2) every turn: the repeats are
    # replaced so that the conversation's ids stay unique
    assert [call_id for call_id, _ in results] == [f"{prefix}_{n}" for n in range(1, 7)]
    contents = [content for _, content in results]
    assert contents[:4] == ["weather in Lima: sunny", "weather in Quito: sunny", "5", "not allowed"]
    assert contents[4] == "9" and contents[5].startswith("error: ") and "'a' must be number, got text" in contents[5]
    # each request carries the whole conversation so far: 2 more results per turn
    assert [len((openai_results if provider == "openai" else anthropic_results)(b)) for b in bodies] == [0, 2, 4, 6]


def shell_blocks(section: str) -> dict[str, str]:
    """Each `### title` of the section → its first ```sh block."""
    blocks = {}
    for part in section.split("\n### ")[1:]:
        title, _, body = part.partition("\n")
        if "```sh\n" in body:
            blocks[title] = body.split("```sh\n", 1)[1].split("```", 1)[0]
    return blocks


@pytest.mark.parametrize("title, provider, model, base_url", [
    ("OpenAI", "openai", "gpt-4.1-mini", "https://api.openai.com/v1"),
    ("Anthropic", "anthropic", "claude-haiku-4-5", "https://api.anthropic.com"),
    ("A local OpenAI-compatible server (vLLM, Ollama, llama.cpp)", "openai", "qwen3:8b", "http://localhost:11434/v1"),
    ("OpenRouter", "openai", "openai/gpt-4.1-mini", "https://openrouter.ai/api/v1"),
])
def test_the_readme_s_settings_resolve_as_it_says(title, provider, model, base_url):
    block = shell_blocks(readme_section("Using a real model"))[title]
    env = dict(line.removeprefix("export ").split("=", 1) for line in block.splitlines() if line.startswith("export "))
    assert "synsema llm status" in block and "synsema run examples/parallel_tools.syn" in block
    done = synsema(["llm", "status", "--json"], env)
    status = json.loads(done.stdout)
    assert done.returncode == 0 and status["live"] is True and status["problems"] == []
    assert (status["provider"]["value"], status["model"]["value"], status["base_url"]["value"]) == (
        provider, model, base_url)


def test_the_readme_s_record_and_replay_commands_work(tmp_path):
    import shlex
    block = shell_blocks(readme_section("Using a real model"))["Record once, replay for free"]
    record, replay = [shlex.split(line) for line in block.strip().splitlines()]
    def run(words, extra):
        env = dict(word.split("=", 1) for word in words if "=" in word and not word.startswith("examples"))
        args = [word for word in words[words.index("synsema") + 1:]]
        env["SYNSEMA_LLM_CASSETTE"] = str(tmp_path / env["SYNSEMA_LLM_CASSETTE"])
        return synsema(args, {**env, **extra})
    with FakeServer() as server:
        openai_script(server)
        recorded = run(record, {"OPENAI_BASE_URL": server.url + "/v1", "OPENAI_API_KEY": "k"})
    assert recorded.returncode == 0, recorded.stderr
    replayed = run(replay, {})
    assert replayed.returncode == 0, replayed.stderr
    assert replayed.stdout == recorded.stdout and replayed.stdout.startswith("Sunny in both")


def test_the_readme_s_hand_written_cassette_line_is_the_one_a_miss_shows_and_replays(tmp_path):
    part = readme_section("Using a real model").split("### Cassettes: the replay file, and writing one by hand\n", 1)[1]
    part = part.split("\n### ", 1)[0]
    commands = part.split("```sh\n", 1)[1].split("```", 1)[0]
    line = part.split("```json\n", 1)[1].split("```", 1)[0]
    quoted = part.split("says `", 1)[1].split(" (request key", 1)[0]
    env = {k: v for k, v in os.environ.items() if k not in LLM_VARIABLES}
    env.update(PYTHONPATH=str(ROOT), PATH=os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", ""))

    def shell():
        return subprocess.run(["bash", "-c", commands], cwd=tmp_path, env=env, capture_output=True, text=True,
                              timeout=60)
    missed = shell()
    assert missed.returncode == 1 and missed.stdout == ""
    message = missed.stderr.splitlines()[0]
    assert quoted.replace("\n", " ") in message
    side = tmp_path / "capital.missing.jsonl"
    assert f"is in {side.name}: " in message
    shown = json.loads(side.read_text(encoding="utf-8"))
    assert message.split(f"is in {side.name}: ", 1)[1].startswith(json.dumps(shown, ensure_ascii=False)[:100])
    assert shown["request"] == json.loads(line)["request"]
    (tmp_path / "capital.jsonl").write_text(line, encoding="utf-8")
    answered = shell()
    assert (answered.returncode, answered.stdout, answered.stderr) == (0, "Lima.\n", "")
