"""What a model call costs, in US dollars, from a price table per million tokens.

Source: the providers' published API price pages (openai.com/api/pricing and
docs.anthropic.com/en/docs/about-claude/pricing), read on 2025-10-15, standard (not batch)
prices. Prices change: a host sets its own with `[llm] prices` in synsema.toml or
SYNSEMA_LLM_PRICES (`"MODEL=IN/OUT[/CACHE_READ/CACHE_WRITE], …"`, dollars per million tokens),
and those win.
A model is matched by the longest table name that starts its name, so dated snapshots
(`claude-haiku-4-5-20251001`) price as their family. A call whose model or token split is
unknown has no cost (None), never a guessed one.
"""

from __future__ import annotations

# model prefix -> (input, output, cache read, cache write), USD per million tokens
TABLE: dict[str, tuple[float, float, float, float]] = {
    "gpt-4.1": (2.00, 8.00, 0.50, 2.00),
    "gpt-4.1-mini": (0.40, 1.60, 0.10, 0.40),
    "gpt-4.1-nano": (0.10, 0.40, 0.025, 0.10),
    "gpt-4o": (2.50, 10.00, 1.25, 2.50),
    "gpt-4o-mini": (0.15, 0.60, 0.075, 0.15),
    "o4-mini": (1.10, 4.40, 0.275, 1.10),
    "claude-haiku-4-5": (1.00, 5.00, 0.10, 1.25),
    "claude-sonnet-4-5": (3.00, 15.00, 0.30, 3.75),
    "claude-sonnet-4": (3.00, 15.00, 0.30, 3.75),
    "claude-opus-4-1": (15.00, 75.00, 1.50, 18.75),
}

def parse_prices(text: str) -> dict[str, tuple[float, float, float, float]] | str:
    """The host's prices from `MODEL=IN/OUT[/CACHE_READ/CACHE_WRITE], …`, or why they cannot be
    read. Cache prices default to the input price."""
    prices = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        model, _, numbers = item.partition("=")
        try:
            values = [float(n) for n in numbers.split("/")]
        except ValueError:
            values = []
        if not model.strip() or len(values) not in (2, 4) or any(not 0 <= v < 1e6 for v in values):
            return (f"'{item}' is not MODEL=IN/OUT or MODEL=IN/OUT/CACHE_READ/CACHE_WRITE "
                    "(dollars per million tokens)")
        if len(values) == 2:
            values += [values[0], values[0]]
        prices[model.strip()] = tuple(values)
    return prices


def price(model: str | None, overrides: dict | None = None) -> tuple[float, float, float, float] | None:
    if not model:
        return None
    for table in (overrides or {}, TABLE):
        names = [name for name in table if model == name or model.startswith(name + "-")]
        if names:
            return table[max(names, key=len)]
    return None


def cost(model: str | None, usage: dict | None, overrides: dict | None = None) -> float | None:
    """The dollars one reply cost: `usage` is {"input", "output", "cache_read", "cache_write"}
    (input counts cache reads and writes too, as the providers' usage does once summed)."""
    rates = price(model, overrides)
    if rates is None or not usage:
        return None
    cache_read, cache_write = usage.get("cache_read", 0), usage.get("cache_write", 0)
    plain = max(usage.get("input", 0) - cache_read - cache_write, 0)
    return (plain * rates[0] + usage.get("output", 0) * rates[1] + cache_read * rates[2]
            + cache_write * rates[3]) / 1_000_000


def cost_of(attrs: dict) -> float | None:
    """The cost of a chat span from its attributes (the trace records it once known)."""
    if "synsema.cost_usd" in attrs:
        return attrs["synsema.cost_usd"]
    usage = {"input": attrs.get("gen_ai.usage.input_tokens", 0), "output": attrs.get("gen_ai.usage.output_tokens", 0),
             "cache_read": attrs.get("gen_ai.usage.cache_read.input_tokens", 0),
             "cache_write": attrs.get("gen_ai.usage.cache_creation.input_tokens", 0)}
    if not (usage["input"] or usage["output"]):
        return None
    return cost(attrs.get("gen_ai.response.model") or attrs.get("gen_ai.request.model"), usage)
