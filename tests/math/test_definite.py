"""Preflight of calculus.integrate.definite: exact values with the antiderivative used, the
divergent outcome with an isolated pole, and the cases a weaker method gets wrong (a pole that
cancels, an arctan antiderivative that jumps, a pole at an endpoint). Every result is
re-checked by math_support.check_definite: F' = f exactly, and the closed form against
mpmath's quadrature."""

from __future__ import annotations

import math
from fractions import Fraction

from math_support import check_definite, rejected, run, wire

ID = "calculus.integrate.definite"


def integral(num, den, lower, upper, variable="x") -> tuple[dict, dict]:
    payload = {"numerator": {"variable": variable, "coefficients": wire(num)},
               "denominator": {"variable": variable, "coefficients": wire(den)},
               "lower": str(Fraction(lower)), "upper": str(Fraction(upper))}
    result = run(ID, payload)
    check_definite(payload, result)
    return payload, result


def approx(result) -> float:
    return float(result["approx"])


def test_known_answers():
    _, arctan = integral([1], [1, 0, 1], 0, 1)  # pi/4
    assert arctan["rational"] == "0"
    assert arctan["log_terms"] == [{"factor": {"variable": "x", "coefficients": [1, 0, 1]},
                                    "residue": {"variable": "x", "coefficients": ["-1/2", "0"]}}]
    assert math.isclose(approx(arctan), math.pi / 4, rel_tol=1e-15)
    _, log2 = integral([1], [1, 1], 0, 1)  # log 2: one term, residue 1 at -1
    assert log2["log_terms"] == [{"factor": {"variable": "x", "coefficients": [1, 1]},
                                  "residue": {"variable": "x", "coefficients": ["1"]}}]
    assert math.isclose(approx(log2), math.log(2), rel_tol=1e-15)
    _, rational = integral([1], [1, 0, 0], 1, 2)  # 1/x^2 from 1 to 2 = 1/2, no logarithm
    assert rational["rational"] == "1/2" and rational["log_terms"] == []


def test_degenerate_inputs():
    _, polynomial = integral([1, 0, 0], [1], 0, 3)  # x^2 from 0 to 3
    assert polynomial["rational"] == "9" and polynomial["log_terms"] == []
    _, zero = integral([], [1, 0, 1], -5, 7)
    assert zero["rational"] == "0" and zero["approx"] == "0.0"
    _, empty = integral([1], [1, 0], 2, 2)  # an empty interval
    assert empty["rational"] == "0" and empty["log_terms"] == []
    _, reversed_ = integral([1], [1, 1], 1, 0)  # the orientation counts
    assert math.isclose(approx(reversed_), -math.log(2), rel_tol=1e-15)
    _, t_variable = integral([1], [1, 0, 1], 0, 1, variable="t")
    assert t_variable["antiderivative"]["log_terms"][0]["factor"]["variable"] == "t"


def test_adversarial_branches_poles_and_cancellation():
    # (x^2 + 1)/(x^4 + 1) over [-1, 1] is pi/sqrt(2); the textbook antiderivative
    # atan((x^2 - 1)/(sqrt(2) x))/sqrt(2) jumps at 0 and gives a wrong value there.
    _, jump = integral([1, 0, 1], [1, 0, 0, 0, 1], -1, 1)
    assert math.isclose(approx(jump), math.pi / math.sqrt(2), rel_tol=1e-14)
    # (x - 1)/(x^2 - 1) = 1/(x + 1): the zero of the unreduced denominator is no pole
    _, cancelled = integral([1, -1], [1, 0, -1], 0, 2)
    assert cancelled["status"] == "value"
    assert math.isclose(approx(cancelled), math.log(3), rel_tol=1e-15)
    # a pole at an endpoint diverges (F(1) - F(0) = log 1 - log 0 is no number)
    _, endpoint = integral([1], [1, 0], 0, 1)
    assert endpoint == {"status": "divergent", "pole": {"variable": "x", "coefficients": [1, 0]},
                        "interval": ["0", "0"]}
    # an irrational pole inside: isolated exactly
    _, inside = integral([1], [1, 0, -2], 0, 2)
    assert inside["status"] == "divergent"
    assert inside["pole"]["coefficients"] == [1, 0, -2]
    # a pole just outside is fine: 1/(x - 1) over [0, 99/100] = log(1/100)
    _, outside = integral([1], [1, -1], 0, "99/100")
    assert math.isclose(approx(outside), math.log(0.01), rel_tol=1e-14)


def test_invariants_on_many_shapes():
    cases = [([3, -1, 2], [1, 2, 0, 5, 1], "-1/2", 3), ([1, 0, 0, 0, 0], [1, 0, 0, 0, 0, 1, 1], -1, 1),
             ([2, 1], [1, 0, 2, 0, 1], 0, 10), ([1], [1, 0, 0, 0, 0, 0, 0, 0, 1], 0, "1/2"),
             ([5, 0, 1], [1, -3, 3, -1], 2, 4), ([1, 2, 3], [4, 0, 0, 1, 0, 2], 1, 2)]
    for num, den, a, b in cases:
        integral(num, den, a, b)


def test_request_boundary():
    big = [999999] + [-999999] * 8  # degree 8, the largest coefficients
    den = ["1/999"] + [0] * 7 + [1]
    payload, result = integral(big, den, "-999999/998", "999999/997")
    assert result["status"] in ("value", "divergent")
    good = {"numerator": {"variable": "x", "coefficients": [1]},
            "denominator": {"variable": "x", "coefficients": [1, 0, 1]}, "lower": 0, "upper": 1}
    assert rejected(ID, {**good, "lower": 0.5}) == ["rational_type"]
    assert rejected(ID, {**good, "upper": "1000000"}) == ["rational_out_of_range"]
    assert rejected(ID, {k: v for k, v in good.items() if k != "upper"}) == ["missing"]
    assert rejected(ID, {**good, "denominator": {"variable": "x", "coefficients": []}}) == [
        "denominator_zero"]
    assert rejected(ID, {**good, "denominator": {"variable": "y", "coefficients": [1]}}) == [
        "variable_mismatch"]
    assert rejected(ID, {**good, "numerator": {"variable": "x", "coefficients": [1] * 10}}) == [
        "too_long"]
