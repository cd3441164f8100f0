"""Effects that outlive a branch meet one gate under --labels (runtime.effects, README "Effects").

Each program reads its secret from `args()` and runs with 42 and with 17. A refused effect is
refused for both secrets alike, before anything happens; an allowed one leaves a state whose
later reading is private; the audit log never records a check made under a private pc.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from conftest import run_synsema, synsema_env

HEAD = 'let s be private(int(args()[0]), "bank")\n'
SECRETS = ("42", "17")
NOTES = Path(__file__).resolve().parent.parent / "mcp" / "servers" / "notes.py"


def _runs(tmp_path, source: str, *flags):
    (tmp_path / "p.syn").write_text(source, encoding="utf-8")
    return [run_synsema("run", "--labels", *flags, "p.syn", "--", secret, cwd=tmp_path, timeout=90)
            for secret in SECRETS]


def _same(runs):
    first, second = runs
    assert (first.returncode, first.stdout, first.stderr) == \
        (second.returncode, second.stdout, second.stderr)
    return first


def test_math_worker_changed_under_a_private_pc_is_refused_before_it_starts(tmp_path):
    done = _same(_runs(tmp_path, HEAD + 'print("start")\nwhen s > 0\n'
                                         '    let r be math.run("nt.prime.test", {"n": 7})\n'
                                         'print(math.prewarm())\n'))
    assert done.returncode == 1 and done.stdout == "start\n"
    assert "label_violation: math.run() would change the math worker" in done.stderr


def test_math_worker_changed_with_private_data_makes_its_report_private(tmp_path):
    done = _same(_runs(tmp_path, HEAD + 'let r be math.run("nt.prime.test", {"n": s})\n'
                                         'print(math.prewarm())\nprint(r.status)\n'))
    assert (done.returncode, done.stdout, done.stderr) == (0, "private(bank)\nprivate(bank)\n", "")


def test_math_prewarm_from_public_control_flow_stays_public(tmp_path):
    done = _same(_runs(tmp_path, HEAD + 'print(math.prewarm())\n'))
    assert (done.returncode, done.stdout) == (0, "[]\n")


def test_llm_usage_cannot_learn_a_private_branch(tmp_path):
    # The ceiling lets bank's data reach the model, yet the call under the branch is refused
    # before any request: its capability check is an audit record, and the tokens it would spend
    # (and the budget left) what a later public llm_usage() or llm_step would read.
    (tmp_path / "p.syn").write_text('require llm("bank")\n' + HEAD + 'when s > 0\n'
                                    '    let r be llm_step("hi", [], "")\nprint(llm_usage())\n')
    env = synsema_env(SYNSEMA_LLM_PROVIDER="openai", SYNSEMA_LLM_BASE_URL="http://127.0.0.1:9/v1",
                      OPENAI_API_KEY="test")
    done = _same([run_synsema("run", "--labels", "--cap-set", "stdout,llm=bank@127.0.0.1", "p.syn",
                              "--", secret, cwd=tmp_path, env=env) for secret in SECRETS])
    assert done.returncode == 1
    assert "label_violation: llm_step() would change the model session" in done.stderr
    assert "under private control flow (pc = [bank])" in done.stderr


def test_a_capability_check_under_a_private_pc_is_refused_and_never_audited(tmp_path):
    program = 'require random\n' + HEAD + '\n'.join(
        f'when (s // {2 ** k}) % 2 == 1 or true\n    let r{k} be random()' for k in range(6)) + '\n'
    audit = tmp_path / "audit.jsonl"
    records = []
    for done in _runs(tmp_path, program, "--audit", str(audit)):
        assert done.returncode == 1 and "label_violation: the random capability" in done.stderr
        records.append([(r.get("capability"), r.get("line")) for r in map(json.loads, audit.read_text().splitlines())
                        if "capability" in r])
    assert records == [[], []]


def test_a_capability_check_from_public_control_flow_is_audited(tmp_path):
    audit = tmp_path / "audit.jsonl"
    done = _same(_runs(tmp_path, 'require random\n' + HEAD + 'let r be random()\nprint(r < 1)\n',
                       "--audit", str(audit)))
    assert (done.returncode, done.stdout) == (0, "true\n")
    checks = [r["capability"] for r in map(json.loads, audit.read_text().splitlines()) if "capability" in r]
    assert checks == ["random"]


def _mcp_config(tmp_path) -> Path:
    path = tmp_path / "mcp.json"
    path.write_text(json.dumps({"mcpServers": {"notes": {"command": sys.executable,
                                                          "args": [str(NOTES)]}}}), encoding="utf-8")
    return path


def test_mcp_error_text_carries_the_server_principal(tmp_path):
    done = _same(_runs(tmp_path, 'require mcp("notes")\n' + HEAD + '''let t be mcp_tools("notes")
try
    t["lookup"]("nowhere")
recover err
    print(err)
    print(declassify(err, "the server's message is shown"))
t["lookup"]("nowhere")
''', "--mcp-config", str(_mcp_config(tmp_path))))
    lines = done.stdout.splitlines()
    assert lines[0] == "private(bank, notes)"
    assert lines[1].startswith("MCP tool 'notes/lookup' failed:") and "no entry for 'nowhere'" in lines[1]
    assert done.returncode == 1 and "no entry" not in done.stderr
    assert "MCP tool 'notes/lookup' failed: private(bank, notes)" in done.stderr


def test_mcp_tools_under_a_private_pc_is_refused(tmp_path):
    done = _same(_runs(tmp_path, 'require mcp("notes")\n' + HEAD + 'print("start")\nwhen s > 0\n'
                                 '    let t be mcp_tools("notes")\nprint("end")\n',
                       "--mcp-config", str(_mcp_config(tmp_path))))
    assert done.returncode == 1 and done.stdout == "start\n" and "label_violation" in done.stderr
