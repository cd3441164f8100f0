"""Private adapter: one bounded PySAT call.

Only solvers that honour a conflict budget and report assumption cores are offered (CaDiCaL
1.9.5, Glucose 4, MiniSat 2.2). `solve_limited` answers None when the budget runs out; that
None is passed on as None, never read as False.
"""

from __future__ import annotations

from pysat.solvers import Solver


def solve(solver: str, clauses: list[list[int]], assumptions: list[int], budget: int
          ) -> tuple[bool | None, list[int], list[int], int]:
    """(verdict, model, core, conflicts): verdict True/False/None (budget exhausted); the
    model as PySAT reports it (when True); the failed assumptions (when False; [] when the
    clauses alone are unsatisfiable); the conflicts spent."""
    with Solver(name=solver, bootstrap_with=clauses) as backend:
        backend.conf_budget(budget)
        verdict = backend.solve_limited(assumptions=assumptions)
        conflicts = int(backend.accum_stats().get("conflicts", 0))
        model = list(backend.get_model() or []) if verdict is True else []
        core = list(backend.get_core() or []) if verdict is False else []
    return verdict, model, core, conflicts
