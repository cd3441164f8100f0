"""Private adapter: minimal polynomials of algebraic numbers, composed with FLINT (python-flint)
and valued with mpmath.

Algebraic numbers arrive as the checked syntax tree of `stdlib.math.kernels.algebraic`; their
minimal polynomials are composed node by node from exact resultants (`fmpz_mpoly.resultant`)
and factorisations over Z (`fmpz_poly.factor`), their values from mpmath at a working precision
that is raised until the factors separate. Polynomials cross as integer coefficient lists,
highest degree first. Every exact step has one answer whatever computes it (a resultant, the
set of irreducible factors, a Sturm count), so this composes the same polynomials sympy's
`Poly` did before it (tests/math/test_sympy_free.py compares recorded results).
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
from flint import fmpq, fmpq_poly, fmpz_mpoly_ctx, fmpz_poly

from ..errors import BackendFault

_CONTEXT = fmpz_mpoly_ctx.get(("y", "x"), "lex")
_Y, _X = _CONTEXT.gens()


class _Imprecise(Exception):
    """The working precision did not separate the factors; the caller retries with more."""


class _Undefined(Exception):
    """A division by zero or a negative power of zero."""


_PRECISIONS = (60, 120, 240, 480, 960)


def minimal(tree) -> tuple[list[int], tuple[Fraction, Fraction]] | None:
    """(minimal polynomial over Q, primitive in Z[x] with positive leading coefficient, and
    the number's real and imaginary parts to the working precision) for a checked algebraic
    syntax tree, or None when the expression is undefined (division by zero)."""
    for digits in _PRECISIONS:
        try:
            with mpmath.workdps(digits + 20):
                f, value = _Composer(digits).node(tree)
                return f, (_fraction(value.real), _fraction(value.imag))
        except _Imprecise:
            continue
        except _Undefined:
            return None
    raise BackendFault("minimal_polynomial_factors_not_separated")


def _fraction(x) -> Fraction:
    """The exact value of an mpf (mpmath's `man_exp` gives the mantissa without its sign)."""
    x = mpmath.mpf(x)
    man, exp = x.man_exp
    man = -int(man) if x < 0 else int(man)
    return Fraction(man * 2 ** exp) if exp >= 0 else Fraction(man, 2 ** -exp)


class _Composer:
    """Each node's minimal polynomial (a list of ints) and its value (an mpc) bottom-up."""

    def __init__(self, digits: int):
        self.digits = digits

    def node(self, tree) -> tuple[list[int], object]:
        kind = tree[0]
        if kind == "rat":
            return self.rational(tree[1])
        if kind == "i":
            return [1, 0, 1], mpmath.mpc(0, 1)
        if kind == "cos":
            r = tree[1]
            chebyshev = fmpz_poly.chebyshev_t(r.denominator) - (-1) ** r.numerator
            return self.choose(_ints(chebyshev), mpmath.mpc(mpmath.cospi(
                mpmath.mpf(r.numerator) / r.denominator)))
        if kind == "neg":
            f, v = self.node(tree[1])
            return _negated(f), -v
        if kind == "pow":
            f, v = self.node(tree[1])
            p, q = tree[2].numerator, tree[2].denominator
            if len(f) == 2 and f[1] == 0:  # the base is 0
                if p < 0:
                    raise _Undefined
                return self.rational(Fraction(0 if p else 1))
            if q > 1:
                v = self.snap_real(f, v)
                root = mpmath.power(v, mpmath.mpf(1) / q)
                if p < 0:  # the principal a^(-1/q) is 1/(a^(1/q)), not (1/a)^(1/q): they differ
                    root = 1 / root  # on the branch cut (a < 0); the root of 1/a's polynomial
                    f = _positive_lead(f[::-1])
                inflated = [c for a in f[:-1] for c in [a] + [0] * (q - 1)] + [f[-1]]  # f(x^q)
                f, v = self.choose(inflated, root)
            elif p < 0:
                f, v = _positive_lead(f[::-1]), 1 / v
            p = abs(p)
            if p == 1:
                return f, v
            return self.choose(_resultant(f, _X - _Y ** p), v ** p)
        (f, v), (g, w) = self.node(tree[1]), self.node(tree[2])
        if kind == "sub":
            g, w, kind = _negated(g), -w, "add"
        if kind == "div":
            if len(g) == 2 and g[1] == 0:
                raise _Undefined
            g, w, kind = _positive_lead(g[::-1]), 1 / w, "mul"  # 1/beta: g reversed
        if len(f) == 2:  # keep the rational operand second
            (f, v), (g, w) = (g, w), (f, v)
        if len(g) == 2:  # an affine image of an irreducible polynomial is irreducible
            c = Fraction(-g[1], g[0])
            if kind == "add":  # f(x - c)
                shifted = fmpq_poly(f[::-1])(fmpq_poly([fmpq(-c.numerator, c.denominator), 1]))
                return self.exact(_primitive([Fraction(int(a.p), int(a.q))
                                              for a in reversed(shifted.coeffs())]), v + w)
            if c == 0:
                return self.rational(Fraction(0))
            # f(x / c) c^n, cleared of denominators
            return self.exact(_primitive([a * c**i for i, a in enumerate(f)]), v * w)
        n = len(g) - 1
        if kind == "add":  # Res_y(f(y), g(x - y))
            other = sum((c * (_X - _Y) ** (n - i) for i, c in enumerate(g)), _CONTEXT.from_dict({}))
            value = v + w
        else:  # Res_y(f(y), y^n g(x / y))
            other = sum((c * _X ** (n - i) * _Y ** i for i, c in enumerate(g)),
                        _CONTEXT.from_dict({}))
            value = v * w
        return self.choose(_resultant(f, other), value)

    def rational(self, r: Fraction) -> tuple[list[int], object]:
        return [r.denominator, -r.numerator], mpmath.mpc(mpmath.mpf(r.numerator) / r.denominator)

    def exact(self, f: list[int], value) -> tuple[list[int], object]:
        """A rational number's value made exact."""
        return self.rational(Fraction(-f[1], f[0])) if len(f) == 2 else (f, value)

    def choose(self, coefficients: list[int], value) -> tuple[list[int], object]:
        """The irreducible factor of the polynomial that vanishes at `value`: the only factor
        whose value there is below 10^(-digits/2) of its size, every other being above
        10^(-digits/4); a rational root's value becomes exact."""
        _, factors = fmpz_poly(coefficients[::-1]).factor()
        small, large = 10 ** mpmath.mpf(-self.digits // 2), 10 ** mpmath.mpf(-self.digits // 4)
        scale = max(mpmath.mpf(1), abs(value))
        near, far = [], 0
        for g, _ in factors:
            cs = _ints(g)
            size = sum(abs(c) for c in cs) * scale ** (len(cs) - 1)
            residual = abs(mpmath.polyval(cs, value)) / size
            if residual < small:
                near.append(cs)
            elif residual > large:
                far += 1
        if len(near) != 1 or len(near) + far != len(factors):
            raise _Imprecise
        cs = near[0]
        if cs[0] < 0:
            cs = [-c for c in cs]
        return self.exact(cs, value)

    def snap_real(self, f: list[int], value):
        """Before a fractional power (a principal value, whose branch cut is the negative real
        axis), a value whose imaginary part is below 10^(-digits/2) is taken as real when its
        minimal polynomial has a real root within 10^(-digits/2) of its real part (an exact
        Sturm count), so noise never picks the branch; otherwise the precision is raised."""
        if value.imag == 0 or abs(value.imag) > 10 ** mpmath.mpf(-self.digits // 2):
            return value
        delta = Fraction(1, 10 ** (self.digits // 2))
        centre = _fraction(value.real)
        if _real_roots_between(f, centre - delta, centre + delta) == 1:
            return mpmath.mpc(value.real, 0)
        raise _Imprecise


def _resultant(f: list[int], other) -> list[int]:
    """Res_y(f(y), other(y, x)) as a polynomial in x, highest degree first."""
    fy = sum((c * _Y ** (len(f) - 1 - i) for i, c in enumerate(f)), _CONTEXT.from_dict({}))
    terms = fy.resultant(other, "y").to_dict()
    degree = max(e[1] for e in terms)
    low = [0] * (degree + 1)
    for (_, e), c in terms.items():
        low[e] = int(c)
    return low[::-1]


def _real_roots_between(f: list[int], low: Fraction, high: Fraction) -> int:
    """The number of real roots of the square-free (here irreducible) f in [low, high]:
    Sturm's theorem, V(low) - V(high) roots in (low, high], plus a root at low."""
    chain = [fmpq_poly(f[::-1])]
    chain.append(chain[0].derivative())
    while chain[-1].degree() > 0:
        chain.append(-(chain[-2] % chain[-1]))

    def changes(x: Fraction) -> int:
        point = fmpq(x.numerator, x.denominator)
        signs = [s for s in ((p(point) > 0) - (p(point) < 0) for p in chain) if s]
        return sum(1 for a, b in zip(signs, signs[1:]) if a != b)
    at_low = chain[0](fmpq(low.numerator, low.denominator)) == 0
    return changes(low) - changes(high) + (1 if at_low else 0)


def _ints(p: fmpz_poly) -> list[int]:
    return [int(c) for c in reversed(p.coeffs())]


def _positive_lead(f: list[int]) -> list[int]:
    return [-c for c in f] if f[0] < 0 else f


def _negated(f: list[int]) -> list[int]:
    """The minimal polynomial of -alpha from that of alpha: (-1)^n f(-x)."""
    return [c * (-1) ** i for i, c in enumerate(f)]


def _primitive(cs: list[Fraction]) -> list[int]:
    """A nonzero polynomial over Q as a primitive integer list with positive leading term."""
    den = math.lcm(*(c.denominator for c in cs))
    ints = [int(c * den) for c in cs]
    g = math.gcd(*ints)
    return _positive_lead([i // g for i in ints])
