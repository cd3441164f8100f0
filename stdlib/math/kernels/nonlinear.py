"""The kernel of `smt.nonlinear.solve` (declared in domains/smt_nonlinear.py): one QF_NIA/QF_NRA
query read by domains/smtlib.py and decided (or optimised) by z3 within its budgets, a rational
model substituted into every assertion here, exactly; and the script/objective rule."""

from __future__ import annotations

from fractions import Fraction

from ..domains import smtlib
from ..errors import BackendFault
from .checks import OUTPUT_DIGITS


def script_problem(self):
    """The script is one bounded query of the logic, and an objective names a constant it
    declares with the logic's sort."""
    try:
        script = smtlib.read(self.script, self.logic)
    except smtlib.SmtError as error:
        return (error.code, str(error), ("script",))
    if self.objective is not None:
        sort = smtlib.INT if self.logic == "QF_NIA" else smtlib.REAL
        if not any(d.name == self.objective.constant and not d.domain and d.sort == sort
                   for d in script.declarations):
            return ("objective_not_declared", f"{self.objective.constant!r} is not a declared "
                    f"{sort[0]} constant of the script", ("objective", "constant"))
    return None


# z3's wall-clock budget for all checks of one request. nlsat's work is poorly counted by rlimit
# (a QF_NRA check spent 3 s on 240 000 units here, where 3 * 10^6 QF_NIA units take ~1.2 s), so
# the time budget is stated too; running out of either is an `unknown` (reason_kind
# resource_limit, reason "timeout" or "canceled"), never an answer.
TIME_BUDGET_MS = 1200


def _divide(n: Fraction, m: Fraction) -> tuple[int, int]:
    """SMT-LIB's integer div and mod: n = m q + r with 0 <= r < |m|."""
    q = int(n) // int(m) if m > 0 else -(int(n) // -int(m))
    r = int(n) - int(m) * q
    if r < 0:
        q, r = (q - 1, r + int(m)) if m > 0 else (q + 1, r - int(m))
    return q, r


def evaluate(t: smtlib.Term, env: dict, definitions: dict):
    """The value of a checked term under a rational model (Fractions and bools), exactly."""
    if t.kind in ("int", "real"):
        return Fraction(t.value)
    if t.kind == "bool":
        return t.value
    if t.kind == "ref":
        return env[t.name]
    if t.kind == "let":
        inner = dict(env)
        for name, bound in t.bindings:
            inner[name] = evaluate(bound, env, definitions)
        return evaluate(t.body, inner, definitions)
    args = [evaluate(a, env, definitions) for a in t.args]
    if t.kind == "app":
        if t.name in definitions:
            d = definitions[t.name]
            return evaluate(d.body, {p: v for (p, _), v in zip(d.params, args)}, definitions)
        return env[t.name]
    name = t.name
    pairs = list(zip(args, args[1:]))
    table = {
        "not": lambda: not args[0], "and": lambda: all(args), "or": lambda: any(args),
        "xor": lambda: sum(map(bool, args)) % 2 == 1,
        "=>": lambda: not all(args[:-1]) or args[-1],
        "=": lambda: all(a == b for a, b in pairs),
        "distinct": lambda: len(set(args)) == len(args),
        "ite": lambda: args[1] if args[0] else args[2],
        "+": lambda: sum(args, Fraction(0)),
        "-": lambda: -args[0] if len(args) == 1 else args[0] - sum(args[1:], Fraction(0)),
        "*": lambda: _product(args), "/": lambda: _quotient(args),
        "div": lambda: Fraction(_divide(args[0], args[1])[0]),
        "mod": lambda: Fraction(_divide(args[0], args[1])[1]),
        "abs": lambda: abs(args[0]),
        "<=": lambda: all(a <= b for a, b in pairs), "<": lambda: all(a < b for a, b in pairs),
        ">=": lambda: all(a >= b for a, b in pairs), ">": lambda: all(a > b for a, b in pairs),
    }
    if name not in table:
        raise BackendFault("nonlinear_operator_without_exact_meaning")
    return table[name]()


def _product(args: list[Fraction]) -> Fraction:
    value = Fraction(1)
    for a in args:
        value *= a
    return value


def _quotient(args: list[Fraction]) -> Fraction:
    value = args[0]
    for a in args[1:]:
        value /= a
    return value


def _checked(script: smtlib.Script, found: dict) -> tuple[list[dict], str]:
    """The model as result entries and how it was checked; a rational model is substituted
    into every assertion here (independently of z3)."""
    model = [{"name": e["name"], "sort": e["sort"], "value": e["value"]} for e in found["model"]]
    if found["algebraic_checked"]:
        return model, "z3_algebraic"
    env = {e["name"]: (e["value"]["value"] if e["value"]["kind"] == "bool"
                       else Fraction(e["value"]["value"])) for e in found["model"]}
    definitions = {d.name: d for d in script.commands if isinstance(d, smtlib.Definition)}
    for command in script.commands:
        if isinstance(command, smtlib.Assertion) and \
                evaluate(command.term, env, definitions) is not True:
            raise BackendFault("nonlinear_model_fails_an_assertion")
    return model, "exact"


def solve_nonlinear(request) -> dict:
    from ..adapters import z3_smt as backend
    script = smtlib.read(request.script, request.logic)
    objective = None if request.objective is None else (request.objective.constant,
                                                        request.objective.sense)
    outcome = backend.solve_nonlinear(script, request.resource_limit,
                                      TIME_BUDGET_MS, objective,
                                      request.rounds, OUTPUT_DIGITS)
    status = outcome["status"]
    if status == "unsat":
        return {"status": "unsat", "logic": request.logic}
    if status == "too_large":
        return {"status": "model_too_large", "digits": outcome["digits"]}
    if status == "unknown":
        reason = outcome["reason"]
        kind = ("resource_limit" if reason in ("canceled", "timeout") or
                outcome["resource_used"] >= request.resource_limit else
                "incomplete_theory" if "incomplete" in reason else "other")
        return {"status": "unknown", "reason_kind": kind, "reason": reason,
                "resource_limit": request.resource_limit,
                "resource_used": outcome["resource_used"], "deadline_ms": None,
                "elapsed_ms": None}
    model, check = _checked(script, outcome)
    if status == "sat":
        return {"status": "sat", "model": model, "check": check}
    if status == "optimal":
        return {"status": "optimal", "value": outcome["value"], "model": model,
                "check": check, "checks": outcome["checks"]}
    return {"status": "feasible", "value": outcome["value"], "model": model, "check": check,
            "bound": outcome["bound"], "stopped": outcome["reason"], "checks": outcome["checks"]}
