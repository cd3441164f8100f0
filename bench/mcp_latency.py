"""How fast `synsema mcp serve` answers, as an MCP client sees it (issue 16).

Starts `synsema mcp serve --math examples/tool_calling.syn` over stdio with the official SDK's
client and prints: the time from spawning the server to an initialized session, the first
`tools/list` (which builds the math catalog's schemas) and the median of the following ones,
and the median of a script-task call and of a math call. Information, not pass/fail.

    .venv/bin/python bench/mcp_latency.py [--reps N]
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


async def measure(reps: int) -> dict:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "synsema", "mcp", "serve", "--math", "examples/tool_calling.syn"],
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
                math = [await timed(lambda: session.call_tool("math_nt_integer_gcd",
                                                              {"values": [12, 18]}))
                        for _ in range(reps)]
    return {"tools": tools, "spawn to initialized": ready, "first tools/list": first,
            "tools/list (median)": statistics.median(lists),
            "call add (median)": statistics.median(task),
            "call math_nt_integer_gcd (median)": statistics.median(math)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--reps", type=int, default=20)
    figures = anyio.run(measure, parser.parse_args().reps)
    print(f"synsema mcp serve --math examples/tool_calling.syn: {figures.pop('tools')} tools")
    for name, seconds in figures.items():
        print(f"  {name:<36} {seconds * 1000:8.1f} ms")


if __name__ == "__main__":
    main()
