"""Preflight of opt.lp.solve: a known optimum, degenerate programs, a Klee-Minty cube and a
program whose float optimum is wrong, every certificate re-checked here with Fractions, and the
request boundary."""

from __future__ import annotations

import random
from fractions import Fraction

from math_support import mat, q, rejected, run, wire

ID = "opt.lp.solve"


def lp(c, a, b) -> dict:
    matrix = mat([wire(r) for r in a]) if a else {"nrows": 0, "ncols": len(c), "rows": []}
    return run(ID, {"c": wire(c), "a": matrix, "b": wire(b)})


def dot(u, v):
    return sum(Fraction(p) * Fraction(r) for p, r in zip(u, v))


def check(c, a, b, result) -> None:
    n, at = len(c), [list(col) for col in zip(*a)] if a else [[] for _ in c]
    if result["status"] == "optimal":
        x, y = [q(v) for v in result["x"]], [q(v) for v in result["dual"]]
        assert all(v >= 0 for v in x + y)
        assert all(dot(row, x) <= bi for row, bi in zip(a, map(Fraction, b)))
        assert all(dot(col, y) + Fraction(ci) >= 0 for col, ci in zip(at, c))
        assert dot(c, x) == q(result["value"]) == -dot(b, y)
    elif result["status"] == "infeasible":
        y = [q(v) for v in result["farkas"]]
        assert all(v >= 0 for v in y) and all(dot(col, y) >= 0 for col in at) and dot(b, y) < 0
    else:
        x, d = [q(v) for v in result["x"]], [q(v) for v in result["ray"]]
        assert len(x) == len(d) == n and all(v >= 0 for v in x + d)
        assert all(dot(row, x) <= Fraction(bi) for row, bi in zip(a, b))
        assert all(dot(row, d) <= 0 for row in a) and dot(c, d) < 0


def test_known_optimum():
    result = lp([-1, -1], [[1, 2], [3, 1]], [4, 6])
    assert result == {"status": "optimal", "value": "-14/5", "x": ["8/5", "6/5"],
                      "dual": ["2/5", "1/5"]}
    check([-1, -1], [[1, 2], [3, 1]], [4, 6], result)


def test_degenerate_programs():
    assert lp([1, 2], [], [])["value"] == "0"  # no constraints, nonnegative costs
    check([1, 2], [], [], lp([1, 2], [], []))
    unbounded = lp([-1], [[0]], [0])
    assert unbounded["status"] == "unbounded"
    check([-1], [[0]], [0], unbounded)
    infeasible = lp([1], [[1]], [-1])  # x <= -1 with x >= 0
    assert infeasible["status"] == "infeasible"
    check([1], [[1]], [-1], infeasible)
    both = [[1, 1], [-1, -1]]  # x + y <= 1 and x + y >= 2
    check([0, 0], both, [1, -2], lp([0, 0], both, [1, -2]))
    zero = lp([0, 0], [[1, 1]], [1])
    assert zero["value"] == "0"
    check([0, 0], [[1, 1]], [1], zero)


def test_adversarial_klee_minty_and_float_rounding():
    # Klee-Minty cube in dimension 5 (Dantzig's rule visits all 32 vertices); the exact answer
    # is x = (0, 0, 0, 0, 5^5) with value -5^5.
    n = 5
    a = [[2 * 5 ** (i - j) if j < i else (1 if j == i else 0) for j in range(n)]
         for i in range(n)]
    b = [5 ** (i + 1) for i in range(n)]
    c = [-(2 ** (n - 1 - j)) for j in range(n)]
    result = lp(c, a, b)
    assert q(result["value"]) == -(5**n)
    check(c, a, b, result)
    # 1/3-style data: a float simplex reports 0.3333333333333333, the exact optimum is 1/3.
    result = lp([-1], [[3]], [1])
    assert result["value"] == "-1/3" and result["x"] == ["1/3"]
    assert 1 / 3 != Fraction(1, 3)


def test_certificates_on_random_programs():
    rng = random.Random(31)
    for _ in range(10):
        m, n = rng.randrange(1, 5), rng.randrange(1, 5)
        a = [[Fraction(rng.randrange(-5, 6), rng.randrange(1, 4)) for _ in range(n)]
             for _ in range(m)]
        b = [rng.randrange(-3, 8) for _ in range(m)]
        c = [rng.randrange(-4, 5) for _ in range(n)]
        check(c, a, b, lp(c, a, b))


def test_request_boundary():
    rng = random.Random(32)
    a = [[str(Fraction(rng.randrange(1, 10**6), rng.randrange(1, 10**3))) for _ in range(6)]
         for _ in range(6)]
    b = [rng.randrange(1, 10**6) for _ in range(6)]
    c = [-rng.randrange(1, 10**6) for _ in range(6)]
    result = run(ID, {"c": c, "a": mat(a), "b": b})
    assert result["status"] == "optimal"
    check(c, [[Fraction(v) for v in r] for r in a], b, result)
    assert rejected(ID, {"c": [1], "a": mat([[1]]), "b": [1, 2]}) == ["lp_shape"]
    assert rejected(ID, {"c": [1, 2], "a": mat([[1]]), "b": [1]}) == ["lp_shape"]
    assert rejected(ID, {"c": [], "a": {"nrows": 0, "ncols": 0, "rows": []}, "b": []}) == [
        "too_short"]
    assert rejected(ID, {"c": [0.5], "a": mat([[1]]), "b": [1]}) == ["rational_type"]
    assert "less_than_equal" in rejected(ID, {"c": [1] * 7, "a": mat([[1] * 7]), "b": [1]})
