"""CNF formulas without Pydantic: their bounds, the canonical order, and the rules the CNF models
check (primitives.CNF and CanonicalCNF attach these finders; stdlib.math.plain runs them)."""

from __future__ import annotations

# Sized so that moving and checking a formula at the bound stays under 20% of a deadline:
# 400000 occurrences took 5.4-5.9 s through sat.cnf.canonicalize (2 shared cores, load 6-8).
MAX_VARS = 20000
MAX_CLAUSES = 25000
MAX_CLAUSE_LENGTH = 1000
MAX_OCCURRENCES = 100000


def literal_code(lit: int) -> int:
    """An integer with the order of literals inside a canonical clause: by variable, negative
    first (-3 -> 6, 3 -> 7, -4 -> 8)."""
    return 2 * abs(lit) + (lit > 0)


def clause_key(clause: list[int]) -> tuple:
    """The order of clauses in a canonical CNF: by length, then by literal codes."""
    return (len(clause), [2 * abs(lit) + (lit > 0) for lit in clause])


def too_many_occurrences(data):
    """Refuse oversized formulas before every literal is validated one by one (raw input)."""
    clauses = data.get("clauses") if isinstance(data, dict) else None
    if isinstance(clauses, list):
        total = sum(len(c) for c in clauses if isinstance(c, list))
        if total > MAX_OCCURRENCES:
            return ("cnf_too_large", f"{total} literal occurrences; at most {MAX_OCCURRENCES}",
                    ("clauses",))
    return None


def literal_out_of_range(self):
    """Every literal is v or -v for 1 <= v <= num_vars."""
    n, clauses = self.num_vars, self.clauses
    nonempty = [c for c in clauses if c]
    if nonempty and (min(min(c) for c in nonempty) < -n or max(max(c) for c in nonempty) > n
                     or any(0 in c for c in nonempty)):
        for i, clause in enumerate(clauses):  # locate the first offending literal
            for j, lit in enumerate(clause):
                if lit == 0 or abs(lit) > n:
                    return ("literal_out_of_range", f"literal {lit} is not v or -v for "
                            f"1 <= v <= num_vars = {n}", ("clauses", i, j))
    return None


def canonical_violation(clauses: list[list[int]]) -> tuple[tuple, str] | None:
    """Where and why `clauses` is not canonical, or None when it is."""
    previous = None
    for i, clause in enumerate(clauses):
        variables = list(map(abs, clause))
        if any(a >= b for a, b in zip(variables, variables[1:])):
            j = next(j for j in range(1, len(clause)) if variables[j - 1] >= variables[j])
            return (("clauses", i, j), f"clause {i}: literal {clause[j]} does not follow "
                    f"{clause[j - 1]} in strictly increasing variable order")
        key = clause_key(clause)
        if previous is not None and previous >= key:
            return (("clauses", i), f"clause {i} is not after clause {i - 1} in canonical "
                    "order (by length, then literals) or repeats it")
        previous = key
    return None


def not_canonical(self):
    """The clauses are in canonical form (sat.cnf.canonicalize's output)."""
    problem = canonical_violation(self.clauses)
    if problem is not None:
        return ("cnf_not_canonical", problem[1] + "; run sat.cnf.canonicalize first", problem[0])
    return None
