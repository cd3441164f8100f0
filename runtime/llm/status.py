"""`synsema llm status [--json]`: the resolved LLM configuration, each value with its source.

It answers "which model will this script talk to, and why?" without sending anything. API keys
appear only as present or absent (and where from), and a password or token inside the base URL
as `***`: a status report gets pasted into issues and chat, so it must never be able to leak one.

Exit status 0 means the configuration is sound, whether a provider is live or the run is offline
(no key configured is the normal state, not a failure); 1 means a real configuration problem
(an unknown provider, a malformed setting, a provider without its key). A script that needs a live
model tests `.live` in the `--json` output.
"""

from __future__ import annotations

import json

from synsema.runtime.llm.config import Config, Setting, load_config, redact_url

ROWS = (("provider", "provider"), ("model", "model"), ("base URL", "base_url"),
        ("max tokens", "max_tokens"), ("timeout", "timeout"), ("budget", "budget"),
        ("cassette", "cassette"), ("reasoning effort", "reasoning_effort"),
        ("thinking budget", "thinking_budget"), ("stream steps", "stream"),
        ("prices", "prices"))


def status_main(as_json: bool, config: Config | None = None) -> int:
    """Print the status of `config` (default: the process environment's); the exit code."""
    config = load_config() if config is None else config
    print(json.dumps(report(config), indent=2) if as_json else render(config))
    return 1 if config.problems else 0


def report(config: Config) -> dict:
    """The status as JSON data (what `--json` prints)."""
    data: dict = {"live": config.live, "backend": config.backend}
    for _, field in ROWS:
        setting: Setting = getattr(config, field)
        value = redact_url(setting.value) if field == "base_url" and setting.value else setting.value
        data[field] = {"value": value, "source": setting.source}
    data["keys"] = {name: {"present": source is not None, "source": source}
                    for name, source in config.key_sources.items()}
    data["problems"] = list(config.problems)
    return data


def render(config: Config) -> str:
    """The status as text for people."""
    state = "live" if config.live else ("misconfigured" if config.problems else "offline")
    lines = [f"LLM: {state}"]
    for label, field in ROWS:
        setting: Setting = getattr(config, field)
        lines.append(f"  {label:<18} {_shown(config, field, setting.value):<36} ({setting.source})")
    for name, source in config.key_sources.items():
        presence = f"present ({source})" if source else "absent"
        lines.append(f"  {name:<18} {presence}")
    lines.extend(f"  problem: {problem}" for problem in config.problems)
    return "\n".join(lines)


def _shown(config: Config, field: str, value) -> str:
    if value is None:
        return "unlimited" if field == "budget" else "none"
    if field == "timeout":
        return f"{value:g} s"
    if field == "provider" and value == "record" and config.backend:
        return f"record (wrapping {config.backend})"
    if field == "base_url":
        return redact_url(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
