"""Record what calculus.integrate.definite answers for fixed requests and seeded random ones,
as JSON [[request, result or the refusal's message], ...]. A recording, not a test:

    .venv/bin/python tests/math/record_definite_answers.py 31 500 > recorded.json

tests/math/data/definite_answers.json is this run (seed 31, 500 random requests), recorded at
1df7da3, where sympy (ratint_ratpart, factor_list, Sturm counts) computed every answer.
tests/math/test_sympy_free.py checks that the FLINT residue form answers every request byte for
byte as recorded.
"""
from __future__ import annotations

import json
import random
import sys
from fractions import Fraction

from record_rational_integrals import _coefficient, _poly, _product, _times, random_request
from synsema.stdlib.math import script
from synsema.stdlib.math.errors import MathError


def request(num: list, den: list, lower, upper, x: str = "x") -> dict:
    return {"numerator": {"variable": x, "coefficients": num},
            "denominator": {"variable": x, "coefficients": den},
            "lower": lower, "upper": upper}


FIXED = [
    request([1], [1, 0, 1], 0, 1), request([1], [1, 0, -2], 0, 2), request([1], [1, 1], 0, 1),
    request([1], [1, 0, 0], 1, 2), request([1, 0, 0], [1], 0, 3), request([], [1, 0, 1], -5, 7),
    request([1], [1, 0], 2, 2), request([1], [1, 1], 1, 0), request([1], [1, 0, 1], 0, 1, "t"),
    request([1, 0, 1], [1, 0, 0, 0, 1], -1, 1), request([1, -1], [1, 0, -1], 0, 2),
    request([1], [1, 0], 0, 1), request([1], [1, 0], -1, 0), request([1], [1, 0], "-1/2", "1/2"),
    request([1], [1, -1], 0, "99/100"), request([1], [1, -1], "101/100", 2),
    request([1], [1, -1], 1, 1), request([1], [1, -1], 2, 1), request([1], [1, 0, -2], 2, 0),
    request([1], [1, 0, -2], "141/100", "71/50"), request([1], [1, 0, -2], "141/100", "707/500"),
    request([1], [1, 0, -2], "-71/50", "-141/100"), request([1], [1, 0, -2], "-1", "1"),
    request([3, -1, 2], [1, 2, 0, 5, 1], "-1/2", 3),
    request([1, 0, 0, 0, 0], [1, 0, 0, 0, 0, 1, 1], -1, 1),
    request([2, 1], [1, 0, 2, 0, 1], 0, 10), request([1], [1, 0, 0, 0, 0, 0, 0, 0, 1], 0, "1/2"),
    request([5, 0, 1], [1, -3, 3, -1], 2, 4), request([1, 2, 3], [4, 0, 0, 1, 0, 2], 1, 2),
    request([999999] + [-999999] * 8, ["1/999"] + [0] * 7 + [1], "-999999/998", "999999/997"),
    request([1], [1, 0, 0, 0, -1], 2, 3), request([1], [1, 0, 0, -2], 0, 2),
    request([1], [1, 0, 0, -2], 2, 3),
    request([1], [2, -1], "1/2", 1), request([1], [2, -1], 0, "1/2"),
    request([1], [3, -1, 0], "1/3", "1/3"),
    request([1], [1, 0, 0, 1, 0, 0, 0, 0, 0], 1, 2),
    request([1], [1, 0, 0, 1, 0, 0, 0, 0, 0], -2, -1),
    request([1, 0], [1, 0, 0, 0, 1, 0, 0, 1], 1, 3), request([1], [1, 0, -5, 0, 4], 3, 5),
    request([1], [1, 0, -5, 0, 4], "3/2", "19/10"), request([1], [1, 0, -5, 0, 4], "-5/2", "5/2"),
    request([1], [1, 0, 3, 0, 3, 0, 1], 0, 999999),
    request(["-999999/998"], [-999, 998, -997, 996, -995, 994, -993, 992, -991], -1, 1),
    request([7], [1], "-999999/997", "999999/998"), request([1], ["1/2"], 1, 2),
    # refusals
    request([1], [], 0, 1), request([1], [0], 0, 1), request([1], [1, 0, 1], 0.5, 1),
    request([1], [1, 0, 1], 0, "1000000"), request([1], [1, 0, 1], 0, "1/1000"),
    {"numerator": {"variable": "x", "coefficients": [1]},
     "denominator": {"variable": "y", "coefficients": [1, 0]}, "lower": 0, "upper": 1},
    request([1] * 10, [1, 0, 1], 0, 1), request([1], [1, 0, 1], 0, 1, "X"),
    {"numerator": {"variable": "x", "coefficients": [1]},
     "denominator": {"variable": "x", "coefficients": [1]}, "lower": 0},
]


def _endpoint(rng: random.Random):
    kind = rng.randrange(4)
    if kind == 0:
        return rng.randrange(-4, 5)
    if kind == 1:
        return str(Fraction(rng.randrange(-20, 21), rng.randrange(1, 8)))
    if kind == 2:
        return _coefficient(rng, True)
    return str(Fraction(rng.randrange(-3000, 3001), 999))


def _linear_poles(rng: random.Random) -> tuple[list, list[Fraction]]:
    """A denominator with rational roots (some repeated) times an irreducible quadratic or
    cubic, and its roots."""
    den, roots = [1], []
    for _ in range(rng.randrange(1, 4)):
        p, q = rng.randrange(-5, 6), rng.randrange(1, 4)
        for _ in range(rng.choice([1, 1, 2])):
            den = _times(den, [q, -p])
        roots.append(Fraction(p, q))
    if rng.random() < 0.6 and len(den) <= 6:
        den = _times(den, rng.choice([[1, 0, 1], [1, 0, 2], [1, 1, 1], [2, 0, 0, -3], [1, 0, 1, 1],
                                     [1, 0, -3], [1, -1, -1]]))
    return den, roots


def random_definite(rng: random.Random) -> dict:
    kind = rng.randrange(4)
    if kind < 2:   # the rational integral's shapes, random endpoints
        fraction = random_request(rng)
        a, b = _endpoint(rng), _endpoint(rng)
        if rng.random() < 0.1:
            b = a
        elif rng.random() < 0.5:   # a short interval: more of them miss every pole
            c = Fraction(a) + Fraction(rng.randrange(-9, 10), rng.randrange(1, 10))
            b = str(c) if c.denominator < 1000 and abs(c.numerator) < 10**6 else str(-Fraction(a))
        return {**fraction, "lower": a, "upper": b}
    den, roots = _linear_poles(rng)
    num = _poly(rng, rng.randrange(0, 5), False)
    x = rng.choice(["x", "x", "t", "y"])
    root = rng.choice(roots)
    if kind == 2:   # an endpoint on a pole, or the pole just inside or outside
        shift = rng.choice([0, 0, Fraction(1, 300), -Fraction(1, 300), Fraction(1, 7)])
        a, b = root + shift, root + rng.choice([1, -1, 2, Fraction(1, 3)])
        if rng.random() < 0.5:
            a, b = b, a
        return request(num, den, str(a), str(b), x)
    a, b = _endpoint(rng), _endpoint(rng)   # anywhere
    return request(num, den, a, b, x)


def requests(seed: int, count: int) -> list[dict]:
    rng = random.Random(seed)
    return FIXED + [random_definite(rng) for _ in range(count)]


def main() -> None:
    out = []
    for payload in requests(int(sys.argv[1]), int(sys.argv[2])):
        try:
            out.append([payload, script.run("calculus.integrate.definite", payload)])
        except MathError as error:
            out.append([payload, str(error)])
    print(json.dumps(out))


if __name__ == "__main__":
    main()
