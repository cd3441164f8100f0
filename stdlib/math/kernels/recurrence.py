"""The kernel of `seq.recurrence.find` (declared in domains/sequence.py, which explains the
method): Berlekamp-Massey over Q, and the generating function P/Q checked by expanding it back
to every given term."""

from __future__ import annotations

from fractions import Fraction

from ..errors import BackendFault
from .checks import polynomial_from_low


def berlekamp_massey(terms: list[Fraction]) -> tuple[int, list[Fraction]]:
    """(L, C) with C = [1, C_1, .., C_L] and sum_i C_i a_(n-i) = 0 for L <= n < N, L minimal."""
    c, b, order, shift, last = [Fraction(1)], [Fraction(1)], 0, 1, Fraction(1)
    for n, value in enumerate(terms):
        discrepancy = value + sum((c[i] * terms[n - i] for i in range(1, min(len(c), n + 1))),
                                  Fraction(0))
        if discrepancy == 0:
            shift += 1
            continue
        scale = discrepancy / last
        updated = c + [Fraction(0)] * max(0, len(b) + shift - len(c))
        for i, coefficient in enumerate(b):
            updated[i + shift] -= scale * coefficient
        if 2 * order <= n:
            b, last, order, shift = c, discrepancy, n + 1 - order, 1
        else:
            shift += 1
        c = updated
    return order, (c + [Fraction(0)] * (order + 1))[:order + 1]


def _series(numerator: list[Fraction], denominator: list[Fraction], count: int) -> list[Fraction]:
    """The first `count` coefficients of P/Q (lowest degree first, Q[0] = 1)."""
    out: list[Fraction] = []
    for n in range(count):
        value = numerator[n] if n < len(numerator) else Fraction(0)
        value -= sum((denominator[i] * out[n - i] for i in range(1, min(len(denominator), n + 1))),
                     Fraction(0))
        out.append(value)
    return out


def find_recurrence(request) -> dict:
    terms = [Fraction(t) for t in request.terms]
    order, connection = berlekamp_massey(terms)
    numerator = [sum((connection[i] * terms[n - i] for i in range(min(order, n) + 1)),
                     Fraction(0)) for n in range(order)]
    if _series(numerator, connection, len(terms)) != terms:
        raise BackendFault("generating_function_does_not_reproduce_terms")
    return {
        "status": ("determined" if 2 * order < len(terms) else
                   "candidate" if 2 * order == len(terms) else "underdetermined"),
        "confirming_terms": max(0, len(terms) - 2 * order), "order": order,
        "coefficients": [-x for x in connection[1:]],
        "numerator": polynomial_from_low("x", numerator),
        "denominator": polynomial_from_low("x", connection),
        "verified_terms": len(terms)}
