"""The minimal polynomial, norm and trace of an algebraic number (`nt.algebraic.minimal_polynomial`).

The number is written as text in a small grammar read here with Python's `ast` (never `eval`,
never sympy's parser): integers, I, + - * /, powers with a rational exponent (^ or **; a
fractional power is the principal value), sqrt and cbrt (principal), and cos/sin of a rational
multiple of pi. Reading it yields a syntax tree and a static bound on the number's degree over
Q (deg(a op b) <= deg a * deg b, deg a^(p/q) <= q deg a, deg cos(r pi) = phi(m)/2 for the
order m >= 3 of exp(i r pi)) and a static height, a proved bound on log10 of the Mahler measure
of every polynomial the computation builds (so on its coefficients), which the request contract
limits before anything is computed.

The minimal polynomial is built bottom-up by exact resultants (adapters/flint_numberfield.py):
each node gets an integer polynomial having the node's value as a root (Res_y(f(y), g(x - y))
for a sum, the homogenised product for a product, f(x^q) for a q-th root, T_q(x) -+ 1 for a
cosine), which is factored over Q at once; of its irreducible factors the one that vanishes at
the node's value is kept. That choice is the only numerical step: the value is computed with
mpmath at a precision raised until exactly one factor is below 10^(-digits/2) relative to its
size while every other is far from zero (distinct irreducible polynomials share no root, so
some precision separates them). The kept factor is the minimal polynomial because it is
irreducible, vanishes at the number, and is primitive with a positive leading coefficient.
Before a fractional power, a value whose imaginary part vanishes to the working precision is
taken as real when its minimal polynomial has a real root that close (an exact Sturm count),
so rounding noise never picks the other side of the branch cut. Norm and trace are those of
Q(alpha)/Q, read off the coefficients.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from ..kernels import algebraic
from ..kernels.algebraic import (MAX_DEGREE, MAX_EXPONENT, MAX_HEIGHT, MAX_LITERAL_DIGITS,
                                 MAX_NODES, MAX_TEXT)
from ..primitives import CONFIG, Count, IntegerPolynomial, OutRat, Rule, after, tagged
from ..tool import Bounds, Example, MathTool

RULE_GRAMMAR = Rule(
    algebraic.SYNTAX,
    "The number is one expression over: integers below 10^12, I (the imaginary unit), + - * / "
    "and parentheses, powers a^(p/q) or a**(p/q) with integers |p| <= 16 and 1 <= q <= 16 (a "
    "fractional power is the principal value), sqrt(a) and cbrt(a) (principal), and "
    "cos(r*pi), sin(r*pi) with r rational (e.g. cos(2*pi/7)); no variables, no decimals, at "
    f"most {MAX_NODES} operations and numbers.")
RULE_DEGREE = Rule(
    algebraic.DEGREE,
    f"The static degree bound must be at most {MAX_DEGREE}: it multiplies over + - * /, "
    "multiplies by q for a power p/q (2 for sqrt, 3 for cbrt), is 2 for I and phi(m)/2 for "
    "cos or sin of r*pi (m the order of exp(i r pi); sin(r pi) = cos((1/2 - r) pi)); e.g. "
    "sqrt(2) + sqrt(3) + sqrt(5) + sqrt(7) has bound 16 and cos(2*pi/17) has bound 8.")

RULE_HEIGHT = Rule(
    algebraic.HEIGHT,
    f"The static height h must be at most {MAX_HEIGHT}: h bounds log10 of the Mahler measure "
    "M of the number's minimal polynomial, so its coefficients have at most h + 5 digits "
    "(|c_k| <= C(d, k) M). An integer or p/q has h = log10 max(|p|, q), I has 0, cos/sin of "
    "r*pi with denominator q has (q - 1) log10 2; -a and 1/a keep h(a); a * b and a / b have "
    "d(b) h(a) + d(a) h(b), a + b and a - b that plus d(a) d(b) log10 2 (d the degree bounds); "
    "a^(p/q) has max(1, |p|) h(a), sqrt and cbrt h(a).")

class MinimalPolynomialRequest(BaseModel):
    model_config = CONFIG
    number: Annotated[str, Field(max_length=MAX_TEXT, description=(
        "The algebraic number, e.g. \"sqrt(2) + cbrt(3)\", \"(1 + sqrt(5))/2\", "
        "\"cos(2*pi/7)\", \"2^(1/4) + I\". " + RULE_GRAMMAR.text + " " + RULE_DEGREE.text
        + " " + RULE_HEIGHT.text))]

    _read = after(algebraic.number_problem)


class Algebraic(BaseModel):
    model_config = CONFIG
    status: Literal["algebraic"]
    minimal_polynomial: IntegerPolynomial = Field(description=(
        "The minimal polynomial over Q in x: irreducible, primitive in Z[x], positive leading "
        "coefficient, with the number as a root."))
    degree: Count(1, MAX_DEGREE) = Field(description="[Q(alpha) : Q].")
    trace: OutRat = Field(description=(
        "Tr_{Q(alpha)/Q}(alpha), the sum of the conjugates: -c_(d-1)/c_d."))
    norm: OutRat = Field(description=(
        "N_{Q(alpha)/Q}(alpha), the product of the conjugates: (-1)^d c_0/c_d."))
    value: OutRat | None = Field(description="The number itself when it is rational (degree 1).")
    approx: str = Field(description=(
        "A decimal approximation (17 digits), for reading only; it tells which root of the "
        "minimal polynomial the number is (poly.roots with isolate gives exact regions)."))


class Undefined(BaseModel):
    model_config = CONFIG
    status: Literal["undefined"]
    reason: str = Field(description="Where the expression divides by zero or raises 0 to a "
                                    "negative power.")


MinimalPolynomialResult = tagged(Algebraic, Undefined)


MINIMAL_POLYNOMIAL = MathTool(
    identifier="nt.algebraic.minimal_polynomial",
    vocabulary=(
        "minimal polynomial", "minimal polynomial of an algebraic number", "algebraic number",
        "field norm", "field trace", "norm and trace", "degree of an algebraic number",
        "number field", "conjugates", "nested radicals", "algebraic degree", "denesting"),
    synonyms=("minpoly", "radicals", "sqrt", "cbrt", "algebraic integer", "Q(alpha)"),
    claim=("For an algebraic number alpha written with integers, I, + - * /, rational powers "
           "(principal values), sqrt, cbrt and cos/sin of rational multiples of pi, with static "
           "degree bound <= 16: its minimal polynomial over Q (irreducible, primitive, "
           "positive leading coefficient; built by exact resultants and factorisation, the "
           "vanishing factor chosen by a numerical separation at raised precision), [Q(alpha):Q], "
           "the norm and trace of Q(alpha)/Q, and a decimal approximation naming which root "
           "alpha is; undefined when the expression divides by zero."),
    request=MinimalPolynomialRequest, result=MinimalPolynomialResult,
    kernel=algebraic.minimal_polynomial, adapters=("flint_numberfield",),
    rules=(RULE_GRAMMAR, RULE_DEGREE, RULE_HEIGHT),
    examples=(
        Example.of(
            "Compute the minimal polynomial, norm and trace of sqrt(2) + sqrt(3) (x^4 - 10x^2 "
            "+ 1, norm 1, trace 0); the number is one expression over integers, I, + - * /, "
            "rational powers, sqrt, cbrt and cos/sin of rational multiples of pi.",
            {"number": "sqrt(2) + sqrt(3)"}),
        Example.of(
            "Compute the minimal polynomial of cos(2*pi/7) (8x^3 + 4x^2 - 4x - 1); the "
            "argument of cos or sin must be a rational multiple of pi.",
            {"number": "cos(2*pi/7)"})),
    bounds=Bounds(
        input=f"Text <= {MAX_TEXT} characters, <= {MAX_NODES} operations and numbers, "
              f"integers below 10^{MAX_LITERAL_DIGITS}, exponents p/q with |p|, q <= "
              f"{MAX_EXPONENT}, and a static degree bound <= {MAX_DEGREE} (computed from the "
              "syntax tree before anything else).",
        computation=f"At most {MAX_NODES} nodes; a node with a rational operand is an exact "
                    "shift, scaling or reversal; any other is one resultant of two "
                    "polynomials whose degrees multiply to at most 16 and one factorisation "
                    "over Q of degree <= 16 (a q-th root: of f(x^q); a cosine: of T_m -+ 1, "
                    "degree <= 64), plus the numerical choice of a factor at 60 to 960 "
                    "digits; every polynomial on the way has Mahler measure below 10^h, h <= "
                    f"{MAX_HEIGHT} (the static height), which bounds its coefficients. "
                    "Measured here through the worker: <= 0.06 s at the bounds (a 15th power "
                    "of cos(2 pi/17) + sqrt(999999999989), h = 1657; a cube of a 16th root "
                    "times a 12-digit integer, h = 2930; sums of four square roots of 12-digit "
                    "primes) with FLINT's resultants and factorisations, where sympy's took up "
                    "to 1.1 s.",
        output=f"A polynomial of degree d <= 16 whose Mahler measure M is at most 10^h, h <= "
               f"{MAX_HEIGHT} the static height (a bound proved node by node, see the rule), "
               "so every coefficient is at most C(d, k) M < 2^16 10^h: at most "
               f"{MAX_HEIGHT + 5} digits, inside the 4000-digit result limit; norm and trace "
               "are ratios of two coefficients."))


TOOLS = (MINIMAL_POLYNOMIAL,)
