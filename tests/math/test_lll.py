"""Preflight of linalg.lattice.reduce: a known reduction, the degenerate one-vector and already
reduced bases, a knapsack basis (sympy 1.14's LLL fails an assertion on it) whose short vector
reveals the planted subset, the invariants re-checked here (same lattice through a unimodular
T, size reduction and Lovasz's condition by exact Gram-Schmidt), and the request boundary."""

from __future__ import annotations

import random
from fractions import Fraction

from math_support import det_fraction, mat, rank_fraction, rejected, run

ID = "linalg.lattice.reduce"


def reduce(rows) -> dict:
    return run(ID, {"basis": mat(rows)})


def check(rows, result) -> None:
    reduced, t = result["basis"]["rows"], result["transform"]["rows"]
    assert [[sum(t[i][k] * rows[k][j] for k in range(len(rows))) for j in range(len(rows[0]))]
            for i in range(len(rows))] == reduced
    assert abs(det_fraction(t)) == 1
    ortho, norms = [], []
    for i, row in enumerate(reduced):
        v = [Fraction(x) for x in row]
        for j, (u, norm) in enumerate(zip(ortho, norms)):
            mu = sum(Fraction(x) * y for x, y in zip(row, u)) / norm
            assert abs(mu) <= Fraction(1, 2)
            v = [x - mu * y for x, y in zip(v, u)]
            if j == i - 1:
                assert sum(x * x for x in v) >= (Fraction(3, 4) - mu * mu) * norm
        ortho.append(v)
        norms.append(sum(x * x for x in v))


def test_known_answer():
    rows = [[1, 0, 0, 12345], [0, 1, 0, 23456], [0, 0, 1, 34567]]
    result = reduce(rows)
    assert result["basis"]["rows"][0] == [1, -2, 1, 0]  # 12345 - 2 * 23456 + 34567 = 0
    check(rows, result)


def test_degenerate_bases():
    assert reduce([[5, 0]])["basis"]["rows"] == [[5, 0]]
    assert reduce([[1, 0], [0, 1]]) == {
        "basis": mat([[1, 0], [0, 1]]), "transform": mat([[1, 0], [0, 1]]), "swaps": 0}
    result = reduce([[0, 0, 7]])
    assert result["transform"]["rows"] == [[1]]


def test_adversarial_knapsack_basis_finds_the_planted_subset():
    # A low-density subset sum (20 weights of 20 digits): the Lagarias-Odlyzko lattice's
    # reduced basis holds a vector (2c_i - 1 or its negative, 0) that spells the subset.
    rng = random.Random(28)
    weights = [rng.randrange(10**19, 10**20) for _ in range(20)]
    chosen = [int(rng.random() < 0.5) for _ in weights]
    target = sum(w for w, c in zip(weights, chosen) if c)
    n, scale = len(weights), 10**6
    rows = [[2 * int(i == j) for j in range(n)] + [weights[i] * scale] for i in range(n)]
    rows.append([1] * n + [target * scale])
    result = reduce(rows)
    check(rows, result)
    subsets = [[(1 - x) // 2 for x in v[:-1]] for v in result["basis"]["rows"]
               if v[-1] == 0 and all(abs(x) == 1 for x in v[:-1])]
    subsets += [[1 - c for c in subset] for subset in subsets]
    assert chosen in subsets


def test_invariants_on_random_bases():
    rng = random.Random(7)
    for n, m in ((2, 2), (3, 5), (6, 6), (8, 10)):
        rows = [[rng.randrange(-10**6, 10**6) for _ in range(m)] for _ in range(n)]
        if rank_fraction(rows) == n:
            check(rows, reduce(rows))


def test_request_boundary():
    rng = random.Random(24)
    rows = [[rng.randrange(-10**30 + 1, 10**30) for _ in range(24)] for _ in range(24)]
    check(rows, reduce(rows))
    assert rejected(ID, {"basis": mat([[1, 2], [2, 4]])}) == ["basis_dependent"]
    assert rejected(ID, {"basis": mat([[1], [2]])}) == ["basis_dependent"]
    assert rejected(ID, {"basis": {"nrows": 0, "ncols": 2, "rows": []}}) == ["basis_dependent"]
    assert rejected(ID, {"basis": mat([[10**30]])}) == ["integer_out_of_range"]
    assert "less_than_equal" in rejected(ID, {"basis": mat([[1] * 25])})
