"""The kernel of `poly.cyclotomic` (declared in domains/cyclotomic.py, which explains the method):
Phi_d for every divisor d of n by multiplying and exactly dividing by binomials x^k - 1, and the
product checked against x^n - 1 before anything is returned."""

from __future__ import annotations

from ..errors import BackendFault


def _mobius(n: int) -> int:
    value, p = 1, 2
    while p * p <= n:
        if n % p == 0:
            n //= p
            if n % p == 0:
                return 0
            value = -value
        p += 1
    return -value if n > 1 else value


def _times_binomial(f: list[int], k: int) -> list[int]:
    """f * (x^k - 1), coefficients lowest degree first."""
    out = [0] * (len(f) + k)
    for i, c in enumerate(f):
        out[i + k] += c
        out[i] -= c
    return out


def _over_binomial(f: list[int], k: int) -> list[int]:
    """f / (x^k - 1) for f divisible by it, lowest degree first: q_i = q_(i-k) - f_i."""
    q = [0] * (len(f) - k)
    for i in range(len(q)):
        q[i] = (q[i - k] if i >= k else 0) - f[i]
    return q


def cyclotomic_low_first(n: int) -> list[int]:
    """Phi_n, lowest degree first: the multiplications by x^d - 1 (mu(n/d) = 1) first, then
    the exact divisions (mu(n/d) = -1), so every intermediate is a polynomial."""
    divisors = [d for d in range(1, n + 1) if n % d == 0]
    f = [1]
    for d in divisors:
        if _mobius(n // d) == 1:
            f = _times_binomial(f, d)
    for d in divisors:
        if _mobius(n // d) == -1:
            f = _over_binomial(f, d)
    return f


def cyclotomic(request) -> dict:
    n, v = request.n, request.variable
    factors = [(d, cyclotomic_low_first(d)) for d in range(1, n + 1) if n % d == 0]
    product = [1]
    for _, f in factors:
        product = [sum(product[j] * f[i - j] for j in range(max(0, i - len(f) + 1),
                                                              min(i, len(product) - 1) + 1))
                   for i in range(len(product) + len(f) - 1)]
    if product != [-1] + [0] * (n - 1) + [1]:
        raise BackendFault("cyclotomic_product_is_not_x^n-1")

    def poly(low_first: list[int]) -> dict:
        return {"variable": v, "coefficients": list(reversed(low_first))}
    return {"n": n, "cyclotomic": poly(factors[-1][1]),
            "factors": [{"d": d, "polynomial": poly(f)} for d, f in factors]}
