"""Private adapter: sympy's exact simplex (`sympy.solvers.simplex.linprog`, two-phase with
Bland's rule over the rationals) with Fractions in and out."""

from __future__ import annotations

from fractions import Fraction

from sympy import Rational
from sympy.solvers.simplex import InfeasibleLPError, UnboundedLPError, linprog


def minimise(c: list[Fraction], a: list[list[Fraction]], b: list[Fraction], n: int
             ) -> tuple[str, list[Fraction] | None]:
    """("optimal", x) minimising c.x over A x <= b, x >= 0; ("infeasible" | "unbounded", None)."""
    q = lambda v: Rational(v.numerator, v.denominator)  # noqa: E731
    rows = [[q(Fraction(v)) for v in row] for row in a] if a else [[0] * n]
    rhs = [q(Fraction(v)) for v in b] if a else [0]
    try:
        _, x = linprog([q(Fraction(v)) for v in c], rows, rhs)
    except InfeasibleLPError:
        return "infeasible", None
    except UnboundedLPError:
        return "unbounded", None
    return "optimal", [Fraction(int(Rational(v).p), int(Rational(v).q)) for v in x]
