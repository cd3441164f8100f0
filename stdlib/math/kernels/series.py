"""The kernel of `calculus.series.expand` (declared in domains/series.py, which explains the
method): exact truncated power series over Q, bottom-up over the expression's tree, with a
working order that grows by what divisions lose."""

from __future__ import annotations

from fractions import Fraction

from ..domains import expression

MAX_ORDER = 30
MAX_WORKING = 3 * MAX_ORDER + 12


def expression_problem(self):
    """The expression text parses in the grammar of domains/expression.py."""
    try:
        expression.parse(self.expression, (self.variable,))
    except expression.ExpressionError as error:
        return ("expression_grammar", str(error), ("expression",))
    return None


class _Stop(Exception):
    def __init__(self, reason: str, tree: tuple):
        super().__init__(reason)
        self.reason, self.tree = reason, tree


class _Series:
    """Coefficients c[k - lo] of x^k for lo <= k < hi = lo + len(c): all that is known."""

    __slots__ = ("lo", "c")

    def __init__(self, lo: int, c: list[Fraction]):
        self.lo, self.c = lo, c

    @property
    def hi(self) -> int:
        return self.lo + len(self.c)

    def at(self, k: int) -> Fraction:
        return self.c[k - self.lo] if self.lo <= k < self.hi else Fraction(0)

    def valuation(self) -> int | None:
        return next((self.lo + i for i, v in enumerate(self.c) if v), None)

    def low(self) -> int:
        """The lowest exponent that may be nonzero: the valuation, or hi when none is known."""
        v = self.valuation()
        return self.hi if v is None else v


def _exact(value: Fraction, cap: int, shift: int = 0) -> _Series:
    return _Series(0, [value if k == shift else Fraction(0) for k in range(max(cap, 0))])


def _add(f: _Series, g: _Series, sign: int = 1) -> _Series:
    lo, hi = min(f.lo, g.lo), min(f.hi, g.hi)
    return _Series(lo, [f.at(k) + sign * g.at(k) for k in range(lo, hi)])


def _mul(f: _Series, g: _Series) -> _Series:
    vf, vg = f.low(), g.low()
    lo, hi = vf + vg, min(f.hi + vg, g.hi + vf)
    out = []
    for k in range(lo, hi):
        total = Fraction(0)
        for i in range(vf, k - vg + 1):
            a = f.at(i)
            if a:
                total += a * g.at(k - i)
        out.append(total)
    return _Series(lo, out)


def _unit(g: _Series, tree: tuple) -> tuple[int, list[Fraction]]:
    """(v, u) with g = x^v (u_0 + u_1 x + ...), u_0 != 0, u known to relative order len(u)."""
    v = g.valuation()
    if v is None:
        raise _Stop("denominator_vanishes", tree)
    return v, g.c[v - g.lo:]


def _reciprocal(u: list[Fraction]) -> list[Fraction]:
    out = [1 / u[0]]
    for n in range(1, len(u)):
        out.append(-sum((u[k] * out[n - k] for k in range(1, n + 1)), Fraction(0)) / u[0])
    return out


def _power_of_unit(u: list[Fraction], alpha: Fraction) -> list[Fraction]:
    """(1 + u_1 x + ...)^alpha for u_0 = 1: n f_n = sum_k (alpha k - (n - k)) u_k f_(n-k)."""
    out = [Fraction(1)]
    for n in range(1, len(u)):
        out.append(sum(((alpha * k - (n - k)) * u[k] * out[n - k] for k in range(1, n + 1)),
                       Fraction(0)) / n)
    return out


def _root(c: Fraction, alpha: Fraction) -> Fraction | None:
    """c^alpha when it is rational (c > 0), else None."""
    if c <= 0:
        return None
    q, p = alpha.denominator, alpha.numerator

    def iroot(n: int) -> int | None:
        r = round(n ** (1 / q)) if n < 2**1000 else int(n ** (1 / q))
        for guess in (r - 1, r, r + 1):
            if guess >= 0 and guess ** q == n:
                return guess
        return None
    num, den = iroot(c.numerator), iroot(c.denominator)
    if num is None or den is None:
        return None
    return Fraction(num, den) ** p


def _integrate(derivative: list[Fraction], constant: Fraction) -> list[Fraction]:
    return [constant] + [d / (k + 1) for k, d in enumerate(derivative)]


def _derivative(u: list[Fraction]) -> list[Fraction]:
    return [k * u[k] for k in range(1, len(u))]


def _times(a: list[Fraction], b: list[Fraction]) -> list[Fraction]:
    n = min(len(a), len(b))
    return [sum((a[i] * b[k - i] for i in range(k + 1)), Fraction(0)) for k in range(n)]


def _function(name: str, g: _Series, tree: tuple) -> _Series:
    if name in ("zeta", "gamma"):
        raise _Stop("unsupported_function", tree)
    v = g.valuation()
    if v is not None and v < 0:
        raise _Stop("logarithmic_singularity" if name == "log" else "essential_singularity",
                    tree)
    u = [g.at(k) for k in range(0, g.hi)]  # g from x^0, known to order hi
    if not u:
        raise _Stop("denominator_vanishes", tree)
    if name == "sqrt":
        return _pow(g, Fraction(1, 2), tree)
    if name == "log":
        if u[0] == 0:
            raise _Stop("logarithmic_singularity", tree)
        if u[0] != 1:
            raise _Stop("irrational_coefficients", tree)
        return _Series(0, _integrate(_times(_derivative(u), _reciprocal(u)), Fraction(0)))
    if u[0] != 0 or name == "acos":
        raise _Stop("irrational_coefficients", tree)
    n = len(u)
    dg = _derivative(u)
    if name in ("exp", "sin", "cos", "sinh", "cosh", "tan", "tanh"):
        sign = -1 if name in ("sin", "cos", "tan") else 1
        if name == "exp":
            f = [Fraction(1)]
            for m in range(1, n):
                f.append(sum((k * u[k] * f[m - k] for k in range(1, m + 1)), Fraction(0)) / m)
            return _Series(0, f)
        s, c = [Fraction(0)], [Fraction(1)]
        for m in range(1, n):
            s.append(sum((k * u[k] * c[m - k] for k in range(1, m + 1)), Fraction(0)) / m)
            c.append(sign * sum((k * u[k] * s[m - k] for k in range(1, m + 1)), Fraction(0)) / m)
        if name in ("sin", "sinh"):
            return _Series(0, s)
        if name in ("cos", "cosh"):
            return _Series(0, c)
        return _Series(0, _times(s, _reciprocal(c)))
    square = _times(u, u)
    if name in ("atan", "atanh"):
        inner = [Fraction(int(k == 0)) + (1 if name == "atan" else -1) * square[k]
                 for k in range(n)]
        return _Series(0, _integrate(_times(dg, _reciprocal(inner))[:n - 1], Fraction(0)))
    # asin: g'/sqrt(1 - g^2); asinh: g'/sqrt(1 + g^2)
    inner = [Fraction(int(k == 0)) + (-1 if name == "asin" else 1) * square[k] for k in range(n)]
    return _Series(0, _integrate(_times(dg, _power_of_unit(inner, Fraction(-1, 2)))[:n - 1],
                                 Fraction(0)))


def _pow(g: _Series, alpha: Fraction, tree: tuple) -> _Series:
    """g^alpha = c^alpha x^(v alpha) (u/c)^alpha for g = x^v u, u_0 = c: the same recurrence
    for every rational alpha, relative precision kept."""
    if g.valuation() is None and alpha.denominator == 1 and alpha >= 0:
        if alpha == 0:  # g^0 = 1 exactly
            return _Series(0, [Fraction(1)] + [Fraction(0)] * max(g.hi - 1, 0))
        return _Series(0, [Fraction(0)] * max(int(alpha) * g.hi, 0))  # O(x^(alpha hi))
    v, u = _unit(g, tree)
    if (v * alpha).denominator != 1:
        raise _Stop("fractional_power", tree)
    lead = u[0] ** alpha if alpha.denominator == 1 else _root(u[0], alpha)
    if lead is None:
        raise _Stop("irrational_coefficients", tree)
    powered = _power_of_unit([c / u[0] for c in u], alpha)
    return _Series(int(v * alpha), [lead * c for c in powered])


def _expand(tree: tuple, cap: int) -> _Series:
    kind = tree[0]
    if kind == "num":
        return _exact(tree[1], cap)
    if kind == "var":
        return _exact(Fraction(1), cap, 1)
    if kind == "const":
        raise _Stop("irrational_coefficients", tree)
    if kind == "neg":
        inner = _expand(tree[1], cap)
        return _Series(inner.lo, [-c for c in inner.c])
    if kind == "pow":
        return _pow(_expand(tree[1], cap), tree[2], tree)
    if kind == "call":
        return _function(tree[1], _expand(tree[2], cap), tree)
    f, g = _expand(tree[1], cap), _expand(tree[2], cap)
    if kind == "add":
        return _add(f, g)
    if kind == "sub":
        return _add(f, g, -1)
    if kind == "mul":
        return _mul(f, g)
    v, u = _unit(g, tree)
    return _mul(f, _Series(-v, _reciprocal(u)))


def expand_series(request) -> dict:
    tree = expression.parse(request.expression, (request.variable,))
    want = request.order + 1
    cap = want
    while True:
        try:
            result = _expand(tree, cap)
        except _Stop as stop:
            if stop.reason == "denominator_vanishes" and cap < MAX_WORKING:
                cap = min(MAX_WORKING, 2 * cap)
                continue
            return {"status": "not_expandable", "reason": stop.reason,
                    "at": expression.text(stop.tree)}
        if result.hi >= want:
            break
        if cap >= MAX_WORKING:
            return {"status": "not_expandable", "reason": "working_order_exceeded",
                    "at": expression.text(tree)}
        cap = min(MAX_WORKING, cap + want - result.hi)
    valuation = result.valuation()
    if valuation is not None and valuation >= want:
        valuation = None
    start = min(0, valuation) if valuation is not None else 0
    return {"status": "series", "start": start,
            "coefficients": [result.at(k) for k in range(start, want)], "valuation": valuation}
