"""An MCP server (the SDK's FastMCP) whose data is private to it: a balance from its
environment. Starting it leaves a mark in its working folder, an effect outside the program."""

import os

from mcp.server.fastmcp import FastMCP

server = FastMCP("bank", log_level="WARNING")


@server.tool()
def check(amount: int) -> str:
    """Refuse an amount above the balance, naming the balance."""
    balance = int(os.environ["BALANCE"])
    if balance < amount:
        raise ValueError(f"balance {balance} is below {amount}")
    return "ok"


if __name__ == "__main__":
    with open("bank_started.txt", "a", encoding="utf-8") as mark:
        mark.write("started\n")
    server.run()
