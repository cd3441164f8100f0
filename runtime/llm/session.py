"""The process's one link to a model provider: configured once, created lazily, metered.

Every LLM operation of a run — `llm_step` and the four expression forms — goes through the one
`Session`. Its provider is built on the first request, so a script that never asks a model never
imports httpx; every reply's tokens go into one process-wide count (`llm_usage()`, the CLI's
JSON report); and once that count reaches SYNSEMA_LLM_BUDGET each further operation is answered
with the budget message instead of a request. A budget is a promise about spending, so it is a
value the script sees, never an error that would skip its cleanup.

Decisions (pinned by tests): the budget is reached when the tokens used are *at least* the
budget (a budget of 0 allows no request); the offline provider spends nothing and so ignores the
budget, answering its placeholders.
"""

from __future__ import annotations

from synsema.lang.errors import SynError
from synsema.runtime.llm.config import Config, load_config
from synsema.runtime.llm.exchange import Ask, Reply


class Session:
    def __init__(self, config: Config):
        self.config = config
        self.used = 0
        self._provider = None

    @property
    def offline(self) -> bool:
        """True when no provider is configured; a configuration problem raises here instead."""
        if self.config.problems:
            raise SynError("llm configuration: " + "; ".join(self.config.problems)
                           + " (see: synsema llm status)")
        return self.config.provider.value == "offline"

    def budget_exceeded(self) -> str | None:
        """The budget message once the budget is spent, else None."""
        budget = self.config.budget.value
        if budget is not None and self.used >= budget:
            return f"[llm budget exceeded: used {self.used} of {budget} tokens]"
        return None

    def ask(self, ask: Ask, stream: bool = False) -> Reply:
        """Send one request to the provider (built now if this is the first) and meter it;
        `stream`: as server-sent events, assembled into the same reply."""
        reply = self._built().complete(ask, stream)
        self.used += reply.tokens
        return reply

    def stream(self, ask: Ask, on_chunk) -> Reply:
        """Like `ask`, the answer's text pieces passed to `on_chunk` as they arrive."""
        reply = self._built().stream(ask, on_chunk)
        self.used += reply.tokens
        return reply

    def _built(self):
        if self._provider is None:
            self._provider = build_provider(self.config)
        return self._provider


def build_provider(config: Config):
    """The provider object for a problem-free, non-offline configuration."""
    kind = config.provider.value
    if kind == "replay":
        from synsema.runtime.llm.cassette import Replay
        return Replay(config.cassette.value)
    if config.backend == "anthropic":
        from synsema.runtime.llm.anthropic_messages import AnthropicMessages
        api = AnthropicMessages(config)
    else:
        from synsema.runtime.llm.openai_chat import OpenAIChat
        api = OpenAIChat(config)
    if kind == "record":
        from synsema.runtime.llm.cassette import Record
        return Record(api, config.cassette.value)
    return api


_current: Session | None = None


def current() -> Session:
    """The process's session: the one the CLI configured before the program ran, else one
    configured from the process environment (which no program can change) on first use."""
    global _current
    if _current is None:
        _current = Session(load_config())
    return _current


def reset(config: Config | None = None) -> Session:
    """Start over with `config` (default: read the environment again): usage back to 0.

    For embedders and tests that run several programs in one process.
    """
    global _current
    _current = Session(config if config is not None else load_config())
    return _current


def used_tokens() -> int:
    """Tokens used so far by this process; 0 when no LLM operation ran."""
    return _current.used if _current is not None else 0
