"""`--mcp-config FILE`: the MCP servers the host lets a program reach.

The file uses the `mcpServers` format of Claude Desktop, Cursor and others:

    {"mcpServers": {"weather": {"command": "python", "args": ["weather.py"],
                                "env": {"KEY": "value"}, "cwd": "servers",
                                "principal": "weather", "timeout": 30}}}

`command` (with `args`, `env`, `cwd`) starts a local server over stdio; `url` instead reaches a
Streamable HTTP server. Two keys are Synsema's own: `principal`, the label principal every
result of that server carries under `--labels` (default: the server's name), and `timeout`, the
seconds one call may take (default 30; starting the server may take up to 60). Other keys are ignored, so a file shared
with another MCP host works unchanged. A relative `cwd` is relative to the config file. The
server process gets the SDK's minimal default environment plus `env`, never the whole of ours.

This module only reads the file; nothing here imports the SDK.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass

DEFAULT_TIMEOUT = 30.0
MAX_TIMEOUT = 600.0


class ConfigError(ValueError):
    """A config file the host must fix; the message says what and where."""


@dataclass(frozen=True)
class ServerSpec:
    """One server as the host listed it."""

    name: str
    command: str | None
    args: tuple[str, ...]
    env: tuple[tuple[str, str], ...]
    cwd: str | None
    url: str | None
    principal: str
    timeout: float


def load(path: str) -> dict[str, ServerSpec]:
    """The servers of a config file by name, or ConfigError."""
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
    except OSError as problem:
        raise ConfigError(f"cannot read {path}: {problem.strerror}") from None
    except (ValueError, UnicodeDecodeError) as problem:
        raise ConfigError(f"{path} is not JSON: {problem}") from None
    servers = data.get("mcpServers") if type(data) is dict else None
    if type(servers) is not dict:
        raise ConfigError(f'{path}: expected {{"mcpServers": {{"name": {{"command": …}}}}}}')
    base = os.path.dirname(os.path.abspath(path))
    return {name: _server(path, base, name, entry) for name, entry in servers.items()}


def _server(path: str, base: str, name: str, entry) -> ServerSpec:
    where = f"{path}: server {name!r}"
    if not name or type(entry) is not dict:
        raise ConfigError(f"{where}: each server is an object with a command or a url")
    command, url = entry.get("command"), entry.get("url")
    if (command is None) == (url is None):
        raise ConfigError(f"{where}: give exactly one of \"command\" (stdio) or \"url\" (HTTP)")
    for key, value in (("command", command), ("url", url)):
        if value is not None and (type(value) is not str or not value):
            raise ConfigError(f"{where}: \"{key}\" must be non-empty text")
    args = entry.get("args", [])
    if type(args) is not list or not all(type(a) is str for a in args):
        raise ConfigError(f"{where}: \"args\" must be a list of texts")
    env = entry.get("env", {})
    if type(env) is not dict or not all(type(v) is str for v in env.values()):
        raise ConfigError(f"{where}: \"env\" must map names to texts")
    cwd = entry.get("cwd")
    if cwd is not None and type(cwd) is not str:
        raise ConfigError(f"{where}: \"cwd\" must be text")
    principal = entry.get("principal", name)
    if type(principal) is not str or not principal:
        raise ConfigError(f"{where}: \"principal\" must be non-empty text")
    timeout = entry.get("timeout", DEFAULT_TIMEOUT)
    if type(timeout) not in (int, float) or not 0 < timeout <= MAX_TIMEOUT:
        raise ConfigError(f"{where}: \"timeout\" must be a number of seconds in (0, {MAX_TIMEOUT:g}]")
    return ServerSpec(name, command, tuple(args), tuple(env.items()),
                      os.path.join(base, cwd) if cwd is not None else None, url, principal,
                      float(timeout))
