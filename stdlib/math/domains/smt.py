"""Satisfiability modulo theories: one bounded quantifier-free SMT-LIB query (MATH.md §5.5).

The request is SMT-LIB 2 text, checked by `smtlib.read` before anything reaches z3: only
declarations and assertions, no quantifiers, only the operators and sorts of the declared
logic, and explicit size limits. The claim is z3's: `sat` comes with a complete model that the
caller can check; `unsat` is z3's verdict (not independently certified); `unknown` carries the
reason and the resources used, and is never turned into either answer. The nonlinear logics
(QF_NIA, QF_NRA) have their own operation, smt.nonlinear.solve (smt_nonlinear.py), whose models
have no a-priori size bound and whose budgets differ; the difference logics are not offered,
since every difference-logic query is also a QF_LIA or QF_LRA query.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from ..kernels import smt
from ..primitives import CONFIG, Count, OutInt, OutRat, Rule, after, tagged
from ..tool import Bounds, Example, MathTool
from . import smtlib

RULES = (
    Rule("smt_command_not_allowed",
         "Only the commands declare-const, declare-fun, declare-sort (uninterpreted-function "
         "logics), define-fun, assert, and a set-logic that repeats the declared logic are "
         "allowed: no set-option (it changes process-global solver parameters), no "
         "check-sat, push, pop, reset, exit or get-* (the operation checks satisfiability "
         "itself)."),
    Rule("smt_quantifier", "No quantifiers (forall, exists)."),
    Rule("smt_not_in_logic",
         "Only the sorts and operators of the declared logic: Int with + - * div mod abs and "
         "comparisons in QF_LIA; Real with + - * / and comparisons in QF_LRA; both plus "
         "to_real, to_int, is_int in QF_LIRA (no implicit Int/Real mixing); declared sorts and "
         "functions with arguments in the UF logics; (_ BitVec n) with the standard bv "
         "operators in QF_BV."),
    Rule("smt_nonlinear",
         "Arithmetic is linear: * has at most one non-constant argument, and /, div, mod "
         "divide by nonzero constants."),
    Rule("smt_limit",
         f"At most {smtlib.MAX_DECLARATIONS} declarations, {smtlib.MAX_ASSERTIONS} "
         f"assertions, {smtlib.MAX_ARITHMETIC_CONSTANTS} Int/Real constants, numerals of at "
         f"most {smtlib.MAX_NUMERAL_DIGITS} digits, bit-vector widths of at most "
         f"{smtlib.MAX_BV_WIDTH}, nesting depth {smtlib.MAX_DEPTH}; with let bindings and "
         f"define-fun applications expanded, at most {smtlib.MAX_EXPANDED_TERMS} terms and "
         f"at most {smtlib.MAX_ARITHMETIC_UNKNOWNS} arithmetic unknowns (the Int/Real "
         "constants plus one per ite, abs, to_int, is_int or arithmetic function term and two "
         "per div or mod)."),
    Rule("smt_coefficient_too_large",
         "With let bindings and define-fun applications expanded, every arithmetic term is "
         "linear, and written over a common denominator d as (a1*x1 + ... + an*xn + a0)/d its "
         f"d and every |ai| are below 10^{smtlib.MAX_COEFFICIENT_DIGITS}: (* 1000000 (* 999999 "
         "x)) is fine, (* 1000000 (* 1000000 x)) is not; a coefficient built through a chain "
         "of define-funs counts the same way."),
    Rule("smt_sort_mismatch", "Every term is well sorted; assertions are Bool."),
)
SCRIPT_TEXT = ("One quantifier-free SMT-LIB 2 query: declarations and assertions only; an "
               "assertion may be labelled (! term :named label) for unsat cores. "
               + " ".join(rule.text for rule in RULES))
EXAMPLE_SCRIPT = "(declare-const x Int)(declare-const y Int)(assert (> x 2))(assert (< (+ x y) 10))"


# The computation bound: z3's deterministic resource budget. Measured (2 shared cores, load
# about 8): 10^6 units took 0.8 s on a 40-item knapsack that spends all of it, so the bound is
# under 20% of the deadline; 5*10^7, the old bound, could not finish within the deadline.
MAX_RESOURCE = 10**6


class SmtRequest(BaseModel):
    model_config = CONFIG
    logic: Literal["QF_LIA", "QF_LRA", "QF_LIRA", "QF_UF", "QF_UFLIA", "QF_UFLRA",
                   "QF_BV"] = Field(description="The logic the script must stay inside.")
    script: Annotated[str, Field(max_length=smtlib.MAX_SCRIPT, description=SCRIPT_TEXT)]
    resource_limit: Count(10**4, MAX_RESOURCE, "z3's deterministic resource budget (rlimit); "
                                               "about 10^6 units per second.") = MAX_RESOURCE
    unsat_core: bool = Field(False, description="When unsat, also return the labels of a "
                                                "subset of the named assertions that is "
                                                "unsatisfiable together with the unnamed ones.")
    _read_script = after(smt.script_problem)


class BoolValue(BaseModel):
    model_config = CONFIG
    kind: Literal["bool"]
    value: bool


class IntValue(BaseModel):
    model_config = CONFIG
    kind: Literal["int"]
    value: OutInt


class RealValue(BaseModel):
    model_config = CONFIG
    kind: Literal["real"]
    value: OutRat


class BitVecValue(BaseModel):
    model_config = CONFIG
    kind: Literal["bitvec"]
    width: Count(1, smtlib.MAX_BV_WIDTH)
    value: OutInt = Field(description="The unsigned value, 0 <= value < 2^width.")


class ElementValue(BaseModel):
    model_config = CONFIG
    kind: Literal["element"]
    sort: str
    label: str = Field(description="An opaque name of an element of the declared sort; "
                                   "distinct labels are distinct elements.")


Scalar = tagged(BoolValue, IntValue, RealValue, BitVecValue, ElementValue, tag="kind")


class FunctionEntry(BaseModel):
    model_config = CONFIG
    args: list[Scalar]
    value: Scalar


class FunctionValue(BaseModel):
    model_config = CONFIG
    kind: Literal["function"]
    entries: list[FunctionEntry] = Field(description="The value at every argument tuple the "
                                                     "query applies the function to.")
    else_value: Scalar = Field(description="The value everywhere else.")


class ModelEntry(BaseModel):
    model_config = CONFIG
    name: str
    arguments: list[str] = Field(description="Argument sorts; empty for a constant.")
    sort: str
    value: Annotated[BoolValue | IntValue | RealValue | BitVecValue | ElementValue |
                     FunctionValue, Field(discriminator="kind")]


class SmtSat(BaseModel):
    model_config = CONFIG
    status: Literal["sat"]
    model: list[ModelEntry] = Field(description="Every declared constant and function, in "
                                                "declaration order; every assertion is true "
                                                "under it.")


class SmtUnsat(BaseModel):
    model_config = CONFIG
    status: Literal["unsat"]
    core: list[str] | None = Field(description="Labels of named assertions that are "
                                               "unsatisfiable together with all unnamed ones "
                                               "(not necessarily minimal); null unless "
                                               "unsat_core was requested.")


class SmtUnknown(BaseModel):
    model_config = CONFIG
    status: Literal["unknown"]
    reason_kind: Literal["resource_limit", "deadline", "incomplete_theory", "other"]
    reason: str = Field(description="z3's reason text.")
    resource_limit: Count(10**4, 10**7)  # both members: smt.solve 10^6, nonlinear 3*10^6
    resource_used: Count(0, 10**12) | None = Field(description="rlimit units spent; null "
                                                               "after a deadline kill.")
    deadline_ms: Count(1, 60000) | None
    elapsed_ms: Count(0, 10**7) | None


SmtResult = tagged(SmtSat, SmtUnsat, SmtUnknown)

Z3_TIMEOUT_MS = smt.Z3_TIMEOUT_MS


def solve_deadline(request: SmtRequest, deadline_ms: int, elapsed_ms: int) -> SmtUnknown:
    return SmtUnknown(status="unknown", reason_kind="deadline", reason="killed at the deadline",
                      resource_limit=request.resource_limit, resource_used=None,
                      deadline_ms=deadline_ms, elapsed_ms=elapsed_ms)


SOLVE = MathTool(
    identifier="smt.solve",
    vocabulary=(
        "SMT", "satisfiability modulo theories", "SMT-LIB", "z3", "linear integer arithmetic",
        "linear real arithmetic", "integer linear programming", "linear inequalities",
        "constraints", "constraint solving", "bit-vectors", "uninterpreted functions",
        "feasibility", "decision procedure", "model of constraints"),
    claim=("For one quantifier-free SMT-LIB 2 query in the declared logic: sat with a complete "
           "model (every declared constant and function) under which every assertion is true; "
           "unsat as decided by z3 (not independently certified), optionally with a core of "
           "named assertions; unknown with z3's reason and the resources used."),
    request=SmtRequest, result=SmtResult, kernel=smt.solve, on_deadline=solve_deadline,
    adapters=("z3_smt",),
    rules=RULES,
    examples=(
        Example.of(
            "Decide whether integers x and y exist with x > 2 and x + y < 10 and return a model "
            "if so; the script may contain only declarations and assertions of one "
            "quantifier-free query in the declared logic.",
            {"logic": "QF_LIA", "script": EXAMPLE_SCRIPT}),
        Example.of(
            "Decide whether the named constraints x > 2 and x < 1 can hold together and return "
            "an unsat core of their labels; labels are written (! term :named label).",
            {"logic": "QF_LRA", "unsat_core": True,
             "script": "(declare-const x Real)(assert (! (> x 2) :named low))"
                       "(assert (! (< x 1) :named high))"})),
    bounds=Bounds(
        input=f"Script <= {smtlib.MAX_SCRIPT} characters, <= {smtlib.MAX_DECLARATIONS} "
              f"declarations, <= {smtlib.MAX_ASSERTIONS} assertions, <= "
              f"{smtlib.MAX_ARITHMETIC_CONSTANTS} Int/Real constants, numerals <= "
              f"{smtlib.MAX_NUMERAL_DIGITS} digits, bit-vector widths <= "
              f"{smtlib.MAX_BV_WIDTH}; linear arithmetic only. The linearised query (let and "
              f"define-fun expanded: <= {smtlib.MAX_EXPANDED_TERMS} terms) has <= "
              f"{smtlib.MAX_ARITHMETIC_UNKNOWNS} arithmetic unknowns and every arithmetic "
              f"term, over its common denominator d, has d and all coefficients below "
              f"10^{smtlib.MAX_COEFFICIENT_DIGITS}.",
        computation="The request check walks the expanded query once (<= "
                    f"{smtlib.MAX_EXPANDED_TERMS} terms, about 0.3 s at that limit here); z3 "
                    f"rlimit <= {MAX_RESOURCE} (deterministic per z3 version) in a fresh "
                    f"context, and z3's timeout of {Z3_TIMEOUT_MS / 1000:g} s (bit-blasting a "
                    "QF_BV product is barely counted by rlimit), either ending in unknown "
                    "with reason_kind resource_limit. Measured whole calls (2 shared cores, "
                    "load about 7): a 40-item knapsack spending the whole rlimit 0.65 s, four "
                    "chained 256-bit squarings stopped by the timeout 1.8 s: under 20% of the "
                    "10 s deadline.",
        output="At most 200 model entries; bit-vector values < 2^256. A tableau row relates "
               "at most two bounded terms, so its cleared entries are below "
               f"10^{smtlib.ROW_DIGITS}; a simplex vertex is a ratio of two minors of order "
               f"<= {smtlib.MAX_ARITHMETIC_UNKNOWNS} (Hadamard), so model numerators and "
               f"denominators have at most {smtlib.MODEL_DIGITS} digits. z3's integer cuts "
               "and branching come with no such proof, so the adapter checks every model "
               "number against that bound and reports a violation as a backend fault (a "
               "contract bug, never an answer)."))


TOOLS = (SOLVE,)
