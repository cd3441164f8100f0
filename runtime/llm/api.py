"""What the two HTTP providers share: one request per Ask, and a Reply for every answer.

An adapter for a model API only says how an Ask is written in its format (`body`), how the step
is read from its answer (`read`), how a streamed answer's events add up to that same answer
(`read_event`, `assembled`) and what usage the answer reports. This class does the rest the same
way for all of them: tool names translated for the request, the POST through the shared client,
call ids made unique in the conversation, and any answer that cannot be read turned into an
"invalid" Reply — a model's garbage is data for the script's loop, never an exception. An error
the provider sends as the body of a 200 answer (OpenRouter does) is a provider error, as if its
status said so.

A step asked for as a stream is assembled from its events into the answer the API would have
sent whole and read by the same `read`, so streaming changes nothing in the result. A stream
that ends before the API's own end marker is a cut answer (`truncated`), never a complete one.

Tokens: what the server reports. What it does not report is estimated from sizes (see
`exchange.estimate_tokens`): the request's JSON body for the input, what arrived of the answer for
the output — so a proxy that drops `usage`, or a stream cut before it, still spends budget.
"""

from __future__ import annotations

import json
from typing import Callable

from synsema.lang.errors import SynError
from synsema.runtime.llm.config import Config
from synsema.runtime.llm.exchange import (CUTS, Ask, Call, InvalidReply, Reply, clean_json, cut_before_answer,
                                          estimate_tokens, usage)
from synsema.runtime.llm.http import JsonClient, StreamCut
from synsema.runtime.llm.names import ToolNames


class ApiProvider:
    name = ""
    id_prefix = ""  # of the ids made up for calls the server sent without one

    def __init__(self, config: Config, url: str, headers: dict[str, str]):
        self.url = url
        self.headers = headers
        self.model = config.model.value
        self.max_tokens = config.max_tokens.value
        self.client = JsonClient(self.name, config.timeout.value)

    def complete(self, ask: Ask, stream: bool = False) -> Reply:
        """The step answering `ask`; `stream`: asked for as server-sent events and assembled."""
        names = ToolNames(tool.name for tool in ask.tools)
        body = self.body(ask, names)
        sent = len(json.dumps(body))
        if stream:
            state = Streamed()
            try:
                self._stream(body, state, lambda piece: None)
            except InvalidReply as invalid:
                return _stamped(Reply("invalid", text=str(invalid)), self._stream_usage(state, sent), state.parts)
            data, spent, cut = self.assembled(state), self._stream_usage(state, sent), state.cut
            tokens, about = spent["input"] + spent["output"], state.parts
        else:
            try:
                data = self.client.post(self.url, self.headers, body)
            except InvalidReply as invalid:
                return _stamped(Reply("invalid", text=str(invalid)), usage(estimate_tokens(sent), 0), {})
            _raise_error_body(self.name, data)
            spent = self.usage_of(data) or usage(estimate_tokens(sent), estimate_tokens(len(json.dumps(data))))
            tokens, cut, about = self.tokens(data) or spent["input"] + spent["output"], None, data
        try:
            reply = _unique_ids(self.read(data, names, tokens, cut), ask, self.id_prefix)
        except InvalidReply as invalid:
            reply = Reply("invalid", text=str(invalid), tokens=tokens, truncated=invalid.truncated)
        return _stamped(reply, spent, about)

    def stream(self, ask: Ask, on_chunk: Callable[[str], None]) -> Reply:
        """A plain-text answer streamed: `on_chunk(piece)` as each piece of text arrives.

        The reply's `chunks` are the pieces passed on, in order; a leading `<think>` block and
        the APIs' reasoning deltas go to `reasoning` instead, never to `on_chunk`. An answer cut
        off ends with a last piece `[truncated: … cut the answer off …]`.
        """
        state = Streamed()
        body = self.body(ask, ToolNames(()))
        sent = len(json.dumps(body))

        def passed(piece: str) -> None:
            visible = state.visible(piece)
            if visible:
                state.chunks.append(visible)
                on_chunk(visible)
        try:
            self._stream(body, state, passed)
        except InvalidReply as invalid:
            return _stamped(Reply("invalid", text=str(invalid), chunks=tuple(state.chunks)),
                            self._stream_usage(state, sent), state.parts)
        tail = state.finish()
        if tail:
            state.chunks.append(tail)
            on_chunk(tail)
        spent = self._stream_usage(state, sent)
        if not "".join(state.chunks).strip():
            return _stamped(Reply("invalid", text=cut_before_answer(state.cut) if state.cut else "no content",
                                  chunks=tuple(state.chunks), truncated=state.cut is not None), spent, state.parts)
        if state.cut:  # the text is all the script gets: its last piece says it is not the whole answer
            what, advice = CUTS[state.cut]
            state.chunks.append(f"[truncated: {what} cut the answer off{advice}]")
            on_chunk(state.chunks[-1])
        text = "".join(state.chunks)
        return _stamped(Reply("text", text=text, chunks=tuple(state.chunks), truncated=state.cut is not None,
                              refused=state.refused, reasoning=state.reasoning.strip()), spent, state.parts)

    def _stream(self, body: dict, state: "Streamed", on_piece: Callable[[str], None]) -> None:
        """Read the event stream for `body` into `state`, each text piece to `on_piece`; a stream
        that ends without the API's end marker leaves `state.cut` set."""
        try:
            for _, data in self.client.events(self.url, self.headers, {**body, "stream": True, **self.stream_options}):
                if not data.strip() or data.strip() == "[DONE]":
                    continue
                try:
                    event = clean_json(data)
                except ValueError:
                    raise InvalidReply("a stream event is not JSON") from None
                _raise_error_body(self.name, event)
                _note_identity(event, state.parts)
                for piece in self.read_event(event, state):
                    on_piece(piece)
        except StreamCut:
            pass
        if not state.complete and state.cut is None:
            state.cut = "stream"

    def _stream_usage(self, state: "Streamed", sent: int) -> dict[str, int]:
        """The stream's reported input, else an estimate from the request; its reported output
        when the stream completed with it, else at least an estimate from what arrived."""
        reported_in, reported_out, cache_read, cache_write = self.stream_usage(state)
        spent_in = reported_in if reported_in else estimate_tokens(sent)
        if state.cut == "stream" or not reported_out:
            arrived = estimate_tokens(len(json.dumps(self.assembled(state))))
            return usage(spent_in, max(reported_out or 0, arrived), cache_read, cache_write)
        return usage(spent_in, reported_out, cache_read, cache_write)

    stream_options: dict = {}

    def read_event(self, event: dict, state: "Streamed") -> list[str]:
        """The text pieces of one stream event; the answer so far, flags, usage and reasoning go
        into `state`."""
        raise NotImplementedError

    def assembled(self, state: "Streamed") -> dict:
        """The answer the stream adds up to, in the shape `read` takes."""
        raise NotImplementedError

    def stream_usage(self, state: "Streamed") -> tuple[int | None, int | None, int, int]:
        """(input, output, cache read, cache write) tokens the stream's events reported, input
        counting the cache's; None for input or output they did not report."""
        raise NotImplementedError

    def usage_of(self, data) -> dict[str, int] | None:
        """The usage (exchange.usage) a whole answer reports, or None when it reports none."""
        raise NotImplementedError

    def body(self, ask: Ask, names: ToolNames) -> dict:
        """The request in the API's format, tools under their wire names."""
        raise NotImplementedError

    def read(self, data, names: ToolNames, tokens: int, cut: str | None) -> Reply:
        """The step in the API's answer; raises InvalidReply when there is none. `cut` says the
        stream it was assembled from broke off ("stream"), else None."""
        raise NotImplementedError

    def tokens(self, data) -> int:
        """Tokens the answer reports as used (0 when it reports none)."""
        raise NotImplementedError


class Streamed:
    """What a stream has said so far: the pieces passed on, the answer being assembled (in
    `parts`, each adapter's own), reasoning, flags and usage.

    `visible` takes a leading `<think>…</think>` block out of the text as it streams: pieces are
    held while they could still be the start of one, and the block goes to `reasoning`.
    """

    _OPEN, _CLOSE = "<think>", "</think>"

    def __init__(self):
        self.chunks: list[str] = []
        self.reasoning = ""  # deltas as they came, then a <think> block
        self.cut: str | None = None  # what cut the answer off (a key of exchange.CUTS)
        self.complete = False  # the API's end marker arrived
        self.refused = False
        self.usage: dict[str, int] = {}
        self.parts: dict = {}
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


def _stamped(reply: Reply, spent: dict[str, int], about: dict) -> Reply:
    """`reply` with its usage, its tokens (unless already read from the answer) and the
    response's id and model, when `about` (the answer, or what its stream said) gives them."""
    reply.usage = spent
    reply.tokens = reply.tokens or spent["input"] + spent["output"]
    for field in ("id", "model"):
        value = about.get(field) if isinstance(about, dict) else None
        reply_value = value if isinstance(value, str) else ""
        setattr(reply, field, reply_value)
    return reply


def _note_identity(event: dict, parts: dict) -> None:
    """The response's id and model, from an OpenAI chunk or Anthropic's message_start."""
    source = event.get("message") if isinstance(event.get("message"), dict) else event
    for field in ("id", "model"):
        if isinstance(source.get(field), str) and source[field]:
            parts.setdefault(field, source[field])


def _unique_ids(reply: Reply, ask: Ask, prefix: str) -> Reply:
    """`reply` with every call id that is missing, or already used in the conversation or the
    reply, replaced by `<prefix>_<n>` — the first n not yet taken, counting from the calls so far.

    Servers that send no ids (llama.cpp, LM Studio, Gemini's compatible endpoint) would otherwise
    get ids that repeat turn after turn, and both APIs refuse a conversation whose results cannot
    be matched to one call.
    """
    if reply.kind != "tool":
        return reply
    taken = {call["id"] for turn in ask.turns() if turn["role"] == "assistant" for call in turn["calls"]}
    number = len(taken)
    calls = []
    for call in reply.calls:
        call_id = call.id
        if not call_id or call_id in taken:
            while f"{prefix}_{number}" in taken:
                number += 1
            call_id = f"{prefix}_{number}"
        taken.add(call_id)
        calls.append(call if call_id == call.id else Call(call_id, call.name, call.args))
    reply.calls = tuple(calls)
    return reply


def _raise_error_body(provider: str, data) -> None:
    """A `{"error": …}` body (no reply in it) is the provider's error, whatever the status."""
    if not isinstance(data, dict) or "error" not in data or "choices" in data or "content" in data:
        return
    error = data["error"]
    message = error.get("message") if isinstance(error, dict) else error
    text = " ".join(str(message).split())[:300] if message else "no message"
    raise SynError(f"llm provider {provider}: the answer (HTTP 200) is an error: {text}")
