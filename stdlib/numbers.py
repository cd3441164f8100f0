"""Number builtins: rounding, elementary functions, number theory and statistics.

Floats follow IEEE 754 the way Synsema's `**` does: a result too large becomes `inf`, and a
point outside a function's domain gives `nan` (`sqrt(-1)`, `asin(2)`) or the infinite limit
(`ln(0)` is `-inf`) — never a Python exception. Integers stay exact wherever the answer is an
integer (`floor`, `round`, `gcd`, `factorial`, `sum` of ints), and decimals stay decimals:
sums and products are exact, divisions round to 28 significant digits like decimal `/`.

Reductions skip `nothing` (in data it means "missing"), let NaN propagate, and refuse an
empty list except for `sum` (0) and `product` (1). The constants `pi`, `tau`, `e`, `inf` and
`nan` are stdlib.registry's `CONSTANTS`: a run binds them without importing this module.
"""

from __future__ import annotations

import bisect
import functools
import math
from decimal import Context, Decimal, MAX_EMAX, MAX_PREC, MIN_EMIN, localcontext

from synsema.lang.errors import SynError
from synsema.runtime import operators
from synsema.runtime.limits import MAX_INT_DIGITS, check_decimal, check_int
from synsema.runtime.values import display, type_name
from synsema.stdlib.collections import ValueIndex
from synsema.stdlib.core import short, wrong_type
from synsema.stdlib.registry import builtin


# Decimal arithmetic that never rounds (sums, products), and the rounding of decimal `/`.
_EXACT = Context(prec=MAX_PREC, Emax=MAX_EMAX, Emin=MIN_EMIN)
_DIVISION_DIGITS = 28
_MAX_FACTORIAL = 13_524  # the largest n whose factorial has at most MAX_INT_DIGITS digits
_MAX_BINS = 100_000
_MIX = "cannot mix decimal and float; convert with float(x) or decimal(...)"


# ------------------------------------------------------------------ argument helpers
def _number(fname: str, x, what: str = "a number"):
    """An int, float or decimal (a bool is not a number here, as in arithmetic)."""
    t = type(x)
    if t is int or t is float or t is Decimal:
        return x
    raise wrong_type(fname, what, x)


def _integer(fname: str, x, what: str = "an integer") -> int:
    if type(x) is not int:
        raise SynError(f"{fname} expects {what}, got {type_name(x)} {short(x)}")
    return x


def _float(fname: str, x) -> float:
    """A float argument for the elementary functions; decimals must be converted on purpose."""
    t = type(x)
    if t is float:
        return x
    if t is int:
        try:
            return float(x)
        except OverflowError:
            raise SynError(f"{fname}: {short(x)} is too large for a float") from None
    if t is Decimal:
        raise SynError(f"{fname} works on floats, not decimals — convert with float(x)")
    raise wrong_type(fname, "a number", x)


def _float_result(fname: str):
    """For statistics computed exactly and then rounded to a float: an int too large for a
    float is reported, not leaked as Python's OverflowError."""
    def wrap(fn):
        def guarded(*args, **named):
            try:
                return fn(*args, **named)
            except OverflowError:
                raise SynError(f"{fname}: the numbers are too large for a float result") from None
        return functools.update_wrapper(guarded, fn)  # the reference reads fn's signature
    return wrap


def _decimal_division(numerator: Decimal, denominator) -> Decimal:
    with localcontext() as ctx:
        ctx.prec = _DIVISION_DIGITS
        return numerator / denominator


# ------------------------------------------------------------------ rounding
def _to_integer(fname: str, x, rounding) -> int:
    x = _number(fname, x)
    if type(x) is int:
        return x
    finite = x.is_finite() if type(x) is Decimal else math.isfinite(x)
    if not finite:
        raise SynError(f"{fname}: {display(x)} has no integer value")
    return rounding(x)


@builtin("floor", 1)
def floor(rt, x):
    """The largest integer not above `x`.

    Example: floor(2.9) => 2
    Example: floor(-2.1) => -3
    """
    return _to_integer("floor", x, math.floor)


@builtin("ceil", 1)
def ceil(rt, x):
    """The smallest integer not below `x`.

    Example: ceil(2.1) => 3
    """
    return _to_integer("ceil", x, math.ceil)


@builtin("trunc", 1)
def trunc(rt, x):
    """`x` with its fraction dropped, toward zero.

    Example: trunc(-2.7) => -2
    """
    return _to_integer("trunc", x, math.trunc)


@builtin("round", 1)
def round_(rt, x):
    """The nearest integer, ties to even (banker's rounding): round(2.5) is 2.

    Example: round(2.5) => 2
    Example: round(3.7) => 4
    """
    return _to_integer("round", x, round)


@builtin("round_to", 2)
def round_to(rt, x, digits):
    """Round to `digits` decimal places (negative: tens, hundreds…), ties to even.

    Round to `digits` decimal places (negative: tens, hundreds…), ties to even. A float is
    rounded by its real binary value, so round_to(2.675, 2) is 2.67.

    Example: round_to(3.14159, 2) => 3.14
    """
    x = _number("round_to", x)
    n = _integer("round_to", digits, "an integer number of digits")
    if type(x) is float:
        return round(x, n)
    if type(x) is int:
        if n >= 0:
            return x
        if -n > x.bit_length() * 0.302 + 1:  # more than its digits: skip computing 10 ** -n
            return 0
        return round(x, n)
    if not x.is_finite() or n >= -x.as_tuple().exponent:  # already has at most n decimals
        return x
    if -n > x.adjusted() + 1:
        return Decimal(0)
    with localcontext(_EXACT):
        return round(x, n)


# ------------------------------------------------------------------ magnitude
@builtin("abs", 1)
def abs_(rt, x):
    """The absolute value.

    Example: abs(-3) => 3
    """
    return abs(_number("abs", x))


@builtin("sign", 1)
def sign(rt, x):
    """-1, 0 or 1 as an integer (nan for nan).

    Example: sign(-4.2) => -1
    """
    x = _number("sign", x)
    if type(x) is float and math.isnan(x):
        return x
    return (x > 0) - (x < 0)


@builtin("clamp", 3)
def clamp(rt, x, lo, hi):
    """`x` limited to the range [lo, hi].

    Example: clamp(15, 0, 10) => 10
    """
    values = [_number("clamp", v) for v in (x, lo, hi)]
    if any(type(v) is float for v in values) and any(type(v) is Decimal for v in values):
        raise SynError(_MIX)
    if lo > hi:
        raise SynError(f"clamp: the lower bound {display(lo)} is above the upper bound {display(hi)}")
    if type(x) is float and math.isnan(x):
        return x
    return lo if x < lo else hi if x > hi else x


# ------------------------------------------------------------------ powers, roots, logarithms
@builtin("sqrt", 1)
def sqrt(rt, x):
    """Square root as a float (a decimal gives a decimal to 28 digits).

    Example: sqrt(16) => 4.0
    """
    x = _number("sqrt", x)
    if type(x) is Decimal:
        if x < 0:
            raise SynError(f"sqrt: {display(x)} has no decimal square root — convert with float(x) for nan")
        with localcontext() as ctx:
            ctx.prec = _DIVISION_DIGITS
            return x.sqrt()
    if type(x) is int and x.bit_length() > 1000:  # too large for float(x); exact root first
        if x < 0:
            return math.nan
        try:
            return float(math.isqrt(x))
        except OverflowError:
            return math.inf
    x = _float("sqrt", x)
    return math.sqrt(x) if x >= 0 else math.nan  # nan for nan, too


@builtin("cbrt", 1)
def cbrt(rt, x):
    """Cube root (of negative numbers too); exact for perfect cubes.

    A perfect cube gives the exact root where libm may miss it by an ulp: cbrt(-27) is -3.0.

    Example: cbrt(-27) => -3.0
    """
    x = _float("cbrt", x)
    root = math.cbrt(x)
    if math.isfinite(root):
        whole = round(root)
        if whole ** 3 == x:
            return float(whole)
    return root


@builtin("hypot", 2, None)
def hypot(rt, *xs):
    """Euclidean length of the vector of its arguments.

    Example: hypot(3, 4) => 5.0
    """
    return math.hypot(*[_float("hypot", x) for x in xs])


@builtin("pow", 2)
def pow_(rt, x, y):
    """The function form of `x ** y`, with exactly its rules.

    A result out of range fails as the operator does.

    Example: pow(2, 10) => 1024
    """
    return operators.power(_number("pow", x), _number("pow", y))


@builtin("exp", 1)
def exp(rt, x):
    """e raised to the power `x`, as a float (inf on overflow).

    Example: exp(0) => 1.0
    """
    try:
        return math.exp(_float("exp", x))
    except OverflowError:
        return math.inf


def _log(fname: str, x, fn) -> float:
    """A logarithm with its IEEE limits: -inf at 0, nan below. Ints of any size are exact
    inputs (math.log reads a big int without converting it to a float first)."""
    if type(x) is not int:
        x = _float(fname, x)
    if x == 0:
        return -math.inf
    if x < 0 or x != x:
        return math.nan
    return fn(x)


@builtin("ln", 1)
def ln(rt, x):
    """The natural logarithm (-inf at 0, nan below).

    Example: ln(1) => 0.0
    """
    return _log("ln", x, math.log)


@builtin("log10", 1)
def log10(rt, x):
    """The base-10 logarithm (-inf at 0, nan below).

    Example: log10(1000) => 3.0
    """
    return _log("log10", x, math.log10)


@builtin("log2", 1)
def log2(rt, x):
    """The base-2 logarithm (-inf at 0, nan below).

    Example: log2(8) => 3.0
    """
    return _log("log2", x, math.log2)


@builtin("log_base", 2)
def log_base(rt, x, base):
    """The logarithm of `x` in `base` (base > 0 and not 1).

    Example: log_base(81, 3) => 4.0
    """
    b = _number("log_base", base)
    if type(b) is Decimal or not b > 0 or b == 1 or (type(b) is float and math.isinf(b)):
        raise SynError(f"log_base: the base must be a positive number other than 1, got {display(base)}")
    return _log("log_base", x, lambda v: math.log(v) / math.log(b))


# ------------------------------------------------------------------ trigonometry
def _ieee(fname: str, fn, x, odd: bool = False) -> float:
    """fn(x) with IEEE results where Python raises: overflow → ±inf, outside the domain → nan."""
    x = _float(fname, x)
    try:
        return fn(x)
    except OverflowError:
        return math.copysign(math.inf, x) if odd else math.inf
    except ValueError:
        return math.nan


def _unary(name: str, fn, odd: bool = False, doc: str | None = None):
    def function(rt, x):
        return _ieee(name, fn, x, odd)
    function.__name__ = name
    summary = doc or f"{name}(x) as a float (IEEE limits instead of errors)."
    function.__doc__ = f"{summary}\n\nExample: {name}(1) => {fn(1.0)!r}"
    builtin(name, 1)(function)


for _name, _fn in (("sin", math.sin), ("cos", math.cos), ("tan", math.tan), ("asin", math.asin),
                   ("acos", math.acos), ("atan", math.atan), ("tanh", math.tanh),
                   ("asinh", math.asinh), ("acosh", math.acosh), ("cosh", math.cosh),
                   ("radians", math.radians), ("degrees", math.degrees)):
    _unary(_name, _fn)
_unary("sinh", math.sinh, odd=True)


@builtin("atanh", 1)
def atanh(rt, x):
    """Inverse hyperbolic tangent: ±inf at ±1, nan beyond.

    Example: atanh(0) => 0.0
    """
    x = _float("atanh", x)
    if abs(x) == 1:
        return math.copysign(math.inf, x)
    return _ieee("atanh", math.atanh, x)


@builtin("atan2", 2)
def atan2(rt, y, x):
    """Angle of the point (x, y), in radians, from −pi to pi.

    Example: atan2(1, 1) => 0.7853981633974483
    """
    return math.atan2(_float("atan2", y), _float("atan2", x))


# ------------------------------------------------------------------ number theory and tests
@builtin("gcd", 2, None)
def gcd(rt, *xs):
    """The greatest common divisor of two or more integers.

    Example: gcd(12, 18) => 6
    """
    return math.gcd(*[_integer("gcd", x, "integers") for x in xs])


@builtin("lcm", 2, None)
def lcm(rt, *xs):
    """The least common multiple of two or more integers.

    Example: lcm(4, 6) => 12
    """
    result = 1
    for x in xs:
        result = check_int("lcm", math.lcm(result, _integer("lcm", x, "integers")))
    return result


@builtin("factorial", 1)
def factorial(rt, n):
    """n! for a non-negative integer `n`.

    Example: factorial(5) => 120
    """
    n = _integer("factorial", n, "a non-negative integer")
    if n < 0:
        raise SynError(f"factorial expects a non-negative integer, got {n}")
    if n > _MAX_FACTORIAL:
        raise SynError(f"value too large: factorial({n}) has more than {MAX_INT_DIGITS:,} digits "
                       f"(factorial takes at most {_MAX_FACTORIAL:,})")
    return math.factorial(n)


@builtin("is_nan", 1)
def is_nan(rt, x):
    """Whether `x` is the float nan.

    Example: is_nan(sqrt(-1)) => true
    """
    x = _number("is_nan", x)
    return x.is_nan() if type(x) is Decimal else type(x) is float and math.isnan(x)


@builtin("is_infinite", 1)
def is_infinite(rt, x):
    """Whether `x` is +inf or -inf.

    Example: is_infinite(exp(1000)) => true
    """
    x = _number("is_infinite", x)
    return x.is_infinite() if type(x) is Decimal else type(x) is float and math.isinf(x)


@builtin("is_finite", 1)
def is_finite(rt, x):
    """Whether `x` is neither infinite nor nan.

    Example: is_finite(1 / 3) => true
    """
    x = _number("is_finite", x)
    return x.is_finite() if type(x) is Decimal else type(x) is int or math.isfinite(x)


# ------------------------------------------------------------------ reductions
_INT_ONLY = frozenset({int})


class _Data:
    """The numbers of a reduction's list: `nothing` skipped, kinds checked and recorded."""

    __slots__ = ("values", "floats", "decimals", "nan")

    def __init__(self, fname: str, xs, allow_empty: bool = False):
        if type(xs) is not list:
            raise wrong_type(fname, "a list of numbers", xs)
        self.values = []
        self.floats = self.decimals = self.nan = False
        for i, x in enumerate(xs):
            t = type(x)
            if x is None:
                continue
            if t is float:
                self.floats = True
                self.nan = self.nan or math.isnan(x)
            elif t is Decimal:
                self.decimals = True
            elif t is not int:
                raise SynError(f"{fname}: item {i} is {type_name(x)}, expected a number")
            self.values.append(x)
        if self.floats and self.decimals:
            raise SynError(_MIX)
        if not self.values and not allow_empty:
            raise SynError(f"{fname} of an empty list" if not xs else f"{fname}: every value is nothing")


def _float_sum(values: list) -> float:
    """Correctly rounded sum of ints and floats (so sum([0.1, 0.2, 0.3]) is 0.6)."""
    try:
        return math.fsum(values)
    except ValueError:  # inf + -inf
        return math.nan
    except OverflowError:  # an intermediate sum overflowed, or an int too large for a float
        floats = [v for v in values if type(v) is float]
        ints = sum(v for v in values if type(v) is int)
        try:
            return sum(floats, float(ints))
        except OverflowError:
            raise SynError(f"sum: {short(ints)} is too large for a float") from None


@builtin("sum", 1)
def sum_(rt, xs):
    """The sum of a list of numbers (0 for an empty list).

    Example: sum([1, 2, 3]) => 6
    """
    if type(xs) is list and {*map(type, xs)} <= _INT_ONLY:   # the common case, its kinds tested in C
        return sum(xs)
    data = _Data("sum", xs, allow_empty=True)
    if data.floats:
        return _float_sum(data.values)
    if data.decimals:
        return _exact_sum(data.values)
    return sum(data.values)


def _exact_sum(values: list):
    with localcontext(_EXACT):
        return check_decimal("sum", sum(values, Decimal(0)))


def _checked_product(values: list, start):
    """An exact product, each step checked against the size limits (so each step is cheap)."""
    result = start
    with localcontext(_EXACT):
        for value in values:
            result = result * value
            if type(result) is int:
                check_int("product", result)
            else:
                check_decimal("product", result)
    return result


@builtin("product", 1)
def product(rt, xs):
    """The product of a list of numbers (1 for an empty list).

    Example: product([2, 3, 4]) => 24
    """
    data = _Data("product", xs, allow_empty=True)
    if data.decimals:
        return _checked_product(data.values, Decimal(1))
    if not data.floats:
        return _checked_product(data.values, 1)
    try:
        return math.prod(data.values)
    except OverflowError:
        raise SynError("product: an integer in the list is too large to multiply with a float") from None


@builtin("mean", 1)
@_float_result("mean")
def mean(rt, xs):
    """The arithmetic mean of a non-empty list of numbers.

    Example: mean([1, 2, 3, 4]) => 2.5
    """
    data = _Data("mean", xs)
    n = len(data.values)
    if data.decimals:
        return _decimal_division(_exact_sum(data.values), n)
    if data.floats:
        return _float_sum(data.values) / n
    return sum(data.values) / n  # int / int is correctly rounded


def _midpoint(a, b):
    """(a + b) / 2 without overflowing for large floats."""
    if type(a) is Decimal or type(b) is Decimal:
        return _decimal_division(_exact_sum([a, b]), 2)
    if type(a) is float or type(b) is float:
        return a / 2 + b / 2
    return (a + b) / 2


@builtin("median", 1)
@_float_result("median")
def median(rt, xs):
    """The middle value (the mean of the two middle values for an even count).

    Example: median([3, 1, 2]) => 2
    """
    data = _Data("median", xs)
    if data.nan:
        return math.nan
    ordered = sorted(data.values)
    mid = len(ordered) // 2
    if len(ordered) % 2:
        return ordered[mid]
    return _midpoint(ordered[mid - 1], ordered[mid])


def _interpolate(fname: str, xs, q: Fraction):
    """Linear interpolation between order statistics (NumPy's default "linear" method)."""
    data = _Data(fname, xs)
    if data.nan:
        return math.nan
    ordered = sorted(data.values)
    h = (len(ordered) - 1) * q
    lo = math.floor(h)
    t = h - lo
    a = ordered[lo]
    b = ordered[lo + 1] if t else a
    if data.decimals:
        with localcontext(_EXACT):
            return a + (b - a) * Decimal(t.numerator) / Decimal(t.denominator) if t else a
    if all(math.isfinite(v) for v in (a, b)):
        from fractions import Fraction
        return float(Fraction(a) + (Fraction(b) - Fraction(a)) * t)
    return float(a) if a == b else float(a + (b - a) * float(t))


def _fraction(fname: str, p, top: int) -> Fraction:
    from fractions import Fraction  # the statistics builtins import it, not every run
    p = _number(fname, p)
    if type(p) is float and not math.isfinite(p) or not 0 <= p <= top:
        raise SynError(f"{fname}: {display(p)} is outside 0..{top}")
    return Fraction(p) / top


@builtin("percentile", 2)
@_float_result("percentile")
def percentile(rt, xs, p):
    """The p-th percentile, p from 0 to 100, interpolating linearly.

    Example: percentile([1, 2, 3, 4, 5], 50) => 3.0
    """
    return _interpolate("percentile", xs, _fraction("percentile", p, 100))


@builtin("quantile", 2)
@_float_result("quantile")
def quantile(rt, xs, q):
    """The q-quantile, q from 0 to 1, interpolating linearly.

    Example: quantile([1, 2, 3, 4, 5], 0.25) => 2.0
    """
    return _interpolate("quantile", xs, _fraction("quantile", q, 1))


def _variance(fname: str, xs, ddof):
    if type(ddof) is not int or ddof < 0:
        raise SynError(f"{fname}: ddof must be a non-negative integer, got {short(ddof)}")
    data = _Data(fname, xs)
    values = data.values
    n = len(values)
    if n - ddof <= 0:
        raise SynError(f"{fname} needs more than {ddof} value{'s' if ddof != 1 else ''} "
                       f"(ddof = {ddof}), got {n}")
    if data.decimals:
        with localcontext(_EXACT):
            total = sum(values, Decimal(0))
            spread = n * sum((v * v for v in values), Decimal(0)) - total * total
        return _decimal_division(spread, n * (n - ddof))
    if data.floats:
        m = _float_sum(values) / n
        if not math.isfinite(m):
            return math.nan
        return _float_sum([(v - m) * (v - m) for v in values]) / (n - ddof)
    from fractions import Fraction
    m = Fraction(sum(values), n)
    return float(sum((v - m) ** 2 for v in values) / (n - ddof))


@builtin("var", 1, named=("ddof",))
@_float_result("var")
def var(rt, xs, ddof=1):
    """Variance, of a sample by default (ddof = 1); ddof = 0 for a whole population.

    Example: var([1, 2, 3, 4]) => 1.6666666666666667
    """
    return _variance("var", xs, ddof)


@builtin("std", 1, named=("ddof",))
@_float_result("std")
def std(rt, xs, ddof=1):
    """Standard deviation, of a sample by default (ddof = 1).

    Example: std([2, 4, 4, 4, 5, 5, 7, 9], ddof = 0) => 2.0
    """
    v = _variance("std", xs, ddof)
    if type(v) is Decimal:
        with localcontext() as ctx:
            ctx.prec = _DIVISION_DIGITS
            return v.sqrt()
    return math.sqrt(v) if v >= 0 else math.nan


@builtin("mode", 1)
def mode(rt, xs):
    """The most frequent value (of any kind); a tie goes to the value that appeared first.

    Example: mode([1, 2, 2, 3]) => 2
    """
    if type(xs) is not list:
        raise wrong_type("mode", "a list", xs)
    index = ValueIndex()
    values: list = []
    counts: list[int] = []
    for x in xs:
        if x is None:
            continue
        slot = index.find(x)
        if slot is None:
            index.add(x, len(values))
            values.append(x)
            counts.append(1)
        else:
            counts[slot] += 1
    if not values:
        raise SynError("mode of an empty list" if not xs else "mode: every value is nothing")
    return values[counts.index(max(counts))]


@builtin("histogram", 1, 2)
@_float_result("histogram")
def histogram(rt, xs, bins=10):
    """`{counts, edges}` of the data: `bins` equal-width bins (or explicit ascending edges as a list).

    `{counts, edges}`: `bins` equal-width bins over the data's range (default 10), or the
    explicit ascending `edges` given as a list. Bins are [lo, hi) except the last, [lo, hi];
    values outside explicit edges are not counted.

    Example: histogram([1, 2, 2, 3], 2) => {counts: [1, 3], edges: [1.0, 2.0, 3.0]}
    """
    data = _Data("histogram", xs)
    if data.decimals:
        raise SynError("histogram works on ints and floats — convert decimals with float(x)")
    if data.nan:
        raise SynError("histogram: nan cannot be placed in a bin — filter it out with is_nan")
    if type(bins) is list:
        edges = [_number("histogram", e, "numbers as edges") for e in bins]
        if len(edges) < 2 or any(not a < b for a, b in zip(edges, edges[1:])):
            raise SynError("histogram: edges must be at least two strictly ascending numbers")
    elif type(bins) is int:
        if not 1 <= bins <= _MAX_BINS:
            raise SynError(f"histogram: the number of bins must be from 1 to {_MAX_BINS}, got {bins}")
        lo, hi = min(data.values), max(data.values)
        if not (math.isfinite(lo) and math.isfinite(hi)):
            raise SynError("histogram: infinite values need explicit edges")
        if lo == hi:
            lo, hi = lo - 0.5, hi + 0.5
        edges = [lo + (hi - lo) * i / bins for i in range(bins)] + [float(hi)]
    else:
        raise wrong_type("histogram", "a number of bins or a list of edges", bins)
    counts = [0] * (len(edges) - 1)
    for v in data.values:
        if v == edges[-1]:
            counts[-1] += 1
        elif edges[0] <= v < edges[-1]:
            counts[bisect.bisect_right(edges, v) - 1] += 1
    return {"counts": counts, "edges": edges}
