"""The `anthropic` provider: Anthropic's Messages API with tools.

The answer is a list of content blocks; a `tool_use` block is the step even when text blocks
come with it (the model often explains itself before calling), otherwise the text blocks joined
are the final answer.
"""

from __future__ import annotations

from runtime.llm.api import ApiProvider
from runtime.llm.config import Config
from runtime.llm.exchange import Ask, InvalidReply, Reply, parse_arguments
from runtime.llm.names import ToolNames

API_VERSION = "2023-06-01"


class AnthropicMessages(ApiProvider):
    name = "anthropic"

    def __init__(self, config: Config):
        super().__init__(config, str(config.base_url.value).rstrip("/") + "/v1/messages",
                         {"x-api-key": config.api_key("anthropic") or "", "anthropic-version": API_VERSION})

    def body(self, ask: Ask, names: ToolNames) -> dict:
        body: dict = {
            "model": self.model,
            "max_tokens": self.max_tokens,
            "system": ask.system_text(),
            "messages": [{"role": "user", "content": ask.user_text()}],
        }
        if ask.tools:
            body["tools"] = [{"name": names.wire(tool.name), "description": tool.description,
                              "input_schema": tool.input_schema} for tool in ask.tools]
            body["tool_choice"] = ({"type": "auto"} if ask.force is None else
                                   {"type": "tool", "name": names.wire(ask.force)})
        return body

    def read(self, data, names: ToolNames, tokens: int) -> Reply:
        """The first tool_use block, else the text blocks joined."""
        try:
            blocks = [block for block in data["content"] if isinstance(block, dict)]
        except (KeyError, TypeError):
            raise InvalidReply("unexpected response shape (no content list)") from None
        for block in blocks:
            if block.get("type") == "tool_use":
                if not isinstance(block.get("name"), str):
                    raise InvalidReply("a tool_use block without a name")
                name = names.script(block["name"])
                return Reply("tool", name=name, args=parse_arguments(block.get("input"), name),
                             tokens=tokens)
        text = "".join(block["text"] for block in blocks
                       if block.get("type") == "text" and isinstance(block.get("text"), str))
        if text.strip():
            return Reply("text", text=text, tokens=tokens)
        raise InvalidReply("no content and no tool call")

    def tokens(self, data) -> int:
        """usage.input_tokens plus usage.output_tokens."""
        try:
            usage = data["usage"]
            return int(usage.get("input_tokens") or 0) + int(usage.get("output_tokens") or 0)
        except (KeyError, TypeError, ValueError, AttributeError):
            return 0
