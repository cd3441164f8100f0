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
    for command in script.commands:
        if isinstance(command, Declaration):
            builder.declare(command)
        elif isinstance(command, Definition):
            builder.define(command)
        elif isinstance(command, Assertion):
            term = builder.term(command.term, {})
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
