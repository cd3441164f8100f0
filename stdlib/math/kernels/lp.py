"""The kernel of `opt.lp.solve` (declared in domains/lp.py, which explains the method): the exact
simplex of domains/simplex.py, and each outcome's certificate checked in exact arithmetic."""

from __future__ import annotations

from fractions import Fraction

from ..errors import BackendFault

MAX_SIZE = 20
SHAPE = "lp_shape"


def inequalities(request) -> tuple[list, list]:
    """(A, b) of A x <= b, both empty without inequalities."""
    return ([], []) if request.a is None else (request.a.rows, list(request.b))


def equalities(request) -> tuple[list, list]:
    """(E, f) of E x = f, both empty without equalities."""
    return ([], []) if request.e is None else (request.e.rows, list(request.f))


def shape_problem(self):
    """a and b given together, e and f too, each with matching lengths; at most 20 rows."""
    for matrix, rhs, names in ((self.a, self.b, ("a", "b")), (self.e, self.f, ("e", "f"))):
        if (matrix is None) != (rhs is None):
            return (SHAPE, f"{names[0]} and {names[1]} must be given together",
                    (names[1] if rhs is None else names[0],))
        if matrix is None:
            continue
        if len(rhs) != matrix.nrows:
            return (SHAPE, f"{names[1]} has {len(rhs)} entries; {names[0]} has "
                    f"{matrix.nrows} rows", (names[1],))
        if matrix.ncols != len(self.c):
            return (SHAPE, f"c has {len(self.c)} entries; {names[0]} has "
                    f"{matrix.ncols} columns", ("c",))
    if len(inequalities(self)[0]) + len(equalities(self)[0]) > MAX_SIZE:
        return (SHAPE, f"a and e have more than {MAX_SIZE} rows together", ("e",))
    return None


def _dot(u, v) -> Fraction:
    return sum((Fraction(p) * Fraction(q) for p, q in zip(u, v)), Fraction(0))


def _times(rows, v) -> list[Fraction]:
    return [_dot(row, v) for row in rows]


def _feasible(request, x) -> bool:
    (a, b), (e, f) = inequalities(request), equalities(request)
    return (len(x) == len(request.c) and all(v >= 0 for v in x)
            and all(l <= r for l, r in zip(_times(a, x), b))
            and all(l == r for l, r in zip(_times(e, x), f)))


def solve_lp(request) -> dict:
    # imported here: the interpreter imports this module for shape_problem alone
    from ..domains.simplex import PivotBudgetExhausted, minimise
    (a, b), (e, f) = inequalities(request), equalities(request)
    c, n, m = list(request.c), len(request.c), len(a)
    columns = list(zip(*(a + e))) if a or e else [() for _ in c]
    try:
        outcome = minimise(c, a, b, e, f, request.pivot_budget)
    except PivotBudgetExhausted as stop:
        if stop.x is not None and not _feasible(request, stop.x):
            raise BackendFault("incomplete_point_infeasible") from None
        return {"status": "incomplete", "pivots": stop.pivots, "phase": stop.phase, "x": stop.x,
                "value": stop.value}
    if outcome.status == "unbounded":
        d = outcome.ray
        if (not _feasible(request, outcome.x) or any(v < 0 for v in d)
                or any(v > 0 for v in _times(a, d)) or any(_times(e, d)) or _dot(c, d) >= 0):
            raise BackendFault("unbounded_certificate_failed")
        return {"status": "unbounded", "x": outcome.x, "ray": d, "pivots": outcome.pivots}
    # The simplex's row multipliers lambda become y = -lambda (inequalities), w = -lambda.
    y = [-v for v in outcome.multipliers[:m]]
    w = [-v for v in outcome.multipliers[m:]]
    combined = [_dot(col, y + w) for col in columns]
    if outcome.status == "infeasible":
        if any(v < 0 for v in y) or any(v < 0 for v in combined) or _dot(b + f, y + w) >= 0:
            raise BackendFault("farkas_certificate_failed")
        return {"status": "infeasible", "farkas": y, "farkas_eq": w, "pivots": outcome.pivots}
    value = _dot(c, outcome.x)
    if (not _feasible(request, outcome.x) or any(v < 0 for v in y)
            or any(ci + v < 0 for ci, v in zip(c, combined)) or -_dot(b + f, y + w) != value):
        raise BackendFault("duality_certificate_failed")
    return {"status": "optimal", "value": value, "x": outcome.x, "dual": y, "dual_eq": w,
            "pivots": outcome.pivots}
