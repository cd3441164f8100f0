"""Nonlinear arithmetic: one bounded QF_NIA or QF_NRA query, decided or optimised by z3
(`smt.nonlinear.solve`), the nonlinear member of the smt family.

The script is read by the same checked reader as smt.solve (`smtlib.read`: declarations and
assertions only, no quantifiers, the declared logic's operators, size limits), with products of
unknowns allowed and divisions only by nonzero constants (SMT-LIB leaves x/0 unspecified, so a
model with a division by a term could not be checked exactly). Both logics are incomplete in
practice (QF_NIA is undecidable; z3's QF_NRA procedure is complete but may run out of budget),
so `unknown` is an ordinary outcome and carries z3's reason and the resources spent.

What each answer rests on: `sat` comes with a complete model that is checked here by
substitution in exact rational arithmetic when every value is rational; a model with a real
algebraic value (named by its defining polynomial and root index) is checked by z3's exact
algebraic-number evaluation instead, and the result says which. `unsat` is z3's verdict in the
named logic, not independently certified. With an objective, the optimum is searched by
repeated checks of the same query tightened by a rational bound on the objective (galloping,
then bisection): `optimal` means a model attains the value and the query with "objective below
it" (above, for maximise) is unsat for z3; `feasible` means the best model found when the
rounds, the budget or z3's completeness ran out, with a bound z3 proved (no model goes past it)
when one was reached.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from ..kernels import nonlinear
from ..primitives import CONFIG, OUTPUT_DIGITS, Count, OutInt, Rule, after, tagged
from ..tool import Bounds, Example, MathTool
from . import smt, smtlib
from .smt import BoolValue, IntValue, RealValue, SmtUnknown

RULES = (
    Rule("smt_command_not_allowed",
         "Only declare-const, define-fun, assert and a set-logic repeating the declared logic "
         "(no set-option, check-sat, push, pop, get-*)."),
    Rule("smt_quantifier", "No quantifiers (forall, exists)."),
    Rule("smt_not_in_logic",
         "Only Int with + - * div mod abs and comparisons (QF_NIA) or Real with + - * / and "
         "comparisons (QF_NRA), Booleans and ite; no uninterpreted functions."),
    Rule("smt_divisor", "/, div and mod divide by nonzero constants only."),
    Rule("smt_limit",
         f"At most {smtlib.MAX_DECLARATIONS} declarations, {smtlib.MAX_ASSERTIONS} assertions, "
         f"{smtlib.MAX_ARITHMETIC_CONSTANTS} Int/Real constants, numerals of at most "
         f"{smtlib.MAX_NUMERAL_DIGITS} digits, nesting depth {smtlib.MAX_DEPTH}, and at most "
         f"{smtlib.MAX_EXPANDED_TERMS} terms with let and define-fun expanded."),
    Rule("smt_sort_mismatch", "Every term is well sorted; assertions are Bool."),
    Rule("objective_not_declared",
         "objective.constant names a constant the script declares with the logic's sort (Int "
         "in QF_NIA, Real in QF_NRA); to optimise an expression, declare a constant and assert "
         "it equal to the expression."),
)
MAX_ROUNDS = 64
MAX_RESOURCE = 3 * 10**6


class Objective(BaseModel):
    model_config = CONFIG
    sense: Literal["minimize", "maximize"]
    constant: str = Field(max_length=64, description=RULES[-1].text)


class NonlinearRequest(BaseModel):
    model_config = CONFIG
    logic: Literal["QF_NIA", "QF_NRA"] = Field(description="The logic the script stays in.")
    script: Annotated[str, Field(max_length=smtlib.MAX_SCRIPT, description=(
        "One quantifier-free SMT-LIB 2 query: declarations and assertions only. "
        + " ".join(rule.text for rule in RULES[:-1])))]
    objective: Objective | None = Field(None, description=(
        "Optimise this constant over the models instead of returning any model."))
    rounds: Count(0, MAX_ROUNDS, "With an objective: at most this many tightening checks "
                                 "after the first model (0 to 64; default 32).") = 32
    resource_limit: Count(10**4, MAX_RESOURCE, "z3's deterministic budget (rlimit) for all "
                                               "checks together; about 10^7 units per "
                                               "second.") = MAX_RESOURCE
    _read_script = after(nonlinear.script_problem)


class AlgebraicValue(BaseModel):
    model_config = CONFIG
    kind: Literal["algebraic"]
    polynomial: list[OutInt] = Field(description=(
        "A defining integer polynomial, highest degree first (z3's, irreducible)."))
    index: Count(1, 10**4) = Field(description="The value is this real root of the "
                                               "polynomial, counting in increasing order from 1.")
    approx: str = Field(description="A decimal approximation, for reading only.")


NlValue = Annotated[BoolValue | IntValue | RealValue | AlgebraicValue,
                    Field(discriminator="kind")]


class NlEntry(BaseModel):
    model_config = CONFIG
    name: str
    sort: str
    value: NlValue


CHECK_TEXT = ("exact: every assertion evaluated to true here in exact rational arithmetic "
              "(all values rational); z3_algebraic: some value is an irrational algebraic "
              "number and z3's exact algebraic arithmetic evaluated every assertion to true.")


class NlSat(BaseModel):
    model_config = CONFIG
    status: Literal["sat"]
    model: list[NlEntry] = Field(description="Every declared constant, in declaration order.")
    check: Literal["exact", "z3_algebraic"] = Field(description=CHECK_TEXT)


class NlUnsat(BaseModel):
    model_config = CONFIG
    status: Literal["unsat"]
    logic: Literal["QF_NIA", "QF_NRA"] = Field(description=(
        "No model exists, as decided by z3 in this logic (not independently certified)."))


class NlOptimal(BaseModel):
    model_config = CONFIG
    status: Literal["optimal"]
    value: NlValue = Field(description="The optimum, attained by the model.")
    model: list[NlEntry]
    check: Literal["exact", "z3_algebraic"] = Field(description=CHECK_TEXT)
    checks: Count(1, MAX_ROUNDS + 1) = Field(description=(
        "Solver calls made; the last found the query with the objective strictly better than "
        "`value` unsat (z3's verdict in the logic)."))


class NlFeasible(BaseModel):
    model_config = CONFIG
    status: Literal["feasible"]
    value: NlValue = Field(description="The best value found, attained by the model; not "
                                       "proved optimal.")
    model: list[NlEntry]
    check: Literal["exact", "z3_algebraic"] = Field(description=CHECK_TEXT)
    bound: NlValue | None = Field(description=(
        "When reached: z3 found no model with the objective at or beyond this value (at or "
        "below it for minimize, at or above for maximize); null otherwise."))
    stopped: str = Field(description="Why the search stopped: 'rounds' (the rounds ran out) or "
                                     "z3's reason for an unknown check (budget, incompleteness).")
    checks: Count(1, MAX_ROUNDS + 1)


class NlModelTooLarge(BaseModel):
    model_config = CONFIG
    status: Literal["model_too_large"]
    digits: Count(OUTPUT_DIGITS + 1, 10**9) = Field(description=(
        "z3 found a model (sat), but a number in it has this many digits, more than a result "
        f"carries ({OUTPUT_DIGITS}); no model is returned."))


NonlinearResult = tagged(NlSat, NlUnsat, NlOptimal, NlFeasible, NlModelTooLarge, SmtUnknown)

TIME_BUDGET_MS = nonlinear.TIME_BUDGET_MS


NONLINEAR = MathTool(
    identifier="smt.nonlinear.solve",
    vocabulary=(
        "nonlinear arithmetic", "nonlinear constraints", "nonlinear integer arithmetic",
        "nonlinear real arithmetic", "polynomial constraints", "polynomial inequalities",
        "QF_NIA", "QF_NRA", "nonlinear optimisation", "nonlinear optimization",
        "polynomial optimisation", "Diophantine constraints", "Diophantine equation",
        "integer solutions", "semialgebraic", "polynomial system satisfiable",
        "polynomial equations and inequalities"),
    synonyms=("nonlinear", "satisfiable", "products of variables", "quadratic constraints"),
    claim=("For one quantifier-free SMT-LIB query in QF_NIA or QF_NRA (products of unknowns "
           "allowed, divisions by nonzero constants only): sat with a complete model, checked "
           "by exact rational substitution or, with irrational algebraic values, by z3's exact "
           "algebraic evaluation (the result says which); unsat as decided by z3 in the named "
           "logic (not independently certified); with an objective, optimal (attained, and "
           "z3 finds nothing better) or feasible (the best found, with a bound z3 proved when "
           "reached); unknown with z3's reason and the resources used; model_too_large when a "
           "model number exceeds the 4000-digit result limit."),
    request=NonlinearRequest, result=NonlinearResult, kernel=nonlinear.solve_nonlinear,
    on_deadline=smt.solve_deadline, adapters=("z3_smt",), rules=RULES,
    examples=(
        Example.of(
            "Decide whether reals x and y exist with x^2 + y^2 = 1 and x*y = 1/4 and return a "
            "model; the script holds only declarations and assertions of one quantifier-free "
            "QF_NRA query, divisions only by nonzero constants.",
            {"logic": "QF_NRA", "script": "(declare-const x Real)(declare-const y Real)"
                                          "(assert (= (+ (* x x) (* y y)) 1))"
                                          "(assert (= (* x y) (/ 1 4)))"}),
        Example.of(
            "Compute the least x + y over positive integers x, y < 60 with x*y > 100; the "
            "objective must be a declared constant of the logic's sort (assert it equal to an "
            "expression).",
            {"logic": "QF_NIA", "objective": {"sense": "minimize", "constant": "c"},
             "script": "(declare-const x Int)(declare-const y Int)(declare-const c Int)"
                       "(assert (and (> x 0) (> y 0) (< x 60) (< y 60)))"
                       "(assert (> (* x y) 100))(assert (= c (+ x y)))"})),
    bounds=Bounds(
        input=f"Script <= {smtlib.MAX_SCRIPT} characters, <= {smtlib.MAX_DECLARATIONS} "
              f"declarations, <= {smtlib.MAX_ASSERTIONS} assertions, <= "
              f"{smtlib.MAX_ARITHMETIC_CONSTANTS} Int/Real constants, numerals <= "
              f"{smtlib.MAX_NUMERAL_DIGITS} digits, <= {smtlib.MAX_EXPANDED_TERMS} terms after "
              "expansion; divisions by nonzero constants only; rounds <= 64.",
        computation=f"All checks together within rlimit <= {MAX_RESOURCE} (about 1.2 s of "
                    "QF_NIA here) and a z3 timeout of 1.2 s for all of them (nlsat's QF_NRA "
                    "work is poorly counted by rlimit), whichever comes first, each giving an "
                    "unknown (or, when optimising, the best model so far); the exact "
                    "substitution check walks the expanded query once. Measured: at most "
                    "1.53 s for a whole call (Fermat's cubic, a Pell-type query, dense QF_NRA "
                    "systems, with and without an objective), 15% of the 10 s deadline.",
        output="A nonlinear model has no a-priori size bound (z3 may pick any witness), so a "
               "model is returned only when every number in it has at most 4000 digits; "
               "otherwise the outcome says model_too_large with the digit count (sat is still "
               "the verdict). At most 50 constants; algebraic values carry z3's defining "
               "polynomial."))


TOOLS = (NONLINEAR,)
