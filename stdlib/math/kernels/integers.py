"""Kernels of the integer operations that need no backend: gcd with Bezout coefficients, lcm,
modular inverses and binomial coefficients (declared in domains/nt.py)."""

from __future__ import annotations

import math

from ..errors import BackendFault

# The cost and the output of C(n, k) are both driven by its size, so the request bounds that:
# log10 C(n, k) is summed term by term before anything is multiplied.
BINOMIAL_DIGITS = 3900


def _extended_gcd(a: int, b: int) -> tuple[int, int, int]:
    """(s, t, g) with s*a + t*b == g == gcd(a, b) >= 0: Euclid's algorithm carrying the
    coefficients (pure Python, so gcd needs no backend; the caller checks the identity)."""
    old_r, r, old_s, s, old_t, t = a, b, 1, 0, 0, 1
    while r:
        quotient = old_r // r
        old_r, r = r, old_r - quotient * r
        old_s, s = s, old_s - quotient * s
        old_t, t = t, old_t - quotient * t
    if old_r < 0:
        return -old_s, -old_t, -old_r
    return old_s, old_t, old_r


def gcd(request) -> dict:
    first = request.values[0]
    g, coefficients = abs(first), [(first > 0) - (first < 0)]
    for a in request.values[1:]:
        s, t, g = _extended_gcd(g, a)
        coefficients = [c * s for c in coefficients] + [t]
    if g < 0 or sum(c * a for c, a in zip(coefficients, request.values)) != g:
        raise BackendFault("bezout_identity_failed")
    return {"gcd": g, "bezout": coefficients}


def lcm(request) -> dict:
    return {"lcm": math.lcm(*request.values)}


def binomial_digits(n: int, k: int) -> float:
    """log10 C(n, k) for 0 <= k <= n, summed from the small side; it stops as soon as the sum
    passes the bound (C(n, j) >= 2^j for j <= n/2, so at most 3.4 * BINOMIAL_DIGITS terms)."""
    k = min(k, n - k)
    total = 0.0
    for i in range(k):
        total += math.log10(n - i) - math.log10(i + 1)
        if total > BINOMIAL_DIGITS:
            break
    return total


def binomial_too_large(self):
    """C(n, k) stays below 10^BINOMIAL_DIGITS."""
    if 0 <= self.k <= self.n and binomial_digits(self.n, self.k) >= BINOMIAL_DIGITS - 1e-6:
        return ("binomial_too_large", f"C(n, k) has more than {BINOMIAL_DIGITS} digits", ("k",))
    return None


def binomial(request) -> dict:
    n, k = request.n, request.k
    return {"value": math.comb(n, k) if 0 <= k <= n else 0}


def modular_inverse(request) -> dict:
    g = math.gcd(request.a, request.modulus)
    if g != 1:
        return {"status": "not_invertible", "gcd": g}
    return {"status": "invertible", "inverse": pow(request.a, -1, request.modulus)}
