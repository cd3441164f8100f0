"""Record what poly.system.solve answers for fixed systems and seeded random ones, as JSON
[[payload, answer], ...]: the answer is the result, or the refusal's message, or -- for a
result longer than 2000 characters of JSON -- {"sha256": digest of json.dumps(result)}. A
recording, not a test:

    .venv/bin/python tests/math/record_system_answers.py 31 > recorded.json

tests/math/data/system_answers.json is this run (seed 31, 326 payloads), recorded at 0a7474b,
where sympy's Buchberger and Polys computed every answer (seeds 32-35 were compared once, 1304
more). tests/math/test_sympy_free.py checks that the FLINT kernel answers every payload byte
for byte as recorded.
"""
from __future__ import annotations

import hashlib
import itertools
import json
import random
import sys
from fractions import Fraction

from synsema.stdlib.math import script
from synsema.stdlib.math.errors import MathError


def poly(*terms) -> dict:
    return {"terms": [{"coefficient": c, "exponents": list(e)} for c, e in terms]}


def system(variables, *equations) -> dict:
    return {"variables": list(variables), "equations": list(equations)}


FIXED = [
    # known answers and the cases a weaker method gets wrong
    system("xy", poly((1, [2, 0]), (1, [0, 2]), (-1, [0, 0])), poly((1, [1, 0]), (-1, [0, 1]))),
    system("xy", poly((1, [1, 0]), (1, [0, 1]), (-3, [0, 0])),
           poly((1, [1, 0]), (-1, [0, 1]), (-1, [0, 0]))),
    system("x", poly((1, [3]), (-1, [1]))),
    system("xy", poly((5, [0, 0])), poly((1, [1, 0]))),
    system("xy", poly((1, [1, 1]), (-1, [0, 0])), poly((1, [1, 1]), (-2, [0, 0]))),
    system("xy", poly((1, [2, 0])), poly((1, [0, 2]))),
    system("x", poly(("2/3", [1]), (1, [0]))),
    system("xy", poly((1, [2, 0]), (-2, [0, 0])), poly((1, [0, 2]), (-2, [0, 0])),
           poly((1, [1, 1]), (-2, [0, 0]))),
    system("xy", poly((1, [2, 0]), (-2, [0, 0])), poly((1, [0, 2]), (-3, [0, 0]))),
    system("xy", poly((1, [0, 1]), (-1, [2, 0])), poly((1, [0, 1]))),
    system("xy", poly((1, [4, 0]), (-1, [3, 0]), (-3, [2, 0]), (5, [1, 0]), (-2, [0, 0])),
           poly((1, [0, 1]), (-1, [1, 0]))),
    system("xy", poly((1, [1, 0]), (-1, [0, 1])), poly((2, [1, 0]), (-2, [0, 1]))),
    system("xyz", poly((1, [1, 1, 0])), poly((1, [0, 1, 1])), poly((1, [1, 0, 1]))),
    system("xyz", poly((1, [2, 0, 0]), (1, [0, 2, 0]), (1, [0, 0, 2]), (-3, [0, 0, 0])),
           poly((1, [1, 0, 0]), (-1, [0, 1, 0])), poly((1, [1, 1, 0]), (-1, [0, 0, 1]))),
    system("xyz", poly((1, [2, 0, 0]), ("-1/2", [0, 1, 0]), (3, [0, 0, 0])),
           poly((1, [0, 2, 0]), (-2, [0, 0, 1]), (1, [1, 0, 0])),
           poly((1, [0, 0, 2]), (1, [1, 0, 0]), (-7, [0, 0, 0]))),
    system("xy", poly((1, [2, 0]), (-1, [0, 0])), poly((1, [0, 2]), (-1, [0, 0]))),
    # several families of one degree (their order), a root 0, a rational and irrational mix
    system("x", poly((1, [4]), (-5, [2]), (6, [0]))),
    system("x", poly((1, [4]), (-1, [0]))),
    system("x", poly((1, [8]), (-1, [0]))),
    system("x", poly((1, [6]), (-2, [3]), (1, [0]))),
    system("x", poly((1, [5]), (-1, [1]))),
    system("x", poly((1, [1]))),
    system("x", poly((7, [0]))),
    system("x", poly((1, [2]), (1, [0]))),
    system("xy", poly((1, [2, 0]), (-3, [0, 0])), poly((1, [0, 2]), (-3, [0, 0]))),
    system("xy", poly((1, [3, 0]), (-2, [0, 0])), poly((1, [0, 3]), (-2, [0, 0]))),
    system("xy", poly((1, [2, 0]), (1, [0, 1]), (-1, [0, 0])), poly((1, [0, 2]), (1, [1, 0]))),
    system("xy", poly((1, [0, 1]), (-1, [0, 0])), poly((1, [1, 0]), (1, [0, 0])),
           poly((1, [1, 1]), (1, [0, 0]))),
    system("xy", poly((1, [1, 0])), poly((1, [0, 1])), poly((1, [1, 1]), (1, [0, 0]))),
    system("xyzw", poly((1, [1, 0, 0, 0]), (-1, [0, 1, 0, 0])),
           poly((1, [0, 1, 0, 0]), (-1, [0, 0, 1, 0])), poly((1, [0, 0, 1, 0]), (-1, [0, 0, 0, 1])),
           poly((1, [0, 0, 0, 8]), (-1, [0, 0, 0, 0]))),
    system("xyzw", poly((1, [2, 0, 0, 0]), (-2, [0, 0, 0, 0])),
           poly((1, [0, 2, 0, 0]), (-3, [0, 0, 0, 0])), poly((1, [0, 0, 2, 0]), (-5, [0, 0, 0, 0])),
           poly((1, [0, 0, 0, 1]), (-1, [1, 1, 1, 0]))),
    system("ab", poly(("999/97", [2, 0]), ("-998/89", [0, 1])), poly(("1/99", [0, 2]),
                                                                        ("-997", [1, 0]))),
    system(["t", "u"], poly((1, [2, 0]), (-2, [0, 0])), poly((1, [0, 1]), (-1, [1, 0]))),
    system(["t", "u", "w"], poly((1, [2, 0, 0]), (-2, [0, 0, 0])), poly((1, [0, 1, 0])),
           poly((1, [0, 0, 1]))),
    system(["t", "u", "w", "theta"], poly((1, [2, 0, 0, 0]), (-2, [0, 0, 0, 0])),
           poly((1, [0, 1, 0, 0])), poly((1, [0, 0, 1, 0])), poly((1, [0, 0, 0, 1]))),
    system("xy", poly((1, [8, 0]), (-1, [0, 0])), poly((1, [0, 1]), (-1, [1, 0]))),
    system("xy", poly((1, [1, 0]), (-1, [0, 0])), poly((1, [1, 0]), (-2, [0, 0])),
           poly((1, [0, 1]))),
    # refusals: the Pydantic path's messages
    system("xx", poly((1, [2, 0]), (-1, [0, 0])), poly((1, [0, 2]), (-1, [0, 0]))),
    system("xy", poly((1, [2, 0]), (-1, [0, 0]))),
    system("xy", poly((1, [5, 0])), poly((1, [0, 5]))),
    system("xy", poly((1, [2])), poly((1, [0, 2]))),
    system("xy", poly((1, [2, 0]), (2, [2, 0])), poly((1, [0, 2]))),
    system("xy", poly((0, [2, 0])), poly((1, [0, 2]))),
    system("xy", poly((1, [9, 0])), poly((1, [0, 1]))),
    system("xy", poly((1.5, [2, 0])), poly((1, [0, 2]))),
    system("xyzwv", poly((1, [1, 0, 0, 0, 0]))),
    system("xy", poly(("1/0", [1, 0])), poly((1, [0, 1]))),
    system("xy", poly(("2/4", [1, 0])), poly((1, [0, 1]))),
    system("xy", poly(("1000", [1, 0])), poly((1, [0, 1]))),
    system("xy", poly(("1/100", [1, 0])), poly((1, [0, 1]))),
    system("xy", poly((1, [-1, 0])), poly((1, [0, 1]))),
    system("x", {"terms": []}),
    system([], poly((1, []))),
    system("x", *[poly((1, [1]))] * 9),
    system("xy", poly((1, [4, 4])), poly((1, [0, 1]))),
    system("xy", poly((1, [3, 0]), (1, [0, 0])), poly((1, [0, 4]), (1, [0, 0]))),
    {"variables": ["x"], "equations": [poly((1, [1]))], "extra": 1},
    {"variables": ["x"]},
    system(["x", "1x"], poly((1, [1, 0])), poly((1, [0, 1]))),
]


def random_system(rng: random.Random, degrees: list[int], n: int, density: float,
                  numerator: int, denominator: int) -> dict:
    names = ["x", "y", "z", "w"][:n]
    equations = []
    for d in degrees:
        monomials = [e for e in itertools.product(range(d + 1), repeat=n) if sum(e) <= d]
        top = [e for e in monomials if sum(e) == d]
        chosen = [e for e in monomials if rng.random() < density]
        if not any(sum(e) == d for e in chosen):
            chosen.append(rng.choice(top))
        chosen = sorted(set(chosen))[-45:]
        terms = []
        for e in chosen:
            c = Fraction(rng.randrange(-numerator + 1, numerator) or 1,
                         rng.randrange(1, denominator + 1))
            terms.append((str(c), e))
        equations.append(poly(*terms))
    return system(names, *equations)


def structured(rng: random.Random) -> dict:
    """Rational points, multiple points, dependent equations, inconsistent ones."""
    n = rng.randrange(1, 4)
    names = ["x", "y", "z"][:n]
    kind = rng.choice(["points", "multiple", "dependent", "inconsistent", "product"])
    unit = [[int(j == i) for j in range(n)] for i in range(n)]
    zero = [0] * n
    if kind == "points":
        eqs = []
        for i in range(n):
            a, b = rng.randrange(-3, 4), rng.randrange(-3, 4)
            eqs.append(poly(*[(c, e) for c, e in ((1, [2 * k for k in unit[i]]),
                                                   (-(a + b), unit[i]), (a * b, zero)) if c]))
        if n > 1 and rng.random() < 0.5:
            eqs.append(poly((1, [1] * 2 + [0] * (n - 2)), (-rng.randrange(-4, 5) or 1, zero)))
        return system(names, *eqs)
    if kind == "multiple":
        eqs = [poly((1, [rng.randrange(1, 3) * k for k in unit[i]]),
                    *([(rng.randrange(1, 4), unit[(i + 1) % n])] if n > 1 and i % 2 else []))
               for i in range(n)]
        return system(names, *eqs)
    if kind == "product":  # x_i^2 - c_i with a linking equation: irrational families
        eqs = [poly((1, [2 * k for k in unit[i]]), (-rng.choice([2, 3, 5, 6, -1, -2]), zero))
               for i in range(n)]
        return system(names, *eqs)
    base = random_system(rng, [2] * n, n, 0.6, 6, 2)
    if kind == "dependent":
        base["equations"][-1] = base["equations"][0]
    else:
        base["equations"].append({"terms": base["equations"][0]["terms"][:-1] + [
            {"coefficient": str(Fraction(base["equations"][0]["terms"][-1]["coefficient"]) + 1),
             "exponents": base["equations"][0]["terms"][-1]["exponents"]}]})
        if len(base["equations"]) > 8:
            base["equations"] = base["equations"][:8]
    return base


SHAPES = [([2], 1), ([3], 1), ([5], 1), ([8], 1), ([2, 2], 2), ([3, 3], 2), ([4, 2], 2),
          ([8, 1], 2), ([2, 1], 2), ([3, 2], 2), ([2, 2, 2], 2), ([2, 2, 1], 3), ([2, 2, 2], 3),
          ([3, 3, 1], 3), ([8, 1, 1], 3), ([1, 1, 1], 3), ([2, 2, 2, 1], 4), ([1, 1, 1, 8], 4),
          ([3, 3, 1, 1], 4), ([2, 1, 1, 1], 4), ([1, 1, 1, 1, 2], 4)]


def payloads(seed: int) -> list[dict]:
    rng = random.Random(seed)
    out = list(FIXED)
    for _ in range(120):
        out.append(structured(rng))
    for degrees, n in SHAPES:
        for density, numerator, denominator in ((0.3, 6, 1), (0.5, 10, 3), (0.8, 1000, 100)):
            for _ in range(3 if numerator < 1000 else 1):
                out.append(random_system(rng, degrees, n, density, numerator, denominator))
    return out


def answer(result) -> dict | str:
    """What the recording keeps of a result or a refusal's message."""
    text = json.dumps(result)
    if isinstance(result, dict) and len(text) > 2000:
        return {"sha256": hashlib.sha256(text.encode()).hexdigest()}
    return result


def main() -> None:
    out = []
    for payload in payloads(int(sys.argv[1])):
        try:
            out.append([payload, answer(script.run("poly.system.solve", payload))])
        except MathError as error:
            out.append([payload, str(error)])
    print(json.dumps(out, separators=(",", ":")))


if __name__ == "__main__":
    main()
