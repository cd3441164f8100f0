"""The kernel of `poly.factor` (declared in domains/poly.py): FLINT's factorisation over Q
(adapters/flint_poly.py), factors in the catalog's order, and the size rule that bounds it."""

from __future__ import annotations

import math

FACTOR_SIZE = 20_000
SIZE_RULE = (
    f"Size rule: clear denominators (multiply by their lcm, divide by the gcd) to get the "
    f"integer polynomial F; (degree + 1) times the number of decimal digits of F's largest "
    f"coefficient is at most {FACTOR_SIZE}: degree 128 with 155-digit coefficients fits, so "
    f"does degree 32 with 600-digit ones.")


def cleared_digits(coefficients: list) -> int:
    """Decimal digits of the largest coefficient of the primitive integer multiple."""
    den = math.lcm(*(c.denominator for c in coefficients))
    ints = [abs(int(c * den)) for c in coefficients]
    return len(str(max(ints) // math.gcd(*ints)))


def size_problem(self):
    """(degree + 1) times the digits of the cleared polynomial's largest coefficient is at most
    FACTOR_SIZE."""
    cs = self.polynomial.coefficients
    size = len(cs) * cleared_digits(cs)
    if size > FACTOR_SIZE:
        return ("polynomial_too_large", f"(degree + 1) x digits is {size}, above "
                f"{FACTOR_SIZE}: {SIZE_RULE}", ("polynomial", "coefficients"))
    return None


def factor_key(pair: tuple[list[int], int]) -> tuple:
    """The catalog's order of factors: by degree, then coefficients, then multiplicity."""
    return (len(pair[0]), pair[0], pair[1])


def factor_polynomial(request) -> dict:
    from ..adapters import flint_poly as backend
    p = request.polynomial
    content, factors = backend.factor_over_q(p.coefficients)
    return {"content": content, "factors": [
        {"factor": {"variable": p.variable, "coefficients": g}, "multiplicity": e}
        for g, e in sorted(factors, key=factor_key)]}
