"""Preflight of opt.lp.solve: a known optimum, degenerate programs, equality rows, a Klee-Minty
cube, programs that made the old (sympy) simplex cycle, the honest `incomplete` at the pivot
budget, every certificate re-checked here with Fractions (`check_lp`), and the request
boundary at 20 x 20."""

from __future__ import annotations

import random
from fractions import Fraction

from math_support import check_lp, mat, q, rejected, run, wire

ID = "opt.lp.solve"


def payload(c, a=None, b=None, e=None, f=None, **extra) -> dict:
    out = {"c": wire(c), **extra}
    for key, matrix, rhs, rhs_key in (("a", a, b, "b"), ("e", e, f, "f")):
        if matrix is not None:
            out[key] = (mat([wire(r) for r in matrix]) if matrix
                        else {"nrows": 0, "ncols": len(c), "rows": []})
            out[rhs_key] = wire(rhs)
    return out


def lp(c, a=None, b=None, e=None, f=None, **extra) -> dict:
    result = run(ID, payload(c, a, b, e, f, **extra))
    check_lp(c, a or [], b or [], e or [], f or [], result)
    return result


def test_known_optimum():
    result = lp([-1, -1], [[1, 2], [3, 1]], [4, 6])
    assert result == {"status": "optimal", "value": "-14/5", "x": ["8/5", "6/5"],
                      "dual": ["2/5", "1/5"], "dual_eq": [], "pivots": 2}


def test_equality_rows_are_expressed_directly():
    # min x + 2y + 3z with x + y + z = 1 and y - x <= 1/2: all weight on x.
    result = lp([1, 2, 3], [[-1, 1, 0]], ["1/2"], [[1, 1, 1]], [1])
    assert result["value"] == "1" and result["x"] == ["1", "0", "0"]
    # Equalities alone, with a negative right-hand side and a free-sign dual.
    result = lp([1, 1], e=[[1, -1]], f=[-3])
    assert result["value"] == "3" and result["x"] == ["0", "3"]
    assert q(result["dual_eq"][0]) != 0
    # Inconsistent equalities: a Farkas certificate with an equality multiplier.
    result = lp([0, 0], e=[[1, 1], [1, 1]], f=[1, 2])
    assert result["status"] == "infeasible" and any(q(v) for v in result["farkas_eq"])
    # A redundant equality (row 3 = row 1 + row 2) keeps its artificial at zero.
    result = lp([1, 1, 1], e=[[1, 0, 1], [0, 1, 1], [1, 1, 2]], f=[1, 1, 2])
    assert result["status"] == "optimal" and result["value"] == "1"


def test_degenerate_programs():
    assert lp([1, 2], [], [])["value"] == "0"  # no constraints, nonnegative costs
    assert lp([1, 2])["value"] == "0"  # a and e omitted
    assert lp([-1], [[0]], [0])["status"] == "unbounded"
    assert lp([-1])["status"] == "unbounded"
    assert lp([1], [[1]], [-1])["status"] == "infeasible"  # x <= -1 with x >= 0
    assert lp([0, 0], [[1, 1], [-1, -1]], [1, -2])["status"] == "infeasible"
    assert lp([0, 0], [[1, 1]], [1])["value"] == "0"


def test_programs_the_old_simplex_cycled_on():
    # Issue 28: a feasible 2 x 3 program with optimum -6 faulted; an equality written as two
    # rows made 7% of small programs cycle. Beale's classic cycling example is here too.
    assert lp([-2, -1, 0], [[1, 1, 1], [1, -1, 0]], [3, 3])["value"] == "-6"
    assert lp([-1, -1], [[1, 1], [-1, -1]], [2, -2])["value"] == "-2"
    beale = [["1/4", -8, -1, 9], ["1/2", -12, "-1/2", 3], [0, 0, 1, 0]]
    assert lp(["-3/4", 20, "-1/2", 6], beale, [0, 0, 1])["value"] == "-5/4"
    rng = random.Random(28)
    for _ in range(40):
        m, n = rng.randrange(1, 7), rng.randrange(1, 7)
        a = [[rng.randrange(-3, 4) for _ in range(n)] for _ in range(m)]
        b = [rng.randrange(-2, 4) for _ in range(m)]
        e = [a[0], [-v for v in a[0]]]  # degenerate pairs, as an equality written twice
        lp([rng.randrange(-3, 4) for _ in range(n)], a + e, b + [b[0], -b[0]])


def test_adversarial_klee_minty_and_float_rounding():
    # Klee-Minty cube in dimension 5 (Dantzig's rule visits all 32 vertices); the exact answer
    # is x = (0, 0, 0, 0, 5^5) with value -5^5.
    n = 5
    a = [[2 * 5 ** (i - j) if j < i else (1 if j == i else 0) for j in range(n)]
         for i in range(n)]
    b = [5 ** (i + 1) for i in range(n)]
    c = [-(2 ** (n - 1 - j)) for j in range(n)]
    assert q(lp(c, a, b)["value"]) == -(5**n)
    # 1/3-style data: a float simplex reports 0.3333333333333333, the exact optimum is 1/3.
    result = lp([-1], [[3]], [1])
    assert result["value"] == "-1/3" and result["x"] == ["1/3"]


def test_pivot_budget_ends_in_an_honest_incomplete():
    # This Klee-Minty cube of dimension 8 takes Dantzig's rule through all 256 vertices: with
    # 200 pivots (the most a request may give) the result says so, with a feasible point
    # (checked) and no claim of optimality. Dimension 7 (127 pivots) finishes.
    n = 8
    a = [[2 ** (i - j + 1) if j < i else (1 if j == i else 0) for j in range(n)]
         for i in range(n)]
    b = [5 ** (i + 1) for i in range(n)]
    c = [-(2 ** (n - 1 - j)) for j in range(n)]
    result = lp(c, a, b)
    assert result["status"] == "incomplete" and result["pivots"] == 200
    assert result["phase"] == 2 and q(result["value"]) > -(5**n)
    c7 = [-(2 ** (6 - j)) for j in range(7)]
    assert lp(c7, [row[:7] for row in a[:7]], b[:7])["value"] == str(-(5**7))
    small = lp([1, 1], e=[[1, 1], [1, -1]], f=[2, 0], pivot_budget=1)
    assert small["status"] == "incomplete" and small["phase"] == 1 and small["x"] is None


def test_certificates_on_random_programs():
    rng = random.Random(31)
    for _ in range(20):
        m, k, n = rng.randrange(0, 5), rng.randrange(0, 3), rng.randrange(1, 5)
        a = [[Fraction(rng.randrange(-5, 6), rng.randrange(1, 4)) for _ in range(n)]
             for _ in range(m)]
        e = [[rng.randrange(-3, 4) for _ in range(n)] for _ in range(k)]
        lp([rng.randrange(-4, 5) for _ in range(n)], a, [rng.randrange(-3, 8) for _ in a],
           e, [rng.randrange(-3, 4) for _ in e])


def test_request_boundary():
    # 20 variables, 16 inequalities and 4 equalities with 3-digit denominators everywhere.
    rng = random.Random(32)
    def r(low=1):
        return Fraction(rng.randrange(low, 10**6), rng.randrange(1, 10**3))
    x0 = [Fraction(rng.randrange(0, 100), rng.randrange(1, 100)) for _ in range(20)]
    a = [[r() for _ in range(20)] for _ in range(16)]
    b = [sum(p * v for p, v in zip(row, x0)) + r() for row in a]
    b = [v if v.denominator < 1000 and v.numerator < 10**6 else Fraction(10**6 - 1)
         for v in b]
    e = [[r(-10**6 + 1) for _ in range(20)] for _ in range(4)]
    f = [r(-10**6 + 1) for _ in range(4)]
    result = lp([-r() for _ in range(20)], a, b, e, f)
    assert result["status"] in ("optimal", "infeasible", "unbounded")
    assert rejected(ID, {"c": [1], "a": mat([[1]]), "b": [1, 2]}) == ["lp_shape"]
    assert rejected(ID, {"c": [1, 2], "a": mat([[1]]), "b": [1]}) == ["lp_shape"]
    assert rejected(ID, {"c": [1], "a": mat([[1]])}) == ["lp_shape"]
    assert rejected(ID, {"c": [1], "e": mat([[1]] * 11), "f": [1] * 11,
                         "a": mat([[1]] * 10), "b": [1] * 10}) == ["lp_shape"]
    assert rejected(ID, {"c": [], "a": {"nrows": 0, "ncols": 0, "rows": []}, "b": []}) == [
        "too_short"]
    assert rejected(ID, {"c": [0.5], "a": mat([[1]]), "b": [1]}) == ["rational_type"]
    assert rejected(ID, {"c": [1], "pivot_budget": 201}) == ["less_than_equal"]
    assert "less_than_equal" in rejected(ID, {"c": [1] * 21, "a": mat([[1] * 21]), "b": [1]})
