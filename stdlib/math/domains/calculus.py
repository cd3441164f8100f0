"""Calculus on rational functions (MATH.md §5.4): antiderivatives and definite integrals.

Integration of rational functions is the calculus whose work and output are bounded a priori by
the request (Hermite reduction plus a subresultant chain or a factorisation). The
antiderivative's logarithmic part is a sum over the roots of a polynomial, so it never needs
radicals, a real/complex case split, or special functions.

A definite integral over [a, b] uses the residue form F = A/B + sum over the roots alpha of the
square-free denominator of r(alpha) log(x - alpha): on an interval free of real poles each
log(x - alpha) with the principal branch is continuous (x - alpha runs along a horizontal line
off the real axis, or keeps one sign when alpha is real outside [a, b]), so F(b) - F(a) is the
integral, and log(b - alpha) - log(a - alpha) = Log((b - alpha)/(a - alpha)) exactly.

The residue form is computed on FLINT (adapters/flint_rational.py: the rational part of
calculus.integrate.rational's Hermite reduction, a factorisation, one inversion per factor), and
whether the reduced denominator has a real root in the closed interval is decided there too,
exactly (a root at the lower end, else Sturm's count). That is a yes/no fact, so the convergent
case -- the published first example -- never loads sympy. Only when there is a pole does the
child import sympy (adapters/sympy_calculus.py, a late adapter) to state it: the published
interval's endpoints come from sympy's root isolation, and the answers recorded before this
split (tests/math/data/definite_answers.json) hold them, so that step stays on sympy.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from ..kernels import rational
from ..primitives import (CONFIG, IntegerPolynomial, Name, OutRat, Rat, Rule, RULE_LEADING,
                          RULE_RATIONAL, after, poly_model, tagged)
from ..tool import Bounds, Example, MathTool
from .poly import PolynomialValue

Polynomial8 = poly_model("Polynomial8", Rat(6, 3), 8, "rational coefficients (numerators below "
                         "10^6, denominators below 10^3)")

RULE_DENOMINATOR = Rule("denominator_zero", "The denominator must not be the zero polynomial, "
                        "and numerator and denominator must use the same variable.")


class RationalFunctionRequest(BaseModel):
    model_config = CONFIG
    numerator: Polynomial8
    denominator: Polynomial8 = Field(description=RULE_DENOMINATOR.text)

    _fraction = after(rational.fraction_problem)


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
    kernel=rational.integrate_rational,
    adapters=("flint_rational",),
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
        computation="Polynomial division, Hermite reduction, one resultant in two "
                    "variables, a factorisation of a degree <= 8 integer polynomial, and per "
                    "log term at most 25 determinants of order <= 13 and one inversion modulo "
                    "R (FLINT): at most 0.13 s measured at the bound.",
        output="At most 8 log terms; R and S coefficients are Sylvester minors (order <= 17, "
               "entries < 10^33), below 10^572 by Hadamard; at most 81 coefficients per S."))


# --- calculus.integrate.definite -------------------------------------------------------------

Endpoint = Rat(6, 3, "An endpoint of the interval of integration.")


class DefiniteRequest(RationalFunctionRequest):
    lower: Endpoint
    upper: Endpoint


class ResidueTerm(BaseModel):
    model_config = CONFIG
    factor: IntegerPolynomial = Field(description=(
        "q: an irreducible factor over Q of the square-free part of the denominator."))
    residue: PolynomialValue = Field(description=(
        "r, of degree < deg q: the residue of the integrand at each root alpha of q is "
        "r(alpha)."))


class ResidueAntiderivative(BaseModel):
    model_config = CONFIG
    rational_part: RationalFunction
    log_terms: list[ResidueTerm] = Field(description=(
        "F(x) = rational_part + sum over terms of sum over {alpha : q(alpha) = 0} of "
        "r(alpha) log(x - alpha), principal branch: an antiderivative on every interval "
        "without a real root of the denominator."))


class DefiniteValue(BaseModel):
    model_config = CONFIG
    status: Literal["value"]
    rational: OutRat = Field(description="rational_part(upper) - rational_part(lower).")
    log_terms: list[ResidueTerm] = Field(description=(
        "The integral is rational + sum over terms of sum over {alpha : q(alpha) = 0} of "
        "r(alpha) Log((upper - alpha)/(lower - alpha)), principal logarithm (its argument is "
        "never a negative real number)."))
    antiderivative: ResidueAntiderivative = Field(description="The antiderivative used.")
    approx: str = Field(description="The value to 30 significant digits, for reading only.")


class Divergent(BaseModel):
    model_config = CONFIG
    status: Literal["divergent"]
    pole: IntegerPolynomial = Field(description=(
        "An irreducible factor of the denominator (in lowest terms) with a root in the closed "
        "interval: the integrand has a pole there, so the integral diverges."))
    interval: Annotated[list[OutRat], Field(min_length=2, max_length=2, description=(
        "[lo, hi] inside [min(lower, upper), max(lower, upper)] holding exactly one root of "
        "pole (lo = hi exactly when the root is rational)."))]


INTEGRATE_DEFINITE = MathTool(
    identifier="calculus.integrate.definite",
    vocabulary=(
        "definite integral", "integral from a to b", "area under the curve", "integrate over "
        "an interval", "exact value of an integral", "rational function", "residues",
        "partial fractions", "fundamental theorem of calculus", "divergent integral", "pole"),
    synonyms=("area", "between", "from", "limits of integration", "evaluate the integral"),
    claim=("For f = P/Q in Q(x) and rational endpoints a, b: either the exact value of the "
           "integral of f from a to b as q + sum_k sum_{q_k(alpha) = 0} r_k(alpha) "
           "Log((b - alpha)/(a - alpha)) (q rational, q_k irreducible over Q, r_k in Q[x]), "
           "with the antiderivative used (F' = f checked exactly as rational functions), or "
           "`divergent` with an irreducible factor of Q and an exact interval inside [a, b] "
           "isolating its root (a pole of f in lowest terms, where the integral diverges)."),
    request=DefiniteRequest, result=tagged(DefiniteValue, Divergent),
    kernel=rational.integrate_definite,
    adapters=("flint_rational", "mpmath_residues"), late_adapters=("sympy_calculus", "sympy_poly"),
    rules=(RULE_LEADING, RULE_RATIONAL, RULE_DENOMINATOR),
    examples=(Example.of(
        "Compute the exact integral of 1/(x^2 + 1) from 0 to 1 (which is pi/4) with the "
        "antiderivative used; numerator and denominator use the same variable with "
        "coefficients from the highest degree down, and the endpoints are rationals.",
        {"numerator": {"variable": "x", "coefficients": [1]},
         "denominator": {"variable": "x", "coefficients": [1, 0, 1]},
         "lower": 0, "upper": 1}),
        Example.of(
        "Decide whether the integral of 1/(x^2 - 2) from 0 to 2 exists; a pole inside the "
        "closed interval makes it divergent, with the pole isolated exactly.",
        {"numerator": {"variable": "x", "coefficients": [1]},
         "denominator": {"variable": "x", "coefficients": [1, 0, -2]},
         "lower": 0, "upper": 2})),
    bounds=Bounds(
        input="Numerator and denominator of degree <= 8 (numerators < 10^6, denominators "
              "< 10^3); endpoints rationals with numerators < 10^6, denominators < 10^3.",
        computation="Hermite reduction, a factorisation over Q of a square-free polynomial of "
                    "degree <= 8, one inversion modulo each factor, Sturm counts and root "
                    "isolation of degree <= 8, and the exact check F' = f; the approximation "
                    "is 60-digit root finding of degree <= 8. Cost quantity: the degrees and "
                    "coefficient sizes above; measured at most 0.65 s (6.5% of the 10 s "
                    "deadline, 2 loaded cores) on random dense degree-8 inputs with the "
                    "largest coefficients and endpoints.",
        output="At most 8 residue terms of degree < 8 whose coefficients are quotients of "
               "resultant-sized minors of the degree-8 inputs, a rational part of degree <= "
               "16, one rational value (endpoints substituted into it)."))


TOOLS = (INTEGRATE_RATIONAL, INTEGRATE_DEFINITE)
