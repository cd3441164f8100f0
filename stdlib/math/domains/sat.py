"""Propositional satisfiability over canonical CNF values (MATH.md §5.5).

`sat.cnf.canonicalize` is the entry point: it turns any CNF into the canonical form that
`sat.assignment.check` and `sat.solve` accept directly, so results compose by being passed on
as the next payload. `sat.solve` is bounded by a declared conflict budget and reports running
out of it as `unknown`, never as `unsat`.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from ..kernels import sat
from ..primitives import (CNF, CONFIG, MAX_CLAUSE_LENGTH, MAX_CLAUSES, MAX_OCCURRENCES,
                          MAX_VARS, CanonicalCNF, CnfLiteral,
                          Count, Rule, RULE_CANONICAL, RULE_LITERAL,
                          after, tagged)
from ..tool import Bounds, Example, MathTool

EXAMPLE_CNF = {"num_vars": 2, "clauses": [[-1, 2], [1, 2]]}


# --- sat.cnf.canonicalize -------------------------------------------------------------------

class Canonicalized(BaseModel):
    model_config = CONFIG
    cnf: CanonicalCNF
    removed_duplicate_literals: Count(0, MAX_OCCURRENCES)
    removed_tautologies: Count(0, MAX_OCCURRENCES)
    removed_duplicate_clauses: Count(0, MAX_OCCURRENCES)


CANONICALIZE = MathTool(
    identifier="sat.cnf.canonicalize",
    vocabulary=(
        "canonical CNF", "normalize a CNF", "normalise clauses", "conjunctive normal form",
        "clause simplification", "remove tautologies", "duplicate clauses", "duplicate literals",
        "DIMACS", "preprocess a formula"),
    claim=("The canonical CNF with the same set of satisfying assignments over variables "
           "1..num_vars, obtained only by deleting repeated literals, tautological clauses and "
           "repeated clauses and by sorting. It is a syntactic normal form: two equivalent "
           "formulas can have different canonical forms (no subsumption, no propagation)."),
    request=CNF, result=Canonicalized, kernel=sat.canonicalize,
    rules=(RULE_LITERAL,),
    examples=(Example.of(
        "Compute the canonical form of a CNF over variables 1..3 by removing repeated "
        "literals, tautologies and duplicate clauses and sorting; every literal must be a "
        "nonzero integer whose absolute value is at most num_vars.",
        {"num_vars": 3, "clauses": [[3, -1, 3], [2, -2], [-1, 3]]}),),
    bounds=Bounds(
        input=f"num_vars <= {MAX_VARS}, at most {MAX_CLAUSES} clauses of at most "
              f"{MAX_CLAUSE_LENGTH} literals, at most {MAX_OCCURRENCES} literal occurrences.",
        computation="One sort per clause and one sort of the clauses: O(L log L). The cost is "
                    "moving and validating the formula: 400000 occurrences took 5.4-5.9 s "
                    "through the worker (2 shared cores, load 6-8), 25000 clauses of 4 "
                    "literals (the bound) 0.8-1.1 s.",
        output="Never larger than the input."))


# --- sat.assignment.check -------------------------------------------------------------------

RULE_ASSIGNMENT = Rule("assignment_not_sorted",
                       "The assignment lists signed literals (v true, -v false) in strictly "
                       "increasing variable order, each variable at most once, each "
                       "|literal| at most num_vars; variables left out are unassigned.")


class AssignmentRequest(BaseModel):
    model_config = CONFIG
    cnf: CanonicalCNF
    assignment: Annotated[list[CnfLiteral], Field(max_length=MAX_VARS, description=(
        RULE_ASSIGNMENT.text))]

    _assignment = after(sat.assignment_problem)


class Satisfied(BaseModel):
    model_config = CONFIG
    status: Literal["satisfied"]


class Falsified(BaseModel):
    model_config = CONFIG
    status: Literal["falsified"]
    clause_index: Count(0, 100000) = Field(description="The first clause whose literals are "
                                                       "all false.")
    clause: list[int]


class Undetermined(BaseModel):
    model_config = CONFIG
    status: Literal["undetermined"]
    clause_index: Count(0, 100000) = Field(description="The first clause with no true literal "
                                                       "(no clause is false).")
    clause: list[int]


AssignmentVerdict = tagged(Satisfied, Falsified, Undetermined)


ASSIGNMENT_CHECK = MathTool(
    identifier="sat.assignment.check",
    vocabulary=(
        "check an assignment", "verify a model", "truth assignment", "evaluate a CNF",
        "does the assignment satisfy", "falsified clause", "check a certificate",
        "validate a satisfying assignment"),
    claim=("Three-valued evaluation of a canonical CNF under a possibly partial assignment: "
           "satisfied (every clause has a true literal), falsified (some clause has all "
           "literals false), undetermined (no clause is false but some clause has no true "
           "literal)."),
    request=AssignmentRequest, result=AssignmentVerdict, kernel=sat.check_assignment,
    rules=(RULE_LITERAL, RULE_CANONICAL, RULE_ASSIGNMENT),
    examples=(Example.of(
        "Compute whether the assignment x1 = false, x2 = true satisfies the CNF "
        "(not x1 or x2) and (x1 or x2); the CNF must be canonical and the assignment lists "
        "signed literals in increasing variable order.",
        {"cnf": EXAMPLE_CNF, "assignment": [-1, 2]}),),
    bounds=Bounds(
        input="A canonical CNF as sat.cnf.canonicalize bounds it; at most num_vars literals "
              "in the assignment.",
        computation="One pass over the literal occurrences: O(L).",
        output="One clause."))


# --- sat.solve ------------------------------------------------------------------------------

RULE_ASSUMPTIONS = Rule("assumptions_repeated",
                        "Assumptions are distinct literals, each |literal| at most num_vars.")
MAX_CONFLICTS = sat.MAX_CONFLICTS  # the work rule's reasons: kernels/sat.py
WORK_BASE = sat.WORK_BASE
MAX_WORK = sat.MAX_WORK
RULE_WORK = Rule("conflict_budget_too_large", sat.WORK_RULE)


class SolveRequest(BaseModel):
    model_config = CONFIG
    cnf: CanonicalCNF
    assumptions: Annotated[list[CnfLiteral], Field(max_length=1000, description=(
        "Literals assumed true for this call. " + RULE_ASSUMPTIONS.text))] = []
    conflict_budget: Count(1, MAX_CONFLICTS, "The most conflicts the solver may spend before "
                                             "answering unknown. " + RULE_WORK.text) | None = None
    solver: Literal["cadical195", "glucose4", "minisat22"] = Field(
        "cadical195", description="The backend solver; all three honour the budget.")

    _assumptions = after(sat.assumptions_problem)


class Sat(BaseModel):
    model_config = CONFIG
    status: Literal["sat"]
    model: list[int] = Field(description=(
        "A total assignment over 1..num_vars as signed literals in variable order; satisfies "
        "every clause and every assumption. Variables occurring nowhere are false."))


class Unsat(BaseModel):
    model_config = CONFIG
    status: Literal["unsat"]
    core: list[int] = Field(description=(
        "Assumptions that together with the CNF are unsatisfiable ([] when the CNF alone is); "
        "not necessarily minimal."))


class Unknown(BaseModel):
    model_config = CONFIG
    status: Literal["unknown"]
    reason: Literal["conflict_budget", "deadline"]
    conflict_budget: Count(1, MAX_CONFLICTS)
    conflicts_used: Count(0, 10**9) | None = Field(description=(
        "Conflicts spent (a solver may overshoot the budget); null after a deadline."))
    deadline_ms: Count(1, 60000) | None = Field(description="The deadline, when it was hit.")
    elapsed_ms: Count(0, 10**7) | None = Field(description="Time spent, when the deadline "
                                                           "was hit.")


SatResult = tagged(Sat, Unsat, Unknown)


def solve_deadline(request: SolveRequest, deadline_ms: int, elapsed_ms: int) -> Unknown:
    return Unknown(status="unknown", reason="deadline",
                   conflict_budget=request.conflict_budget or sat.work_limit(request.cnf),
                   conflicts_used=None, deadline_ms=deadline_ms, elapsed_ms=elapsed_ms)


SOLVE = MathTool(
    identifier="sat.solve",
    synonyms=("is satisfiable", "find a satisfying assignment", "solve a CNF"),
    vocabulary=(
        "satisfiability", "SAT", "SAT solver", "boolean satisfiability",
        "propositional satisfiability", "propositional logic", "satisfying assignment",
        "is the formula satisfiable", "unsatisfiable core", "unsat core", "CDCL", "CaDiCaL",
        "pigeonhole", "conflict budget", "assumptions"),
    claim=("Within a declared conflict budget: sat with a total model over 1..num_vars "
           "satisfying every clause and every assumption (variables occurring nowhere are "
           "false); unsat with a core of assumptions such that the CNF plus the core is "
           "unsatisfiable ([] = the CNF alone; not necessarily minimal); unknown when the "
           "budget or the deadline runs out -- never unsat."),
    request=SolveRequest, result=SatResult, kernel=sat.solve, on_deadline=solve_deadline,
    adapters=("pysat_solver",),
    rules=(RULE_LITERAL, RULE_CANONICAL, RULE_ASSUMPTIONS, RULE_WORK),
    examples=(
        Example.of(
            "Decide whether (not x1 or x2) and (x1 or x2) is satisfiable and return a model if "
            "it is; the CNF must be canonical, as produced by sat.cnf.canonicalize.",
            {"cnf": EXAMPLE_CNF}),
        Example.of(
            "Decide whether the same CNF has a model with x2 false, returning a core of "
            "assumptions if not; assumptions are distinct literals over 1..num_vars.",
            {"cnf": EXAMPLE_CNF, "assumptions": [-2], "conflict_budget": 1000})),
    bounds=Bounds(
        input="A canonical CNF as sat.cnf.canonicalize bounds it; at most 1000 assumptions.",
        computation="The work rule: conflict_budget x (literal occurrences + 10^4) <= 5 * "
                    "10^8, conflicts at most 50000. Measured CPU on random 3-CNFs at the "
                    "clause/variable ratio 4.26 (the hard region), each solver spending the "
                    "whole budget the rule allows: 20000 variables (1882 conflicts) cadical195 "
                    "0.80 s, glucose4 0.41 s, minisat22 0.31 s; 5000 variables (6765) 0.62 s at "
                    "most; 300 variables (36142) 0.86 s at most (glucose4, which overshot to "
                    "40963 conflicts; conflicts_used is reported, not assumed). Validating the "
                    "request at the size bound took 0.26 s, so a call stays under 1.2 s, 12% of "
                    "the 10 s deadline; whole calls at the CNF size bound (5000 variables, 21300 "
                    "clauses, the default budget of 6765 conflicts, cadical195) 1.5-1.65 s at load "
                    "5.5. Should a host be slower, the deadline still gives "
                    "unknown with reason deadline and the elapsed time, never unsat.",
        output="A model of num_vars literals, or a core of at most 1000 literals."))


TOOLS = (CANONICALIZE, ASSIGNMENT_CHECK, SOLVE)
