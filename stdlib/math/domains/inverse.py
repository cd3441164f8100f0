"""The exact inverse of a square rational matrix, or a kernel witness that none exists.

An inverse is claimed only with the identity A A^-1 = I checked exactly; a singular matrix is
answered with a nonzero vector v with A v = 0, which proves singularity on its own (a float
inverse routine would instead return huge entries for [[10^8+1, 10^8], [10^8, 10^8-1]] or
declare it singular).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

from pydantic import BaseModel, Field

from ..errors import BackendFault
from ..primitives import (CONFIG, Count, OutRat, RULE_MATRIX_SHAPE, RULE_RATIONAL, RULE_SQUARE,
                          tagged)
from ..tool import Bounds, Example, MathTool
from .linalg import EXAMPLE_2X2, MatrixValue, SquareRequest10, _kernel_basis


class Invertible(BaseModel):
    model_config = CONFIG
    status: Literal["invertible"]
    inverse: MatrixValue = Field(description="The unique B with A B = B A = I.")


class Singular(BaseModel):
    model_config = CONFIG
    status: Literal["singular"]
    rank: Count(0, 9) = Field(description="rank(A) < n.")
    kernel_vector: list[OutRat] = Field(description=(
        "A nonzero v with A v = 0 (the first canonical nullspace vector): the witness that A "
        "has no inverse."))


InverseResult = tagged(Invertible, Singular)


def _product(a: list[list[Fraction]], b: list[list[Fraction]]) -> list[list[Fraction]]:
    return [[sum((x * y for x, y in zip(row, col)), Fraction(0)) for col in zip(*b)]
            for row in a]


def matrix_inverse(request: SquareRequest10):
    from ..adapters import sympy_lattice, sympy_matrix
    m = request.matrix
    n = m.nrows
    reduced, pivots = sympy_matrix.rref(n, n, m.rows)
    if len(pivots) < n:
        vector = _kernel_basis(reduced, pivots, n)[0]
        if any(sum((a * v for a, v in zip(row, vector)), Fraction(0)) for row in m.rows):
            raise BackendFault("kernel_vector_not_in_kernel")
        return Singular(status="singular", rank=len(pivots), kernel_vector=vector)
    inverse = sympy_lattice.inverse(n, m.rows)
    identity = [[Fraction(int(i == j)) for j in range(n)] for i in range(n)]
    if n and _product(m.rows, inverse) != identity:
        raise BackendFault("inverse_identity_failed")
    return Invertible(status="invertible",
                      inverse=MatrixValue(nrows=n, ncols=n, rows=inverse))


INVERSE = MathTool(
    identifier="linalg.inverse",
    vocabulary=(
        "inverse matrix", "matrix inverse", "inverse of a matrix", "invert a matrix",
        "invertible matrix", "A^-1", "singular matrix", "kernel witness", "Gauss-Jordan"),
    claim=("For a square matrix A over Q: the unique inverse B with A B = B A = I (the inverse "
           "of the 0x0 matrix is 0x0), or, when A is singular, its rank and a nonzero v with "
           "A v = 0 as the witness that no inverse exists."),
    request=SquareRequest10, result=InverseResult, function=matrix_inverse,
    adapters=("sympy_lattice", "sympy_matrix"),
    rules=(RULE_MATRIX_SHAPE, RULE_SQUARE, RULE_RATIONAL),
    examples=(Example.of(
        "Compute the exact inverse of [[1, 2], [3, 4]] or a kernel vector proving it singular; "
        "the matrix must be square, with nrows and ncols matching the rows.",
        {"matrix": EXAMPLE_2X2}),
        Example.of(
        "Compute the inverse of the singular matrix [[1, 2], [2, 4]] or a kernel vector "
        "proving it singular; entries are integers or reduced fractions like \"3/4\".",
        {"matrix": {"nrows": 2, "ncols": 2, "rows": [[1, 2], [2, 4]]}})),
    bounds=Bounds(
        input="n <= 10, numerators < 10^9, denominators < 10^4 (as linalg.det).",
        computation="One RREF and one inverse over QQ (fraction-free elimination), an exact "
                    "n^3 product check: measured 0.14 s at the largest accepted input (2 cores, loaded).",
        output="Each inverse entry is a cofactor over the determinant of the row-scaled matrix: "
               "numerators and denominators below 10^500 (Hadamard, as linalg.det), at most "
               "100 entries; a kernel vector has n RREF entries (the same bound)."))


TOOLS = (INVERSE,)
