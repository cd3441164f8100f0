"""Fake model servers for the provider tests: real HTTP on 127.0.0.1, the real wire formats.

The official `openai` and `anthropic` SDKs are the ground truth on both sides of the wire:
- every request a `FakeServer` receives is validated against the SDK's request parameter types
  (`CompletionCreateParams…` for chat completions, `MessageCreateParams…` for Messages); a body
  those types refuse, or one they would have to drop or coerce a field of, fails the test when
  the server closes;
- the answers below are built from the SDK's response models (`ChatCompletion`, `Message`, and
  their streaming chunk and event types) and sent as those models serialise.

A `FakeServer` answers each POST with the next scripted response (status, headers, body,
optional delay) and keeps every request it received, so a test can check what a provider sent
as well as what it made of the answer. It speaks HTTP/1.1 with keep-alive, as API servers do,
and can misbehave the ways real connections do: reset the connection, close it without an
answer, send part of a body and close, or trickle a body out slowly.
"""

from __future__ import annotations

import json
import socket
import struct
import threading
import time
from collections import deque
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from anthropic import types as anthropic_types
from anthropic.types import message_create_params
from openai.types import chat as openai_chat
from openai.types.chat import chat_completion, chat_completion_chunk, completion_create_params
from openai.types.completion_usage import CompletionUsage
from pydantic import TypeAdapter, ValidationError

_REQUEST_TYPES = {
    ("openai", False): TypeAdapter(completion_create_params.CompletionCreateParamsNonStreaming),
    ("openai", True): TypeAdapter(completion_create_params.CompletionCreateParamsStreaming),
    ("anthropic", False): TypeAdapter(message_create_params.MessageCreateParamsNonStreaming),
    ("anthropic", True): TypeAdapter(message_create_params.MessageCreateParamsStreaming),
}


def request_problem(path: str, body) -> str | None:
    """Why the SDK's request types refuse `body` for `path`, or None when they accept it whole."""
    api = "anthropic" if path.endswith("/v1/messages") else "openai" if path.endswith("/chat/completions") else None
    if api is None:
        return f"no API is served at {path}"
    if not isinstance(body, dict):
        return "the body is not a JSON object"
    adapter = _REQUEST_TYPES[(api, body.get("stream") is True)]
    try:
        accepted = _materialised(adapter.validate_python(body, strict=True))
    except ValidationError as refused:
        return str(refused)
    if accepted != body:  # a field the types do not know was dropped, or a value coerced
        return f"the {api} SDK's request types keep only {json.dumps(accepted)[:2000]} of {json.dumps(body)[:2000]}"
    return None


def _materialised(value):
    """Pydantic validates `Iterable[...]` fields lazily: walk them so every item is checked."""
    if isinstance(value, dict):
        return {key: _materialised(item) for key, item in value.items()}
    if isinstance(value, (str, bytes, int, float, bool)) or value is None:
        return value
    return [_materialised(item) for item in value]


class FakeServer:
    def __init__(self):
        self.requests: list[dict] = []
        self.invalid: list[str] = []
        self.hangups = 0  # answers the client stopped reading before their end
        self._hung_up = threading.Event()
        self._script: deque = deque()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,), daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def __enter__(self) -> "FakeServer":
        self._thread.start()
        return self

    def __exit__(self, kind, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()
        if kind is None:
            assert not self.invalid, "requests the SDK's types refuse:\n" + "\n".join(self.invalid)

    def reply(self, body=None, status: int = 200, headers: dict | None = None, delay: float = 0.0,
              raw: bytes | None = None, fault: str | None = None, sent: int | None = None,
              trickle: float = 0.0) -> "FakeServer":
        """Queue the answer to the next request: `body` as JSON, or `raw` bytes as they are.

        `fault` "reset" resets the connection instead of answering, "close" closes it without a
        word; `sent` sends only that many bytes of the body (its full length announced) and
        closes; `trickle` sends the body one byte every `trickle` seconds.
        """
        payload = raw if raw is not None else json.dumps(body).encode()
        self._script.append((status, headers or {}, payload, delay, fault, sent, trickle))
        return self

    def stream(self, events: list[str], **options) -> "FakeServer":
        """Queue a text/event-stream answer made of `events` (see `openai_stream`, `anthropic_stream`)."""
        return self.reply(raw="".join(events).encode(), headers={"content-type": "text/event-stream"}, **options)

    def hung_up(self, within: float = 10.0) -> bool:
        """Whether the client stopped reading an answer before its end (waiting up to `within` s
        for the server to find out, as it does at its next write)."""
        return self._hung_up.wait(within)

    def bodies(self) -> list[dict]:
        """The JSON bodies of the requests received so far."""
        return [request["body"] for request in self.requests]

    def _handler(self):
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self):
                length = int(self.headers.get("content-length", 0))
                body = json.loads(self.rfile.read(length) or b"null")
                fake.requests.append({"path": self.path, "headers": dict(self.headers), "body": body,
                                      "peer": self.client_address})
                problem = request_problem(self.path, body)
                if problem:
                    fake.invalid.append(f"{self.path}: {problem}")
                if fake._script:
                    status, headers, payload, delay, fault, sent, trickle = fake._script.popleft()
                else:
                    status, headers, payload, delay, fault, sent, trickle = (
                        500, {}, b'{"error": {"message": "nothing scripted"}}', 0, None, None, 0.0)
                time.sleep(delay)
                if fault is not None:
                    self.close_connection = True
                    if fault == "reset":  # SO_LINGER 0: close sends RST
                        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                        self.connection.close()
                    return
                try:
                    self.send_response(status)
                    for name, value in {"content-type": "application/json", **headers}.items():
                        self.send_header(name, value)
                    self.send_header("content-length", str(len(payload)))
                    self.end_headers()
                    if sent is not None:
                        self.wfile.write(payload[:sent])
                        self.close_connection = True
                    elif trickle:
                        for index in range(len(payload)):
                            self.wfile.write(payload[index:index + 1])
                            time.sleep(trickle)
                    else:
                        self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):
                    fake.hangups += 1  # the client gave up (a timeout test)
                    fake._hung_up.set()
                    self.close_connection = True

            def log_message(self, *args):
                pass

        return Handler


def _dump(model) -> dict:
    return model.model_dump(mode="json", exclude_unset=True)


# ---------------------------------------------------------------- OpenAI chat completions
def openai_usage(prompt: int = 20, completion: int = 5) -> CompletionUsage:
    return CompletionUsage(prompt_tokens=prompt, completion_tokens=completion, total_tokens=prompt + completion)


def openai_completion(message: openai_chat.ChatCompletionMessage, finish_reason: str, prompt: int = 20,
                      completion: int = 5) -> dict:
    return _dump(openai_chat.ChatCompletion(
        id="chatcmpl-fake", object="chat.completion", created=0, model="fake-model",
        choices=[chat_completion.Choice(index=0, finish_reason=finish_reason, message=message)],
        usage=openai_usage(prompt, completion)))


def openai_tool_calls(calls: list[tuple[str, str]], prompt: int = 20, completion: int = 5,
                      finish_reason: str = "tool_calls", content: str | None = None) -> dict:
    """A chat.completion whose message calls each (name, arguments JSON *text*) in order,
    with ids call_1, call_2, …"""
    tool_calls = [openai_chat.ChatCompletionMessageFunctionToolCall(
        id=f"call_{n}", type="function",
        function={"name": name, "arguments": arguments}) for n, (name, arguments) in enumerate(calls, start=1)]
    message = openai_chat.ChatCompletionMessage(role="assistant", content=content, tool_calls=tool_calls)
    return openai_completion(message, finish_reason, prompt, completion)


def openai_tool_call(name: str, arguments: str, prompt: int = 20, completion: int = 5) -> dict:
    """A chat.completion whose message calls `name` with `arguments` (JSON *text*, as the API sends)."""
    return openai_tool_calls([(name, arguments)], prompt, completion)


def openai_text(content, prompt: int = 20, completion: int = 5, finish_reason: str = "stop",
                refusal: str | None = None, **extra) -> dict:
    """A chat.completion answering `content`; `extra` fields (`reasoning_content`, …) are ones
    compatible servers add to the message."""
    message = openai_chat.ChatCompletionMessage(role="assistant", content=content, refusal=refusal, **extra)
    return openai_completion(message, finish_reason, prompt, completion)


def openai_error(message: str, kind: str = "rate_limit_error") -> dict:
    return {"error": {"message": message, "type": kind, "code": None}}


def _sse(data: str, event: str | None = None) -> str:
    return (f"event: {event}\n" if event else "") + f"data: {data}\n\n"


def openai_stream(pieces: list[str], prompt: int = 20, completion: int = 5, finish_reason: str = "stop") -> list[str]:
    """The server-sent events of a streamed chat completion: a role chunk, one chunk per text
    piece, the finish chunk, the usage chunk (asked for by stream_options), then [DONE]."""
    def chunk(delta: dict, finish=None, usage=None) -> str:
        choices = [] if usage else [chat_completion_chunk.Choice(index=0, delta=delta, finish_reason=finish)]
        return _sse(json.dumps(_dump(openai_chat.ChatCompletionChunk(
            id="chatcmpl-fake", object="chat.completion.chunk", created=0, model="fake-model", choices=choices,
            **({"usage": usage} if usage else {})))))
    return ([chunk({"role": "assistant", "content": ""})] + [chunk({"content": piece}) for piece in pieces]
            + [chunk({}, finish_reason), chunk({}, usage=openai_usage(prompt, completion)), _sse("[DONE]")])


# ---------------------------------------------------------------- Anthropic Messages
def anthropic_usage(input_tokens: int = 30, output_tokens: int = 7, cache_write: int | None = None,
                    cache_read: int | None = None) -> anthropic_types.Usage:
    return anthropic_types.Usage(input_tokens=input_tokens, output_tokens=output_tokens,
                                 cache_creation_input_tokens=cache_write, cache_read_input_tokens=cache_read)


def anthropic_message(content: list, stop_reason: str, usage: anthropic_types.Usage | None = None) -> dict:
    return _dump(anthropic_types.Message(
        id="msg_fake", type="message", role="assistant", model="fake-model", content=content,
        stop_reason=stop_reason, stop_sequence=None, usage=usage or anthropic_usage()))


def anthropic_tool_uses(calls: list[tuple[str, dict]], text: str | None = None, input_tokens: int = 30,
                        output_tokens: int = 7, stop_reason: str = "tool_use") -> dict:
    """A message whose content holds one tool_use block per (name, input) — ids toolu_1, toolu_2,
    … — after an optional text block."""
    content = [anthropic_types.TextBlock(type="text", text=text)] if text else []
    content += [anthropic_types.ToolUseBlock(type="tool_use", id=f"toolu_{n}", name=name, input=value)
                for n, (name, value) in enumerate(calls, start=1)]
    return anthropic_message(content, stop_reason, anthropic_usage(input_tokens, output_tokens))


def anthropic_tool_use(name: str, input_value: dict, text: str | None = None, input_tokens: int = 30,
                       output_tokens: int = 7) -> dict:
    """A message whose content holds a tool_use block (after an optional text block)."""
    return anthropic_tool_uses([(name, input_value)], text, input_tokens, output_tokens)


def anthropic_text(text: str, input_tokens: int = 30, output_tokens: int = 7, stop_reason: str = "end_turn",
                   thinking: str | None = None, usage: anthropic_types.Usage | None = None) -> dict:
    content = [anthropic_types.ThinkingBlock(type="thinking", thinking=thinking, signature="sig")] if thinking else []
    if text:
        content.append(anthropic_types.TextBlock(type="text", text=text))
    return anthropic_message(content, stop_reason, usage or anthropic_usage(input_tokens, output_tokens))


def anthropic_error(message: str, kind: str = "overloaded_error") -> dict:
    return {"type": "error", "error": {"type": kind, "message": message}}


def anthropic_stream(pieces: list[str], input_tokens: int = 30, output_tokens: int = 7,
                     stop_reason: str = "end_turn") -> list[str]:
    """The server-sent events of a streamed message: message_start, one text block whose deltas
    are `pieces`, message_delta with the stop reason and output usage, message_stop."""
    def event(model) -> str:
        data = _dump(model)
        return _sse(json.dumps(data), data["type"])
    start = anthropic_types.RawMessageStartEvent(type="message_start", message=anthropic_types.Message(
        id="msg_fake", type="message", role="assistant", model="fake-model", content=[], stop_reason=None,
        stop_sequence=None, usage=anthropic_usage(input_tokens, 1)))
    return ([event(start), event(anthropic_types.RawContentBlockStartEvent(
                type="content_block_start", index=0, content_block=anthropic_types.TextBlock(type="text", text="")))]
            + [event(anthropic_types.RawContentBlockDeltaEvent(
                type="content_block_delta", index=0, delta=anthropic_types.TextDelta(type="text_delta", text=piece)))
               for piece in pieces]
            + [event(anthropic_types.RawContentBlockStopEvent(type="content_block_stop", index=0)),
               event(anthropic_types.RawMessageDeltaEvent(
                   type="message_delta", delta={"stop_reason": stop_reason, "stop_sequence": None},
                   usage=anthropic_types.MessageDeltaUsage(output_tokens=output_tokens))),
               event(anthropic_types.RawMessageStopEvent(type="message_stop"))])


# ---------------------------------------------------------------- streams of any answer
def _split(text: str, size: int) -> list[str]:
    return [text[i:i + size] for i in range(0, len(text), size)] or [""]


def openai_chunks(deltas: list[dict], finish_reason: str | None = "stop", prompt: int | None = 20,
                  completion: int = 5) -> list[str]:
    """The server-sent events of a streamed chat completion made of `deltas` (each a
    ChoiceDelta's fields), then the finish chunk (none when `finish_reason` is None), the
    usage chunk (none when `prompt` is None) and [DONE]."""
    def chunk(delta: dict | None, finish=None, usage=None) -> str:
        choices = [] if delta is None else [chat_completion_chunk.Choice(index=0, delta=delta, finish_reason=finish)]
        return _sse(json.dumps(_dump(openai_chat.ChatCompletionChunk(
            id="chatcmpl-fake", object="chat.completion.chunk", created=0, model="fake-model", choices=choices,
            **({"usage": usage} if usage else {})))))
    events = [chunk({"role": "assistant"})] + [chunk(delta) for delta in deltas]
    if finish_reason is not None:
        events.append(chunk({}, finish_reason))
    if prompt is not None:
        events.append(chunk(None, usage=openai_usage(prompt, completion)))
    return events + [_sse("[DONE]")]


def openai_call_deltas(calls: list[tuple[str, str]], piece: int = 7, content: str | None = None) -> list[dict]:
    """Tool-call deltas for each (name, arguments text), ids call_1, call_2, …, the way OpenAI
    streams parallel calls: each call's first delta brings its id and name, the arguments follow
    in pieces — here the calls' pieces interleaved, so only their `index` keeps them apart."""
    deltas = [{"content": content}] if content else []
    deltas += [{"tool_calls": [{"index": n, "id": f"call_{n + 1}", "type": "function",
                                "function": {"name": name, "arguments": ""}}]} for n, (name, _) in enumerate(calls)]
    pieces = [_split(arguments, piece) for _, arguments in calls]
    for step in range(max(len(p) for p in pieces)):
        deltas += [{"tool_calls": [{"index": n, "function": {"arguments": p[step]}}]}
                   for n, p in enumerate(pieces) if step < len(p)]
    return deltas


def anthropic_events(content: list, stop_reason: str | None = "end_turn", input_tokens: int = 30,
                     output_tokens: int = 7, piece: int = 7, stop: bool = True,
                     usage: anthropic_types.Usage | None = None) -> list[str]:
    """The server-sent events of a streamed message whose content is `content` (the SDK's block
    models): each block started empty and filled by deltas of `piece` characters (text, tool
    input JSON, thinking and its signature), then message_delta (none when `stop_reason` is
    None) and message_stop (none when `stop` is false)."""
    def event(model) -> str:
        data = _dump(model)
        return _sse(json.dumps(data), data["type"])
    start = anthropic_types.RawMessageStartEvent(type="message_start", message=anthropic_types.Message(
        id="msg_fake", type="message", role="assistant", model="fake-model", content=[], stop_reason=None,
        stop_sequence=None, usage=usage or anthropic_usage(input_tokens, 1)))
    events = [event(start)]
    for index, block in enumerate(content):
        deltas = []
        if block.type == "text":
            shell = anthropic_types.TextBlock(type="text", text="")
            deltas = [anthropic_types.TextDelta(type="text_delta", text=p) for p in _split(block.text, piece)]
        elif block.type == "tool_use":
            shell = anthropic_types.ToolUseBlock(type="tool_use", id=block.id, name=block.name, input={})
            deltas = [anthropic_types.InputJSONDelta(type="input_json_delta", partial_json=p)
                      for p in _split(json.dumps(block.input), piece)]
        elif block.type == "thinking":
            shell = anthropic_types.ThinkingBlock(type="thinking", thinking="", signature="")
            deltas = [anthropic_types.ThinkingDelta(type="thinking_delta", thinking=p)
                      for p in _split(block.thinking, piece)]
            deltas.append(anthropic_types.SignatureDelta(type="signature_delta", signature=block.signature))
        else:  # redacted_thinking comes whole in its start event
            shell = block
        events.append(event(anthropic_types.RawContentBlockStartEvent(
            type="content_block_start", index=index, content_block=shell)))
        events += [event(anthropic_types.RawContentBlockDeltaEvent(type="content_block_delta", index=index, delta=d))
                   for d in deltas]
        events.append(event(anthropic_types.RawContentBlockStopEvent(type="content_block_stop", index=index)))
    if stop_reason is not None:
        events.append(event(anthropic_types.RawMessageDeltaEvent(
            type="message_delta", delta={"stop_reason": stop_reason, "stop_sequence": None},
            usage=anthropic_types.MessageDeltaUsage(output_tokens=output_tokens))))
    if stop:
        events.append(event(anthropic_types.RawMessageStopEvent(type="message_stop")))
    return events


def anthropic_blocks(calls: list[tuple[str, dict]] = (), text: str | None = None, thinking: str | None = None,
                     signature: str = "sig-1", redacted: str | None = None) -> list:
    """Content blocks: thinking (with its signature), redacted thinking, text, then one tool_use
    per (name, input) with ids toolu_1, toolu_2, …"""
    content: list = []
    if thinking:
        content.append(anthropic_types.ThinkingBlock(type="thinking", thinking=thinking, signature=signature))
    if redacted:
        content.append(anthropic_types.RedactedThinkingBlock(type="redacted_thinking", data=redacted))
    if text:
        content.append(anthropic_types.TextBlock(type="text", text=text))
    content += [anthropic_types.ToolUseBlock(type="tool_use", id=f"toolu_{n}", name=name, input=value)
                for n, (name, value) in enumerate(calls, start=1)]
    return content
