"""The kernel of `linalg.det` (declared in domains/linalg.py): FLINT's exact determinant over Q
(adapters/flint_matrix.py); and the square and size rules of the linear-algebra requests, as
problem finders both validation paths run (domains/linalg.py attaches them to its models).

Elimination over Q costs (dimension)^3 operations on numbers whose size is what Hadamard's
inequality bounds, so the size rule bounds that size, not the entries one by one.
"""

from __future__ import annotations

import math

SIZE_DIGITS = 3000
SIZE_CODE = "matrix_too_large"      # linalg.RULE_SIZE's code
SQUARE_CODE = "matrix_not_square"   # primitives.RULE_SQUARE's code


def size_digits(rows: list) -> float:
    """Sum over the rows of log10(d * max(1, |d * row|)), d the row's denominator lcm (rows of
    Fractions)."""
    total = 0.0
    for row in rows:
        d = math.lcm(*(q.denominator for q in row)) if row else 1
        square = sum((q.numerator * (d // q.denominator)) ** 2 for q in row)
        total += math.log10(d) + (math.log10(square) / 2 if square > 1 else 0.0)
    return total


def size_problem(rows: list, ncols: int, loc: tuple):
    """The size rule, by rows and by columns: at most SIZE_DIGITS digits."""
    by_rows = size_digits(rows)
    by_cols = size_digits([[row[j] for row in rows] for j in range(ncols)])
    worst = max(by_rows, by_cols)
    if worst > SIZE_DIGITS:
        which = "rows" if by_rows >= by_cols else "columns"
        return (SIZE_CODE, f"the matrix's size by {which} is {math.ceil(worst)} digits; "
                f"at most {SIZE_DIGITS} (see the size rule)", loc)
    return None


def square_problem(matrix):
    """The matrix is square (nrows == ncols)."""
    if matrix.nrows != matrix.ncols:
        return (SQUARE_CODE, f"the matrix is {matrix.nrows}x{matrix.ncols}; this operation "
                "needs a square matrix", ("matrix", "ncols"))
    return None


def square_request_problem(self):
    """A request of one square matrix (linalg.det, linalg.inverse): square, then the size rule."""
    return square_problem(self.matrix) or size_problem(self.matrix.rows, self.matrix.ncols,
                                                       ("matrix",))


def determinant(request) -> dict:
    from ..adapters import flint_matrix as backend
    m = request.matrix
    return {"determinant": backend.determinant(m.nrows, m.rows)}
