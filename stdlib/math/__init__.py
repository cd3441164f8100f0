"""Exact, bounded mathematical operations for Synsema (see MATH.md).

The public Python API is `find`, `describe`, `run`, `check` and `prewarm`; they return typed Pydantic
values and raise `stdlib.math.errors.MathError` for failures that are not mathematics.
Importing this package is cheap on purpose: the interpreter may import it at start-up, so the
catalog (Pydantic models) loads on the first call, only as far as that call needs (the domain
module of its operation, whose models build on first use), and the backends (sympy, z3,
PySAT) only in the worker process that runs operations, each one on the first call that needs
it (or ahead, with `prewarm`).
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing is not imported: the first math call pays for every import
if TYPE_CHECKING:
    from typing import Any


def find(query: str = "", domain: str | None = None, detail: str = "summary",
         limit: int = 10) -> list:
    """Catalog entries matching `query`, best first (`detail` is "summary" or "full")."""
    from .api import find as _find
    return _find(query, domain, detail, limit)


def describe(identifier: str) -> Any:
    """The full catalog entry of one operation."""
    from .api import describe as _describe
    return _describe(identifier)


def run(identifier: str, payload: dict) -> Any:
    """Validate the payload, run the operation in an isolated worker, return its typed result."""
    from .isolation import start_soon
    start_soon(identifier)  # the worker prepares the operation while this process validates
    from .api import run as _run
    return _run(identifier, payload)


def check(identifier: str, payload: Any) -> Any:
    """Validate a payload without running it: a report with `valid` and `issues`."""
    from .api import check as _check
    return _check(identifier, payload)


def prewarm(domains: Any) -> list[str]:
    """Load the backends of `domains` (domain names, or "all") into the worker ahead of their
    first call; the sorted names of the backends the worker holds."""
    from .api import prewarm as _prewarm
    return _prewarm(domains)



def prewarm_in_background(spec: str) -> None:
    """`--math-prewarm DOMAINS|all`: check the comma-separated domain names now (a MathError
    names an unknown one), then load their backends into the worker on a background thread
    while the command starts; the program's first math call waits for that load."""
    from . import isolation
    from .errors import MathError
    from .index import DOMAINS
    names = list(DOMAINS) if spec.strip() == "all" else [d.strip() for d in spec.split(",")]
    unknown = [d for d in names if d not in DOMAINS]
    if unknown:
        raise MathError.build("invalid_argument", None, [
            f"- unknown domain {d!r}; domains: {', '.join(DOMAINS)}, or all" for d in unknown],
            verb="--math-prewarm")
    isolation.load_in_background(sorted(set(names)))
