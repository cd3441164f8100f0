"""Builtins that reach a model: `llm_available`, `llm_step`, `llm_stream`, `tool_result`, `llm_usage`.

They are thin on purpose: the work is in `runtime.llm`, imported inside each function so that a
program which never asks a model pays nothing for it at start-up.
"""

from __future__ import annotations

from synsema.stdlib.core import is_callable, short, wrong_type
from synsema.stdlib.registry import builtin


@builtin("llm_available", 0, changes=("llm",), reads=("llm",))
def llm_available(rt):
    """Whether a real provider (or a replay cassette) answers; false offline or misconfigured.

    Example: llm_available() => false
    """
    from synsema.runtime.llm import session
    return session.current().config.live


@builtin("llm_step", 3, named=("stream",), cap="llm", flow="llm", changes=("llm",), reads=("llm",))
def llm_step(rt, prompt, catalog, context, stream=None):
    """One tool-aware model step: `{kind: "final", text, tokens}` or `{kind: "tool", name, args, tokens}`.

    One tool-aware model step: {kind: "final", text, tokens} or {kind: "tool", name, args, tokens}.
    `stream = true` asks for the answer as server-sent events and assembles it: the step is the
    same (the default comes from SYNSEMA_LLM_STREAM).

    Example: llm_step("Say hi", [], []).kind => "final"
    Example: llm_step("Say hi", [], [], stream = true).kind => "final"
    """
    rt.check_cap("llm", None)
    from synsema.runtime.llm.step import llm_step as step
    return step(prompt, catalog, context, stream)


@builtin("llm_stream", 3, cap="llm", flow="llm", changes=("llm",), reads=("llm",))
def llm_stream(rt, prompt, context, on_chunk):
    """Stream a plain-text answer: on_chunk gets each piece as it arrives; the whole text is returned.

    The returned text is always the pieces joined: offline one piece, the placeholder. The cost
    is bounded like llm_step's: SYNSEMA_LLM_MAX_TOKENS per answer, the budget per run.

    Example: llm_stream("Say hi", "", (piece) => nothing) => "[no llm provider]"
    """
    rt.check_cap("llm", None)
    if not is_callable(on_chunk):
        raise wrong_type("llm_stream", "a task or lambda as on_chunk", on_chunk)
    from synsema.runtime.llm.stream import llm_stream as stream
    return stream(prompt, context, lambda piece: rt.call(on_chunk, [piece]))


@builtin("tool_result", 2, named=("error",), cap="llm")
def tool_result(rt, call, value, error=False):
    """The result of one tool call, as an llm_step context item; `call` is a step or one of its calls.

    The map is {kind: "tool_result", id, name, content}: text stays as it is, other values go
    as JSON. Put it in the context list after the step that made the call. `error = true` says
    the call failed (`value` says how): the map gets `error: true`, sent as Anthropic's
    `is_error` and, on OpenAI, as an `Error: ` before the text.

    Example: tool_result({"id": "call_1", "name": "add", "args": {"a": 2}}, 5) => {kind: "tool_result", id: "call_1", name: "add", content: "5"}
    Example: tool_result({"id": "call_1", "name": "add", "args": {}}, "a is missing", error = true).error => true
    """
    rt.check_cap("llm", None)
    from synsema.runtime.llm.step import tool_result as build
    return build(call, value, error)


@builtin("llm_usage", 0, 1, reads=("llm",))
def llm_usage(rt, what="tokens"):
    """Tokens this process has used so far (0 offline); `llm_usage("cost")` is their price in dollars.

    The cost comes from the price table of docs/tracing.md (the host may set its own prices in
    synsema.toml); it is `nothing` once any reply's model or input/output split was unknown, so
    a sum that leaves calls out is never shown as the whole.

    Example: llm_usage() => 0
    Example: llm_usage("cost") => 0.0
    """
    from synsema.runtime.llm import session
    if what == "tokens":
        return session.used_tokens()
    if what == "cost":
        current = session.current()
        return current.cost if current.priced else None
    from synsema.lang.errors import SynError
    raise SynError(f'llm_usage expects "tokens" or "cost", got {short(what)}')
