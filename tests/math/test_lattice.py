"""Preflight of linalg.integer.normal_forms and nt.integer.relations: known normal forms and
relations, degenerate shapes, systems solvable over Q but not over Z, and the invariants
(determinantal divisors, lattice equality, saturation, Farkas certificates, unimodular
completion) recomputed here with Fractions and minors."""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction

from math_support import det_fraction, mat, q, rejected, run

NF = "linalg.integer.normal_forms"
REL = "nt.integer.relations"


def nf(rows, rhs=None, ncols=None) -> dict:
    matrix = mat(rows) if rows else {"nrows": 0, "ncols": ncols or 0, "rows": []}
    return run(NF, {"matrix": matrix, **({} if rhs is None else {"rhs": rhs})})


def minors_gcd(rows, k: int) -> int:
    """gcd of all k x k minors (the k-th determinantal divisor)."""
    m, n = len(rows), len(rows[0]) if rows else 0
    g = 0
    for rs in itertools.combinations(range(m), k):
        for cs in itertools.combinations(range(n), k):
            g = math.gcd(g, int(det_fraction([[rows[i][j] for j in cs] for i in rs])))
    return g


def apply(rows, v):
    return [sum(Fraction(a) * Fraction(x) for a, x in zip(row, v)) for row in rows]


def transpose(rows, ncols):
    return [[row[j] for row in rows] for j in range(ncols)]


def check(rows, ncols, result, rhs=None) -> None:
    r, d = result["rank"], result["invariant_factors"]
    assert all(b % a == 0 for a, b in zip(d, d[1:])) and all(x > 0 for x in d)
    for k in range(1, r + 1):  # d_1 ... d_k = k-th determinantal divisor
        assert math.prod(d[:k]) == minors_gcd(rows, k)
    kernel = result["kernel"]
    assert len(kernel) == ncols - r and all(not any(apply(rows, v)) for v in kernel)
    if kernel:  # saturated: the kernel lattice is all of ker(A) over Z
        assert minors_gcd(kernel, len(kernel)) == 1
    h = result["hermite"]["rows"]
    if r:
        cols_a, cols_h = transpose(rows, ncols), transpose(h, len(h[0]))
        assert len(cols_h) == r and minors_gcd(transpose(cols_h, len(h)), r) == minors_gcd(rows, r)
        for col in cols_a:  # every column of A is an integer combination of H's columns
            residual = list(col)
            for hc in reversed(cols_h):
                pivot = max(i for i, x in enumerate(hc) if x)
                coef = Fraction(residual[pivot], hc[pivot])
                assert coef.denominator == 1
                residual = [a - coef * b for a, b in zip(residual, hc)]
            assert not any(residual)
    if rhs is not None:
        s = result["solution"]
        if s["status"] == "solvable":
            assert apply(rows, s["particular"]) == rhs
        else:
            y = [q(v) for v in s["certificate"]]
            assert all(0 <= v < 1 for v in y)
            ya = apply(transpose(rows, ncols), y) if rows else []
            assert all(v.denominator == 1 for v in ya)
            assert sum(a * b for a, b in zip(y, rhs)).denominator != 1


def test_normal_forms_known_answer():
    rows = [[2, 4, 4], [-6, 6, 12]]
    result = nf(rows, [2, 6])
    assert result["invariant_factors"] == [2, 6]
    assert result["hermite"]["rows"] == [[2, 0], [0, 6]]
    assert result["solution"]["status"] == "solvable"
    check(rows, 3, result, [2, 6])


def test_normal_forms_degenerate_shapes():
    empty = nf([], [], ncols=3)
    assert empty["rank"] == 0 and len(empty["kernel"]) == 3
    assert empty["solution"] == {"status": "solvable", "particular": [0, 0, 0]}
    zero = nf([[0, 0], [0, 0]], [0, 1])
    assert zero["rank"] == 0 and zero["solution"]["status"] == "no_integer_solution"
    check([[0, 0], [0, 0]], 2, zero, [0, 1])
    one = nf([[5]], [10])
    assert one["solution"] == {"status": "solvable", "particular": [2]}
    identity = [[int(i == j) for j in range(4)] for i in range(4)]
    assert nf(identity)["invariant_factors"] == [1, 1, 1, 1] and nf(identity)["kernel"] == []


def test_normal_forms_adversarial_rational_but_not_integer():
    # 2x + 4y = 3 and [[2, 0], [0, 3]] x = [1, 1] solve over Q (linalg.solve) but not over Z.
    result = nf([[2, 4]], [3])
    assert result["solution"]["status"] == "no_integer_solution"
    check([[2, 4]], 2, result, [3])
    result = nf([[2, 0], [0, 3]], [1, 1])
    assert result["solution"]["status"] == "no_integer_solution"
    check([[2, 0], [0, 3]], 2, result, [1, 1])
    inconsistent = nf([[1, 1], [1, 1]], [0, 1])  # no rational solution either
    check([[1, 1], [1, 1]], 2, inconsistent, [0, 1])


def test_normal_forms_invariants_on_random_matrices():
    rng = random.Random(21)
    for _ in range(8):
        m, n = rng.randrange(1, 4), rng.randrange(1, 5)
        rows = [[rng.randrange(-6, 7) for _ in range(n)] for _ in range(m)]
        rhs = [rng.randrange(-9, 10) for _ in range(m)]
        check(rows, n, nf(rows, rhs), rhs)


def test_normal_forms_request_boundary():
    rng = random.Random(22)
    rows = [[rng.randrange(-10**9 + 1, 10**9) for _ in range(8)] for _ in range(6)]
    rhs = [rng.randrange(-10**9 + 1, 10**9) for _ in range(6)]
    result = nf(rows, rhs)
    assert result["rank"] == 6 and len(result["kernel"]) == 2
    assert all(not any(apply(rows, v)) for v in result["kernel"])
    assert max(len(str(abs(x))) for v in result["kernel"] for x in v) < 79
    assert lll_reduced(result["kernel"])
    assert rejected(NF, {"matrix": mat([[1, 2]]), "rhs": [1, 2]}) == ["rhs_length"]
    assert rejected(NF, {"matrix": mat([[str(10**9)]])}) == ["integer_text"]
    assert rejected(NF, {"matrix": mat([["1/2"]])}) == ["integer_text"]
    assert "less_than_equal" in rejected(NF, {"matrix": mat([[1] * 9])})


def relations(*values) -> dict:
    return run(REL, {"values": list(values)})


def lll_reduced(basis) -> bool:
    """|mu_ij| <= 1/2 and the Lovasz condition with delta = 3/4, recomputed exactly."""
    ortho, norms, mus = [], [], []
    for b in basis:
        v, row = [Fraction(x) for x in b], []
        for u, nu in zip(ortho, norms):
            mu = sum(Fraction(x) * y for x, y in zip(b, u)) / nu
            row.append(mu)
            v = [x - mu * y for x, y in zip(v, u)]
        ortho.append(v)
        norms.append(sum(x * x for x in v))
        mus.append(row)
    return all(abs(mu) <= Fraction(1, 2) for row in mus for mu in row) and all(
        norms[k] >= (Fraction(3, 4) - mus[k][k - 1] ** 2) * norms[k - 1]
        for k in range(1, len(basis)))


def check_relations(values, result) -> None:
    xs = [Fraction(v) for v in values]
    rel = result["relations"]
    assert all(sum(m * x for m, x in zip(v, xs)) == 0 for v in rel) and lll_reduced(rel)
    if result["complement"] is None:
        assert not any(xs)
        return
    w = result["complement"]
    assert sum(m * x for m, x in zip(w, xs)) == q(result["gcd"]) > 0
    assert abs(det_fraction(rel + [w])) == 1  # unimodular: the relations are all of them


def test_relations_known_answer_and_degenerate_values():
    result = relations("1/2", "1/3", "5/6")
    assert result["gcd"] == "1/6"
    check_relations(["1/2", "1/3", "5/6"], result)
    assert [-1, -1, 1] in result["relations"] or [1, 1, -1] in result["relations"]
    assert max(abs(x) for v in result["relations"] for x in v) <= 3
    assert relations(0, 0) == {"relations": [[1, 0], [0, 1]], "complement": None, "gcd": "0"}
    assert relations(5) == {"relations": [], "complement": [1], "gcd": "5"}
    check_relations([0, 7], relations(0, 7))


def test_relations_adversarial_short_relation_among_large_values():
    # x = (a, b, c) with 3a + 5b - 7c = 0 hidden in 25-digit numbers: the first LLL vector is
    # that relation; the Bezout-style kernel vectors of a 1 x n Smith form are 25 digits long.
    a, b = 10**24 + 7, 3 * 10**23 + 11
    c = Fraction(3 * a + 5 * b, 7)
    values = [str(a), str(b), str(c)]
    result = relations(*values)
    check_relations(values, result)
    assert max(abs(x) for x in result["relations"][0]) <= 7


def test_relations_request_boundary():
    rng = random.Random(23)
    values = [str(Fraction(rng.randrange(-10**30 + 1, 10**30), rng.randrange(1, 10**30)))
              for _ in range(12)]
    result = relations(*values)
    assert len(result["relations"]) == 11
    check_relations(values, result)
    assert rejected(REL, {"values": []}) == ["too_short"]
    assert rejected(REL, {"values": [1] * 13}) == ["too_long"]
    assert rejected(REL, {"values": [0.5]}) == ["rational_type"]
