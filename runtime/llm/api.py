"""What the two HTTP providers share: one request per Ask, and a Reply for every answer.

An adapter for a model API only says how an Ask is written in its format (`body`), how the step
is read from its answer (`read`) and how many tokens the answer reports (`tokens`). This class
does the rest the same way for all of them: tool names translated for the request, the POST
through the shared client, and any answer that cannot be read turned into an "invalid" Reply —
a model's garbage is data for the script's loop, never an exception. An error the provider
sends as the body of a 200 answer (OpenRouter does) is a provider error, as if its status said so.
"""

from __future__ import annotations

from lang.errors import SynError
from runtime.llm.config import Config
from runtime.llm.exchange import Ask, InvalidReply, Reply
from runtime.llm.http import JsonClient
from runtime.llm.names import ToolNames


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

    def body(self, ask: Ask, names: ToolNames) -> dict:
        """The request in the API's format, tools under their wire names."""
        raise NotImplementedError

    def read(self, data, names: ToolNames, tokens: int) -> Reply:
        """The step in the API's answer; raises InvalidReply when there is none."""
        raise NotImplementedError

    def tokens(self, data) -> int:
        """Tokens the answer reports as used (0 when it reports none)."""
        raise NotImplementedError


def _raise_error_body(provider: str, data) -> None:
    """A `{"error": …}` body (no reply in it) is the provider's error, whatever the status."""
    if not isinstance(data, dict) or "error" not in data or "choices" in data or "content" in data:
        return
    error = data["error"]
    message = error.get("message") if isinstance(error, dict) else error
    text = " ".join(str(message).split())[:300] if message else "no message"
    raise SynError(f"llm provider {provider}: the answer (HTTP 200) is an error: {text}")
