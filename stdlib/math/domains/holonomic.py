"""Guessing a P-recursive (holonomic) recurrence from the terms of a sequence
(`seq.holonomic.find`): polynomials p_0..p_r in n, of degree <= d, not all zero, with
p_0(n) a(n) + p_1(n) a(n+1) + ... + p_r(n) a(n+r) = 0 for every n the given terms reach.

Each candidate shape (r, d) is a homogeneous linear system: one equation per n in 0..N-1-r,
one unknown per coefficient, U = (r+1)(d+1) unknowns. Shapes are tried in increasing U (then
r); only shapes with at least U - 1 equations are tried, since with fewer every sequence fits.
A shape is first screened modulo a 62-bit prime drawn from a hash of the terms (a rank there is
a lower bound of the rank over Q, so a full rank proves that nothing fits); a shape that passes
is solved exactly over Q by fraction-free elimination of all its equations, and every equation
is checked by substitution in integers. The honest states
mirror seq.recurrence.find: `determined` when the fit is unique up to scale and at least one
equation beyond those that pin it (each brings one new term a(n+r)) agrees; `candidate` when it
is unique but nothing is left to test it; `underdetermined` when several independent
recurrences of the first fitting shape fit; `none` when no shape in the searched range fits.
The pinning point is found modulo the prime, where it can only come later than over Q, so
`confirming_terms` never overstates the evidence. Pure Python, no backend.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from ..kernels import holonomic
from ..primitives import CONFIG, BigInt, Count, tagged
from ..tool import Bounds, Example, MathTool
from .poly import PolynomialValue

MAX_TERMS = 100
MAX_ORDER = 4
MAX_DEGREE = 4


class HolonomicRequest(BaseModel):
    model_config = CONFIG
    terms: Annotated[list[BigInt(30)], Field(min_length=1, max_length=MAX_TERMS, description=(
        "a(0), a(1), ..., a(N-1): 1 to 100 integers, each below 10^30 in absolute value."))]
    max_order: Count(1, MAX_ORDER, "The largest order r tried (1 to 4).") = MAX_ORDER
    max_degree: Count(0, MAX_DEGREE, "The largest degree d of the polynomial coefficients "
                                     "tried (0 to 4).") = MAX_DEGREE


class HolonomicFound(BaseModel):
    model_config = CONFIG
    status: Literal["determined", "candidate", "underdetermined"] = Field(description=(
        "determined: unique up to scale among the shapes tried first, and confirming_terms >= "
        "1 equations beyond those that pin it agree; candidate: unique, but no equation is "
        "left to test it; underdetermined: `nullity` independent recurrences of this shape fit "
        "(the terms, or the sequence itself, single none of them out)."))
    order: Count(1, MAX_ORDER) = Field(description="r.")
    degree: Count(0, MAX_DEGREE) = Field(description="d, the largest degree allowed in the p_i.")
    coefficients: list[PolynomialValue] = Field(description=(
        "p_0, ..., p_r in the variable n with integer coefficients (content 1, the last "
        "nonzero coefficient of the highest nonzero p_i positive): sum p_i(n) a(n+i) = 0 for "
        "every n from 0 to N-1-r (checked by substitution)."))
    nullity: Count(1, (MAX_ORDER + 1) * (MAX_DEGREE + 1)) = Field(description=(
        "The dimension of the space of recurrences of this shape that fit; 1 unless "
        "underdetermined (then `coefficients` is one of them)."))
    equations: Count(1, MAX_TERMS) = Field(description="N - r, one per n.")
    confirming_terms: Count(0, MAX_TERMS) = Field(description=(
        "Equations (terms a(n+r)) beyond the first ones that already pin the recurrence, all "
        "of which it satisfies; 0 unless determined."))


class HolonomicNone(BaseModel):
    model_config = CONFIG
    status: Literal["none"]
    searched: str = Field(description=(
        "The claim: no recurrence of order 1..max_order with coefficients of degree "
        "<= max_degree fits all the terms, among the shapes with (r+1)(d+1) - 1 <= N - r "
        "(the others fit every sequence and were not tried)."))


HolonomicResult = tagged(HolonomicFound, HolonomicNone)


HOLONOMIC = MathTool(
    identifier="seq.holonomic.find",
    vocabulary=(
        "P-recursive", "holonomic sequence", "holonomic recurrence",
        "recurrence with polynomial coefficients", "D-finite", "hypergeometric sequence",
        "Catalan numbers", "Motzkin numbers"),
    synonyms=("polynomial coefficients", "n-dependent coefficients"),
    claim=("For integer terms a(0..N-1): the first shape (order r <= max_order, coefficient "
           "degree d <= max_degree, by increasing (r+1)(d+1) then r, among the shapes with "
           "(r+1)(d+1) - 1 <= N - r) that has polynomials p_0..p_r with sum p_i(n) a(n+i) = 0 "
           "for every n in 0..N-1-r, checked by substitution, and how far the terms support "
           "it: determined (unique up to scale, and equations beyond those pinning it agree), "
           "candidate (unique but untested), underdetermined (several fit); or none: no shape "
           "in that range fits. Terms beyond the data are not claimed."),
    request=HolonomicRequest, result=HolonomicResult, kernel=holonomic.find_holonomic,
    examples=(Example.of(
        "Compute a recurrence with polynomial coefficients fitting the Catalan numbers 1, 1, 2, "
        "5, 14, 42, 132, 429, 1430, 4862 ((n + 2) a(n+1) = (4n + 2) a(n)); give 1 to 100 "
        "integers below 10^30 in absolute value.",
        {"terms": [1, 1, 2, 5, 14, 42, 132, 429, 1430, 4862]}),),
    bounds=Bounds(
        input="N <= 100 integer terms below 10^30; order <= 4 and coefficient degree <= 4, so "
              "at most 20 shapes of at most 25 unknowns.",
        computation="Per shape, one elimination modulo a 62-bit prime of at most N rows of at "
                    "most 25 entries (N * 25^2 modular operations, stopping at full rank), and "
                    "for the first shape that passes, one fraction-free elimination of its at "
                    "most 99 rows over Z and a substitution check: measured 0.02 s per screen "
                    "and 0.47 s for the exact elimination of the largest shape (96 x 25, "
                    "30-digit terms), about 0.9 s in all at the bound, 9% of the deadline.",
        output="r + 1 <= 5 polynomials of degree <= 4; their coefficients are a nullspace "
               "vector of at most 24 rows whose entries are below 100^4 * 10^30 < 10^38, so "
               "by Cramer's rule and Hadamard's bound below (5 * 10^38)^24 < 10^930."))


TOOLS = (HOLONOMIC,)
