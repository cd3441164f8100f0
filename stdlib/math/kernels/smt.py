"""The kernel of `smt.solve` (declared in domains/smt.py): one SMT-LIB query read by
domains/smtlib.py, decided by z3 (adapters/z3_smt.py) within its rlimit and z3's own timeout,
and z3's unknown reasons sorted into the kinds the result names."""

from __future__ import annotations

from ..domains import smtlib

# z3's own wall-clock budget (as smt.nonlinear.solve's), so the whole call stays near 20% of
# the deadline: where rlimit undercounts (bit-blasting a
# QF_BV product) the call still ends as a graceful `unknown` with z3's reason, not a kill.
Z3_TIMEOUT_MS = 1200


def script_problem(self):
    """The script is one bounded query inside the declared logic (smtlib.read's rules)."""
    try:
        smtlib.read(self.script, self.logic)
    except smtlib.SmtError as error:
        return (error.code, str(error), ("script",))
    return None


def solve(request) -> dict:
    from ..adapters import z3_smt as backend
    outcome = backend.solve(smtlib.read(request.script, request.logic), request.resource_limit, Z3_TIMEOUT_MS,
                            request.unsat_core)
    if outcome["status"] == "sat":
        return {"status": "sat", "model": outcome["model"]}
    if outcome["status"] == "unsat":
        return {"status": "unsat", "core": outcome["core"]}
    reason, used = outcome["reason"], outcome["resource_used"]
    if reason == "timeout" or "resource limit" in reason or (
            reason == "canceled" and used >= request.resource_limit):
        kind = "resource_limit"  # either stated budget: rlimit or z3's Z3_TIMEOUT_MS
    elif "incomplete" in reason:
        kind = "incomplete_theory"
    else:
        kind = "other"
    return {"status": "unknown", "reason_kind": kind, "reason": reason,
            "resource_limit": request.resource_limit, "resource_used": used,
            "deadline_ms": None, "elapsed_ms": None}
