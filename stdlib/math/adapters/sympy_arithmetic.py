"""Private adapter: sympy's residue and divisor algorithms with plain Python ints in and out."""

from __future__ import annotations

from sympy import divisors as _divisors
from sympy import primerange as _primerange
from sympy.external.gmpy import jacobi as _jacobi
from sympy.ntheory import n_order as _n_order
from sympy.ntheory import sqrt_mod as _sqrt_mod


def jacobi(a: int, n: int) -> int:
    """The Jacobi symbol (a/n) for odd n >= 1."""
    return int(_jacobi(a % n, n))


def divisors(n: int) -> list[int]:
    """All positive divisors of n >= 1, increasing."""
    return [int(d) for d in _divisors(n)]


def sqrt_mod(a: int, p: int) -> list[int]:
    """Every x in [0, p) with x^2 = a (mod p) for a prime p, increasing."""
    return sorted(int(x) for x in _sqrt_mod(a % p, p, all_roots=True))


def multiplicative_order(a: int, n: int) -> int:
    """The least k >= 1 with a^k = 1 (mod n), for gcd(a, n) = 1."""
    return int(_n_order(a, n))


def pollard_rho(n: int, steps: int) -> int | None:
    """A nontrivial factor of composite n found within `steps` iterations of Pollard's rho
    (fixed seed, so the outcome is reproducible), or None."""
    from sympy.ntheory import pollard_rho as _rho
    found = _rho(n, retries=0, max_steps=steps, seed=1234)
    return None if found is None else int(found)


def pollard_pm1(n: int, smoothness: int) -> int | None:
    """A nontrivial factor of composite n by Pollard's p - 1 with bound B, or None."""
    from sympy.ntheory import pollard_pm1 as _pm1
    found = _pm1(n, B=smoothness, retries=0, seed=1234)
    return None if found is None or found in (1, n) else int(found)


# The trial-division primes of nt.prime.certify, sieved once when the worker preloads this module.
SMALL_PRIMES = tuple(int(p) for p in _primerange(2, 2**16))


def ecm_factor(n: int, curves: int, stage1: int, stage2: int) -> int | None:
    """A nontrivial factor of composite n found by at most `curves` elliptic curves of Lenstra's
    method with bounds B1 = stage1, B2 = stage2 (fixed seed, reproducible), or None."""
    from sympy.ntheory.ecm import _ecm_one_factor
    found = _ecm_one_factor(n, stage1, stage2, curves, seed=1234)
    return None if found is None or found in (1, n) else int(found)


def lucas_u(n: int, p: int, q: int, k: int) -> int:
    """U_k(P, Q) mod n of the Lucas sequence U_0 = 0, U_1 = 1, U_j = P U_(j-1) - Q U_(j-2),
    for odd n >= 3 and P^2 - 4Q != 0."""
    from sympy.external.ntheory import _lucas_sequence
    return int(_lucas_sequence(n, p, q, k)[0])
