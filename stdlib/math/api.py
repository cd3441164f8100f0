"""The Python API of the math library: find, describe, run, check, prewarm (MATH.md §7).

`run` is the seed's ordinary path: select the declaration, parse its Pydantic request once,
execute the domain function in an isolated child, return the concrete typed result. Everything
that is not mathematics fails with a `MathError` whose message is deterministic text.
"""

from __future__ import annotations

import difflib
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from . import catalog, isolation
from .errors import MathError
from .index import IDENTIFIERS
from .primitives import canonical_json
from .tool import MathTool

MAX_LIMIT = 100
MAX_BATCH = 1000


class Issue(BaseModel):
    """One reason a payload was rejected: where, a stable code, and a message."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)
    path: str
    code: str
    message: str


class CheckReport(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)
    valid: bool
    issues: list[Issue]


def find(query: str = "", domain: str | None = None, detail: str = "summary",
         limit: int = 10) -> list[catalog.CatalogEntry]:
    """Catalog entries matching `query` (all when empty), best first."""
    problems = []
    if not isinstance(query, str):
        problems.append(f"query must be text, got {type(query).__name__}")
    if domain is not None and domain not in catalog.DOMAINS:
        problems.append(f"unknown domain {domain!r}; domains: {', '.join(catalog.DOMAINS)}")
    if detail not in ("summary", "full"):
        problems.append(f"detail must be \"summary\" or \"full\", got {detail!r}")
    if type(limit) is not int or not 1 <= limit <= MAX_LIMIT:
        problems.append(f"limit must be an integer from 1 to {MAX_LIMIT}, got {limit!r}")
    if problems:
        raise MathError.build("invalid_argument", None, [f"- {p}" for p in problems],
                              verb="math.find")
    build = catalog.detail if detail == "full" else catalog.entry
    return [build(tool) for tool in catalog.search(query, domain)[:limit]]


def describe(identifier: str) -> catalog.CatalogDetail:
    """The full entry of one operation: claim, schemas, examples, bounds, deadline."""
    return catalog.detail(_tool(identifier, "math.describe"))


def run(identifier: str, payload: dict) -> BaseModel:
    """Validate `payload` against the operation's request model, run it isolated, and return
    the typed result (a Pydantic model)."""
    tool = _tool(identifier, "math.run")
    try:
        request = tool.request.model_validate(payload)
    except ValidationError as error:
        issues = issues_of(error, tool)
        lines = [f"- {i.path} [{i.code}]: {i.message}" for i in issues]
        lines.append(f"example: {canonical_json(tool.examples[0].payload)}")
        raise MathError.build("invalid_request", identifier, lines,
                              issues=tuple(i.model_dump() for i in issues)) from None
    return isolation.execute(tool, request)


def run_many(identifier: str, payloads: Any) -> list[dict]:
    """Run one operation over many payloads, in order; each item is `{"status": "ok",
    "result": ...}` (the typed result, dumped) or `{"status": "error", "kind", "message",
    "issues"}` with that item's failure in its place, and the other items still run.

    The batch is bounded by the sum of its items' bounds: at most MAX_BATCH items, each
    validated against the operation's request model and run in its own child under the
    operation's own deadline, exactly as `run` runs one. An unknown identifier or a list that
    is not a list of at most MAX_BATCH items fails the whole call (nothing runs).
    """
    tool = _tool(identifier, "math.run_many")
    if not isinstance(payloads, list) or len(payloads) > MAX_BATCH:
        got = (f"{len(payloads)} items" if isinstance(payloads, list)
               else type(payloads).__name__)
        raise MathError.build("invalid_argument", identifier, [
            f"- payloads must be a list of at most {MAX_BATCH} payload maps, got {got}"],
            verb="math.run_many")
    out = []
    for payload in payloads:
        try:
            result = run(tool.identifier, payload) if isinstance(payload, dict) else None
        except MathError as problem:
            out.append({"status": "error", "kind": problem.kind, "message": str(problem),
                        "issues": [dict(i) for i in problem.issues]})
            continue
        if result is None:
            message = (f"math.run {tool.identifier}: invalid_request\n- (payload) [model_type]: "
                       f"each payload must be a map, got {type(payload).__name__}")
            out.append({"status": "error", "kind": "invalid_request", "message": message,
                        "issues": [{"path": "(payload)", "code": "model_type",
                                    "message": "each payload must be a map"}]})
            continue
        out.append({"status": "ok", "result": result.model_dump(mode="json")})
    return out


def prewarm(domains: Any) -> list[str]:
    """Load the backends the operations of `domains` (domain names, or "all") need into the
    worker now rather than on their first call; the backends the worker holds, sorted.

    An empty list loads nothing and only reports, which is how to see that an operation such
    as nt.integer.gcd ran without any backend.
    """
    if domains == "all":
        domains = list(catalog.DOMAINS)
    if not isinstance(domains, list):
        problems = ["domains must be a list of domain names or \"all\""]
    else:
        problems = [f"unknown domain {d!r}; domains: {', '.join(catalog.DOMAINS)}"
                    for d in domains if d not in catalog.DOMAINS]
    if problems:
        raise MathError.build("invalid_argument", None, [f"- {p}" for p in problems],
                              verb="math.prewarm")
    return isolation.load(sorted(set(domains)))


def check(identifier: str, payload: Any) -> CheckReport:
    """Validate without running; never raises for a bad identifier or payload."""
    tool = catalog.get(identifier) if isinstance(identifier, str) else None
    if tool is None:
        return CheckReport(valid=False, issues=[Issue(
            path="", code="unknown_operation", message=_unknown_text(identifier))])
    try:
        tool.request.model_validate(payload)
    except ValidationError as error:
        return CheckReport(valid=False, issues=issues_of(error, tool))
    return CheckReport(valid=True, issues=[])


def issues_of(error: ValidationError, tool: MathTool) -> list[Issue]:
    """Pydantic's errors as issues with dotted paths (`matrix.rows[1]`) and stable codes."""
    fields = list(tool.request.model_fields)
    out = []
    for e in error.errors(include_url=False):
        path = ""
        for part in e["loc"]:
            path += f"[{part}]" if isinstance(part, int) else (f".{part}" if path else part)
        message = e["msg"]
        if e["type"] == "extra_forbidden" and len(e["loc"]) == 1:
            close = difflib.get_close_matches(str(e["loc"][0]), fields, n=1)
            if close:
                message += f" (did you mean {close[0]!r}?)"
        if e["type"] == "missing" and len(e["loc"]) == 1:
            message += f" (fields: {', '.join(fields)})"
        out.append(Issue(path=path or "(payload)", code=e["type"], message=message))
    return out


def _tool(identifier: Any, verb: str) -> MathTool:
    tool = catalog.get(identifier) if isinstance(identifier, str) else None
    if tool is None:
        raise MathError.build("unknown_operation", str(identifier),
                              ["- " + _unknown_text(identifier)], verb=verb)
    return tool


def _unknown_text(identifier: Any) -> str:
    close = difflib.get_close_matches(str(identifier), IDENTIFIERS, n=3, cutoff=0.5)
    if close:
        return "did you mean: " + ", ".join(close)
    return "no such operation; math.find lists them (domains: " + ", ".join(
        catalog.DOMAINS) + ")"
