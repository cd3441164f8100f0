"""Private adapter: PARI/GP's elliptic-curve primality proving (`primecert`, via cypari2).

PARI returns an Atkin-Morain chain: per step a prime candidate N, the trace t, the cofactor s,
the curve coefficient a4 and a point [x, y]; the curve is y^2 = x^3 + a4 x + b over Z/N with b
fixed by the point, its order is m = N + 1 - t and q = m / s is the next step's N. This module
only converts that chain to plain Python ints; the caller checks every step itself (PARI's own
verdict, `primecertisvalid`, is never used).
"""

from __future__ import annotations

import cypari2

from ..errors import BackendFault
from .pari_integer import instance


def ecpp_chain(n: int) -> list[tuple[int, int, int, int, int, int, int]]:
    """PARI's chain for the probable prime n as (N, a, b, m, s, x, y) per step, largest N
    first, with q = m / s the next step's N; empty when PARI proves n without a step (n below
    2^64)."""
    pari = instance()
    try:
        cert = pari.primecert(n)
    except cypari2.PariError as error:
        raise BackendFault("pari_primecert_failed") from error
    if not isinstance(cert, cypari2.Gen) or cert.type() != "t_VEC":
        return []
    steps = []
    for entry in cert:
        big_n, t, s, a4 = (int(entry[i]) for i in range(4))
        x, y = int(entry[4][0]), int(entry[4][1])
        a = a4 % big_n
        b = (y * y - x * x * x - a * x) % big_n
        steps.append((big_n, a, b, big_n + 1 - t, s, x % big_n, y % big_n))
    return steps
