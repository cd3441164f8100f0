"""The `openai` provider: any endpoint that speaks OpenAI's chat-completions format.

That covers OpenAI itself and the many local and hosted servers that copy its wire format, so
the key is optional (local servers need none) and the base URL is a knob. Tools go out as
function tools; the first tool call of the answer is the step (one step, one decision).
"""

from __future__ import annotations

from runtime.llm.api import ApiProvider
from runtime.llm.config import Config
from runtime.llm.exchange import Ask, InvalidReply, Reply, parse_arguments
from runtime.llm.names import ToolNames


class OpenAIChat(ApiProvider):
    name = "openai"

    def __init__(self, config: Config):
        key = config.api_key("openai")
        super().__init__(config, str(config.base_url.value).rstrip("/") + "/chat/completions",
                         {"authorization": f"Bearer {key}"} if key else {})

    def body(self, ask: Ask, names: ToolNames) -> dict:
        body: dict = {
            "model": self.model,
            "max_tokens": self.max_tokens,
            "messages": [{"role": "system", "content": ask.system_text()},
                         {"role": "user", "content": ask.user_text()}],
        }
        if ask.tools:
            body["tools"] = [{"type": "function",
                              "function": {"name": names.wire(tool.name), "description": tool.description,
                                           "parameters": tool.input_schema}}
                             for tool in ask.tools]
            body["tool_choice"] = ("auto" if ask.force is None else
                                   {"type": "function", "function": {"name": names.wire(ask.force)}})
        return body

    def read(self, data, names: ToolNames, tokens: int) -> Reply:
        """The first tool call of choices[0].message, else its text content."""
        try:
            message = data["choices"][0]["message"]
            calls = message.get("tool_calls") or []
            content = message.get("content")
        except (KeyError, IndexError, TypeError, AttributeError):
            raise InvalidReply("unexpected response shape (no choices[0].message)") from None
        if calls:
            function = calls[0].get("function") if isinstance(calls[0], dict) else None
            if not isinstance(function, dict) or not isinstance(function.get("name"), str):
                raise InvalidReply("a tool call without a function name")
            name = names.script(function["name"])
            return Reply("tool", name=name, args=parse_arguments(function.get("arguments"), name),
                         tokens=tokens)
        if isinstance(content, list):  # some compatible servers send content parts
            content = "".join(part["text"] for part in content
                              if isinstance(part, dict) and isinstance(part.get("text"), str))
        if isinstance(content, str) and content.strip():
            return Reply("text", text=content, tokens=tokens)
        raise InvalidReply("no content and no tool call")

    def tokens(self, data) -> int:
        """usage.total_tokens, or prompt plus completion tokens."""
        try:
            usage = data["usage"]
            total = usage.get("total_tokens")
            if type(total) is not int:
                total = int(usage.get("prompt_tokens") or 0) + int(usage.get("completion_tokens") or 0)
            return total
        except (KeyError, TypeError, ValueError, AttributeError):
            return 0
