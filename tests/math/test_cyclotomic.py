"""Preflight of poly.cyclotomic: known polynomials, the degenerate n = 1 and primes, Phi_105
(whose coefficient -2 breaks the tempting "coefficients are 0 and +-1" shortcut), the defining
invariants checked here independently (the product is x^n - 1, the degree is phi(n), every
primitive n-th root of unity is a root, numerically at 50 digits), and the request boundary."""

from __future__ import annotations

import math

from math_support import poly_mul, rejected, run

ID = "poly.cyclotomic"


def cyclotomic(n: int) -> dict:
    return run(ID, {"n": n})


def totient(n: int) -> int:
    return sum(1 for k in range(1, n + 1) if math.gcd(k, n) == 1)


def check(n: int, result: dict) -> None:
    assert result["n"] == n
    divisors = [d for d in range(1, n + 1) if n % d == 0]
    assert [f["d"] for f in result["factors"]] == divisors
    product = [1]
    for f in result["factors"]:
        coefficients = f["polynomial"]["coefficients"]
        assert coefficients[0] == 1 and len(coefficients) - 1 == totient(f["d"])
        product = poly_mul(product, coefficients)
    assert product == [1] + [0] * (n - 1) + [-1]
    assert result["cyclotomic"] == result["factors"][-1]["polynomial"]
    import mpmath
    mpmath.mp.dps = 50
    phi = result["cyclotomic"]["coefficients"]
    for k in (k for k in range(1, n + 1) if math.gcd(k, n) == 1):
        assert abs(mpmath.polyval(phi, mpmath.exp(2j * mpmath.pi * k / n))) < 1e-40


def test_known_answers():
    result = cyclotomic(12)
    assert result["cyclotomic"] == {"variable": "x", "coefficients": [1, 0, -1, 0, 1]}
    assert [f["polynomial"]["coefficients"] for f in result["factors"]] == [
        [1, -1], [1, 1], [1, 1, 1], [1, 0, 1], [1, -1, 1], [1, 0, -1, 0, 1]]
    check(12, result)
    assert cyclotomic(7)["cyclotomic"]["coefficients"] == [1] * 7


def test_degenerate_n():
    assert cyclotomic(1) == {"n": 1, "cyclotomic": {"variable": "x", "coefficients": [1, -1]},
                             "factors": [{"d": 1, "polynomial": {"variable": "x",
                                                                 "coefficients": [1, -1]}}]}
    assert cyclotomic(2)["cyclotomic"]["coefficients"] == [1, 1]
    check(2, cyclotomic(2))
    assert run(ID, {"n": 3, "variable": "t"})["cyclotomic"]["variable"] == "t"


def test_adversarial_phi_105_has_a_coefficient_minus_two():
    result = cyclotomic(105)
    coefficients = result["cyclotomic"]["coefficients"]
    assert -2 in coefficients and len(coefficients) == 49
    check(105, result)
    # x^105 - 1 has 8 irreducible factors over Q; Phi_1155's height is 3
    assert len(result["factors"]) == 8
    assert max(abs(c) for c in cyclotomic(1155)["cyclotomic"]["coefficients"]) == 3


def test_invariants_on_many_shapes():
    for n in (8, 9, 16, 30, 36, 60, 64, 77, 81, 97, 210):
        check(n, cyclotomic(n))


def test_request_boundary():
    result = cyclotomic(1680)  # 40 divisors, the most below 2000
    assert len(result["factors"]) == 40
    assert sum(len(f["polynomial"]["coefficients"]) - 1 for f in result["factors"]) == 1680
    assert len(cyclotomic(2000)["factors"]) == 20
    assert rejected(ID, {"n": 0}) == ["greater_than_equal"]
    assert rejected(ID, {"n": 2001}) == ["less_than_equal"]
    assert rejected(ID, {"n": "12"}) == ["int_type"]
    assert rejected(ID, {"n": 12.0}) == ["int_type"]
    assert rejected(ID, {"n": 5, "variable": "1x"}) != []
    assert rejected(ID, {"n": 5, "extra": 1}) == ["extra_forbidden"]
