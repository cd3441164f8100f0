"""Scripts as MCP clients: the connections of one process to the servers the host listed.

`Hub` owns one `LoopThread` (the only event loop) and at most one connection per listed server,
opened on first use and kept for the rest of the run. The interpreter thread calls `tools` and
`call`, which hand a coroutine to the loop and wait a bounded time for it. Each connection is one
asyncio task that enters the SDK's transport and `ClientSession` contexts, initializes, and then
waits to be closed, so the SDK's contexts are entered and left by the same task as anyio needs.

Every failure becomes a catchable `SynError` naming the server: a server that cannot start, one
that does not answer within its timeout, one that dies during a call (the SDK fails the pending
request with "Connection closed"), a protocol error, a tool that answers `isError`. A server that
has died stays dead for the rest of the run; it is not restarted behind the program's back.

The input schema a server publishes becomes the parameter types of the task that stands for the
tool (JSON `number`/`integer` → number, `string` → text, `boolean` → bool, `array` → list,
`object` → map; a property that allows several types, or none, is untyped), so `call_tool`'s
strict checks and `llm_step`'s conversion table apply to MCP tools as to the script's own tasks.
"""

from __future__ import annotations

import asyncio
import atexit
import sys
from dataclasses import dataclass

from synsema.lang.errors import SynError
from synsema.runtime.mcp.config import ServerSpec
from synsema.runtime.mcp.threads import LoopThread

MAX_TOOLS = 1000
START_TIMEOUT = 60.0     # starting a server and initializing the session
CLOSE_TIMEOUT = 5.0
_SCRIPT_TYPES = {"number": "number", "integer": "number", "string": "text", "boolean": "bool",
                 "array": "list", "object": "map"}


@dataclass(frozen=True)
class ToolInfo:
    """One tool of a server: its name, description and (name, type or None, required) params."""

    name: str
    description: str
    params: tuple[tuple[str, str | None, bool], ...]
    wraps_result: bool   # structured results come as {"result": value}: the value is the answer


def parameters(schema: dict) -> tuple[tuple[str, str | None, bool], ...]:
    """The task parameters standing for a JSON Schema object's properties, in their order."""
    properties = schema.get("properties") if type(schema) is dict else None
    if type(properties) is not dict:
        return ()
    required = schema.get("required") or ()
    return tuple((name, _script_type(prop), name in required) for name, prop in properties.items())


def _script_type(prop) -> str | None:
    if type(prop) is not dict:
        return None
    kinds = prop.get("type")
    if kinds is None and type(prop.get("anyOf")) is list:
        kinds = [branch.get("type") for branch in prop["anyOf"] if type(branch) is dict]
    if type(kinds) is list:
        kinds = [k for k in kinds if k != "null"]
        kinds = kinds[0] if len(kinds) == 1 else None
    return _SCRIPT_TYPES.get(kinds) if type(kinds) is str else None


def _wraps(output) -> bool:
    """Whether an output schema is the `{"result": value}` wrapper servers put around a value
    that is not an object (FastMCP does, and so does `synsema mcp serve`)."""
    if type(output) is not dict or type(output.get("properties")) is not dict:
        return False
    return set(output["properties"]) == {"result"} and "result" in (output.get("required") or ())


class _Connection:
    """One open (or failed) session with one server, owned by a task on the loop."""

    def __init__(self, spec: ServerSpec):
        self.spec = spec
        self.session = None
        self.failure: str | None = None
        self.tools: dict[str, ToolInfo] | None = None
        self._closing: asyncio.Event | None = None
        self._owner = None

    async def open(self) -> None:
        """Start the owner task and wait until the session is initialized or has failed."""
        ready = asyncio.Event()
        self._closing = asyncio.Event()
        self._owner = asyncio.ensure_future(self._own(ready))
        await ready.wait()

    async def _own(self, ready: asyncio.Event) -> None:
        from contextlib import AsyncExitStack
        from mcp import ClientSession
        spec = self.spec
        try:
            async with AsyncExitStack() as stack:
                if spec.url is not None:
                    from mcp.client.streamable_http import streamable_http_client
                    read, write, _ = await stack.enter_async_context(streamable_http_client(spec.url))
                else:
                    from mcp import StdioServerParameters
                    from mcp.client.stdio import get_default_environment, stdio_client
                    params = StdioServerParameters(
                        command=spec.command, args=list(spec.args),
                        env={**get_default_environment(), **dict(spec.env)}, cwd=spec.cwd)
                    read, write = await stack.enter_async_context(stdio_client(params, sys.stderr))
                session = await stack.enter_async_context(ClientSession(read, write))
                await session.initialize()
                self.session = session
                ready.set()
                await self._closing.wait()
        except asyncio.CancelledError:
            self.failure = self.failure or "the connection was closed"
        except BaseException as problem:  # the SDK raises exception groups, OSError, McpError…
            self.failure = _describe(problem)
        finally:
            self.session = None
            ready.set()

    async def call_tool(self, tool: str, arguments: dict):
        from mcp.shared.exceptions import McpError
        from mcp.types import CONNECTION_CLOSED
        session = self.session
        if session is None:
            raise RuntimeError(self.failure or "the connection ended")
        try:
            return await session.call_tool(tool, arguments)
        except McpError as problem:
            if problem.error.code == CONNECTION_CLOSED:  # the server died: it stays dead
                self.failure = f"the server ended during a call of tool '{tool}'"
                self.session = None
                self.close()
            raise

    def close(self) -> None:
        if self._closing is not None:
            self._closing.set()

    async def finished(self) -> None:
        if self._owner is not None:
            await asyncio.wait([self._owner])


class TooManyTools(Exception):
    """A server listed more than MAX_TOOLS tools (on one page or over several)."""


def _describe(problem: BaseException) -> str:
    """The innermost useful message of an SDK failure (exception groups are unwrapped)."""
    while isinstance(problem, BaseExceptionGroup) and problem.exceptions:
        problem = problem.exceptions[0]
    message = getattr(getattr(problem, "error", None), "message", None) or str(problem)
    return message or type(problem).__name__


class Hub:
    """The MCP servers one process may reach, and its open connections to them."""

    def __init__(self, servers: dict[str, ServerSpec]):
        from synsema.runtime.mcp.logs import one_line_sdk_logs
        one_line_sdk_logs()
        self.servers = servers
        self._loop = LoopThread()
        self._connections: dict[str, _Connection] = {}
        atexit.register(self.close)

    def spec(self, name: str) -> ServerSpec:
        spec = self.servers.get(name)
        if spec is None:
            listed = ", ".join(self.servers) or "none"
            raise SynError(f"the host lists no MCP server named '{name}' (listed: {listed}); "
                           "a program can reach only the servers in --mcp-config")
        return spec

    def tools(self, name: str) -> dict[str, ToolInfo]:
        """The tools of server `name` (connecting on first use), by tool name."""
        connection = self._connection(name)
        if connection.tools is None:
            listed = self._wait(connection, self._list(connection), "list its tools")
            connection.tools = listed
        return connection.tools

    def call(self, name: str, tool: str, arguments: dict):
        """Call one tool; its result as Synsema values, or a SynError."""
        connection = self._connection(name)
        info = self.tools(name).get(tool)
        result = self._wait(connection, connection.call_tool(tool, arguments),
                            f"answer tool '{tool}'")
        text = "\n".join(block.text for block in result.content if block.type == "text")
        if result.isError:
            error = SynError(f"MCP tool '{name}/{tool}' failed: {text or 'no message'}")
            error.tool_text = text or "no message"   # the server's words: private under --labels
            raise error
        if result.structuredContent is not None:
            data = result.structuredContent
            if info is not None and info.wraps_result and set(data) == {"result"}:
                return data["result"]
            return data
        blocks = [block.text if block.type == "text" else block.model_dump(mode="json", exclude_none=True)
                  for block in result.content]
        return blocks[0] if len(blocks) == 1 else blocks

    def close(self) -> None:
        """Ask every connection to close and give them a moment to end their servers."""
        connections = list(self._connections.values())
        self._connections.clear()
        if not connections:
            return
        for connection in connections:
            self._loop.loop.call_soon_threadsafe(connection.close)

        async def all_finished():
            await asyncio.gather(*(c.finished() for c in connections))
        try:
            self._loop.run(all_finished(), CLOSE_TIMEOUT)
        except TimeoutError:
            pass

    # -- internals
    def _connection(self, name: str) -> _Connection:
        spec = self.spec(name)
        connection = self._connections.get(name)
        if connection is None:
            connection = self._connections[name] = _Connection(spec)
            try:
                self._loop.run(connection.open(), START_TIMEOUT)
            except TimeoutError:
                connection.failure = f"it did not finish starting within {START_TIMEOUT:g} s"
                self._loop.loop.call_soon_threadsafe(connection.close)
        if connection.session is None:
            how = spec.url or " ".join((spec.command, *spec.args))
            raise SynError(f"MCP server '{name}' is not available ({how}): "
                           f"{connection.failure or 'the connection ended'}")
        return connection

    def _wait(self, connection: _Connection, coro, what: str):
        spec = connection.spec
        try:
            return self._loop.run(coro, spec.timeout)
        except TimeoutError:
            raise SynError(f"MCP server '{spec.name}' did not {what} within {spec.timeout:g} s "
                           "(its \"timeout\" in --mcp-config)") from None
        except TooManyTools:
            raise SynError(f"MCP server '{spec.name}' offers more than {MAX_TOOLS:,} tools; synsema "
                           f"reads at most {MAX_TOOLS:,} from one server — serve fewer, or split the "
                           "server in two") from None
        except Exception as problem:
            raise SynError(f"MCP server '{spec.name}' failed to {what}: {_describe(problem)}") from None

    async def _list(self, connection: _Connection) -> dict[str, ToolInfo]:
        tools: dict[str, ToolInfo] = {}
        cursor = None
        while True:
            session = connection.session
            if session is None:
                raise RuntimeError(connection.failure or "the connection ended")
            page = await session.list_tools(cursor=cursor)
            for tool in page.tools:
                tools[tool.name] = ToolInfo(tool.name, tool.description or "",
                                            parameters(tool.inputSchema), _wraps(tool.outputSchema))
            if len(tools) > MAX_TOOLS:
                raise TooManyTools()
            cursor = page.nextCursor
            if cursor is None:
                return tools
