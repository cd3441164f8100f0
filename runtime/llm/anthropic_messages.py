"""The `anthropic` provider: Anthropic's Messages API with tools.

The answer is a list of content blocks; its `tool_use` blocks are the step even when text blocks
come with them (the model often explains itself before calling), otherwise the text blocks joined
are the final answer.
"""

from __future__ import annotations

from synsema.runtime.llm.api import ApiProvider, Streamed
from synsema.runtime.llm.config import Config
from synsema.runtime.llm.exchange import (Ask, Call, InvalidReply, Reply, count, cut_off, parse_arguments,
                                          refusal_text, split_reasoning, text_reply, usage)
from synsema.runtime.llm.names import ToolNames

API_VERSION = "2023-06-01"
USAGE_FIELDS = ("input_tokens", "output_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")


class AnthropicMessages(ApiProvider):
    name = "anthropic"
    id_prefix = "toolu"

    def __init__(self, config: Config):
        super().__init__(config, messages_url(str(config.base_url.value)),
                         {"x-api-key": config.api_key("anthropic") or "", "anthropic-version": API_VERSION})
        self.thinking_budget = config.thinking_budget.value

    def body(self, ask: Ask, names: ToolNames) -> dict:
        body: dict = {
            "model": self.model,
            "max_tokens": self.max_tokens,
            # The cache breakpoint on the system prompt caches tools + system: the prefix every
            # request of a run shares (the API ignores it below the model's minimum length).
            "system": [{"type": "text", "text": ask.system_text(), "cache_control": {"type": "ephemeral"}}],
            "messages": _messages(ask, names),
        }
        # Thinking: its budget comes on top of the answer's limit. A request that forces a tool
        # (decide's choice) is sent without it: the API refuses forced tool use while thinking.
        if self.thinking_budget is not None and ask.force is None:
            body["thinking"] = {"type": "enabled", "budget_tokens": self.thinking_budget}
            body["max_tokens"] = self.max_tokens + self.thinking_budget
        if ask.tools:
            body["tools"] = [{"name": names.wire(tool.name), "description": tool.description,
                              "input_schema": tool.input_schema} for tool in ask.tools]
            body["tool_choice"] = ({"type": "auto"} if ask.force is None else
                                   {"type": "tool", "name": names.wire(ask.force)})
        return body

    def read(self, data, names: ToolNames, tokens: int, cut: str | None) -> Reply:
        """Every tool_use block in order, else the text blocks joined.

        `stop_reason` "max_tokens" or "model_context_window_exceeded" marks a cut-off answer and
        "refusal" a refusal; `thinking` blocks and a leading `<think>` block are reasoning, kept
        out of the text, and the thinking and redacted_thinking blocks are kept whole, signature
        and all, to be sent back with the turn.
        """
        try:
            blocks = [block for block in data["content"] if isinstance(block, dict)]
        except (KeyError, TypeError):
            raise InvalidReply("unexpected response shape (no content list)") from None
        stop = data.get("stop_reason")
        cut = cut or STOP_CUTS.get(stop)
        text, thought = split_reasoning("".join(
            block["text"] for block in blocks if block.get("type") == "text" and isinstance(block.get("text"), str)))
        thinking = [block["thinking"] for block in blocks
                    if block.get("type") == "thinking" and isinstance(block.get("thinking"), str)]
        reasoning = "\n".join(part for part in (*thinking, thought) if part.strip())
        kept = _thinking_kept(blocks)
        if stop == "refusal":
            return Reply("text", text=refusal_text(text, "stop_reason refusal"), refused=True, tokens=tokens,
                         reasoning=reasoning)
        uses = [block for block in blocks if block.get("type") == "tool_use"]
        if uses:
            if not all(isinstance(block.get("name"), str) for block in uses):
                raise InvalidReply("a tool_use block without a name")
            if cut:
                raise cut_off(names.script(uses[-1]["name"]), cut)
            calls = []
            for block in uses:
                name = names.script(block["name"])
                call_id = block.get("id") if isinstance(block.get("id"), str) else ""
                calls.append(Call(call_id, name, parse_arguments(block.get("input"), name)))
            return Reply("tool", text=text, calls=tuple(calls), tokens=tokens, reasoning=reasoning, thinking=kept)
        return text_reply(text, cut, tokens, reasoning, kept)

    def read_event(self, event: dict, state: Streamed) -> list[str]:
        """A Messages stream event: content blocks are assembled by their index (text deltas
        are also the pieces, thinking deltas reasoning); message_start and message_delta carry
        the usage, message_delta the stop reason; message_stop ends the answer."""
        kind = event.get("type")
        blocks = state.parts.setdefault("blocks", {})
        if kind == "message_start" and isinstance(event.get("message"), dict):
            usage = event["message"].get("usage")
            if isinstance(usage, dict):
                state.usage.update({name: count(usage.get(name)) for name in USAGE_FIELDS})
        elif kind == "message_delta":
            delta = event.get("delta") if isinstance(event.get("delta"), dict) else {}
            stop = delta.get("stop_reason")
            if isinstance(stop, str):
                state.parts["stop"] = stop
                state.cut = state.cut or STOP_CUTS.get(stop)
                state.refused |= stop == "refusal"
            usage = event.get("usage")
            if isinstance(usage, dict):  # cumulative counts: the last one holds
                state.usage.update({name: count(usage[name]) for name in USAGE_FIELDS if name in usage})
                state.parts["output_reported"] = "output_tokens" in usage
        elif kind == "message_stop":
            state.complete = True
        elif (kind == "content_block_start" and isinstance(event.get("content_block"), dict)
              and type(event.get("index")) is int):
            block = dict(event["content_block"])
            if block.get("type") == "tool_use":
                block["input"] = ""  # the input's JSON text comes in input_json_delta pieces
            blocks[event.get("index")] = block
        elif kind == "content_block_delta" and isinstance(event.get("delta"), dict):
            return _add_delta(blocks.get(event.get("index")), event["delta"], state)
        return []

    def assembled(self, state: Streamed) -> dict:
        """The message the events add up to."""
        blocks = state.parts.get("blocks", {})
        return {"content": [blocks[index] for index in sorted(blocks)],
                "stop_reason": state.parts.get("stop")}

    def stream_usage(self, state: Streamed) -> tuple[int | None, int | None, int, int]:
        found = state.usage
        spent_in = sum(found.get(name, 0) for name in USAGE_FIELDS if name != "output_tokens")
        output = found.get("output_tokens", 0) if state.parts.get("output_reported") else 0
        return (spent_in or None, output or None, found.get("cache_read_input_tokens", 0),
                found.get("cache_creation_input_tokens", 0))

    def usage_of(self, data) -> dict[str, int] | None:
        """Input (with cache writes and reads) and output tokens; None when there is no usage."""
        found = data.get("usage") if isinstance(data, dict) else None
        if not isinstance(found, dict):
            return None
        counts = {name: count(found.get(name)) for name in USAGE_FIELDS}
        if not any(counts.values()):
            return None
        return usage(counts["input_tokens"] + counts["cache_creation_input_tokens"] + counts["cache_read_input_tokens"],
                     counts["output_tokens"], counts["cache_read_input_tokens"], counts["cache_creation_input_tokens"])

    def tokens(self, data) -> int:
        """Every token the usage reports: input and output, cache writes and cache reads."""
        try:
            usage = data["usage"]
            return sum(int(usage.get(name) or 0) for name in USAGE_FIELDS)
        except (KeyError, TypeError, ValueError, AttributeError):
            return 0


# Stop reasons that mean the answer was cut off, and by what (keys of exchange.CUTS).
STOP_CUTS = {"max_tokens": "max_tokens", "model_context_window_exceeded": "context_window"}


def _add_delta(block, delta: dict, state: Streamed) -> list[str]:
    """A content_block_delta added to its block; the text pieces it brings."""
    if not isinstance(block, dict):
        return []
    kind = delta.get("type")
    fields = {"text_delta": ("text", "text"), "input_json_delta": ("partial_json", "input"),
              "thinking_delta": ("thinking", "thinking"), "signature_delta": ("signature", "signature")}.get(kind)
    if fields is None or not isinstance(delta.get(fields[0]), str):
        return []
    piece = delta[fields[0]]
    block[fields[1]] = (block.get(fields[1]) if isinstance(block.get(fields[1]), str) else "") + piece
    if kind == "thinking_delta":
        state.reasoning += piece
    return [piece] if kind == "text_delta" and piece else []


def _thinking_kept(blocks: list[dict]) -> tuple[dict, ...]:
    """The thinking and redacted_thinking blocks, whole and in order, as the API wants them back."""
    kept = []
    for block in blocks:
        if block.get("type") == "thinking" and isinstance(block.get("thinking"), str):
            kept.append({"type": "thinking", "thinking": block["thinking"],
                         "signature": block.get("signature") if isinstance(block.get("signature"), str) else ""})
        elif block.get("type") == "redacted_thinking" and isinstance(block.get("data"), str):
            kept.append({"type": "redacted_thinking", "data": block["data"]})
    return tuple(kept)


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

    A conversation gets cache breakpoints on its last two user messages (with the system
    prompt's, three of the API's four): the last one caches the whole request for the next
    step, the one before it is where this request finds the previous step's cache even when
    the turns since are more blocks than the API looks back over. Re-sent history is then read
    from the cache instead of paid in full every step.
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
    users = [message for message in messages if message["role"] == "user"]
    for message in users[-2:]:
        marked = [block for block in message["content"] if block["type"] == "tool_result" or block.get("text")]
        if marked:
            marked[-1]["cache_control"] = {"type": "ephemeral"}
    return messages


def _blocks(turn: dict, names: ToolNames) -> list[dict]:
    if turn["role"] == "user":
        return [{"type": "text", "text": turn["text"]}]
    if turn["role"] == "tool":
        result = {"type": "tool_result", "tool_use_id": turn["id"], "content": turn["text"]}
        if turn.get("error"):
            result["is_error"] = True
        return [result]
    blocks = [dict(block) for block in turn.get("thinking", ())]  # first, exactly as they came
    blocks += [{"type": "text", "text": turn["text"]}] if turn["text"] else []
    return blocks + [{"type": "tool_use", "id": call["id"], "name": names.outgoing(call["name"]),
                      "input": call["args"]} for call in turn["calls"]]

