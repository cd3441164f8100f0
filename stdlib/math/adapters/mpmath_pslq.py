"""Private adapter: real constants evaluated by mpmath and PSLQ (`mpmath.pslq`) on them.

mpmath's `pslq` returns None for three different reasons (a value too small, the step budget,
or a lower bound on the norm of every relation reaching `maxcoeff`); only its verbose report
tells them apart, so the report is captured and read here: the last "Norm bound: N" line is
PSLQ's lower bound (Ferguson-Bailey: 1/max |H_jj|, with mpmath's safety factor 100) on the
Euclidean norm of any integer relation at the working precision.
"""

from __future__ import annotations

import contextlib
import io
import re

import mpmath

_CONSTANTS = {"pi": lambda: mpmath.pi, "e": lambda: mpmath.e, "euler": lambda: mpmath.euler,
              "catalan": lambda: mpmath.catalan}
_FUNCTIONS = {"exp": mpmath.exp, "log": mpmath.log, "sqrt": mpmath.sqrt, "sin": mpmath.sin,
              "cos": mpmath.cos, "tan": mpmath.tan, "atan": mpmath.atan, "asin": mpmath.asin,
              "acos": mpmath.acos, "sinh": mpmath.sinh, "cosh": mpmath.cosh,
              "tanh": mpmath.tanh, "asinh": mpmath.asinh, "atanh": mpmath.atanh,
              "zeta": mpmath.zeta, "gamma": mpmath.gamma}


class Undefined(ValueError):
    """The value is not a finite real number (a pole, a logarithm of 0, a complex value)."""


def evaluate(tree: tuple, digits: int):
    """The value of a constant expression tree at `digits` significant digits (an mpf)."""
    with mpmath.workdps(digits + 10):
        value = _value(tree)
        if not isinstance(value, mpmath.mpf) or not mpmath.isfinite(value):
            raise Undefined("not a finite real number")
        return +value


def _value(tree: tuple):
    kind = tree[0]
    if kind == "num":
        return mpmath.mpf(tree[1].numerator) / tree[1].denominator
    if kind == "const":
        return +_CONSTANTS[tree[1]]()
    if kind == "neg":
        return -_value(tree[1])
    if kind == "pow":
        base, e = _value(tree[1]), tree[2]
        if base == 0 and e <= 0:
            raise Undefined("0 to a power <= 0")
        if base < 0 and e.denominator != 1:
            raise Undefined("a fractional power of a negative number is not real")
        return base ** (mpmath.mpf(e.numerator) / e.denominator) if e.denominator != 1 \
            else base ** e.numerator
    if kind == "call":
        argument = _value(tree[2])
        try:
            value = _FUNCTIONS[tree[1]](argument)
        except (ValueError, ZeroDivisionError) as error:
            raise Undefined(f"{tree[1]} is undefined there ({error})") from None
        if not isinstance(value, mpmath.mpf):
            raise Undefined(f"{tree[1]} of that argument is not real")
        return value
    a, b = _value(tree[1]), _value(tree[2])
    if kind == "div" and b == 0:
        raise Undefined("division by zero")
    return {"add": lambda: a + b, "sub": lambda: a - b, "mul": lambda: a * b,
            "div": lambda: a / b}[kind]()


def pslq(values: list, digits: int, bound: int, steps: int) -> tuple[list[int] | None, int | None]:
    """(relation, norm_bound): a relation with max |m_i| <= bound found at `digits` digits, or
    None with PSLQ's lower bound on the Euclidean norm of every relation (None when mpmath
    stopped before computing one)."""
    report = io.StringIO()
    with mpmath.workdps(digits), contextlib.redirect_stdout(report):
        relation = mpmath.pslq(values, tol=mpmath.mpf(10) ** (-(digits * 9 // 10)),
                               maxcoeff=bound + 1, maxsteps=steps, verbose=True)
    if relation is not None:
        return [int(v) for v in relation], None
    found = re.findall(r"Norm bound: (\d+)", report.getvalue())
    return None, int(found[-1]) if found else None


def residual(relation: list[int], values: list, digits: int) -> tuple[str, int]:
    """(|sum m_i x_i| as 5-digit text, the number of leading zero decimals it has)."""
    with mpmath.workdps(digits):
        total = abs(mpmath.fsum(m * x for m, x in zip(relation, values)))
        zeros = digits if total == 0 else max(0, int(-mpmath.floor(mpmath.log10(total))) - 1)
        return mpmath.nstr(total, 5), zeros
