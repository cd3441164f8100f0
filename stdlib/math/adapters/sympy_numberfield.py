"""Private adapter: sympy's number-field algorithms (Galois groups of small degree, minimal
polynomials of algebraic numbers).

Polynomials cross this boundary as integer coefficient lists, highest degree first; groups as
lists of permutations in array form (image of 0..n-1). Algebraic numbers arrive as the checked
syntax tree of `stdlib.math.domains.algebraic`: their minimal polynomials are composed node by
node from exact resultants and factorisations over ZZ (sympy `Poly`, never parsed text), their
values from mpmath at a working precision that is raised until the factors separate.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
from sympy import Poly, QQ, Symbol, ZZ, chebyshevt
from sympy.polys.numberfields.galoisgroups import MaxTriesException, galois_group as _galois

from ..errors import BackendFault

X = Symbol("x")
Y = Symbol("y")


def galois_group(coefficients: list[int]) -> tuple[str, list[list[int]]] | None:
    """(sympy's name of the transitive group, its generators) for an irreducible integer
    polynomial of degree 2 to 6, or None when sympy's deterministic search for a Tschirnhausen
    transformation (30 tries) gave up."""
    f = Poly.from_list(coefficients, X, domain=ZZ)
    try:
        named, _ = _galois(f, by_name=True, max_tries=30, randomize=False)
    except MaxTriesException:
        return None
    return named.name, [[int(i) for i in p.array_form] for p in named.get_perm_group().generators]


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
    man, exp = mpmath.mpf(x).man_exp
    return Fraction(int(man) * 2 ** exp) if exp >= 0 else Fraction(int(man), 2 ** -exp)


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
            q = r.denominator
            chebyshev = Poly(chebyshevt(q, X) - (-1) ** r.numerator, X, domain=ZZ)
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
            if p < 0:
                f, v, p = _positive_lead(f[::-1]), 1 / v, -p
            if q > 1:
                v = self.snap_real(f, v)
                root = mpmath.power(v, mpmath.mpf(1) / q)
                f, v = self.choose(_ints(Poly(Poly.from_list(f, X, domain=ZZ).as_expr()
                                                   .subs(X, X ** q), X, domain=ZZ)), root)
            if p == 1:
                return f, v
            g = Poly(Poly.from_list(f, Y, domain=ZZ).resultant(Poly(X - Y ** p, Y, X)), X,
                     domain=ZZ)
            return self.choose(_ints(g), v ** p)
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
            if kind == "add":
                shifted = Poly.from_list(f, X, domain=QQ).shift(QQ(-c.numerator, c.denominator))
                return self.exact(_primitive(shifted), v + w)
            if c == 0:
                return self.rational(Fraction(0))
            n = len(f) - 1  # f(x / c) c^n, cleared of denominators
            scaled = [QQ(a) * QQ(c.numerator, c.denominator) ** i for i, a in enumerate(f)]
            return self.exact(_primitive(Poly(scaled, X, domain=QQ)), v * w)
        fy = Poly.from_list(f, Y, domain=ZZ)
        n = len(g) - 1
        if kind == "add":  # Res_y(f(y), g(x - y))
            other = Poly(sum(c * (X - Y) ** (n - i) for i, c in enumerate(g)), Y, X)
            value = v + w
        else:  # Res_y(f(y), y^n g(x / y))
            other = Poly(sum(c * X ** (n - i) * Y ** i for i, c in enumerate(g)), Y, X)
            value = v * w
        return self.choose(_ints(Poly(fy.resultant(other), X, domain=ZZ)), value)

    def rational(self, r: Fraction) -> tuple[list[int], object]:
        return [r.denominator, -r.numerator], mpmath.mpc(mpmath.mpf(r.numerator) / r.denominator)

    def exact(self, f: list[int], value) -> tuple[list[int], object]:
        """A rational number's value made exact."""
        return self.rational(Fraction(-f[1], f[0])) if len(f) == 2 else (f, value)

    def choose(self, coefficients: list[int], value) -> tuple[list[int], object]:
        """The irreducible factor of the polynomial that vanishes at `value`: the only factor
        whose value there is below 10^(-digits/2) of its size, every other being above
        10^(-digits/4); a rational root's value becomes exact."""
        _, factors = Poly.from_list(coefficients, X, domain=ZZ).factor_list()
        small, large = 10 ** mpmath.mpf(-self.digits // 2), 10 ** mpmath.mpf(-self.digits // 4)
        scale = max(mpmath.mpf(1), abs(value))
        near, far = [], 0
        for g, _ in factors:
            cs = [int(c) for c in g.all_coeffs()]
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
        if Poly.from_list(f, X, domain=ZZ).count_roots(centre - delta, centre + delta) == 1:
            return mpmath.mpc(value.real, 0)
        raise _Imprecise


def _ints(p: Poly) -> list[int]:
    return [int(c) for c in p.all_coeffs()]


def _positive_lead(f: list[int]) -> list[int]:
    return [-c for c in f] if f[0] < 0 else f


def _negated(f: list[int]) -> list[int]:
    """The minimal polynomial of -alpha from that of alpha: (-1)^n f(-x)."""
    return [c * (-1) ** i for i, c in enumerate(f)]


def _primitive(p: Poly) -> list[int]:
    """A nonzero polynomial over QQ as a primitive integer list with positive leading term."""
    import math
    cs = [Fraction(int(c.numerator), int(c.denominator)) for c in p.all_coeffs()]
    den = math.lcm(*(c.denominator for c in cs))
    ints = [int(c * den) for c in cs]
    g = math.gcd(*ints)
    return _positive_lead([i // g for i in ints])
