"""Continued fractions of rationals and of real quadratic irrationals (x = (a + b sqrt d)/c).

A rational has a finite expansion, written canonically (the last term is at least 2 unless
there is only one term). A quadratic irrational has an eventually periodic one (Lagrange); it
is computed on exact integer states (P, Q) with x_k = (P + sqrt D)/Q and Q | D - P^2, and the
period is found as the first repeated state, so the claim "this is the whole period" is a fact
of the computation, not a guess from a finite prefix (a float expansion of sqrt(D) drifts after
about 20 terms). sympy's `continued_fraction_periodic` computes the same thing through symbolic
square roots and took 12 s for a period of 2006 terms; the integer recurrence here takes
milliseconds, so it is written out.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from ..kernels import contfrac
from ..primitives import CONFIG, BigInt, Count, OutInt, Rule, after, tagged
from ..tool import Bounds, Example, MathTool

MAX_DISCRIMINANT = contfrac.MAX_DISCRIMINANT
RULE_NUMBER = Rule("quadratic_range", (
    "x = (a + b*sqrt(d))/c with c != 0; when b != 0 and d is not a perfect square, |a| and |c| "
    "must be at most 10^6 and b^2 * c^2 * d at most 10^6 (this bounds the period); otherwise "
    "x is the rational (a + b*sqrt(d))/c and a, c may have up to 1000 digits."))


class ContinuedFractionRequest(BaseModel):
    __doc__ = ("The real number x = (a + b*sqrt(d))/c. " + RULE_NUMBER.text
               + ' Example: {"a": 0, "b": 1, "c": 1, "d": 7} is sqrt(7); {"a": 415, "c": 93} '
               "is 415/93.")
    model_config = CONFIG
    a: BigInt(1000, description="The rational part's numerator.")
    c: BigInt(1000, description="The common denominator, nonzero.")
    b: BigInt(7, description="The coefficient of sqrt(d); 0 (the default) for a rational.") = 0
    d: Count(0, MAX_DISCRIMINANT, "The radicand d >= 0; default 0.") = 0

    _range = after(contfrac.number_problem)


class Finite(BaseModel):
    model_config = CONFIG
    kind: Literal["finite"]
    terms: list[OutInt] = Field(description=(
        "[a0; a1, ..., an] with x = a0 + 1/(a1 + 1/(... + 1/an)); a1.. >= 1 and an >= 2 when "
        "n >= 1 (the canonical one of the two expansions)."))


class Periodic(BaseModel):
    model_config = CONFIG
    kind: Literal["periodic"]
    preperiod: list[OutInt] = Field(description="The terms before the period, a0 first.")
    period: list[OutInt] = Field(description=(
        "The shortest block repeated for ever after the preperiod (never empty)."))


ContinuedFraction = tagged(Finite, Periodic, tag="kind")


CONTINUED_FRACTION = MathTool(
    identifier="nt.continued_fraction.expand",
    vocabulary=(
        "continued fraction", "continued fraction expansion", "convergents", "partial quotients",
        "quadratic irrational", "periodic continued fraction", "square root expansion",
        "rational approximation", "Pell equation"),
    claim=("The regular continued fraction of x = (a + b sqrt d)/c: for rational x the finite "
           "canonical expansion; for an irrational quadratic x the preperiod and the shortest "
           "period of its eventually periodic expansion, exactly."),
    request=ContinuedFractionRequest, result=ContinuedFraction, kernel=contfrac.expand,
    rules=(RULE_NUMBER,),
    examples=(
        Example.of("Compute the continued fraction of sqrt(7) with its period; d must not be "
                   "a perfect square for an irrational, and b^2 c^2 d must be at most 10^6.",
                   {"a": 0, "b": 1, "c": 1, "d": 7}),
        Example.of("Compute the finite continued fraction of 415/93; c must be nonzero and the "
                   "fraction need not be reduced.", {"a": 415, "c": 93})),
    bounds=Bounds(
        input="Rational: |a|, |c| < 10^1000. Quadratic: |a|, |c| <= 10^6, D = b^2 c^2 d <= 10^6.",
        computation="Rational: Euclid, at most 4790 steps (Lame). Quadratic: one integer step per "
                    "term; reduced states (P, Q) have 0 < P < sqrt D and Q | D - P^2, so the "
                    "period has at most sum over P < 1000 of d(D - P^2) <= 240000 terms (240 "
                    "is the most divisors below 10^6); the longest measured period below the "
                    "bound is 2006 terms (d = 999331) in under 10 ms.",
        output="Rational: at most 4790 terms whose product is below 10^1000. Quadratic: period "
               "terms at most 2 sqrt D <= 2000, at most 240000 of them; preperiod terms below "
               "2 * 10^6."))


TOOLS = (CONTINUED_FRACTION,)
