"""Private adapter: sympy's exact matrix algorithms over QQ and ZZ that the lattice and
integer-solution operations need (Smith and Hermite normal forms).

Matrices cross this boundary as lists of rows of `Fraction` or `int` with an explicit shape, so
0xn and nx0 matrices stay distinct; nothing sympy-typed leaks out.
"""

from __future__ import annotations

from fractions import Fraction

from sympy import QQ, ZZ
from sympy.polys.matrices import DomainMatrix
from sympy.polys.matrices.normalforms import hermite_normal_form as _hnf
from sympy.polys.matrices.normalforms import smith_normal_decomp as _snd


def _integers(nrows: int, ncols: int, rows: list[list[int]]) -> DomainMatrix:
    return DomainMatrix([[ZZ(v) for v in row] for row in rows], (nrows, ncols), ZZ)


def _ints(matrix: DomainMatrix) -> list[list[int]]:
    return [[int(v) for v in row] for row in matrix.to_list()]


def smith(nrows: int, ncols: int, rows: list[list[int]]
          ) -> tuple[list[list[int]], list[list[int]], list[list[int]]]:
    """(S, U, V) with S = U A V in Smith normal form and U, V unimodular."""
    s, u, v = _snd(_integers(nrows, ncols, rows))
    return _ints(s), _ints(u), _ints(v)


def hermite(nrows: int, ncols: int, rows: list[list[int]]) -> list[list[int]]:
    """The Hermite normal form of A (column style: the nonzero columns of A W for some
    unimodular W), as sympy computes it; the caller checks its shape."""
    return _ints(_hnf(_integers(nrows, ncols, rows)))
