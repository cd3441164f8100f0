"""Private adapter: sympy's number-field algorithms (Galois groups of small degree, minimal
polynomials of algebraic numbers).

Polynomials cross this boundary as integer coefficient lists, highest degree first; groups as
lists of permutations in array form (image of 0..n-1). Algebraic numbers arrive as the checked
syntax tree of `stdlib.math.domains.algebraic` and are built into sympy objects node by node,
never by parsing text.
"""

from __future__ import annotations

from fractions import Fraction

from sympy import I, Integer, Poly, Rational, Symbol, ZZ, minimal_polynomial
from sympy.polys.numberfields.galoisgroups import MaxTriesException, galois_group as _galois

from ..errors import BackendFault

X = Symbol("x")


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


def build(node) -> object:
    """The sympy number a checked algebraic syntax tree denotes."""
    kind = node[0]
    if kind == "rat":
        return Rational(node[1].numerator, node[1].denominator)
    if kind == "i":
        return I
    if kind == "neg":
        return -build(node[1])
    if kind == "pow":
        base, exponent = build(node[1]), node[2]
        return base ** Rational(exponent.numerator, exponent.denominator)
    left, right = build(node[1]), build(node[2])
    if kind == "add":
        return left + right
    if kind == "sub":
        return left - right
    if kind == "mul":
        return left * right
    if kind == "div":
        return left / right
    raise BackendFault("unknown_algebraic_node")


def minimal(node) -> list[int]:
    """The minimal polynomial over Q of the number `node` denotes, primitive in Z[x] with a
    positive leading coefficient (sympy picks the factor that vanishes at the number by exact
    and interval arithmetic)."""
    value = build(node)
    p = Poly(minimal_polynomial(value, X, polys=True), X, domain=ZZ)
    cs = [int(c) for c in p.all_coeffs()]
    return [-c for c in cs] if cs[0] < 0 else cs


def is_irreducible(coefficients: list[int]) -> bool:
    return bool(Poly.from_list(coefficients, X, domain=ZZ).is_irreducible)


def approx(node, digits: int) -> tuple[Fraction, Fraction]:
    """Real and imaginary parts of the number to `digits` significant digits, as Fractions of
    decimals (for reading only)."""
    value = build(node).evalf(digits)
    re, im = value.as_real_imag()
    return Fraction(str(Integer(0) + re)), Fraction(str(Integer(0) + im))
