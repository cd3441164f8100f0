"""Exact rational linear programming (`opt.lp.solve`): minimise c.x subject to A x <= b,
E x = f, x >= 0, with a certificate for every outcome that is checked here by exact arithmetic,
independently of the solver, before it is returned.

The solver is the library's own exact simplex (`simplex.py`: fraction-free tableau, Dantzig's
rule with Bland's rule on degenerate stretches, which cannot cycle). The certificates come from
its final tableau:
- optimal: x feasible and multipliers y >= 0 (inequalities), w (equalities, any sign) with
  c + A^T y + E^T w >= 0 and c.x = -b.y - f.w (weak duality makes that a proof of optimality);
- infeasible: y >= 0, w with A^T y + E^T w >= 0 and b.y + f.w < 0 (Farkas);
- unbounded: a feasible x and a ray d >= 0 with A d <= 0, E d = 0 and c.d < 0;
- incomplete: the caller's pivot budget ran out first (the simplex method can need
  exponentially many pivots, e.g. on Klee-Minty cubes); the result says so, with the pivots
  used and, when phase 2 was reached, a feasible point whose value bounds the minimum above.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from ..kernels import lp
from ..primitives import (CONFIG, OutRat, Rat, Rule, RULE_MATRIX_SHAPE, RULE_RATIONAL,
                          after, matrix_model, tagged)
from ..tool import Bounds, Example, MathTool

MAX_SIZE = lp.MAX_SIZE
MAX_PIVOTS = 200
ConstraintMatrix = matrix_model("ConstraintMatrix", Rat(6, 3), MAX_SIZE, "rational entries "
                                "(numerators below 10^6, denominators below 10^3)")
RULE_LP_SHAPE = Rule("lp_shape", "b needs one entry per row of a, f one per row of e, and c one "
                                 "entry per column of a and of e (one per variable); a and b "
                                 "come together, as do e and f; at most 20 rows in all.")
Vector = Annotated[list[Rat(6, 3)], Field(max_length=MAX_SIZE)]


class LpRequest(BaseModel):
    __doc__ = ("Minimise c.x subject to A x <= b, E x = f and x >= 0. " + RULE_LP_SHAPE.text
               + ' Example: {"c": [-1, -1], "a": {"nrows": 2, "ncols": 2, "rows": [[1, 2], '
               '[3, 1]]}, "b": [4, 6]}')
    model_config = CONFIG
    c: Annotated[Vector, Field(min_length=1, description=(
        "The objective c (minimised); one entry per variable, 1 to 20 variables."))]
    a: ConstraintMatrix | None = Field(default=None, description=(
        "The inequality rows A of A x <= b; omit for none."))
    b: Vector | None = Field(default=None, description="The right-hand sides of A x <= b.")
    e: ConstraintMatrix | None = Field(default=None, description=(
        "The equality rows E of E x = f; omit for none."))
    f: Vector | None = Field(default=None, description="The right-hand sides of E x = f.")
    pivot_budget: Annotated[int, Field(ge=1, le=MAX_PIVOTS, description=(
        "The most simplex pivots to spend (both phases together); when they run out the "
        "result is `incomplete`, never a wrong or missing answer."))] = MAX_PIVOTS

    _shape = after(lp.shape_problem)


class Optimal(BaseModel):
    model_config = CONFIG
    status: Literal["optimal"]
    value: OutRat = Field(description="The minimum of c.x.")
    x: list[OutRat] = Field(description=(
        "An optimal point: A x <= b, E x = f, x >= 0, c.x = value."))
    dual: list[OutRat] = Field(description=(
        "y >= 0, one per row of a (empty without a), and with dual_eq the certificate that no "
        "feasible point does better: c + A^T y + E^T w >= 0 and -b.y - f.w = value "
        "(weak duality)."))
    dual_eq: list[OutRat] = Field(description="w, one per row of e (any sign); empty without e.")
    pivots: int = Field(description="Simplex pivots spent.")


class Infeasible(BaseModel):
    model_config = CONFIG
    status: Literal["infeasible"]
    farkas: list[OutRat] = Field(description=(
        "y >= 0, one per row of a, and with farkas_eq w: A^T y + E^T w >= 0 and b.y + f.w < 0 "
        "(Farkas' lemma), so no x >= 0 has A x <= b and E x = f."))
    farkas_eq: list[OutRat] = Field(description="w, one per row of e (any sign).")
    pivots: int = Field(description="Simplex pivots spent.")


class Unbounded(BaseModel):
    model_config = CONFIG
    status: Literal["unbounded"]
    x: list[OutRat] = Field(description="A feasible point.")
    ray: list[OutRat] = Field(description=(
        "d >= 0 with A d <= 0, E d = 0 and c.d < 0: x + t d stays feasible and c.(x + t d) "
        "falls without bound as t grows."))
    pivots: int = Field(description="Simplex pivots spent.")


class Incomplete(BaseModel):
    model_config = CONFIG
    status: Literal["incomplete"]
    pivots: int = Field(description="The pivot budget, all spent.")
    phase: int = Field(description=(
        "1: still looking for a feasible point (feasibility undecided); 2: a feasible point "
        "was found, optimality not yet proved."))
    x: list[OutRat] | None = Field(description=(
        "Phase 2 only: a feasible point (checked), so the minimum is at most its value; "
        "null in phase 1."))
    value: OutRat | None = Field(description="c.x at that point: an upper bound of the minimum.")


LpResult = tagged(Optimal, Infeasible, Unbounded, Incomplete)


LP = MathTool(
    identifier="opt.lp.solve",
    synonyms=("linear program with equalities", "optimize a linear objective", "maximize subject to inequalities", "minimize subject to constraints"),
    vocabulary=(
        "linear programming", "linear program", "LP", "simplex method", "linear optimisation",
        "linear optimization", "duality", "dual certificate", "Farkas lemma", "feasibility",
        "maximise linear objective", "minimise linear objective", "equality constraints",
        "exact rational simplex"),
    claim=("For rational c, A, b, E, f: the minimum of c.x over {x >= 0 : A x <= b, E x = f} "
           "with an optimal x and a dual certificate (y >= 0, w with c + A^T y + E^T w >= 0 "
           "and -b.y - f.w = the minimum); or infeasibility with a Farkas certificate; or "
           "unboundedness with a feasible point and an improving ray; or, when the pivot "
           "budget runs out first, `incomplete` with the pivots spent and any feasible point "
           "found (an upper bound, no claim of optimality). Every certificate is checked in "
           "exact arithmetic before it is returned. To maximise c.x, minimise -c.x."),
    request=LpRequest, result=LpResult, kernel=lp.solve_lp,
    rules=(RULE_MATRIX_SHAPE, RULE_RATIONAL, RULE_LP_SHAPE),
    deadline=30.0,
    examples=(
        Example.of(
            "Compute the minimum of -x - y subject to x + 2y <= 4, 3x + y <= 6, x, y >= 0 with "
            "a dual certificate; b has one entry per row of a and c one per column.",
            {"c": [-1, -1], "a": {"nrows": 2, "ncols": 2, "rows": [[1, 2], [3, 1]]},
             "b": [4, 6]}),
        Example.of(
            "Compute the minimum of x + 2y + 3z subject to x + y + z = 1 and x - y >= -1/2 "
            "(written -x + y <= 1/2); e and f come together, with one entry of f per row of e.",
            {"c": [1, 2, 3], "a": {"nrows": 1, "ncols": 3, "rows": [[-1, 1, 0]]}, "b": ["1/2"],
             "e": {"nrows": 1, "ncols": 3, "rows": [[1, 1, 1]]}, "f": [1]})),
    bounds=Bounds(
        input="At most 20 variables and 20 rows (inequalities and equalities together); "
              "numerators below 10^6, denominators below 10^3; at most 200 pivots.",
        computation="The pivot budget (<= 200) bounds the work: each pivot is one "
                    "fraction-free update of a tableau of at most 21 x 61 integers, each a "
                    "minor of order <= 20 of the row-scaled data. Measured on dense random "
                    "20 x 20 programs with 3-digit denominators in every entry: <= 16 ms per "
                    "pivot, so <= 3.2 s at the budget, under 20% of the 30 s deadline; typical "
                    "programs of that size finish in 40-80 pivots (under 1 s). The pivoting "
                    "rule cannot cycle (simplex.py), so the budget, not a deadline, is what "
                    "ends a long run, as an `incomplete` result.",
        output="Every returned value is a ratio of minors of order <= 20 of the row-scaled "
               "integer data (entries below 10^69 after clearing at most 21 denominators below "
               "10^3 in a row): by Hadamard below (sqrt(41) 10^69)^20 < 10^1400, at most 20 "
               "values per vector, inside the 4000-digit budget."))


TOOLS = (LP,)
