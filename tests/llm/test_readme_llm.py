"""Every code block of the README's LLM sections ("Tools and models" and "Using a real model")
is run by a test: the Synsema blocks offline and against the fake server on both providers, the
shell blocks as written (the fake server standing in for the real endpoint), and the rest by the
tests named in COVERED_ELSEWHERE. A new block that no test runs fails here."""

import os
import subprocess
import sys

import pytest

from .conftest import LLM_VARIABLES
from .fakes import FakeServer, anthropic_blocks, anthropic_events, anthropic_tool_uses, openai_chunks, openai_tool_calls
from .test_agent_loop_e2e import EXAMPLE, anthropic_script, openai_script, readme_section
from .test_cli_programs import ROOT, synsema

# Blocks another test runs, by a line each holds → the test.
COVERED_ELSEWHERE = {
    "SYNSEMA_LLM_PROVIDER=record": "test_agent_loop_e2e.py::test_the_readme_s_record_and_replay_commands_work",
    "capital.syn": "test_agent_loop_e2e.py::test_the_readme_s_hand_written_cassette_line_is_the_one_a_miss_shows_and_replays",
    '"prompt": "What is the capital of Peru?"': "the same test (the line it writes to the cassette)",
    "task run_agent(question, max_steps)": "test_agent_loop_e2e.py: the block is in examples/parallel_tools.syn, run there",
    "parallel_map(summarise": "tests/concurrency/test_parallel_map.py::test_the_readme_s_fan_out_block_runs",
}


def llm_blocks() -> list[tuple[str, str]]:
    """(language, code) of each fenced block in the LLM sections."""
    text = (ROOT / "README.md").read_text()
    start = text.index("\n### Tools and models\n")
    tour = text[start:text.index("\n### ", start + 1)]
    found = []
    for part in (tour, readme_section("Using a real model")):
        for block in part.split("```")[1::2]:
            language, _, code = block.partition("\n")
            found.append((language.strip(), code))
    return found


def kind(language: str, code: str) -> str | None:
    """How a block is run: "syn", "setup" (a provider's shell block) or a key of COVERED_ELSEWHERE."""
    for line in COVERED_ELSEWHERE:
        if line in code:
            return line
    if language == "" and code.startswith("require llm\n"):
        return "syn"
    if language == "sh" and code.rstrip().endswith("synsema run examples/parallel_tools.syn"):
        return "setup"
    return None


def test_every_block_of_the_llm_sections_is_run_by_a_test():
    blocks = llm_blocks()
    assert len(blocks) >= 10
    assert [code for language, code in blocks if kind(language, code) is None] == []
    assert sum(kind(*block) == "syn" for block in blocks) == 3


def synsema_blocks() -> list[str]:
    return [code for language, code in llm_blocks() if kind(language, code) == "syn"]


@pytest.mark.parametrize("index", range(3))
def test_each_synsema_block_runs_offline(tmp_path, index):
    program = tmp_path / "block.syn"
    program.write_text(synsema_blocks()[index])
    done = synsema(["run", str(program)])
    assert done.returncode == 0, done.stderr
    assert done.stdout in ("", "[no llm provider]\n", "final\n")


def answers(provider: str, server: FakeServer, code: str) -> str:
    """Script the server for a block; what the block prints."""
    if "llm_stream" in code:
        if provider == "openai":
            server.stream(openai_chunks([{"content": "A fox ran."}, {"content": "\nIt slept."}]))
        else:
            server.stream(anthropic_events(anthropic_blocks(text="A fox ran.\nIt slept."), piece=10))
        return "A fox ran.\n\nIt slept.\n"  # two pieces, each printed on its line
    calls = openai_tool_calls([("add", '{"a": 2, "b": 3}')]) if provider == "openai" else \
        anthropic_tool_uses([("add", {"a": 2, "b": 3})])
    if "stream = true" in code:
        server.stream(openai_chunks([{"tool_calls": [{"index": 0, "id": "call_1", "type": "function", "function": {
            "name": "add", "arguments": '{"a": 2, "b": 3}'}}]}], "tool_calls") if provider == "openai"
            else anthropic_events(anthropic_blocks([("add", {"a": 2, "b": 3})]), "tool_use"))
        return "tool\n"
    server.reply(calls)
    return "5\n"


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
@pytest.mark.parametrize("index", range(3))
def test_each_synsema_block_runs_against_the_local_server(tmp_path, provider, index):
    code = synsema_blocks()[index]
    program = tmp_path / "block.syn"
    program.write_text(code)
    with FakeServer() as server:
        printed = answers(provider, server, code)
        done = synsema(["run", str(program)], {"SYNSEMA_LLM_PROVIDER": provider, "OPENAI_API_KEY": "k",
                                               "ANTHROPIC_API_KEY": "k", "SYNSEMA_LLM_BASE_URL": server.url
                                               + ("/v1" if provider == "openai" else "")})
    assert done.returncode == 0, done.stderr
    assert done.stdout == printed and len(server.requests) == 1


SETUPS = ["OpenAI", "Anthropic", "A local OpenAI-compatible server (vLLM, Ollama, llama.cpp)", "OpenRouter"]


@pytest.mark.parametrize("title", SETUPS)
def test_each_provider_s_shell_block_runs_as_written(tmp_path, title):
    """The block in bash, the fake server answering in place of the endpoint it names
    (SYNSEMA_LLM_BASE_URL wins over OPENAI_BASE_URL/ANTHROPIC_BASE_URL and the defaults)."""
    part = readme_section("Using a real model").split(f"\n### {title}\n", 1)[1]
    commands = part.split("```sh\n", 1)[1].split("```", 1)[0]
    provider = "anthropic" if "ANTHROPIC_API_KEY" in commands else "openai"
    env = {k: v for k, v in os.environ.items() if k not in LLM_VARIABLES}
    env.update(PYTHONPATH=str(ROOT), PATH=os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", ""))
    with FakeServer() as server:
        (openai_script if provider == "openai" else anthropic_script)(server)
        env["SYNSEMA_LLM_BASE_URL"] = server.url + ("/v1" if provider == "openai" else "")
        done = subprocess.run(["bash", "-ec", commands], cwd=ROOT, env=env, capture_output=True, text=True,
                              timeout=120)
    assert done.returncode == 0, done.stderr
    assert "LLM: live" in done.stdout and f"provider           {provider}" in done.stdout
    assert done.stdout.rstrip().splitlines()[-2] == "Sunny in both; 5 and 9; 6+1 failed."
    assert len(server.requests) == 4 and EXAMPLE.name in commands
