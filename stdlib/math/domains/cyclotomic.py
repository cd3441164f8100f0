"""Cyclotomic polynomials and the factorisation of x^n - 1 over Q (`poly.cyclotomic`).

Phi_n is the minimal polynomial of a primitive n-th root of unity; it has integer coefficients,
degree phi(n), and is irreducible over Q (Gauss for prime n, Dedekind/Landau in general), and
x^n - 1 = prod over d | n of Phi_d is therefore the factorisation of x^n - 1 into irreducibles
over Q, each factor once. Pure Python, no backend: Phi_n = prod over d | n of (x^d - 1)^mu(n/d),
so each Phi_d is built by multiplying and exactly dividing by binomials x^k - 1 (each a linear
pass over the coefficients), and the product of the factors is checked against x^n - 1 before
anything is returned.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, Field

from ..primitives import CONFIG, Count, IntegerPolynomial, Name
from ..kernels import cyclotomic
from ..tool import Bounds, Example, MathTool

MAX_N = 2000


class CyclotomicRequest(BaseModel):
    model_config = CONFIG
    n: Count(1, MAX_N, "n, 1 to 2000: Phi_n and the factorisation of x^n - 1 are returned.")
    variable: Annotated[Name, Field(description="The variable's name (default x).")] = "x"


class CyclotomicFactor(BaseModel):
    model_config = CONFIG
    d: Count(1, MAX_N) = Field(description="A divisor d of n.")
    polynomial: IntegerPolynomial = Field(description="Phi_d, monic with integer coefficients.")


class Cyclotomic(BaseModel):
    model_config = CONFIG
    n: Count(1, MAX_N)
    cyclotomic: IntegerPolynomial = Field(description=(
        "Phi_n, the n-th cyclotomic polynomial: monic, integer coefficients, degree phi(n), "
        "irreducible over Q."))
    factors: list[CyclotomicFactor] = Field(description=(
        "x^n - 1 = prod Phi_d over the divisors d of n, in increasing d: its factorisation "
        "into irreducible polynomials over Q, each with multiplicity 1 (checked by "
        "multiplying back)."))


CYCLOTOMIC = MathTool(
    identifier="poly.cyclotomic",
    vocabulary=(
        "cyclotomic polynomial", "cyclotomic polynomials", "roots of unity",
        "primitive root of unity", "factor x^n - 1", "factorisation of x^n - 1",
        "factorization of x^n - 1", "minimal polynomial of a root of unity", "Phi_n"),
    synonyms=("x^n - 1", "x^105 - 1", "unity"),
    claim=("For 1 <= n <= 2000: the n-th cyclotomic polynomial Phi_n (monic, integer "
           "coefficients, degree phi(n), irreducible over Q: the minimal polynomial of "
           "exp(2 pi i/n)) and the factorisation x^n - 1 = prod over d | n of Phi_d into "
           "irreducibles over Q, each once; the product is checked exactly."),
    request=CyclotomicRequest, result=Cyclotomic, kernel=cyclotomic.cyclotomic,
    examples=(Example.of(
        "Compute the cyclotomic polynomial Phi_12 and the factorisation of x^12 - 1 over the "
        "rationals; n must be an integer from 1 to 2000.", {"n": 12}),),
    bounds=Bounds(
        input="1 <= n <= 2000 (x^105 - 1, the first with a coefficient 2, and x^1155 - 1 fit).",
        computation="For each of the tau(n) <= 40 divisors d, tau(d) multiplications or exact "
                    "divisions by a binomial x^k - 1, each one pass over at most 2000 "
                    "coefficients; then one product check of degree n (at most tau(n) "
                    "multiplications of degree <= 2000, about n^2 tau(n) = 1.6e8 small-integer "
                    "operations in the worst case): measured 0.07 s at n = 1680 (tau = 40).",
        output="tau(n) + 1 polynomials of total degree n + phi(n) <= 4000 coefficients; each "
               "Phi_d divides x^d - 1, so by Mignotte's bound its coefficients are at most "
               "C(phi(d), phi(d)/2) sqrt(2) < 2^2000 (about 600 digits); measured heights for "
               "n <= 2000 are below 10."))


TOOLS = (CYCLOTOMIC,)
