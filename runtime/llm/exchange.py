"""What the interpreter asks a model and what comes back, independent of any provider's API.

Each provider turns an `Ask` into its own wire format and the answer back into a `Reply`. The
cassette stores exactly these two, so a recording made against one API replays under any, and
the replay key — a hash of the Ask's canonical JSON — depends only on what the script asked: not
on the model, the URL, or how the prompt is worded for the API (`system_text`/`user_text`).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass


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
}


class InvalidReply(Exception):
    """A provider answered with something no step can be read from (the message says what)."""


@dataclass(frozen=True)
class Tool:
    """One tool as the model is shown it; `name` is the script's own name."""

    name: str
    description: str
    input_schema: dict


@dataclass(frozen=True)
class Ask:
    """One request: `op` is `step` or an expression form (`reason`, `decide`, `analyze`, `generate`).

    `force` names a tool the model must call; `decide` uses it for a forced choice.
    """

    op: str
    prompt: str
    context: str = ""
    tools: tuple[Tool, ...] = ()
    force: str | None = None

    def to_json(self) -> dict:
        return {"op": self.op, "prompt": self.prompt, "context": self.context,
                "tools": [{"name": t.name, "description": t.description, "input_schema": t.input_schema}
                          for t in self.tools],
                "force": self.force}

    @classmethod
    def from_json(cls, data: dict) -> "Ask":
        tools = tuple(Tool(t["name"], t["description"], t["input_schema"]) for t in data["tools"])
        return cls(data["op"], data["prompt"], data["context"], tools, data["force"])

    def key(self) -> str:
        """Stable identity of the request: sha256 of its canonical JSON, 16 hex digits."""
        canonical = json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:16]

    def summary(self) -> str:
        """A short human description for error messages: the op, the prompt and the context."""
        text = f"{'llm_step' if self.op == 'step' else self.op} {_excerpt(self.prompt)}"
        if self.context.strip():
            text += f" with context {_excerpt(self.context)}"
        return text

    def system_text(self) -> str:
        """The instructions a provider sends as its system prompt (they are not part of the key)."""
        if self.op == "step" and not self.tools:
            return "Answer in plain text, without preamble."
        return _INSTRUCTIONS[self.op]

    def user_text(self) -> str:
        """The user message: the prompt, then what the script reports has happened so far."""
        if not self.context.strip():
            return self.prompt
        return f"{self.prompt}\n\nContext so far:\n{self.context.strip()}"


@dataclass(frozen=True)
class Reply:
    """A model's answer: `kind` is "text", "tool" or "invalid".

    For "text", `text` is the answer; for "invalid", `text` says why the reply could not be
    read; for "tool", `name` is the script's name for the tool and `args` the decoded JSON
    object the model wrote, not yet converted to the declared types.
    """

    kind: str
    text: str = ""
    name: str = ""
    args: dict | None = None
    tokens: int = 0

    def to_json(self) -> dict:
        if self.kind == "tool":
            return {"kind": "tool", "name": self.name, "args": self.args, "tokens": self.tokens}
        return {"kind": self.kind, "text": self.text, "tokens": self.tokens}

    @classmethod
    def from_json(cls, data: dict) -> "Reply":
        """Read a stored reply; raises ValueError when `data` is not one."""
        kind = data.get("kind")
        tokens = data.get("tokens", 0)
        if type(tokens) is not int:
            raise ValueError("'tokens' must be a whole number")
        if kind == "tool" and isinstance(data.get("name"), str) and isinstance(data.get("args"), dict):
            return cls("tool", name=data["name"], args=data["args"], tokens=tokens)
        if kind in ("text", "invalid") and isinstance(data.get("text"), str):
            return cls(kind, text=data["text"], tokens=tokens)
        raise ValueError("a reply is {kind: text|invalid, text, tokens} or {kind: tool, name, args, tokens}")


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


def _excerpt(text: str, limit: int = 80) -> str:
    """`text` quoted and cut to `limit` characters, for messages."""
    text = " ".join(text.split())
    return json.dumps(text if len(text) <= limit else text[:limit] + "…", ensure_ascii=False)
