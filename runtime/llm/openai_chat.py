"""The `openai` provider: any endpoint that speaks OpenAI's chat-completions format.

That covers OpenAI itself and the many local and hosted servers that copy its wire format, so
the key is optional (local servers need none) and the base URL is a knob. Tools go out as
function tools; every tool call of the answer is part of the step, in the order the model wrote
them (models call several tools at once by default).
"""

from __future__ import annotations

import json

from runtime.llm.api import ApiProvider
from runtime.llm.config import Config
from runtime.llm.exchange import (Ask, Call, InvalidReply, Reply, cut_off, parse_arguments, refusal_text,
                                  split_reasoning)
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
                         {"role": "user", "content": ask.user_text()},
                         *(_message(turn, names) for turn in ask.turns())],
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
        """Every tool call of choices[0].message in order, else its text content.

        `finish_reason` "length" marks a cut-off answer, `refusal` and "content_filter" a
        refusal; `reasoning_content` / `reasoning` (DeepSeek, vLLM, OpenRouter, Ollama) and a
        leading `<think>` block are reasoning, kept out of the text.
        """
        try:
            choice = data["choices"][0]
            message = choice["message"]
            raw_calls = message.get("tool_calls") or []
            content = message.get("content")
            finish = choice.get("finish_reason")
        except (KeyError, IndexError, TypeError, AttributeError):
            raise InvalidReply("unexpected response shape (no choices[0].message)") from None
        if isinstance(content, list):  # some compatible servers send content parts
            content = "".join(part["text"] for part in content
                              if isinstance(part, dict) and isinstance(part.get("text"), str))
        text, thought = split_reasoning(content if isinstance(content, str) else "")
        reasoning = "\n".join(part for part in (_reasoning_field(message), thought) if part)
        refusal = message.get("refusal")
        if isinstance(refusal, str) and refusal.strip():
            return Reply("text", text=refusal, refused=True, tokens=tokens, reasoning=reasoning)
        if finish == "content_filter":
            return Reply("text", text=refusal_text(text, "finish_reason content_filter"), refused=True,
                         tokens=tokens, reasoning=reasoning)
        if raw_calls:
            functions = [call.get("function") if isinstance(call, dict) else None for call in raw_calls]
            if not all(isinstance(f, dict) and isinstance(f.get("name"), str) for f in functions):
                raise InvalidReply("a tool call without a function name")
            if finish == "length":
                raise cut_off(names.script(functions[-1]["name"]))
            calls = []
            for index, (call, function) in enumerate(zip(raw_calls, functions)):
                name = names.script(function["name"])
                call_id = call.get("id") if isinstance(call.get("id"), str) and call.get("id") else f"call_{index}"
                calls.append(Call(call_id, name, parse_arguments(function.get("arguments"), name)))
            return Reply("tool", text=text, calls=tuple(calls), tokens=tokens, reasoning=reasoning)
        if text.strip():
            return Reply("text", text=text, truncated=finish == "length", tokens=tokens, reasoning=reasoning)
        if finish == "length":
            raise InvalidReply("the token limit cut the reply off before any answer (raise SYNSEMA_LLM_MAX_TOKENS)")
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


def _message(turn: dict, names: ToolNames) -> dict:
    """One conversation turn as a chat message: user text, the assistant's tool calls (arguments
    as JSON text, as the API sends them), or a `tool` message answering a call by its id."""
    if turn["role"] == "user":
        return {"role": "user", "content": turn["text"]}
    if turn["role"] == "tool":
        return {"role": "tool", "tool_call_id": turn["id"], "content": turn["text"]}
    message: dict = {"role": "assistant", "content": turn["text"] or None}
    if turn["calls"]:
        message["tool_calls"] = [{"id": call["id"], "type": "function",
                                  "function": {"name": names.outgoing(call["name"]),
                                               "arguments": json.dumps(call["args"], ensure_ascii=False)}}
                                 for call in turn["calls"]]
    elif message["content"] is None:
        message["content"] = ""
    return message


def _reasoning_field(message: dict) -> str:
    """The reasoning text compatible servers send beside the content, under either name."""
    for name in ("reasoning_content", "reasoning"):
        value = message.get(name)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return ""
