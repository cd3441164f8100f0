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


# The trial-division primes of nt.prime.certify, sieved once when the worker preloads this module.
SMALL_PRIMES = tuple(int(p) for p in _primerange(2, 2**16))


def lucas_u(n: int, p: int, q: int, k: int) -> int:
    """U_k(P, Q) mod n of the Lucas sequence U_0 = 0, U_1 = 1, U_j = P U_(j-1) - Q U_(j-2),
    for odd n >= 3 and P^2 - 4Q != 0."""
    from sympy.external.ntheory import _lucas_sequence
    return int(_lucas_sequence(n, p, q, k)[0])
