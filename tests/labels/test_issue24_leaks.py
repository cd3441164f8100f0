"""Issue 24's reproducers, each with its secure twin, each run with two secrets.

Every program in `issue24/leaks/` runs under `synsema run --labels --audit FILE` with both
secrets (the real command, in a subprocess): the two runs must satisfy noninterference as the
fuzzer judges it (nifuzz.oracle) — either one of them stops at a `label_violation` or a secret
error (the one bit termination tells), or they show exactly the same stdout, stderr, exit code,
files and audit records — and neither secret may appear in any output. Its twin in
`issue24/secure/` must be accepted, with the exact output given, for both secrets.

Each leak was reproduced on main first (a strict xfail naming its item, removed by its fix).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from labels.nifuzz.harness import run_subprocess
from labels.nifuzz.oracle import Pair
from llm.fakes import FakeServer, openai_text

HERE = Path(__file__).resolve().parent / "issue24"
SECRETS = (42, 17)

LEAKS = ("01a_implicit_when", "01b_implicit_match", "01c_implicit_call", "01d_give_then_let",
         "02a_recover_after_stop", "02b_recover_after_give", "02c_recover_after_each_give",
         "03a_math_prewarm", "04_audit_under_pc", "07_stop_leaves_outer_loop")

TWINS = {
    "01a_implicit_when": "secret is private(bank)\n",
    "01b_implicit_match": "secret is private(bank)\n",
    "01c_implicit_call": "secret is private(bank)\n",
    "01d_give_then_let": "private(bank)\n",
    "02a_recover_after_stop": "caught private(bank)\ndone\n",
    "02b_recover_after_give": "caught: Index 0 out of range (list length 0)\nprivate(bank)\n",
    "02c_recover_after_each_give": "private(bank)\n",
    "03a_math_prewarm": '["z3"]\n',
    "04_audit_under_pc": "done\n",
    "07_stop_inside_private_branch": "after the branch\nprivate(bank)\n",
}


def _source(folder: str, name: str) -> str:
    return (HERE / folder / f"{name}.syn").read_text(encoding="utf-8")


def test_every_reproducer_has_a_twin():
    leaks = sorted(p.stem for p in (HERE / "leaks").glob("*.syn"))
    twins = sorted(p.stem for p in (HERE / "secure").glob("*.syn"))
    assert leaks == sorted(LEAKS)
    assert twins == sorted(TWINS)
    assert {name[:2] for name in leaks} | {name[:2] for name in twins} >= {"01", "02", "03", "04", "07"}
    assert sorted(p.stem for p in (HERE / "llm").glob("*.syn")) == ["budget", "budget_twin", "usage", "usage_twin"]
    assert sorted(p.stem for p in (HERE / "mcp").glob("*.syn")) == [
        "error_text", "error_text_twin", "tools_under_pc", "tools_under_pc_twin"]


@pytest.mark.parametrize("name", LEAKS)
def test_leak_is_noninterfering(name):
    pair = Pair(*(run_subprocess(_source("leaks", name), secret) for secret in SECRETS))
    shown = f"{pair.first.shown()}\n---\n{pair.second.shown()}"
    assert pair.leaked == [], f"the two secrets differ in {pair.leaked}\n{shown}"
    for run in (pair.first, pair.second):
        for secret in SECRETS:
            assert f"{secret}" not in run.stdout + run.stderr + "".join(c for _, c in run.files), shown


@pytest.mark.parametrize("name", sorted(TWINS))
def test_twin_is_accepted(name):
    for secret in SECRETS:
        run = run_subprocess(_source("secure", name), secret)
        assert (run.exit, run.stdout, run.stderr) == (0, TWINS[name], ""), run.shown()


# ---------------------------------------------------------------------- item 5: MCP
def _bank_config(tmp_path, balance: int) -> str:
    """--mcp-config for the bank server of issue24/mcp, whose private data is `balance`."""
    config = tmp_path / f"bank{balance}.json"
    config.write_text(json.dumps({"mcpServers": {"bank": {
        "command": sys.executable, "args": [str(HERE / "mcp" / "bank_server.py")],
        "env": {"BALANCE": str(balance)}, "principal": "bank"}}}), encoding="utf-8")
    return str(config)


def test_mcp_error_text_carries_the_servers_principal(tmp_path):
    """The secret is the server's: two servers with two balances, one program."""
    source = _source("mcp", "error_text")
    pair = Pair(*(run_subprocess(source, 0, ("--mcp-config", _bank_config(tmp_path, balance)))
                  for balance in (420, 170)))
    assert pair.leaked == [], f"{pair.first.shown()}\n---\n{pair.second.shown()}"
    assert not {"420", "170"} & {word for run in (pair.first, pair.second) for word in run.stdout.split()}


def test_mcp_tools_under_a_private_pc(tmp_path):
    flags = ("--mcp-config", _bank_config(tmp_path, 420))
    pair = Pair(*(run_subprocess(_source("mcp", "tools_under_pc"), secret, flags) for secret in SECRETS))
    assert pair.leaked == [], f"{pair.first.shown()}\n---\n{pair.second.shown()}"


@pytest.mark.parametrize("name, stdout", [("error_text_twin", "private(bank)\ndone\n"),
                                          ("tools_under_pc_twin", "done\n")])
def test_mcp_twin_is_accepted(name, stdout, tmp_path):
    flags = ("--mcp-config", _bank_config(tmp_path, 420))
    for secret in SECRETS:
        run = run_subprocess(_source("mcp", name), secret, flags)
        assert (run.exit, run.stdout, run.stderr) == (0, stdout, ""), run.shown()


# ---------------------------------------------------------------------- item 3: the LLM's process state
def _with_model(name: str, secret: int, budget: str | None = None):
    """Run issue24/llm/NAME against a fake OpenAI-compatible server (tests/llm/fakes.py), the
    host letting bank's data reach it (`llm=bank@127.0.0.1`)."""
    with FakeServer() as server:
        for _ in range(3):
            server.reply(openai_text("an answer", prompt=20, completion=5))
        env = {"SYNSEMA_LLM_PROVIDER": "openai", "SYNSEMA_LLM_BASE_URL": server.url + "/v1",
               "OPENAI_API_KEY": "sk-test", "SYNSEMA_LLM_MODEL": "fake-model", "SYNSEMA_LLM_TIMEOUT": "5"}
        if budget is not None:
            env["SYNSEMA_LLM_BUDGET"] = budget
        return run_subprocess(_source("llm", name), secret, ("--cap-set", "stdout,llm=bank@127.0.0.1"), env=env)


def test_llm_usage_after_a_private_branch():
    pair = Pair(*(_with_model("usage", secret) for secret in SECRETS))
    assert pair.leaked == [], f"{pair.first.shown()}\n---\n{pair.second.shown()}"


def test_llm_budget_after_a_private_branch():
    pair = Pair(*(_with_model("budget", secret, budget="25") for secret in SECRETS))
    assert pair.leaked == [], f"{pair.first.shown()}\n---\n{pair.second.shown()}"


@pytest.mark.parametrize("name, budget, stdout", [
    ("usage_twin", None, "25\n"),
    ("budget_twin", "25", "[llm budget exceeded: used 25 of 25 tokens]\n")])
def test_llm_twin_is_accepted(name, budget, stdout):
    for secret in SECRETS:
        run = _with_model(name, secret, budget)
        assert (run.exit, run.stdout, run.stderr) == (0, stdout, ""), run.shown()
