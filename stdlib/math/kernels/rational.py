"""The kernel of `calculus.integrate.rational` (declared in domains/calculus.py): Hermite
reduction and the Lazard-Rioboo-Trager logarithmic part on FLINT (adapters/flint_rational.py),
and the request rule shared with calculus.integrate.definite."""

from __future__ import annotations


def fraction_problem(self):
    """The denominator is not the zero polynomial, and both use the same variable."""
    if not self.denominator.coefficients:
        return ("denominator_zero", "the denominator is the zero polynomial",
                ("denominator", "coefficients"))
    if self.numerator.variable != self.denominator.variable:
        return ("variable_mismatch", f"numerator uses {self.numerator.variable!r} but the "
                f"denominator uses {self.denominator.variable!r}", ("denominator", "variable"))
    return None


def integrate_rational(request) -> dict:
    from ..adapters import flint_rational as backend
    x = request.numerator.variable
    t = "u" if x == "t" else "t"
    a, b, logs = backend.integrate_rational(request.numerator.coefficients,
                                            request.denominator.coefficients)
    return {
        "rational_part": {"numerator": {"variable": x, "coefficients": a},
                          "denominator": {"variable": x, "coefficients": b}},
        "log_terms": [{"R": {"variable": t, "coefficients": r},
                       "S": {"variable": x, "coefficients": [
                           {"variable": t, "coefficients": c} for c in s]}}
                      for r, s in logs]}
