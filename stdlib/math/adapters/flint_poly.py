"""Private adapter: FLINT's factorisation of integer polynomials (python-flint).

FLINT factors a square-free primitive polynomial by Zassenhaus with van Hoeij's lattice
reduction for the recombination, so polynomials with many modular factors (Swinnerton-Dyer,
cyclotomic products), which cost sympy's subset search exponential time, take milliseconds
here. Coefficient lists cross this boundary highest degree first, as in sympy_poly.
"""

from __future__ import annotations

import math
from fractions import Fraction

from flint import fmpz_poly

from ..errors import BackendFault


def factor_over_q(coefficients: list[Fraction]) -> tuple[Fraction, list[tuple[list[int], int]]]:
    """content c and pairs (g, e) with f = c * prod g^e, g irreducible over Q, primitive in
    Z[x] with positive leading coefficient, pairwise distinct."""
    den = math.lcm(*(c.denominator for c in coefficients))
    ints = [int(c * den) for c in coefficients]
    unit, factors = fmpz_poly(ints[::-1]).factor()
    out = []
    sign = 1
    for g, e in factors:
        cs = [int(c) for c in g.coeffs()][::-1]
        if cs[0] < 0:
            cs = [-c for c in cs]
            sign *= (-1) ** int(e)
        out.append((cs, int(e)))
    content = Fraction(int(unit) * sign, den)
    if math.prod(g[0] ** e for g, e in out) * content != coefficients[0]:
        raise BackendFault("factor_leading_coefficient_mismatch")
    return content, out
