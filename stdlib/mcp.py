"""`mcp_tools(server)`: the tools of an MCP server the host listed, as task values.

Capability: `mcp("server")` — the program must `require mcp("server")`, the host ceiling can
remove it, and only servers named in the host's `--mcp-config` exist at all: a script can never
start a process or reach a server the host did not list. Listing the tools and every call is a
checked, audited access of `mcp("server")`.

Each task stands for one tool: its parameters come from the tool's input schema (see
`runtime.mcp.client`), it declares `mcp("server")` so `call_tool` grants it exactly that, and
it works with `tool_spec`, `call`, `call_tool`, allow-lists and `llm_step` catalogs like any task.

Labels (`--labels`): a call's arguments are a sink — a private argument, or a call made under
private control flow, is a label_violation before anything is sent (declassify first) — and
every result is private to the principal the host config names for the server (default: its
name), so untrusted output stays marked. Bounds: each start-up and call waits at most the
server's `timeout` (30 s unless the config says otherwise); at most 1,000 tools are listed.
"""

from __future__ import annotations

from synsema.lang.errors import SynError
from synsema.runtime import trace
from synsema.runtime.calls import TaskCode
from synsema.runtime.labels import private_text, violation, wrap
from synsema.runtime.values import Param, Task, type_name
from synsema.stdlib.registry import builtin


@builtin("mcp_tools", 1, cap="mcp", changes=("mcp",))
def mcp_tools(rt, server):
    """A map of tool name → task value for each tool of an MCP server the host listed.

    The host lists the servers with `--mcp-config FILE`; the program needs `require mcp("name")`.

    Example: mcp_tools("weather") => error: Capability not granted: mcp("weather")
    """
    if type(server) is not str:
        raise SynError(f"mcp_tools expects the server's name as text, got {type_name(server)}")
    rt.check_cap("mcp", server)
    return {name: _task(rt, server, info) for name, info in rt.mcp_tools(server).items()}


def _task(rt, server: str, info) -> Task:
    from synsema.runtime.mcp.jsonvalues import to_json
    names = tuple(name for name, _, _ in info.params)
    label = f"MCP tool '{server}/{info.name}'"

    def body(frame):
        arguments = {name: frame[i + 1] for i, name in enumerate(names) if frame[i + 1] is not None}
        rt.site = None  # no builtin call site: the audit line names the capability alone
        rt.check_cap("mcp", server)
        st = rt.labels
        if st is not None:
            _refuse_private(st, label, arguments)
        sent = to_json(arguments, f"an argument of {label}")
        if st is None:
            with trace.span("execute_tool", f"execute_tool {info.name}", _tool_attrs(server, info.name, arguments)):
                return rt.mcp_call(server, info.name, sent)
        principal = rt.mcp_principal(server)
        rt.declare_principal(principal)   # so redacted output names it: private(<principal>)
        st.touched = st.touched | {principal}
        # the span records the error that leaves it: the private one, never the server's text
        with trace.span("execute_tool", f"execute_tool {info.name}", _tool_attrs(server, info.name, arguments)):
            try:
                result = rt.mcp_call(server, info.name, sent)
            except SynError as error:
                text = getattr(error, "tool_text", None)
                if text is not None:   # the server's error text is its output, as private as a result
                    raise private_text(error, f"{label} failed: ", text, frozenset((principal,)))
                raise
        return wrap(result, frozenset((principal,)))

    defaults = [None if required else (lambda frame: None) for _, _, required in info.params]
    code = TaskCode(info.name, False, names, defaults, body, [])
    params = tuple(Param(name, kind, not required, not required) for name, kind, required in info.params)
    return Task(info.name, params, code, None, declared=(("mcp", server),))


def _tool_attrs(server: str, name: str, arguments: dict) -> dict | None:
    """An MCP call's execute_tool span attributes; None when no trace is written."""
    if not trace.enabled():
        return None
    attrs = {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": name, "gen_ai.tool.type": "extension",
             "synsema.mcp.server": server, "gen_ai.tool.call.id": trace.current_tracer().call_id_for(name)}
    if trace.content_allowed_for_values():
        attrs["gen_ai.tool.call.arguments"] = trace.shown(arguments)
    return attrs


def _refuse_private(st, label: str, arguments: dict) -> None:
    """An MCP server is outside the program: nothing private may reach it."""
    from synsema.runtime.labels import EMPTY, deep_labels, shown
    found = EMPTY
    for value in arguments.values():
        found = found | deep_labels(value)
    if st.pc:
        raise violation(f"{label} called under private control flow (pc = {shown(st.pc)}); an MCP "
                        "server is a public sink — make the call from public control flow "
                        "(declassify(…) the condition)")
    if found:
        raise violation(f"{label} would receive data private to {shown(found)} (its arguments); an "
                        "MCP server is a public sink — declassify(…) the arguments first")
