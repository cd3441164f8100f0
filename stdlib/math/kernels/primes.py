"""The kernel of `nt.prime.test` (declared in domains/nt.py, which grades its claims) and the
Miller-Rabin rounds that are its proof below psi_13 (nt.integer.factor, nt.prime.certify and
nt.function.evaluate use them too). Above psi_13 the strong BPSW test comes from sympy
(adapters/sympy_ntheory.py), imported only then."""

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
