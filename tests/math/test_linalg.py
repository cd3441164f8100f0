"""Preflight of the linear-algebra operations over Q (MATH.md §5.3, §9.2)."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

from math_support import (det_fraction, mat, mat_mul, poly_mul, poly_strip, q, rank_fraction,
                          rejected, run, wire)

# det = (10^8+1)(10^8-1) - 10^16 = -1, but 10^16 - 1 is not a float64: floats say det 0.
NEAR_SINGULAR = [[1000000001, 1000000000], [1000000000, 999999999]]  # MATH.md §5.3
# Exactly singular (row 2 = 3 * row 1), but float elimination leaves 0.6 - 3 * 0.2 != 0.
FLOAT_FOOLING = [["1/10", "1/5"], ["3/10", "3/5"]]
HILBERT5 = [[str(Fraction(1, i + j + 1)) for j in range(5)] for i in range(5)]


def M(rows) -> dict:
    return mat([wire(r) for r in rows]) if rows else {"nrows": 0, "ncols": 0, "rows": []}


def det(rows) -> Fraction:
    return q(run("linalg.det", {"matrix": M(rows)})["determinant"])


def rank(matrix: dict) -> dict:
    return run("linalg.rank", {"matrix": matrix})


def rref(matrix: dict) -> dict:
    return run("linalg.rref", {"matrix": matrix})


def nullspace(matrix: dict) -> list:
    return [[q(v) for v in vec] for vec in run("linalg.nullspace", {"matrix": matrix})["basis"]]


def transpose(rows):
    return [list(col) for col in zip(*rows)]


def apply(rows, v) -> list:
    return [sum(Fraction(a) * Fraction(b) for a, b in zip(row, v)) for row in rows]


# --- linalg.det -----------------------------------------------------------------------------

def test_det_known_answers():
    assert det([[1, 2], [3, 4]]) == -2
    assert det(HILBERT5) == Fraction(1, 266716800000)


def test_det_boundaries():
    assert det([]) == 1
    assert det([[7]]) == 7
    assert det([[1 if i == j else 0 for j in range(10)] for i in range(10)]) == 1
    assert det([[1, 2, 3], [0, 0, 0], [4, 5, 6]]) == 0


def test_det_adversarial_near_singular_matrix():
    a, b = NEAR_SINGULAR[0]
    c, d = NEAR_SINGULAR[1]
    assert float(a) * float(d) - float(b) * float(c) == 0.0
    assert det(NEAR_SINGULAR) == -1


def test_det_invariants_and_largest_input():
    rng = random.Random(31)
    rows = [[Fraction(rng.randrange(-10**9 + 1, 10**9), rng.randrange(1, 10**4))
             for _ in range(10)] for _ in range(10)]
    value = det(rows)
    assert value == det(transpose(rows)) == det_fraction(rows)
    for small in ([[2, "1/3"], ["-5/7", 4]], [[1, 2, 3], [4, 5, 6], [7, 8, 10]]):
        assert det(small) == det_fraction([[Fraction(v) for v in r] for r in small])


def test_det_request_boundary():
    too_many = [[1] * 21 for _ in range(21)]
    assert "less_than_equal" in rejected("linalg.det", {"matrix": mat(too_many)})
    assert rejected("linalg.det", {"matrix": mat([[1, 2, 3], [4, 5, 6]])}) == [
        "matrix_not_square"]
    assert rejected("linalg.det", {"matrix": {"nrows": 2, "ncols": 2,
                                              "rows": [[1, 2], [3]]}}) == ["matrix_row_length"]
    assert rejected("linalg.det", {"matrix": {"nrows": 3, "ncols": 2,
                                              "rows": [[1, 2], [3, 4]]}}) == ["matrix_row_count"]
    assert rejected("linalg.det", {"matrix": mat([["2/4"]])}) == ["rational_not_reduced"]
    assert rejected("linalg.det", {"matrix": mat([[10**1000]])}) == ["rational_out_of_range"]


# --- linalg.rank ----------------------------------------------------------------------------

def check_rank(rows, result) -> None:
    r = result["rank"]
    assert len(result["witness_rows"]) == len(result["witness_cols"]) == r
    minor = [[rows[i][j] for j in result["witness_cols"]] for i in result["witness_rows"]]
    assert r == 0 or det_fraction([[Fraction(v) for v in row] for row in minor]) != 0
    if rows and len(rows[0]) <= 8 and len(rows) <= 8:
        assert r + len(nullspace(M(rows))) == len(rows[0])


def test_rank_known_answer_and_boundaries():
    result = rank(mat([[1, 2, 3], [2, 4, 6]]))
    assert result == {"rank": 1, "witness_rows": [0], "witness_cols": [0]}
    assert rank({"nrows": 0, "ncols": 0, "rows": []})["rank"] == 0
    assert rank({"nrows": 0, "ncols": 3, "rows": []}) == {"rank": 0, "witness_rows": [],
                                                          "witness_cols": []}
    assert rank(mat([[0, 0], [0, 0]]))["rank"] == 0
    assert rank(mat([[1 if i == j else 0 for j in range(10)] for i in range(10)]))["rank"] == 10


def test_rank_adversarial_and_invariants():
    assert rank(mat(NEAR_SINGULAR))["rank"] == 2
    rng = random.Random(41)
    for _ in range(5):
        n, m = rng.randrange(1, 9), rng.randrange(1, 9)
        basis = [[rng.randrange(-5, 6) for _ in range(m)] for _ in range(rng.randrange(1, 4))]
        rows = [[sum(rng.randrange(-3, 4) * b[j] for b in basis) for j in range(m)]
                for _ in range(n)]
        check_rank(rows, rank(mat(rows)))


# --- linalg.rref ----------------------------------------------------------------------------

def check_rref(rows, result) -> None:
    reduced = [[q(v) for v in r] for r in result["rref"]["rows"]]
    pivots = result["pivot_columns"]
    for i, p in enumerate(pivots):  # the RREF definition
        assert reduced[i][p] == 1 and all(v == 0 for v in reduced[i][:p])
        assert all(reduced[k][p] == 0 for k in range(len(reduced)) if k != i)
    assert pivots == sorted(pivots)
    assert all(v == 0 for r in reduced[len(pivots):] for v in r)
    original = [[Fraction(v) for v in r] for r in rows]
    # equal row spaces: stacking R under A adds no rank
    assert rank_fraction(original + reduced) == rank_fraction(original) == len(pivots)
    assert rank(M(rows))["rank"] == len(pivots)


def test_rref_known_answer_boundaries_and_adversarial():
    assert rref(mat([[2, 4], [1, 3]])) == {"rref": {"nrows": 2, "ncols": 2, "rows": [
        ["1", "0"], ["0", "1"]]}, "pivot_columns": [0, 1]}
    assert rref(mat([[0, 0, 0]])) == {"rref": {"nrows": 1, "ncols": 3,
                                               "rows": [["0", "0", "0"]]}, "pivot_columns": []}
    assert rref({"nrows": 0, "ncols": 3, "rows": []}) == {
        "rref": {"nrows": 0, "ncols": 3, "rows": []}, "pivot_columns": []}
    assert 0.6 - 3 * 0.2 != 0
    assert rref(mat(FLOAT_FOOLING)) == {"rref": {"nrows": 2, "ncols": 2, "rows": [
        ["1", "2"], ["0", "0"]]}, "pivot_columns": [0]}


def test_rref_invariants_and_largest_input():
    rng = random.Random(43)
    rows = [[str(Fraction(rng.randrange(-10**6 + 1, 10**6), rng.randrange(1, 1000)))
             for _ in range(8)] for _ in range(5)]
    check_rref(rows, rref(mat(rows)))
    check_rref([[1, 2, 3], [2, 4, 6], [1, 0, 1]], rref(mat([[1, 2, 3], [2, 4, 6], [1, 0, 1]])))
    assert "less_than_equal" in rejected("linalg.rref", {"matrix": mat([[1] * 21])})


# --- linalg.nullspace -----------------------------------------------------------------------

def test_nullspace_known_answer_boundaries_and_adversarial():
    assert nullspace(mat([[1, 2, 3], [2, 4, 6], [1, 0, 1]])) == [[-1, -1, 1]]
    assert nullspace({"nrows": 0, "ncols": 3, "rows": []}) == [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
    assert nullspace(mat([[2, 1], [1, 1]])) == []
    assert nullspace(mat([[999999, 999998], [999998, 999997]])) == []  # det -1
    assert nullspace(mat(FLOAT_FOOLING)) == [[-2, 1]]


def test_nullspace_invariants():
    rng = random.Random(47)
    for _ in range(5):
        rows = [[rng.randrange(-3, 4) for _ in range(7)] for _ in range(rng.randrange(1, 6))]
        basis = nullspace(mat(rows))
        assert all(v == 0 for vec in basis for v in apply(rows, vec))
        assert len(basis) == 7 - rank(mat(rows))["rank"]
        if basis:
            assert rank(M(basis))["rank"] == len(basis)


# --- linalg.solve ---------------------------------------------------------------------------

def solve(rows, rhs, ncols=None) -> dict:
    matrix = M(rows) if rows else {"nrows": 0, "ncols": ncols, "rows": []}
    return run("linalg.solve", {"matrix": matrix, "rhs": wire(rhs)})


def check_solution(rows, rhs, result) -> None:
    rhs = [Fraction(b) for b in rhs]
    if result["status"] == "inconsistent":
        y = [q(v) for v in result["certificate"]]
        assert all(v == 0 for v in apply(transpose(rows), y)) if rows and rows[0] else True
        assert sum(a * b for a, b in zip(y, rhs)) != 0
        return
    x0 = [q(v) for v in result["x" if result["status"] == "unique" else "particular"]]
    assert apply(rows, x0) == rhs
    for vec in result.get("basis", []):
        assert all(v == 0 for v in apply(rows, [q(c) for c in vec]))


def test_solve_known_answer_and_boundaries():
    assert solve([[1, 1], [1, -1]], [3, 1]) == {"status": "unique", "x": ["2", "1"]}
    assert solve([], [], ncols=2) == {"status": "affine", "particular": ["0", "0"],
                                      "basis": [["1", "0"], ["0", "1"]]}
    zero_rhs = solve([[1, 2], [2, 4]], [0, 0])
    assert zero_rhs == {"status": "affine", "particular": ["0", "0"], "basis": [["-2", "1"]]}
    assert run("linalg.solve", {"matrix": {"nrows": 2, "ncols": 0, "rows": [[], []]},
                                "rhs": [0, 5]})["status"] == "inconsistent"


def test_solve_adversarial_inconsistent_system_has_a_certificate():
    result = solve([[1, 1], [1, 1]], [0, 1])
    assert result["status"] == "inconsistent"
    check_solution([[1, 1], [1, 1]], [0, 1], result)


def test_solve_invariants_and_largest_input():
    rng = random.Random(53)
    for _ in range(6):
        n, m = rng.randrange(1, 9), rng.randrange(1, 9)
        rows = [[str(Fraction(rng.randrange(-10**6 + 1, 10**6), rng.randrange(1, 1000)))
                 if rng.random() < 0.7 else "0" for _ in range(m)] for _ in range(n)]
        rhs = [str(Fraction(rng.randrange(-10**6 + 1, 10**6), rng.randrange(1, 1000)))
               for _ in range(n)]
        check_solution([[Fraction(v) for v in r] for r in rows], rhs, solve(rows, rhs))
    assert rejected("linalg.solve", {"matrix": mat([[1, 2]]), "rhs": [1, 2]}) == ["rhs_length"]


# --- linalg.charpoly ------------------------------------------------------------------------

def charpoly(rows) -> list[int]:
    result = run("linalg.charpoly", {"matrix": mat(rows) if rows else M([])})["charpoly"]
    assert result["variable"] == "x"
    return [int(q(c)) for c in result["coefficients"]]


def check_cayley_hamilton(rows, coefficients) -> None:
    n = len(rows)
    total = [[Fraction(0)] * n for _ in range(n)]
    for c in coefficients:  # Horner: p(A) = (...(A + c1 I) A + c2 I) ...
        total = mat_mul(total, rows) if any(any(r) for r in total) else total
        total = [[total[i][j] + (c if i == j else 0) for j in range(n)] for i in range(n)]
    assert all(v == 0 for r in total for v in r)
    assert -coefficients[1] == sum(rows[i][i] for i in range(n))
    assert (-1) ** n * coefficients[-1] == det_fraction(rows)


def test_charpoly_known_answer_and_boundaries():
    assert charpoly([[1, 2], [3, 4]]) == [1, -5, -2]
    assert charpoly([]) == [1]
    assert charpoly([[-9]]) == [1, 9]
    assert charpoly([[1, 0, 0], [0, 1, 0], [0, 0, 1]]) == [1, -3, 3, -1]


def test_charpoly_adversarial_and_invariants_at_the_largest_input():
    rng = random.Random(59)
    rows = [[rng.choice([-1, 1]) * 10**6 if (i * j) % 2 else rng.randrange(-10**6, 10**6 + 1)
             for j in range(8)] for i in range(8)]
    coefficients = charpoly(rows)
    assert max(abs(c) for c in coefficients) > 2**53  # beyond what float eigenvalues recover
    check_cayley_hamilton(rows, coefficients)
    assert rejected("linalg.charpoly", {"matrix": mat([[10**1000]])}) == [
        "integer_out_of_range"]
    assert rejected("linalg.charpoly", {"matrix": mat([["1/2"]])}) == ["integer_text"]
    assert rejected("linalg.charpoly", {"matrix": mat([[1, 2]])}) == ["matrix_not_square"]


# --- linalg.eigenvalues ---------------------------------------------------------------------

def eigen(rows, isolate=False) -> dict:
    return run("linalg.eigenvalues", {"matrix": mat(rows) if rows else M([]),
                                      "isolate": isolate})


def groups(result) -> list[tuple]:
    return [(tuple(g["minimal_polynomial"]["coefficients"]), g["algebraic_multiplicity"],
             g["value"], g["geometric_multiplicity"]) for g in result["groups"]]


def check_eigen(rows, result) -> None:
    n = len(rows)
    product = [Fraction(1)]
    for g in result["groups"]:
        assert g["degree"] == len(g["minimal_polynomial"]["coefficients"]) - 1
        for _ in range(g["algebraic_multiplicity"]):
            product = poly_mul(product, g["minimal_polynomial"]["coefficients"])
        if g["degree"] == 1:
            lam = q(g["value"])
            shifted = [[Fraction(v) - (lam if i == j else 0) for j, v in enumerate(r)]
                       for i, r in enumerate(rows)]
            assert g["geometric_multiplicity"] == n - rank(M(shifted))["rank"]
            assert 1 <= g["geometric_multiplicity"] <= g["algebraic_multiplicity"]
    assert poly_strip(product) == poly_strip(charpoly(rows))
    assert sum(g["degree"] * g["algebraic_multiplicity"] for g in result["groups"]) == n


def test_eigenvalues_known_answers():
    assert groups(eigen([[1, 2], [3, 4]])) == [((1, -5, -2), 1, None, None)]
    jordan = [[2, 1, 0], [0, 2, 0], [0, 0, 3]]
    assert sorted(groups(eigen(jordan))) == [((1, -3), 1, "3", 1), ((1, -2), 2, "2", 1)]
    check_eigen(jordan, eigen(jordan))


def test_eigenvalues_boundaries():
    assert eigen([]) == {"size": 0, "groups": []}
    assert groups(eigen([[7]])) == [((1, -7), 1, "7", 1)]
    assert groups(eigen([[1, 0, 0], [0, 1, 0], [0, 0, 1]])) == [((1, -1), 3, "1", 3)]
    assert groups(eigen([[0, 0, 0], [0, 0, 0], [0, 0, 0]])) == [((1, 0), 3, "0", 3)]
    assert groups(eigen([[0, 1], [0, 0]])) == [((1, 0), 2, "0", 1)]


def test_eigenvalues_adversarial_unsolvable_quintic_and_compact_output():
    companion = [[0, 0, 0, 0, -1], [1, 0, 0, 0, 1], [0, 1, 0, 0, 0], [0, 0, 1, 0, 0],
                 [0, 0, 0, 1, 0]]  # x^5 - x + 1: no radical expression for its roots
    result = eigen(companion, isolate=True)
    assert groups(result) == [((1, 0, 0, 0, -1, 1), 1, None, None)]
    assert len(result["groups"][0]["roots"]) == 5
    check_eigen(companion, result)
    rng = random.Random(61)
    rows = [[rng.randrange(-9, 10) for _ in range(4)] for _ in range(4)]
    assert len(str(eigen(rows))) < 600  # radicals for such a matrix print to ~1500 chars


def test_eigenvalues_isolated_regions_at_the_largest_input():
    from sympy import I, Poly, Symbol
    x = Symbol("x")
    rng = random.Random(67)
    rows = [[rng.choice([-1, 1]) * 10**6 if (i + j) % 3 else rng.randrange(-10**6, 10**6)
             for j in range(8)] for i in range(8)]
    result = eigen(rows, isolate=True)
    check_eigen(rows, result)
    for g in result["groups"]:
        poly = Poly(g["minimal_polynomial"]["coefficients"], x)
        for number in g["roots"] or []:
            r = number["root"]
            if r["kind"] == "real":
                assert poly.count_roots(*map(q, r["interval"])) == 1
            else:
                a, b, c, d = map(q, r["box"])
                assert poly.count_roots(a + c * I, b + d * I) == 1

def test_eigenvalues_of_the_petersen_graph_and_at_n_20():
    # The Petersen graph (vertices: 2-subsets of {0..4}, adjacent when disjoint) has spectrum
    # 3, 1^5, (-2)^4, each eigenspace of full dimension (a symmetric matrix).
    vertices = list(itertools.combinations(range(5), 2))
    petersen = [[int(not set(u) & set(v)) for v in vertices] for u in vertices]
    result = eigen(petersen)
    assert sorted(groups(result)) == [((1, -3), 1, "3", 1), ((1, -1), 5, "1", 5),
                                      ((1, 2), 4, "-2", 4)]
    check_eigen(petersen, result)
    # n = 20, the family's dimension: the companion matrix of x^20 - 2(700x - 1)^2 (Mignotte:
    # two real roots as close as degree and size allow) is separated exactly.
    companion = [[int(i == j + 1) for j in range(19)] + [0] for i in range(20)]
    for i, c in zip(range(20), [2, -2800, 980000]):
        companion[i][19] = c
    result = eigen(companion, isolate=True)
    check_eigen(companion, result)
    reals = [r for g in result["groups"] for r in g["roots"] if r["root"]["kind"] == "real"]
    assert len(reals) >= 2
    assert "less_than_equal" in rejected("linalg.eigenvalues", {"matrix": mat([[1] * 21] * 21)})


# --- the size rule: the bound is on bit size x dimension, the quantity elimination pays for --

def _integers(rng, n: int, m: int, digits: int) -> list[list[int]]:
    return [[rng.choice((-1, 1)) * rng.randrange(10**(digits - 1), 10**digits) for _ in range(m)]
            for _ in range(n)]


def test_math_md_adversarial_matrix_with_entries_past_10_9_is_accepted():
    # MATH.md's own example: entries above 10^9, determinant -1, float64 says singular
    rows = [[1000000001, 1000000000], [1000000000, 999999999]]
    assert det(rows) == -1
    assert rank(mat(rows))["rank"] == 2


def test_det_and_rank_near_the_size_bound_and_past_it():
    from synsema.stdlib.math.domains.linalg import SIZE_DIGITS, size_digits
    rng = random.Random(5)
    rows = _integers(rng, 10, 10, 290)  # 10 x 10 of 290-digit integers: size about 2905
    assert 2850 < size_digits([[Fraction(v) for v in r] for r in rows]) <= SIZE_DIGITS
    value = det(rows)
    assert value == det_fraction([[Fraction(v) for v in r] for r in rows]) != 0
    assert len(str(abs(value.numerator))) <= SIZE_DIGITS
    assert rank(mat(rows))["rank"] == 10
    past = _integers(rng, 10, 10, 301)
    assert rejected("linalg.det", {"matrix": mat(past)}) == ["matrix_too_large"]
    assert rejected("linalg.rank", {"matrix": mat(past)}) == ["matrix_too_large"]
    # the columns count too: one long column of big numbers in a wide matrix
    wide = [[10**299 + i] + [1] * 19 for i in range(20)]
    assert rejected("linalg.rank", {"matrix": mat(wide)}) == ["matrix_too_large"]
    # denominators count: 20 rows whose entries have distinct 4-digit denominators
    fractions = [[str(Fraction(rng.randrange(1, 10**50), rng.randrange(1000, 10**4)))
                  for _ in range(20)] for _ in range(20)]
    assert rejected("linalg.det", {"matrix": mat(fractions)}) == ["matrix_too_large"]


def test_rref_nullspace_and_solve_near_the_size_bound():
    rng = random.Random(9)
    rows = _integers(rng, 12, 12, 230)  # size about 2770
    rows[11] = [a - b for a, b in zip(rows[0], rows[1])]  # rank 11: one kernel vector
    basis = nullspace(mat(rows))
    assert len(basis) == 1 and all(v == 0 for v in apply(rows, basis[0]))
    reduced = run("linalg.rref", {"matrix": mat(rows)})
    assert reduced["pivot_columns"] == list(range(11))
    b = [sum(Fraction(v) for v in row) for row in rows]  # x = (1, ..., 1) solves it
    solved = run("linalg.solve", {"matrix": mat(rows), "rhs": [str(v) for v in b]})
    assert solved["status"] == "affine"
    assert apply(rows, solved["particular"]) == b
    past = _integers(rng, 12, 12, 260)
    assert rejected("linalg.rref", {"matrix": mat(past)}) == ["matrix_too_large"]
    assert rejected("linalg.solve", {"matrix": mat(rows), "rhs": [10**999] * 12}) == [
        "matrix_too_large"]  # the rule covers the augmented matrix


def test_charpoly_near_the_size_bound_and_past_it():
    rng = random.Random(13)
    rows = _integers(rng, 24, 24, 115)
    coefficients = run("linalg.charpoly", {"matrix": mat(rows)})["charpoly"]["coefficients"]
    assert len(coefficients) == 25 and Fraction(coefficients[0]) == 1
    assert -Fraction(coefficients[1]) == sum(rows[i][i] for i in range(24))
    assert rejected("linalg.charpoly", {"matrix": mat(_integers(rng, 24, 24, 125))}) == [
        "matrix_too_large"]
    assert "less_than_equal" in rejected("linalg.charpoly",
                                         {"matrix": mat([[1] * 25 for _ in range(25)])})
