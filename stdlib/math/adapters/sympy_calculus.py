"""Private adapter: the pole that makes calculus.integrate.definite diverge, isolated by
sympy's root isolation (a factorisation and Sturm counts).

Imported only when adapters/flint_rational.real_root_between has found a real root of the
reduced denominator in the interval: the interval published with the pole comes from sympy's
isolation algorithm (recorded answers: tests/math/data/definite_answers.json), so this step
stays on sympy while the residue form and the yes/no test run on FLINT. Values cross as
coefficient lists, highest degree first.
"""

from __future__ import annotations

from fractions import Fraction

from sympy import Poly, QQ, ZZ

from ..errors import BackendFault
from .sympy_poly import X


def pole_between(denominator: list[int], low: Fraction, high: Fraction
                 ) -> tuple[list[int], Fraction, Fraction]:
    """A real root of the integer polynomial `denominator` in [low, high], which has one
    (flint_rational.real_root_between said so; sympy's Sturm count must agree), as
    (irreducible factor, lo, hi) with low <= lo <= hi <= high and exactly one root of the
    factor in [lo, hi] (lo == hi exactly when the root is rational)."""
    def qq(v: Fraction):
        return QQ(v.numerator, v.denominator)
    poly = Poly.from_list(denominator, X, domain=ZZ)
    if poly.count_roots(qq(low), qq(high)) == 0:
        raise BackendFault("pole_count_mismatch")
    for factor, _ in poly.factor_list()[1]:
        for (s, t), _ in factor.intervals():  # isolating: one root of the factor in each
            lo = max(Fraction(int(s.p), int(s.q)), low)
            hi = min(Fraction(int(t.p), int(t.q)), high)
            if lo <= hi and factor.count_roots(qq(lo), qq(hi)) == 1:
                cs = [int(c) for c in factor.all_coeffs()]
                if len(cs) == 2:  # a rational pole: stated exactly
                    lo = hi = Fraction(-cs[1], cs[0])
                return ([-c for c in cs] if cs[0] < 0 else cs), lo, hi
    raise BackendFault("pole_not_isolated")
