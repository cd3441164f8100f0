"""The kernel of `nt.integer.factor` (declared in domains/nt.py): PARI's factorisation
(adapters/pari_integer.py), each factor then proved or tested here, never taken on trust.

The factorisation of n is unique, so the result depends on n alone: primes in increasing order,
their exponents, and each prime's label -- "proven" below psi_13, where Miller-Rabin with the
bases 2..41 is deterministic, "bpsw_probable" above, where the strong BPSW test is all there is
(kernels/primes.py). A factor failing its test, or a product that is not n, is a backend fault.
"""

from __future__ import annotations

from ..errors import BackendFault
from .primes import PSI13, passes_deterministic_bases, strong_bpsw_probable_prime


def factor_integer(request) -> dict:
    from ..adapters import pari_integer as backend
    factors, product, previous = [], 1, 1
    for p, e in sorted(backend.factor(request.n)):
        if p <= previous or e < 1:
            raise BackendFault("factorization_not_canonical")
        if p < PSI13:
            if not passes_deterministic_bases(p):
                raise BackendFault("factor_not_prime")
            label = "proven"
        else:
            if not strong_bpsw_probable_prime(p):
                raise BackendFault("factor_not_prime")
            label = "bpsw_probable"
        factors.append({"prime": p, "exponent": e, "primality": label})
        product *= p**e
        previous = p
    if product != request.n:
        raise BackendFault("factorization_product_mismatch")
    return {"factors": factors}
