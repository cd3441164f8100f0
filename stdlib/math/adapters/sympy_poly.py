"""Private adapter: sympy's univariate polynomial algorithms over Q.

Polynomials cross this boundary as coefficient lists, highest degree first: `Fraction`s for
Q[x], `int`s for Z[x]; the zero polynomial is `[]`. Nothing here reads text: sympy objects are
built from numbers with `Poly.from_list`, never by parsing.
"""

from __future__ import annotations

from fractions import Fraction

from sympy import Poly, QQ, ZZ, Symbol, gcdex as _gcdex

from ..errors import BackendFault

X = Symbol("x")


def to_poly(coefficients: list[Fraction], gen: Symbol = X) -> Poly:
    """The polynomial over QQ with these coefficients (highest degree first)."""
    return Poly.from_list([QQ(c.numerator, c.denominator) for c in coefficients], gen, domain=QQ)


def from_poly(p: Poly) -> list[Fraction]:
    """Coefficients of a polynomial over QQ or ZZ as Fractions; [] for zero."""
    if p.is_zero:
        return []
    return [Fraction(int(c.p), int(c.q)) for c in p.all_coeffs()]


def primitive_integer(coefficients: list[Fraction]) -> tuple[Fraction, list[int]]:
    """Split a nonzero rational polynomial as c * F with F primitive in Z[x], LC(F) > 0."""
    import math
    den = math.lcm(*(c.denominator for c in coefficients))
    ints = [int(c * den) for c in coefficients]
    content = math.gcd(*ints) * (1 if ints[0] > 0 else -1)
    return Fraction(content, den), [i // content for i in ints]


def factor_over_q(coefficients: list[Fraction]) -> tuple[Fraction, list[tuple[list[int], int]]]:
    """content c and pairs (g, e) with f = c * prod g^e, g irreducible over Q, primitive in
    Z[x] with positive leading coefficient (square-free decomposition plus Zassenhaus)."""
    content, ints = primitive_integer(coefficients)
    unit, factors = Poly.from_list(ints, X, domain=ZZ).factor_list()
    out = []
    for g, e in factors:
        cs = [int(c) for c in g.all_coeffs()]
        if cs[0] < 0:
            cs = [-c for c in cs]
            unit *= (-1) ** e
        out.append((cs, int(e)))
    if int(unit) not in (1, -1):
        raise BackendFault("factor_content_not_unit")
    return content * int(unit), out


def gcdex(f: list[Fraction], h: list[Fraction]) -> tuple[list[Fraction], list[Fraction],
                                                            list[Fraction]]:
    """(s, t, g) with s*f + t*h = g, g the monic gcd (zero when f = h = 0)."""
    if not f and not h:
        return [], [], []
    if not f or not h:
        lead = (h or f)[0]
        unit = [Fraction(1) / lead]
        monic = [c / lead for c in (h or f)]
        return ([], unit, monic) if not f else (unit, [], monic)
    s, t, g = _gcdex(to_poly(f), to_poly(h))
    return from_poly(s), from_poly(t), from_poly(g)


def resultant(f: list[Fraction], g: list[Fraction]) -> Fraction:
    """Res(f, g) over QQ for nonzero f and g (sympy's subresultant PRS).

    sympy 1.14's PRS swaps its arguments when deg f < deg g without the sign that swap costs
    (Res(f, g) = (-1)^(mn) Res(g, f)): with both degrees odd it returns -Res(f, g). So it is
    only ever called with the higher degree first, and the sign of the swap is applied here.
    """
    m, n = len(f) - 1, len(g) - 1
    if m >= n:
        value = to_poly(f).resultant(to_poly(g))
        return Fraction(int(value.p), int(value.q))
    value = to_poly(g).resultant(to_poly(f))
    return (-1) ** (m * n) * Fraction(int(value.p), int(value.q))


def discriminant(f: list[Fraction]) -> Fraction:
    """disc(f) = (-1)^(n(n-1)/2) Res(f, f')/lc(f) for f of degree >= 1."""
    value = to_poly(f).discriminant()
    return Fraction(int(value.p), int(value.q))
