"""The failures of the math library that are not mathematics (MATH.md §7.2).

A mathematical outcome -- `unknown`, `not_invertible`, `inconsistent` -- is a result value and
never an exception. What remains is four kinds of failure, and each one reaches the caller as a
`MathError` whose text is deterministic, so a script's `recover err` can compare it and a model
can read it. No Python traceback text is ever part of it.

This module imports nothing heavy: the interpreter loads it at start-up to recognise the error.
"""

from __future__ import annotations

# The error kinds of MATH.md §7.2, plus `invalid_argument` for bad arguments to find/describe
# themselves (a query limit of 0, an unknown detail level), which are not operation requests.
KINDS = ("unknown_operation", "invalid_request", "execution_limit", "backend_fault",
         "invalid_argument")


class MathError(Exception):
    """A non-mathematical failure of `find`, `describe`, `run` or `check`.

    `str(error)` is the full deterministic message (first line `math.run ID: kind`, then one line
    per detail). The structured parts stay available for programs that want them: `kind`,
    `identifier`, `issues` (a tuple of `{path, code, message}` dicts for `invalid_request`) and
    `detail` (a dict, e.g. the limit and the elapsed milliseconds for `execution_limit`).
    """

    def __init__(self, message: str, *, kind: str = "invalid_request",
                 identifier: str | None = None, issues: tuple[dict, ...] = (),
                 detail: dict | None = None):
        if kind not in KINDS:
            raise ValueError(f"unknown MathError kind {kind!r}")
        super().__init__(message)
        self.message = message
        self.kind = kind
        self.identifier = identifier
        self.issues = tuple(issues)
        self.detail = dict(detail or {})

    def __str__(self) -> str:
        return self.message

    @classmethod
    def build(cls, kind: str, identifier: str | None, lines: list[str], *, verb: str = "math.run",
              issues: tuple[dict, ...] = (), detail: dict | None = None) -> "MathError":
        """The error whose message is `VERB ID: kind` followed by the given detail lines."""
        head = f"{verb} {identifier}: {kind}" if identifier is not None else f"{verb}: {kind}"
        return cls("\n".join([head, *lines]), kind=kind, identifier=identifier, issues=issues,
                   detail=detail)

    def one_line(self) -> str:
        """The message on one line (the command line prints errors this way)."""
        return "; ".join(line.lstrip("- ") if i else line
                         for i, line in enumerate(self.message.splitlines()))


class BackendFault(Exception):
    """Raised inside a domain function when a backend broke the operation's contract.

    `code` is a stable identifier (`model_value_too_large`, `factor_not_prime`, ...). The worker
    reports it as a `backend_fault` error; it never becomes a mathematical answer.
    """

    def __init__(self, code: str):
        super().__init__(code)
        self.code = code
