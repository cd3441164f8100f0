"""Private adapter: exact isolating regions for the roots of an irreducible integer polynomial.

sympy's complex root isolation (CRootOf) took 2-30 s on degree 8-12 inputs inside the
library's bounds, so regions are computed here instead, in two steps:

1. mpmath's `polyroots` approximates all roots (Durand-Kerner) at some working precision.
2. The approximations are rounded to Gaussian dyadic rationals z_i and certified exactly with
   integer arithmetic by the inclusion theorem of Braess and Hadeler: with
   W_i = p(z_i) / (a_n * prod_{j != i} (z_i - z_j)), every connected component of the union of
   the discs |z - z_i| <= n |W_i| contains as many roots as discs. When the squares around
   those discs are pairwise disjoint, each square therefore holds exactly one root; a square
   centred on the real axis holds a real root (its conjugate would be a second root there).

Each certified square is then widened to a short power-of-two box that still contains its disc
and stays disjoint from the others (and off the real axis for non-real roots), so endpoints
stay readable. If a precision is not enough to certify, the next, higher one is tried.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath

from ..errors import BackendFault

_PRECISIONS = (30, 60, 120, 240, 480, 960)
_GUARD_BITS = 8


def isolate(coefficients: list[int]) -> list[tuple[str, int, list[Fraction], str]]:
    """Every root of the square-free integer polynomial (degree >= 2), as (kind, index,
    region, approx): "real" with an isolating interval [a, b], numbered in increasing order;
    "nonreal" with an isolating box [re_low, re_high, im_low, im_high] off the real axis,
    numbered by the real part and then the imaginary part of the box centre."""
    for digits in _PRECISIONS:
        found = _attempt(coefficients, digits)
        if found is not None:
            return found
    raise BackendFault("root_isolation_failed")


def _attempt(cs: list[int], digits: int) -> list | None:
    n = len(cs) - 1
    try:
        with mpmath.workdps(digits):
            approx = [mpmath.mpc(z) for z in mpmath.polyroots(
                cs, maxsteps=100 + 20 * n, extraprec=2 * digits)]
            near_real = mpmath.mpf(10) ** -(digits // 2)
            scale_bits = math.ceil(digits * 3.33) + _GUARD_BITS
            scale = 1 << scale_bits
            upper = sorted((z for z in approx if z.imag > near_real), key=lambda z: z.real)
            reals = sorted(z.real for z in approx if abs(z.imag) <= near_real)
            if 2 * len(upper) + len(reals) != n:
                return None
            centres = [(int(mpmath.nint(x * scale)), 0) for x in reals]
            for z in upper:
                a, b = int(mpmath.nint(z.real * scale)), int(mpmath.nint(z.imag * scale))
                centres += [(a, -b), (a, b)]
            text = [mpmath.nstr(x, 20) for x in reals] + [
                f"{mpmath.nstr(z.real, 20)} {sign} {mpmath.nstr(z.imag, 20)}i"
                for z in upper for sign in "-+"]
    except mpmath.libmp.NoConvergence:
        return None
    if len(set(centres)) != n:
        return None
    radii = [_inclusion_radius(cs, centres, i, scale_bits) for i in range(n)]
    points = [(Fraction(a, scale), Fraction(b, scale)) for a, b in centres]
    boxes = []
    for i, (re, im) in enumerate(points):
        separation = min(max(abs(re - r2), abs(im - i2))
                         for j, (r2, i2) in enumerate(points) if j != i)
        room = separation / 3 if im == 0 else min(separation / 3, abs(im) / 2)
        half = _power_of_two_below(room)
        if half < 2 * radii[i]:
            return None
        step = half / 4
        cre, cim = round(re / step) * step, round(im / step) * step
        boxes.append([cre - half, cre + half, cim - half, cim + half])
    def centre(box: list[Fraction]) -> tuple[Fraction, Fraction]:
        return ((box[0] + box[1]) / 2, (box[2] + box[3]) / 2)

    real = sorted(zip(boxes[:len(reals)], text[:len(reals)]), key=lambda bt: centre(bt[0]))
    other = sorted(zip(boxes[len(reals):], text[len(reals):]), key=lambda bt: centre(bt[0]))
    return ([("real", k + 1, box[:2], t) for k, (box, t) in enumerate(real)]
            + [("nonreal", k + 1, box, t) for k, (box, t) in enumerate(other)])


def _inclusion_radius(cs: list[int], centres: list[tuple[int, int]], i: int,
                      scale_bits: int) -> Fraction:
    """An upper bound of n |W_i| for z_i = centres[i] / 2^scale_bits (exact integers)."""
    n, s = len(cs) - 1, 1 << scale_bits
    a, b = centres[i]
    # Horner on Gaussian integers: p(z) = (pr + pi i) / s^n.
    pr, pi, power = cs[0], 0, 1
    for c in cs[1:]:
        power *= s
        pr, pi = pr * a - pi * b + c * power, pr * b + pi * a
    # prod_{j != i} (w_i - w_j) with w = a + b i; z_i - z_j = (w_i - w_j) / s.
    qr, qi = 1, 0
    for j, (a2, b2) in enumerate(centres):
        if j != i:
            dr, di = a - a2, b - b2
            qr, qi = qr * dr - qi * di, qr * di + qi * dr
    # |W_i|^2 = |p|^2 / (s^2 a_n^2 |prod|^2); bound n |W_i| above by m / (s 2^g).
    numerator = n * n * (pr * pr + pi * pi) << (2 * _GUARD_BITS)
    denominator = cs[0] * cs[0] * (qr * qr + qi * qi)
    m = math.isqrt(-(-numerator // denominator)) + 1
    return Fraction(m, s << _GUARD_BITS)


def _power_of_two_below(x: Fraction) -> Fraction:
    """The largest power of two (possibly negative exponent) that is <= x > 0."""
    e = x.numerator.bit_length() - x.denominator.bit_length()
    value = Fraction(2) ** e
    while value > x:
        value /= 2
    while value * 2 <= x:
        value *= 2
    return value
