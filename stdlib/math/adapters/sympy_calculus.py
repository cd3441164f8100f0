"""Private adapter: the residue form of calculus.integrate.definite on sympy (Hermite
reduction by `ratint_ratpart`, a factorisation, Sturm counts and root isolation).

sympy's general `integrate` can run for minutes on 1/(x^5 + x + 1) because it insists on
radicals; the residue form sums over the roots of the denominator's factors instead, which is
exact, radical-free and fast. Values cross as coefficient lists, highest degree first.
(calculus.integrate.rational runs on FLINT: adapters/flint_rational.py.)
"""

from __future__ import annotations

from fractions import Fraction

from sympy import Poly, QQ, ZZ, cancel
from sympy.integrals.rationaltools import ratint_ratpart

from ..errors import BackendFault
from .sympy_poly import X, from_poly, primitive_integer, to_poly


def _hermite(numerator: list[Fraction], denominator: list[Fraction]):
    """(P, Q, R, N, D): P/Q in lowest terms = R' + N/D with R a rational function (as an
    expression: the integrated polynomial part plus Hermite's rational part) and N/D proper
    with D square-free (N = 0 when there is no logarithmic part)."""
    p, q = to_poly(numerator).cancel(to_poly(denominator), include=True)
    polynomial, remainder = p.div(q)
    rational = polynomial.integrate().as_expr()
    if remainder.is_zero:
        return p, q, rational, remainder, q
    hermite, log_integrand = ratint_ratpart(remainder, q, X)
    num, den = (Poly(e, X, domain=QQ) for e in cancel(log_integrand).as_numer_denom())
    quotient, rest = num.div(den)
    return p, q, rational + hermite + quotient.integrate().as_expr(), rest, den


def _monic_quotient(rational) -> tuple[Poly, Poly]:
    """(A, B) with rational = A/B, B monic and coprime to A."""
    a, b = (Poly(e, X, domain=QQ) for e in cancel(rational).as_numer_denom())
    lead = b.LC()
    return a.quo_ground(lead), b.quo_ground(lead)


ResidueTerm = tuple[list[int], list[Fraction]]


def residue_form(numerator: list[Fraction], denominator: list[Fraction]
                 ) -> tuple[list[Fraction], list[Fraction], list[ResidueTerm], list[int]]:
    """An antiderivative of P/Q in residue form, (A, B, [(q, r)], Q0): F = A/B + sum over the
    terms of sum over {alpha : q(alpha) = 0} of r(alpha) log(x - alpha), where each q is an
    irreducible factor of the square-free part of Q (primitive in Z[x], LC > 0) and r, of
    degree < deg q, is the residue of the logarithmic integrand at its roots; Q0 is the
    denominator of P/Q in lowest terms, primitive in Z[x]. Checked before it leaves:
    (A/B)' + sum of (r q' mod q)/q equals P/Q exactly (the log part's derivative summed over
    the conjugate roots is (r q' mod q)/q, since its residue at each root alpha is r(alpha))."""
    p, q, rational, rest, den = _hermite(numerator, denominator)
    terms: list[ResidueTerm] = []
    log_sum = Poly(0, X, domain=QQ).as_expr()
    if not rest.is_zero:
        derivative = den.diff(X)
        for factor, _ in den.factor_list()[1]:
            factor = Poly(factor, X, domain=QQ)
            r = rest.mul(derivative.invert(factor)).rem(factor)
            terms.append((primitive_integer(from_poly(factor))[1], from_poly(r)))
            log_sum += r.mul(factor.diff(X)).rem(factor).as_expr() / factor.as_expr()
    a, b = _monic_quotient(rational)
    if cancel((a.as_expr() / b.as_expr()).diff(X) + log_sum - p.as_expr() / q.as_expr()) != 0:
        raise BackendFault("residue_form_derivative_mismatch")
    return from_poly(a), from_poly(b), terms, primitive_integer(from_poly(q))[1]


def pole_between(denominator: list[int], low: Fraction, high: Fraction
                 ) -> tuple[list[int], Fraction, Fraction] | None:
    """A real root of the integer polynomial `denominator` in [low, high], as (irreducible
    factor, lo, hi) with low <= lo <= hi <= high and exactly one root of the factor in
    [lo, hi] (lo == hi exactly when the root is rational), or None when there is none (Sturm counts)."""
    def qq(v: Fraction):
        return QQ(v.numerator, v.denominator)
    poly = Poly.from_list(denominator, X, domain=ZZ)
    if poly.count_roots(qq(low), qq(high)) == 0:
        return None
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
