"""`llm_stream`: a plain-text answer passed to the script piece by piece as the model writes it.

The promise, pinned by tests: the text `llm_stream` returns is exactly the concatenation of the
pieces it passed to `on_chunk`, in every case — offline (one piece, the placeholder), past the
budget (one piece, the budget message), replaying (the recorded pieces), and when the reply is
unreadable (the `[invalid model reply: …]` message as the last piece). So a script that prints
as it goes shows what it gets. Reasoning (a `<think>` block, reasoning deltas) is never a piece.
"""

from __future__ import annotations

from typing import Callable

from synsema.runtime.llm import session
from synsema.runtime.llm.exchange import Ask
from synsema.runtime.llm.step import NO_PROVIDER, conversation
from synsema.runtime.values import display


def llm_stream(prompt, context, on_chunk: Callable[[str], None]) -> str:
    """Stream the answer to `prompt` (with `context`, as llm_step takes it) into `on_chunk`."""
    turns = conversation("llm_stream", context)
    current = session.current()
    if current.offline:
        return _whole(NO_PROVIDER, on_chunk)
    exceeded = current.budget_exceeded()
    if exceeded:
        return _whole(exceeded, on_chunk)
    reply = current.stream(Ask("stream", display(prompt), turns), on_chunk)
    if reply.kind == "text":
        return reply.text
    reason = reply.text if reply.kind == "invalid" else "a tool call where text was asked for"
    return "".join(reply.chunks) + _whole(f"[invalid model reply: {reason}]", on_chunk)


def _whole(text: str, on_chunk: Callable[[str], None]) -> str:
    on_chunk(text)
    return text
