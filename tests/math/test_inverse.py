"""Preflight of linalg.inverse: known answer, degenerate shapes, the near-singular matrix a float
inverse gets wrong, the defining identity or the kernel witness, and the request boundary."""

from __future__ import annotations

import random
from fractions import Fraction

from math_support import det_fraction, mat, mat_mul, q, rejected, run, wire

NEAR_SINGULAR = [[100000001, 100000000], [100000000, 99999999]]


def inverse(rows) -> dict:
    matrix = mat([wire(r) for r in rows]) if rows else {"nrows": 0, "ncols": 0, "rows": []}
    return run("linalg.inverse", {"matrix": matrix})


def check(rows, result) -> None:
    """The witness decides: A B = B A = I, or A v = 0 with v != 0 and det A = 0."""
    n = len(rows)
    if result["status"] == "invertible":
        b = [[q(v) for v in row] for row in result["inverse"]["rows"]]
        identity = [[Fraction(int(i == j)) for j in range(n)] for i in range(n)]
        assert mat_mul(rows, b) == identity and mat_mul(b, rows) == identity
    else:
        v = [q(x) for x in result["kernel_vector"]]
        assert any(v) and all(sum(Fraction(a) * x for a, x in zip(row, v)) == 0 for row in rows)
        assert det_fraction(rows) == 0


def test_known_answers():
    assert inverse([[1, 2], [3, 4]]) == {"status": "invertible", "inverse": {
        "nrows": 2, "ncols": 2, "rows": [["-2", "1"], ["3/2", "-1/2"]]}}
    hilbert = [[Fraction(1, i + j + 1) for j in range(4)] for i in range(4)]
    result = inverse(hilbert)
    assert result["inverse"]["rows"][0] == ["16", "-120", "240", "-140"]
    check(hilbert, result)


def test_degenerate_inputs():
    assert inverse([]) == {"status": "invertible",
                           "inverse": {"nrows": 0, "ncols": 0, "rows": []}}
    assert inverse([[0]]) == {"status": "singular", "rank": 0, "kernel_vector": ["1"]}
    assert inverse([["2/3"]])["inverse"]["rows"] == [["3/2"]]
    identity = [[int(i == j) for j in range(5)] for i in range(5)]
    assert inverse(identity)["inverse"]["rows"] == [[str(v) for v in row] for row in identity]
    zero_row = [[1, 2, 3], [0, 0, 0], [4, 5, 6]]
    result = inverse(zero_row)
    assert result["status"] == "singular" and result["rank"] == 2
    check(zero_row, result)


def test_adversarial_near_singular_matrix_is_inverted_exactly():
    # det = -1, but in float64 (10^8+1)(10^8-1) rounds to 10^16, so det reads 0: a float
    # inverse is either refused or off by orders of magnitude.
    assert float(100000001) * float(99999999) == float(100000000) ** 2
    result = inverse(NEAR_SINGULAR)
    assert result["inverse"]["rows"] == [["-99999999", "100000000"],
                                        ["100000000", "-100000001"]]
    check(NEAR_SINGULAR, result)
    # Exactly singular, but float elimination leaves 0.6 - 3 * 0.2 != 0 and "inverts" it.
    fooling = [[Fraction(1, 10), Fraction(1, 5)], [Fraction(3, 10), Fraction(3, 5)]]
    result = inverse(fooling)
    assert result == {"status": "singular", "rank": 1, "kernel_vector": ["-2", "1"]}


def test_witness_on_random_matrices():
    rng = random.Random(15)
    for n in range(1, 7):
        rows = [[Fraction(rng.randrange(-9, 10), rng.randrange(1, 4)) for _ in range(n)]
                for _ in range(n)]
        if n % 2 == 0:  # make every other matrix singular: last row = sum of the others
            rows[-1] = [sum(col[:-1], Fraction(0)) for col in zip(*rows)]
        check(rows, inverse(rows))


def test_request_boundary():
    # Issue 28: inverse takes every matrix linalg.solve and linalg.det take (the 12x12
    # identity was refused); the largest is 20x20 of 140-digit integers (the size rule).
    rng = random.Random(16)
    assert inverse([[int(i == j) for j in range(12)] for i in range(12)])["status"] == "invertible"
    largest = [[rng.choice([-1, 1]) * rng.randrange(10**139, 10**140) for _ in range(20)]
               for _ in range(20)]
    check(largest, inverse(largest))
    rational = [[Fraction(rng.randrange(-10**9 + 1, 10**9), rng.randrange(1, 10**4))
                 for _ in range(10)] for _ in range(10)]
    check(rational, inverse(rational))
    assert rejected("linalg.inverse", {"matrix": mat([[1, 2, 3], [4, 5, 6]])}) == [
        "matrix_not_square"]
    too_big = [[int(i == j) for j in range(21)] for i in range(21)]
    assert "too_long" in rejected("linalg.inverse", {"matrix": mat(too_big)})
    past_size = [[10**160 + i + j for j in range(20)] for i in range(20)]
    assert rejected("linalg.inverse", {"matrix": mat(past_size)}) == ["matrix_too_large"]
    assert rejected("linalg.inverse", {"matrix": mat([["2/4"]])}) == ["rational_not_reduced"]
    assert rejected("linalg.inverse", {"matrix": mat([[0.5]])}) == ["rational_type"]
    assert rejected("linalg.inverse", {"matrix": {"nrows": 2, "ncols": 2, "rows": [[1]]}}) == [
        "matrix_row_count"]
