"""Univariate polynomials over the rationals (MATH.md §5.2).

Factorisation is over Q, never over an extension: x^4 + 1 is irreducible here although it
splits modulo every prime and over Q(sqrt 2). Roots are reported as a complete multiset, one
group per irreducible factor, so no root is ever silently dropped for lack of a radical
expression; exact isolating regions are available on request for small inputs.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Annotated

from pydantic import BaseModel, Field, model_validator

from ..kernels import polyfactor
from ..primitives import (CONFIG, AlgebraicNumber, Count, IntegerPolynomial, OutRat, Rat, Rule,
                          RULE_LEADING, RULE_RATIONAL, after, poly_model, reject)
from ..tool import Bounds, Example, MathTool

Polynomial32 = poly_model(
    "Polynomial", Rat(30, 6), 32, "rational coefficients (numerators below 10^30, "
    "denominators below 10^6)", nonzero=True)
Polynomial16 = poly_model(
    "SmallPolynomial", Rat(12, 4), 16, "rational coefficients (numerators below 10^12, "
    "denominators below 10^4)")
# Results: the same shape, bounded only by the output digit budget.
PolynomialValue = poly_model("PolynomialValue", OutRat, 64, "exact rational coefficients")


def polynomial_value(variable: str, coefficients: list[Fraction]) -> PolynomialValue:
    return PolynomialValue(variable=variable, coefficients=coefficients)


def polynomial_from_low(variable: str, low_first: list) -> PolynomialValue:
    """The polynomial with these coefficients listed lowest degree first (ints or Fractions;
    trailing zeros, the leading ones once reversed, dropped)."""
    coefficients = [Fraction(c) for c in reversed(low_first)]
    while coefficients and coefficients[0] == 0:
        coefficients.pop(0)
    return PolynomialValue(variable=variable, coefficients=coefficients)


def integer_polynomial(variable: str, coefficients: list[int]) -> IntegerPolynomial:
    return IntegerPolynomial(variable=variable, coefficients=coefficients)


# --- poly.factor ----------------------------------------------------------------------------

# poly.factor's cost and output are set by the cleared integer polynomial F (f = c F, F
# primitive in Z[x]): its degree n and the digits D of its largest coefficient. The bound is
# on their product, so a low degree allows large coefficients and small coefficients allow a
# high degree (x^105 - 1, the Swinnerton-Dyer polynomial of degree 128 with 87-digit
# coefficients).
FACTOR_DEGREE = 128
FACTOR_SIZE = polyfactor.FACTOR_SIZE
FactorPolynomial = poly_model(
    "FactorPolynomial", Rat(600, 6), FACTOR_DEGREE, "rational coefficients (numerators below "
    "10^600, denominators below 10^6; see the size rule)", nonzero=True)
RULE_FACTOR_SIZE = Rule("polynomial_too_large", polyfactor.SIZE_RULE)


class FactorRequest(BaseModel):
    model_config = CONFIG
    polynomial: Annotated[FactorPolynomial, Field(description=RULE_FACTOR_SIZE.text)]

    _size = after(polyfactor.size_problem)


class PolynomialFactor(BaseModel):
    model_config = CONFIG
    factor: IntegerPolynomial
    multiplicity: Count(1, FACTOR_DEGREE)


class PolynomialFactorization(BaseModel):
    model_config = CONFIG
    content: OutRat = Field(description="The rational constant c in f = c * prod g^e.")
    factors: list[PolynomialFactor] = Field(description=(
        "Distinct irreducible factors over Q, each primitive in Z[x] with positive leading "
        "coefficient, sorted by degree then coefficients; empty for a constant."))


FACTOR = MathTool(
    identifier="poly.factor",
    vocabulary=(
        "factor a polynomial", "polynomial factorization", "polynomial factorisation",
        "factor polynomial", "irreducible factors", "irreducibility",
        "irreducible over the rationals", "factor over Q", "factorise over the rationals",
        "square-free decomposition", "Zassenhaus"),
    claim=("For nonzero f in Q[x]: c in Q and pairs (gi, ei) with f = c * prod gi^ei, each gi "
           "in Z[x] primitive with positive leading coefficient, irreducible over Q, and "
           "pairwise distinct."),
    request=FactorRequest, result=PolynomialFactorization, kernel=polyfactor.factor_polynomial,
    adapters=("flint_poly",),
    rules=(RULE_LEADING, RULE_RATIONAL, RULE_FACTOR_SIZE),
    examples=(Example.of(
        "Compute the factorisation of x^2 - 1 into irreducible factors over the rationals with "
        "multiplicities; coefficients are listed from the highest degree down and the first "
        "one must be nonzero.", {"polynomial": {"variable": "x", "coefficients": [1, 0, -1]}}),),
    bounds=Bounds(
        input=f"Degree <= {FACTOR_DEGREE}, numerators < 10^600, denominators < 10^6, and the "
              f"size rule: (degree + 1) x digits of the cleared integer polynomial's largest "
              f"coefficient <= {FACTOR_SIZE}.",
        computation="Square-free decomposition, Zassenhaus with van Hoeij's lattice "
                    "recombination (FLINT via python-flint), whose cost is polynomial in the "
                    "degree and the digits the size rule bounds. Measured: <= 0.07 s for "
                    "the Swinnerton-Dyer polynomials of degree 64 and 128 (87-digit "
                    "coefficients, irreducible with 64 factors modulo every prime), their "
                    "product with a shifted copy (degree 128), Phi_240 * Phi_120, x^105 - 1, "
                    "and products of random polynomials at both ends of the size rule; under "
                    "1% of the 10 s deadline.",
        output="Mignotte bound: factor coefficients < 2^n * sqrt(n + 1) * 10^D with "
               f"(n + 1) D <= {FACTOR_SIZE}, below 10^620; at most {FACTOR_DEGREE} factors."))


# --- poly.roots -----------------------------------------------------------------------------

RULE_ISOLATE = Rule("isolate_bound",
                    "isolate: true requires degree at most 12, numerators below 10^12 and "
                    "denominators below 10^3, so isolation stays fast and regions small.")


class RootsRequest(BaseModel):
    model_config = CONFIG
    polynomial: Polynomial32
    isolate: bool = Field(False, description=(
        "Also return an exact isolating interval (real) or box (non-real) for every "
        "irrational root. " + RULE_ISOLATE.text))

    @model_validator(mode="after")
    def _isolation_bound(self) -> "RootsRequest":
        if self.isolate:
            cs = self.polynomial.coefficients
            if len(cs) - 1 > 12:
                reject(RULE_ISOLATE.code, f"isolate needs degree <= 12, got {len(cs) - 1}",
                       ("isolate",))
            for i, c in enumerate(cs):
                if abs(c.numerator) >= 10**12 or c.denominator >= 10**3:
                    reject(RULE_ISOLATE.code, f"isolate needs numerators < 10^12 and "
                           f"denominators < 10^3; coefficient {i} is {c}",
                           ("polynomial", "coefficients", i))
        return self


class RationalRoot(BaseModel):
    model_config = CONFIG
    value: OutRat
    multiplicity: Count(1, 32)


class AlgebraicRoots(BaseModel):
    model_config = CONFIG
    minimal_polynomial: IntegerPolynomial = Field(description=(
        "An irreducible factor g of degree >= 2: all deg(g) roots of g are roots of f."))
    multiplicity: Count(1, 32) = Field(description="The multiplicity of each of those roots.")
    roots: list[AlgebraicNumber] | None = Field(description=(
        "The deg(g) roots with isolating regions when isolate was requested, else null."))


class Roots(BaseModel):
    model_config = CONFIG
    degree: Count(0, 32)
    rational_roots: list[RationalRoot] = Field(description="In increasing order.")
    algebraic_roots: list[AlgebraicRoots]
    total_multiplicity: Count(0, 32) = Field(description=(
        "Number of complex roots counted with multiplicity; always equals degree."))


def polynomial_roots(request: RootsRequest) -> Roots:
    from ..adapters import root_isolation as isolation
    from ..adapters import sympy_poly as backend
    p = request.polynomial
    _, factors = backend.factor_over_q(p.coefficients)
    rational, algebraic = [], []
    for g, e in sorted(factors, key=polyfactor.factor_key):
        if len(g) == 2:
            rational.append(RationalRoot(value=Fraction(-g[1], g[0]), multiplicity=e))
            continue
        minimal = integer_polynomial(p.variable, g)
        roots = None
        if request.isolate:
            roots = [AlgebraicNumber(minimal_polynomial=minimal, approx=approx, root=(
                {"kind": kind, "index": index, "interval": region} if kind == "real" else
                {"kind": kind, "index": index, "box": region}))
                for kind, index, region, approx in isolation.isolate(g)]
        algebraic.append(AlgebraicRoots(minimal_polynomial=minimal, multiplicity=e, roots=roots))
    rational.sort(key=lambda r: r.value)
    total = sum(r.multiplicity for r in rational) + sum(
        (len(a.minimal_polynomial.coefficients) - 1) * a.multiplicity for a in algebraic)
    return Roots(degree=len(p.coefficients) - 1, rational_roots=rational,
                 algebraic_roots=algebraic, total_multiplicity=total)


ROOTS = MathTool(
    identifier="poly.roots",
    vocabulary=(
        "roots of a polynomial", "polynomial roots", "zeros of a polynomial",
        "solve a polynomial equation", "polynomial equation", "real roots", "complex roots",
        "rational roots", "root isolation", "isolating intervals", "algebraic numbers",
        "multiplicities of roots", "Sturm"),
    claim=("The complete multiset of complex roots of nonzero f, counted with multiplicity: "
           "rational roots exactly, and for every irreducible factor g of degree >= 2 the "
           "statement 'all deg(g) roots of g, each with multiplicity e'. With isolate: true, "
           "each such root also gets an exact isolating interval (real) or box (non-real)."),
    request=RootsRequest, result=Roots, function=polynomial_roots,
    adapters=("root_isolation", "sympy_poly"),
    rules=(RULE_LEADING, RULE_RATIONAL, RULE_ISOLATE),
    examples=(
        Example.of(
            "Compute all roots of x^2 - 3x + 2 with multiplicities; coefficients are listed "
            "from the highest degree down and the polynomial must not be zero.",
            {"polynomial": {"variable": "x", "coefficients": [1, -3, 2]}}),
        Example.of(
            "Compute the roots of x^3 - 2 with exact isolating regions; isolate: true needs "
            "degree at most 12, numerators below 10^12 and denominators below 10^3.",
            {"polynomial": {"variable": "x", "coefficients": [1, 0, 0, -2]}, "isolate": True})),
    bounds=Bounds(
        input="As poly.factor; isolate: true only for degree <= 12, numerators < 10^12, "
              "denominators < 10^3 (integer coefficients below about 10^51).",
        computation="One factorisation (see poly.factor) plus, with isolate, real and complex "
                    "root isolation of each irreducible factor: measured <= 0.2 s at the "
                    "isolate bound.",
        output="Rational roots p/q with p | a0 and q | ad (< 10^228); isolating endpoints "
               "within the root-separation bound (about deg * (log |g| + log deg) bits, "
               "< 1650 bits)."))


# --- poly.gcd -------------------------------------------------------------------------------

RULE_SAME_VARIABLE = Rule("variable_mismatch",
                          "Both polynomials must use the same variable name.")


class GcdRequest(BaseModel):
    model_config = CONFIG
    f: Polynomial16
    h: Annotated[Polynomial16, Field(description=RULE_SAME_VARIABLE.text)]

    @model_validator(mode="after")
    def _same_variable(self) -> "GcdRequest":
        if self.f.variable != self.h.variable:
            reject(RULE_SAME_VARIABLE.code, f"f uses {self.f.variable!r} but h uses "
                   f"{self.h.variable!r}", ("h", "variable"))
        return self


class PolynomialGcd(BaseModel):
    model_config = CONFIG
    gcd: PolynomialValue = Field(description="The monic gcd, or the zero polynomial [] when "
                                             "f = h = 0.")
    s: PolynomialValue
    t: PolynomialValue = Field(description="Cofactors with s*f + t*h = gcd.")


def polynomial_gcd(request: GcdRequest) -> PolynomialGcd:
    from ..adapters import sympy_poly as backend
    s, t, g = backend.gcdex(request.f.coefficients, request.h.coefficients)
    v = request.f.variable
    return PolynomialGcd(gcd=polynomial_value(v, g), s=polynomial_value(v, s),
                         t=polynomial_value(v, t))


GCD = MathTool(
    identifier="poly.gcd",
    vocabulary=(
        "polynomial gcd", "gcd of polynomials", "greatest common divisor of polynomials",
        "common factor of polynomials", "common roots", "divides", "divisibility of polynomials",
        "polynomial division", "Bezout cofactors", "extended Euclidean algorithm for polynomials",
        "coprime polynomials"),
    claim=("The monic g = gcd(f, h) in Q[x] (0 if both are 0) and Bezout cofactors s, t with "
           "s*f + t*h = g."),
    request=GcdRequest, result=PolynomialGcd, function=polynomial_gcd,
    adapters=("sympy_poly",),
    rules=(RULE_LEADING, RULE_RATIONAL, RULE_SAME_VARIABLE),
    examples=(Example.of(
        "Compute the monic gcd of x^4 - 1 and x^6 - 1 with Bezout cofactors; both polynomials "
        "use the same variable and list coefficients from the highest degree down.",
        {"f": {"variable": "x", "coefficients": [1, 0, 0, 0, -1]},
         "h": {"variable": "x", "coefficients": [1, 0, 0, 0, 0, 0, -1]}}),),
    bounds=Bounds(
        input="Degrees <= 16, numerators < 10^12, denominators < 10^4.",
        computation="Extended Euclid over QQ (sympy gcdex): milliseconds.",
        output="Cofactor coefficients are quotients of Sylvester-matrix minors (order <= 32, "
               "entries < 10^80 after clearing denominators): Hadamard gives < 10^2585."))


TOOLS = (FACTOR, ROOTS, GCD)
