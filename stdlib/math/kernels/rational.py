"""The kernels of `calculus.integrate.rational` and `calculus.integrate.definite` (declared in
domains/calculus.py, which says why the residue form gives the definite integral): Hermite
reduction, the Lazard-Rioboo-Trager logarithmic part and the residue form on FLINT
(adapters/flint_rational.py), the value to 30 digits on mpmath (adapters/mpmath_residues.py),
the pole's interval on sympy (adapters/sympy_calculus.py, only
when there is a pole), and the request rule both share."""

from __future__ import annotations

from .checks import value_at


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


def integrate_definite(request) -> dict:
    from ..adapters import flint_rational as backend
    from ..adapters.mpmath_residues import approximate
    x = request.numerator.variable
    a, b = request.lower, request.upper
    num, den, terms, reduced = backend.residue_form(request.numerator.coefficients,
                                                    request.denominator.coefficients)
    if a != b and backend.real_root_between(reduced, min(a, b), max(a, b)):
        from ..adapters import sympy_calculus
        factor, lo, hi = sympy_calculus.pole_between(reduced, min(a, b), max(a, b))
        return {"status": "divergent", "pole": {"variable": x, "coefficients": factor},
                "interval": [lo, hi]}
    residues = [{"factor": {"variable": x, "coefficients": q},
                 "residue": {"variable": x, "coefficients": r}} for q, r in terms]
    rational = _value_at(num, den, b) - _value_at(num, den, a)
    return {
        "status": "value", "rational": rational,
        "log_terms": residues if a != b else [],
        "antiderivative": {
            "rational_part": {"numerator": {"variable": x, "coefficients": num},
                              "denominator": {"variable": x, "coefficients": den}},
            "log_terms": residues},
        "approx": approximate(rational, terms if a != b else [], a, b)}


def _value_at(num: list, den: list, x):
    return value_at(num, x) / value_at(den, x) if num else 0 * x
