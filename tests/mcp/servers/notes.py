"""A small MCP server written with the SDK's FastMCP, for the client tests.

Its tools cover each shape a script meets: a typed call with a structured result, an optional
parameter, a text result, a tool error, a slow tool (timeouts) and a tool that kills its own
process in the middle of a call.
"""

import os
import time

from mcp.server.fastmcp import FastMCP
from pydantic import BaseModel

server = FastMCP("notes", log_level="WARNING")


class Weather(BaseModel):
    city: str
    temp: int


@server.tool()
def add(a: int, b: int = 1) -> int:
    """Add two integers."""
    return a + b


@server.tool()
def greet(name: str, punctuation: str | None = None) -> str:
    """Greet someone by name."""
    return f"hello {name}{punctuation or ''}"


@server.tool()
def lookup(key: str) -> Weather:
    """Look a city's weather up in a fixed table."""
    table = {"lima": Weather(city="Lima", temp=21)}
    if key not in table:
        raise ValueError(f"no entry for {key!r}")
    return table[key]


@server.tool()
def slow(seconds: float) -> str:
    """Sleep, then answer."""
    time.sleep(seconds)
    return "done"


@server.tool()
def crash() -> str:
    """End the server process in the middle of the call."""
    os._exit(3)


if __name__ == "__main__":
    server.run()
