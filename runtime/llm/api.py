"""What the two HTTP providers share: one request per Ask, and a Reply for every answer.

An adapter for a model API only says how an Ask is written in its format (`body`), how the step
is read from its answer (`read`) and how many tokens the answer reports (`tokens`). This class
does the rest the same way for all of them: tool names translated for the request, the POST
through the shared client, and any answer that cannot be read turned into an "invalid" Reply —
a model's garbage is data for the script's loop, never an exception. An error the provider
sends as the body of a 200 answer (OpenRouter does) is a provider error, as if its status said so.
"""

from __future__ import annotations

import json
from typing import Callable

from synsema.lang.errors import SynError
from synsema.runtime.llm.config import Config
from synsema.runtime.llm.exchange import CUT_BEFORE_ANSWER, Ask, InvalidReply, Reply
from synsema.runtime.llm.http import JsonClient
from synsema.runtime.llm.names import ToolNames


class ApiProvider:
    name = ""

    def __init__(self, config: Config, url: str, headers: dict[str, str]):
        self.url = url
        self.headers = headers
        self.model = config.model.value
        self.max_tokens = config.max_tokens.value
        self.client = JsonClient(self.name, config.timeout.value)

    def complete(self, ask: Ask) -> Reply:
        names = ToolNames(tool.name for tool in ask.tools)
        try:
            data = self.client.post(self.url, self.headers, self.body(ask, names))
        except InvalidReply as invalid:
            return Reply("invalid", text=str(invalid))
        _raise_error_body(self.name, data)
        tokens = self.tokens(data)
        try:
            return self.read(data, names, tokens)
        except InvalidReply as invalid:
            return Reply("invalid", text=str(invalid), tokens=tokens)

    def stream(self, ask: Ask, on_chunk: Callable[[str], None]) -> Reply:
        """A plain-text answer streamed: `on_chunk(piece)` as each piece of text arrives.

        The reply's `chunks` are the pieces passed on, in order; a leading `<think>` block and
        the APIs' reasoning deltas go to `reasoning` instead, never to `on_chunk`.
        """
        state = Streamed()
        body = {**self.body(ask, ToolNames(())), "stream": True, **self.stream_options}
        try:
            for _, data in self.client.events(self.url, self.headers, body):
                if not data.strip() or data.strip() == "[DONE]":
                    continue
                try:
                    event = json.loads(data)
                except ValueError:
                    raise InvalidReply("a stream event is not JSON") from None
                _raise_error_body(self.name, event)
                for piece in self.read_event(event, state):
                    visible = state.visible(piece)
                    if visible:
                        state.chunks.append(visible)
                        on_chunk(visible)
        except InvalidReply as invalid:
            return Reply("invalid", text=str(invalid), tokens=self.stream_tokens(state), chunks=tuple(state.chunks))
        tail = state.finish()
        if tail:
            state.chunks.append(tail)
            on_chunk(tail)
        text = "".join(state.chunks)
        if not text.strip():
            return Reply("invalid", text=CUT_BEFORE_ANSWER if state.truncated else "no content",
                         tokens=self.stream_tokens(state), chunks=tuple(state.chunks))
        return Reply("text", text=text, chunks=tuple(state.chunks), truncated=state.truncated,
                     refused=state.refused, reasoning=state.reasoning.strip(), tokens=self.stream_tokens(state))

    stream_options: dict = {}

    def read_event(self, event: dict, state: "Streamed") -> list[str]:
        """The text pieces of one stream event; flags, usage and reasoning go into `state`."""
        raise NotImplementedError

    def stream_tokens(self, state: "Streamed") -> int:
        """Tokens the stream's usage events reported."""
        raise NotImplementedError

    def body(self, ask: Ask, names: ToolNames) -> dict:
        """The request in the API's format, tools under their wire names."""
        raise NotImplementedError

    def read(self, data, names: ToolNames, tokens: int) -> Reply:
        """The step in the API's answer; raises InvalidReply when there is none."""
        raise NotImplementedError

    def tokens(self, data) -> int:
        """Tokens the answer reports as used (0 when it reports none)."""
        raise NotImplementedError


class Streamed:
    """What a stream has said so far: the pieces passed on, reasoning, flags and usage.

    `visible` takes a leading `<think>…</think>` block out of the text as it streams: pieces are
    held while they could still be the start of one, and the block goes to `reasoning`.
    """

    _OPEN, _CLOSE = "<think>", "</think>"

    def __init__(self):
        self.chunks: list[str] = []
        self.reasoning = ""  # deltas as they came, then a <think> block
        self.truncated = False
        self.refused = False
        self.usage: dict[str, int] = {}
        self._held = ""
        self._mode = "start"  # start → (think →) after → text

    def add_reasoning(self, block: str) -> None:
        self.reasoning += ("\n" if self.reasoning.strip() else "") + block.strip()

    def visible(self, piece: str) -> str:
        if self._mode == "text":
            return piece
        self._held += piece
        held = self._held.lstrip()
        if self._mode == "start":
            if held.startswith(self._OPEN):
                self._mode = "think"
            elif self._OPEN.startswith(held):
                return ""
            else:
                self._mode, self._held = "text", ""
                return held
        if self._mode == "think":
            inner = held[len(self._OPEN):]
            end = inner.find(self._CLOSE)
            if end < 0:
                return ""
            self.add_reasoning(inner[:end])
            self._mode, self._held = "after", inner[end + len(self._CLOSE):]
            held = self._held.lstrip()
        if not held:  # "after": the answer's leading whitespace is dropped, as split_reasoning does
            return ""
        self._mode, self._held = "text", ""
        return held

    def finish(self) -> str:
        """What is still held when the stream ends: a would-be `<think>` that never was, or an
        unclosed block (all reasoning: the answer never came)."""
        held, mode = self._held, self._mode
        self._held, self._mode = "", "text"
        if mode == "think":
            self.add_reasoning(held.lstrip()[len(self._OPEN):])
            return ""
        return held.lstrip() if mode in ("start", "after") else ""


def _raise_error_body(provider: str, data) -> None:
    """A `{"error": …}` body (no reply in it) is the provider's error, whatever the status."""
    if not isinstance(data, dict) or "error" not in data or "choices" in data or "content" in data:
        return
    error = data["error"]
    message = error.get("message") if isinstance(error, dict) else error
    text = " ".join(str(message).split())[:300] if message else "no message"
    raise SynError(f"llm provider {provider}: the answer (HTTP 200) is an error: {text}")
