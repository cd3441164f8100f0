"""Private adapter: PARI/GP's integer factorisation (`factor`, via cypari2), and the one PARI
instance this package's PARI adapters share.

PARI splits an integer below 10^30 with trial division, Pollard rho, SQUFOF, ECM and its
quadratic sieve in memory, in milliseconds where sympy's factorint takes up to seconds (and
importing sympy alone costs more than the whole first call may, issue 31). FLINT's `fmpz.factor`
is as fast but its quadratic sieve keeps its relations in a file it creates in /tmp, which a
deadline kill leaves behind and a read-only /tmp turns into an abort of the child, so PARI it
is. PARI's factors are only pseudoprimes (factor_proven is off): the caller proves or tests
every factor itself and checks the product.
"""

from __future__ import annotations

import cypari2

_STACK_BYTES = 10**8  # PARI's stack: a 100-digit ECPP certificate needs well under this
_pari: cypari2.Pari | None = None


def instance() -> cypari2.Pari:
    """The PARI instance, made with its stack on first use (in the worker's helper when it
    imports this module, so every child inherits it)."""
    global _pari
    if _pari is None:
        _pari = cypari2.Pari()
        _pari.allocatemem(_STACK_BYTES, silent=True)
    return _pari


def factor(n: int) -> list[tuple[int, int]]:
    """PARI's factorisation of n >= 1 as (factor, exponent) pairs, [] for 1."""
    matrix = instance().factor(n)
    return [(int(matrix[i, 0]), int(matrix[i, 1])) for i in range(int(matrix.matsize()[0]))]


instance()
