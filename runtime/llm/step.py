"""`llm_step`: one tool-aware request, answered as the map a script's agent loop branches on.

The answer is `{"kind": "final", "text", "tokens"}` or `{"kind": "tool", "name", "args", "id",
"calls", "tokens"}`: `calls` lists every call of the reply as `{"id", "name", "args"}` in the
model's order, and the first one is also at the top level. A final may add `truncated: true`
(the token limit, the context window or a broken stream cut it off) or `refused: true` (a
refusal or content filter; `text` is the provider's own words); either kind adds `reasoning`
when the model's reasoning came apart from its answer and `thinking` (the API's thinking blocks,
to be sent back as they are) when it sent any, and a tool step adds `text` when the model wrote
words beside its calls. A reply that cannot be read becomes a final whose text starts
`[invalid model reply: `, so the loop — not an exception — decides what to do about a model's
garbage; a tool call that was cut off is such a final, with `truncated: true`. Arguments are
converted by the schema the model was shown.
"""

from __future__ import annotations

import json
import math

from synsema.lang.errors import SynError
from synsema.lang.toolschema import catalog_schema
from synsema.runtime.llm import session
from synsema.runtime.llm.convert import convert_args
from synsema.runtime.llm.exchange import Ask, Reply, Tool, assistant_turn, thinking_blocks, tool_turn, user_turn
from synsema.runtime.limits import check_length, tree_size
from synsema.runtime.values import display, type_name

NO_PROVIDER = "[no llm provider]"


def llm_step(prompt, catalog, context, stream=None) -> dict:
    """One step of an agent loop; `catalog` is a list of tool maps (see `catalog_tools`).

    `stream` true asks for the answer as server-sent events and assembles it (the result is the
    same); None leaves it to SYNSEMA_LLM_STREAM.
    """
    if stream is not None and type(stream) is not bool:
        raise SynError(f"llm_step: 'stream' must be true or false, got {type_name(stream)}")
    tools = catalog_tools(catalog)
    turns = conversation("llm_step", context)
    current = session.current()
    if current.offline:
        return _final(NO_PROVIDER, 0)
    exceeded = current.budget_exceeded()
    if exceeded:
        return _final(exceeded, 0)
    ask = Ask("step", display(prompt), turns, tools)
    streamed = current.config.stream.value if stream is None else stream
    return step_value(current.ask(ask, stream=streamed), {tool.name: tool.input_schema for tool in tools})


def conversation(who: str, context) -> str | tuple[dict, ...]:
    """The context as an Ask carries it: text as it is (nothing is no context), a list as turns.

    A list item is text (a user message), a step map from `llm_step` (the model's own turn:
    a final's text, or a tool step's calls with any words beside them) or a `tool_result`.
    Checked even offline, like the catalog, and so is the one rule both APIs enforce on a
    conversation: every call of a step is answered by one `tool_result` before the next step.
    """
    if context is None:
        return ""
    if type(context) is not list:
        return display(context)
    turns = tuple(_turn(who, index, item) for index, item in enumerate(context))
    _check_answered(who, turns)
    return turns


def _check_answered(who: str, turns: tuple[dict, ...]) -> None:
    """Refuse a conversation in which a step's call has no tool_result, or a tool_result
    answers no open call, naming the ids — before anything is sent."""
    step, pending = None, {}
    for index, turn in enumerate((*turns, None)):
        if turn is None or turn["role"] == "assistant":
            if pending:
                ids = ", ".join(f"'{call_id}'" for call_id in pending)
                raise SynError(f"{who}: context[{step}]: no tool_result for the step's call{'s' * (len(pending) > 1)} "
                               f"{ids}; add tool_result(call, value) for every call in the step's 'calls' "
                               "(both APIs refuse a call left unanswered)")
            step, pending = index, {call["id"]: True for call in turn["calls"]} if turn else {}
        elif turn["role"] == "tool":
            if pending.pop(turn["id"], None) is None:
                raise SynError(f"{who}: context[{index}]: the tool_result for '{turn['id']}' answers no call of "
                               "the step before it (or answers one twice); put it after the step that made the call")


def _turn(who: str, index: int, item) -> dict:
    where = f"{who}: context[{index}]"
    if type(item) is str:
        return user_turn(item)
    kind = item.get("kind") if type(item) is dict else None
    if kind == "final":
        if type(item.get("text")) is not str:
            raise SynError(f"{where}: a final step needs its 'text'")
        return assistant_turn(item["text"], [], _thinking(where, item))
    if kind == "tool":
        calls = item.get("calls")
        if type(calls) is not list or not calls:
            raise SynError(f"{where}: a tool step needs its 'calls' (pass the step llm_step returned)")
        for number, call in enumerate(calls):
            if not (type(call) is dict and type(call.get("id")) is str and type(call.get("name")) is str
                    and type(call.get("args")) is dict):
                raise SynError(f"{where}: call {number} needs a text 'id' and 'name' and a map 'args'")
        text = item.get("text", "")
        return assistant_turn(text if type(text) is str else display(text),
                              [{"id": c["id"], "name": c["name"], "args": json_data(c["args"])} for c in calls],
                              _thinking(where, item))
    if kind == "tool_result":
        if not all(type(item.get(key)) is str for key in ("id", "name", "content")):
            raise SynError(f"{where}: a tool_result needs text 'id', 'name' and 'content' (build it with "
                           "tool_result(call, value))")
        return tool_turn(item["id"], item["name"], item["content"], item.get("error") is True)
    raise SynError(f"{where} must be text, a step from llm_step or a tool_result(call, value), "
                   f"got {type_name(item)}{' ' + repr(kind) if kind else ''}")


def _thinking(where: str, item: dict) -> tuple[dict, ...]:
    """A step's `thinking` blocks, checked: they go back to the API exactly as it sent them."""
    try:
        return thinking_blocks(item.get("thinking", []), f"{where}: 'thinking'")
    except ValueError as bad:
        raise SynError(f"{bad} (pass the step llm_step returned)") from None


def tool_result(call, value, error=False) -> dict:
    """The map `tool_result(call, value)` builds: what the call returned, as the model reads it.

    `call` is a tool step (its first call) or an entry of its `calls`; `value` goes as text —
    text as it is, anything else as JSON where it has a JSON form, else as `text()` shows it.
    `error` true says the call failed and `value` is what went wrong: the map gets `error: true`.
    """
    if type(error) is not bool:
        raise SynError(f"tool_result: 'error' must be true or false, got {type_name(error)}")
    if type(call) is not dict:
        raise SynError(f"tool_result: the call must be a step or an entry of its 'calls', got {type_name(call)}")
    for key in ("id", "name"):
        if type(call.get(key)) is not str:
            raise SynError(f"tool_result: the call has no text '{key}' (pass a tool step or one of its 'calls')")
    content = value if type(value) is str else json.dumps(json_data(value), ensure_ascii=False)
    check_length("tool_result", "text", len(content))
    result = {"kind": "tool_result", "id": call["id"], "name": call["name"], "content": content}
    if error:
        result["error"] = True
    return result


def json_data(value):
    """`value` as JSON data: data values as they are, anything else (a task, a secret, a
    decimal) as the text `text()` shows for it. The data is a tree, so a value sharing its
    lists is counted first and refused when that tree is too large (runtime.limits)."""
    tree_size("sending a value to a model", value)
    return _json_data(value)


def _json_data(value):
    if value is None or type(value) in (str, bool, int, float):
        return value if type(value) is not float or math.isfinite(value) else display(value)
    if type(value) is list:
        return [_json_data(item) for item in value]
    if type(value) is dict:
        return {key if type(key) is str else display(key): _json_data(item) for key, item in value.items()}
    return display(value)


def catalog_tools(catalog) -> tuple[Tool, ...]:
    """The catalog as Tools: `{"name", "describe", "params"[, "optional"][, "input_schema"]}` maps.

    `params`/`optional` are the strings `tool_spec` writes (`"a: number"`, `"city"`); an entry
    that brings its own `input_schema` (the math library's do) is sent with that schema instead.
    Checked even offline, so a catalog mistake shows up before the first paid request.
    """
    if type(catalog) is not list:
        raise SynError(f"llm_step: the catalog must be a list of tool maps, got {type_name(catalog)}")
    tools: list[Tool] = []
    for index, entry in enumerate(catalog):
        if type(entry) is not dict or type(entry.get("name")) is not str or not entry["name"]:
            raise SynError(f"llm_step: catalog[{index}] must be a map with a text 'name'")
        name = entry["name"]
        if any(tool.name == name for tool in tools):
            raise SynError(f"llm_step: the catalog names '{name}' twice")
        describe = entry.get("describe", "")
        if type(describe) is not str:
            raise SynError(f"llm_step: catalog entry '{name}': 'describe' must be text, got {type_name(describe)}")
        tools.append(Tool(name, describe, _schema(name, entry)))
    return tuple(tools)


def _schema(name: str, entry: dict) -> dict:
    schema = entry.get("input_schema")
    if schema is not None:
        try:
            json.dumps(schema)
        except (TypeError, ValueError):
            schema = None
        if type(schema) is not dict:
            raise SynError(f"llm_step: catalog entry '{name}': 'input_schema' must be a map of JSON data")
        return schema
    lists = {}
    for key in ("params", "optional"):
        value = entry.get(key, [])
        if type(value) is not list or any(type(item) is not str for item in value):
            raise SynError(f"llm_step: catalog entry '{name}': '{key}' must be a list of texts")
        lists[key] = value
    try:
        return catalog_schema(lists["params"], lists["optional"])
    except SynError as bad:
        raise SynError(f"llm_step: catalog entry '{name}': {bad.message}") from None


def step_value(reply: Reply, schemas: dict[str, dict]) -> dict:
    """The script's view of a reply; `schemas` maps the catalog's names to their input_schema."""
    if reply.kind == "tool" and schemas:
        calls = [{"id": call.id, "name": call.name, "args": convert_args(call.args, schemas.get(call.name))}
                 for call in reply.calls]
        first = calls[0]
        value = {"kind": "tool", "name": first["name"], "args": dict(first["args"]), "id": first["id"],
                 "calls": calls}
        if reply.text.strip():
            value["text"] = reply.text
        return _with_extras(value, reply)
    if reply.kind == "text":
        value = _final(reply.text, reply.tokens)
        for flag in ("truncated", "refused"):
            if getattr(reply, flag):
                value[flag] = True
        return _with_extras(value, reply)
    reason = reply.text if reply.kind == "invalid" else "a tool call, but the catalog is empty"
    value = _final(f"[invalid model reply: {reason}]", reply.tokens)
    if reply.truncated:
        value["truncated"] = True
    return value


def _with_extras(value: dict, reply: Reply) -> dict:
    if reply.reasoning:
        value["reasoning"] = reply.reasoning
    if reply.thinking:
        value["thinking"] = [dict(block) for block in reply.thinking]
    value["tokens"] = reply.tokens
    return value


def _final(text: str, tokens: int) -> dict:
    return {"kind": "final", "text": text, "tokens": tokens}
