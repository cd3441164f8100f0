"""Tasks as tools: `call`, `call_tool` and `tool_spec`.

A model writes a tool's arguments as data, so these are the places where a task's declared
parameter types are checked — strictly, never converting (seed 000). `call` is the host calling a
task like a callback: missing keys take their defaults or arrive as `nothing`. `call_tool` does
the same under least privilege: the task runs with only the capabilities its own `require`
lines declare, intersected with the program's.
"""

from __future__ import annotations

from synsema.lang.errors import SynError
from synsema.runtime import trace
from synsema.runtime.calls import bind, unknown_parameter
from synsema.runtime.sealed import Secret
from synsema.runtime.values import Task, type_name
from synsema.stdlib.registry import builtin

# Declared type → the value types that satisfy it (a bool is never a number here).
_ACCEPTS = {
    "number": (int, float),
    "text": (str,),
    "bool": (bool,),
    "list": (list,),
    "map": (dict,),
}


def _task(fn, who: str) -> Task:
    if type(fn) is not Task:
        raise SynError(f"{who} expects a task as its first argument, got {type_name(fn)}")
    return fn


def _checked_args(task: Task, args, who: str) -> list[tuple[str, object]]:
    """The args map as (name, value) pairs after the strict checks of seed 000."""
    if args is None:
        args = {}
    if type(args) is not dict:
        raise SynError(f"{who} expects a map of arguments, got {type_name(args)}")
    names = [p.name for p in task.params]
    label = f"{who}({task.name})"
    for key in args:
        if key not in names:
            raise unknown_parameter(f"task '{task.name}'", key, names, listing=True)
    for param in task.params:
        if param.type is None:
            continue
        if param.name not in args:
            if not param.has_default:
                raise SynError(f"{label}: missing '{param.name}' ({param.type})")
            continue
        value = args[param.name]
        if value is None and param.default_is_nothing:
            continue
        accepted = _ACCEPTS.get(param.type)
        if accepted is not None and type(value) not in accepted:
            raise SynError(f"{label}: '{param.name}' must be {param.type}, got {type_name(value)}")
    return list(args.items())


@builtin("call", 2)
def call(rt, fn, args):
    """Call a task with named arguments from a map, with the capabilities in effect.

    Example: call((a, b) => a - b, {a: 5, b: 2}) => 3
    """
    task = _task(fn, "call")
    named = _checked_args(task, args, "call")
    return rt.run_task(task, bind(task, [], named, False))


def _refuse_secrets(task, named) -> None:
    """A tool's arguments are data a model could have written; a secret is never one of them:
    the tool reads its own key with secret("NAME") under its own require."""
    stack = [value for _, value in named]
    seen = set()    # each list or map scanned once, however often it is shared (runtime.limits)
    while stack:
        value = stack.pop()
        if type(value) is list or type(value) is dict:
            if id(value) in seen:
                continue
            seen.add(id(value))
        if type(value) is Secret:
            raise SynError(f"call_tool({task.name}): {value.display()} is a secret and cannot be a "
                           f"tool argument — let the tool read it with secret(\"{value.name}\") "
                           "under its own require secret(…)")
        if type(value) is list:
            stack.extend(value)
        elif type(value) is dict:
            stack.extend(value.values())


@builtin("call_tool", 2)
def call_tool(rt, fn, args):
    """Call a task the way a tool runs: arguments checked against its types, only its declared capabilities.

    Example: call_tool((a, b) => a * b, {a: 3, b: 4}) => 12
    """
    task = _task(fn, "call_tool")
    named = _checked_args(task, args, "call_tool")
    _refuse_secrets(task, named)
    token = rt.enter_tool(task.declared, task.name)
    try:
        if not trace.enabled():
            return rt.run_task(task, bind(task, [], named, False))
        with trace.span("execute_tool", f"execute_tool {task.name}", _tool_attrs(task.name, named)) as span:
            result = rt.run_task(task, bind(task, [], named, False))
            if trace.content_allowed_for_values():
                span.set({"gen_ai.tool.call.result": trace.shown(result)})
            return result
    finally:
        rt.leave_caps(token)


def _tool_attrs(name: str, named: list) -> dict:
    """An execute_tool span's attributes: the model's call id when a step asked for this tool,
    and the arguments (as stdout would show them) when the host captures content."""
    attrs = {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": name, "gen_ai.tool.type": "function",
             "gen_ai.tool.call.id": trace.current_tracer().call_id_for(name)}
    if trace.content_allowed_for_values():
        attrs["gen_ai.tool.call.arguments"] = trace.shown(dict(named))
    return attrs


@builtin("tool_spec", 2)
def tool_spec(rt, fn, describe):
    """The catalog entry a model sees for a task, derived from its signature.

    Example: tool_spec((city) => city, "Weather in a city").params => ["city"]
    """
    task = _task(fn, "tool_spec")
    if type(describe) is not str:
        raise SynError(f"tool_spec expects a text description, got {type_name(describe)}")
    params = [f"{p.name}: {p.type}" if p.type else p.name for p in task.params]
    optional = [p.name for p in task.params if p.has_default]
    spec = {"name": task.name, "describe": describe, "params": params, "optional": optional}
    if task.input_schema is not None:  # a math operation: llm_step sends its full schema
        spec["input_schema"] = task.input_schema
    return spec
