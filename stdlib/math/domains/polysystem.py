"""Zero-dimensional polynomial systems over Q (`poly.system.solve`).

The answer is the reduced Gröbner basis (grevlex) of the ideal the equations generate and, when
the system has finitely many complex solutions, all of them with multiplicities in the rational
univariate representation: one irreducible polynomial p(t) per conjugacy class of solutions,
its multiplicity, and each coordinate as a quotient of polynomials in a root of p (so every
solution is exact and none is lost for want of radicals). Systems with no solution get `inconsistent` (the
basis is {1}); systems with infinitely many are refused honestly as `positive_dimensional` with
the variables that show it — this operation never samples or truncates a solution set.

The computation is FLINT's (adapters/flint_groebner.py, no sympy). The reduced basis is unique,
and so is everything after it once the separating form (the first c that separates) and the
families' order are fixed, so it answers byte for byte as the sympy implementation did
(tests/math/test_sympy_free.py).

The cost is bounded a priori by Bézout's theorem: the dimension D of Q[x]/I (the number of
solutions counted with multiplicity) is at most the product of the n largest degrees, and the
request bounds that product, the number of variables and the coefficient sizes.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from ..kernels import polysystem
from ..kernels.polysystem import MAX_BEZOUT, MAX_DEGREE, MAX_EQUATIONS, MAX_VARIABLES
from ..primitives import CONFIG, Count, IntegerPolynomial, Name, OutRat, Rat, Rule, after, tagged
from ..tool import Bounds, Example, MathTool
from .poly import PolynomialValue

RULE_TERMS = Rule(polysystem.TERMS, (
    "Every term lists one exponent per variable (in the order of `variables`), no two terms "
    "of an equation have the same exponents, and coefficients are nonzero."))
RULE_BEZOUT = Rule(polysystem.BEZOUT, (
    f"At least as many equations as variables, and the Bézout number (the product of the n "
    f"largest total degrees, n the number of variables) at most {MAX_BEZOUT}."))
RULE_VARIABLES = Rule(polysystem.VARIABLES, "Variable names are distinct.")


class Term(BaseModel):
    model_config = CONFIG
    coefficient: Rat(3, 2, "The term's coefficient (nonzero).")
    exponents: Annotated[list[Count(0, MAX_DEGREE)], Field(
        min_length=1, max_length=MAX_VARIABLES,
        description="One exponent per variable, in the order of `variables`.")]


class SystemPolynomial(BaseModel):
    """A polynomial as its terms; e.g. x^2 + y^2 - 1 over variables [x, y] is
    {"terms": [{"coefficient": 1, "exponents": [2, 0]}, {"coefficient": 1, "exponents": [0, 2]},
    {"coefficient": -1, "exponents": [0, 0]}]}."""

    model_config = CONFIG
    terms: Annotated[list[Term], Field(min_length=1, max_length=45, description=(
        "1 to 45 terms of total degree at most 8. " + RULE_TERMS.text))]


class SystemRequest(BaseModel):
    """The system equations[i] = 0 over Q. Example (the circle meets the diagonal):
    {"variables": ["x", "y"], "equations": [{"terms": [{"coefficient": 1, "exponents": [2, 0]},
    {"coefficient": 1, "exponents": [0, 2]}, {"coefficient": -1, "exponents": [0, 0]}]},
    {"terms": [{"coefficient": 1, "exponents": [1, 0]}, {"coefficient": -1,
    "exponents": [0, 1]}]}]}."""

    model_config = CONFIG
    variables: Annotated[list[Name], Field(min_length=1, max_length=MAX_VARIABLES, description=(
        "1 to 4 unknowns. " + RULE_VARIABLES.text))]
    equations: Annotated[list[SystemPolynomial], Field(
        min_length=1, max_length=MAX_EQUATIONS, description=(
            "1 to 8 polynomials, each set equal to 0. " + RULE_BEZOUT.text))]

    _shape = after(polysystem.system_problem)


class TermValue(BaseModel):
    model_config = CONFIG
    coefficient: OutRat
    exponents: list[Count(0, 10**4)]


class PolynomialTerms(BaseModel):
    model_config = CONFIG
    terms: list[TermValue] = Field(description="Terms in decreasing grevlex order.")


class SolutionFamily(BaseModel):
    model_config = CONFIG
    polynomial: IntegerPolynomial = Field(description=(
        "p, irreducible over Q: the solutions of this family are x = coordinates(theta) for "
        "each of the deg p complex roots theta of p, all distinct."))
    multiplicity: Count(1, MAX_BEZOUT) = Field(description=(
        "The intersection multiplicity of each solution of the family (dim of its local "
        "algebra)."))
    coordinates: list[PolynomialValue] = Field(description=(
        "g_i, one per variable in the order of `variables`, of degree < deg p: the solutions "
        "are x_i = g_i(theta) / denominator(theta) over the roots theta of p."))
    denominator: PolynomialValue = Field(description=(
        "g_0, of degree < deg p, nonzero at every root of p."))
    point: list[OutRat] | None = Field(description=(
        "The rational solution itself when deg p = 1, else null."))


class Finite(BaseModel):
    model_config = CONFIG
    status: Literal["finite"]
    groebner_basis: list[PolynomialTerms] = Field(description=(
        "The reduced Gröbner basis of the ideal, graded reverse lexicographic order with the "
        "variables in the given order, each element monic."))
    count_with_multiplicity: Count(1, MAX_BEZOUT) = Field(description=(
        "D = dim_Q Q[x]/I: the number of complex solutions counted with multiplicity "
        "(<= the Bézout number)."))
    distinct: Count(1, MAX_BEZOUT) = Field(description="The number of distinct complex "
                                                       "solutions.")
    separating: list[int] = Field(description=(
        "c with t = sum c_i x_i taking distinct values on distinct solutions; p(t) = 0 "
        "holds at t = sum c_i coordinates_i(t)."))
    solutions: list[SolutionFamily] = Field(description=(
        "Every complex solution exactly once: sum of deg p over the families = distinct, and "
        "sum of deg p times multiplicity = count_with_multiplicity."))


class Inconsistent(BaseModel):
    model_config = CONFIG
    status: Literal["inconsistent"]
    groebner_basis: list[PolynomialTerms] = Field(description=(
        "[1]: 1 is in the ideal, so there is no complex (and no rational) solution."))


class PositiveDimensional(BaseModel):
    model_config = CONFIG
    status: Literal["positive_dimensional"]
    groebner_basis: list[PolynomialTerms]
    unbounded: list[Name] = Field(description=(
        "The variables of which no leading monomial of the basis is a pure power: by the "
        "finiteness criterion the system has infinitely many complex solutions (the basis is "
        "not {1}). Solutions are not listed."))


SOLVE_SYSTEM = MathTool(
    identifier="poly.system.solve",
    vocabulary=(
        "polynomial system", "system of polynomial equations", "nonlinear system",
        "Gröbner basis", "Groebner basis", "Grobner basis", "zero-dimensional ideal",
        "Bézout", "Bezout bound", "intersection multiplicity", "rational univariate "
        "representation", "common zeros", "intersection points", "simultaneous equations",
        "algebraic variety", "Buchberger"),
    synonyms=("intersect", "intersection", "curves meet", "solve together", "several unknowns"),
    claim=("For polynomials f_1..f_m in Q[x_1..x_n]: the reduced grevlex Gröbner basis of "
           "the ideal they generate and either every complex solution of f = 0 with its "
           "multiplicity, exactly (rational univariate representation: irreducible p(t) over "
           "Q and x_i = g_i(t)/g_0(t) at the roots of p, substituted back into every equation "
           "before returning), or `inconsistent` (1 is in the ideal), or `positive_dimensional` "
           "(infinitely many solutions, refused with the variables that show it)."),
    request=SystemRequest, result=tagged(Finite, Inconsistent, PositiveDimensional),
    kernel=polysystem.solve_system, adapters=("flint_groebner",),
    rules=(RULE_TERMS, RULE_BEZOUT, RULE_VARIABLES),
    examples=(Example.of(
        "Compute all solutions of x^2 + y^2 = 1, x = y with multiplicities and the Gröbner "
        "basis; each term lists one exponent per variable and there are at least as many "
        "equations as variables.",
        {"variables": ["x", "y"], "equations": [
            {"terms": [{"coefficient": 1, "exponents": [2, 0]},
                       {"coefficient": 1, "exponents": [0, 2]},
                       {"coefficient": -1, "exponents": [0, 0]}]},
            {"terms": [{"coefficient": 1, "exponents": [1, 0]},
                       {"coefficient": -1, "exponents": [0, 1]}]}]}),
        Example.of(
        "Compute the intersection of the parabola y = x^2 with its tangent y = 0, a double "
        "point; coefficients are rationals like \"1/2\" and exponents follow `variables`.",
        {"variables": ["x", "y"], "equations": [
            {"terms": [{"coefficient": 1, "exponents": [0, 1]},
                       {"coefficient": -1, "exponents": [2, 0]}]},
            {"terms": [{"coefficient": 1, "exponents": [0, 1]}]}]})),
    bounds=Bounds(
        input=f"1-{MAX_VARIABLES} variables, n-{MAX_EQUATIONS} equations of total degree <= "
              f"{MAX_DEGREE} with <= 45 terms, Bézout number (product of the n largest "
              f"degrees) <= {MAX_BEZOUT}, coefficients with numerators < 10^3 and denominators "
              "< 10^2.",
        computation=f"Cost quantity: the Bézout number B <= {MAX_BEZOUT}, which bounds "
                    "D = dim Q[x]/I (a zero-dimensional ideal has D <= B), with the degree and "
                    "coefficient sizes above. FLINT's Buchberger (grevlex) and inter-reduction, "
                    "then D x D linear algebra: normal forms of the <= nD border monomials, D "
                    "matrix products, a trace form, characteristic polynomials of degree D for "
                    "at most a few separating candidates, one factorisation of degree D, and "
                    "the exact substitution check modulo each factor. Measured worst 0.11 s CPU "
                    "(sympy's Buchberger took 0.81 s on the same systems; 3.9 s wall under load "
                    "was its earlier figure) over 336 random dense and dependent systems at the "
                    "bound with the largest coefficients (shapes 8 / 3, 3 / 8, 1 / 4, 2 / "
                    "2, 2, 2 / 8, 1, 1 / 3, 3, 1 / 1, 1, 1, 8 / 2, 2, 2, 1 / 3, 3, 1, 1 and "
                    "up to 8 equations).",
        output=f"D <= {MAX_BEZOUT} solutions with multiplicity in <= {MAX_BEZOUT} families; "
               "each a polynomial of degree <= 9 and n + 1 coordinate polynomials of degree "
               "< 9; the reduced basis has at most n D + 1 elements of at most D + 1 terms "
               "(its leading monomial plus the normal set). Coefficient heights follow the "
               "arithmetic Bézout bound in D and the input heights; measured at most 801 "
               "digits (about 37 kB of JSON) at the bound, inside the 4000-digit budget."),
    deadline=30.0)


TOOLS = (SOLVE_SYSTEM,)
