"""A small MCP server (the SDK's FastMCP) that examples/mcp_agent.syn uses as its tools.

Run by the MCP host — `synsema run --mcp-config examples/mcp_agent.mcp.json …` starts it over
stdio — never by the script. It has one tool the agent's allow-list holds and one it does not.
"""

from mcp.server.fastmcp import FastMCP

server = FastMCP("weather", log_level="WARNING")

FORECASTS = {"lima": ["sunny", "cloudy", "sunny"], "oslo": ["snow", "snow", "clear"]}


@server.tool()
def get_forecast(city: str, days: int = 1) -> list[str]:
    """The forecast for a city, one word per day (at most 3 days)."""
    known = FORECASTS.get(city.lower())
    if known is None:
        raise ValueError(f"no forecast for {city}")
    if not 1 <= days <= 3:
        raise ValueError("days must be 1, 2 or 3")
    return known[:days]


@server.tool()
def set_alert(city: str, message: str) -> str:
    """Send a weather alert to everyone in a city (the agent must never reach this one)."""
    return f"alert sent to {city}: {message}"


if __name__ == "__main__":
    server.run()
