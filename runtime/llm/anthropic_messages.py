"""The `anthropic` provider: Anthropic's Messages API with tools.

The answer is a list of content blocks; its `tool_use` blocks are the step even when text blocks
come with them (the model often explains itself before calling), otherwise the text blocks joined
are the final answer.
"""

from __future__ import annotations

from synsema.runtime.llm.api import ApiProvider, Streamed
from synsema.runtime.llm.config import Config
from synsema.runtime.llm.exchange import (Ask, Call, InvalidReply, Reply, cut_off, parse_arguments, refusal_text,
                                  split_reasoning, text_reply)
from synsema.runtime.llm.names import ToolNames

API_VERSION = "2023-06-01"
USAGE_FIELDS = ("input_tokens", "output_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")


class AnthropicMessages(ApiProvider):
    name = "anthropic"

    def __init__(self, config: Config):
        super().__init__(config, messages_url(str(config.base_url.value)),
                         {"x-api-key": config.api_key("anthropic") or "", "anthropic-version": API_VERSION})

    def body(self, ask: Ask, names: ToolNames) -> dict:
        body: dict = {
            "model": self.model,
            "max_tokens": self.max_tokens,
            # The cache breakpoint on the system prompt caches tools + system: the prefix every
            # request of a run shares (the API ignores it below the model's minimum length).
            "system": [{"type": "text", "text": ask.system_text(), "cache_control": {"type": "ephemeral"}}],
            "messages": _messages(ask, names),
        }
        if ask.tools:
            body["tools"] = [{"name": names.wire(tool.name), "description": tool.description,
                              "input_schema": tool.input_schema} for tool in ask.tools]
            body["tool_choice"] = ({"type": "auto"} if ask.force is None else
                                   {"type": "tool", "name": names.wire(ask.force)})
        return body

    def read(self, data, names: ToolNames, tokens: int) -> Reply:
        """Every tool_use block in order, else the text blocks joined.

        `stop_reason` "max_tokens" marks a cut-off answer and "refusal" a refusal; `thinking`
        blocks and a leading `<think>` block are reasoning, kept out of the text.
        """
        try:
            blocks = [block for block in data["content"] if isinstance(block, dict)]
        except (KeyError, TypeError):
            raise InvalidReply("unexpected response shape (no content list)") from None
        stop = data.get("stop_reason")
        text, thought = split_reasoning("".join(
            block["text"] for block in blocks if block.get("type") == "text" and isinstance(block.get("text"), str)))
        thinking = [block["thinking"] for block in blocks
                    if block.get("type") == "thinking" and isinstance(block.get("thinking"), str)]
        reasoning = "\n".join(part for part in (*thinking, thought) if part.strip())
        if stop == "refusal":
            return Reply("text", text=refusal_text(text, "stop_reason refusal"), refused=True, tokens=tokens,
                         reasoning=reasoning)
        uses = [block for block in blocks if block.get("type") == "tool_use"]
        if uses:
            if not all(isinstance(block.get("name"), str) for block in uses):
                raise InvalidReply("a tool_use block without a name")
            if stop == "max_tokens":
                raise cut_off(names.script(uses[-1]["name"]))
            calls = []
            for index, block in enumerate(uses):
                name = names.script(block["name"])
                call_id = block.get("id") if isinstance(block.get("id"), str) and block.get("id") else f"toolu_{index}"
                calls.append(Call(call_id, name, parse_arguments(block.get("input"), name)))
            return Reply("tool", text=text, calls=tuple(calls), tokens=tokens, reasoning=reasoning)
        return text_reply(text, stop == "max_tokens", tokens, reasoning)

    def read_event(self, event: dict, state: Streamed) -> list[str]:
        """A Messages stream event: text deltas are text, thinking deltas reasoning;
        message_start and message_delta carry the usage, message_delta the stop reason."""
        kind = event.get("type")
        if kind == "message_start" and isinstance(event.get("message"), dict):
            usage = event["message"].get("usage")
            if isinstance(usage, dict):
                state.usage.update({name: _count(usage.get(name)) for name in USAGE_FIELDS})
        elif kind == "message_delta":
            delta = event.get("delta") if isinstance(event.get("delta"), dict) else {}
            state.truncated |= delta.get("stop_reason") == "max_tokens"
            state.refused |= delta.get("stop_reason") == "refusal"
            usage = event.get("usage")
            if isinstance(usage, dict):  # cumulative counts: the last one holds
                state.usage.update({name: _count(usage[name]) for name in USAGE_FIELDS if name in usage})
        elif kind == "content_block_delta" and isinstance(event.get("delta"), dict):
            delta = event["delta"]
            if delta.get("type") == "text_delta" and isinstance(delta.get("text"), str) and delta["text"]:
                return [delta["text"]]
            if delta.get("type") == "thinking_delta" and isinstance(delta.get("thinking"), str):
                state.reasoning += delta["thinking"]
        return []

    def stream_tokens(self, state: Streamed) -> int:
        return sum(state.usage.values())

    def tokens(self, data) -> int:
        """Every token the usage reports: input and output, cache writes and cache reads."""
        try:
            usage = data["usage"]
            return sum(int(usage.get(name) or 0) for name in USAGE_FIELDS)
        except (KeyError, TypeError, ValueError, AttributeError):
            return 0



def messages_url(base_url: str) -> str:
    """The Messages endpoint under `base_url`, given with or without its `/v1` (the SDK's
    ANTHROPIC_BASE_URL has none; people often paste one)."""
    return base_url.rstrip("/").removesuffix("/v1") + "/v1/messages"


def _messages(ask: Ask, names: ToolNames) -> list[dict]:
    """The conversation as Messages turns: the prompt, then each turn as content blocks.

    The API wants user and assistant turns alternating, and the results of an assistant turn's
    tool_use blocks first in the next user turn: consecutive user-side turns (texts and tool
    results) merge into one message, its tool_result blocks ahead of its text. A text context
    is a single user message, as before.
    """
    if not ask.turns():
        return [{"role": "user", "content": ask.user_text()}]
    messages: list[dict] = [{"role": "user", "content": [{"type": "text", "text": ask.user_text()}]}]
    for turn in ask.turns():
        role = "assistant" if turn["role"] == "assistant" else "user"
        if messages[-1]["role"] != role:
            messages.append({"role": role, "content": []})
        messages[-1]["content"].extend(_blocks(turn, names))
    for message in messages:
        if message["role"] == "user":  # a stable sort: results first, each group in order
            message["content"].sort(key=lambda block: block["type"] != "tool_result")
        elif not message["content"]:  # an assistant turn with no words and no calls
            message["content"].append({"type": "text", "text": ""})
    return messages


def _blocks(turn: dict, names: ToolNames) -> list[dict]:
    if turn["role"] == "user":
        return [{"type": "text", "text": turn["text"]}]
    if turn["role"] == "tool":
        return [{"type": "tool_result", "tool_use_id": turn["id"], "content": turn["text"]}]
    blocks = [{"type": "text", "text": turn["text"]}] if turn["text"] else []
    return blocks + [{"type": "tool_use", "id": call["id"], "name": names.outgoing(call["name"]),
                      "input": call["args"]} for call in turn["calls"]]


def _count(value) -> int:
    return value if type(value) is int and value > 0 else 0
