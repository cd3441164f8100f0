"""Private adapter: calculus.integrate.definite's value to 30 significant digits, for reading,
from its exact residue form (the roots of each factor by mpmath's polyroots at 60 digits).

An adapter of its own so that the worker imports mpmath before it forks the operation's first
child, while the interpreter validates the request, instead of in the child.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath


def approximate(rational: Fraction, terms: list[tuple[list[int], list[Fraction]]],
                a: Fraction, b: Fraction) -> str:
    """rational + sum of r(alpha) Log((b - alpha)/(a - alpha)) to 30 digits, roots by mpmath."""
    with mpmath.workdps(60):
        total = mpmath.mpf(rational.numerator) / rational.denominator
        fa, fb = (mpmath.mpf(v.numerator) / v.denominator for v in (a, b))
        for q, r in terms:
            for alpha in mpmath.polyroots(q, maxsteps=400, extraprec=400):
                weight = mpmath.polyval([mpmath.mpf(c.numerator) / c.denominator for c in r],
                                        alpha) if r else 0
                total += weight * mpmath.log((fb - alpha) / (fa - alpha))
        return mpmath.nstr(mpmath.re(total), 30)
