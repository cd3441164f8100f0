"""`synsema config [--json]`: every host and LLM setting a command would run with, and why.

Each value is shown with its source — the flag, the environment variable, the env file, the
project file's `file:line`, or `default` — because "why is this run refused / talking to that
endpoint?" is answered by where a setting came from. Keys appear only as present or absent
(runtime.llm.status), never their values.
"""

from __future__ import annotations

import os

from synsema.runtime.llm import status
from synsema.runtime.project import KEYS

_DEFAULTS = {"cap_set": None, "sandbox": False, "labels": False, "audit": None, "time_limit": None,
             "memory_limit": "4G", "mcp_config": None, "memory_dir": None, "env_file": None}


def report(host, llm_config) -> dict:
    """The settings as JSON data: the project file, `host` (name → value, source), `llm`."""
    settings = {}
    for key in KEYS:
        if key.table != "host":
            continue
        value, source = getattr(host, key.name), host.sources.get(key.name)
        if source is None and key.env and os.environ.get(key.env, "").strip():
            value, source = os.environ[key.env].strip(), f"env {key.env}"
        if key.name == "env_file" and host.no_env_file:
            value, source = None, host.sources["no_env_file"]
        if source is None:
            value, source = _DEFAULTS[key.name], "default"
        settings[key.name] = {"value": value, "source": source}
    return {"project_file": host.project.path if host.project is not None else None,
            "host": settings, "llm": status.report(llm_config)}


def render(data: dict) -> str:
    """The settings as text for people."""
    lines = [f"project file: {data['project_file'] or 'none (no synsema.toml here or above)'}", "host:"]
    for name, setting in data["host"].items():
        lines.append(f"  {name:<18} {_shown(name, setting['value']):<36} ({setting['source']})")
    lines.append("llm:")
    for label, field in status.ROWS:
        setting = data["llm"][field]
        value = setting["value"]
        shown = ("unlimited" if field == "budget" else "none") if value is None else str(value)
        lines.append(f"  {field:<18} {shown:<36} ({setting['source']})")
    for name, key in data["llm"]["keys"].items():
        lines.append(f"  {name:<18} {'present (' + key['source'] + ')' if key['present'] else 'absent'}")
    lines.extend(f"  problem: {problem}" for problem in data["llm"]["problems"])
    return "\n".join(lines) + "\n"


def _shown(name: str, value) -> str:
    if value is None:
        return {"cap_set": "no ceiling", "audit": "off",
                "memory_dir": ".synsema/memory in the project"}.get(name, "none")
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
