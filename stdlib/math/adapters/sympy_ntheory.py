"""Private adapter: sympy's integer algorithms with plain Python ints in and out."""

from __future__ import annotations

from sympy import factorint as _factorint
from sympy.functions.combinatorial.numbers import partition as _partition
from sympy.ntheory.modular import solve_congruence as _solve_congruence
from sympy.ntheory.primetest import is_strong_bpsw_prp as _is_strong_bpsw_prp
from sympy.ntheory.primetest import is_strong_lucas_prp as _is_strong_lucas_prp


def factorint(n: int) -> dict[int, int]:
    """The complete factorisation {prime: exponent} (no `limit`: a partial one can hide a
    composite cofactor among the keys)."""
    return {int(p): int(e) for p, e in _factorint(n).items()}


def is_strong_bpsw_probable_prime(n: int) -> bool:
    """The strong Baillie-PSW test (Miller-Rabin base 2 plus a strong Lucas test)."""
    return bool(_is_strong_bpsw_prp(n))


def is_strong_lucas_probable_prime(n: int) -> bool:
    """The strong Lucas test with Selfridge's parameters (method A), for odd non-square n."""
    return bool(_is_strong_lucas_prp(n))


def merge_congruences(pairs: list[tuple[int, int]]) -> tuple[int, int] | None:
    """(r, M) with the solutions of x = r_i (mod m_i) being exactly x = r (mod M), or None."""
    solved = _solve_congruence(*pairs)
    return None if solved is None else (int(solved[0]), int(solved[1]))


def partition_count(n: int) -> int:
    """p(n) by the Hardy-Ramanujan-Rademacher formula with exact rounding."""
    return int(_partition(n))
