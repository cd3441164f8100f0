"""`synsema.toml`: a project's host configuration, found as pytest finds its configuration.

The file holds what a host would otherwise repeat as flags and variables on every command:

    [host]                      # the long host flags, `_` for `-`
    cap_set = ["stdout", "file.read=./data"]
    labels = true
    mcp_config = "tools.mcp.json"

    [llm]
    provider = "replay"
    cassette = "agent.cassette.jsonl"

It is looked for in the directory the command's paths have in common (the working directory
for a command without paths, such as `repl` or `config`) and then in each directory above it;
the first one found is the project file (runtime.project_search finds it). `--no-config` ignores
it; `--config FILE` names it.

Precedence, highest first: the command line, then the process environment where a variable
exists for the setting (SYNSEMA_LLM_*, SYNSEMA_TIME_LIMIT, SYNSEMA_MEMORY_LIMIT, SYNSEMA_MEMORY_DIR), then an env file
the host named (`--env-file`, `[host] env_file`; LLM settings only), then this file, then the
default. Paths in the file are relative to the file's directory. The file is read once, before
the program runs; the program can never write, delete or replace it, nor a file it names
(runtime.capabilities.HostFiles), so a script cannot widen its own next run.

KEYS is the one table of settings: a key another part of synsema needs is one more line there
(an `[llm]` key names the variable runtime.llm.config resolves it as).
"""

from __future__ import annotations

import os
import re


class Key:
    """One setting of the file. `kind`: bool, text, number, list (of texts), path (relative to
    the file), audit (json, fd:N or a path), limit (a number or a text such as "2G").
    `flag`: the command-line flag it stands for; `env`: the variable that overrides it."""

    __slots__ = ("table", "name", "kind", "flag", "env", "doc")

    def __init__(self, table: str, name: str, kind: str, doc: str, flag: str | None = None,
                 env: str | None = None):
        self.table = table
        self.name = name
        self.kind = kind
        self.flag = flag
        self.env = env
        self.doc = doc

    @property
    def dotted(self) -> str:
        return f"{self.table}.{self.name}"


KEYS = (
    Key("host", "cap_set", "list", "the ceiling: the most the program may be granted", flag="--cap-set"),
    Key("host", "sandbox", "bool", "the ceiling stdout,time", flag="--sandbox"),
    Key("host", "labels", "bool", "track private values", flag="--labels"),
    Key("host", "audit", "audit", "log every capability check: json, fd:N or a file", flag="--audit"),
    Key("host", "time_limit", "limit", "seconds before the command is stopped", flag="--time-limit",
        env="SYNSEMA_TIME_LIMIT"),
    Key("host", "memory_limit", "limit", "the most memory the command may use", flag="--memory-limit",
        env="SYNSEMA_MEMORY_LIMIT"),
    Key("host", "mcp_config", "path", "the MCP servers the program may reach", flag="--mcp-config"),
    Key("host", "memory_dir", "path", "the folder of the persistent memory files (one SQLite file per "
        "require memory(\"NAME\")); default .synsema/memory in the project", flag="--memory-dir",
        env="SYNSEMA_MEMORY_DIR"),
    Key("host", "env_file", "path", "a KEY=value file the LLM settings are read from", flag="--env-file"),
    Key("llm", "provider", "text", "offline, openai, anthropic, replay or record", env="SYNSEMA_LLM_PROVIDER"),
    Key("llm", "model", "text", "the model name", env="SYNSEMA_LLM_MODEL"),
    Key("llm", "base_url", "text", "the provider's endpoint", env="SYNSEMA_LLM_BASE_URL"),
    Key("llm", "cassette", "path", "the replay/record cassette (.jsonl)", env="SYNSEMA_LLM_CASSETTE"),
    Key("llm", "max_tokens", "number", "the most tokens of one answer", env="SYNSEMA_LLM_MAX_TOKENS"),
    Key("llm", "timeout", "number", "seconds to wait for one answer", env="SYNSEMA_LLM_TIMEOUT"),
    Key("llm", "budget", "number", "tokens the whole run may spend", env="SYNSEMA_LLM_BUDGET"),
    Key("llm", "reasoning_effort", "text", "OpenAI reasoning models' effort: none, minimal, low, medium, high, "
        "xhigh or max", env="SYNSEMA_LLM_REASONING_EFFORT"),
    Key("llm", "thinking_budget", "number", "Anthropic's thinking tokens per answer (1024 or more)",
        env="SYNSEMA_LLM_THINKING_BUDGET"),
    Key("llm", "stream", "bool", "llm_step asks for its answers as streams", env="SYNSEMA_LLM_STREAM"),
    Key("llm", "prices", "text", "the host's model prices for llm_usage(\"cost\") and traces: "
        "\"MODEL=IN/OUT, …\" in dollars per million tokens", env="SYNSEMA_LLM_PRICES"),
)
TABLES = tuple(dict.fromkeys(key.table for key in KEYS))


class ProjectError(Exception):
    """The file cannot be used: the message names the file, the line and the key."""


class Setting:
    """A value of the file and the line it is on."""

    __slots__ = ("key", "value", "line")

    def __init__(self, key: Key, value, line: int | None):
        self.key = key
        self.value = value
        self.line = line


class Project:
    """A parsed, checked project file: `settings` maps `table.name` to its Setting."""

    def __init__(self, path: str, settings: dict[str, Setting]):
        self.path = path
        self.directory = os.path.dirname(path)
        self.settings = settings

    def get(self, dotted: str):
        setting = self.settings.get(dotted)
        return None if setting is None else setting.value

    def source(self, dotted: str) -> str:
        """Where a setting was read, as `file:line`."""
        line = self.settings[dotted].line
        return f"{_shown(self.path)}:{line}" if line else _shown(self.path)

    def llm_settings(self) -> dict[str, tuple[str, str]]:
        """The `[llm]` values by the variable they stand for: name → (value as text, source)."""
        return {setting.key.env: (_as_text(setting.value), self.source(dotted))
                for dotted, setting in self.settings.items() if setting.key.table == "llm"}


def _shown(path: str) -> str:
    """The file as the user would name it: relative to the working directory when that is
    short (the directory or one above it), else absolute."""
    relative = os.path.relpath(path)
    return path if relative.startswith(os.pardir + os.sep + os.pardir) else relative


def _as_text(value) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def load(path: str) -> Project:
    """Read and check the file at `path`; a ProjectError names what is wrong and where."""
    import tomllib
    path = os.path.abspath(path)
    try:
        with open(path, "rb") as handle:
            raw = handle.read()
        text = raw.decode("utf-8")
        data = tomllib.loads(text)
    except OSError as problem:
        raise ProjectError(f"{_shown(path)}: cannot read the project file: {problem.strerror}") from None
    except UnicodeDecodeError:
        raise ProjectError(f"{_shown(path)}: the project file is not UTF-8 text") from None
    except tomllib.TOMLDecodeError as problem:
        raise ProjectError(_syntax_error(_shown(path), str(problem), text.count("\n") + 1)) from None
    shown = _shown(path)
    lines = _Lines(text)
    known = {key.dotted: key for key in KEYS}
    settings: dict[str, Setting] = {}
    for table, entries in data.items():
        if table not in TABLES:
            raise ProjectError(f"{shown}:{lines.table(table) or 1}: unknown table [{table}] "
                               f"(the tables are {', '.join(f'[{t}]' for t in TABLES)})")
        if not isinstance(entries, dict):
            raise ProjectError(f"{shown}:{lines.key(None, table) or 1}: {table} must be a table ([{table}])")
        for name, value in entries.items():
            line = lines.key(table, name)
            where = f"{shown}:{line}" if line else shown
            key = known.get(f"{table}.{name}")
            if key is None:
                from synsema.lang.suggest import did_you_mean
                guess = did_you_mean(name, [k.name for k in KEYS if k.table == table])
                hint = f" — did you mean '{guess}'?" if guess else ""
                raise ProjectError(f"{where}: unknown key '{name}' in [{table}]{hint} "
                                   f"(the keys are: {', '.join(k.name for k in KEYS if k.table == table)})")
            settings[key.dotted] = Setting(key, _checked(key, value, where, os.path.dirname(path)), line)
    if settings.get("host.sandbox") and settings["host.sandbox"].value and "host.cap_set" in settings:
        raise ProjectError(f"{shown}:{settings['host.cap_set'].line}: [host] cap_set and sandbox = true "
                           "cannot be used together: sandbox is the ceiling stdout,time")
    return Project(path, settings)


_WANTS = {"bool": "true or false", "text": "a text", "number": "a number", "list": "a list of texts",
          "path": "a path (text)", "audit": "json, fd:N or a path (text)",
          "limit": "a number or a text such as \"2G\" or \"off\""}


def _checked(key: Key, value, where: str, directory: str):
    """The value in the form the command line would give it; a wrong type is a ProjectError
    that names the key and the type found (never the value: it may be a pasted secret)."""
    kind = key.kind
    ok = {"bool": isinstance(value, bool),
          "text": isinstance(value, str) and value.strip() != "",
          "number": isinstance(value, (int, float)) and not isinstance(value, bool),
          "list": isinstance(value, list) and all(isinstance(item, str) and item.strip() for item in value),
          "path": isinstance(value, str) and value.strip() != "",
          "audit": isinstance(value, str) and value.strip() != "",
          "limit": (isinstance(value, (int, float)) and not isinstance(value, bool))
          or (isinstance(value, str) and value.strip() != "")}[kind]
    if not ok:
        raise ProjectError(f"{where}: [{key.table}] {key.name} must be {_WANTS[kind]}, "
                           f"got {_type_name(value)}")
    if kind == "list":
        if any("," in item for item in value):
            raise ProjectError(f"{where}: [{key.table}] {key.name}: one capability per item "
                               "(an item holds a comma)")
        return value
    if kind == "path" or (kind == "audit" and value != "json" and not re.fullmatch(r"fd:\d+", value)):
        return os.path.normpath(os.path.join(directory, os.path.expanduser(value)))
    if kind == "limit":
        return _as_text(value)
    return value


def _type_name(value) -> str:
    if isinstance(value, bool):
        return "a bool"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "an empty text" if not value.strip() else "a text"
    if isinstance(value, list):
        return "a list with an item that is not a capability text" if value else "an empty list"
    if isinstance(value, dict):
        return "a table"
    return "a date or time"


def _syntax_error(path: str, message: str, last_line: int) -> str:
    """tomllib's `Invalid value (at line 3, column 10)` as `path:3:10: not valid TOML: Invalid value`
    (an error at the end of the document is on its last line)."""
    found = re.search(r"\s*\(at line (\d+), column (\d+)\)$", message)
    if found is None:
        return f"{path}:{last_line}: not valid TOML: {message}"
    return f"{path}:{found.group(1)}:{found.group(2)}: not valid TOML: {message[:found.start()]}"


class _Lines:
    """Finds the line a table or key is written on (tomllib keeps no positions). Covers the
    forms a project file uses: `[table]` headers and `key = …` lines under them."""

    _HEADER = re.compile(r"\s*\[\s*([A-Za-z0-9_\-]+|\"[^\"]*\")\s*\]\s*(#.*)?$")
    _KEY = re.compile(r"\s*(\"[^\"]*\"|'[^']*'|[A-Za-z0-9_\-]+)\s*=")

    def __init__(self, text: str):
        self.tables: dict[str, int] = {}
        self.keys: dict[tuple[str | None, str], int] = {}
        table = None
        for number, line in enumerate(text.splitlines(), 1):
            header = self._HEADER.match(line)
            if header:
                table = header.group(1).strip("\"")
                self.tables.setdefault(table, number)
                continue
            key = self._KEY.match(line)
            if key:
                self.keys.setdefault((table, key.group(1).strip("\"'")), number)

    def table(self, name: str) -> int | None:
        return self.tables.get(name) or self.keys.get((None, name))

    def key(self, table: str | None, name: str) -> int | None:
        return self.keys.get((table, name))
