"""`llm_step`: one tool-aware request, answered as the map a script's agent loop branches on.

The answer is `{"kind": "final", "text", "tokens"}` or `{"kind": "tool", "name", "args", "id",
"calls", "tokens"}`: `calls` lists every call of the reply as `{"id", "name", "args"}` in the
model's order, and the first one is also at the top level. A final may add `truncated: true`
(the token limit cut it off) or `refused: true` (a refusal or content filter; `text` is the
provider's own words); either kind adds `reasoning` when the model's reasoning came apart from
its answer, and a tool step adds `text` when the model wrote words beside its calls. A reply that
cannot be read becomes a final whose text starts `[invalid model reply: `, so the loop — not an
exception — decides what to do about a model's garbage. Arguments are converted by the schema
the model was shown.
"""

from __future__ import annotations

import json

from lang.errors import SynError
from lang.toolschema import catalog_schema
from runtime.llm import session
from runtime.llm.convert import convert_args
from runtime.llm.exchange import Ask, Reply, Tool
from runtime.values import display, type_name

NO_PROVIDER = "[no llm provider]"


def llm_step(prompt, catalog, context) -> dict:
    """One step of an agent loop; `catalog` is a list of tool maps (see `catalog_tools`)."""
    tools = catalog_tools(catalog)
    current = session.current()
    if current.offline:
        return _final(NO_PROVIDER, 0)
    exceeded = current.budget_exceeded()
    if exceeded:
        return _final(exceeded, 0)
    ask = Ask("step", display(prompt), "" if context is None else display(context), tools)
    return step_value(current.ask(ask), {tool.name: tool.input_schema for tool in tools})


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
    return _final(f"[invalid model reply: {reason}]", reply.tokens)


def _with_extras(value: dict, reply: Reply) -> dict:
    if reply.reasoning:
        value["reasoning"] = reply.reasoning
    value["tokens"] = reply.tokens
    return value


def _final(text: str, tokens: int) -> dict:
    return {"kind": "final", "text": text, "tokens": tokens}
