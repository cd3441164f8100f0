"""Private adapter: FLINT's smooth-part factoring of integers (python-flint, in C).

`fmpz.factor_smooth(bits)` runs trial division and elliptic curves tuned to find the prime
factors of up to about `bits` bits; what is left is returned as one cofactor, prime or not.
FLINT's own primality claims are not used (proved=0): the caller decides what each factor is.
"""

from __future__ import annotations

import math

from flint import fmpz

from ..errors import BackendFault


def smooth_factors(n: int, bits: int) -> list[int]:
    """Factors of n > 1 (with repetition, each > 1, product exactly n): the primes of up to
    about `bits` bits FLINT found, and one cofactor with what it did not split."""
    out = [int(f) for f, e in fmpz(n).factor_smooth(bits=bits, proved=0) for _ in range(int(e))]
    if math.prod(out) != n or min(out, default=2) < 2:
        raise BackendFault("flint_smooth_factors_product_mismatch")
    return out
