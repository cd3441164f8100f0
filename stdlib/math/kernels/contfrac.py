"""The kernel of `nt.continued_fraction.expand` (declared in domains/contfrac.py, which explains
the method): Euclid's algorithm for a rational, the (p + sqrt D)/q recurrence until a state
repeats for a quadratic irrational; and the rule that bounds the period."""

from __future__ import annotations

import math

from ..errors import BackendFault

MAX_DISCRIMINANT = 10**6


def is_irrational(request) -> bool:
    return request.b != 0 and math.isqrt(request.d) ** 2 != request.d


def number_problem(self):
    """c != 0, and a quadratic irrational small enough that its period is bounded."""
    if self.c == 0:
        return ("quadratic_range", "c must not be 0", ("c",))
    if is_irrational(self) and (abs(self.a) > 10**6 or abs(self.c) > 10**6
                                or self.b**2 * self.c**2 * self.d > MAX_DISCRIMINANT):
        return ("quadratic_range", "a quadratic irrational needs |a|, |c| <= 10^6 and "
                f"b^2 c^2 d <= 10^6; here b^2 c^2 d = {self.b**2 * self.c**2 * self.d}", ())
    return None


def _rational_terms(p: int, q: int) -> list[int]:
    if q < 0:
        p, q = -p, -q
    terms = []
    while q:
        a, r = divmod(p, q)
        terms.append(a)
        p, q = q, r
    return terms


def _floor(p: int, q: int, root: int) -> int:
    """floor((p + sqrt D)/q) for irrational sqrt D with isqrt(D) = root."""
    return (p + root) // q if q > 0 else -((p + root) // -q) - 1


def _periodic(p: int, q: int, discriminant: int) -> dict:
    """Expand (p + sqrt D)/q with q | D - p^2 until a state repeats."""
    root, seen, terms = math.isqrt(discriminant), {}, []
    while (p, q) not in seen:
        if (discriminant - p * p) % q:
            raise BackendFault("state_invariant_broken")
        seen[(p, q)] = len(terms)
        a = _floor(p, q, root)
        terms.append(a)
        p = a * q - p
        q = (discriminant - p * p) // q
    start = seen[(p, q)]
    return {"kind": "periodic", "preperiod": terms[:start], "period": terms[start:]}


def expand(request) -> dict:
    a, b, c, d = request.a, request.b, request.c, request.d
    if not is_irrational(request):
        return {"kind": "finite", "terms": _rational_terms(a + b * math.isqrt(d), c)}
    if b < 0:  # (a - |b| sqrt d)/c = (-a + |b| sqrt d)/(-c)
        a, b, c = -a, -b, -c
    # (a + sqrt(b^2 d))/c = (a|c| + sqrt(b^2 d c^2))/(c|c|), and c|c| divides c^2 (b^2 d - a^2).
    return _periodic(a * abs(c), c * abs(c), b * b * d * c * c)
