"""Record what calculus.integrate.rational answers for fixed requests and seeded random ones,
as JSON [[request, result or the refusal's message], ...]. A recording, not a test:

    .venv/bin/python tests/math/record_rational_integrals.py 31 400 > recorded.json

tests/math/data/rational_integral_answers.json is this run (seed 31, 400 random requests),
recorded at 0a7474b, where sympy's ratint_ratpart/ratint_logpart computed the answer.
tests/math/test_sympy_free.py checks that the FLINT kernel answers every request byte for byte
as recorded.
"""
from __future__ import annotations

import json
import random
import sys
from fractions import Fraction

from synsema.stdlib.math import script
from synsema.stdlib.math.errors import MathError


def request(num: list, den: list, x: str = "x") -> dict:
    return {"numerator": {"variable": x, "coefficients": num},
            "denominator": {"variable": x, "coefficients": den}}


FIXED = [
    request([1], [1, 0, 1]), request([1], [1, 0]), request([1], [1, 0, 0]), request([0], [1]),
    request([], [1, 0, 1]), request([1], [1]), request([1, 2, 3], ["1/2"]), request([3], [7, 0]),
    request([1], [1, 1, 0, 0, 0, 1]), request([1], [1, -1, 0, 1]), request([1], [1, 0, 0, 0, 1]),
    request([1, 0], [1, 0, 0, 0, -1]), request([2, 0], [1, 0, 1]), request([3, 0, 0], [2, 0, 0, 4]),
    request(["1/3"], ["2/5", "1/7"]), request([6], [4, 2]), request([5, 0], [3, 0, 6]),
    request(["7/3", 0], ["1/2", 0, "3/4"]), request([4], [6, 0, 0]), request([1, 2], [1, 2, 1, 0]),
    request([1], [1, 0, -2]), request([1], [1, 0, 1], "t"), request([1, 0], [1, 0, -1], "t"),
    request([1], [1, 0, 0, 0, 0, 0, 0, 0, 1]), request([1], [1, 0, 0, 0, 0, 0, 0, 0, 0]),
    request([1, 0, 0, 0, 0, 0, 0, 0, 0], [1, 0, 1]), request([999999], ["1/999", 0, 0, 0, 1]),
    request(["-999999/999"], [-999, 998, -997, 996, -995, 994, -993, 992, -991]),
    request([1], [1, 0, 2, 0, 1]), request([1], [1, 0, 3, 0, 3, 0, 1]), request([1, 0, 0], [1, 0, 0, 0, 1]),
    request([1], [1, -3, 3, -1]), request([1, 1], [1, 0, -1]), request([1], [1, 0, 0, -1]),
    request([2, 0, 0, 0], [1, 0, 0, 0, 2]), request([1], [-1, 0, -1]), request([-2, 0], [-1, 0, 1]),
    request([1, 0, 0, 0, 0, 0, 0, 0, 1], [1, 0, 0, 0, 0, 0, 0, 0, 1]),
    request([1], [1, 0, 0, 1, 0, 0, 0, 0, 0]), request([8, 0, 0, 0, 0, 0, 0, 1], [1, 0, 0, 0, 0, 0, 0, 0, 1]),
    request([1, 0, 0, 0, 0, 1], [1, 0, 0, 0, 1, 0, 0, 1]), request([1], [1, 0, -5, 0, 4]),
    request([1, 0, -1], [1, 0, 0, 0, -5, 0, 4]), request([3, 0, -5], [1, 0, -5, 0, 6]),
    # refusals: zero denominator, variable mismatch, leading zero, degree and size bounds
    request([1], []), request([1], [0]), request([1], [0, 1]),
    {"numerator": {"variable": "x", "coefficients": [1]},
     "denominator": {"variable": "y", "coefficients": [1, 0]}},
    request([1], [1, 0, 0, 0, 0, 0, 0, 0, 0, 0]), request([1000000], [1, 0]), request(["1/1000"], [1, 0]),
    request([1], ["1/2", 0.5]), request([1], [1, 0], "X"), {"numerator": {"variable": "x", "coefficients": [1]}},
]


def _coefficient(rng: random.Random, big: bool):
    n = rng.randrange(-999999, 1000000) if big else rng.randrange(-9, 10)
    if rng.random() < 0.25:
        d = rng.randrange(1, 1000 if big else 10)
        return str(Fraction(n, d))
    return n


def _poly(rng: random.Random, degree: int, big: bool) -> list:
    cs = [_coefficient(rng, big) for _ in range(degree + 1)]
    while cs and Fraction(cs[0]) == 0:
        cs[0] = _coefficient(rng, big)
    return cs


def _times(a: list[int], b: list[int]) -> list[int]:
    out = [0] * (len(a) + len(b) - 1)
    for i, u in enumerate(a):
        for j, v in enumerate(b):
            out[i + j] += u * v
    return out


def _product(rng: random.Random, budget: int) -> list[int]:
    """A product of small factors, some repeated, of degree <= budget."""
    out = [1]
    while len(out) - 1 < budget:
        k = rng.randrange(1, min(3, budget - len(out) + 1) + 1)
        factor = [rng.choice([1, 1, 2, 3])] + [rng.randrange(-3, 4) for _ in range(k)]
        for _ in range(rng.choice([1, 1, 2, 3])):
            if len(out) - 1 + k <= budget:
                out = _times(out, factor)
        if rng.random() < 0.3:
            break
    return out


def _derivative(p: list[int]) -> list[int]:
    n = len(p) - 1
    return [c * (n - i) for i, c in enumerate(p[:-1])]


def _sum(a: list[int], b: list[int]) -> list[int]:
    a, b = [0] * (len(b) - len(a)) + a, [0] * (len(a) - len(b)) + b
    out = [u + v for u, v in zip(a, b)]
    while out and out[0] == 0:
        out.pop(0)
    return out


def random_request(rng: random.Random) -> dict:
    kind = rng.randrange(5)
    x = rng.choice(["x", "x", "x", "t", "u", "y"])
    if kind == 0:   # dense, small or large coefficients
        big = rng.random() < 0.3
        return request(_poly(rng, rng.randrange(0, 9), big), _poly(rng, rng.randrange(0, 9), big), x)
    if kind == 1:   # repeated factors in the denominator
        return request(_poly(rng, rng.randrange(0, 6), False), _product(rng, 8), x)
    if kind == 2:   # c1 D1' D2 + c2 D1 D2': log parts whose R has repeated roots
        d1, d2 = _product(rng, rng.randrange(1, 4)), _product(rng, rng.randrange(1, 5))
        c1, c2 = rng.randrange(-3, 4), rng.randrange(-3, 4)
        num = _sum([c1 * c for c in _times(_derivative(d1), d2)],
                   [c2 * c for c in _times(d1, _derivative(d2))]) or [1]
        return request(num, _times(d1, d2), x)
    if kind == 3:   # sparse denominators x^n + a x^k + b
        n = rng.randrange(2, 9)
        den = [1] + [0] * n
        den[-1] = rng.choice([-3, -2, -1, 1, 2, 3])
        den[rng.randrange(1, n)] = rng.randrange(-2, 3)
        return request(_poly(rng, rng.randrange(0, n), False), den, x)
    num = _poly(rng, rng.randrange(0, 9), False)  # improper, scaled
    return request(num, [str(Fraction(c, rng.randrange(1, 9))) for c in _product(rng, rng.randrange(1, 6))], x)


def requests(seed: int, count: int) -> list[dict]:
    rng = random.Random(seed)
    return FIXED + [random_request(rng) for _ in range(count)]


def main() -> None:
    out = []
    for payload in requests(int(sys.argv[1]), int(sys.argv[2])):
        try:
            out.append([payload, script.run("calculus.integrate.rational", payload)])
        except MathError as error:
            out.append([payload, str(error)])
    print(json.dumps(out))


if __name__ == "__main__":
    main()
