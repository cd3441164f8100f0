"""Private adapter: rational-function integration by Hermite reduction and Lazard-Rioboo-Trager.

sympy's general `integrate` can run for minutes on 1/(x^5 + x + 1) because it insists on
radicals; the two building blocks used here (`ratint_ratpart`, `ratint_logpart`) return the
logarithmic part as a sum over the roots of a resultant polynomial R(t) instead, which is exact,
radical-free and fast. Values cross as coefficient lists, highest degree first.
"""

from __future__ import annotations

from fractions import Fraction

from sympy import Dummy, Poly, QQ, cancel
from sympy.integrals.rationaltools import ratint_logpart, ratint_ratpart

from .sympy_poly import X, from_poly, primitive_integer, to_poly

LogTerm = tuple[list[int], list[list[Fraction]]]


def integrate_rational(numerator: list[Fraction], denominator: list[Fraction]
                       ) -> tuple[list[Fraction], list[Fraction], list[LogTerm]]:
    """An antiderivative of P/Q as (A, B, [(R, S)]): F = A/B + sum over the roots t of each
    R of t * log(S(t, x)). B is monic and coprime to A; R is primitive in Z[t] with positive
    leading coefficient; S is given by its x-coefficients, each a polynomial in t over Q."""
    p, q = to_poly(numerator).cancel(to_poly(denominator), include=True)
    polynomial, remainder = p.div(q)
    rational = polynomial.integrate().as_expr()
    logs: list[LogTerm] = []
    if not remainder.is_zero:
        hermite, log_integrand = ratint_ratpart(remainder, q, X)
        num, den = (Poly(e, X, domain=QQ) for e in cancel(log_integrand).as_numer_denom())
        quotient, rest = num.div(den)
        rational += hermite + quotient.integrate().as_expr()
        if not rest.is_zero:
            t = Dummy("t")
            for s_poly, r_poly in ratint_logpart(rest, den, X, t):
                _, r_ints = primitive_integer(from_poly(Poly(r_poly, t, domain=QQ)))
                s_coefficients = [from_poly(Poly(c, t, domain=QQ))
                                  for c in Poly(s_poly, X).all_coeffs()]
                logs.append((r_ints, s_coefficients))
    a, b = (Poly(e, X, domain=QQ) for e in cancel(rational).as_numer_denom())
    lead = b.LC()
    return from_poly(a.quo_ground(lead)), from_poly(b.quo_ground(lead)), logs
