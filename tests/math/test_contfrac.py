"""Preflight of nt.continued_fraction.expand: known expansions, degenerate numbers, the float
expansion that drifts, the exact value recomputed from the returned terms, and the request
boundary."""

from __future__ import annotations

import random
from fractions import Fraction

import sympy

from math_support import rejected, run

ID = "nt.continued_fraction.expand"


def cf(**payload) -> dict:
    return run(ID, payload)


def finite_value(terms) -> Fraction:
    value = Fraction(terms[-1])
    for t in reversed(terms[:-1]):
        value = t + 1 / value
    return value


def periodic_value(preperiod, period):
    """The exact value of [preperiod; (period)] as a sympy surd, independent of the library:
    y = [period] solves q y^2 + (q' - p) y - p' = 0 from the period's convergent matrix."""
    p, pp, q, qp = 1, 0, 0, 1
    for t in period:
        p, pp, q, qp = t * p + pp, p, t * q + qp, q
    y = (p - qp + sympy.sqrt((qp - p) ** 2 + 4 * q * pp)) / (2 * q)  # the root > 1
    for t in reversed(preperiod):
        y = t + 1 / y
    return y


def check_periodic(a, b, c, d, result) -> None:
    assert result["kind"] == "periodic" and result["period"]
    assert all(t >= 1 for t in result["preperiod"][1:] + result["period"])
    target = (a + b * sympy.sqrt(d)) / c
    assert sympy.simplify(periodic_value(result["preperiod"], result["period"]) - target) == 0
    # the period is the shortest one: no proper divisor length repeats it
    k = len(result["period"])
    assert not any(k % j == 0 and result["period"] == result["period"][:j] * (k // j)
                   for j in range(1, k))


def test_known_expansions():
    assert cf(a=0, b=1, c=1, d=7) == {"kind": "periodic", "preperiod": [2],
                                      "period": [1, 1, 1, 4]}
    assert cf(a=1, b=1, c=2, d=5) == {"kind": "periodic", "preperiod": [], "period": [1]}
    assert cf(a=415, c=93) == {"kind": "finite", "terms": [4, 2, 6, 7]}
    assert cf(a=0, b=1, c=1, d=2)["period"] == [2]


def test_degenerate_numbers():
    assert cf(a=0, c=5) == {"kind": "finite", "terms": [0]}
    assert cf(a=-7, c=1) == {"kind": "finite", "terms": [-7]}
    assert cf(a=6, c=4) == {"kind": "finite", "terms": [1, 2]}  # not reduced: still 3/2
    assert cf(a=-415, c=93)["terms"] == [-5, 1, 1, 6, 7]
    assert cf(a=1, c=-2)["terms"] == [-1, 2]
    assert cf(a=1, b=2, c=1, d=4) == {"kind": "finite", "terms": [5]}  # sqrt(4) is rational
    assert cf(a=3, b=5, c=2, d=0) == {"kind": "finite", "terms": [1, 2]}
    result = cf(a=1, b=-1, c=2, d=5)  # the conjugate golden ratio, negative
    assert result == {"kind": "periodic", "preperiod": [-1, 2], "period": [1]}
    check_periodic(1, -1, 2, 5, result)


def test_adversarial_float_expansion_drifts():
    # The float expansion of sqrt(94) is wrong after a few periods; the exact one repeats.
    exact = cf(a=0, b=1, c=1, d=94)
    x, float_terms = 94 ** 0.5, []
    for _ in range(40):
        t = int(x // 1)
        float_terms.append(t)
        x = 1 / (x - t)
    expected = exact["preperiod"] + exact["period"] * 3
    assert float_terms[:len(expected)] != expected
    check_periodic(0, 1, 1, 94, exact)
    assert len(exact["period"]) == 16


def test_values_recomputed_from_terms():
    rng = random.Random(9)
    for _ in range(20):
        p, q = rng.randrange(-10**40, 10**40), rng.randrange(1, 10**30)
        terms = cf(a=str(p), c=str(q))["terms"]
        assert finite_value(terms) == Fraction(p, q)
        assert len(terms) == 1 or terms[-1] >= 2
    for _ in range(8):
        a, b, c, d = rng.randrange(-50, 50), rng.choice([-3, -1, 1, 2]), rng.choice(
            [-7, -2, 1, 3, 10]), rng.randrange(2, 1000)
        if int(d ** 0.5) ** 2 != d:
            check_periodic(a, b, c, d, cf(a=a, b=b, c=c, d=d))


def test_request_boundary():
    result = cf(a=0, b=1, c=1, d=999331)  # the longest period measured below the bound
    assert len(result["period"]) == 2006
    check_periodic(0, 1, 1, 999331, result)
    big = cf(a=str(10**999), c=str(10**999 - 1))
    assert finite_value(big["terms"]) == Fraction(10**999, 10**999 - 1)
    assert rejected(ID, {"a": 0, "b": 1, "c": 1, "d": 10**6 + 1}) == ["less_than_equal"]
    assert rejected(ID, {"a": 0, "b": 2, "c": 1, "d": 250001}) == ["quadratic_range"]
    assert rejected(ID, {"a": 0, "b": 1, "c": 1001, "d": 2}) == ["quadratic_range"]
    assert rejected(ID, {"a": 1, "c": 0}) == ["quadratic_range"]
    assert rejected(ID, {"a": "1" + "0" * 1000, "c": 1}) == ["integer_text"]
    assert rejected(ID, {"a": 0.5, "c": 1}) == ["integer_type"]
    assert rejected(ID, {"a": 1}) == ["missing"]
