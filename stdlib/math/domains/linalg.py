"""Exact linear algebra over the rationals (MATH.md §5.3).

Everything is computed over Q with sympy's DomainMatrix; there is no floating point anywhere,
so a near-singular matrix such as [[10^9+1, 10^9], [10^9, 10^9-1]] (determinant -1) is never
mistaken for a singular one. Solution sets come with certificates: a rank comes with a
nonsingular submatrix, an inconsistent system with a Fredholm vector y (y^T A = 0, y^T b != 0).
Eigenvalues are grouped by the irreducible factors of the characteristic polynomial over Q,
which keeps them exact and compact whatever their degree.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Annotated, Literal

from pydantic import BaseModel, Field, model_validator

from ..errors import BackendFault
from ..kernels import matrices
from ..kernels.matrices import SIZE_DIGITS, size_digits
from ..primitives import (CONFIG, AlgebraicNumber, BigInt, Count, IntegerPolynomial, OutRat,
                          Rat, Rule, RULE_MATRIX_SHAPE, RULE_RATIONAL, RULE_SQUARE, after,
                          matrix_model, reject, tagged)
from ..tool import Bounds, Example, MathTool
from .poly import PolynomialValue, integer_polynomial

# The size rule (kernels/matrices.py) bounds what elimination's cost depends on.
MAX_DIM = 20
ENTRY_DIGITS = 1000
RULE_SIZE = Rule(
    matrices.SIZE_CODE,
    f"Size rule: for each row take d, the lcm of its denominators, and r, the Euclidean length "
    f"of the row times d; the digits of d * max(1, r) (log10), summed over the rows, are at "
    f"most {SIZE_DIGITS}, and the same holds for the columns. By Hadamard's inequality this "
    f"bounds every number in the answer, and every intermediate value of the elimination, by "
    f"{SIZE_DIGITS} digits: a 10x10 matrix of 290-digit integers fits, so does a 20x20 matrix "
    f"of 140-digit integers.")
SIZE_INPUT = (f"n <= {MAX_DIM} rows and columns, numerators and denominators below "
              f"10^{ENTRY_DIGITS}, and the size rule: by rows and by columns, the sum of "
              f"log10(d * max(1, |d * row|)) (d the denominator lcm) is at most {SIZE_DIGITS} "
              "digits.")
_ENTRY = Rat(ENTRY_DIGITS, ENTRY_DIGITS)
_ENTRY_TEXT = (f"rational entries (numerators and denominators below 10^{ENTRY_DIGITS}; see "
               "the size rule)")
MatrixQ = matrix_model("MatrixQ", _ENTRY, MAX_DIM, _ENTRY_TEXT)
SquareMatrixQ = matrix_model("SquareMatrixQ", _ENTRY, MAX_DIM, _ENTRY_TEXT, square=True)
CHARPOLY_DIM = 24
CharpolyMatrix = matrix_model("CharpolyMatrix", BigInt(ENTRY_DIGITS), CHARPOLY_DIM,
                              f"integer entries below 10^{ENTRY_DIGITS} in absolute value (see "
                              "the size rule)", square=True)
# Eigenvalues: the cost is set by the characteristic polynomial, degree n <= 20 with
# coefficients below C(n, k) (sqrt(k) 10^6)^k <= 10^139 (Hadamard), so the bound is on n and the
# entries, the same n as the rest of the family.
EigenMatrix = matrix_model("EigenMatrix", BigInt(6, power=True), MAX_DIM,
                           "integer entries of absolute value at most 10^6", square=True)
MatrixValue = matrix_model("MatrixValue", OutRat, MAX_DIM, "exact rational entries")


def _require_size(rows: list[list[Fraction]], ncols: int, loc: tuple) -> None:
    problem = matrices.size_problem(rows, ncols, loc)
    if problem is not None:
        reject(*problem)

EXAMPLE_2X2 = {"nrows": 2, "ncols": 2, "rows": [[1, 2], [3, 4]]}


def _require_square(matrix: BaseModel) -> None:
    problem = matrices.square_problem(matrix)
    if problem is not None:
        reject(*problem)


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

class SquareRequest(BaseModel):
    model_config = CONFIG
    matrix: Annotated[SquareMatrixQ, Field(description=RULE_SQUARE.text + " " + RULE_SIZE.text)]

    _square = after(matrices.square_request_problem)


class Determinant(BaseModel):
    model_config = CONFIG
    determinant: OutRat


DET = MathTool(
    identifier="linalg.det",
    vocabulary=(
        "determinant", "det", "singular matrix", "is the matrix invertible", "nonsingular",
        "volume", "Leibniz", "Laplace expansion"),
    claim="The exact determinant of a square matrix over Q (the determinant of 0x0 is 1).",
    request=SquareRequest, result=Determinant, kernel=matrices.determinant,
    adapters=("flint_matrix",),
    rules=(RULE_MATRIX_SHAPE, RULE_SQUARE, RULE_RATIONAL, RULE_SIZE),
    examples=(Example.of(
        "Compute the exact determinant of [[1, 2], [3, 4]]; the matrix must be square, with "
        "nrows and ncols matching the rows, entries integers or reduced fractions like \"3/4\".",
        {"matrix": EXAMPLE_2X2}),),
    bounds=Bounds(
        input=SIZE_INPUT,
        computation="FLINT's determinant over Q (fmpq_mat.det: denominators cleared, then the "
                    "integer determinant, multimodular up to Hadamard's bound): about n^3 "
                    f"operations on integers below 10^{SIZE_DIGITS} (minors of the row-scaled "
                    "matrix). Measured here (2 shared cores): 0.06-0.11 s through the worker "
                    "for 20x20 matrices of 149-digit integers (size 2989 digits), where "
                    "sympy's DomainMatrix.det, the backend before FLINT, took 0.9-1.2 s.",
        output="det = det(DA)/prod Di with Di the row denominator lcm: Hadamard bounds the "
               f"numerator and the denominator by {SIZE_DIGITS} digits each."))


# --- linalg.rank ----------------------------------------------------------------------------

class MatrixRequest(BaseModel):
    model_config = CONFIG
    matrix: Annotated[MatrixQ, Field(description=RULE_SIZE.text)]

    @model_validator(mode="after")
    def _size(self) -> "MatrixRequest":
        _require_size(self.matrix.rows, self.matrix.ncols, ("matrix",))
        return self


class Rank(BaseModel):
    model_config = CONFIG
    rank: Count(0, MAX_DIM)
    witness_rows: list[Count(0, MAX_DIM - 1)] = Field(description="Row indices of a "
                                                                  "nonsingular r x r submatrix.")
    witness_cols: list[Count(0, MAX_DIM - 1)] = Field(description="Its column indices.")


def rank(request: MatrixRequest) -> Rank:
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
    request=MatrixRequest, result=Rank, function=rank,
    adapters=("sympy_matrix",),
    rules=(RULE_MATRIX_SHAPE, RULE_RATIONAL, RULE_SIZE),
    examples=(Example.of(
        "Compute the rank over the rationals of [[1, 2, 3], [2, 4, 6]] with a witness "
        "submatrix; nrows and ncols must match the rows.",
        {"matrix": {"nrows": 2, "ncols": 3, "rows": [[1, 2, 3], [2, 4, 6]]}}),),
    bounds=Bounds(
        input=SIZE_INPUT,
        computation="Two RREF computations over QQ (A and its transpose), every intermediate "
                    f"value a ratio of minors below 10^{SIZE_DIGITS}. Measured here (load about "
                    "12): 2.3 s for a 20x20 matrix of 149-digit integers.",
        output=f"At most {2 * MAX_DIM + 1} small integers."))


# --- linalg.rref ----------------------------------------------------------------------------

class Rref(BaseModel):
    model_config = CONFIG
    rref: MatrixValue
    pivot_columns: list[Count(0, MAX_DIM - 1)]


def reduced_row_echelon(request: MatrixRequest) -> Rref:
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
    request=MatrixRequest, result=Rref, function=reduced_row_echelon,
    adapters=("sympy_matrix",),
    rules=(RULE_MATRIX_SHAPE, RULE_RATIONAL, RULE_SIZE),
    examples=(Example.of(
        "Compute the reduced row echelon form of [[2, 4], [1, 3]] with pivot columns; nrows "
        "and ncols must match the rows.",
        {"matrix": {"nrows": 2, "ncols": 2, "rows": [[2, 4], [1, 3]]}}),),
    bounds=Bounds(
        input=SIZE_INPUT,
        computation="Gauss-Jordan elimination over QQ, every intermediate value a ratio of "
                    f"minors below 10^{SIZE_DIGITS}. Measured here (load about 12): 1.7 s for a "
                    "20x20 matrix of 149-digit integers.",
        output="Each entry is a ratio of two minors of the row-scaled matrix, numerator and "
               f"denominator below 10^{SIZE_DIGITS}; at most {MAX_DIM * MAX_DIM} entries."))


# --- linalg.nullspace -----------------------------------------------------------------------

class Nullspace(BaseModel):
    model_config = CONFIG
    basis: list[list[OutRat]] = Field(description=(
        "The canonical basis from the RREF: one vector per free column, 1 there and 0 at the "
        "other free columns; each vector has ncols entries."))


def nullspace(request: MatrixRequest) -> Nullspace:
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
    request=MatrixRequest, result=Nullspace, function=nullspace,
    adapters=("sympy_matrix",),
    rules=(RULE_MATRIX_SHAPE, RULE_RATIONAL, RULE_SIZE),
    examples=(Example.of(
        "Compute a basis of the nullspace of [[1, 2, 3], [2, 4, 6], [1, 0, 1]] over the "
        "rationals; nrows and ncols must match the rows.",
        {"matrix": {"nrows": 3, "ncols": 3, "rows": [[1, 2, 3], [2, 4, 6], [1, 0, 1]]}}),),
    bounds=Bounds(
        input="As linalg.rref.",
        computation="One RREF over QQ (as linalg.rref): 1.4 s measured for a 20x20 matrix of "
                    "149-digit integers (load about 12).",
        output=f"At most {MAX_DIM} vectors of {MAX_DIM} entries, each an RREF entry (numerator "
               f"and denominator below 10^{SIZE_DIGITS})."))


# --- linalg.solve ---------------------------------------------------------------------------

RULE_RHS = Rule("rhs_length", "rhs must have exactly one entry per matrix row (nrows entries).")


class SolveRequest(BaseModel):
    model_config = CONFIG
    matrix: Annotated[MatrixQ, Field(description="The size rule applies to the augmented "
                                                 "matrix [A | b]. " + RULE_SIZE.text)]
    rhs: Annotated[list[_ENTRY], Field(max_length=MAX_DIM, description=(
        "The right-hand side b. " + RULE_RHS.text))]

    @model_validator(mode="after")
    def _rhs_length(self) -> "SolveRequest":
        if len(self.rhs) != self.matrix.nrows:
            reject(RULE_RHS.code, f"rhs has {len(self.rhs)} entries; the matrix has "
                   f"{self.matrix.nrows} rows", ("rhs",))
        augmented = [row + [b] for row, b in zip(self.matrix.rows, self.rhs)]
        _require_size(augmented, self.matrix.ncols + 1, ("matrix",))
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
    adapters=("sympy_matrix",),
    rules=(RULE_MATRIX_SHAPE, RULE_RATIONAL, RULE_RHS, RULE_SIZE),
    examples=(Example.of(
        "Compute all rational solutions x of [[1, 1], [1, -1]] x = [3, 1]; rhs must have one "
        "entry per matrix row.",
        {"matrix": {"nrows": 2, "ncols": 2, "rows": [[1, 1], [1, -1]]}, "rhs": [3, 1]}),),
    bounds=Bounds(
        input="As linalg.rref, with the size rule applied to the augmented matrix [A | b] and "
              "rhs holding nrows entries of the same kind.",
        computation="Two RREF computations over QQ (the augmented matrix, and A^T when "
                    "inconsistent): 2.0 s measured for a 20x19 system of 149-digit integers "
                    "(load about 12).",
        output=f"At most {MAX_DIM + 1} vectors of at most {MAX_DIM} entries, each a ratio of "
               f"minors of [A | b] or of A^T, numerator and denominator below 10^{SIZE_DIGITS}."))


# --- linalg.charpoly ------------------------------------------------------------------------

RULE_CHARPOLY_SIZE = Rule(
    "matrix_too_large",
    f"Size rule: n * log10(2) plus the sum over the rows of log10(max(1, r)), r the row's "
    f"Euclidean length, is at most {SIZE_DIGITS}: each coefficient of the characteristic "
    f"polynomial is a sum of at most 2^n principal minors, so it stays below 10^{SIZE_DIGITS} "
    f"(Hadamard). A 24x24 matrix of 120-digit integers fits.")


class CharpolyRequest(BaseModel):
    model_config = CONFIG
    matrix: Annotated[CharpolyMatrix, Field(description=RULE_SQUARE.text + " " +
                                            RULE_CHARPOLY_SIZE.text)]

    @model_validator(mode="after")
    def _square(self) -> "CharpolyRequest":
        _require_square(self.matrix)
        rows = [[Fraction(v) for v in row] for row in self.matrix.rows]
        digits = self.matrix.nrows * math.log10(2) + size_digits(rows)
        if digits > SIZE_DIGITS:
            reject(RULE_CHARPOLY_SIZE.code, f"the coefficient bound is {math.ceil(digits)} "
                   f"digits; at most {SIZE_DIGITS} (see the size rule)", ("matrix",))
        return self


class Charpoly(BaseModel):
    model_config = CONFIG
    charpoly: PolynomialValue = Field(description="det(xI - A) in the variable x: monic of "
                                                  "degree n with integer coefficients.")


def characteristic_polynomial(request: CharpolyRequest) -> Charpoly:
    from ..adapters import sympy_matrix as backend
    m = request.matrix
    coefficients = backend.charpoly(m.nrows, m.rows)
    return Charpoly(charpoly=PolynomialValue(variable="x", coefficients=coefficients))


CHARPOLY = MathTool(
    identifier="linalg.charpoly",
    synonyms=("char poly", "charpoly", "det(xI - A)"),
    vocabulary=(
        "characteristic polynomial", "charpoly", "det(xI - A)", "Cayley-Hamilton", "Berkowitz",
        "secular equation", "trace and determinant"),
    claim="det(xI - A) in Z[x] for a square integer matrix A (monic of degree n; 1 for 0x0).",
    request=CharpolyRequest, result=Charpoly, function=characteristic_polynomial,
    adapters=("sympy_matrix",),
    rules=(RULE_MATRIX_SHAPE, RULE_SQUARE, RULE_CHARPOLY_SIZE),
    examples=(Example.of(
        "Compute the characteristic polynomial det(xI - A) of [[1, 2], [3, 4]]; the matrix "
        "must be square with integer entries, within the size rule.",
        {"matrix": EXAMPLE_2X2}),),
    bounds=Bounds(
        input=f"n <= {CHARPOLY_DIM}, integer entries below 10^{ENTRY_DIGITS} in absolute value, "
              f"and n*log10(2) + sum over the rows of log10(max(1, |row|)) <= {SIZE_DIGITS}.",
        computation="Berkowitz over ZZ (DomainMatrix.charpoly): about n^4 integer operations "
                    f"on numbers below 10^{SIZE_DIGITS}; measured here (load about 12) 1.0 s for "
                    "a 24x24 matrix of 120-digit integers.",
        output="c_k is a sum of C(n, k) principal k-minors, each at most the product of k row "
               f"lengths (Hadamard): |c_k| < 10^{SIZE_DIGITS}."))


# --- linalg.eigenvalues ---------------------------------------------------------------------

class EigenvaluesRequest(BaseModel):
    model_config = CONFIG
    matrix: Annotated[EigenMatrix, Field(description=RULE_SQUARE.text)]
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
    degree: Count(1, 20)
    algebraic_multiplicity: Count(1, 20) = Field(description="The multiplicity e of g in the "
                                                            "characteristic polynomial.")
    value: OutRat | None = Field(description="The eigenvalue itself when g has degree 1.")
    geometric_multiplicity: Count(1, 20) | None = Field(description=(
        "dim ker(A - value I) when g has degree 1, else null."))
    roots: list[AlgebraicNumber] | None = Field(description=(
        "The roots of g with isolating regions when isolate was requested and degree >= 2."))


class Eigenvalues(BaseModel):
    model_config = CONFIG
    size: Count(0, 20)
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
    synonyms=("eigen", "eigenvectors", "spectral decomposition"),
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
    adapters=("root_isolation", "sympy_matrix", "sympy_poly"),
    rules=(RULE_MATRIX_SHAPE, RULE_SQUARE),
    examples=(Example.of(
        "Compute the exact eigenvalues of [[1, 2], [3, 4]] with algebraic multiplicities; the "
        "matrix must be square with integer entries of absolute value at most 10^6.",
        {"matrix": EXAMPLE_2X2}),),
    bounds=Bounds(
        input="n <= 20 (as linalg.det, solve and inverse), integer entries with |aij| <= 10^6 "
              "(a rational matrix can be scaled by a common denominator d first; its "
              "eigenvalues are then divided by d).",
        computation="Set by the characteristic polynomial: degree n <= 20, coefficients below "
                    "C(n, k) (sqrt(k) 10^6)^k <= 10^139 (Hadamard). Its computation (ms), "
                    "factorisation over Q (<= 0.02 s measured at n = 20, also for repeated "
                    "Swinnerton-Dyer blocks and x^20 - 1), one rank per rational eigenvalue, "
                    "optional root isolation: <= 1.2 s measured at n = 20 (a dense matrix with "
                    "|a| = 10^6, and the companion matrix of the Mignotte polynomial "
                    "x^20 - 2(700x - 1)^2, whose roots are the closest this degree and size "
                    "allow), under 20% of the 10 s deadline. Matrix.eigenvals is not used.",
        output="Factors obey the Mignotte bound (2^20 * sqrt(21) * 10^139 < 10^146 per "
               "coefficient); at most 20 groups."))


TOOLS = (DET, RANK, RREF, NULLSPACE, SOLVE, CHARPOLY, EIGENVALUES)
