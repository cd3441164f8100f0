"""Exact linear algebra over the rationals (MATH.md §5.3).

Everything is computed over Q with sympy's DomainMatrix; there is no floating point anywhere,
so a near-singular matrix such as [[10^9+1, 10^9], [10^9, 10^9-1]] (determinant -1) is never
mistaken for a singular one. Solution sets come with certificates: a rank comes with a
nonsingular submatrix, an inconsistent system with a Fredholm vector y (y^T A = 0, y^T b != 0).
Eigenvalues are grouped by the irreducible factors of the characteristic polynomial over Q,
which keeps them exact and compact whatever their degree.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Annotated, Literal

from pydantic import BaseModel, Field, model_validator

from ..errors import BackendFault
from ..primitives import (CONFIG, AlgebraicNumber, BigInt, Count, IntegerPolynomial, OutRat,
                          Rat, Rule, RULE_MATRIX_SHAPE, RULE_RATIONAL, RULE_SQUARE, matrix_model,
                          reject, tagged)
from ..tool import Bounds, Example, MathTool
from .poly import PolynomialValue, integer_polynomial

Matrix10 = matrix_model("Matrix10", Rat(9, 4), 10, "rational entries (numerators below 10^9, "
                        "denominators below 10^4)")
Matrix8 = matrix_model("Matrix8", Rat(6, 3), 8, "rational entries (numerators below 10^6, "
                       "denominators below 10^3)")
SquareMatrix10 = matrix_model("SquareMatrix10", Rat(9, 4), 10, "rational entries (numerators "
                              "below 10^9, denominators below 10^4)", square=True)
IntegerMatrix8 = matrix_model("IntegerMatrix8", BigInt(6, power=True), 8,
                              "integer entries of absolute value at most 10^6", square=True)
MatrixValue = matrix_model("MatrixValue", OutRat, 10, "exact rational entries")

EXAMPLE_2X2 = {"nrows": 2, "ncols": 2, "rows": [[1, 2], [3, 4]]}


def _require_square(matrix: BaseModel) -> None:
    if matrix.nrows != matrix.ncols:
        reject(RULE_SQUARE.code, f"the matrix is {matrix.nrows}x{matrix.ncols}; this operation "
               "needs a square matrix", ("matrix", "ncols"))


def _rank(nrows: int, ncols: int, rows: list[list[Fraction]]) -> int:
    from ..adapters import sympy_matrix as backend
    return len(backend.rref(nrows, ncols, rows)[1])


def _transpose(nrows: int, ncols: int, rows: list[list[Fraction]]) -> list[list[Fraction]]:
    return [[rows[i][j] for i in range(nrows)] for j in range(ncols)]


def _kernel_basis(reduced: list[list[Fraction]], pivots: list[int], ncols: int
                  ) -> list[list[Fraction]]:
    """The canonical kernel basis read from an RREF: one vector per free column, with 1 at
    that column, 0 at the other free columns, and minus the RREF entries at the pivots."""
    basis = []
    for free in (c for c in range(ncols) if c not in pivots):
        v = [Fraction(0)] * ncols
        v[free] = Fraction(1)
        for i, p in enumerate(pivots):
            v[p] = -reduced[i][free]
        basis.append(v)
    return basis


# --- linalg.det -----------------------------------------------------------------------------

class SquareRequest10(BaseModel):
    model_config = CONFIG
    matrix: Annotated[SquareMatrix10, Field(description=RULE_SQUARE.text)]

    @model_validator(mode="after")
    def _square(self) -> "SquareRequest10":
        _require_square(self.matrix)
        return self


class Determinant(BaseModel):
    model_config = CONFIG
    determinant: OutRat


def determinant(request: SquareRequest10) -> Determinant:
    from ..adapters import sympy_matrix as backend
    m = request.matrix
    return Determinant(determinant=backend.determinant(m.nrows, m.rows))


DET = MathTool(
    identifier="linalg.det",
    vocabulary=(
        "determinant", "det", "singular matrix", "is the matrix invertible", "nonsingular",
        "volume", "Leibniz", "Laplace expansion"),
    claim="The exact determinant of a square matrix over Q (the determinant of 0x0 is 1).",
    request=SquareRequest10, result=Determinant, function=determinant,
    rules=(RULE_MATRIX_SHAPE, RULE_SQUARE, RULE_RATIONAL),
    examples=(Example.of(
        "Compute the exact determinant of [[1, 2], [3, 4]]; the matrix must be square, with "
        "nrows and ncols matching the rows, entries integers or reduced fractions like \"3/4\".",
        {"matrix": EXAMPLE_2X2}),),
    bounds=Bounds(
        input="n <= 10, numerators < 10^9, denominators < 10^4.",
        computation="Fraction-free elimination over QQ (DomainMatrix.det): under 10 ms.",
        output="With Di the row denominator lcm (< 10^40), det = det(DA)/prod Di; Hadamard "
               "bounds the numerator by 495 digits and the denominator by 400 digits."))


# --- linalg.rank ----------------------------------------------------------------------------

class MatrixRequest10(BaseModel):
    model_config = CONFIG
    matrix: Matrix10


class Rank(BaseModel):
    model_config = CONFIG
    rank: Count(0, 10)
    witness_rows: list[Count(0, 9)] = Field(description="Row indices of a nonsingular r x r "
                                                        "submatrix.")
    witness_cols: list[Count(0, 9)] = Field(description="Its column indices.")


def rank(request: MatrixRequest10) -> Rank:
    from ..adapters import sympy_matrix as backend
    m = request.matrix
    cols = backend.rref(m.nrows, m.ncols, m.rows)[1]
    rows = backend.rref(m.ncols, m.nrows, _transpose(m.nrows, m.ncols, m.rows))[1]
    if len(rows) != len(cols):
        raise BackendFault("row_rank_differs_from_column_rank")
    # A basis of the row space and a basis of the column space meet in a nonsingular minor.
    return Rank(rank=len(cols), witness_rows=rows, witness_cols=cols)


RANK = MathTool(
    identifier="linalg.rank",
    vocabulary=(
        "rank", "rank of a matrix", "matrix rank", "linear independence", "linearly independent",
        "linearly dependent", "column space dimension", "row space dimension", "full rank",
        "nonsingular minor"),
    claim=("The rank over Q with a witness: row and column indices of a nonsingular r x r "
           "submatrix."),
    request=MatrixRequest10, result=Rank, function=rank,
    rules=(RULE_MATRIX_SHAPE, RULE_RATIONAL),
    examples=(Example.of(
        "Compute the rank over the rationals of [[1, 2, 3], [2, 4, 6]] with a witness "
        "submatrix; nrows and ncols must match the rows.",
        {"matrix": {"nrows": 2, "ncols": 3, "rows": [[1, 2, 3], [2, 4, 6]]}}),),
    bounds=Bounds(
        input="At most 10x10, numerators < 10^9, denominators < 10^4.",
        computation="Two RREF computations over QQ (A and its transpose): milliseconds.",
        output="At most 21 small integers."))


# --- linalg.rref ----------------------------------------------------------------------------

class MatrixRequest8(BaseModel):
    model_config = CONFIG
    matrix: Matrix8


class Rref(BaseModel):
    model_config = CONFIG
    rref: MatrixValue
    pivot_columns: list[Count(0, 7)]


def reduced_row_echelon(request: MatrixRequest8) -> Rref:
    from ..adapters import sympy_matrix as backend
    m = request.matrix
    reduced, pivots = backend.rref(m.nrows, m.ncols, m.rows)
    return Rref(rref=MatrixValue(nrows=m.nrows, ncols=m.ncols, rows=reduced),
                pivot_columns=pivots)


RREF = MathTool(
    identifier="linalg.rref",
    vocabulary=(
        "reduced row echelon form", "row echelon form", "row reduction", "row reduce",
        "Gaussian elimination", "Gauss-Jordan elimination", "Gauss-Jordan", "echelon",
        "pivot columns", "pivots", "elimination"),
    claim="The unique reduced row echelon form R of A over Q and its pivot columns.",
    request=MatrixRequest8, result=Rref, function=reduced_row_echelon,
    rules=(RULE_MATRIX_SHAPE, RULE_RATIONAL),
    examples=(Example.of(
        "Compute the reduced row echelon form of [[2, 4], [1, 3]] with pivot columns; nrows "
        "and ncols must match the rows.",
        {"matrix": {"nrows": 2, "ncols": 2, "rows": [[2, 4], [1, 3]]}}),),
    bounds=Bounds(
        input="At most 8x8, numerators < 10^6, denominators < 10^3.",
        computation="Gauss-Jordan elimination over QQ: milliseconds.",
        output="Each entry is a ratio of minors of the row-scaled matrix (< 10^244 each): at "
               "most 64 entries of at most 490 characters."))


# --- linalg.nullspace -----------------------------------------------------------------------

class Nullspace(BaseModel):
    model_config = CONFIG
    basis: list[list[OutRat]] = Field(description=(
        "The canonical basis from the RREF: one vector per free column, 1 there and 0 at the "
        "other free columns; each vector has ncols entries."))


def nullspace(request: MatrixRequest8) -> Nullspace:
    from ..adapters import sympy_matrix as backend
    m = request.matrix
    reduced, pivots = backend.rref(m.nrows, m.ncols, m.rows)
    return Nullspace(basis=_kernel_basis(reduced, pivots, m.ncols))


NULLSPACE = MathTool(
    identifier="linalg.nullspace",
    vocabulary=(
        "kernel", "kernel of a matrix", "null space", "nullspace", "nullity",
        "homogeneous system", "homogeneous linear equations", "solutions of Ax = 0",
        "linear dependencies among columns"),
    claim=("A basis of {v : Av = 0} over Q: the canonical basis read from the RREF (one vector "
           "per free column, 1 there and 0 at the other free columns)."),
    request=MatrixRequest8, result=Nullspace, function=nullspace,
    rules=(RULE_MATRIX_SHAPE, RULE_RATIONAL),
    examples=(Example.of(
        "Compute a basis of the nullspace of [[1, 2, 3], [2, 4, 6], [1, 0, 1]] over the "
        "rationals; nrows and ncols must match the rows.",
        {"matrix": {"nrows": 3, "ncols": 3, "rows": [[1, 2, 3], [2, 4, 6], [1, 0, 1]]}}),),
    bounds=Bounds(
        input="As linalg.rref.",
        computation="One RREF over QQ: milliseconds.",
        output="At most 8 vectors of 8 entries, each an RREF entry (< 10^244)."))


# --- linalg.solve ---------------------------------------------------------------------------

RULE_RHS = Rule("rhs_length", "rhs must have exactly one entry per matrix row (nrows entries).")


class SolveRequest(BaseModel):
    model_config = CONFIG
    matrix: Matrix8
    rhs: Annotated[list[Rat(6, 3)], Field(max_length=8, description=(
        "The right-hand side b. " + RULE_RHS.text))]

    @model_validator(mode="after")
    def _rhs_length(self) -> "SolveRequest":
        if len(self.rhs) != self.matrix.nrows:
            reject(RULE_RHS.code, f"rhs has {len(self.rhs)} entries; the matrix has "
                   f"{self.matrix.nrows} rows", ("rhs",))
        return self


class Unique(BaseModel):
    model_config = CONFIG
    status: Literal["unique"]
    x: list[OutRat]


class Affine(BaseModel):
    model_config = CONFIG
    status: Literal["affine"]
    particular: list[OutRat] = Field(description="x0 with A x0 = b (free variables set to 0).")
    basis: list[list[OutRat]] = Field(description="A basis of the kernel of A; the solutions "
                                                  "are x0 + span(basis).")


class Inconsistent(BaseModel):
    model_config = CONFIG
    status: Literal["inconsistent"]
    certificate: list[OutRat] = Field(description="y with y^T A = 0 and y^T b != 0.")


SolveResult = tagged(Unique, Affine, Inconsistent)


def solve_linear(request: SolveRequest):
    from ..adapters import sympy_matrix as backend
    m, b = request.matrix, request.rhs
    augmented = [row + [bi] for row, bi in zip(m.rows, b)]
    reduced, pivots = backend.rref(m.nrows, m.ncols + 1, augmented)
    if m.ncols in pivots:
        transposed = _transpose(m.nrows, m.ncols, m.rows)
        left = _kernel_basis(*backend.rref(m.ncols, m.nrows, transposed), m.nrows)
        for y in left:
            if sum(yi * bi for yi, bi in zip(y, b)) != 0:
                return Inconsistent(status="inconsistent", certificate=y)
        raise BackendFault("no_fredholm_certificate")
    x0 = [Fraction(0)] * m.ncols
    for i, p in enumerate(pivots):
        x0[p] = reduced[i][m.ncols]
    basis = _kernel_basis(reduced, pivots, m.ncols)
    if not basis:
        return Unique(status="unique", x=x0)
    return Affine(status="affine", particular=x0, basis=basis)


SOLVE = MathTool(
    identifier="linalg.solve",
    vocabulary=(
        "linear system", "system of linear equations", "linear equations",
        "simultaneous linear equations", "solve Ax = b", "matrix equation", "inconsistent system",
        "Fredholm alternative", "affine solution set", "unique solution"),
    claim=("The solution set of Ax = b over Q: unique x; affine x0 + span(basis); or "
           "inconsistent with a certificate y such that y^T A = 0 and y^T b != 0 (Fredholm "
           "alternative)."),
    request=SolveRequest, result=SolveResult, function=solve_linear,
    rules=(RULE_MATRIX_SHAPE, RULE_RATIONAL, RULE_RHS),
    examples=(Example.of(
        "Compute all rational solutions x of [[1, 1], [1, -1]] x = [3, 1]; rhs must have one "
        "entry per matrix row.",
        {"matrix": {"nrows": 2, "ncols": 2, "rows": [[1, 1], [1, -1]]}, "rhs": [3, 1]}),),
    bounds=Bounds(
        input="As linalg.rref, plus rhs with nrows entries of the same size.",
        computation="Two RREF computations over QQ (the augmented matrix, and A^T when "
                    "inconsistent): milliseconds.",
        output="At most 9 vectors of at most 8 entries, each a ratio of minors (< 10^244)."))


# --- linalg.charpoly ------------------------------------------------------------------------

class SquareIntegerRequest(BaseModel):
    model_config = CONFIG
    matrix: Annotated[IntegerMatrix8, Field(description=RULE_SQUARE.text)]

    @model_validator(mode="after")
    def _square(self) -> "SquareIntegerRequest":
        _require_square(self.matrix)
        return self


class Charpoly(BaseModel):
    model_config = CONFIG
    charpoly: PolynomialValue = Field(description="det(xI - A) in the variable x: monic of "
                                                  "degree n with integer coefficients.")


def characteristic_polynomial(request: SquareIntegerRequest) -> Charpoly:
    from ..adapters import sympy_matrix as backend
    m = request.matrix
    coefficients = backend.charpoly(m.nrows, m.rows)
    return Charpoly(charpoly=PolynomialValue(variable="x", coefficients=coefficients))


CHARPOLY = MathTool(
    identifier="linalg.charpoly",
    vocabulary=(
        "characteristic polynomial", "charpoly", "det(xI - A)", "Cayley-Hamilton", "Berkowitz",
        "secular equation", "trace and determinant"),
    claim="det(xI - A) in Z[x] for a square integer matrix A (monic of degree n; 1 for 0x0).",
    request=SquareIntegerRequest, result=Charpoly, function=characteristic_polynomial,
    rules=(RULE_MATRIX_SHAPE, RULE_SQUARE),
    examples=(Example.of(
        "Compute the characteristic polynomial det(xI - A) of [[1, 2], [3, 4]]; the matrix "
        "must be square with integer entries of absolute value at most 10^6.",
        {"matrix": EXAMPLE_2X2}),),
    bounds=Bounds(
        input="n <= 8, integer entries with |aij| <= 10^6.",
        computation="Berkowitz over ZZ (DomainMatrix.charpoly): about 1 ms.",
        output="|ck| <= C(n,k) * k^(k/2) * 10^(6k) <= 10^52."))


# --- linalg.eigenvalues ---------------------------------------------------------------------

class EigenvaluesRequest(BaseModel):
    model_config = CONFIG
    matrix: Annotated[IntegerMatrix8, Field(description=RULE_SQUARE.text)]
    isolate: bool = Field(False, description=(
        "Also return every irrational eigenvalue as an algebraic number with an exact "
        "isolating interval or box."))

    @model_validator(mode="after")
    def _square(self) -> "EigenvaluesRequest":
        _require_square(self.matrix)
        return self


class EigenGroup(BaseModel):
    model_config = CONFIG
    minimal_polynomial: IntegerPolynomial = Field(description=(
        "An irreducible factor g of the characteristic polynomial: every root of g is an "
        "eigenvalue."))
    degree: Count(1, 8)
    algebraic_multiplicity: Count(1, 8) = Field(description="The multiplicity e of g in the "
                                                            "characteristic polynomial.")
    value: OutRat | None = Field(description="The eigenvalue itself when g has degree 1.")
    geometric_multiplicity: Count(1, 8) | None = Field(description=(
        "dim ker(A - value I) when g has degree 1, else null."))
    roots: list[AlgebraicNumber] | None = Field(description=(
        "The roots of g with isolating regions when isolate was requested and degree >= 2."))


class Eigenvalues(BaseModel):
    model_config = CONFIG
    size: Count(0, 8)
    groups: list[EigenGroup] = Field(description="Sorted by degree, then coefficients; the sum "
                                                 "of degree * algebraic_multiplicity is size.")


def eigenvalues(request: EigenvaluesRequest) -> Eigenvalues:
    from ..adapters import root_isolation as isolation
    from ..adapters import sympy_matrix as matrices
    from ..adapters import sympy_poly as polys
    m = request.matrix
    n = m.nrows
    _, factors = polys.factor_over_q([Fraction(c) for c in matrices.charpoly(n, m.rows)])
    groups = []
    for g, e in sorted(factors, key=lambda pair: (len(pair[0]), pair[0])):
        minimal = integer_polynomial("x", g)
        value = geometric = roots = None
        if len(g) == 2:
            value = Fraction(-g[1], g[0])
            shifted = [[Fraction(v) - (value if i == j else 0) for j, v in enumerate(row)]
                       for i, row in enumerate(m.rows)]
            geometric = n - _rank(n, n, shifted)
        elif request.isolate:
            roots = [AlgebraicNumber(minimal_polynomial=minimal, approx=approx, root=(
                {"kind": kind, "index": index, "interval": region} if kind == "real" else
                {"kind": kind, "index": index, "box": region}))
                for kind, index, region, approx in isolation.isolate(g)]
        groups.append(EigenGroup(minimal_polynomial=minimal, degree=len(g) - 1,
                                 algebraic_multiplicity=e, value=value,
                                 geometric_multiplicity=geometric, roots=roots))
    return Eigenvalues(size=n, groups=groups)


EIGENVALUES = MathTool(
    identifier="linalg.eigenvalues",
    vocabulary=(
        "eigenvalues", "eigenvalue", "spectrum", "characteristic roots", "latent roots",
        "algebraic multiplicity", "geometric multiplicity", "diagonalizable", "Jordan form",
        "spectral"),
    claim=("All complex eigenvalues with algebraic multiplicities, grouped by the irreducible "
           "factors g of the characteristic polynomial over Q: every root of g is an eigenvalue "
           "of algebraic multiplicity e (sum of deg(g) * e = n). For rational eigenvalues the "
           "value and the geometric multiplicity are also returned. With isolate: true each "
           "irrational eigenvalue also gets an exact isolating region."),
    request=EigenvaluesRequest, result=Eigenvalues, function=eigenvalues,
    rules=(RULE_MATRIX_SHAPE, RULE_SQUARE),
    examples=(Example.of(
        "Compute the exact eigenvalues of [[1, 2], [3, 4]] with algebraic multiplicities; the "
        "matrix must be square with integer entries of absolute value at most 10^6.",
        {"matrix": EXAMPLE_2X2}),),
    bounds=Bounds(
        input="n <= 8, integer entries with |aij| <= 10^6 (a rational matrix can be scaled by "
              "a common denominator d first; its eigenvalues are then divided by d).",
        computation="Characteristic polynomial (ms) + factorisation over Q (< 5 ms measured) "
                    "+ one rank per rational eigenvalue + optional root isolation (<= 0.21 s "
                    "measured at n = 8, |a| <= 10^6). Matrix.eigenvals is not used.",
        output="Factors obey the Mignotte bound (< 10^57 per coefficient); at most 8 groups."))


TOOLS = (DET, RANK, RREF, NULLSPACE, SOLVE, CHARPOLY, EIGENVALUES)
