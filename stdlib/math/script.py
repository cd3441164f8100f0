"""The bridge between the script module `math` and the Python API (MATH.md Decisions).

The interpreter calls these functions with plain script values (int, float, Decimal, str,
bool, None, list, dict with text keys) and gets plain values back: exact integers as ints,
rationals as canonical text ("3/4"), maps and lists, booleans and None. Every failure is a
`MathError` whose text is the deterministic message of MATH.md §7.2, which the interpreter
turns into a language error that `recover` can catch.

Importing this module is cheap; the catalog loads on the first call.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing is not imported: the first math call pays for every import
if TYPE_CHECKING:
    from typing import Any

from .errors import MathError


def find(query: str = "", domain: str | None = None, detail: str = "summary",
         limit: int = 10) -> list[dict]:
    """Catalog entries as maps; each has name, describe, params and optional, so the list can
    be handed to llm_step as a catalog."""
    from . import api
    return [entry.model_dump() for entry in api.find(query, domain, detail, limit)]


def describe(identifier: str) -> dict:
    """The full catalog entry of one operation as a map."""
    from . import api
    return api.describe(identifier).model_dump()


def run(identifier: str, payload: dict) -> Any:
    """Validate and run one operation; the typed result as plain values."""
    from . import isolation
    isolation.start_soon(identifier)  # the worker prepares the operation while this validates
    from . import plain
    if identifier in plain.OPS and plain.request(identifier, payload) is not None:
        return isolation.execute_plain(identifier, payload)  # no Pydantic in either process
    from . import api
    return api.run(identifier, payload).model_dump()


def run_many(identifier: str, payloads: list) -> list[dict]:
    """One operation over many payloads, results in order, each item's error in its place:
    `{"status": "ok", "result": ...}` or `{"status": "error", "kind", "message", "issues"}`."""
    from . import isolation
    isolation.start_soon(identifier)
    from . import api
    return api.run_many(identifier, payloads)


def check(identifier: str, payload: Any) -> dict:
    """{"valid": bool, "issues": [{"path", "code", "message"}]}; never raises."""
    from . import api
    return api.check(identifier, payload).model_dump()


def prewarm(domains) -> list[str]:
    """Load the backends of `domains` (names, or "all") into the worker now; the names of the
    backends it holds."""
    from . import api
    return api.prewarm(domains)


def tool_params(identifier: str) -> list[tuple[str, str | None, bool]]:
    """The request's top-level fields as (name, type, required) for `math.tool(id)`: type is
    number, text, bool, list or map, or None for fields that accept more than one kind of
    value (an exact integer given as a number or as text)."""
    from . import catalog
    return catalog.params(_tool_for(identifier))


def input_schema(identifier: str) -> dict:
    """The operation's request schema in the form model providers accept (no `$ref`), the
    same one `find` entries carry as `input_schema`."""
    from . import catalog
    return catalog.request_schema(_tool_for(identifier))


def _tool_for(identifier: str):
    from . import catalog
    tool = catalog.get(identifier) if isinstance(identifier, str) else None
    if tool is None:
        from .api import _unknown_text
        raise MathError.build("unknown_operation", str(identifier),
                              ["- " + _unknown_text(identifier)], verb="math.tool")
    return tool
