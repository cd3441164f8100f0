"""The optional parts of the distribution and the one place a missing one becomes advice.

`pip install synsema` is the core: it runs scripts, `test`, `repl`, `check`, `fmt`, `doc` and
the LLM providers. The rest are extras declared in pyproject.toml (`synsema[math]`, `[mcp]`,
`[lsp]`, `[otel]`, `[ray]`, `[all]`). A feature that needs one asks `need(extra, feature)` before
importing anything of it, and the safety nets (a builtin's call, the CLI) turn any
ModuleNotFoundError for a package listed in MODULES into the same message, so a user never sees
an ImportError: they see what to install.

MODULES is the table: the top-level import name of each package an extra brings, mapped to that
extra. tests/test_packaging.py checks it against pyproject.toml's extras and proves the messages
in a venv that holds only the core wheel.
"""

from __future__ import annotations

import importlib.util

from synsema.lang.errors import SynError

# Top-level import name → the extra that installs it (pyproject.toml [project.optional-dependencies]).
MODULES = {
    "sympy": "math", "z3": "math", "pysat": "math", "pydantic": "math", "snowballstemmer": "math",
    "mcp": "mcp",
    "pygls": "lsp", "lsprotocol": "lsp",
    "opentelemetry": "otel",
    "ray": "ray",
}

_present: set[str] = set()   # extras already found complete (find_spec once per process)


class MissingExtra(SynError):
    """A feature was used whose extra is not installed: a language error naming the install."""


def advice(extra: str, feature: str) -> str:
    """The message for `feature` needing `extra`."""
    return (f"{feature} needs synsema's optional '{extra}' part, which is not installed here; "
            f"install it with: pip install 'synsema[{extra}]'")


def missing(extra: str, feature: str) -> MissingExtra:
    return MissingExtra(advice(extra, feature), code="missing_extra",
                        hint=f"pip install 'synsema[{extra}]' (or 'synsema[all]' for every part)")


def need(extra: str, feature: str) -> None:
    """Raise MissingExtra unless every package of `extra` can be imported (nothing is imported)."""
    if extra in _present:
        return
    for module, owner in MODULES.items():
        if owner == extra and importlib.util.find_spec(module) is None:
            raise missing(extra, feature)
    _present.add(extra)


def explain(problem: BaseException, feature: str) -> MissingExtra | None:
    """The MissingExtra for an ImportError of a package an extra provides, else None."""
    if not isinstance(problem, ModuleNotFoundError) or not problem.name:
        return None
    extra = MODULES.get(problem.name.split(".")[0])
    return None if extra is None else missing(extra, feature)
