"""The kernel of `poly.system.solve` (declared in domains/polysystem.py, whose docstring explains
the method): the request's shape rules (a problem finder both validation paths run) and the
result built from what the adapter computes (adapters/flint_groebner.py)."""

from __future__ import annotations

import math
from fractions import Fraction

from .checks import value_at

MAX_VARIABLES = 4
MAX_EQUATIONS = 8
MAX_DEGREE = 8
MAX_BEZOUT = 9

TERMS = "system_terms"          # polysystem.RULE_TERMS's code
BEZOUT = "system_bezout"        # polysystem.RULE_BEZOUT's code
VARIABLES = "system_variables"  # polysystem.RULE_VARIABLES's code
DEGREE = "system_degree"


def system_problem(self):
    """Distinct names, one exponent per variable, nonzero and distinct terms, total degree at
    most MAX_DEGREE, n equations at least and the Bézout number at most MAX_BEZOUT."""
    n = len(self.variables)
    if len(set(self.variables)) != n:
        return (VARIABLES, "a variable is named twice", ("variables",))
    degrees = []
    for i, equation in enumerate(self.equations):
        seen = set()
        for j, term in enumerate(equation.terms):
            where = ("equations", i, "terms", j)
            if len(term.exponents) != n:
                return (TERMS, f"{len(term.exponents)} exponents; there are {n} variables",
                        where + ("exponents",))
            if term.coefficient == 0:
                return (TERMS, "a coefficient is 0; leave the term out",
                        where + ("coefficient",))
            if tuple(term.exponents) in seen:
                return (TERMS, "two terms have the same exponents; add them",
                        where + ("exponents",))
            seen.add(tuple(term.exponents))
        degree = max(sum(t.exponents) for t in equation.terms)
        if degree > MAX_DEGREE:
            return (DEGREE, f"total degree {degree}; at most {MAX_DEGREE}", ("equations", i))
        degrees.append(degree)
    if len(degrees) < n:
        return (BEZOUT, f"{len(degrees)} equations in {n} unknowns never have finitely many "
                "solutions; add equations or remove unknowns", ("equations",))
    bezout = math.prod(sorted(degrees, reverse=True)[:n])
    if bezout > MAX_BEZOUT:
        return (BEZOUT, f"the Bézout number (product of the {n} largest degrees) is {bezout}; "
                f"at most {MAX_BEZOUT}", ("equations",))
    return None


def _terms(terms: dict) -> dict:
    return {"terms": [{"coefficient": c, "exponents": list(m)} for m, c in terms.items()]}


def solve_system(request) -> dict:
    from ..adapters import flint_groebner as backend
    names = request.variables
    equations = [{tuple(t.exponents): t.coefficient for t in eq.terms}
                 for eq in request.equations]
    outcome = backend.solve(len(names), equations)
    basis = [_terms(b) for b in outcome[1]]
    if outcome[0] == "inconsistent":
        return {"status": "inconsistent", "groebner_basis": basis}
    if outcome[0] == "positive_dimensional":
        pure = {i for b in outcome[1] for m in [next(iter(b))]
                for i, e in enumerate(m) if e and sum(m) == e}
        return {"status": "positive_dimensional", "groebner_basis": basis,
                "unbounded": [v for i, v in enumerate(names) if i not in pure]}
    _, _, dim, distinct, separating, families = outcome
    t = next(name for name in ("t", "u", "w", "theta", "root") if name not in names)
    solutions = []
    for p, e, gs, g0 in families:
        root = Fraction(-p[1], p[0]) if len(p) == 2 else None
        solutions.append({
            "polynomial": {"variable": t, "coefficients": p}, "multiplicity": e,
            "coordinates": [{"variable": t, "coefficients": g} for g in gs],
            "denominator": {"variable": t, "coefficients": g0},
            "point": None if root is None else [value_at(g, root) / value_at(g0, root)
                                                for g in gs]})
    return {"status": "finite", "groebner_basis": basis, "count_with_multiplicity": dim,
            "distinct": distinct, "separating": separating, "solutions": solutions}
