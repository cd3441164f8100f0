"""The validator-only rules of the shared value types, as Pydantic-free problem finders.

`stdlib.math.primitives` attaches each to its model (`primitives.after`), and `stdlib.math.plain`
runs the same function on its own records, so the two paths accept exactly the same values.
"""

from __future__ import annotations

import math

# Every exact integer in a result stays below this many decimal digits: CPython refuses to
# convert ints beyond 4300 digits to or from text, so larger values could not re-validate.
OUTPUT_DIGITS = 4000


def matrix_shape(self):
    """`rows` holds exactly nrows lists of exactly ncols entries each."""
    if len(self.rows) != self.nrows:
        return ("matrix_row_count", f"rows has {len(self.rows)} lists; this "
                f"{self.nrows}x{self.ncols} matrix needs {self.nrows}", ("rows",))
    for i, row in enumerate(self.rows):
        if len(row) != self.ncols:
            return ("matrix_row_length", f"row {i} has {len(row)} entries; this "
                    f"{self.nrows}x{self.ncols} matrix needs {self.ncols}", ("rows", i))
    return None


def leading_coefficient(self):
    """A polynomial's first (leading) coefficient is nonzero."""
    if self.coefficients and self.coefficients[0] == 0:
        return ("polynomial_leading_zero",
                "the first (leading) coefficient is 0; drop leading zeros", ("coefficients", 0))
    return None


def primitive_polynomial(self):
    """An integer polynomial is primitive with a positive leading coefficient."""
    cs = self.coefficients
    if cs[0] <= 0 or math.gcd(*cs) != 1:
        return ("zpoly_not_canonical", "an integer polynomial must be primitive with a "
                "positive leading coefficient", ("coefficients",))
    return None


def polynomial_from_low(variable: str, low_first: list) -> dict:
    """The polynomial value with these coefficients listed lowest degree first (ints or
    Fractions), leading zeros dropped once reversed: `{variable, coefficients}`."""
    from fractions import Fraction  # in the worker's child only: the interpreter checks shapes
    coefficients = [Fraction(c) for c in reversed(low_first)]
    while coefficients and coefficients[0] == 0:
        coefficients.pop(0)
    return {"variable": variable, "coefficients": coefficients}


def value_at(coefficients: list, x):
    """The polynomial (highest degree first) at x, by Horner's rule, exactly."""
    value = 0 * x
    for c in coefficients:
        value = value * x + c
    return value
