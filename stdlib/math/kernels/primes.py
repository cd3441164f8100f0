"""The kernel of `nt.prime.test` (declared in domains/nt.py, which grades its claims) and the
Miller-Rabin rounds that are its proof below psi_13 (nt.integer.factor, nt.prime.certify and
nt.function.evaluate use them too). Above psi_13 nt.prime.test takes the strong BPSW test from
sympy (adapters/sympy_ntheory.py), imported only then; nt.integer.factor labels its factors
above psi_13 with `strong_bpsw_probable_prime`, the same test written out here (tests/math/
test_factor_kernel.py compares the two), so that it needs no sympy."""

from __future__ import annotations

import itertools
import math

from ..errors import BackendFault

WITNESS_BASES = 16  # Miller-Rabin bases tried for a witness after BPSW proved n composite
PSI13 = 3317044064679887385961981
MR_BASES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)
_SMALL_PRIMES = tuple(p for p in range(2, 1000) if all(p % q for q in range(2, math.isqrt(p) + 1)))


def strong_probable_prime(n: int, base: int) -> bool:
    """One Miller-Rabin round: does odd n > 2 pass the strong probable-prime test to `base`?"""
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    x = pow(base, d, n)
    if x in (1, n - 1):
        return True
    for _ in range(s - 1):
        x = x * x % n
        if x == n - 1:
            return True
    return False


def passes_deterministic_bases(p: int) -> bool:
    """Deterministic primality for 2 <= p < psi_13: Miller-Rabin with the bases 2..41."""
    if p in MR_BASES:
        return True
    return p % 2 == 1 and all(strong_probable_prime(p, a) for a in MR_BASES)


def strong_bpsw_probable_prime(n: int) -> bool:
    """The strong Baillie-PSW test, decided as sympy's `is_strong_bpsw_prp` decides it: n passes
    when it is 2, or odd and a strong probable prime to base 2 and a strong Lucas probable prime
    with Selfridge's parameters (method A: D the first of 5, -7, 9, -11, ... with Jacobi symbol
    (D/n) = -1, P = 1, Q = (1 - D)/4). A D sharing a factor with n that n does not divide, and
    a perfect square (for which no such D exists; checked when the search reaches D = 13, the
    point where sympy checks it), fail."""
    if n < 2:
        return False
    if n % 2 == 0:
        return n == 2
    if not strong_probable_prime(n, 2):
        return False
    for k in itertools.count():
        d = (2 * k + 5) * (-1) ** k
        symbol = _jacobi(d, n)
        if symbol == -1:
            return _strong_lucas(n, d)
        if symbol == 0 and d % n:
            return False
        if d == 13 and math.isqrt(n) ** 2 == n:
            return False


def _strong_lucas(n: int, d: int) -> bool:
    """Does odd n pass the strong Lucas test with P = 1, Q = (1 - d)/4, where (d/n) = -1? With
    n + 1 = k 2^s, k odd: U_k = 0 (mod n), or V_(k 2^r) = 0 (mod n) for some 0 <= r < s."""
    q = (1 - d) // 4
    s = ((n + 1) & -(n + 1)).bit_length() - 1
    u, v, qk = 1, 1, q % n  # U_1, V_1 (= P) and Q^1, all mod n
    for bit in bin((n + 1) >> s)[3:]:
        # index m -> 2m: U_2m = U_m V_m, V_2m = V_m^2 - 2 Q^m
        u, v, qk = u * v % n, (v * v - 2 * qk) % n, qk * qk % n
        if bit == "1":
            # index m -> m + 1 (P = 1): U = (U + V)/2, V = (d U + V)/2, halved mod odd n
            u, v = u + v, d * u + v
            u, v = ((u + n if u & 1 else u) >> 1) % n, ((v + n if v & 1 else v) >> 1) % n
            qk = qk * q % n
    if u == 0 or v == 0:
        return True
    for _ in range(s - 1):
        v = (v * v - 2 * qk) % n
        if v == 0:
            return True
        qk = qk * qk % n
    return False


def _jacobi(a: int, n: int) -> int:
    """The Jacobi symbol (a/n) for odd n > 0."""
    a %= n
    result = 1
    while a:
        while a % 2 == 0:
            a //= 2
            if n % 8 in (3, 5):
                result = -result
        a, n = n, a
        if a % 4 == 3 and n % 4 == 3:
            result = -result
        a %= n
    return result if n == 1 else 0


def primality_verdict(request) -> dict:
    n = request.n
    if n < 2:
        return {"status": "neither"}
    for p in _SMALL_PRIMES:
        if p * p > n:
            break
        if n % p == 0:
            return {"status": "composite", "witness": {"kind": "factor", "factor": p}}
    bases = [a for a in MR_BASES if a % n]
    for a in bases:
        if not strong_probable_prime(n, a):
            return {"status": "composite", "witness": {"kind": "miller_rabin_base", "base": a}}
    if n < PSI13:
        return {"status": "prime", "method": "deterministic_miller_rabin", "bases": bases}
    from ..adapters import sympy_arithmetic, sympy_ntheory as backend
    if backend.is_strong_bpsw_probable_prime(n):
        return {"status": "probable_prime", "method": "strong_bpsw"}
    # BPSW proved n composite (base 2 passed above, so its strong Lucas test failed). A
    # Miller-Rabin base is the simplest witness: at least three quarters of all bases are one,
    # so the next WITNESS_BASES bases are tried; should all of them pass, the Lucas test's own
    # parameters are the witness. A perfect square has no Selfridge D; its root is a factor.
    root = math.isqrt(n)
    if root * root == n:
        return {"status": "composite", "witness": {"kind": "factor", "factor": root}}
    for a in range(MR_BASES[-1] + 1, MR_BASES[-1] + 1 + WITNESS_BASES):
        if not strong_probable_prime(n, a):
            return {"status": "composite", "witness": {"kind": "miller_rabin_base", "base": a}}
    # 5, -7, 9, -11, ...: the search the BPSW test has just finished, so it ends as fast.
    selfridge = ((2 * k + 5) * (-1) ** k for k in itertools.count())
    d = next(d for d in selfridge if sympy_arithmetic.jacobi(d, n) == -1)
    if backend.is_strong_lucas_probable_prime(n):
        raise BackendFault("bpsw_failed_but_lucas_passed")
    return {"status": "composite",
            "witness": {"kind": "strong_lucas", "d": d, "p": 1, "q": (1 - d) // 4}}
