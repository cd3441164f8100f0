"""Fake model servers for the provider tests: real HTTP on 127.0.0.1, the real wire formats.

A `FakeServer` answers each POST with the next scripted response (status, headers, JSON body,
optional delay) and keeps every request it received, so a test can check what a provider sent
as well as what it made of the answer. The builders below write answers the way the OpenAI
chat-completions and Anthropic Messages APIs do, usage fields included.
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class FakeServer:
    def __init__(self):
        self.requests: list[dict] = []
        self._script: deque = deque()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,), daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def __enter__(self) -> "FakeServer":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()

    def reply(self, body=None, status: int = 200, headers: dict | None = None, delay: float = 0.0,
              raw: bytes | None = None) -> "FakeServer":
        """Queue the answer to the next request: `body` as JSON, or `raw` bytes as they are."""
        payload = raw if raw is not None else json.dumps(body).encode()
        self._script.append((status, headers or {}, payload, delay))
        return self

    def bodies(self) -> list[dict]:
        """The JSON bodies of the requests received so far."""
        return [request["body"] for request in self.requests]

    def _handler(self):
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                length = int(self.headers.get("content-length", 0))
                body = json.loads(self.rfile.read(length) or b"null")
                fake.requests.append({"path": self.path, "headers": dict(self.headers), "body": body})
                if fake._script:
                    status, headers, payload, delay = fake._script.popleft()
                else:
                    status, headers, payload, delay = 500, {}, b'{"error": {"message": "nothing scripted"}}', 0
                time.sleep(delay)
                try:
                    self.send_response(status)
                    for name, value in {"content-type": "application/json", **headers}.items():
                        self.send_header(name, value)
                    self.send_header("content-length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a timeout test)

            def log_message(self, *args):
                pass

        return Handler


# ---------------------------------------------------------------- OpenAI chat completions
def openai_usage(prompt: int = 20, completion: int = 5) -> dict:
    return {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}


def openai_tool_call(name: str, arguments: str, prompt: int = 20, completion: int = 5) -> dict:
    """A chat.completion whose message calls `name` with `arguments` (JSON *text*, as the API sends)."""
    return {
        "id": "chatcmpl-fake", "object": "chat.completion", "created": 0, "model": "fake-model",
        "choices": [{"index": 0, "finish_reason": "tool_calls",
                     "message": {"role": "assistant", "content": None,
                                 "tool_calls": [{"id": "call_1", "type": "function",
                                                 "function": {"name": name, "arguments": arguments}}]}}],
        "usage": openai_usage(prompt, completion),
    }


def openai_text(content, prompt: int = 20, completion: int = 5) -> dict:
    return {
        "id": "chatcmpl-fake", "object": "chat.completion", "created": 0, "model": "fake-model",
        "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": content}}],
        "usage": openai_usage(prompt, completion),
    }


def openai_error(message: str, kind: str = "rate_limit_error") -> dict:
    return {"error": {"message": message, "type": kind, "code": None}}


# ---------------------------------------------------------------- Anthropic Messages
def anthropic_usage(input_tokens: int = 30, output_tokens: int = 7) -> dict:
    return {"input_tokens": input_tokens, "output_tokens": output_tokens}


def anthropic_tool_use(name: str, input_value, text: str | None = None, input_tokens: int = 30,
                       output_tokens: int = 7) -> dict:
    """A message whose content holds a tool_use block (after an optional text block)."""
    content = [{"type": "text", "text": text}] if text else []
    content.append({"type": "tool_use", "id": "toolu_1", "name": name, "input": input_value})
    return {"id": "msg_fake", "type": "message", "role": "assistant", "model": "fake-model",
            "content": content, "stop_reason": "tool_use", "stop_sequence": None,
            "usage": anthropic_usage(input_tokens, output_tokens)}


def anthropic_text(text: str, input_tokens: int = 30, output_tokens: int = 7) -> dict:
    return {"id": "msg_fake", "type": "message", "role": "assistant", "model": "fake-model",
            "content": [{"type": "text", "text": text}] if text else [], "stop_reason": "end_turn",
            "stop_sequence": None, "usage": anthropic_usage(input_tokens, output_tokens)}


def anthropic_error(message: str, kind: str = "overloaded_error") -> dict:
    return {"type": "error", "error": {"type": kind, "message": message}}
