"""Resultants and discriminants of univariate polynomials over Q (`poly.resultant`).

The resultant is the determinant of the Sylvester matrix, so it is zero exactly when f and g
have a common root; the discriminant is (-1)^(n(n-1)/2) Res(f, f')/lc(f), zero exactly when f
has a repeated root. Both are computed by sympy's subresultant algorithm over QQ, never from
approximate roots: a product of root differences in floating point loses these integers as
soon as they pass 2^53.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, Field, model_validator

from ..primitives import CONFIG, OutRat, RULE_LEADING, RULE_RATIONAL, Rat, Rule, poly_model, reject
from ..tool import Bounds, Example, MathTool
from .poly import RULE_SAME_VARIABLE

Polynomial16 = poly_model(
    "NonzeroSmallPolynomial", Rat(12, 4), 16, "rational coefficients (numerators below 10^12, "
    "denominators below 10^4)", nonzero=True)
RULE_DEGREE = Rule("degree_too_small", "f must have degree at least 1 (the discriminant of a "
                                       "constant is not defined).")


class ResultantRequest(BaseModel):
    model_config = CONFIG
    f: Annotated[Polynomial16, Field(description="f, of degree 1 to 16. " + RULE_DEGREE.text)]
    g: Annotated[Polynomial16 | None, Field(description=(
        "g, nonzero, of degree at most 16; omit it for the discriminant alone. "
        + RULE_SAME_VARIABLE.text))] = None

    @model_validator(mode="after")
    def _shapes(self) -> "ResultantRequest":
        if len(self.f.coefficients) < 2:
            reject(RULE_DEGREE.code, "f is a constant; give a polynomial of degree >= 1",
                   ("f", "coefficients"))
        if self.g is not None and self.g.variable != self.f.variable:
            reject(RULE_SAME_VARIABLE.code, f"f uses {self.f.variable!r} but g uses "
                   f"{self.g.variable!r}", ("g", "variable"))
        return self


class ResultantResult(BaseModel):
    model_config = CONFIG
    discriminant: OutRat = Field(description=(
        "disc(f) = (-1)^(n(n-1)/2) Res(f, f')/lc(f); 0 exactly when f has a repeated root; "
        "1 for degree 1."))
    resultant: OutRat | None = Field(description=(
        "Res(f, g), the determinant of the Sylvester matrix, = lc(f)^deg g * prod g(r) over "
        "the roots r of f (so Res(f, c) = c^deg f for a constant c); 0 exactly when f and g "
        "have a common complex root; null when g was not given."))


def resultant(request: ResultantRequest) -> ResultantResult:
    from ..adapters import sympy_poly as backend
    f = request.f.coefficients
    res = None if request.g is None else backend.resultant(f, request.g.coefficients)
    return ResultantResult(discriminant=backend.discriminant(f), resultant=res)


RESULTANT = MathTool(
    identifier="poly.resultant",
    vocabulary=(
        "resultant", "discriminant", "Sylvester matrix", "common root", "repeated root",
        "square-free test", "elimination of a variable", "discriminant of a quadratic"),
    claim=("For f in Q[x] of degree >= 1 and optional nonzero g: the exact discriminant of f "
           "and the exact resultant Res(f, g) = det Sylvester(f, g); Res(f, g) = 0 exactly when "
           "f and g share a complex root, disc(f) = 0 exactly when f has a repeated root."),
    request=ResultantRequest, result=ResultantResult, function=resultant,
    adapters=("sympy_poly",),
    rules=(RULE_LEADING, RULE_RATIONAL, RULE_SAME_VARIABLE, RULE_DEGREE),
    examples=(
        Example.of("Compute the resultant of x^2 - 2 and x^2 - 3x + 2 and the discriminant of "
                   "x^2 - 2; both polynomials use the same variable and list coefficients from "
                   "the highest degree down.",
                   {"f": {"variable": "x", "coefficients": [1, 0, -2]},
                    "g": {"variable": "x", "coefficients": [1, -3, 2]}}),
        Example.of("Compute the discriminant of x^3 - x + 1; f must have degree at least 1 and "
                   "g may be omitted.", {"f": {"variable": "x", "coefficients": [1, 0, -1, 1]}})),
    bounds=Bounds(
        input="Degrees <= 16, numerators < 10^12, denominators < 10^4.",
        computation="Subresultant PRS over QQ (sympy resultant/discriminant): measured 0.03 s "
                    "at degree 16 with 12-digit coefficients.",
        output="After clearing denominators (< 10^68 per polynomial) coefficients are < 10^80; "
               "Hadamard on the Sylvester matrix bounds |Res| by ||F||^16 ||G||^16 < 10^2580 "
               "over a denominator < 10^2180, and the discriminant likewise: inside the "
               "4000-digit budget."))


TOOLS = (RESULTANT,)
