"""Integer linear algebra and lattices: Smith and Hermite normal forms with the integer
solutions of A x = b (`linalg.integer.normal_forms`), and integer relations among rationals by
exact LLL (`nt.integer.relations`).

Over Z a rational solution is not enough: 2x = 1 is solvable over Q and not over Z. The
Smith form S = U A V (U, V unimodular) decides it: with c = U b, an integer solution exists
exactly when d_i | c_i for the invariant factors d_i and c_i = 0 beyond the rank. A refusal
carries the integer Farkas certificate: a rational y with y^T A integral and y^T b not an
integer (then y^T A x = y^T b is impossible for integral x).

The unimodular transforms of sympy's Smith algorithm have no useful a priori size bound (2,000+
bits measured at 10x10), so they stay inside: what leaves is bounded by the lattice itself. The
kernel basis is LLL-reduced (delta = 3/4, by domains/lll.py's integral LLL, the reduction
linalg.lattice.reduce publishes), so each vector is within 2^((k-1)/2) of the k-th
successive minimum, which the Cramer vectors of A bound; the particular solution is reduced
against that basis by Babai's nearest-plane rounding; the certificate is reduced modulo 1.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Annotated, Literal

from pydantic import BaseModel, Field, model_validator

from ..errors import BackendFault
from ..kernels.lll import integral_lll
from ..primitives import (CONFIG, BigInt, Count, OutInt, OutRat, Rat, Rule, RULE_MATRIX_SHAPE,
                          matrix_model, reject)
from ..tool import Bounds, Example, MathTool
from .linalg import _kernel_basis

MAX_SIZE = 8
IntegerMatrix = matrix_model("IntegerMatrix9", BigInt(9), MAX_SIZE,
                             "integer entries below 10^9 in absolute value")
IntegerMatrixValue = matrix_model("IntegerMatrixValue", OutInt, MAX_SIZE, "exact integers")
RULE_RHS = Rule("rhs_length", "rhs, when given, must have exactly one entry per matrix row.")


def _mat_vec(rows: list[list[int]], v: list) -> list:
    return [sum((a * x for a, x in zip(row, v)), 0) for row in rows]


def _gram_schmidt(basis: list[list[int]]) -> list[list[Fraction]]:
    ortho: list[list[Fraction]] = []
    for b in basis:
        v = [Fraction(x) for x in b]
        for u in ortho:
            mu = sum(x * y for x, y in zip(v, u)) / sum(y * y for y in u)
            v = [x - mu * y for x, y in zip(v, u)]
        ortho.append(v)
    return ortho


def nearest_plane(x: list[int], basis: list[list[int]]) -> list[int]:
    """x minus a lattice vector of `basis` (Babai): each Gram-Schmidt coordinate of the result
    has absolute value at most 1/2, so its size is bounded by the basis, not by x."""
    ortho = _gram_schmidt(basis)
    x = list(x)
    for b, u in zip(reversed(basis), reversed(ortho)):
        k = round(sum(Fraction(a) * c for a, c in zip(x, u)) / sum(c * c for c in u))
        if k:
            x = [a - k * c for a, c in zip(x, b)]
    return x


def integer_kernel(nrows: int, ncols: int, rows: list[list[int]]):
    """(Smith diagonal, U, V, rank, LLL-reduced kernel basis) with S = U A V checked."""
    from ..adapters import sympy_lattice as backend
    s, u, v = backend.smith(nrows, ncols, rows)
    av = [[sum(rows[i][k] * v[k][j] for k in range(ncols)) for j in range(ncols)]
          for i in range(nrows)]
    if [[sum(u[i][k] * av[k][j] for k in range(nrows)) for j in range(ncols)]
            for i in range(nrows)] != s:
        raise BackendFault("smith_decomposition_mismatch")
    diagonal = [s[i][i] for i in range(min(nrows, ncols)) if s[i][i]]
    rank = len(diagonal)
    if any(d <= 0 for d in diagonal) or any(b % a for a, b in zip(diagonal, diagonal[1:])):
        diagonal = [abs(d) for d in diagonal]
        if any(b % a for a, b in zip(diagonal, diagonal[1:])):
            raise BackendFault("invariant_factors_do_not_divide")
    kernel = [[v[i][j] for i in range(ncols)] for j in range(rank, ncols)]
    if kernel:
        kernel = integral_lll(kernel)[0]
    return s, u, v, rank, kernel


# --- linalg.integer.normal_forms ------------------------------------------------------------

class NormalFormRequest(BaseModel):
    model_config = CONFIG
    matrix: IntegerMatrix
    rhs: Annotated[list[BigInt(9)] | None, Field(max_length=MAX_SIZE, description=(
        "Optional b: the integer solutions of A x = b are returned. " + RULE_RHS.text))] = None

    @model_validator(mode="after")
    def _rhs_length(self) -> "NormalFormRequest":
        if self.rhs is not None and len(self.rhs) != self.matrix.nrows:
            reject(RULE_RHS.code, f"rhs has {len(self.rhs)} entries; the matrix has "
                   f"{self.matrix.nrows} rows", ("rhs",))
        return self


class IntegerSolvable(BaseModel):
    model_config = CONFIG
    status: Literal["solvable"]
    particular: list[OutInt] = Field(description=(
        "x0 in Z^n with A x0 = b; the integer solutions are exactly x0 + Z-span(kernel)."))


class NoIntegerSolution(BaseModel):
    model_config = CONFIG
    status: Literal["no_integer_solution"]
    certificate: list[OutRat] = Field(description=(
        "y in [0, 1)^m with y^T A integral and y^T b not an integer, which no integral x "
        "can satisfy (it also covers systems without rational solutions)."))


class NormalForms(BaseModel):
    model_config = CONFIG
    rank: Count(0, MAX_SIZE)
    invariant_factors: list[OutInt] = Field(description=(
        "d_1 | d_2 | ... | d_r > 0: the nonzero diagonal of the Smith normal form U A V."))
    hermite: IntegerMatrixValue = Field(description=(
        "The Hermite normal form H of A (column style, Cohen's convention): its r columns are "
        "a basis of the lattice spanned by the columns of A; each column's last nonzero entry "
        "is its pivot, positive, pivot rows increase from left to right, and in a pivot's row "
        "the entries to its right lie in [0, pivot)."))
    kernel: list[list[OutInt]] = Field(description=(
        "An LLL-reduced basis of the integer kernel {x in Z^n : A x = 0} (n - r vectors)."))
    solution: Annotated[IntegerSolvable | NoIntegerSolution | None, Field(
        discriminator="status", description="Present when rhs was given.")] = None


def normal_forms(request: NormalFormRequest) -> NormalForms:
    from ..adapters import sympy_lattice as backend
    from ..adapters import sympy_matrix
    m = request.matrix
    rows = m.rows
    s, u, v, rank, kernel = integer_kernel(m.nrows, m.ncols, rows)
    if any(_mat_vec(rows, k) != [0] * m.nrows for k in kernel):
        raise BackendFault("kernel_vector_not_in_kernel")
    hermite = backend.hermite(m.nrows, m.ncols, rows) if rank else [[] for _ in range(m.nrows)]
    solution = None
    if request.rhs is not None:
        b = request.rhs
        c = _mat_vec(u, b)
        bad = next((i for i in range(rank) if c[i] % s[i][i]), None)
        if bad is not None:
            y = [Fraction(x, s[bad][bad]) for x in u[bad]]
        elif any(c[rank:]):
            left = [[Fraction(rows[i][j]) for i in range(m.nrows)] for j in range(m.ncols)]
            reduced, pivots = sympy_matrix.rref(m.ncols, m.nrows, left)
            w = next(w for w in _kernel_basis(reduced, pivots, m.nrows)
                     if sum(a * x for a, x in zip(w, b)))
            y = [x / (2 * sum(a * x for a, x in zip(w, b))) for x in w]
        else:
            z = [c[i] // s[i][i] for i in range(rank)] + [0] * (m.ncols - rank)
            x = nearest_plane(_mat_vec(v, z), kernel) if kernel else _mat_vec(v, z)
            if _mat_vec(rows, x) != list(b):
                raise BackendFault("particular_solution_wrong")
            solution = IntegerSolvable(status="solvable", particular=x)
            y = None
        if y is not None:
            y = [x - math.floor(x) for x in y]
            ya = [sum((yi * rows[i][j] for i, yi in enumerate(y)), Fraction(0))
                  for j in range(m.ncols)]
            yb = sum((yi * bi for yi, bi in zip(y, b)), Fraction(0))
            if any(t.denominator != 1 for t in ya) or yb.denominator == 1:
                raise BackendFault("farkas_certificate_failed")
            solution = NoIntegerSolution(status="no_integer_solution", certificate=y)
    return NormalForms(
        rank=rank, invariant_factors=[abs(s[i][i]) for i in range(rank)],
        hermite=IntegerMatrixValue(nrows=m.nrows, ncols=len(hermite[0]) if m.nrows else 0,
                                   rows=hermite),
        kernel=kernel, solution=solution)


NORMAL_FORMS = MathTool(
    identifier="linalg.integer.normal_forms",
    vocabulary=(
        "Smith normal form", "Hermite normal form", "invariant factors", "elementary divisors",
        "integer solutions", "linear Diophantine system", "diophantine equations",
        "integer kernel", "integer nullspace", "lattice basis", "abelian group structure",
        "integer Farkas lemma"),
    claim=("For an integer matrix A: its rank, the invariant factors of its Smith normal form, "
           "its Hermite normal form, an LLL-reduced basis of the integer kernel, and, given b, "
           "either an integer x0 with A x0 = b (all integer solutions are x0 + the kernel "
           "lattice) or a rational y with y^T A integral and y^T b not an integer, proving "
           "there is no integer solution."),
    request=NormalFormRequest, result=NormalForms, function=normal_forms,
    adapters=("sympy_lattice", "sympy_matrix"),
    rules=(RULE_MATRIX_SHAPE, RULE_RHS),
    examples=(
        Example.of("Compute the Smith and Hermite normal forms of [[2, 4, 4], [-6, 6, 12]] and "
                   "the integer solutions of A x = [2, 6]; entries are integers below 10^9 and "
                   "rhs has one entry per row.",
                   {"matrix": {"nrows": 2, "ncols": 3, "rows": [[2, 4, 4], [-6, 6, 12]]},
                    "rhs": [2, 6]}),
        Example.of("Compute whether 2x + 4y = 3 has integer solutions, with a certificate if "
                   "not; nrows and ncols must match the rows.",
                   {"matrix": {"nrows": 1, "ncols": 2, "rows": [[2, 4]]}, "rhs": [3]})),
    bounds=Bounds(
        input="At most 8x8, integer entries and rhs below 10^9 in absolute value.",
        computation="sympy's Smith decomposition (intermediate entries measured up to about "
                    "1000 bits at 8x8 with 10^9 entries), Hermite form, LLL on at most 8 "
                    "vectors, Babai rounding: measured under 0.2 s at the largest input.",
        output="Invariant factors and Hermite pivots divide r x r minors: below (sqrt 8 * "
               "10^9)^8 < 10^77; kernel vectors at most 2^3.5 sqrt(8) 10^77 < 10^79 (LLL over "
               "the Cramer vectors); the particular solution at most the minimum-norm rational "
               "solution plus half the basis lengths (< 10^160); certificate entries in [0, 1) "
               "with denominators below 10^77."))


# --- nt.integer.relations -------------------------------------------------------------------

class RelationRequest(BaseModel):
    model_config = CONFIG
    values: Annotated[list[Rat(30, 30)], Field(min_length=1, max_length=12, description=(
        "x_1..x_n: 1 to 12 exact rationals (numerators and denominators below 10^30)."))]


class Relations(BaseModel):
    model_config = CONFIG
    relations: list[list[OutInt]] = Field(description=(
        "An LLL-reduced basis (delta = 3/4) of the lattice of ALL integer relations "
        "{m in Z^n : sum m_i x_i = 0}: n - 1 vectors when some x_i != 0, n unit vectors when "
        "all are 0. The first is within 2^((n-2)/2) of the shortest nonzero relation."))
    complement: list[OutInt] | None = Field(description=(
        "w with sum w_i x_i = g = gcd of the scaled values / common denominator, the smallest "
        "positive value an integer combination takes; the relations and w together form a "
        "unimodular matrix, which proves the relations are all of them. null when all x_i "
        "are 0."))
    gcd: OutRat = Field(description="g: the integer combinations of the x_i are exactly g*Z.")


def integer_relations(request: RelationRequest) -> Relations:
    xs = request.values
    n = len(xs)
    scale = math.lcm(*(x.denominator for x in xs))
    a = [int(x * scale) for x in xs]
    if not any(a):
        return Relations(relations=[[int(i == j) for j in range(n)] for i in range(n)],
                         complement=None, gcd=Fraction(0))
    s, u, v, rank, kernel = integer_kernel(1, n, [a])
    w = [u[0][0] * v[i][0] for i in range(n)]
    w = nearest_plane(w, kernel) if kernel else w
    g = sum(x * y for x, y in zip(w, a))
    if g != math.gcd(*a) or any(sum(x * y for x, y in zip(k, a)) for k in kernel):
        raise BackendFault("relation_lattice_wrong")
    return Relations(relations=kernel, complement=w, gcd=Fraction(g, scale))


RELATIONS = MathTool(
    identifier="nt.integer.relations",
    vocabulary=(
        "integer relation", "LLL", "lattice reduction", "Lenstra-Lenstra-Lovasz",
        "short vector", "linear dependence over the integers", "PSLQ", "relation lattice",
        "Bezout vector"),
    claim=("For rationals x_1..x_n: an LLL-reduced basis of the lattice of all integer "
           "relations sum m_i x_i = 0, with a complement vector w (sum w_i x_i = g > 0, the "
           "generator of the x_i's integer combinations) that makes the basis provably "
           "complete."),
    request=RelationRequest, result=Relations, function=integer_relations,
    adapters=("sympy_lattice",),
    examples=(Example.of(
        "Compute all integer relations among 1/2, 1/3 and 5/6 as a reduced basis; give 1 to 12 "
        "exact rationals as integers or reduced fractions like \"1/3\".",
        {"values": ["1/2", "1/3", "5/6"]}),),
    bounds=Bounds(
        input="n <= 12 rationals with numerators and denominators below 10^30.",
        computation="Scaling by the common denominator (< 10^360), a 1 x n Smith decomposition "
                    "(extended gcds) and LLL on n - 1 vectors: measured 1.4 s (2 cores, loaded) at the "
                    "largest input.",
        output="Scaled values a_i < 10^390; the relation lattice has determinant "
               "||a|| / g < 10^391, so LLL vectors stay below 2^5.5 * 10^391 and w below "
               "the same (Babai); at most 12 x 12 integers."))


TOOLS = (NORMAL_FORMS, RELATIONS)
