"""What the interpreter asks a model and what comes back, independent of any provider's API.

Each provider turns an `Ask` into its own wire format and the answer back into a `Reply`. The
cassette stores exactly these two, so a recording made against one API replays under any, and
the replay key — a hash of the Ask's canonical JSON — depends only on what the script asked: not
on the model, the URL, or how the prompt is worded for the API (`system_text`/`user_text`).
"""

from __future__ import annotations

import hashlib
import json
import re


# How each kind of request is put to the model. Kept out of the Ask itself so that rewording
# an instruction does not invalidate every recorded cassette.
_INSTRUCTIONS = {
    "step": ("You are one step of an agent loop run by a script. Call one of the tools if it helps "
             "answer the request; the script runs it and asks you again with the result in the "
             "context. When you can answer, reply with the final answer as plain text."),
    "reason": "Reason about the subject you are given and state your conclusion in plain text.",
    "analyze": "Analyze the subject you are given, in plain text.",
    "generate": "Generate what the target you are given describes. Answer with the result only.",
    "decide": "Choose exactly one of the options you are given, by calling the tool 'choose'.",
    "stream": "Answer in plain text, without preamble.",
}


_OP_NAMES = {"step": "llm_step", "stream": "llm_stream"}


class InvalidReply(Exception):
    """A provider answered with something no step can be read from (the message says what);
    `truncated` when what made it unreadable is that the answer was cut off."""

    def __init__(self, message: str, truncated: bool = False):
        super().__init__(message)
        self.truncated = truncated


# What can cut an answer off, and what the user can do about it.
CUTS = {
    "max_tokens": ("the token limit", " (raise SYNSEMA_LLM_MAX_TOKENS)"),
    "context_window": ("the model's context window", " (shorten the conversation)"),
    "stream": ("the stream breaking off", " (the connection ended before the answer did)"),
}


def clean(value):
    """`value` (JSON data) with every lone UTF-16 surrogate replaced by U+FFFD.

    JSON can carry `\\ud83d` alone, and so can a script's text; no UTF-8 output can. Cleaning
    both what is asked and what is answered, before anything is shown, sent, hashed or recorded,
    makes a live run, its recording and its replay see the same text (a proper pair written as
    two escapes becomes its one character).
    """
    if type(value) is str:
        return value if value.isascii() or _encodable(value) else (
            value.encode("utf-16", "surrogatepass").decode("utf-16", "replace"))
    if type(value) is list or type(value) is tuple:
        return type(value)(clean(item) for item in value)
    if type(value) is dict:
        return {clean(key): clean(item) for key, item in value.items()}
    return value


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def clean_json(text: str):
    """Decoded JSON with lone surrogates replaced (see `clean`); raises ValueError when not JSON."""
    return clean(json.loads(text))


USAGE_KEYS = ("input", "output", "cache_read", "cache_write")


def usage(input_tokens: int, output_tokens: int, cache_read: int = 0, cache_write: int = 0) -> dict[str, int]:
    """A Reply's `usage`: `input_tokens` counts the cache reads and writes too."""
    return {"input": input_tokens, "output": output_tokens, "cache_read": cache_read, "cache_write": cache_write}


def count(value) -> int:
    """A token count as an API reports it: a positive whole number, else 0."""
    return value if type(value) is int and value > 0 else 0


def estimate_tokens(characters: int) -> int:
    """Tokens for `characters` of text when the server reports no usage: one per four characters,
    rounded up — the usual rule of thumb for English, and high for JSON's punctuation, so a budget
    errs on the side of stopping early."""
    return -(-characters // 4)


# Tool, Ask, Call and Reply are plain classes, not dataclasses: nothing compares or hashes them,
# and generating a dataclass's methods cost more than the rest of this module's import, which
# the first model call of every run pays (issue 19, the agent-loop row).
class Tool:
    """One tool as the model is shown it; `name` is the script's own name."""

    __slots__ = ("name", "description", "input_schema")

    def __init__(self, name: str, description: str, input_schema: dict):
        self.name = name
        self.description = description
        self.input_schema = input_schema


class Ask:
    """One request: `op` is `step`, `stream` (llm_stream) or an expression form (`reason`, `decide`,
    `analyze`, `generate`).

    `context` is either text (what the script reports has happened, appended to the prompt) or
    a conversation: a tuple of turns, each a JSON-ready dict of one of three shapes —
    `{"role": "user", "text"}`, `{"role": "assistant", "text", "calls": [{"id", "name", "args"}]}`
    (the model's own earlier turn; with `thinking`, its thinking blocks, when it sent any) and
    `{"role": "tool", "id", "name", "text"}` (a call's result; with `error: true` when the
    call failed) — which each provider sends as its API's own conversation. Text is cleaned of
    lone surrogates (`clean`) on the way in. `force` names a tool the
    model must call; `decide` uses it for a forced choice.
    """

    __slots__ = ("op", "prompt", "context", "tools", "force")

    def __init__(self, op: str, prompt: str, context: str | tuple[dict, ...] = "", tools: tuple[Tool, ...] = (),
                 force: str | None = None):
        self.op = op
        self.prompt = clean(prompt)
        self.context = clean(context)
        self.tools = tuple(Tool(clean(t.name), clean(t.description), clean(t.input_schema)) for t in tools)
        self.force = force

    def to_json(self) -> dict:
        return {"op": self.op, "prompt": self.prompt,
                "context": self.context if isinstance(self.context, str) else list(self.context),
                "tools": [{"name": t.name, "description": t.description, "input_schema": t.input_schema}
                          for t in self.tools],
                "force": self.force}

    @classmethod
    def from_json(cls, data: dict) -> "Ask":
        """Read a stored request; raises KeyError, TypeError or ValueError when `data` is not one."""
        tools = tuple(Tool(t["name"], t["description"], t["input_schema"]) for t in data["tools"])
        context = data["context"]
        if isinstance(context, list):
            context = tuple(_checked_turn(turn) for turn in context)
        elif not isinstance(context, str):
            raise ValueError("'context' must be text or a list of turns")
        return cls(data["op"], data["prompt"], context, tools, data["force"])

    def key(self) -> str:
        """Stable identity of the request: sha256 of its canonical JSON, 16 hex digits."""
        canonical = json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:16]

    def summary(self) -> str:
        """A short human description for error messages: the op, the prompt and the context."""
        text = f"{_OP_NAMES.get(self.op, self.op)} {_excerpt(self.prompt)}"
        if isinstance(self.context, tuple):
            text += f" with a conversation of {len(self.context)} turns"
        elif self.context.strip():
            text += f" with context {_excerpt(self.context)}"
        return text

    def system_text(self) -> str:
        """The instructions a provider sends as its system prompt (they are not part of the key)."""
        if self.op == "step" and not self.tools:
            return "Answer in plain text, without preamble."
        return _INSTRUCTIONS[self.op]

    def user_text(self) -> str:
        """The first user message: the prompt, then a text context (a conversation follows it)."""
        if not isinstance(self.context, str) or not self.context.strip():
            return self.prompt
        return f"{self.prompt}\n\nContext so far:\n{self.context.strip()}"

    def turns(self) -> tuple[dict, ...]:
        """The conversation after the first user message (none for a text context)."""
        return () if isinstance(self.context, str) else self.context


def user_turn(text: str) -> dict:
    return {"role": "user", "text": text}


def assistant_turn(text: str, calls: list[dict], thinking: list[dict] | tuple = ()) -> dict:
    turn = {"role": "assistant", "text": text, "calls": calls}
    if thinking:  # only when present, so that older requests keep their keys
        turn["thinking"] = list(thinking)
    return turn


def tool_turn(call_id: str, name: str, text: str, error: bool = False) -> dict:
    turn = {"role": "tool", "id": call_id, "name": name, "text": text}
    if error:
        turn["error"] = True
    return turn


def thinking_blocks(blocks, where: str) -> tuple[dict, ...]:
    """Thinking blocks as a reply carried them — `{"type": "thinking", "thinking", "signature"}`
    or `{"type": "redacted_thinking", "data"}` — rebuilt field by field; ValueError naming
    `where` for anything else. They go back to the API exactly as they came."""
    if type(blocks) is not list:
        raise ValueError(f"{where} must be a list of thinking blocks")
    checked = []
    for block in blocks:
        kind = block.get("type") if type(block) is dict else None
        fields = {"thinking": ("thinking", "signature"), "redacted_thinking": ("data",)}.get(kind)
        if fields is None or not all(type(block.get(field)) is str for field in fields):
            raise ValueError(f"{where} holds something that is not a thinking block "
                             "({type: thinking, thinking, signature} or {type: redacted_thinking, data})")
        checked.append({"type": kind, **{field: block[field] for field in fields}})
    return tuple(checked)


def _checked_turn(turn) -> dict:
    """A stored turn, rebuilt from its fields so that a malformed one is refused."""
    role = turn["role"]
    if role == "user" and isinstance(turn["text"], str):
        return user_turn(turn["text"])
    if role == "tool" and all(isinstance(turn[k], str) for k in ("id", "name", "text")):
        return tool_turn(turn["id"], turn["name"], turn["text"], turn.get("error") is True)
    if (role == "assistant" and isinstance(turn["text"], str) and isinstance(turn["calls"], list)
            and all(isinstance(c["id"], str) and isinstance(c["name"], str) and isinstance(c["args"], dict)
                    for c in turn["calls"])):
        return assistant_turn(turn["text"], [{"id": c["id"], "name": c["name"], "args": c["args"]}
                                             for c in turn["calls"]],
                              thinking_blocks(turn.get("thinking", []), "an assistant turn's 'thinking'"))
    raise ValueError(f"not a conversation turn: {_excerpt(json.dumps(turn))}")


class Call:
    """One tool call of a reply: the provider's own call id, the script's tool name, the
    decoded arguments object as the model wrote it (conversion happens in `step`)."""

    __slots__ = ("id", "name", "args")

    def __init__(self, id: str, name: str, args: dict):
        self.id = id
        self.name = name
        self.args = args

    def to_json(self) -> dict:
        return {"id": self.id, "name": self.name, "args": self.args}


class Reply:
    """A model's answer: `kind` is "text", "tool" or "invalid".

    For "text", `text` is the answer, `truncated` says something cut it off (the token limit,
    the context window, a broken stream) and `refused` that the provider or model declined
    (then `text` is the provider's own words); for "invalid", `text` says why the reply could
    not be read (`truncated` when being cut off is why); for "tool", `calls` holds every call
    of the reply in order and `text` any words the model wrote beside them. `reasoning` is the
    model's visible reasoning, kept apart from `text`; `thinking` the thinking blocks it came
    in, kept whole to be sent back (see `thinking_blocks`). `chunks` are the text pieces of a
    streamed answer, in order (their concatenation is `text`).

    `usage` is `{"input", "output", "cache_read", "cache_write"}` as the provider reported it
    (`input` counting cache reads and writes too), or estimated where it reported nothing (see
    `estimate_tokens`), or None when nothing is known (an old cassette); `model` and `id` are the
    response's own, "" when it gave none. They are for traces and cost; `tokens` is what is metered.
    """

    __slots__ = ("kind", "text", "calls", "tokens", "truncated", "refused", "reasoning", "chunks", "thinking",
                 "usage", "model", "id")

    def __init__(self, kind: str, text: str = "", calls: tuple[Call, ...] = (), tokens: int = 0,
                 truncated: bool = False, refused: bool = False, reasoning: str = "",
                 chunks: tuple[str, ...] = (), thinking: tuple[dict, ...] = ()):
        self.kind = kind
        self.text = text
        self.calls = calls
        self.tokens = tokens
        self.truncated = truncated
        self.refused = refused
        self.reasoning = reasoning
        self.chunks = chunks
        self.thinking = thinking
        self.usage: dict[str, int] | None = None
        self.model = ""
        self.id = ""

    def to_json(self) -> dict:
        data: dict = {"kind": self.kind}
        if self.kind == "tool":
            data["calls"] = [call.to_json() for call in self.calls]
        if self.text or self.kind != "tool":
            data["text"] = self.text
        for flag in ("truncated", "refused"):
            if getattr(self, flag):
                data[flag] = True
        if self.reasoning:
            data["reasoning"] = self.reasoning
        if self.thinking:
            data["thinking"] = list(self.thinking)
        if self.chunks:
            data["chunks"] = list(self.chunks)
        data["tokens"] = self.tokens
        if self.usage is not None:
            data["usage"] = dict(self.usage)
        for field in ("model", "id"):
            if getattr(self, field):
                data[field] = getattr(self, field)
        return data

    @classmethod
    def from_json(cls, data: dict) -> "Reply":
        """Read a stored reply; raises ValueError when `data` is not one."""
        reply = cls._read(data)
        usage = data.get("usage")
        if usage is not None:
            if not (type(usage) is dict and set(usage) == set(USAGE_KEYS)
                    and all(type(value) is int for value in usage.values())):
                raise ValueError(f"'usage' must be a map of {', '.join(USAGE_KEYS)} to whole numbers")
            reply.usage = dict(usage)
        for field in ("model", "id"):
            if not isinstance(data.get(field, ""), str):
                raise ValueError(f"'{field}' must be text")
            setattr(reply, field, data.get(field, ""))
        return reply

    @classmethod
    def _read(cls, data: dict) -> "Reply":
        """The reply's own fields (from_json adds what providers report beside them).

        A tool reply is `{kind: tool, calls: [{id, name, args}], tokens}`; the one-call form
        `{kind: tool, name, args, tokens}` of older cassettes reads as a call with id `call_0`.
        """
        kind = data.get("kind")
        tokens = data.get("tokens", 0)
        if type(tokens) is not int:
            raise ValueError("'tokens' must be a whole number")
        text = data.get("text", "")
        reasoning = data.get("reasoning", "")
        chunks = data.get("chunks", [])
        if not (isinstance(text, str) and isinstance(reasoning, str) and isinstance(chunks, list)
                and all(isinstance(chunk, str) for chunk in chunks)):
            raise ValueError("'text' and 'reasoning' must be texts, 'chunks' a list of texts")
        common = {"tokens": tokens, "reasoning": reasoning,
                  "thinking": thinking_blocks(data.get("thinking", []), "a reply's 'thinking'")}
        if kind == "tool":
            stored = data.get("calls")
            if stored is None and "name" in data:
                stored = [{"id": "call_0", "name": data["name"], "args": data.get("args")}]
            if (isinstance(stored, list) and stored and
                    all(isinstance(c, dict) and isinstance(c.get("id"), str) and isinstance(c.get("name"), str)
                        and isinstance(c.get("args"), dict) for c in stored)):
                calls = tuple(Call(c["id"], c["name"], c["args"]) for c in stored)
                return cls("tool", text=text, calls=calls, **common)
        if kind in ("text", "invalid") and "text" in data:
            return cls(kind, text=text, truncated=data.get("truncated") is True,
                       refused=data.get("refused") is True, chunks=tuple(chunks), **common)
        raise ValueError("a reply is {kind: text|invalid, text, tokens} or "
                         "{kind: tool, calls: [{id, name, args}], tokens}")


def parse_arguments(raw: object, tool: str) -> dict:
    """The arguments object of a tool call, whether the API sent it as JSON text or as an object."""
    if isinstance(raw, str):
        if not raw.strip():
            return {}
        try:
            raw = json.loads(raw)
        except ValueError:
            raise InvalidReply(f"the arguments for '{tool}' are not JSON: {_excerpt(raw)}") from None
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise InvalidReply(f"the arguments for '{tool}' are not a JSON object: {_excerpt(json.dumps(raw))}")
    return raw


_THINK = re.compile(r"\A\s*<think>(.*?)(?:</think>|\Z)", re.DOTALL)


def split_reasoning(text: str) -> tuple[str, str]:
    """(answer, reasoning): a leading `<think>…</think>` block, as local reasoning models write
    it, taken out of the answer. An unclosed block is all reasoning (the answer never came)."""
    found = _THINK.match(text)
    if not found:
        return text, ""
    return text[found.end():].lstrip(), found.group(1).strip()


def cut_off(tool: str, cut: str) -> InvalidReply:
    """The invalid reply for a tool call that `cut` (a key of CUTS) cut off: its arguments may
    be incomplete, so it is never run as if whole."""
    what, advice = CUTS[cut]
    return InvalidReply(f"the call to '{tool}' was cut off by {what}{advice}", truncated=True)


def cut_before_answer(cut: str) -> str:
    what, advice = CUTS[cut]
    return f"{what} cut the reply off before any answer{advice}"


def text_reply(text: str, cut: str | None, tokens: int, reasoning: str, thinking: tuple[dict, ...] = ()) -> Reply:
    """A text answer (`cut`: what ended it early, a key of CUTS); raises InvalidReply when there is none."""
    if text.strip():
        return Reply("text", text=text, truncated=cut is not None, tokens=tokens, reasoning=reasoning,
                     thinking=thinking)
    if cut is not None:
        raise InvalidReply(cut_before_answer(cut), truncated=True)
    raise InvalidReply("no content and no tool call")


def refusal_text(text: str, why: str) -> str:
    """A refusal's text: the provider's own words, else which signal said it refused."""
    return text if text.strip() else f"[refused by the provider: {why}]"


def _excerpt(text: str, limit: int = 80) -> str:
    """`text` quoted and cut to `limit` characters, for messages."""
    text = " ".join(text.split())
    return json.dumps(text if len(text) <= limit else text[:limit] + "…", ensure_ascii=False)
