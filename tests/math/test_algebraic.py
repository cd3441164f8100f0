"""Preflight of nt.algebraic.minimal_polynomial: known minimal polynomials (sqrt 2 + sqrt 3,
the golden ratio, cos(2 pi/7), a principal cube root of -8), the degenerate rational and zero
cases and division by zero, the adversarial cases where the static degree bound overshoots
(sqrt(2)^2, (a^(1/4) + b^(1/4))^12) or the principal branch matters, and the invariants
checked independently: the polynomial vanishes at the number evaluated by mpmath from the
text at 80 digits, it is irreducible (sympy's factor_list, a different route from the
resultant composition), and it agrees with sympy's own minimal_polynomial on small cases."""

from __future__ import annotations

import ast
import operator
from fractions import Fraction

from math_support import rejected, run

ID = "nt.algebraic.minimal_polynomial"


def minpoly(text: str) -> dict:
    return run(ID, {"number": text})


def numeric(text: str):
    """The number from its text by mpmath alone (principal powers)."""
    import mpmath
    names = {"sqrt": mpmath.sqrt, "cbrt": lambda a: mpmath.power(mpmath.mpc(a), mpmath.mpf(1) / 3),
             "cos": mpmath.cos, "sin": mpmath.sin, "pi": mpmath.pi, "I": mpmath.mpc(0, 1)}

    def ev(node):
        if isinstance(node, ast.Constant):
            return mpmath.mpf(node.value)
        if isinstance(node, ast.Name):
            return names[node.id]
        if isinstance(node, ast.UnaryOp):
            return -ev(node.operand)
        if isinstance(node, ast.Call):
            return names[node.func.id](ev(node.args[0]))
        a, b = ev(node.left), ev(node.right)
        op = type(node.op).__name__
        if op == "Pow":
            return mpmath.power(mpmath.mpc(a), b)
        return {"Add": operator.add, "Sub": operator.sub, "Mult": operator.mul,
                "Div": operator.truediv}[op](a, b)  # only the node's own operation (0 * x)
    return ev(ast.parse(text.replace("^", "**"), mode="eval").body)


def check(text: str, result: dict) -> None:
    import mpmath
    from sympy import Poly, Symbol
    cs = result["minimal_polynomial"]["coefficients"]
    with mpmath.workdps(80):
        value = numeric(text)
        size = sum(abs(c) for c in cs) * max(1, abs(value)) ** (len(cs) - 1)
        assert abs(mpmath.polyval(cs, value)) / size < mpmath.mpf(10) ** -60
        approx = mpmath.mpc(complex(result["approx"].replace(" ", "").replace("*I", "j")))
        assert abs(approx - value) <= mpmath.mpf(10) ** -15 * max(1, abs(value)), text
    x = Symbol("x")
    _, factors = Poly(cs, x).factor_list()
    assert len(factors) == 1 and factors[0][1] == 1 and cs[0] > 0
    d = len(cs) - 1
    assert result["degree"] == d
    assert Fraction(result["trace"]) == Fraction(-cs[1], cs[0])
    assert Fraction(result["norm"]) == Fraction((-1) ** d * cs[-1], cs[0])


def test_known_minimal_polynomials():
    cases = {"sqrt(2) + sqrt(3)": [1, 0, -10, 0, 1], "(1 + sqrt(5))/2": [1, -1, -1],
             "cos(2*pi/7)": [8, 4, -4, -1], "(-8)^(1/3)": [1, -2, 4], "I": [1, 0, 1],
             "2^(1/3) + 3^(1/2)": [1, 0, -9, -4, 27, -36, -23], "sin(pi/3)": [4, 0, -3]}
    for text, expected in cases.items():
        result = minpoly(text)
        assert result["minimal_polynomial"]["coefficients"] == expected, text
        check(text, result)
    golden = minpoly("(1 + sqrt(5))/2")
    assert (golden["trace"], golden["norm"], golden["value"]) == ("1", "-1", None)


def test_rational_zero_and_undefined():
    assert minpoly("3/4") == {"status": "algebraic", "minimal_polynomial": {
        "variable": "x", "coefficients": [4, -3]}, "degree": 1, "trace": "3/4", "norm": "3/4",
        "value": "3/4", "approx": "0.75"}
    assert minpoly("sqrt(2)*sqrt(2) - 2")["value"] == "0"
    assert minpoly("0^(1/2)")["value"] == "0"
    for text in ("1/(sqrt(2) - sqrt(2))", "(sqrt(3)^2 - 3)^(-1)"):
        assert minpoly(text)["status"] == "undefined"


def test_adversarial_degree_drops_and_principal_branches():
    # the static bound is 16, the true degree 4: x -> i x permutes the conjugates
    drop = "(2^(1/4) + 3^(1/4))^12"
    result = minpoly(drop)
    assert result["degree"] == 4
    check(drop, result)
    # (sqrt(2)^2 - 10)^(1/2) = i sqrt(8): the base is exactly real and negative, so the
    # principal root is on the positive imaginary axis, whatever rounding says
    branch = minpoly("(sqrt(2)*sqrt(2) - 10)^(1/2)")
    assert branch["minimal_polynomial"]["coefficients"] == [1, 0, 8]
    assert branch["approx"].startswith("0 + 2.828")
    # cube roots: the principal cube root of -8 is not -2
    assert minpoly("cbrt(-8)")["minimal_polynomial"]["coefficients"] == [1, -2, 4]


def test_negative_parts_and_negative_powers_on_the_branch_cut():
    """The decimal keeps its sign, and a^(-p/q) of a negative a is the principal
    exp(-(p/q) Log a) = 1/(a^(1/q))^p, never (1/a)^(1/q) (the other side of the cut)."""
    cases = {
        "-sqrt(2)": ([1, 0, -2], "-1.4142135623730950"),
        "-cos(pi/5)": ([4, 2, -1], "-0.80901699437494742"),
        "(-2)^(-1/2)": ([2, 0, 1], "0 - 0.70710678118654752*I"),
        "(-8)^(-1/3)": ([4, -2, 1], "0.25000000000000000 - 0.43301270189221932*I"),
        "(-4)^(-3/2)": ([64, 0, 1], "0 + 0.125*I"),
        # sqrt(-2) * (-2)^(-1/2) = (i sqrt 2)(-i / sqrt 2) = 1
        "sqrt(-2) * (-2)^(-2/4) + 7^(-2/2)": ([7, -8], "1.1428571428571429"),
    }
    for text, (coefficients, approx) in cases.items():
        result = minpoly(text)
        assert (result["minimal_polynomial"]["coefficients"], result["approx"]) == \
            (coefficients, approx), text
        check(text, result)


def test_agrees_with_sympy_minimal_polynomial_on_small_cases():
    from sympy import I, Rational, Symbol, cos, minimal_polynomial, pi, sqrt, Poly
    x = Symbol("x")
    cases = {"sqrt(2) + sqrt(3) + sqrt(5)": sqrt(2) + sqrt(3) + sqrt(5),
             "cos(2*pi/17)": cos(2 * pi / 17), "sqrt(2)*I + 5^(1/3)": sqrt(2) * I + Rational(5) ** Rational(1, 3),
             "1/(1 + sqrt(2) + sqrt(3))": 1 / (1 + sqrt(2) + sqrt(3))}
    for text, expr in cases.items():
        expected = Poly(minimal_polynomial(expr, x), x).all_coeffs()
        expected = [int(c) * (1 if expected[0] > 0 else -1) for c in expected]
        result = minpoly(text)
        assert result["minimal_polynomial"]["coefficients"] == expected, text
        check(text, result)


def test_request_boundary():
    top = "sqrt(999999999989) + sqrt(999999999959) + sqrt(999999999961) + sqrt(999999999943)"
    result = minpoly(top)
    assert result["degree"] == 16
    check(top, result)
    assert rejected(ID, {"number": top + " + sqrt(2)"}) == ["algebraic_degree_too_large"]
    assert rejected(ID, {"number": "(999999999989^(1/16) * 999999999959)^16"}) == [
        "algebraic_height_too_large"]  # static height 16 (12 + 16 * 12) = 3264 > 3000
    # just inside: height 16 * 160 + 12 = 2572, and the coefficients have 2572 digits
    tall = minpoly("9999999999^16 * 999999999999^(1/16)")
    assert max(len(str(abs(c))) for c in tall["minimal_polynomial"]["coefficients"]) <= 2577
    for text in ("x + 1", "__import__('os')", "0.5", "2^x", "sqrt(2, 3)", "2**(1/17)",
                 "1000000000000", "cos(2)", "1/0", "", "sqrt(2).real"):
        assert rejected(ID, {"number": text}) == ["algebraic_syntax"], text
    assert rejected(ID, {"number": "1" * 401}) == ["string_too_long"]
    assert rejected(ID, {"number": 2}) == ["string_type"]
