"""Preflight of calculus.integrate.rational (MATH.md §5.4, §9.2).

The witness is the derivative: F' - f must cancel to 0 exactly, where the logarithmic part
is differentiated as a sum over the roots of R (sympy's RootSum), independently of the
Hermite / Lazard-Rioboo-Trager code that produced F.
"""

from __future__ import annotations

import random
import time
from fractions import Fraction

from math_support import rejected, run, wire


def P(coefficients, variable="x") -> dict:
    return {"variable": variable, "coefficients": wire(coefficients)}


def integrate(num, den, variable="x") -> dict:
    return run("calculus.integrate.rational", {"numerator": P(num, variable),
                                               "denominator": P(den, variable)})


def _expr(coefficients, var):
    from sympy import Rational
    n = len(coefficients)
    return sum(Rational(str(c)) * var ** (n - 1 - k) for k, c in enumerate(coefficients))


def check_derivative(num, den, result, variable="x") -> None:
    from sympy import Dummy, Lambda, Poly, RootSum, Symbol, cancel, diff
    x, t = Symbol(variable), Dummy("t")
    part = result["rational_part"]
    derivative = diff(_expr(part["numerator"]["coefficients"], x)
                      / _expr(part["denominator"]["coefficients"], x), x)
    for term in result["log_terms"]:
        assert term["R"]["variable"] == ("u" if variable == "t" else "t")
        R = Poly(_expr(term["R"]["coefficients"], t), t)
        xs = term["S"]["coefficients"]
        S = sum(_expr(c["coefficients"], t) * x ** (len(xs) - 1 - k) for k, c in enumerate(xs))
        # d/dx of the sum over {t : R(t) = 0} of t log S(t, x) is the root sum of t S_x / S
        derivative += RootSum(R, Lambda(t, t * diff(S, x) / S))
    assert cancel(derivative - _expr(num, x) / _expr(den, x)) == 0


def test_known_answers():
    cube = integrate([1], [1, 0, 0, 0])
    assert cube == {"rational_part": {"numerator": {"variable": "x", "coefficients": ["-1/2"]},
                                      "denominator": {"variable": "x",
                                                      "coefficients": ["1", "0", "0"]}},
                    "log_terms": []}
    arctan = integrate([1], [1, 0, 1])
    assert arctan["rational_part"]["numerator"]["coefficients"] == []
    assert arctan["log_terms"] == [{"R": {"variable": "t", "coefficients": [4, 0, 1]},
                                    "S": {"variable": "x", "coefficients": [
                                        {"variable": "t", "coefficients": ["1"]},
                                        {"variable": "t", "coefficients": ["2", "0"]}]}}]
    check_derivative([1], [1, 0, 0, 0], cube)
    check_derivative([1], [1, 0, 1], arctan)


def test_boundaries():
    zero = integrate([], [1, 2])
    assert zero["rational_part"]["numerator"]["coefficients"] == [] and zero["log_terms"] == []
    assert zero["rational_part"]["denominator"]["coefficients"] == ["1"]
    polynomial = integrate([3, 0, 1], [2])
    assert polynomial["rational_part"]["numerator"]["coefficients"] == ["1/2", "0", "1/2", "0"]
    assert polynomial["rational_part"]["denominator"]["coefficients"] == ["1"]
    log = integrate([1, -1], [1, -2, 1])  # (x-1)/(x-1)^2 = 1/(x-1)
    assert log["log_terms"] == [{"R": {"variable": "t", "coefficients": [1, -1]},
                                 "S": {"variable": "x", "coefficients": [
                                     {"variable": "t", "coefficients": ["1"]},
                                     {"variable": "t", "coefficients": ["-1"]}]}}]
    check_derivative([1, -1], [1, -2, 1], log)
    in_t = integrate([1], [1, 0, -2], variable="t")
    check_derivative([1], [1, 0, -2], in_t, variable="t")


def test_adversarial_denominator_with_a_cubic_factor_returns_fast():
    # sympy's general integrate did not finish in 10 minutes on this input (MATH.md §3.1.5)
    started = time.perf_counter()
    result = integrate([1], [1, 0, 0, 0, 1, 1])
    assert time.perf_counter() - started < 5
    assert result["log_terms"] and result["rational_part"]["numerator"]["coefficients"] == []
    check_derivative([1], [1, 0, 0, 0, 1, 1], result)


def test_invariant_on_random_rational_functions():
    rng = random.Random(71)
    for _ in range(4):
        num = [Fraction(rng.randrange(-20, 21), rng.randrange(1, 9)) for _ in range(rng.randrange(1, 6))]
        den = [1] + [rng.randrange(-9, 10) for _ in range(rng.randrange(1, 6))]
        num[0] = num[0] or Fraction(1)
        check_derivative(num, den, integrate(num, den))
    repeated = [1, -4, 6, -4, 1]  # (x-1)^4: Hermite reduction does the work
    check_derivative([1, 0, 0], repeated, integrate([1, 0, 0], repeated))


def test_request_boundary():
    rng = random.Random(73)
    num = [str(Fraction(rng.randrange(10**5, 10**6), rng.randrange(2, 1000))) for _ in range(9)]
    den = [rng.randrange(1, 10**6)] + [rng.randrange(-10**6 + 1, 10**6) for _ in range(8)]
    result = run("calculus.integrate.rational", {"numerator": {"variable": "x",
                                                               "coefficients": num},
                                                 "denominator": {"variable": "x",
                                                                 "coefficients": den}})
    assert len(result["log_terms"]) <= 8
    assert rejected("calculus.integrate.rational", {"numerator": P([1]), "denominator": P([])}
                    ) == ["denominator_zero"]
    assert rejected("calculus.integrate.rational", {"numerator": P([1]),
                                                    "denominator": P([1, 0], "y")}) == [
        "variable_mismatch"]
    assert rejected("calculus.integrate.rational", {"numerator": P([1]),
                                                    "denominator": P([1] * 10)}) == ["too_long"]
