"""Calculus on rational functions (MATH.md §5.4).

Only the integration of rational functions is public in this version: it is the one calculus
operation whose work and output are bounded a priori by the request (Hermite reduction plus a
subresultant chain). The antiderivative's logarithmic part is a sum over the roots of a
polynomial R(t), so it never needs radicals, a real/complex case split, or special functions.
"""

from __future__ import annotations

from pydantic import BaseModel, Field, model_validator

from ..primitives import (CONFIG, IntegerPolynomial, Name, Rat, Rule, RULE_LEADING,
                          RULE_RATIONAL, poly_model, reject)
from ..tool import Bounds, Example, MathTool
from .poly import PolynomialValue, integer_polynomial, polynomial_value

Polynomial8 = poly_model("Polynomial8", Rat(6, 3), 8, "rational coefficients (numerators below "
                         "10^6, denominators below 10^3)")

RULE_DENOMINATOR = Rule("denominator_zero", "The denominator must not be the zero polynomial, "
                        "and numerator and denominator must use the same variable.")


class RationalFunctionRequest(BaseModel):
    model_config = CONFIG
    numerator: Polynomial8
    denominator: Polynomial8 = Field(description=RULE_DENOMINATOR.text)

    @model_validator(mode="after")
    def _proper_fraction(self) -> "RationalFunctionRequest":
        if not self.denominator.coefficients:
            reject(RULE_DENOMINATOR.code, "the denominator is the zero polynomial",
                   ("denominator", "coefficients"))
        if self.numerator.variable != self.denominator.variable:
            reject("variable_mismatch", f"numerator uses {self.numerator.variable!r} but the "
                   f"denominator uses {self.denominator.variable!r}", ("denominator", "variable"))
        return self


class RationalFunction(BaseModel):
    model_config = CONFIG
    numerator: PolynomialValue
    denominator: PolynomialValue = Field(description="Monic and coprime to the numerator.")


class BivariatePolynomial(BaseModel):
    model_config = CONFIG
    variable: Name
    coefficients: list[PolynomialValue] = Field(description=(
        "Coefficients of S as a polynomial in the integration variable, highest degree first; "
        "each is a polynomial in the root variable t."))


class LogTerm(BaseModel):
    model_config = CONFIG
    R: IntegerPolynomial = Field(description="Square-free R(t); the term is the sum over its "
                                             "complex roots.")
    S: BivariatePolynomial = Field(description="S(t, x) inside t * log(S(t, x)).")


class RationalAntiderivative(BaseModel):
    model_config = CONFIG
    rational_part: RationalFunction
    log_terms: list[LogTerm] = Field(description=(
        "F = rational_part + sum over terms of sum over {t : R(t) = 0} of t * log(S(t, x)). "
        "The root variable is t, or u when the integration variable itself is t."))


def integrate_rational_function(request: RationalFunctionRequest) -> RationalAntiderivative:
    from ..adapters import sympy_calculus as backend
    x = request.numerator.variable
    t = "u" if x == "t" else "t"
    a, b, logs = backend.integrate_rational(request.numerator.coefficients,
                                            request.denominator.coefficients)
    return RationalAntiderivative(
        rational_part=RationalFunction(numerator=polynomial_value(x, a),
                                       denominator=polynomial_value(x, b)),
        log_terms=[LogTerm(R=integer_polynomial(t, r), S=BivariatePolynomial(
            variable=x, coefficients=[polynomial_value(t, c) for c in s])) for r, s in logs])


INTEGRATE_RATIONAL = MathTool(
    identifier="calculus.integrate.rational",
    vocabulary=(
        "integral", "integrate", "integration", "antiderivative", "indefinite integral",
        "primitive", "partial fractions", "partial fraction decomposition", "rational function",
        "logarithmic part", "Rothstein-Trager", "Hermite reduction", "calculus"),
    claim=("For f = P/Q in Q(x), Q != 0: an antiderivative F = A/B + sum_i sum_{t : Ri(t) = 0} "
           "t * log Si(t, x) with Ri in Z[t] square-free and Si in Q[t][x] "
           "(Lazard-Rioboo-Trager), such that F' = f as rational functions. No radicals and no "
           "real/complex case split: the sum over roots is part of the value."),
    request=RationalFunctionRequest, result=RationalAntiderivative,
    function=integrate_rational_function,
    adapters=("sympy_calculus", "sympy_poly"),
    rules=(RULE_LEADING, RULE_RATIONAL, RULE_DENOMINATOR),
    examples=(Example.of(
        "Compute an exact antiderivative of 1/(x^2 + 1) as a rational part plus logarithms "
        "summed over the roots of R(t); numerator and denominator use the same variable, list "
        "coefficients from the highest degree down, and the denominator must be nonzero.",
        {"numerator": {"variable": "x", "coefficients": [1]},
         "denominator": {"variable": "x", "coefficients": [1, 0, 1]}}),),
    bounds=Bounds(
        input="Numerator and denominator of degree <= 8, numerators < 10^6, denominators "
              "< 10^3.",
        computation="Polynomial division, Hermite reduction and one subresultant chain "
                    "(ratint_ratpart/ratint_logpart): 0.03-0.2 s measured up to degree 8.",
        output="At most 8 log terms; R and S coefficients are Sylvester minors (order <= 17, "
               "entries < 10^33), below 10^572 by Hadamard; at most 81 coefficients per S."))


TOOLS = (INTEGRATE_RATIONAL,)
