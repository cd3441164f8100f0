"""The kernels of the sat domain (declared in domains/sat.py): canonicalisation, three-valued
evaluation under an assignment, and sat.solve -- PySAT within the conflict budget the work rule
allows, the model completed and checked, the core kept within the assumptions; and the literal
rules of sat.solve's and sat.assignment.check's requests."""

from __future__ import annotations

from ..errors import BackendFault
from .cnf import MAX_OCCURRENCES, literal_code

# A conflict costs the solver about one pass over the clause literals plus a fixed part
# (measured 1.5-2 ns per literal occurrence and 25 us at 300 variables, all three solvers), so
# the work rule bounds conflicts x (occurrences + WORK_BASE), the quantity the time follows.
MAX_CONFLICTS = 50_000
WORK_BASE = 10_000
MAX_WORK = 500_000_000
WORK_RULE = (
    f"Work rule: conflict_budget x (the number of literal occurrences in the clauses + "
    f"{WORK_BASE}) is at most {MAX_WORK}: about 45000 conflicts for 1000 occurrences, 4500 "
    f"at the bound of {MAX_OCCURRENCES} occurrences. When conflict_budget "
    f"is omitted it is the largest the rule allows (at most {MAX_CONFLICTS}).")


def work_limit(cnf) -> int:
    """The largest conflict budget the work rule allows for this CNF."""
    occurrences = sum(len(clause) for clause in cnf.clauses)
    return min(MAX_CONFLICTS, MAX_WORK // (occurrences + WORK_BASE))


def literal_problem(literals: list[int], num_vars: int, field: str, *, sorted_: bool):
    """The first literal of `literals` naming a variable above num_vars, out of increasing
    variable order (when `sorted_`), or repeated."""
    seen = set()
    for i, lit in enumerate(literals):
        if abs(lit) > num_vars:
            return (f"{field}_out_of_range", f"literal {lit} names a variable above num_vars = "
                    f"{num_vars}", (field, i))
        if sorted_ and i and abs(literals[i - 1]) >= abs(lit):
            return ("assignment_not_sorted", f"literal {lit} does not follow {literals[i - 1]} in "
                    "strictly increasing variable order", (field, i))
        if lit in seen:
            return (f"{field}_repeated", f"literal {lit} appears twice", (field, i))
        seen.add(lit)
    return None


def assignment_problem(self):
    """sat.assignment.check: the assignment's literals are in range, increasing, distinct."""
    return literal_problem(self.assignment, self.cnf.num_vars, "assignment", sorted_=True)


def assumptions_problem(self):
    """sat.solve: distinct assumptions in range, and a conflict budget within the work rule."""
    problem = literal_problem(self.assumptions, self.cnf.num_vars, "assumptions", sorted_=False)
    if problem is not None:
        return problem
    limit = work_limit(self.cnf)
    if self.conflict_budget is not None and self.conflict_budget > limit:
        return ("conflict_budget_too_large", f"conflict_budget {self.conflict_budget} is above "
                f"{limit}, the most this CNF allows: {WORK_RULE}", ("conflict_budget",))
    return None


def solve(request) -> dict:
    from ..adapters import pysat_solver as backend
    cnf = request.cnf
    budget = request.conflict_budget or work_limit(cnf)
    verdict, model, core, conflicts = backend.solve(request.solver, cnf.clauses,
                                                    request.assumptions, budget)
    if verdict is None:
        return {"status": "unknown", "reason": "conflict_budget", "conflict_budget": budget,
                "conflicts_used": conflicts, "deadline_ms": None, "elapsed_ms": None}
    if verdict is False:
        if not set(core) <= set(request.assumptions):
            raise BackendFault("core_not_within_assumptions")
        return {"status": "unsat", "core": sorted(set(core), key=literal_code)}
    occurring = {abs(lit) for clause in cnf.clauses for lit in clause}
    occurring.update(abs(lit) for lit in request.assumptions)
    value = {abs(lit): lit > 0 for lit in model}
    total = [v if v in occurring and value.get(v, False) else -v
             for v in range(1, cnf.num_vars + 1)]
    if any(v not in value for v in occurring):
        raise BackendFault("model_misses_a_variable")
    return {"status": "sat", "model": total}


def canonicalize(request) -> dict:
    duplicates = tautologies = 0
    kept = set()
    for clause in request.clauses:
        # literal codes sort like canonical literals; v and -v get adjacent codes 2v, 2v+1
        codes = sorted({literal_code(lit) for lit in clause})
        duplicates += len(clause) - len(codes)
        if any(b - a == 1 and a % 2 == 0 for a, b in zip(codes, codes[1:])):
            tautologies += 1
            continue
        kept.add(tuple(codes))
    clauses = [[c >> 1 if c & 1 else -(c >> 1) for c in codes]
               for codes in sorted(kept, key=lambda codes: (len(codes), codes))]
    removed_clauses = len(request.clauses) - tautologies - len(clauses)
    return {"cnf": {"num_vars": request.num_vars, "clauses": clauses},
            "removed_duplicate_literals": duplicates, "removed_tautologies": tautologies,
            "removed_duplicate_clauses": removed_clauses}


def check_assignment(request) -> dict:
    true = set(request.assignment)
    undetermined = None
    for index, clause in enumerate(request.cnf.clauses):
        if any(lit in true for lit in clause):
            continue
        if all(-lit in true for lit in clause):
            return {"status": "falsified", "clause_index": index, "clause": clause}
        if undetermined is None:
            undetermined = index
    if undetermined is None:
        return {"status": "satisfied"}
    return {"status": "undetermined", "clause_index": undetermined,
            "clause": request.cnf.clauses[undetermined]}
