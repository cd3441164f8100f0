"""MCP both ways: `synsema mcp serve` (serve.py) and scripts as MCP clients (client.py).

Nothing here is imported by a program that does not use MCP: the CLI imports `serve` only for
`synsema mcp serve`, `config` only when `--mcp-config` is given, and `client` on the first
`mcp_tools(...)` call.
"""
