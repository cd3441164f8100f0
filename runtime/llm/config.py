"""Which model provider a run talks to, and with which settings — resolved once, with provenance.

Every setting is looked up in the process environment, then in a `.env` file in the current
directory, then falls back to a default, and the place it came from is kept beside the value:
`synsema llm status` shows it, because "why is it talking to that endpoint?" is the first question
when an agent misbehaves. Key *values* are held only for the providers; everything printable
exposes whether a key is present and where from, never the key.

Bad settings do not raise here: they are collected as `problems`, so the status command can list
them all, and the first LLM operation turns them into one language error.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Callable

PROVIDERS = ("offline", "openai", "anthropic", "replay", "record")
KEY_NAMES = {"openai": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY"}

DEFAULT_MODELS = {"openai": "gpt-4o-mini", "anthropic": "claude-3-5-haiku-latest"}
DEFAULT_BASE_URLS = {"openai": "https://api.openai.com/v1", "anthropic": "https://api.anthropic.com"}
DEFAULT_MAX_TOKENS = 1024
DEFAULT_TIMEOUT = 60.0


@dataclass(frozen=True)
class Setting:
    """A resolved value and where it came from: "env", ".env", "default", or how it was inferred."""

    value: object
    source: str


@dataclass(frozen=True)
class Config:
    """The resolved LLM configuration of this process.

    `provider` is what answers (`record` included); `backend` is the real API behind it —
    `openai` or `anthropic` for those two and for `record`, None for `offline` and `replay`.
    """

    provider: Setting
    backend: str | None
    model: Setting
    base_url: Setting
    max_tokens: Setting
    timeout: Setting
    budget: Setting
    cassette: Setting
    key_sources: dict[str, str | None]  # key name → where it was found, None when absent
    problems: tuple[str, ...]
    _keys: dict[str, str] = field(default_factory=dict, repr=False)

    @property
    def live(self) -> bool:
        """True when a real provider answers (replay counts: it answers recorded model replies)."""
        return self.provider.value != "offline" and not self.problems

    def api_key(self, backend: str) -> str | None:
        """The key for `backend`, for the provider that sends it; never for display."""
        return self._keys.get(KEY_NAMES[backend])


def read_dotenv(path: str) -> dict[str, str]:
    """`KEY=value` lines of a .env file: `export ` prefixes, comments and quotes understood."""
    try:
        with open(path, encoding="utf-8") as handle:
            lines = handle.read().splitlines()
    except OSError:
        return {}
    found: dict[str, str] = {}
    for line in lines:
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        key = key.strip().removeprefix("export ").strip()
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        elif " #" in value:
            value = value.split(" #", 1)[0].rstrip()
        found[key] = value
    return found


class _Lookup:
    """Process environment first, then the .env file; empty values count as unset."""

    def __init__(self, environ: dict[str, str], dotenv: dict[str, str]):
        self.environ = environ
        self.dotenv = dotenv

    def get(self, name: str) -> tuple[str, str] | None:
        for source, table in (("env", self.environ), (".env", self.dotenv)):
            value = table.get(name, "").strip()
            if value:
                return value, source
        return None


def load_config(environ: dict[str, str] | None = None, cwd: str | None = None) -> Config:
    """Resolve the configuration from `environ` (default: os.environ) and `cwd`/.env."""
    environ = dict(os.environ) if environ is None else environ
    lookup = _Lookup(environ, read_dotenv(os.path.join(cwd or os.getcwd(), ".env")))
    problems: list[str] = []

    keys: dict[str, str] = {}
    key_sources: dict[str, str | None] = {}
    for name in KEY_NAMES.values():
        found = lookup.get(name)
        key_sources[name] = found[1] if found else None
        if found:
            keys[name] = found[0]

    provider = _provider(lookup, key_sources, problems)
    backend = provider.value if provider.value in KEY_NAMES else None
    if provider.value == "record":
        backend = _keyed_backend(key_sources)
        if backend is None:
            problems.append("the record provider wraps a real one: set OPENAI_API_KEY or ANTHROPIC_API_KEY")
    if provider.value == "anthropic" and "ANTHROPIC_API_KEY" not in keys:
        problems.append("the anthropic provider needs ANTHROPIC_API_KEY")

    model = _text(lookup, "SYNSEMA_LLM_MODEL", DEFAULT_MODELS.get(backend))
    base_url = _text(lookup, "SYNSEMA_LLM_BASE_URL", DEFAULT_BASE_URLS.get(backend))
    max_tokens = _number(lookup, "SYNSEMA_LLM_MAX_TOKENS", DEFAULT_MAX_TOKENS, int,
                         lambda v: v >= 1, "a positive whole number of tokens", problems)
    timeout = _number(lookup, "SYNSEMA_LLM_TIMEOUT", DEFAULT_TIMEOUT, float,
                      lambda v: 0 < v < float("inf"), "a positive number of seconds", problems)
    budget = _number(lookup, "SYNSEMA_LLM_BUDGET", None, int,
                     lambda v: v >= 0, "a whole number of tokens (0 or more)", problems)
    cassette = _text(lookup, "SYNSEMA_LLM_CASSETTE", None)
    if provider.value in ("replay", "record") and cassette.value is None:
        problems.append(f"the {provider.value} provider needs SYNSEMA_LLM_CASSETTE (a .jsonl file)")

    return Config(provider, backend, model, base_url, max_tokens, timeout, budget, cassette,
                  key_sources, tuple(problems), keys)


def _provider(lookup: _Lookup, key_sources: dict[str, str | None], problems: list[str]) -> Setting:
    """SYNSEMA_LLM_PROVIDER when set, else the provider whose key is present, else offline."""
    found = lookup.get("SYNSEMA_LLM_PROVIDER")
    if found:
        name = found[0].lower()
        if name not in PROVIDERS:
            problems.append(f"unknown SYNSEMA_LLM_PROVIDER '{found[0]}' (one of: {', '.join(PROVIDERS)})")
        return Setting(name, found[1])
    backend = _keyed_backend(key_sources)
    if backend is None:
        return Setting("offline", "default")
    key = KEY_NAMES[backend]
    return Setting(backend, f"inferred from {key} ({key_sources[key]})")


def _keyed_backend(key_sources: dict[str, str | None]) -> str | None:
    """The backend whose key is present; OpenAI first when both are."""
    for backend, key in KEY_NAMES.items():
        if key_sources[key] is not None:
            return backend
    return None


def _text(lookup: _Lookup, name: str, default: str | None) -> Setting:
    found = lookup.get(name)
    return Setting(found[0], found[1]) if found else Setting(default, "default")


def _number(lookup: _Lookup, name: str, default, kind: type, valid: Callable[[float], bool],
            meaning: str, problems: list[str]) -> Setting:
    """A numeric knob; text that `kind` cannot read, or a value `valid` refuses, is a problem."""
    found = lookup.get(name)
    if not found:
        return Setting(default, "default")
    try:
        value = kind(found[0])
    except ValueError:
        value = None
    if value is None or not valid(value):
        problems.append(f"{name} must be {meaning}, got '{found[0]}' ({found[1]})")
        return Setting(default, "default")
    return Setting(value, found[1])
