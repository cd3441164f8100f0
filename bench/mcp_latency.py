"""How fast `synsema mcp serve` answers, as an MCP client sees it (issue 16).

Starts `synsema mcp serve --math examples/tool_calling.syn` (`--no-math`: without `--math`)
over stdio with the official SDK's client and prints: the time from spawning the server to an
initialized session, the first `tools/list` (over stdio its reply is rendered when the server
starts, runtime/mcp/stdio.py, so this is mostly the client validating 220 kB) and the median of
the following ones, and the median of a script-task call and of a math call.
Information, not pass/fail.

    .venv/bin/python bench/mcp_latency.py [--reps N] [--no-math]

bench/run.py's "mcp serve" rows call `measure`.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

ROOT = Path(__file__).resolve().parent.parent


async def measure(reps: int, math: bool = True) -> dict:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "synsema", "mcp", "serve", *(["--math"] if math else []), "examples/tool_calling.syn"],
        env={**os.environ, "PYTHONPATH": str(ROOT)}, cwd=str(ROOT))
    spawned = time.perf_counter()
    with open(os.devnull, "w") as quiet:
        async with stdio_client(params, errlog=quiet) as (read, write):
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
    args = parser.parse_args()
    figures = anyio.run(measure, args.reps, not args.no_math)
    served = "examples/tool_calling.syn" if args.no_math else "--math examples/tool_calling.syn"
    print(f"synsema mcp serve {served}: {figures.pop('tools')} tools")
    for name, seconds in figures.items():
        print(f"  {name:<36} {seconds * 1000:8.1f} ms")
    print("the same over a plain pipe (the server's own answer time, no client library):")
    for name, seconds in measure_raw(args.reps, not args.no_math).items():
        print(f"  {name:<36} {seconds * 1000:8.1f} ms")


if __name__ == "__main__":
    main()
