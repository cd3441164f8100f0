"""Drive `synsema mcp serve` with the official SDK's client over stdio, in a subprocess."""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from conftest import ROOT, synsema_env


@contextlib.asynccontextmanager
async def served(*args, cwd: Path | None = None, errlog=None):
    """An initialized ClientSession talking to `synsema mcp serve ARGS…`."""
    params = StdioServerParameters(command=sys.executable,
                                   args=["-m", "synsema", "mcp", "serve", *map(str, args)],
                                   env=synsema_env(), cwd=str(cwd or ROOT))
    with open(errlog or "/dev/null", "w") as log:
        async with stdio_client(params, errlog=log) as (read, write):
            async with ClientSession(read, write) as session:
                with anyio.fail_after(60):
                    await session.initialize()
                yield session


def with_session(*args, cwd: Path | None = None, errlog=None):
    """Run `body(session)` against a fresh server and return what it returns."""
    def run(body):
        async def main():
            async with served(*args, cwd=cwd, errlog=errlog) as session:
                with anyio.fail_after(60):
                    return await body(session)
        return anyio.run(main)
    return run


def text_of(result) -> str:
    return "\n".join(block.text for block in result.content)
