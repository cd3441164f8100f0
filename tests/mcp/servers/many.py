"""An MCP server (the SDK's FastMCP) offering as many tools as its first argument says: the
client's 1,000-tool cap is tested against it."""

import sys

from mcp.server.fastmcp import FastMCP

server = FastMCP("many", log_level="WARNING")


def _echo(x: int) -> int:
    return x


for number in range(int(sys.argv[1])):
    server.add_tool(_echo, name=f"tool_{number}", description=f"Echo number {number}.")

if __name__ == "__main__":
    server.run()
