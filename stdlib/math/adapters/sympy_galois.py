"""Private adapter: sympy's galoistools (dense polynomials over GF(p), coefficient lists of
ints highest degree first, [] for zero)."""

from __future__ import annotations

from sympy import ZZ
from sympy.polys import galoistools as _gf


def reduce(coefficients: list[int], p: int) -> list[int]:
    """The residues in [0, p) with leading zeros stripped."""
    return [int(c) for c in _gf.gf_from_int_poly(coefficients, p)]


def factor(f: list[int], p: int) -> tuple[int, list[tuple[list[int], int]]]:
    """(lc, [(monic irreducible, multiplicity)]) for nonzero f."""
    lc, factors = _gf.gf_factor(f, p, ZZ)
    return int(lc), [([int(c) for c in g], int(e)) for g, e in factors]


def gcdex(f: list[int], g: list[int], p: int) -> tuple[list[int], list[int], list[int]]:
    """(s, t, h) with s f + t g = h = monic gcd(f, g)."""
    s, t, h = _gf.gf_gcdex(f, g, p, ZZ)
    return [int(c) for c in s], [int(c) for c in t], [int(c) for c in h]


def pow_mod(f: list[int], exponent: int, g: list[int], p: int) -> list[int]:
    """f^exponent mod g over GF(p), for nonzero g (reduced once more: sympy returns [1] for
    exponent 0 even when g is a constant, where every remainder is 0)."""
    return [int(c) for c in _gf.gf_rem(_gf.gf_pow_mod(f, exponent, g, p, ZZ), g, p, ZZ)]


def multiply(f: list[int], g: list[int], p: int) -> list[int]:
    return [int(c) for c in _gf.gf_mul(f, g, p, ZZ)]


def add(f: list[int], g: list[int], p: int) -> list[int]:
    return [int(c) for c in _gf.gf_add(f, g, p, ZZ)]
