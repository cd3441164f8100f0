"""Private adapter: sympy's DomainMatrix over QQ and ZZ (exact, fraction-free where it can).

Matrices cross this boundary as (nrows, ncols, rows) with `Fraction` or `int` entries; the
explicit shape keeps 0xn and nx0 matrices distinct.
"""

from __future__ import annotations

from fractions import Fraction

from sympy import QQ, ZZ
from sympy.polys.matrices import DomainMatrix


def _rational_matrix(nrows: int, ncols: int, rows: list[list[Fraction]]) -> DomainMatrix:
    return DomainMatrix([[QQ(q.numerator, q.denominator) for q in row] for row in rows],
                        (nrows, ncols), QQ)


def _fraction(value) -> Fraction:
    return Fraction(int(value.numerator), int(value.denominator))


def rref(nrows: int, ncols: int, rows: list[list[Fraction]]) -> tuple[list[list[Fraction]],
                                                                     list[int]]:
    """The reduced row echelon form and its pivot columns."""
    reduced, pivots = _rational_matrix(nrows, ncols, rows).rref()
    dense = reduced.to_list()
    return [[_fraction(v) for v in row] for row in dense], [int(p) for p in pivots]


def charpoly(n: int, rows: list[list[int]]) -> list[int]:
    """det(xI - A) of a square integer matrix, highest degree first ([1] for 0x0)."""
    return [int(c) for c in DomainMatrix([[ZZ(v) for v in row] for row in rows], (n, n),
                                         ZZ).charpoly()]
