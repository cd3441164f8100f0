"""Integer relations among real constants by PSLQ (`nt.real.relations`).

Real constants are given as expression text (domains/expression.py: pi, e, euler, catalan,
zeta(3), log(2), sqrt(2), ...), evaluated by mpmath at P digits, and PSLQ (mpmath) looks for
integers m, not all 0, with sum m_i x_i = 0. Numbers are not exact here, so the claims are
exactly as strong as the method:
- `candidate`: PSLQ found m at P digits and the sum still vanishes to at least 3P/2 digits when
  every value is recomputed at 2P digits. Numerical evidence, not a proof.
- `none_below`: PSLQ's lower bound on the Euclidean norm of any relation passed B at precision
  P: no relation of norm <= B at precision P. It says nothing about larger relations, or about
  relations that only the Pth digit and beyond would reveal.
- `incomplete`: the step budget ran out, or a relation found at P digits failed at 2P (the
  precision is too low for the bound); the norm bound reached so far is reported.
- `undefined`: a value is not a finite real number.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from ..kernels import pslq
from ..primitives import CONFIG, BigInt, Count, OutInt, Rule, after, tagged
from ..tool import Bounds, Example, MathTool
from . import expression

MAX_VALUES = 8
MAX_DIGITS = 300
STEPS = pslq.STEPS
RULE_CONSTANT = Rule("constant_grammar", "Each value is a constant expression (no variable): "
                     + expression.GRAMMAR)


class RealRelationRequest(BaseModel):
    model_config = CONFIG
    values: Annotated[list[Annotated[str, Field(max_length=expression.MAX_TEXT)]], Field(
        min_length=2, max_length=MAX_VALUES, description=(
            "x_1..x_n, 2 to 8 real constants as text, e.g. [\"zeta(3)\", \"pi^3\", "
            "\"log(2)^3\"]. " + RULE_CONSTANT.text))]
    digits: Count(20, MAX_DIGITS, "P: the working precision in decimal digits (20 to 300).")
    norm_bound: BigInt(12, minimum=1, description=(
        "B: relations are sought with max |m_i| <= B; the negative claim excludes every "
        "relation of Euclidean norm <= B at precision P."))

    _constants = after(pslq.constants_problem)


class Candidate(BaseModel):
    model_config = CONFIG
    status: Literal["candidate"]
    relation: list[OutInt] = Field(description="m with max |m_i| <= B and sum m_i x_i ~ 0.")
    residual: str = Field(description="|sum m_i x_i| at 2P digits, for reading.")
    vanishing_digits: int = Field(description=(
        "The sum is below 10^-k at 2P digits for this k (>= 3P/2): the evidence."))


class NoneBelow(BaseModel):
    model_config = CONFIG
    status: Literal["none_below"]
    norm_bound: OutInt = Field(description=(
        "PSLQ's lower bound (> B) on the Euclidean norm of every integer relation, at "
        "precision P."))


class Incomplete(BaseModel):
    model_config = CONFIG
    status: Literal["incomplete"]
    reason: Literal["step_budget", "failed_at_double_precision", "value_too_small"]
    norm_bound: OutInt | None = Field(description=(
        "The lower bound on the norm of any relation reached so far at precision P (null "
        "when PSLQ reported none)."))
    relation: list[OutInt] | None = Field(description=(
        "The relation found at P digits that failed at 2P, when that is the reason."))


class Undefined(BaseModel):
    model_config = CONFIG
    status: Literal["undefined"]
    index: Count(0, MAX_VALUES - 1) = Field(description="The value that is not a finite real.")
    message: str


REAL_RELATIONS = MathTool(
    identifier="nt.real.relations",
    vocabulary=(
        "PSLQ", "integer relation", "integer relation detection", "experimental mathematics",
        "identify a constant", "linear dependence over the integers", "closed form",
        "inverse symbolic calculator", "zeta(3)", "Apery", "polylogarithm identity",
        "BBP formula"),
    synonyms=("real constants", "numerically", "find a formula", "relation between pi"),
    claim=("For real constants x_1..x_n (n <= 8) given as expressions, a precision P and a "
           "bound B: either a candidate integer relation m (max |m_i| <= B) found by PSLQ at "
           "P digits that still vanishes to >= 3P/2 digits at 2P digits (numerical evidence, "
           "not a proof), or `none_below`: no integer relation of Euclidean norm <= B at "
           "precision P (PSLQ's norm bound), or an honest `incomplete` / `undefined`."),
    request=RealRelationRequest, result=tagged(Candidate, NoneBelow, Incomplete, Undefined),
    kernel=pslq.find_relation, adapters=("mpmath_pslq",),
    rules=(RULE_CONSTANT,),
    examples=(Example.of(
        "Compute an integer relation among atan(1/5), atan(1/239) and pi (Machin's formula) "
        "at 50 digits with coefficients up to 1000; values are constant expressions and the "
        "relation is numerical evidence, not a proof.",
        {"values": ["atan(1/5)", "atan(1/239)", "pi"], "digits": 50, "norm_bound": 1000}),
        Example.of(
        "Decide whether zeta(3), pi^3 and log(2)^3 have an integer relation of norm at most "
        "10^6 at 100 digits; a negative answer covers only that norm and precision.",
        {"values": ["zeta(3)", "pi^3", "log(2)^3"], "digits": 100, "norm_bound": 1000000})),
    bounds=Bounds(
        input=f"2 to {MAX_VALUES} constant expressions (the expression grammar's bounds), "
              f"20 <= P <= {MAX_DIGITS}, 1 <= B < 10^12.",
        computation=f"Cost quantity: PSLQ steps x n^2 operations at P digits, steps <= "
                    f"{STEPS} (then `incomplete`), plus evaluating each constant at P and 2P "
                    "digits. Measured worst 1.5 s (7.5% of the 20 s deadline, 2 loaded "
                    "cores): n = 8 unrelated constants at P = 300, B = 10^12.",
        output=f"At most {MAX_VALUES} integers of absolute value <= B < 10^12, or one norm "
               "bound below 10^(P+3) (the reciprocal of a P-digit number), and a short text."),
    deadline=20.0)


TOOLS = (REAL_RELATIONS,)
