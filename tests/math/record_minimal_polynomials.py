"""Record what nt.algebraic.minimal_polynomial answers for fixed texts and seeded random ones, as
JSON [[text, result or the refusal's message], ...]. A recording, not a test:

    .venv/bin/python tests/math/record_minimal_polynomials.py 31 250 > recorded.json

tests/math/data/minimal_polynomial_answers.json is this run (seed 31, 250 random texts). It was
first recorded at 40f070e, where sympy's Poly composed the polynomials; after the decimal's lost
sign was fixed, 70 `approx` fields changed and nothing else. tests/math/test_sympy_free.py checks
that the FLINT composition answers every text byte for byte as recorded, and checks every
recorded answer independently (irreducible, vanishing at the number, the decimal).
"""
from __future__ import annotations

import json
import random
import sys

from synsema.stdlib.math import script
from synsema.stdlib.math.errors import MathError

FIXED = [
    "sqrt(2) + sqrt(3)", "cos(2*pi/7)", "(1 + sqrt(5))/2", "(-8)^(1/3)", "I", "2^(1/3) + 3^(1/2)",
    "sin(pi/3)", "3/4", "sqrt(2)*sqrt(2) - 2", "0^(1/2)", "1/(sqrt(2) - sqrt(2))",
    "(sqrt(3)^2 - 3)^(-1)", "(2^(1/4) + 3^(1/4))^12", "(sqrt(2)*sqrt(2) - 10)^(1/2)", "cbrt(-8)",
    "sqrt(2) + sqrt(3) + sqrt(5)", "cos(2*pi/17)", "sqrt(2)*I + 5^(1/3)", "1/(1 + sqrt(2) + sqrt(3))",
    "sqrt(999999999989) + sqrt(999999999959) + sqrt(999999999961) + sqrt(999999999943)",
    "9999999999^16 * 999999999999^(1/16)", "x + 1", "2**(1/17)", "cos(2)", "1/0", "",
    "(999999999989^(1/16) * 999999999959)^16", "sqrt(-3)", "(-1)^(1/4)", "I^(1/2)", "(1+I)^(1/3)",
    "-sqrt(2)", "sqrt(-2)^(1/2)", "cos(pi/5) + sin(pi/5)", "(-2)^(3/4)", "cbrt(2)^3",
    "-(-4)^(1/2)", "(sqrt(2)-sqrt(2))^(1/3)", "(1 - sqrt(2))^(1/2)", "(3 - sqrt(8))^(1/2) - sqrt(2)",
    "1/I", "(I - I)^(-2)", "cos(3*pi/2)", "sin(pi)", "cos(pi)", "cos(2*pi/9)*2"]


def leaf(rng: random.Random) -> str:
    k = rng.choice([2, 3, 5, 6, 7, 10, 12, -2, -3, -1, 11])
    return rng.choice([
        str(rng.randrange(-9, 10)), f"{rng.randrange(1, 9)}/{rng.randrange(1, 9)}", "I",
        f"sqrt({k})", f"cbrt({k})",
        f"({k})^({rng.choice([1, 2, 3, -1, -2])}/{rng.choice([2, 3, 4])})",
        f"cos({rng.randrange(1, 13)}*pi/{rng.choice([3, 4, 5, 7, 8, 9, 12])})",
        f"sin(pi/{rng.choice([3, 4, 5, 6, 8, 10])})"])


def expr(rng: random.Random, depth: int) -> str:
    if depth == 0 or rng.random() < 0.3:
        return leaf(rng)
    op = rng.choice(["+", "-", "*", "/", "pow"])
    if op == "pow":
        return f"({expr(rng, depth - 1)})^({rng.choice([1, 2, 3, -1])}/{rng.choice([1, 2, 3])})"
    return f"({expr(rng, depth - 1)}) {op} ({expr(rng, depth - 1)})"


def main() -> None:
    rng = random.Random(int(sys.argv[1]))
    texts = FIXED + [expr(rng, rng.randrange(1, 4)) for _ in range(int(sys.argv[2]))]
    out = []
    for text in texts:
        try:
            out.append([text, script.run("nt.algebraic.minimal_polynomial", {"number": text})])
        except MathError as error:
            out.append([text, str(error)])
    print(json.dumps(out))


if __name__ == "__main__":
    main()
