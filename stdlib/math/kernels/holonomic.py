"""The kernel of `seq.holonomic.find` (declared in domains/holonomic.py, which explains the
method): per shape a rank screen modulo a prime drawn from the terms, then an exact
fraction-free nullspace, every recurrence checked by substitution."""

from __future__ import annotations

import hashlib
import math
from fractions import Fraction

from ..errors import BackendFault
from .checks import polynomial_from_low


def _shapes(n_terms: int, max_order: int, max_degree: int) -> list[tuple[int, int]]:
    shapes = [(r, d) for r in range(1, max_order + 1) for d in range(max_degree + 1)
              if (r + 1) * (d + 1) - 1 <= n_terms - r]
    return sorted(shapes, key=lambda s: ((s[0] + 1) * (s[1] + 1), s[0]))


def _rows(terms: list[int], r: int, d: int) -> list[list[int]]:
    return [[n ** j * terms[n + i] for i in range(r + 1) for j in range(d + 1)]
            for n in range(len(terms) - r)]


def _prime_for(terms: list[int]) -> int:
    """A 62-bit prime drawn from a hash of the terms: deterministic for a request, but not
    one a sequence can be built against (a fixed prime p is defeated by a(n) = 2^n + p b(n),
    which makes every shape look rank-deficient modulo p)."""
    digest = hashlib.sha256(",".join(map(str, terms)).encode()).digest()
    candidate = (int.from_bytes(digest[:8], "big") >> 3) | (1 << 61) | 1
    while not _is_prime(candidate):
        candidate += 2
    return candidate


def _is_prime(n: int) -> bool:
    """Miller-Rabin with the first 13 prime bases: deterministic below 3.3 * 10^24."""
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for a in (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41):
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def _screen(rows: list[list[int]], unknowns: int, prime: int) -> int | None:
    """Modulo `prime`: the number of rows after which the rank first reaches unknowns - 1
    (None if it never does), or -1 when the rank reaches unknowns (nothing fits)."""
    pivots: dict[int, list[int]] = {}
    pinned = None
    for index, row in enumerate(rows):
        v = [x % prime for x in row]
        for column, pivot in pivots.items():
            if v[column]:
                factor = v[column]
                v = [(a - factor * b) % prime for a, b in zip(v, pivot)]
        lead = next((c for c, x in enumerate(v) if x), None)
        if lead is not None:
            inverse = pow(v[lead], -1, prime)
            v = [x * inverse % prime for x in v]
            for column, pivot in pivots.items():
                if pivot[lead]:
                    factor = pivot[lead]
                    pivots[column] = [(a - factor * b) % prime for a, b in zip(pivot, v)]
            pivots[lead] = v
            if len(pivots) == unknowns - 1:
                pinned = index + 1
            if len(pivots) == unknowns:
                return -1
    return pinned


def _nullspace(rows: list[list[int]], unknowns: int) -> list[list[Fraction]]:
    """A basis of {x : rows x = 0} over Q: fraction-free (Bareiss) elimination in integers,
    every division exact, then back substitution for each free column."""
    a = [list(row) for row in rows]
    pivot_columns, rank, previous = [], 0, 1
    for column in range(unknowns):
        pivot = next((i for i in range(rank, len(a)) if a[i][column]), None)
        if pivot is None:
            continue
        a[rank], a[pivot] = a[pivot], a[rank]
        lead = a[rank][column]
        for i in range(rank + 1, len(a)):
            factor = a[i][column]
            a[i] = [(lead * x - factor * y) // previous for x, y in zip(a[i], a[rank])]
        previous = lead
        pivot_columns.append(column)
        rank += 1
    basis = []
    for free in (c for c in range(unknowns) if c not in pivot_columns):
        v = [Fraction(0)] * unknowns
        v[free] = Fraction(1)
        for i in reversed(range(rank)):
            column = pivot_columns[i]
            v[column] = -sum((a[i][j] * v[j] for j in range(column + 1, unknowns)),
                             Fraction(0)) / a[i][column]
        basis.append(v)
    return basis


def _primitive(v: list[Fraction]) -> list[int]:
    den = math.lcm(*(x.denominator for x in v))
    ints = [int(x * den) for x in v]
    g = math.gcd(*ints)
    ints = [x // g for x in ints]
    last = next(x for x in reversed(ints) if x)
    return [-x for x in ints] if last < 0 else ints


def _fits(rows: list[list[int]], v: list[int]) -> bool:
    return all(sum(a * b for a, b in zip(row, v)) == 0 for row in rows)


def find_holonomic(request) -> dict:
    terms = request.terms
    prime = _prime_for(terms)
    for r, d in _shapes(len(terms), request.max_order, request.max_degree):
        unknowns = (r + 1) * (d + 1)
        rows = _rows(terms, r, d)
        pinned = _screen(rows, unknowns, prime)
        if pinned == -1:
            continue  # full rank modulo the prime, so over Q: nothing of this shape fits
        basis = [_primitive(v) for v in _nullspace(rows, unknowns)]
        if not basis:
            continue  # rank-deficient only modulo the prime
        for v in basis:
            if not _fits(rows, v):
                raise BackendFault("holonomic_recurrence_does_not_fit")
        nullity = len(basis)
        confirming = len(rows) - pinned if nullity == 1 and pinned is not None else 0
        status = ("underdetermined" if nullity > 1 else
                  "determined" if confirming >= 1 else "candidate")
        v = basis[0]
        return {
            "status": status, "order": r, "degree": d,
            "coefficients": [polynomial_from_low("n", v[i * (d + 1):(i + 1) * (d + 1)])
                             for i in range(r + 1)],
            "nullity": nullity, "equations": len(rows), "confirming_terms": confirming}
    return {"status": "none", "searched": (
        f"order 1..{request.max_order}, coefficient degree <= {request.max_degree}, "
        f"{len(terms)} terms")}
