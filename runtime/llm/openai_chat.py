"""The `openai` provider: any endpoint that speaks OpenAI's chat-completions format.

That covers OpenAI itself and the many local and hosted servers that copy its wire format, so
the key is optional (local servers need none) and the base URL is a knob. Tools go out as
function tools; every tool call of the answer is part of the step, in the order the model wrote
them (models call several tools at once by default).
"""

from __future__ import annotations

import json
import re

from synsema.runtime.llm.api import ApiProvider, Streamed
from synsema.runtime.llm.config import Config, host_names
from synsema.runtime.llm.exchange import (Ask, Call, InvalidReply, Reply, Tool, count, cut_off, parse_arguments,
                                          refusal_text, split_reasoning, text_reply, usage)
from synsema.runtime.llm.names import ToolNames


class OpenAIChat(ApiProvider):
    name = "openai"
    id_prefix = "call"

    def __init__(self, config: Config):
        key = config.api_key("openai")
        base_url = str(config.base_url.value)
        super().__init__(config, base_url.rstrip("/") + "/chat/completions",
                         {"authorization": f"Bearer {key}"} if key else {})
        self.token_field = token_field(self.model, base_url)
        self.reasoning_effort = config.reasoning_effort.value

    def body(self, ask: Ask, names: ToolNames) -> dict:
        body: dict = {
            "model": self.model,
            self.token_field: self.max_tokens,
            "messages": [{"role": "system", "content": ask.system_text()},
                         {"role": "user", "content": ask.user_text()},
                         *(_message(turn, names) for turn in _tool_results_first(ask.turns()))],
        }
        if self.reasoning_effort is not None:
            body["reasoning_effort"] = self.reasoning_effort
        if ask.tools:
            body["tools"] = [{"type": "function", "function": _function(tool, names.wire(tool.name))}
                             for tool in ask.tools]
            body["tool_choice"] = ("auto" if ask.force is None else
                                   {"type": "function", "function": {"name": names.wire(ask.force)}})
        return body

    def read(self, data, names: ToolNames, tokens: int, cut: str | None) -> Reply:
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
        cut = cut or ("max_tokens" if finish == "length" else None)
        if isinstance(content, list):  # some compatible servers send content parts
            content = "".join(part["text"] for part in content
                              if isinstance(part, dict) and isinstance(part.get("text"), str))
        text, thought = split_reasoning(content if isinstance(content, str) else "")
        reasoning = "\n".join(part for part in (_reasoning_field(message).strip(), thought) if part)
        refusal = message.get("refusal")
        if isinstance(refusal, str) and refusal.strip():
            return Reply("text", text=refusal, refused=True, tokens=tokens, reasoning=reasoning,
                         truncated=cut is not None)
        if finish == "content_filter":
            return Reply("text", text=refusal_text(text, "finish_reason content_filter"), refused=True,
                         tokens=tokens, reasoning=reasoning)
        if raw_calls:
            functions = [call.get("function") if isinstance(call, dict) else None for call in raw_calls]
            if not all(isinstance(f, dict) and isinstance(f.get("name"), str) for f in functions):
                raise InvalidReply("a tool call without a function name")
            if cut:
                raise cut_off(names.script(functions[-1]["name"]), cut)
            calls = []
            for call, function in zip(raw_calls, functions):
                name = names.script(function["name"])
                call_id = call.get("id") if isinstance(call.get("id"), str) else ""
                calls.append(Call(call_id, name, parse_arguments(function.get("arguments"), name)))
            return Reply("tool", text=text, calls=tuple(calls), tokens=tokens, reasoning=reasoning)
        return text_reply(text, cut, tokens, reasoning)

    stream_options = {"stream_options": {"include_usage": True}}

    def read_event(self, event: dict, state: Streamed) -> list[str]:
        """A chat.completion.chunk: delta content (or refusal) is text, reasoning deltas are
        reasoning, tool-call deltas add up by their index, the finish reason ends the answer
        (and sets the flags), the last chunk carries the usage."""
        usage = event.get("usage")
        if isinstance(usage, dict):
            state.usage = {"input": count(usage.get("prompt_tokens")),
                           "output": count(usage.get("completion_tokens")),
                           "total": count(usage.get("total_tokens")), "cache_read": _cached(usage)}
        choices = event.get("choices")
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
            return []
        parts = state.parts
        finish = choices[0].get("finish_reason")
        if isinstance(finish, str) and finish:
            parts["finish"] = finish
            state.complete = True
            state.cut = state.cut or ("max_tokens" if finish == "length" else None)
            state.refused |= finish == "content_filter"
        delta = choices[0].get("delta")
        if not isinstance(delta, dict):
            return []
        for name in ("reasoning_content", "reasoning"):
            if isinstance(delta.get(name), str) and delta[name]:
                state.reasoning += delta[name]
                parts["reasoning"] = parts.get("reasoning", "") + delta[name]
                break
        for position, call in enumerate(delta.get("tool_calls") or ()):
            if isinstance(call, dict):
                _add_call_delta(parts.setdefault("calls", {}), position, call)
        refusal = delta.get("refusal")
        if isinstance(refusal, str) and refusal:
            state.refused = True
            parts["refusal"] = parts.get("refusal", "") + refusal
            return [refusal]
        content = delta.get("content")
        if isinstance(content, str) and content:
            parts["content"] = parts.get("content", "") + content
            return [content]
        return []

    def assembled(self, state: Streamed) -> dict:
        """The chat.completion the chunks add up to."""
        parts = state.parts
        message: dict = {"role": "assistant", "content": parts.get("content")}
        for name, field in (("refusal", "refusal"), ("reasoning", "reasoning_content")):
            if parts.get(name):
                message[field] = parts[name]
        calls = parts.get("calls", {})
        if calls:
            message["tool_calls"] = [{"id": call["id"], "type": "function",
                                      "function": {"name": call["name"], "arguments": call["arguments"]}}
                                     for _, call in sorted(calls.items())]
        return {"choices": [{"index": 0, "message": message, "finish_reason": parts.get("finish")}]}

    def stream_usage(self, state: Streamed) -> tuple[int | None, int | None, int, int]:
        found = state.usage
        if not found:
            return None, None, 0, 0
        output = found["output"] or max(found["total"] - found["input"], 0)
        return found["input"] or None, output or None, found["cache_read"], 0

    def usage_of(self, data) -> dict[str, int] | None:
        """prompt_tokens (cached ones among them) and completion_tokens; None without both."""
        found = data.get("usage") if isinstance(data, dict) else None
        if not isinstance(found, dict):
            return None
        prompt, completion = count(found.get("prompt_tokens")), count(found.get("completion_tokens"))
        return usage(prompt, completion, _cached(found)) if prompt or completion else None

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


def _add_call_delta(calls: dict, position: int, delta: dict) -> None:
    """One tool-call delta added to the call at its `index`: the id and name when they come
    (once, in the first delta; a repeat of the whole name is ignored), the arguments' text piece."""
    index = delta.get("index") if type(delta.get("index")) is int else position
    call = calls.setdefault(index, {"id": "", "name": "", "arguments": ""})
    if isinstance(delta.get("id"), str) and delta["id"]:
        call["id"] = delta["id"]
    function = delta.get("function") if isinstance(delta.get("function"), dict) else {}
    name = function.get("name")
    if isinstance(name, str) and name and name != call["name"]:
        call["name"] += name
    if isinstance(function.get("arguments"), str):
        call["arguments"] += function["arguments"]


def _cached(found: dict) -> int:
    """prompt_tokens_details.cached_tokens: the prompt tokens OpenAI read from its cache."""
    details = found.get("prompt_tokens_details")
    return count(details.get("cached_tokens")) if isinstance(details, dict) else 0


# OpenAI's reasoning models, by name: the o-series (o1, o3-mini, o4-mini…) and the gpt-5 family
# and later (gpt-5, gpt-5.4-mini, gpt-6…), with or without a router's "openai/" prefix.
_REASONING_MODEL = re.compile(r"(?:o\d+|gpt-(?:[5-9]|\d{2,}))(?:[-.:]|$)")
OPENAI_HOST = "api.openai.com"


def token_field(model: str, base_url: str) -> str:
    """Which field carries the token limit: `max_completion_tokens` for OpenAI's reasoning models
    whatever the endpoint (they refuse `max_tokens`) and for every model on api.openai.com (where
    `max_tokens` is deprecated); `max_tokens` for other models on compatible servers, which is
    the field every one of them reads."""
    if _REASONING_MODEL.match(model.rsplit("/", 1)[-1].lower()) or OPENAI_HOST in host_names(base_url):
        return "max_completion_tokens"
    return "max_tokens"


def _function(tool: Tool, wire_name: str) -> dict:
    """A function tool: strict when its schema can be, so the model's arguments must match it."""
    strict = strict_schema(tool.input_schema)
    function = {"name": wire_name, "description": tool.description,
                "parameters": tool.input_schema if strict is None else strict}
    if strict is not None:
        function["strict"] = True
    return function


_LEAF_TYPES = frozenset({"string", "number", "integer", "boolean"})
_ANNOTATIONS = frozenset({"description", "title"})


def strict_schema(schema: dict, nullable: bool = False) -> dict | None:
    """`schema` as OpenAI's strict mode wants it, or None when it cannot be strict.

    The rule: it can be strict when it is built only of objects that list their properties and
    forbid others (`additionalProperties: false`), arrays with `items`, and string, number,
    integer or boolean leaves (an `enum` allowed) — annotated at most by `description`/`title`.
    Strict mode wants every property required, so an optional one becomes nullable (`type:
    [t, "null"]`); the model writes `null` for it and the seed's rule drops the key, so the
    default runs. A map parameter (an object open to any keys) or any other keyword — a
    `minimum`, a `$ref` — keeps the tool non-strict, exactly as its schema says.
    """
    if type(schema) is not dict:
        return None
    kind = schema.get("type")
    extra = set(schema) - _ANNOTATIONS - {"type"}
    if kind == "object":
        properties = schema.get("properties")
        if (extra - {"properties", "required", "additionalProperties"} or type(properties) is not dict
                or schema.get("additionalProperties") is not False):
            return None
        required = set(schema.get("required", ()))
        converted = {}
        for name, sub in properties.items():
            sub = strict_schema(sub, nullable=name not in required)
            if sub is None:
                return None
            converted[name] = sub
        result = {**schema, "properties": converted, "required": list(properties), "additionalProperties": False}
    elif kind == "array":
        items = strict_schema(schema.get("items")) if "items" in schema else None
        if extra - {"items"} or items is None:
            return None
        result = {**schema, "items": items}
    elif kind in _LEAF_TYPES:
        if extra - {"enum"}:
            return None
        result = dict(schema)
    else:
        return None
    if nullable:
        result["type"] = [kind, "null"]
        if "enum" in result:
            result["enum"] = [*result["enum"], None]
    return result


def _message(turn: dict, names: ToolNames) -> dict:
    """One conversation turn as a chat message: user text, the assistant's tool calls (arguments
    as JSON text, as the API sends them), or a `tool` message answering a call by its id."""
    if turn["role"] == "user":
        return {"role": "user", "content": turn["text"]}
    if turn["role"] == "tool":
        return {"role": "tool", "tool_call_id": turn["id"], "content": _result_text(turn)}
    message: dict = {"role": "assistant", "content": turn["text"] or None}
    if turn["calls"]:
        message["tool_calls"] = [{"id": call["id"], "type": "function",
                                  "function": {"name": names.outgoing(call["name"]),
                                               "arguments": json.dumps(call["args"], ensure_ascii=False)}}
                                 for call in turn["calls"]]
    elif message["content"] is None:
        message["content"] = ""
    return message


def _result_text(turn: dict) -> str:
    """A tool result's text; a failed call's says so first, as chat completions have no error
    flag (Anthropic's `is_error`): `Error: …`, unless the text already begins with "error"."""
    text = turn["text"]
    if turn.get("error") and not text.lstrip().lower().startswith("error"):
        return "Error: " + text
    return text


def _tool_results_first(turns: tuple[dict, ...]) -> list[dict]:
    """The turns with each run of user-side turns (texts and tool results) ordered results first,
    each group in order: both APIs want a call's results right after the assistant turn that made it."""
    ordered: list[dict] = []
    run: list[dict] = []
    for turn in (*turns, None):
        if turn is not None and turn["role"] != "assistant":
            run.append(turn)
            continue
        ordered.extend(sorted(run, key=lambda t: t["role"] != "tool"))
        run = []
        if turn is not None:
            ordered.append(turn)
    return ordered


def _reasoning_field(message: dict) -> str:
    """The reasoning text compatible servers send beside the content, under either name."""
    for name in ("reasoning_content", "reasoning"):
        value = message.get(name)
        if isinstance(value, str) and value.strip():
            return value
    return ""
