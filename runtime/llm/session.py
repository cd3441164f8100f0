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

import json
from contextlib import contextmanager

from synsema.lang.errors import SynError
from synsema.runtime import trace
from synsema.runtime.concurrency import waiting
from synsema.runtime.llm.config import Config, host_names, load_config
from synsema.runtime.llm.exchange import Ask, Reply


class Session:
    def __init__(self, config: Config):
        self.config = config
        self.used = 0
        self.cost = 0.0          # dollars, over the replies whose model and token split are known
        self.priced = True       # False once a reply could not be priced (llm_usage says so)
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
            trace.event("llm.budget_exceeded", {"synsema.tokens": self.used, "synsema.budget": budget})
            return f"[llm budget exceeded: used {self.used} of {budget} tokens]"
        return None

    def ask(self, ask: Ask, stream: bool = False) -> Reply:
        """Send one request to the provider (built now if this is the first) and meter it;
        `stream`: as server-sent events, assembled into the same reply."""
        provider = self._built()
        with trace.span("chat", self._span_name(), self._request_attrs(ask)) as span:
            with waiting(), _provider_errors():   # parallel_map's other items run while this one waits
                reply = provider.complete(ask, stream)
            self._metered(reply, span)
        return reply

    def stream(self, ask: Ask, on_chunk) -> Reply:
        """Like `ask`, the answer's text pieces passed to `on_chunk` as they arrive."""
        with trace.span("chat", self._span_name(), self._request_attrs(ask)) as span:
            with _provider_errors():
                reply = self._built().stream(ask, on_chunk)
            self._metered(reply, span)
        return reply

    def destination(self) -> tuple[str, ...] | None:
        """How the host a request would reach may be named in a ceiling item `llm=<p>@<host>`
        (`host`, and `host:port` when the URL gives a port); replaying, the host the cassette was
        recorded against. None when nothing leaves the process: offline, or a cassette that
        names no host."""
        kind = self.config.provider.value
        if self.config.problems or kind not in ("offline", "replay"):
            return host_names(self.config.base_url.value)
        if kind == "offline":
            return None
        host = self._built().host
        return host_names(f"http://{host}") if host else None

    def _span_name(self) -> str:
        model = self.config.model.value
        return f"chat {model}" if model else "chat"

    def _request_attrs(self, ask: Ask) -> dict | None:
        """A chat span's request attributes (GenAI conventions); None when no trace is written."""
        if not trace.enabled():
            return None
        from urllib.parse import urlsplit
        config = self.config
        host = urlsplit(config.base_url.value or "").hostname if config.base_url.value else None
        attrs = {"gen_ai.operation.name": "chat", "gen_ai.provider.name": config.backend or config.provider.value,
                 "gen_ai.request.model": config.model.value, "gen_ai.request.max_tokens": config.max_tokens.value,
                 "server.address": host, "synsema.llm.op": ask.op,
                 "synsema.llm.tools": [tool.name for tool in ask.tools]}
        if trace.content_allowed():
            sent = ask.to_json()
            attrs["gen_ai.input.messages"] = json.dumps({"prompt": sent["prompt"], "context": sent["context"]},
                                                        ensure_ascii=False)
        return attrs

    def _metered(self, reply: Reply, span) -> None:
        from synsema.runtime.llm.prices import cost
        self.used += reply.tokens
        usage = reply.usage
        prices = self.config.prices.value
        # priced as the model that answered (a dated snapshot) when the table knows it, else as
        # the model asked for (a compatible server may answer with its own name)
        spent = cost(reply.model, usage, prices)
        if spent is None:
            spent = cost(self.config.model.value, usage, prices)
        if spent is not None:
            self.cost += spent
        elif reply.tokens:
            self.priced = False
        if span is trace.NO_SPAN:
            return
        if usage:
            span.set({"gen_ai.usage.input_tokens": usage.get("input"), "gen_ai.usage.output_tokens": usage.get("output"),
                      "gen_ai.usage.cache_read.input_tokens": usage.get("cache_read"),
                      "gen_ai.usage.cache_creation.input_tokens": usage.get("cache_write"),
                      "gen_ai.response.model": reply.model, "gen_ai.response.id": reply.id,
                      "synsema.cost_usd": spent})
        finish = ("tool_calls" if reply.kind == "tool" else "length" if reply.truncated
                  else "content_filter" if reply.refused else "error" if reply.kind == "invalid" else "stop")
        span.set({"synsema.tokens": reply.tokens, "gen_ai.response.finish_reasons": [finish]})
        if reply.kind == "tool":
            calls = [(call.name, call.id) for call in reply.calls]
            span.tracer.model_called(calls)
            span.set({"synsema.llm.tool_calls": [f"{name}#{call_id}" for name, call_id in calls]})
        if trace.content_allowed():
            span.set({"gen_ai.output.messages": json.dumps(reply.to_json(), ensure_ascii=False)})

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
        return Record(api, config.cassette.value, _netloc(config.base_url.value))
    return api


def _netloc(url: str) -> str | None:
    """`host` or `host:port` of `url`, without any user or password."""
    from urllib.parse import urlsplit
    parts = urlsplit(url)
    if not parts.hostname:
        return None
    return f"{parts.hostname}:{parts.port}" if parts.port else parts.hostname


@contextmanager
def _provider_errors():
    """Errors from a provider's request carry the kind `provider-error` (a cassette miss keeps
    its own), which stays shown when labels withhold the message."""
    try:
        yield
    except SynError as error:
        if error.code is None:
            error.code = "provider-error"
        raise


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
