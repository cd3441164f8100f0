"""Private adapter: one checked SMT query decided by z3 in a fresh context.

Terms are built from the checked syntax tree of `stdlib.math.domains.smtlib`, never from text,
so nothing in the request reaches z3's parser or its global parameters. The budget is z3's
deterministic `rlimit` plus a wall-clock timeout just below the deadline. Models are completed:
every declared constant gets a value, and every declared function gets a finite table at the
argument tuples the query applies it to plus a default, which is all a quantifier-free query
can observe.
"""

from __future__ import annotations

import functools
import operator
from fractions import Fraction

import z3

from ..domains.smtlib import (MODEL_DIGITS, Assertion, Declaration, Definition, Script, Term,
                              sort_text)
from ..errors import BackendFault

_BOOL_OPS = {"and": z3.And, "or": z3.Or, "xor": lambda *a: functools.reduce(z3.Xor, a)}
_BV_NARY = {"bvand": operator.and_, "bvor": operator.or_, "bvxor": operator.xor,
            "bvadd": operator.add, "bvmul": operator.mul}
_BV_BINARY = {"bvudiv": z3.UDiv, "bvurem": z3.URem, "bvsdiv": operator.truediv,
              "bvsrem": z3.SRem, "bvsmod": operator.mod, "bvshl": operator.lshift,
              "bvlshr": z3.LShR, "bvashr": operator.rshift, "bvsub": operator.sub,
              "bvnand": lambda a, b: ~(a & b), "bvnor": lambda a, b: ~(a | b),
              "bvxnor": lambda a, b: ~(a ^ b),
              "bvult": z3.ULT, "bvule": z3.ULE, "bvugt": z3.UGT, "bvuge": z3.UGE,
              "bvslt": operator.lt, "bvsle": operator.le, "bvsgt": operator.gt,
              "bvsge": operator.ge}
_COMPARE = {"<=": operator.le, "<": operator.lt, ">=": operator.ge, ">": operator.gt}


class _Builder:
    def __init__(self, script: Script):
        self.ctx = z3.Context()
        self.sorts = {name: z3.DeclareSort(name, self.ctx) for name in script.sorts}
        self.functions: dict[str, z3.FuncDeclRef] = {}
        self.definitions: dict[str, Definition] = {}
        self.built: dict[str, tuple[list, z3.ExprRef]] = {}

    def sort(self, sort: tuple) -> z3.SortRef:
        kind = sort[0]
        if kind == "Bool":
            return z3.BoolSort(self.ctx)
        if kind == "Int":
            return z3.IntSort(self.ctx)
        if kind == "Real":
            return z3.RealSort(self.ctx)
        if kind == "BitVec":
            return z3.BitVecSort(sort[1], self.ctx)
        return self.sorts[sort[1]]

    def load(self, script: Script) -> list[tuple[Assertion, z3.ExprRef]]:
        """Declare and define in script order; each assertion with its built term."""
        out = []
        for command in script.commands:
            if isinstance(command, Declaration):
                self.declare(command)
            elif isinstance(command, Definition):
                self.define(command)
            elif isinstance(command, Assertion):
                out.append((command, self.term(command.term, {})))
        return out

    def declare(self, d: Declaration) -> None:
        self.functions[d.name] = z3.Function(d.name, *(self.sort(s) for s in d.domain),
                                             self.sort(d.sort))

    def define(self, d: Definition) -> None:
        self.definitions[d.name] = d

    def definition(self, name: str) -> tuple[list, z3.ExprRef]:
        """A defined function's parameters and body, built on its first use: a definition
        no assertion reaches is never expanded (the request check bounds those that are)."""
        if name not in self.built:
            d = self.definitions[name]
            params = [z3.FreshConst(self.sort(s), prefix=p) for p, s in d.params]
            scope = {p: const for (p, _), const in zip(d.params, params)}
            self.built[name] = (params, self.term(d.body, scope))
        return self.built[name]

    def term(self, t: Term, scope: dict) -> z3.ExprRef:
        ctx = self.ctx
        if t.kind == "bool":
            return z3.BoolVal(t.value, ctx)
        if t.kind == "int":
            return z3.IntVal(t.value, ctx)
        if t.kind == "real":
            return z3.RealVal(f"{t.value.numerator}/{t.value.denominator}", ctx)
        if t.kind == "bv":
            return z3.BitVecVal(t.value, t.sort[1], ctx)
        if t.kind == "ref":
            return scope[t.name]
        if t.kind == "let":
            inner = dict(scope)
            for name, bound in t.bindings:
                inner[name] = self.term(bound, scope)
            return self.term(t.body, inner)
        args = [self.term(a, scope) for a in t.args]
        if t.kind == "app":
            if t.name in self.definitions:
                params, body = self.definition(t.name)
                return z3.substitute(body, *zip(params, args)) if params else body
            return self.functions[t.name](*args)
        return self.operator(t, args)

    def operator(self, t: Term, args: list) -> z3.ExprRef:
        name = t.name
        if name == "not":
            return z3.Not(args[0])
        if name in _BOOL_OPS:
            return _BOOL_OPS[name](*args)
        if name == "=>":
            return functools.reduce(lambda acc, a: z3.Implies(a, acc), reversed(args[:-1]),
                                    args[-1])
        if name == "=":
            return z3.And(*(a == b for a, b in zip(args, args[1:])))
        if name == "distinct":
            return z3.Distinct(*args)
        if name == "ite":
            return z3.If(*args)
        if name == "+":
            return functools.reduce(operator.add, args)
        if name == "-":
            return -args[0] if len(args) == 1 else functools.reduce(operator.sub, args)
        if name == "*":
            return functools.reduce(operator.mul, args)
        if name == "/":
            return functools.reduce(operator.truediv, args)
        if name == "div":
            return args[0] / args[1]
        if name == "mod":
            return args[0] % args[1]
        if name == "abs":
            return z3.Abs(args[0])
        if name in _COMPARE:
            return z3.And(*(_COMPARE[name](a, b) for a, b in zip(args, args[1:])))
        if name == "to_real":
            return z3.ToReal(args[0])
        if name == "to_int":
            return z3.ToInt(args[0])
        if name == "is_int":
            return z3.IsInt(args[0])
        if name in _BV_NARY:
            return functools.reduce(_BV_NARY[name], args)
        if name in _BV_BINARY:
            return _BV_BINARY[name](*args)
        if name == "bvnot":
            return ~args[0]
        if name == "bvneg":
            return -args[0]
        if name == "bvcomp":
            return z3.If(args[0] == args[1], z3.BitVecVal(1, 1, self.ctx),
                         z3.BitVecVal(0, 1, self.ctx))
        if name == "concat":
            return z3.Concat(*args)
        if name == "extract":
            return z3.Extract(t.indices[0], t.indices[1], args[0])
        if name == "zero_extend":
            return z3.ZeroExt(t.indices[0], args[0])
        if name == "sign_extend":
            return z3.SignExt(t.indices[0], args[0])
        if name == "repeat":
            return z3.RepeatBitVec(t.indices[0], args[0])
        if name == "rotate_left":
            return z3.RotateLeft(args[0], t.indices[0])
        if name == "rotate_right":
            return z3.RotateRight(args[0], t.indices[0])
        raise BackendFault("unsupported_operator")


def _digits_ok(text: str) -> str:
    """The request contract bounds model numbers (smtlib.MODEL_DIGITS); a larger one means the
    argument behind that bound failed, which is a contract bug, not an answer."""
    if len(text.lstrip("-")) > MODEL_DIGITS:
        raise BackendFault("model_value_too_large")
    return text


def _scalar(value: z3.ExprRef, sort: tuple) -> dict:
    """A z3 model value as the library's tagged scalar value."""
    kind = sort[0]
    if kind == "Bool":
        if z3.is_true(value) or z3.is_false(value):
            return {"kind": "bool", "value": z3.is_true(value)}
    elif kind == "Int" and z3.is_int_value(value):
        return {"kind": "int", "value": int(_digits_ok(value.as_string()))}
    elif kind == "Real" and z3.is_rational_value(value):
        num = int(_digits_ok(value.numerator().as_string()))
        den = int(_digits_ok(value.denominator().as_string()))
        return {"kind": "real", "value": Fraction(num, den)}
    elif kind == "BitVec" and z3.is_bv_value(value):
        return {"kind": "bitvec", "width": sort[1], "value": value.as_long()}
    elif kind == "Sort" and z3.is_const(value):
        return {"kind": "element", "sort": sort[1], "label": str(value)}
    raise BackendFault("model_value_not_literal")


def _applications(assertions: list[z3.ExprRef], wanted: dict[int, str]) -> dict[str, list]:
    """For each declared function (by decl id), the distinct applications in the query."""
    found: dict[str, list] = {name: [] for name in wanted.values()}
    seen, stack = set(), list(assertions)
    while stack:
        e = stack.pop()
        if e.get_id() in seen:
            continue
        seen.add(e.get_id())
        if z3.is_app(e):
            name = wanted.get(e.decl().get_id())
            if name is not None:
                found[name].append(e)
            stack.extend(e.children())
    return found


def _model(builder: _Builder, script: Script, model: z3.ModelRef, assertions: list) -> list:
    functions = {builder.functions[d.name].get_id(): d.name
                 for d in script.declarations if d.domain}
    applications = _applications(assertions, functions)
    entries = []
    for d in script.declarations:
        decl = builder.functions[d.name]
        if not d.domain:
            value = _scalar(model.eval(decl(), model_completion=True), d.sort)
            entries.append({"name": d.name, "arguments": [], "sort": sort_text(d.sort),
                            "value": value})
            continue
        table: dict[tuple, dict] = {}
        for app in applications[d.name]:
            args = [_scalar(model.eval(a, model_completion=True), s)
                    for a, s in zip(app.children(), d.domain)]
            key = tuple((a["kind"], a.get("value", a.get("label"))) for a in args)
            if key not in table:
                table[key] = {"args": args, "value": _scalar(
                    model.eval(app, model_completion=True), d.sort)}
        rows = [table[k] for k in sorted(table)]
        if rows:
            fallback = rows[0]["value"]
        else:  # never applied: any value of the range sort will do; ask the completed model
            probe = decl(*(z3.FreshConst(builder.sort(s)) for s in d.domain))
            fallback = _scalar(model.eval(probe, model_completion=True), d.sort)
        entries.append({"name": d.name, "arguments": [sort_text(s) for s in d.domain],
                        "sort": sort_text(d.sort),
                        "value": {"kind": "function", "entries": rows, "else_value": fallback}})
    return entries


def solve(script: Script, resource_limit: int, timeout_ms: int, want_core: bool) -> dict:
    """Decide the query. Returns {"status": "sat", "model": [...]}, {"status": "unsat",
    "core": [...] or None}, or {"status": "unknown", "reason": text, "resource_used": n}."""
    builder = _Builder(script)
    solver = z3.SolverFor(script.logic, ctx=builder.ctx)
    solver.set("rlimit", resource_limit)
    solver.set("timeout", timeout_ms)
    assertions, trackers = [], {}
    for command, term in builder.load(script):
        assertions.append(term)
        if want_core and command.label is not None:
            tracker = z3.FreshBool("track", builder.ctx)
            trackers[tracker.get_id()] = command.label
            solver.assert_and_track(term, tracker)
        else:
            solver.add(term)
    verdict = solver.check()
    if verdict == z3.sat:
        return {"status": "sat", "model": _model(builder, script, solver.model(), assertions)}
    if verdict == z3.unsat:
        core = None
        if want_core:
            core = sorted(trackers[t.get_id()] for t in solver.unsat_core())
        return {"status": "unsat", "core": core}
    statistics = solver.statistics()
    used = statistics.get_key_value("rlimit count") if "rlimit count" in statistics.keys() \
        else 0
    return {"status": "unknown", "reason": solver.reason_unknown(), "resource_used": int(used)}


# --- the nonlinear logics (smt.nonlinear.solve) --------------------------------------------

class ModelTooLarge(Exception):
    """A model number with more digits than a result may carry; `digits` says how many."""

    def __init__(self, digits: int):
        super().__init__(digits)
        self.digits = digits


def _nl_scalar(value: z3.ExprRef, sort: tuple, max_digits: int) -> dict:
    """A model value of QF_NIA/QF_NRA: bool, int, rational, or a real algebraic number named by
    its defining polynomial (integer coefficients, highest degree first) and the index of the
    root among its real roots in increasing order (z3's exact representation)."""
    def digits_ok(text: str) -> str:
        if len(text.lstrip("-")) > max_digits:
            raise ModelTooLarge(len(text.lstrip("-")))
        return text
    if sort == ("Bool",) and (z3.is_true(value) or z3.is_false(value)):
        return {"kind": "bool", "value": z3.is_true(value)}
    if sort == ("Int",) and z3.is_int_value(value):
        return {"kind": "int", "value": int(digits_ok(value.as_string()))}
    if sort == ("Real",) and z3.is_rational_value(value):
        return {"kind": "real", "value": Fraction(int(digits_ok(value.numerator().as_string())),
                                                  int(digits_ok(value.denominator().as_string())))}
    if sort == ("Real",) and z3.is_algebraic_value(value):
        low_first = [int(digits_ok(c.as_string())) for c in value.poly()]
        return {"kind": "algebraic", "polynomial": list(reversed(low_first)),
                "index": int(value.index()), "approx": value.approx(20).as_decimal(20)}
    raise BackendFault("model_value_not_literal")


def _nl_model(builder: _Builder, script: Script, model: z3.ModelRef, max_digits: int) -> list:
    return [{"name": d.name, "arguments": [], "sort": sort_text(d.sort),
             "value": _nl_scalar(model.eval(builder.functions[d.name](), model_completion=True),
                                 d.sort, max_digits)}
            for d in script.declarations]


def solve_nonlinear(script: Script, resource_limit: int, timeout_ms: int,
                    objective: tuple[str, str] | None, rounds: int, max_digits: int) -> dict:
    """Decide the query, or optimise `objective` = (constant, "minimize" | "maximize") by
    repeated checks: galloping then bisection on the objective's value, each bound a
    constraint of the same logic; at most `rounds` checks after the first, all of them
    together within `resource_limit` rlimit units and `timeout_ms`.

    Returns {"status": "sat"|"unsat"|"unknown"|"optimal"|"feasible", ...}: a model (when one
    was found) with "algebraic_checked" (z3 evaluated every assertion to true on a model with
    an algebraic value), the objective's value, a proved strict lower bound ("above") for
    minimisation, the checks made and the reason for stopping; or {"status": "too_large",
    "digits": n}."""
    import time
    started = time.monotonic()
    builder = _Builder(script)
    solver = z3.SolverFor(script.logic, ctx=builder.ctx)
    assertions = [term for _, term in builder.load(script)]
    solver.add(*assertions)
    used, why = [0], [""]

    def check(*extra) -> z3.CheckSatResult:
        """One check within what is left of both budgets; `why` holds the reason of an
        unknown (z3's, or the budget already spent before the check)."""
        remaining_ms = timeout_ms - int((time.monotonic() - started) * 1000)
        if remaining_ms <= 0 or used[0] >= resource_limit:
            why[0] = "timeout" if remaining_ms <= 0 else "canceled"
            return z3.unknown
        solver.set("rlimit", resource_limit - used[0])
        solver.set("timeout", remaining_ms)
        verdict = solver.check(*extra)
        statistics = solver.statistics()
        if "rlimit count" in statistics.keys():  # cumulative over this solver's checks
            used[0] = max(used[0], int(statistics.get_key_value("rlimit count")))
        if verdict == z3.unknown:
            why[0] = solver.reason_unknown()
        return verdict

    def described(model: z3.ModelRef) -> dict:
        try:
            entries = _nl_model(builder, script, model, max_digits)
        except ModelTooLarge as error:
            return {"too_large": error.digits}
        algebraic = any(e["value"]["kind"] == "algebraic" for e in entries)
        if algebraic and not all(z3.is_true(model.eval(a, model_completion=True))
                                 for a in assertions):
            raise BackendFault("nonlinear_model_fails_an_assertion")
        return {"model": entries, "algebraic_checked": algebraic}

    verdict = check()
    if verdict == z3.unsat:
        return {"status": "unsat", "checks": 1, "resource_used": used[0]}
    if verdict != z3.sat:
        return {"status": "unknown", "reason": why[0], "checks": 1, "resource_used": used[0]}
    model = solver.model()
    if objective is None:
        found = described(model)
        return {"status": "too_large", "digits": found["too_large"]} if "too_large" in found \
            else {"status": "sat", **found, "checks": 1, "resource_used": used[0]}
    name, sense = objective
    constant = builder.functions[name]()
    t = constant if sense == "minimize" else -constant
    integer = script_sort(script, name) == ("Int",)
    hi = z3.simplify(model.eval(t, model_completion=True))
    lo, step, strict_next, checks, reason, status = None, 1, False, 1, "rounds", "feasible"
    for _ in range(rounds):
        if integer and lo is not None and hi.as_long() - lo.as_long() <= 1:
            status, reason = "optimal", "proved"
            break
        # targets are rational (an algebraic hi is replaced by a rational within 10^-30 of
        # it, which keeps every bound below hi and every constraint in z3's linear reach)
        near = hi.approx(30) if z3.is_algebraic_value(hi) else hi
        if lo is None:
            bound = z3.simplify(near - step)
            probe = t <= bound
        elif strict_next:
            bound, probe = None, t < hi
        else:
            bound = z3.simplify((lo + near) / 2)
            probe = t <= bound
        verdict = check(probe)
        checks += 1
        if verdict == z3.sat:
            model = solver.model()
            hi = z3.simplify(model.eval(t, model_completion=True))
            step, strict_next = step * 2, False
        elif verdict == z3.unsat:
            if bound is None:
                status, reason = "optimal", "proved"
                break
            lo, strict_next = bound, not integer
        else:
            reason = why[0]
            break
    else:
        if integer and lo is not None and hi.as_long() - lo.as_long() <= 1:
            status, reason = "optimal", "proved"
    found = described(model)
    if "too_large" in found:
        return {"status": "too_large", "digits": found["too_large"]}
    sign = 1 if sense == "minimize" else -1
    value = _nl_scalar(z3.simplify(sign * hi), script_sort(script, name), max_digits)
    bound_value = None if lo is None else _nl_scalar(z3.simplify(sign * lo),
                                                      script_sort(script, name), max_digits)
    return {"status": status, **found, "value": value, "bound": bound_value, "reason": reason,
            "checks": checks, "resource_used": used[0]}


def script_sort(script: Script, name: str) -> tuple:
    return next(d.sort for d in script.declarations if d.name == name)
