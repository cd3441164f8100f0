"""How fast `synsema mcp serve` answers, as an MCP client sees it (issue 16).

Starts `synsema mcp serve --math examples/tool_calling.syn` (`--no-math`: without `--math`)
over stdio with the official SDK's client session (the server in the client's session, as the
TypeScript SDK starts it: `in_this_session`; `--own-session`: the Python SDK's stdio_client,
which starts it in a session of its own) and prints: the time from spawning the server to an
initialized session, the first `tools/list` (over stdio its reply is rendered when the server
starts, runtime/mcp/stdio.py, so this is mostly the client validating 220 kB) and the median of
the following ones, and the median of a script-task call and of a math call.
Information, not pass/fail.

    .venv/bin/python bench/mcp_latency.py [--reps N] [--no-math] [--own-session]

bench/run.py's "mcp serve" rows call `measure`.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import sys
import time
from pathlib import Path

import anyio
import mcp.types as types
from anyio.streams.text import TextReceiveStream
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.shared.message import SessionMessage

ROOT = Path(__file__).resolve().parent.parent


@contextlib.asynccontextmanager
async def in_this_session(params: StdioServerParameters, errlog):
    """The SDK's stdio transport (`mcp.client.stdio.stdio_client`: JSON-RPC lines parsed with the
    SDK's own models) with one difference: the server stays in the client's session, as the
    TypeScript SDK's StdioClientTransport (Node's `spawn` without `detached`) leaves it. The
    Python SDK starts it in a session of its own; where the kernel groups each session for
    scheduling (Linux's autogroup, on by default), the server's group then waits for every
    other session's runnable tasks at each hand-off, so on a machine doing anything else a
    task call takes many times its own time (bench/README.md, session 5)."""
    process = await anyio.open_process([params.command, *params.args], env=params.env, cwd=params.cwd,
                                       stderr=errlog)
    read_writer, read = anyio.create_memory_object_stream(0)
    write, write_reader = anyio.create_memory_object_stream(0)

    async def reader():
        async with read_writer:
            buffer = ""
            async for chunk in TextReceiveStream(process.stdout):
                *lines, buffer = (buffer + chunk).split("\n")
                for line in lines:
                    await read_writer.send(SessionMessage(types.JSONRPCMessage.model_validate_json(line)))

    async def writer():
        async with write_reader:
            async for message in write_reader:
                line = message.message.model_dump_json(by_alias=True, exclude_none=True) + "\n"
                await process.stdin.send(line.encode())

    async with process, anyio.create_task_group() as group:
        group.start_soon(reader)
        group.start_soon(writer)
        try:
            yield read, write
        finally:
            await process.stdin.aclose()
            with anyio.move_on_after(10):
                await process.wait()
            if process.returncode is None:
                process.kill()
            group.cancel_scope.cancel()


async def measure(reps: int, math: bool = True, own_session: bool = False) -> dict:
    """The official client's session over stdio (`own_session`: the Python SDK's transport,
    which starts the server in a session of its own; else `in_this_session`)."""
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "synsema", "mcp", "serve", *(["--math"] if math else []), "examples/tool_calling.syn"],
        env={**os.environ, "PYTHONPATH": str(ROOT)}, cwd=str(ROOT))
    spawned = time.perf_counter()
    transport = stdio_client if own_session else in_this_session
    with open(os.devnull, "w") as quiet:
        async with transport(params, errlog=quiet) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                ready = time.perf_counter() - spawned

                async def timed(action) -> float:
                    start = time.perf_counter()
                    await action()
                    return time.perf_counter() - start

                first = await timed(session.list_tools)
                lists = [await timed(session.list_tools) for _ in range(reps)]
                tools = len((await session.list_tools()).tools)
                task = [await timed(lambda: session.call_tool("add", {"a": 2, "b": 3}))
                        for _ in range(reps)]
                figures = {"tools": tools, "spawn to initialized": ready, "first tools/list": first,
                           "tools/list (median)": statistics.median(lists),
                           "call add (median)": statistics.median(task)}
                if math:
                    calls = [await timed(lambda: session.call_tool("math_nt_integer_gcd", {"values": [12, 18]}))
                             for _ in range(reps)]
                    figures["call math_nt_integer_gcd (median)"] = statistics.median(calls)
    return figures


def measure_raw(reps: int, math: bool) -> dict:
    """The server's own answer time, without the client library's validation of the reply
    (which for the 49 tools of --math, 220 kB of schemas, is most of what a client waits):
    the same server over a plain pipe, one JSON-RPC line out, the time until its reply line."""
    import json
    import subprocess
    argv = [sys.executable, "-m", "synsema", "mcp", "serve", *(["--math"] if math else []), "examples/tool_calling.syn"]
    server = subprocess.Popen(argv, cwd=str(ROOT), env={**os.environ, "PYTHONPATH": str(ROOT)},
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    ids = iter(range(1, 10**6))

    def ask(method: str, params: dict) -> float:
        number = next(ids)
        start = time.perf_counter()
        server.stdin.write(json.dumps({"jsonrpc": "2.0", "id": number, "method": method, "params": params}).encode() + b"\n")
        server.stdin.flush()
        while json.loads(server.stdout.readline()).get("id") != number:
            pass
        return time.perf_counter() - start
    try:
        ask("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                           "clientInfo": {"name": "bench", "version": "1"}})
        server.stdin.write(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}\n')
        first = ask("tools/list", {})
        lists = [ask("tools/list", {}) for _ in range(reps)]
        calls = [ask("tools/call", {"name": "add", "arguments": {"a": 2, "b": 3}}) for _ in range(reps)]
    finally:
        server.stdin.close()
        server.wait(timeout=60)
    return {"first tools/list": first, "tools/list (median)": statistics.median(lists),
            "call add (median)": statistics.median(calls)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--reps", type=int, default=20)
    parser.add_argument("--no-math", action="store_true", help="serve the script's tasks only")
    parser.add_argument("--own-session", action="store_true",
                        help="start the server in a session of its own (the Python SDK's stdio_client)")
    args = parser.parse_args()
    figures = anyio.run(measure, args.reps, not args.no_math, args.own_session)
    served = "examples/tool_calling.syn" if args.no_math else "--math examples/tool_calling.syn"
    print(f"synsema mcp serve {served}: {figures.pop('tools')} tools")
    for name, seconds in figures.items():
        print(f"  {name:<36} {seconds * 1000:8.1f} ms")
    print("the same over a plain pipe (the server's own answer time, no client library):")
    for name, seconds in measure_raw(args.reps, not args.no_math).items():
        print(f"  {name:<36} {seconds * 1000:8.1f} ms")


if __name__ == "__main__":
    main()
