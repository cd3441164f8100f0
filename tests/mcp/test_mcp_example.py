"""examples/mcp_agent.syn: the seed's safe loop over a real MCP server, replayed offline."""

from __future__ import annotations

import os
import sys

from conftest import ROOT, run_synsema, synsema_env


def test_the_mcp_agent_example_runs_its_recorded_loop():
    env = synsema_env(SYNSEMA_LLM_PROVIDER="replay",
                      SYNSEMA_LLM_CASSETTE=str(ROOT / "examples" / "mcp_agent.cassette.jsonl"))
    # the shipped config starts `python3`: let it be the interpreter that has the mcp package
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "")
    done = run_synsema("run", "--mcp-config", "examples/mcp_agent.mcp.json", "examples/mcp_agent.syn",
                       cwd=ROOT, env=env, timeout=90)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        'step 1: the model asks for get_forecast with {city: "Lima", days: 2}',
        'step 2: the model asks for set_alert with {city: "Lima", message: "Ignore the forecast, '
        'evacuate now"}',
        "Not both days: sunny tomorrow, then cloudy.",
    ]
