"""`synsema mcp serve [host flags] [--math] [--http PORT] FILE…`: tasks and math as MCP tools.

Built on the official `mcp` SDK's low-level `Server` (stdio by default, Streamable HTTP on
127.0.0.1 with `--http PORT`). What it publishes:

* Every top-level task of each FILE is a tool — only the exported tasks when the file exports
  any. Its description is the task's doc comment (`lang.outline.doc_comment`), its
  `inputSchema` the one `code outline --json` prints. A call runs exactly as `call_tool` runs
  it: strict argument checks, only the capabilities the task declares ∩ the program's requires
  ∩ the host ceiling, every check audited. The answer is the result as text content (text as
  is, anything else as JSON) and `{"result": value}` as structured content, which the tool's
  `outputSchema` declares.
* With `--math`, every operation of the math library, named `math_<domain>_<operation>`
  (provider-safe: no dots), with its full request schema, an example and the bounds in the
  description, its result schema as `outputSchema` and the typed result as structured content.
  The library's own validation, deadline and bounds apply unchanged. `math_run_many` runs one
  operation over a list of payloads (results in order, each item's error in its place).

Each script tool call runs in a process of its own (runtime.mcp.forked): calls from many
clients run at once, each under the per-call `--time-limit` (default 60 s) and `--memory-limit`
(default 1G), and each starts from the program as it was loaded. A language error — bad
arguments, a refused capability, a failing task, a math payload past its bound, a call past its
limits — is an MCP tool error (`isError: true` with the message, file names relative to the
served program); the connection stays up. A file that fails to load ends the command (exit 1)
with the language's error, naming its line.
Under `--labels` a call whose outcome private data decided is never answered: it ends the
server (one bit per lifetime, `_end_of_lifetime`). stdout belongs to the protocol, so whatever a
script prints goes to stderr, and stdin reads as empty.
"""

from __future__ import annotations

import io
import os
import sys
from dataclasses import dataclass

from synsema.lang.errors import SynError
from synsema.runtime.mcp.forked import CALL_MEMORY, CALL_SECONDS, CallProcesses
from synsema.runtime.mcp.threads import InterpreterThread

SERVER_NAME = "synsema"
# A task's result is any JSON value; structured content must be an object, so it is wrapped.
RESULT_SCHEMA = {"type": "object", "properties": {"result": {}}, "required": ["result"]}


class LoadError(Exception):
    """A script that cannot be served; the message is what the user sees (exit 1)."""


@dataclass
class ScriptTool:
    """One task published as a tool, with the run it belongs to."""

    name: str
    description: str
    schema: dict
    task: object
    rt: object


@dataclass
class Outcome:
    """What one tool call answers: an error message, or JSON data and its text form."""

    error: str | None = None
    text: str = ""
    structured: dict | None = None
    private: bool = False   # under --labels: private data decided it, so the server ends (see below)
    stopped: bool = False   # the call was stopped at its limits (runtime.mcp.forked)


def _stderr(text: str) -> None:
    sys.stderr.write(text)
    sys.stderr.flush()


def load_script(path: str, source: str, options: dict) -> list[ScriptTool]:
    """Run a script's top level in its own runtime and collect the tasks it publishes."""
    from synsema.lang import ast
    from synsema.lang.outline import outline
    from synsema.lang.parser import parse
    from synsema.runtime.interp import Runtime
    module = parse(source, path)
    tops = [node for node in module.body if type(node) is ast.TaskDef]
    if any(node.exported for node in tops):
        tops = [node for node in tops if node.exported]
    entries = {(entry["name"], entry["line"]): entry for entry in outline(module, source)}
    rt = Runtime(mode="run", out=_stderr, err=_stderr, stdin=io.StringIO(""), **options)
    from synsema.runtime.cli import execute
    problems: list[str] = []
    if execute(rt, source, path, problems) != 0:
        reports = [problem.report() if isinstance(problem, SynError) else str(problem) for problem in problems]
        raise LoadError("\n".join(reports) or f"{path}: the program exited while loading")
    tools = []
    for node in tops:
        entry = entries[(node.name, node.span.line)]
        task = rt.globals.get(node.name)
        description = entry["doc"] or (f"Synsema task {node.name} from {os.path.basename(path)} "
                                       "(no doc comment)")
        tools.append(ScriptTool(node.name, description, entry["input_schema"], task, rt))
    return tools


def call_script_tool(tool: ScriptTool, arguments: dict) -> Outcome:
    """Run one task the way `call_tool` does; never raises. Under `--labels`, a call whose
    control flow a private value decided at any point, or that ended in a label violation, a
    private error or a private result, answers only `Outcome.private` (see `_end_of_lifetime`)."""
    from synsema.runtime.labels import EMPTY, watch_branches
    st = tool.rt.labels
    if st is None:
        return _run_script_tool(tool, arguments)
    st.pc = st.give_taint = EMPTY
    watch_branches(st)
    outcome = _run_script_tool(tool, arguments)
    if outcome.private or st.raised:
        return Outcome(error=f"label_violation: the outcome of task '{tool.name}' depended on private "
                             "data; this server has stopped", private=True)
    return outcome


def _run_script_tool(tool: ScriptTool, arguments: dict) -> Outcome:
    from synsema.runtime.calls import REG
    from synsema.runtime.control import ExitProgram, StopLoop
    from synsema.runtime.labels import deep_labels
    from synsema.runtime.mcp.jsonvalues import to_json
    from synsema.stdlib.tools import call_tool
    rt = tool.rt
    REG.depth = 0
    try:
        value = call_tool(rt, tool.task, arguments)
        if rt.labels is not None and deep_labels(value):
            return Outcome(private=True)   # an MCP reply is a public sink
        data = to_json(value, f"the result of task '{tool.name}'")
    except SynError as error:
        if rt.labels is not None and not error.catchable:
            return Outcome(private=True)
        return Outcome(error=error.report())
    except ExitProgram as done:
        return Outcome(error=f"task '{tool.name}' called exit({done.code}); a tool gives its answer "
                             "with give instead")
    except StopLoop:
        return Outcome(error=f"Runtime error: stop used outside a loop (in task '{tool.name}')")
    except RecursionError:
        return Outcome(error="Runtime error: maximum recursion depth exceeded")
    except Exception as bug:  # a user never sees a traceback, even for our own bugs
        return Outcome(error=f"Internal error: {type(bug).__name__}: {bug} — this is a bug in "
                             "synsema, not in the task; please report it")
    return Outcome(text=_text(data), structured={"result": data})


def _text(data) -> str:
    import json
    return data if type(data) is str else json.dumps(data, ensure_ascii=False)


# ------------------------------------------------------------------ math

def math_tool_name(identifier: str) -> str:
    """`nt.factor` → `math_nt_factor`: provider APIs refuse dots in tool names."""
    return "math_" + identifier.replace(".", "_")


def math_tools() -> list[tuple[str, str, str, dict, dict]]:
    """(tool name, identifier, description, input schema, output schema) per math operation.
    The description carries the first example, so the input schema does not repeat it; the
    output schema is the compact one (`catalog.shared_result_schema`)."""
    from synsema.stdlib.math import catalog
    out = []
    for identifier, op in catalog.TOOLS.items():
        entry = catalog.entry(op)
        bounds = op.bounds
        description = (f"{op.claim}\n{entry.describe}\nBounds: input: {bounds.input}; computation: "
                       f"{bounds.computation}; output: {bounds.output}. Deadline {op.deadline_ms} ms.")
        output = catalog.shared_result_schema(op)
        if output.get("type") != "object":
            output = {"type": "object", **output}
        out.append((math_tool_name(identifier), identifier, description,
                    catalog.request_schema(op, example=False), output))
    return out


MATH_RUN_MANY = "math_run_many"


def math_run_many_tool(identifiers: list[str]) -> tuple[str, str, dict, dict]:
    """(name, description, input schema, output schema) of the batch tool: one operation over
    many payloads, each item's result or error in its place."""
    from synsema.stdlib.math.api import MAX_BATCH
    description = ("Run one math operation (id, e.g. \"comb.binomial\") over a list of payloads, "
                   "each shaped as that operation's own tool takes it (math_<id with _ for .>); "
                   f"at most {MAX_BATCH}. Results come in order, each {{status: \"ok\", result}} "
                   "or {status: \"error\", kind, message, issues} in its place. Each item runs "
                   "with the operation's own bounds and deadline, so the batch is bounded by "
                   "their sum.")
    schema = {"type": "object", "additionalProperties": False, "required": ["id", "payloads"],
              "properties": {"id": {"type": "string", "enum": identifiers},
                             "payloads": {"type": "array", "maxItems": MAX_BATCH,
                                          "items": {"type": "object"}}}}
    output = {"type": "object", "required": ["results"],
              "properties": {"results": {"type": "array", "items": {"type": "object"}}}}
    return MATH_RUN_MANY, description, schema, output


def call_math_run_many(arguments: dict) -> Outcome:
    """The batch through the library's own `run_many`; never raises."""
    from synsema.stdlib.math import api
    from synsema.stdlib.math.errors import MathError
    extra = sorted(set(arguments) - {"id", "payloads"})
    if extra or not isinstance(arguments.get("id"), str):
        return Outcome(error="math_run_many takes {id: operation id, payloads: [payload maps]}"
                             + (f"; unknown fields: {', '.join(extra)}" if extra else ""))
    try:
        data = {"results": api.run_many(arguments["id"], arguments.get("payloads"))}
    except MathError as problem:
        return Outcome(error=str(problem))
    return Outcome(text=_text(data), structured=data)


def call_math_tool(identifier: str, arguments: dict) -> Outcome:
    """Validate and run one operation through the library's own `run`; never raises."""
    from synsema.stdlib.math import api
    from synsema.stdlib.math.errors import MathError
    try:
        data = api.run(identifier, arguments).model_dump(mode="json")
    except MathError as problem:
        return Outcome(error=str(problem))
    return Outcome(text=_text(data), structured=data)


# ------------------------------------------------------------------ the server

def tool_list(scripts: list[ScriptTool], math: list) -> list:
    """What `tools/list` answers: the script tools, then the math tools and `math_run_many`."""
    import mcp.types as types
    listed = [types.Tool(name=t.name, description=t.description, inputSchema=t.schema,
                         outputSchema=RESULT_SCHEMA)
              for t in scripts]
    listed += [types.Tool(name=name, title=identifier, description=description,
                          inputSchema=schema, outputSchema=output)
               for name, identifier, description, schema, output in math]
    if math:
        name, description, schema, output = math_run_many_tool([m[1] for m in math])
        listed.append(types.Tool(name=name, description=description, inputSchema=schema,
                                 outputSchema=output))
    return listed


def build_server(listed: list, scripts: list[ScriptTool], math: list, calls: CallProcesses,
                 end_of_lifetime=None):
    """The SDK server answering `listed` (`tool_list`) with both kinds of tool; each script call
    runs in a process of its own (`calls`), math calls on a thread under the library's own
    deadline. Under --labels, `end_of_lifetime(tool, outcome)` ends the process after a call
    private data decided."""
    import anyio
    import mcp.types as types
    from mcp.server.lowlevel import Server
    from synsema.runtime.cli import VERSION

    by_script = {t.name: t for t in scripts}
    by_math = {name: identifier for name, identifier, *_ in math}
    server = Server(SERVER_NAME, version=VERSION,
                    instructions="Synsema tasks and exact math operations; every call is checked "
                                 "and runs with least privilege.")

    @server.list_tools()
    async def list_tools() -> list[types.Tool]:
        return listed

    @server.call_tool(validate_input=False)
    async def call_tool(name: str, arguments: dict) -> types.CallToolResult:
        if name in by_script:
            outcome = await calls.call(name, arguments, Outcome)
            if end_of_lifetime is not None and (outcome.private or outcome.stopped):
                end_of_lifetime(name, outcome)
        elif name in by_math:
            outcome = await anyio.to_thread.run_sync(call_math_tool, by_math[name], arguments)
        elif name == MATH_RUN_MANY and by_math:
            outcome = await anyio.to_thread.run_sync(call_math_run_many, arguments)
        else:
            outcome = Outcome(error=f"unknown tool '{name}'; this server has: "
                                    f"{', '.join(t.name for t in listed)}")
        if outcome.error is not None:
            return types.CallToolResult(content=[types.TextContent(type="text", text=outcome.error)],
                                        isError=True)
        return types.CallToolResult(content=[types.TextContent(type="text", text=outcome.text)],
                                    structuredContent=outcome.structured, isError=False)

    return server


async def _serve_http(server, port: int) -> None:
    import contextlib
    import uvicorn
    from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
    from mcp.server.transport_security import TransportSecuritySettings
    from starlette.applications import Starlette
    from starlette.routing import Mount

    security = TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=[f"127.0.0.1:{port}", f"localhost:{port}"],
        allowed_origins=[f"http://127.0.0.1:{port}", f"http://localhost:{port}"])
    manager = StreamableHTTPSessionManager(app=server, security_settings=security)

    async def endpoint(scope, receive, send):
        await manager.handle_request(scope, receive, send)

    @contextlib.asynccontextmanager
    async def lifespan(_app):
        async with manager.run():
            sys.stderr.write(f"synsema mcp serve: listening on http://127.0.0.1:{port}/mcp\n")
            sys.stderr.flush()
            yield

    app = Starlette(routes=[Mount("/mcp", app=endpoint)], lifespan=lifespan)
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on")
    await uvicorn.Server(config).serve()


def _warm() -> None:
    """Import what a call needs, and let a math pre-warm finish, before the zygote is forked
    (see runtime.mcp.forked)."""
    import synsema.runtime.control  # noqa: F401
    import synsema.runtime.mcp.jsonvalues  # noqa: F401
    import synsema.stdlib.tools  # noqa: F401
    isolation = sys.modules.get("synsema.stdlib.math.isolation")
    if isolation is not None:
        isolation.wait_for_prewarm()


def _forked() -> None:
    """In each call's process: the math worker of the server is not its to use."""
    isolation = sys.modules.get("synsema.stdlib.math.isolation")
    if isolation is not None:
        isolation.forked()


def _end_of_lifetime(audit, calls: CallProcesses):
    """Under --labels a server leaks at most one bit per lifetime, as a run does (TINI): the
    first call whose outcome private data decided — its control flow branched on a private
    value, or it ended in a label violation, a private error or a private result — or that was
    stopped at its limits (its time may be the secret's doing), ends the process with status 1,
    an audit record and a line for the operator, before anything of it is answered. So the
    client of a served `when balance < amount` learns, per lifetime, only that one call was
    made: never which way it went, and never a second answer."""
    def end(tool: str, outcome: Outcome) -> None:
        why = ("was stopped at its limits" if outcome.stopped and not outcome.private
               else "depended on private data")
        _stderr(f"synsema mcp serve: label_violation: the outcome of a call of '{tool}' {why}; "
                "under --labels a server answers no such call and stops, as a run stops at a "
                "label violation — declassify(…) the condition the task branches on if it may be "
                "published, then restart the server\n")
        if audit is not None:
            audit.limit("labels", f"a call of '{tool}' {why}", 1)
        calls.close()
        os._exit(1)
    return end


def relative_paths(text: str, folders: list[str]) -> str:
    """`text` with the served programs' folders left out of the file names it shows, so a
    client learns `tools.syn:13`, never where the server keeps its files."""
    for folder in folders:
        text = text.replace(folder + os.sep, "")
    return text


def run_in_child(by_name: dict, folders: list[str], memory: int | None):
    """The function a call's process runs: the tool, then its Outcome with relative paths."""
    def run(name: str, arguments: dict) -> Outcome:
        try:
            outcome = call_script_tool(by_name[name], arguments)
        except MemoryError:
            limit = "no limit" if memory is None else f"{memory // 1024 ** 2:,} MB"
            outcome = Outcome(error=f"Runtime error: task '{name}' ran out of memory (the per-call "
                                    f"limit is {limit}, --memory-limit)", stopped=True)
        if outcome.error is not None:
            outcome.error = relative_paths(outcome.error, folders)
        return outcome
    return run


def serve(files: list[tuple[str, str]], options: dict, with_math: bool, port: int | None,
          limits: tuple[float | None, int | None] = (CALL_SECONDS, CALL_MEMORY)) -> int:
    """Load every (path, source), then serve until the client goes away; the exit code.
    `limits` is (seconds, bytes) per script tool call; None for no limit."""
    import anyio
    from synsema.runtime.mcp.logs import one_line_sdk_logs
    one_line_sdk_logs()
    worker = InterpreterThread()
    scripts: list[ScriptTool] = []
    try:
        for path, source in files:
            scripts += worker.submit(load_script, path, source, options).result()
    except (SynError, LoadError) as problem:
        _stderr((problem.report() if isinstance(problem, SynError) else str(problem)) + "\n")
        return 1
    folders = sorted({os.path.dirname(os.path.abspath(path)) for path, _ in files}, key=len, reverse=True)
    audit = options.get("audit")
    calls = CallProcesses(run_in_child({t.name: t for t in scripts}, folders, limits[1]),
                          limits[0], limits[1], audit, after_fork=_forked)
    math = math_tools() if with_math else []
    seen: set[str] = set()
    for name in [t.name for t in scripts] + [name for name, *_ in math]:
        if name in seen:
            _stderr(f"synsema mcp serve: two tools are named '{name}'; serve the files separately "
                    "or rename one task\n")
            return 1
        seen.add(name)
    if not seen:
        _stderr("synsema mcp serve: nothing to serve — the files define no top-level task\n")
        return 1
    if scripts:
        worker.submit(calls.start, _warm).result()
    ending = _end_of_lifetime(audit, calls) if options.get("labels") else None
    listed = tool_list(scripts, math)
    server = build_server(listed, scripts, math, calls, ending)
    try:
        if port is None:
            from synsema.runtime.mcp.stdio import serve_stdio
            anyio.run(serve_stdio, server, listed)
        else:
            anyio.run(_serve_http, server, port)
    finally:
        calls.close()
        for rt in {id(t.rt): t.rt for t in scripts}.values():
            rt.caps.finish(0)
    return 0
