"""An exact two-phase simplex over the rationals, written for `opt.lp.solve`.

Problem: minimise c.x subject to A x <= b, E x = f, x >= 0 (all data `Fraction`s). Pure Python,
no backend: every value is an exact rational, and the final tableau yields the dual multipliers
that certify each outcome (the caller checks them independently before returning anything).

Pivoting rule: Dantzig's (most negative reduced cost, the smallest index on ties) while pivots
make progress, and Bland's rule (smallest improving index; the smallest basic index among tied
ratios) from any degenerate pivot until the next pivot that strictly lowers the objective. Each
phase ends: a pivot that lowers the objective can never be undone, and the bases have finitely
many objective values, so there are finitely many of them; between two such pivots come one
degenerate Dantzig pivot and then Bland's rule only, which never cycles from any starting basis
(Bland 1977) and so reaches, in finitely many pivots, an optimum, a ray or a strict decrease. The
pivots are also counted against the caller's budget, so an accepted request has a stated amount
of work and an honest `incomplete` outcome, never a deadline.

Columns: the n structural variables, then one slack per inequality row, then one artificial per
row. Rows are scaled by +-1 so that every right-hand side is >= 0; the artificials start as the
basis and their columns hold B^-1 of the scaled rows throughout.
"""

from __future__ import annotations

import math
from fractions import Fraction

ZERO = Fraction(0)


class PivotBudgetExhausted(Exception):
    """The pivot budget ran out; `phase` says where, `x` is the current feasible point in
    phase 2 (None in phase 1)."""

    def __init__(self, phase: int, pivots: int, x: list[Fraction] | None,
                 value: Fraction | None) -> None:
        super().__init__(phase, pivots)
        self.phase, self.pivots, self.x, self.value = phase, pivots, x, value


class Outcome:
    """What the simplex found. `multipliers` are the row multipliers lambda of the original
    rows (inequalities first, then equalities) with c - A_full^T lambda >= 0 (optimal) or, for
    `infeasible`, A_full^T lambda <= 0 on the structural columns, lambda_i <= 0 on inequality
    rows and lambda.b_full > 0. `ray` is an improving direction for `unbounded`. (A plain
    class: importing dataclasses would cost opt.lp.solve's first call more than its pivots.)"""

    def __init__(self, status: str, pivots: int, x: list[Fraction] | None = None,
                 multipliers: list[Fraction] | None = None,
                 ray: list[Fraction] | None = None) -> None:
        self.status, self.pivots, self.x = status, pivots, x
        self.multipliers, self.ray = multipliers, ray


def _integers(values) -> tuple[int, list[int]]:
    """The positive lcm of the values' denominators, and the values times it."""
    scale = math.lcm(*(Fraction(v).denominator for v in values)) if values else 1
    return scale, [int(Fraction(v) * scale) for v in values]


class Tableau:
    """A fraction-free tableau: integer entries T over one positive denominator D (the basis
    determinant up to the row scaling), updated by Edmonds' integer-preserving pivot, so every
    entry is a minor of the integer data and no step reduces a fraction."""

    def __init__(self, c, a, b, e, f) -> None:
        self.n, self.m_le = len(c), len(a)
        rows = [list(r) for r in a] + [list(r) for r in e]
        rhs = list(b) + list(f)
        self.m = m = len(rows)
        self.sign = [1 if v >= 0 else -1 for v in rhs]
        self.first_slack, self.first_art = self.n, self.n + self.m_le
        self.width = width = self.first_art + m
        self.rows: list[list[int]] = []
        self.scale: list[int] = []
        for i in range(m):
            s = self.sign[i]
            # Tableau row i is scale_i sign_i (row i) with the slack and artificial entries
            # kept at sign_i and 1 (those variables are scaled instead).
            scale, ints = _integers([s * Fraction(v) for v in rows[i]] + [s * Fraction(rhs[i])])
            self.scale.append(scale)
            row = ints[:-1] + [0] * (width - self.n) + ints[-1:]
            if i < self.m_le:
                row[self.first_slack + i] = s
            row[self.first_art + i] = 1
            self.rows.append(row)
        self.d = 1
        # An inequality row with b_i >= 0 starts with its slack basic, the others with their
        # artificial; the artificial columns start as the identity, so they hold D B^-1.
        self.basis = [self.first_slack + i if i < self.m_le and self.sign[i] > 0
                      else self.first_art + i for i in range(m)]
        self.pivots = 0

    def pivot(self, r: int, j: int) -> None:
        prow, d = self.rows[r], self.d
        p = prow[j]
        nz = [k for k, v in enumerate(prow) if v]
        for i, row in enumerate(self.rows):
            if i != r:
                t = row[j]
                if t:
                    for k in range(len(row)):
                        row[k] *= p
                    for k in nz:
                        row[k] -= t * prow[k]
                    for k in range(len(row)):
                        row[k] //= d
                elif p != d:
                    self.rows[i] = [v * p // d for v in row]
        if p < 0:
            self.rows = [[-v for v in row] for row in self.rows]
            p = -p
        self.d = p
        self.basis[r] = j
        self.pivots += 1

    def multipliers(self, cost: list[int], cost_scale: int) -> list[Fraction]:
        """lambda_k = scale_k sign_k (c_B B^-1)_k for the original rows, c = cost / cost_scale:
        the artificial columns start as the identity, so they hold D B^-1 of the tableau's
        rows, and tableau row k is scale_k sign_k times original row k."""
        cb = [cost[j] for j in self.basis]
        art, d = self.first_art, self.d
        return [Fraction(self.scale[k] * self.sign[k] * sum(
            cb[i] * self.rows[i][art + k] for i in range(self.m) if cb[i]), d * cost_scale)
                for k in range(self.m)]

    def run(self, cost: list[int], allowed: int, budget: int, phase: int) -> int | None:
        """Minimise cost (integers) over the columns below `allowed`; None at an optimum, else
        the entering column of an unbounded direction."""
        bland = False
        while True:
            cb = [cost[j] for j in self.basis]
            live = [i for i in range(self.m) if cb[i]]
            in_basis = set(self.basis)
            # D * (c_j - c_B B^-1 A_j): the reduced cost scaled by D > 0 (same order, sign).
            improving = []
            for j in range(allowed):
                if j not in in_basis:
                    dj = self.d * cost[j] - sum(cb[i] * self.rows[i][j] for i in live)
                    if dj < 0:
                        improving.append((dj, j))
                        if bland:
                            break
            if not improving:
                return None
            j = improving[0][1] if bland else min(improving)[1]
            ratios = [(Fraction(self.rows[i][-1], self.rows[i][j]), self.basis[i], i)
                      for i in range(self.m) if self.rows[i][j] > 0]
            if not ratios:
                return j
            if self.pivots >= budget:
                raise PivotBudgetExhausted(phase, self.pivots, None, None)
            step, _, r = min(ratios)
            self.pivot(r, j)
            bland = step == 0

    def point(self) -> list[Fraction]:
        values = [ZERO] * self.width
        for i, j in enumerate(self.basis):
            values[j] = Fraction(self.rows[i][-1], self.d)
        return values


def minimise(c, a, b, e, f, budget: int) -> Outcome:
    """Minimise c.x over A x <= b, E x = f, x >= 0 within `budget` pivots."""
    t = Tableau(c, a, b, e, f)
    n, art = t.n, t.first_art
    phase1 = [0] * art + [1] * t.m
    t.run(phase1, art, budget, 1)
    if any(t.rows[i][-1] for i, j in enumerate(t.basis) if j >= art):
        return Outcome("infeasible", t.pivots, multipliers=t.multipliers(phase1, 1))
    # Drive artificials out of the basis where the row has a structural or slack entry; a row
    # with none is redundant and keeps its artificial basic at level zero (no pivot touches it).
    for r in range(t.m):
        if t.basis[r] >= art:
            j = next((j for j in range(art) if t.rows[r][j]), None)
            if j is not None:
                if t.pivots >= budget:
                    raise PivotBudgetExhausted(1, t.pivots, None, None)
                t.pivot(r, j)
    cost_scale, cost = _integers(c)
    cost += [0] * (t.width - n)
    try:
        entering = t.run(cost, art, budget, 2)
    except PivotBudgetExhausted as stop:
        x = t.point()[:n]
        stop.x, stop.value = x, sum((Fraction(ci) * xi for ci, xi in zip(c, x)), ZERO)
        raise
    values = t.point()
    if entering is not None:
        direction = [ZERO] * t.width
        direction[entering] = Fraction(1)
        for i, j in enumerate(t.basis):
            direction[j] = Fraction(-t.rows[i][entering], t.d)
        return Outcome("unbounded", t.pivots, x=values[:n], ray=direction[:n])
    return Outcome("optimal", t.pivots, x=values[:n], multipliers=t.multipliers(cost, cost_scale))
