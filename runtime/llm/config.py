"""Which model provider a run talks to, and with which settings — resolved once, with provenance.

Every setting is looked up in the process environment, then in the env file the host named
(`--env-file PATH`; never a `.env` found lying in a folder: a program or an untrusted checkout
could write one), then in the project file's `[llm]` table (runtime.project), then falls back to
a default, and the place it came from is kept beside the value:
`synsema llm status` shows it, because "why is it talking to that endpoint?" is the first question
when an agent misbehaves. Key *values* are held only for the providers; everything printable
exposes whether a key is present and where from, never the key.

Bad settings do not raise here: they are collected as `problems`, so the status command can list
them all, and the first LLM operation turns them into one language error (the CLI resolves a
configuration fed by a file before the program runs, and refuses to start on a problem). A
problem shows a bad value only when it came from the process environment: a value read from a
file may be a secret pasted on the wrong line.
"""

from __future__ import annotations

import os
import re
from typing import Callable

PROVIDERS = ("offline", "openai", "anthropic", "replay", "record")
KEY_NAMES = {"openai": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY"}

# Checked against the model lists of the installed `openai` and `anthropic` SDKs by a test.
DEFAULT_MODELS = {"openai": "gpt-4.1-mini", "anthropic": "claude-haiku-4-5"}
# The SDKs' own defaults and variables: OpenAI's base URL includes /v1, Anthropic's does not.
DEFAULT_BASE_URLS = {"openai": "https://api.openai.com/v1", "anthropic": "https://api.anthropic.com"}
SDK_BASE_URL_NAMES = {"openai": "OPENAI_BASE_URL", "anthropic": "ANTHROPIC_BASE_URL"}
DEFAULT_MAX_TOKENS = 1024
DEFAULT_TIMEOUT = 60.0
# The `openai` SDK's ReasoningEffort values (a test checks them against it).
REASONING_EFFORTS = ("none", "minimal", "low", "medium", "high", "xhigh", "max")
MIN_THINKING_BUDGET = 1024  # the Messages API's minimum `budget_tokens`


# Setting and Config are plain classes, not dataclasses: nothing compares them, and generating a
# dataclass's methods cost more than the rest of this module's import (issue 19, the agent loop).
class Setting:
    """A resolved value and where it came from: "env", ".env", "default", or how it was inferred."""

    __slots__ = ("value", "source")

    def __init__(self, value: object, source: str):
        self.value = value
        self.source = source


class Config:
    """The resolved LLM configuration of this process.

    `provider` is what answers (`record` included); `backend` is the real API behind it —
    `openai` or `anthropic` for those two and for `record`, None for `offline` and `replay`.
    `key_sources` maps each key name to where it was found (None when absent); the key values
    themselves are private to `api_key`, and no repr shows them.
    """

    __slots__ = ("provider", "backend", "model", "base_url", "max_tokens", "timeout", "budget", "cassette",
                 "key_sources", "problems", "_keys", "reasoning_effort", "thinking_budget", "stream",
                 "prices")

    def __init__(self, provider: Setting, backend: str | None, model: Setting, base_url: Setting,
                 max_tokens: Setting, timeout: Setting, budget: Setting, cassette: Setting,
                 key_sources: dict[str, str | None], problems: tuple[str, ...], keys: dict[str, str] | None = None):
        self.provider = provider
        self.backend = backend
        self.model = model
        self.base_url = base_url
        self.max_tokens = max_tokens
        self.timeout = timeout
        self.budget = budget
        self.cassette = cassette
        self.key_sources = key_sources
        self.problems = problems
        self._keys = {} if keys is None else keys
        # Set by load_config after construction (defaults here for configs built by hand).
        self.reasoning_effort = Setting(None, "default")
        self.thinking_budget = Setting(None, "default")
        self.stream = Setting(False, "default")
        self.prices = Setting({}, "default")   # model -> USD per million tokens (runtime.llm.prices)

    @property
    def live(self) -> bool:
        """True when a real provider answers (replay counts: it answers recorded model replies)."""
        return self.provider.value != "offline" and not self.problems

    def api_key(self, backend: str) -> str | None:
        """The key for `backend`, for the provider that sends it; never for display."""
        return self._keys.get(KEY_NAMES[backend])


_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def read_dotenv(path: str, problems: list[str] | None = None) -> dict[str, str]:
    """`KEY=value` lines of a .env file: `export ` prefixes, comments and quotes understood.

    A line that is none of those, or a file that is not UTF-8 text, is added to `problems` by
    its line number, never its text (it may hold a key); without `problems` it is skipped."""
    try:
        with open(path, encoding="utf-8") as handle:
            lines = handle.read().splitlines()
    except UnicodeDecodeError:
        if problems is not None:
            problems.append(f"{path} is not UTF-8 text")
        return {}
    except OSError:
        return {}
    found: dict[str, str] = {}
    for number, line in enumerate(lines, 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, equals, value = line.partition("=")
        key = key.strip().removeprefix("export ").strip()
        if not equals or not _ENV_NAME.fullmatch(key):
            if problems is not None:
                problems.append(f"{path}:{number} is not a KEY=value line")
            continue
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        elif " #" in value:
            value = value.split(" #", 1)[0].rstrip()
        found[key] = value
    return found


class _Lookup:
    """Process environment first, then the env file, then the project file; empty values count
    as unset."""

    def __init__(self, environ: dict[str, str], dotenv: dict[str, str], dotenv_source: str,
                 project: dict[str, tuple[str, str]]):
        self.tables = ((lambda name: (environ.get(name, ""), "env")),
                       (lambda name: (dotenv.get(name, ""), dotenv_source)),
                       (lambda name: project.get(name, ("", ""))))

    def get(self, name: str) -> tuple[str, str] | None:
        for table in self.tables:
            value, source = table(name)
            value = value.strip()
            if value:
                return value, source
        return None


def load_config(environ: dict[str, str] | None = None, env_file: str | None = None,
                project: dict[str, tuple[str, str]] | None = None) -> Config:
    """Resolve the configuration from `environ` (default: os.environ), the env file the host
    named, and the project's `[llm]` settings (variable name → (value, source))."""
    environ = dict(os.environ) if environ is None else environ
    problems: list[str] = []
    dotenv = read_dotenv(env_file, problems) if env_file is not None else {}
    lookup = _Lookup(environ, dotenv, env_file or "", project or {})

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
        backend = _recorded_backend(lookup, key_sources, problems)
    if backend == "anthropic" and "ANTHROPIC_API_KEY" not in keys:
        problems.append(f"the {provider.value} provider needs ANTHROPIC_API_KEY")
    if backend is not None and KEY_NAMES[backend] in keys:
        problems.extend(_key_problems(KEY_NAMES[backend], keys[KEY_NAMES[backend]]))

    model = _text(lookup, "SYNSEMA_LLM_MODEL", DEFAULT_MODELS.get(backend))
    base_url = _base_url(lookup, backend, problems)
    max_tokens = _number(lookup, "SYNSEMA_LLM_MAX_TOKENS", DEFAULT_MAX_TOKENS, int,
                         lambda v: v >= 1, "a positive whole number of tokens", problems)
    timeout = _number(lookup, "SYNSEMA_LLM_TIMEOUT", DEFAULT_TIMEOUT, float,
                      lambda v: 0 < v < float("inf"), "a positive number of seconds", problems)
    budget = _number(lookup, "SYNSEMA_LLM_BUDGET", None, int,
                     lambda v: v >= 0, "a whole number of tokens (0 or more)", problems)
    cassette = _text(lookup, "SYNSEMA_LLM_CASSETTE", None)
    if provider.value in ("replay", "record") and cassette.value is None:
        problems.append(f"the {provider.value} provider needs SYNSEMA_LLM_CASSETTE (a .jsonl file)")

    config = Config(provider, backend, model, base_url, max_tokens, timeout, budget, cassette,
                    key_sources, tuple(problems), keys)
    config.reasoning_effort = _choice(lookup, "SYNSEMA_LLM_REASONING_EFFORT", REASONING_EFFORTS, problems)
    config.thinking_budget = _number(lookup, "SYNSEMA_LLM_THINKING_BUDGET", None, int,
                                     lambda v: v >= MIN_THINKING_BUDGET,
                                     f"a whole number of tokens, at least {MIN_THINKING_BUDGET}", problems)
    config.stream = _choice(lookup, "SYNSEMA_LLM_STREAM", ("true", "false", "1", "0"), problems)
    config.stream.value = config.stream.value in ("true", "1")
    config.prices = _prices(lookup, problems)
    config.problems = tuple(problems)
    return config


def _prices(lookup: _Lookup, problems: list[str]) -> Setting:
    """SYNSEMA_LLM_PRICES: the host's own prices, `MODEL=IN/OUT[/CACHE_READ/CACHE_WRITE], …` in
    US dollars per million tokens; they win over runtime.llm.prices' table."""
    from synsema.runtime.llm.prices import parse_prices
    found = lookup.get("SYNSEMA_LLM_PRICES")
    if not found:
        return Setting({}, "default")
    parsed = parse_prices(found[0])
    if isinstance(parsed, str):
        problems.append(f"SYNSEMA_LLM_PRICES ({found[1]}): {parsed}")
        return Setting({}, found[1])
    return Setting(parsed, found[1])


def _provider(lookup: _Lookup, key_sources: dict[str, str | None], problems: list[str]) -> Setting:
    """SYNSEMA_LLM_PROVIDER when set, else the provider whose key is present, else offline."""
    found = lookup.get("SYNSEMA_LLM_PROVIDER")
    if found:
        name = found[0].lower()
        if name not in PROVIDERS:
            shown = f"'{found[0]}'" if found[1] == "env" else f"in {found[1]}"
            problems.append(f"unknown SYNSEMA_LLM_PROVIDER {shown} (one of: {', '.join(PROVIDERS)})")
        return Setting(name, found[1])
    backend = _keyed_backend(key_sources)
    if backend is None:
        return Setting("offline", "default")
    key = KEY_NAMES[backend]
    return Setting(backend, f"inferred from {key} ({key_sources[key]})")


def _recorded_backend(lookup: _Lookup, key_sources: dict[str, str | None], problems: list[str]) -> str | None:
    """SYNSEMA_LLM_RECORD_PROVIDER when set, else the provider whose key is present."""
    found = lookup.get("SYNSEMA_LLM_RECORD_PROVIDER")
    if found:
        name = found[0].lower()
        if name in KEY_NAMES:
            return name
        problems.append(f"SYNSEMA_LLM_RECORD_PROVIDER must be openai or anthropic{_got(found)} ({found[1]})")
        return None
    backend = _keyed_backend(key_sources)
    if backend is None:
        problems.append("the record provider wraps a real one: set SYNSEMA_LLM_RECORD_PROVIDER "
                        "(openai or anthropic), or OPENAI_API_KEY or ANTHROPIC_API_KEY")
    return backend


def _base_url(lookup: _Lookup, backend: str | None, problems: list[str]) -> Setting:
    """SYNSEMA_LLM_BASE_URL, else the SDK's own variable for the backend, else its default."""
    name = "SYNSEMA_LLM_BASE_URL"
    found = lookup.get(name)
    if not found and backend is not None:
        name = SDK_BASE_URL_NAMES[backend]
        found = lookup.get(name)
    if not found:
        return Setting(DEFAULT_BASE_URLS.get(backend), "default")
    value, source = found
    problem = url_problem(value)
    if problem:
        problems.append(f"{name} {problem}{_got((redact_url(value), source))} ({source})")
    return Setting(value, source if name == "SYNSEMA_LLM_BASE_URL" else f"{name} ({source})")


def url_problem(url: str) -> str | None:
    """What makes `url` unusable as a provider's base URL, or None."""
    from urllib.parse import urlsplit
    if any(ch.isspace() or ord(ch) < 32 or ord(ch) == 127 for ch in url):
        return "must not contain spaces or control characters"
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 -- raises ValueError on a malformed port
    except ValueError as bad:
        return f"is not a valid URL ({bad})"
    if parts.scheme not in ("http", "https"):
        return "must start with http:// or https://"
    if not parts.hostname:
        return "has no host"
    return None


def host_names(url: str | None) -> tuple[str, ...]:
    """How the host of `url` may be named in a ceiling item: `host`, and `host:port` when a
    port is given; nothing for no URL or one `url_problem` refuses."""
    from urllib.parse import urlsplit
    if not url or url_problem(url):
        return ()
    parts = urlsplit(url)
    return (parts.hostname,) + ((f"{parts.hostname}:{parts.port}",) if parts.port else ())


_USERINFO = re.compile(r"(?<=//)[^/?#]*@")
_SECRET_QUERY = re.compile(r"([?&][^=&#]*(?:key|token|secret|pass|sig|auth)[^=&#]*=)[^&#]*", re.IGNORECASE)


def redact_url(url: str) -> str:
    """`url` with any user:password part and secret-looking query values replaced by `***`."""
    return _SECRET_QUERY.sub(r"\1***", _USERINFO.sub("***@", str(url)))


def _key_problems(name: str, key: str) -> list[str]:
    """A key with a character an HTTP header cannot carry (a pasted curly quote, a space) is
    a problem named by position and code point, never by showing the key."""
    for index, ch in enumerate(key):
        if not 33 <= ord(ch) <= 126:
            return [f"{name} has a character an HTTP header cannot carry (U+{ord(ch):04X} at position "
                    f"{index + 1}): paste the key again without quotes or spaces"]
    return []


def _got(found: tuple[str, str]) -> str:
    """`, got 'VALUE'` for a value from the process environment; nothing for one from a file."""
    return f", got '{found[0]}'" if found[1] == "env" else ""


def _keyed_backend(key_sources: dict[str, str | None]) -> str | None:
    """The backend whose key is present; OpenAI first when both are."""
    for backend, key in KEY_NAMES.items():
        if key_sources[key] is not None:
            return backend
    return None


def _text(lookup: _Lookup, name: str, default: str | None) -> Setting:
    found = lookup.get(name)
    return Setting(found[0], found[1]) if found else Setting(default, "default")


def _choice(lookup: _Lookup, name: str, choices: tuple[str, ...], problems: list[str]) -> Setting:
    """One of `choices` (any case), or None when unset; anything else is a problem."""
    found = lookup.get(name)
    if not found:
        return Setting(None, "default")
    value = found[0].lower()
    if value not in choices:
        problems.append(f"{name} must be one of {', '.join(choices)}, got '{found[0]}' ({found[1]})")
        return Setting(None, "default")
    return Setting(value, found[1])


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
        problems.append(f"{name} must be {meaning}{_got(found)} ({found[1]})")
        return Setting(default, "default")
    return Setting(value, found[1])
