"""Acceptance: the seed's "Private data in the loop" program (seeds/000, tool calling), as written,
against a fake OpenAI-compatible server on 127.0.0.1 that answers a tool call add(a=2, b=3).

With the ceiling items `llm=customers@127.0.0.1` and `declassify=customers` it prints 5. Without
the llm item (or with it for another host) the private prompt must never leave the process: the
run is rejected before any request reaches the server.
"""

from __future__ import annotations

import pytest

from conftest import run_synsema, synsema_env
from llm.fakes import FakeServer, openai_tool_call

# Verbatim from the seed.
SEED_PROGRAM = """\
require llm("customers")

task add(a: number, b: number)
    give a + b

let tools be {"add": add}
let msg be private("Add two and three for Ana", "customers")
let step be llm_step(msg, [tool_spec(add, "Add two numbers")], "")
let name be declassify(step["name"], "which tool the model chose is public")
when name == "add"
    let v be call_tool(tools[name], step["args"])     -- the args are private, and so is v
    print(declassify(v, "the sum is public"))
"""

# The seed's warning: without the declassify of the name, the branch is on private data.
WITHOUT_NAME_DECLASSIFY = SEED_PROGRAM.replace(
    'let name be declassify(step["name"], "which tool the model chose is public")',
    'let name be step["name"]')

ACCEPTED = "stdout,llm=customers@127.0.0.1,declassify=customers"


@pytest.fixture
def model():
    with FakeServer() as server:
        server.reply(openai_tool_call("add", '{"a": 2, "b": 3}'))
        yield server


def run_app(tmp_path, server, cap_set: str, source: str = SEED_PROGRAM):
    (tmp_path / "app.syn").write_text(source, encoding="utf-8")
    env = synsema_env(SYNSEMA_LLM_PROVIDER="openai", SYNSEMA_LLM_BASE_URL=server.url + "/v1",
                      OPENAI_API_KEY="test", SYNSEMA_LLM_TIMEOUT="10")
    return run_synsema("run", "--labels", "--cap-set", cap_set, "app.syn", cwd=tmp_path, env=env)


def shown(proc) -> str:
    return f"exit {proc.returncode}\n--- stdout\n{proc.stdout}--- stderr\n{proc.stderr}"


def test_seed_program_prints_5(tmp_path, model):
    proc = run_app(tmp_path, model, ACCEPTED)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "5\n", ""), shown(proc)
    assert len(model.requests) == 1
    body = model.requests[0]["body"]
    # the private prompt was allowed to reach this host, and the tool was offered
    assert any(m.get("content") == "Add two and three for Ana" for m in body["messages"])
    assert [t["function"]["name"] for t in body["tools"]] == ["add"]


def test_seed_program_with_a_host_and_port_item(tmp_path, model):
    port = model.url.rsplit(":", 1)[1]
    proc = run_app(tmp_path, model, f"stdout,llm=customers@127.0.0.1:{port},declassify=customers")
    assert (proc.returncode, proc.stdout) == (0, "5\n"), shown(proc)


@pytest.mark.parametrize("cap_set", [
    "stdout,declassify=customers",
    "stdout,llm,declassify=customers",
    "stdout,llm=customers,declassify=customers",
    "stdout,llm=customers@api.anthropic.com,declassify=customers",
    "stdout,llm=others@127.0.0.1,declassify=customers",
], ids=["no-llm-item", "bare-llm", "llm-principal-without-host", "other-host", "other-principal"])
def test_seed_twin_without_the_llm_ceiling_item_is_rejected(tmp_path, model, cap_set):
    proc = run_app(tmp_path, model, cap_set)
    assert proc.returncode == 1, shown(proc)
    assert proc.stdout == ""
    assert "label_violation" in proc.stderr and "llm_step" in proc.stderr, shown(proc)
    assert "Ana" not in proc.stderr
    assert model.requests == [], "the private prompt reached the model"


def test_seed_program_without_the_declassify_item_is_rejected(tmp_path, model):
    proc = run_app(tmp_path, model, "stdout,llm=customers@127.0.0.1")
    assert proc.returncode == 1, shown(proc)
    assert proc.stdout == ""
    assert "label_violation" in proc.stderr and "declassify=customers" in proc.stderr, shown(proc)


def test_seed_program_without_declassifying_the_name_is_rejected(tmp_path, model):
    """As the seed says: the branch on the model's (private) choice makes the print a violation."""
    proc = run_app(tmp_path, model, ACCEPTED, WITHOUT_NAME_DECLASSIFY)
    assert proc.returncode == 1, shown(proc)
    assert proc.stdout == ""
    assert "label_violation: print called under private control flow" in proc.stderr, shown(proc)
    assert "5" not in proc.stdout
