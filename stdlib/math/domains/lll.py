"""LLL reduction of an integer lattice basis (`linalg.lattice.reduce`).

The library's own integral LLL (Cohen, A Course in Computational Algebraic Number Theory,
Algorithm 2.6.7; de Weger's integer version): the Gram-Schmidt data are kept as the integers
d_i (Gram determinants) and lambda_ij = d_j mu_ij, so every step is exact integer arithmetic
and no float ever decides a swap. sympy 1.14's LLL was not used: it fails an internal
assertion on knapsack-type bases (an identity block beside one 60-digit column).

What is returned is checked here before it leaves, with exact rationals: the reduced basis is
T times the input for an integer T with det T = +-1 (so both span one lattice), it is
size-reduced (|mu_ij| <= 1/2) and satisfies Lovasz's condition with delta = 3/4.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, Field

from ..kernels import lll
from ..primitives import (CONFIG, BigInt, Count, OutInt, Rule, RULE_MATRIX_SHAPE, after,
                          matrix_model)
from ..tool import Bounds, Example, MathTool

MAX_VECTORS = 24
BasisMatrix = matrix_model("LatticeBasis", BigInt(30), MAX_VECTORS,
                           "integer entries below 10^30 in absolute value")
OutMatrix = matrix_model("LatticeMatrixValue", OutInt, MAX_VECTORS, "exact integers")
RULE_INDEPENDENT = Rule("basis_dependent", "The rows are the basis vectors: at least one, and "
                                           "linearly independent (so at most as many rows as "
                                           "columns).")


class LllRequest(BaseModel):
    model_config = CONFIG
    basis: Annotated[BasisMatrix, Field(description=(
        "One basis vector per row, 1 to 24 rows of up to 24 integers. "
        + RULE_INDEPENDENT.text))]

    _independent = after(lll.independent_rows)


class Reduced(BaseModel):
    model_config = CONFIG
    basis: OutMatrix = Field(description=(
        "An LLL-reduced basis (delta = 3/4) of the same lattice: size-reduced, Lovasz's "
        "condition holds, and the first vector is at most 2^((n-1)/2) times as long as a "
        "shortest nonzero lattice vector."))
    transform: OutMatrix = Field(description=(
        "T, n x n, integer with det T = +-1 and reduced = T * input: the witness that the two "
        "bases span the same lattice."))
    swaps: Count(0, 10**9) = Field(description="Swaps the reduction made.")


LLL = MathTool(
    identifier="linalg.lattice.reduce",
    vocabulary=(
        "LLL", "lattice reduction", "Lenstra-Lenstra-Lovasz", "LLL-reduced basis",
        "short lattice vector", "reduced basis", "integer lattice", "basis reduction",
        "unimodular transformation"),
    synonyms=("short vectors of a lattice", "reduce a lattice basis", "knapsack lattice"),
    claim=("For linearly independent integer vectors b_1..b_n (n, dimension <= 24): an "
           "LLL-reduced basis (delta = 3/4) of the lattice they span, with an integer T of "
           "determinant +-1 such that reduced = T * input; both facts and the reduction "
           "conditions are checked exactly. Not a shortest vector: the first vector is "
           "within 2^((n-1)/2) of it."),
    request=LllRequest, result=Reduced, kernel=lll.reduce_lattice,
    rules=(RULE_MATRIX_SHAPE, RULE_INDEPENDENT),
    examples=(Example.of(
        "Compute an LLL-reduced basis of the lattice spanned by (1, 0, 0, 12345), (0, 1, 0, "
        "23456) and (0, 0, 1, 34567) with its unimodular transform; the rows must be linearly "
        "independent integer vectors.",
        {"basis": {"nrows": 3, "ncols": 4, "rows": [[1, 0, 0, 12345], [0, 1, 0, 23456],
                                                     [0, 0, 1, 34567]]}}),),
    bounds=Bounds(
        input="1 to 24 linearly independent rows of dimension <= 24 with |entries| < 10^30.",
        computation="Integral LLL: at most O(n^2 log B) swaps (each lowers the product of the "
                    "d_i, integers between 1 and B^(n(n+1)/2) with B the largest squared "
                    "row length, by a factor of at least 4/3), each O(n d) operations on "
                    "integers below B^n. Measured with the exact checks (an n^3 product, a "
                    "determinant and a Gram-Schmidt pass): 24 x 24 of random 30-digit "
                    "entries 0.77 s, a 23 x 24 knapsack basis with 30-digit weights 0.07 s "
                    "(1224 swaps).",
        output="By LLL's inequality prod ||b_i|| <= 2^(n(n-1)/4) det(L) <= 2^138 (sqrt(24) "
               "10^30)^24 < 10^780 (Hadamard on the input), so every reduced entry is below "
               "10^780; T = reduced B^T (B B^T)^-1 has entries below 10^2300 (Cramer on the "
               "Gram matrix); at most 24 x 24 of each."))


TOOLS = (LLL,)
