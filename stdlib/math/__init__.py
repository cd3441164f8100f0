"""Exact, bounded mathematical operations for Synsema (see MATH.md).

The public Python API is `find`, `describe`, `run` and `check`; they return typed Pydantic
values and raise `stdlib.math.errors.MathError` for failures that are not mathematics.
Importing this package is cheap on purpose: the interpreter may import it at start-up, so the
catalog (Pydantic models) loads on the first call and the backends (sympy, z3, PySAT) only in
the worker process that runs operations.
"""

from __future__ import annotations

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
    from .api import run as _run
    return _run(identifier, payload)


def check(identifier: str, payload: Any) -> Any:
    """Validate a payload without running it: a report with `valid` and `issues`."""
    from .api import check as _check
    return _check(identifier, payload)
