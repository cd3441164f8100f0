"""Preflight of poly.modp.compute: known factorisations, degenerate polynomials, x^4 + 1 (prime
over Q, split mod every p) and exponents no naive power can reach, invariants recomputed here
with plain modular arithmetic, and the request boundary."""

from __future__ import annotations

import itertools
import random

from math_support import rejected, run

ID = "poly.modp.compute"


def modp(operation: str, p: int, f, **extra) -> dict:
    return run(ID, {"operation": operation, "p": p, "f": f, **extra})


def strip(f):
    f = list(f)
    while f and f[0] == 0:
        f.pop(0)
    return f


def mul(f, g, p):
    if not f or not g:
        return []
    out = [0] * (len(f) + len(g) - 1)
    for i, a in enumerate(f):
        for j, b in enumerate(g):
            out[i + j] = (out[i + j] + a * b) % p
    return strip(out)


def rem(f, g, p):
    f, inv = [c % p for c in strip(f)], pow(g[0], -1, p)
    while len(f) >= len(g):
        factor = f[0] * inv % p
        f = strip([(a - factor * b) % p for a, b in zip(f, g + [0] * (len(f) - len(g)))])
    return f


def irreducible(g, p) -> bool:
    """No monic factor of degree 1..deg/2 (brute force, small p only)."""
    d = len(g) - 1
    for k in range(1, d // 2 + 1):
        for tail in itertools.product(range(p), repeat=k):
            if not rem(g, [1, *tail], p):
                return False
    return True


def check_factorization(f, p, result) -> None:
    product = [result["leading"]]
    for item in result["factors"]:
        g = item["factor"]
        assert g[0] == 1 and all(0 <= c < p for c in g)
        if p ** ((len(g) - 1) // 2) <= 2000:
            assert irreducible(g, p)
        for _ in range(item["multiplicity"]):
            product = mul(product, g, p)
    assert product == strip([c % p for c in f])
    assert len({tuple(i["factor"]) for i in result["factors"]}) == len(result["factors"])


def test_known_answers():
    assert modp("factor", 5, [1, 0, 0, 0, 1]) == {"operation": "factor", "leading": 1, "factors": [
        {"factor": [1, 0, 2], "multiplicity": 1}, {"factor": [1, 0, 3], "multiplicity": 1}]}
    assert modp("gcd", 3, [1, 0, -1], g=[1, 2, 1]) == {"operation": "gcd", "gcd": [1, 1],
                                                      "s": [1], "t": [2]}
    assert modp("powmod", 7, [1, 0], g=[1, 0, 1], exponent=2)["value"] == [6]  # x^2 = -1


def test_degenerate_polynomials():
    assert modp("factor", 7, [3]) == {"operation": "factor", "leading": 3, "factors": []}
    assert modp("factor", 2, [1, 0, 0])["factors"] == [{"factor": [1, 0], "multiplicity": 2}]
    assert modp("gcd", 7, [], g=[]) == {"operation": "gcd", "gcd": [], "s": [1], "t": []}
    assert modp("gcd", 7, [], g=[2, 4])["gcd"] == [1, 2]
    assert modp("powmod", 7, [], g=[2], exponent=0)["value"] == []  # everything is 0 mod a unit
    assert modp("powmod", 7, [1, 0], g=[1, 0, 1], exponent=0)["value"] == [1]
    assert modp("factor", 5, [-4, 5, 6])["leading"] == 1  # read mod 5: x^2 + 1


def test_adversarial_x4_plus_1_and_huge_exponents():
    # Irreducible over Q (poly.factor keeps it whole) but reducible modulo every prime.
    for p in (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47):
        result = modp("factor", p, [1, 0, 0, 0, 1])
        assert sum(i["multiplicity"] for i in result["factors"]) >= 2
        check_factorization([1, 0, 0, 0, 1], p, result)
    # Frobenius: x^(p^2) = x modulo an irreducible quadratic, with p^2 far past any naive
    # power (x^(p^2) would have about 10^48 coefficients).
    from sympy import prevprime
    p = prevprime(10**24)
    g = next([1, 0, a] for a in range(1, 100) if pow(p - a, (p - 1) // 2, p) == p - 1)
    assert modp("powmod", str(p), [1, 0], g=g, exponent=str(p * p))["value"] == [1, 0]
    assert modp("powmod", str(p), [1, 0], g=g, exponent=str(p))["value"] != [1, 0]


def test_invariants_on_random_polynomials():
    rng = random.Random(3)
    for p in (2, 3, 5, 101):
        f = [1] + [rng.randrange(p) for _ in range(rng.randrange(1, 9))]
        check_factorization(f, p, modp("factor", p, f))
        g = [rng.randrange(1, p)] + [rng.randrange(p) for _ in range(rng.randrange(0, 6))]
        result = modp("gcd", p, f, g=g)
        h = result["gcd"]
        lhs = strip([(a + b) % p for a, b in itertools.zip_longest(
            reversed(mul(result["s"], f, p)), reversed(mul(result["t"], g, p)), fillvalue=0)][::-1])
        assert lhs == h and h[0] == 1 and not rem(f, h, p) and not rem(g, h, p)
        e = rng.randrange(0, 200)
        power = [1]
        for _ in range(e):
            power = rem(mul(power, f, p), g, p) if len(g) > 1 else []
        assert modp("powmod", p, f, g=g, exponent=e)["value"] == (power if len(g) > 1 else [])


def test_request_boundary():
    from sympy import prevprime
    p = prevprime(10**24)
    rng = random.Random(5)
    f = [1] + [str(rng.randrange(p)) for _ in range(32)]
    result = modp("factor", str(p), f)
    assert sum(len(i["factor"]) - 1 for i in result["factors"]) == 32
    assert rejected(ID, {"operation": "factor", "p": 15, "f": [1, 1]}) == ["modp_request"]
    assert rejected(ID, {"operation": "factor", "p": str(10**24), "f": [1]}) == ["integer_text"]
    assert rejected(ID, {"operation": "factor", "p": 5, "f": [5, 1]}) == ["modp_request"]
    assert rejected(ID, {"operation": "factor", "p": 5, "f": []}) == ["modp_request"]
    assert rejected(ID, {"operation": "gcd", "p": 5, "f": [1]}) == ["modp_request"]
    assert rejected(ID, {"operation": "powmod", "p": 5, "f": [1], "g": [1]}) == ["modp_request"]
    assert rejected(ID, {"operation": "powmod", "p": 5, "f": [1], "g": [], "exponent": 2}) == [
        "modp_request"]
    assert rejected(ID, {"operation": "factor", "p": 5, "f": [1] * 34}) == ["too_long"]
    assert rejected(ID, {"operation": "root", "p": 5, "f": [1]}) == ["literal_error"]
