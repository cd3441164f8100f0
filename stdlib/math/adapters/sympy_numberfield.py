"""Private adapter: sympy's Galois groups of small degree.

Polynomials cross this boundary as integer coefficient lists, highest degree first; groups as
lists of permutations in array form (image of 0..n-1). (Minimal polynomials of algebraic
numbers are composed with FLINT: adapters/flint_numberfield.py.)
"""

from __future__ import annotations

from sympy import Poly, Symbol, ZZ
from sympy.polys.numberfields.galoisgroups import MaxTriesException, galois_group as _galois

X = Symbol("x")


def galois_group(coefficients: list[int]) -> tuple[str, list[list[int]]] | None:
    """(sympy's name of the transitive group, its generators) for an irreducible integer
    polynomial of degree 2 to 6, or None when sympy's deterministic search for a Tschirnhausen
    transformation (30 tries) gave up."""
    f = Poly.from_list(coefficients, X, domain=ZZ)
    try:
        named, _ = _galois(f, by_name=True, max_tries=30, randomize=False)
    except MaxTriesException:
        return None
    return named.name, [[int(i) for i in p.array_form] for p in named.get_perm_group().generators]
