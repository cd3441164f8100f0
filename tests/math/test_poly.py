"""Preflight of the polynomial operations over Q (MATH.md §5.2, §9.2)."""

from __future__ import annotations

import random
from fractions import Fraction

from math_support import (from_roots, poly_add, poly_mul, poly_rem, poly_strip, q, rejected,
                          run, swinnerton_dyer, swinnerton_dyer_numeric, wire)


def P(coefficients, variable: str = "x") -> dict:
    return {"variable": variable, "coefficients": wire(coefficients)}


def expand(*factors) -> list:
    out = [Fraction(1)]
    for f in factors:
        out = poly_mul(out, f)
    return out


KAT = expand([1, -1], [1, -1], [1, -1], [1, 0, 1], [1, 0, 0, 0, -1, 1])  # (x-1)^3(x^2+1)(x^5-x+1)


def check_factorization(f: list, result: dict) -> None:
    product = [q(result["content"])]
    for item in result["factors"]:
        g = item["factor"]["coefficients"]
        assert g[0] > 0 and all(isinstance(c, int) for c in g)
        from math import gcd
        assert gcd(*g) == 1
        for _ in range(item["multiplicity"]):
            product = poly_mul(product, g)
    assert poly_strip(product) == poly_strip(f)
    gs = [item["factor"]["coefficients"] for item in result["factors"]]
    for i in range(len(gs)):
        for j in range(i + 1, len(gs)):  # pairwise coprime: Euclid ends in a constant
            a, b = gs[i], gs[j]
            while b and len(b) > 1:
                a, b = b, poly_rem(a, b)
            assert b and len(b) == 1


# --- poly.factor ----------------------------------------------------------------------------

def test_factor_known_answer():
    result = run("poly.factor", {"polynomial": P(KAT)})
    assert result == {"content": "1", "factors": [
        {"factor": {"variable": "x", "coefficients": [1, -1]}, "multiplicity": 3},
        {"factor": {"variable": "x", "coefficients": [1, 0, 1]}, "multiplicity": 1},
        {"factor": {"variable": "x", "coefficients": [1, 0, 0, 0, -1, 1]}, "multiplicity": 1}]}
    check_factorization(KAT, result)


def test_factor_boundaries():
    assert run("poly.factor", {"polynomial": P([5])}) == {"content": "5", "factors": []}
    assert run("poly.factor", {"polynomial": P([1, 0])})["factors"] == [
        {"factor": {"variable": "x", "coefficients": [1, 0]}, "multiplicity": 1}]
    half = run("poly.factor", {"polynomial": P(["-1/2", 0, "1/2"])})
    assert half["content"] == "-1/2"
    check_factorization([Fraction(-1, 2), 0, Fraction(1, 2)], half)
    assert rejected("poly.factor", {"polynomial": P([])}) == ["too_short"]
    assert rejected("poly.factor", {"polynomial": P([0, 1])}) == ["polynomial_leading_zero"]
    assert rejected("poly.factor", {"polynomial": {"variable": "X", "coefficients": [1]}}) == [
        "string_pattern_mismatch"]


def test_factor_adversarial_irreducible_yet_reducible_mod_every_prime():
    for f in ([1, 0, 0, 0, 1], swinnerton_dyer(4)):
        result = run("poly.factor", {"polynomial": P(f)})
        assert [item["factor"]["coefficients"] for item in result["factors"]] == [f]


def test_factor_largest_accepted_inputs():
    sd5 = swinnerton_dyer(5)
    assert len(sd5) == 33
    result = run("poly.factor", {"polynomial": P(sd5)})
    assert len(result["factors"]) == 1 and result["factors"][0]["factor"]["coefficients"] == sd5
    rng = random.Random(21)
    f = [Fraction(rng.randrange(10**29, 10**30), rng.randrange(1, 10**6)) for _ in range(33)]
    check_factorization(f, run("poly.factor", {"polynomial": P(f)}))
    product = expand([3, -1], [1, 0, -7], [rng.randrange(-10**6, 10**6) for _ in range(30)])
    check_factorization(product, run("poly.factor", {"polynomial": P(product)}))
    assert rejected("poly.factor", {"polynomial": P([1] * 130)}) == ["too_long"]
    assert rejected("poly.factor", {"polynomial": P([10**600, 1])}) == ["rational_out_of_range"]
    assert rejected("poly.factor", {"polynomial": P(["1/1000000", 1])}) == [
        "rational_out_of_range"]


def test_factor_degree_limit_follows_coefficient_size():
    # x^105 - 1 = prod over d | 105 of Phi_d: eight factors of degrees phi(d).
    x105 = [1] + [0] * 104 + [-1]
    result = run("poly.factor", {"polynomial": P(x105)})
    assert [len(i["factor"]["coefficients"]) - 1 for i in result["factors"]] == [
        1, 2, 4, 6, 8, 12, 24, 48]
    check_factorization(x105, result)
    # Swinnerton-Dyer of degree 128 (87-digit coefficients): irreducible over Q, though it has
    # 64 or more factors modulo every prime (the case Zassenhaus's subset search cannot do).
    sd7 = swinnerton_dyer_numeric(7)
    assert len(sd7) == 129 and 80 < len(str(max(sd7))) < 90
    result = run("poly.factor", {"polynomial": P(sd7)})
    assert [i["factor"]["coefficients"] for i in result["factors"]] == [sd7]
    sd6 = swinnerton_dyer_numeric(6)
    product = expand(sd6, [1] + [0] * 62 + [-2])  # times x^63 - 2 (Eisenstein at 2)
    check_factorization(product, run("poly.factor", {"polynomial": P(product)}))
    # The size rule: (degree + 1) x digits <= 20000, so degree 32 takes 600-digit coefficients
    # and degree 128 155-digit ones, but not 156.
    wide = [10**599 + 7, 0, -(10**599)] + [0] * 29 + [3]
    check_factorization(wide, run("poly.factor", {"polynomial": P(wide)}))
    assert run("poly.factor", {"polynomial": P([10**154] + [0] * 127 + [1])})["content"] == "1"
    assert rejected("poly.factor", {"polynomial": P([10**155] + [0] * 127 + [1])}) == [
        "polynomial_too_large"]
    many_denominators = [f"1/{10**6 - 1 - i}" for i in range(129)]  # their lcm has ~770 digits
    assert rejected("poly.factor", {"polynomial": P(many_denominators)}) == [
        "polynomial_too_large"]


# --- poly.roots -----------------------------------------------------------------------------

def roots(coefficients, isolate=False) -> dict:
    return run("poly.roots", {"polynomial": P(coefficients), "isolate": isolate})


def check_regions(result: dict) -> None:
    """Each isolating region holds exactly one root (sympy's root counting, an independent
    algorithm) and the regions of one factor are pairwise disjoint."""
    from sympy import I, Poly, Symbol
    x = Symbol("x")
    for group in result["algebraic_roots"]:
        g = Poly(group["minimal_polynomial"]["coefficients"], x)
        regions = []
        for number in group["roots"]:
            root = number["root"]
            if root["kind"] == "real":
                a, b = map(q, root["interval"])
                assert g.count_roots(a, b) == 1
                regions.append((a, b, Fraction(0), Fraction(0)))
            else:
                a, b, c, d = map(q, root["box"])
                assert (c > 0 or d < 0) and g.count_roots(a + c * I, b + d * I) == 1
                regions.append((a, b, c, d))
        assert len(regions) == len(g.all_coeffs()) - 1
        for i in range(len(regions)):
            for j in range(i + 1, len(regions)):
                r, s = regions[i], regions[j]
                assert r[1] < s[0] or s[1] < r[0] or r[3] < s[2] or s[3] < r[2]


def check_roots(f: list, result: dict) -> None:
    assert result["total_multiplicity"] == result["degree"] == len(f) - 1
    product = [Fraction(f[0])]
    for r in result["rational_roots"]:
        for _ in range(r["multiplicity"]):
            product = poly_mul(product, [1, -q(r["value"])])
    for group in result["algebraic_roots"]:
        g = group["minimal_polynomial"]["coefficients"]
        monic = [Fraction(c, g[0]) for c in g]
        for _ in range(group["multiplicity"]):
            product = poly_mul(product, monic)
    assert poly_strip(product) == poly_strip(f)


def test_roots_known_answer_is_the_complete_multiset():
    result = roots(KAT)
    assert result["rational_roots"] == [{"value": "1", "multiplicity": 3}]
    assert [g["minimal_polynomial"]["coefficients"] for g in result["algebraic_roots"]] == [
        [1, 0, 1], [1, 0, 0, 0, -1, 1]]
    assert result["total_multiplicity"] == 10
    check_roots(KAT, result)
    # the tempting backend call drops the five roots it cannot write in radicals
    from sympy import Poly, Symbol, roots as sympy_roots
    x = Symbol("x")
    assert sum(sympy_roots(Poly([int(c) for c in KAT], x)).values()) == 5


def test_roots_boundaries():
    assert roots([7]) == {"degree": 0, "rational_roots": [], "algebraic_roots": [],
                          "total_multiplicity": 0}
    assert roots([2, -1])["rational_roots"] == [{"value": "1/2", "multiplicity": 1}]
    two = roots([1, 0, -2])
    assert two["rational_roots"] == [] and two["algebraic_roots"][0]["roots"] is None
    assert two["algebraic_roots"][0]["minimal_polynomial"]["coefficients"] == [1, 0, -2]
    check_roots(from_roots("1/3", "-5/7", "-5/7"), roots(from_roots("1/3", "-5/7", "-5/7")))


def test_roots_isolating_regions_hold_exactly_one_root_each():
    for f in ([1, 0, 0, -2], [1, 0, 0, 0, -1, 1], [1, 0, 1], expand([1, 0, -2], [1, 0, -3])):
        result = roots(f, isolate=True)
        check_roots(f, result)
        check_regions(result)
        approx = [complex(n["approx"].replace(" ", "").replace("i", "j"))
                  for g in result["algebraic_roots"] for n in g["roots"]]
        assert all(abs(sum(Fraction(c) * z ** (len(f) - 1 - k) for k, c in enumerate(f)))
                   < 1e-9 for z in approx)


def test_roots_isolation_separates_clustered_roots():
    # x^12 - 2 (10^4 x - 1)^2 has two real roots about 10^-24 apart near 10^-4 (Mignotte).
    f = poly_add([1] + [0] * 12, [-2 * c for c in poly_mul([10**4, -1], [10**4, -1])])
    result = roots(f, isolate=True)
    check_roots(f, result)
    check_regions(result)


def test_roots_request_boundary_of_isolation():
    rng = random.Random(8)
    f = [rng.randrange(10**11, 10**12)] + [rng.randrange(-10**12 + 1, 10**12) for _ in range(12)]
    result = roots(f, isolate=True)
    check_roots(f, result)
    check_regions(result)
    assert rejected("poly.roots", {"polynomial": P([1] * 14), "isolate": True}) == [
        "isolate_bound"]
    assert rejected("poly.roots", {"polynomial": P([10**12, 1]), "isolate": True}) == [
        "isolate_bound"]
    assert rejected("poly.roots", {"polynomial": P(["1/1000", 1]), "isolate": True}) == [
        "isolate_bound"]
    check_roots([1] * 14, roots([1] * 14))  # without isolation degree 13 is fine
    assert rejected("poly.roots", {"polynomial": P([1, 2]), "isolate": "yes"}) == ["bool_type"]


# --- poly.gcd -------------------------------------------------------------------------------

def pgcd(f, h) -> dict:
    return run("poly.gcd", {"f": P(f), "h": P(h)})


def check_gcd(f, h, result) -> None:
    g = [q(c) for c in result["gcd"]["coefficients"]]
    s = [q(c) for c in result["s"]["coefficients"]]
    t = [q(c) for c in result["t"]["coefficients"]]
    assert poly_add(poly_mul(s, f), poly_mul(t, h)) == poly_strip(g)
    if g:
        assert g[0] == 1 and poly_rem(f, g) == [] and poly_rem(h, g) == []


def test_gcd_known_answer_and_boundaries():
    f, h = [1, 0, 0, 0, -1], [1, 0, 0, 0, 0, 0, -1]
    result = pgcd(f, h)
    assert result["gcd"]["coefficients"] == ["1", "0", "-1"]
    check_gcd(f, h, result)
    assert pgcd([], []) == {"gcd": {"variable": "x", "coefficients": []},
                            "s": {"variable": "x", "coefficients": []},
                            "t": {"variable": "x", "coefficients": []}}
    zero_left = pgcd([], [3, 3])
    assert zero_left["gcd"]["coefficients"] == ["1", "1"]
    assert zero_left["t"]["coefficients"] == ["1/3"]
    check_gcd([], [3, 3], zero_left)
    assert pgcd([1, 1], [1, 2])["gcd"]["coefficients"] == ["1"]


def test_gcd_adversarial_rational_roots_survive_exactly():
    f = from_roots("1/3", "1/5", "1/7")
    h = from_roots("1/3", "1/11", "1/13")
    result = pgcd(f, h)
    assert result["gcd"]["coefficients"] == ["1", "-1/3"]
    check_gcd(f, h, result)
    # Euclid in float64 ends with a tiny nonzero remainder: "coprime".
    a, b = [float(c) for c in f], [float(c) for c in h]
    while len(b) > 1:
        lead = a[0] / b[0]
        a = [x - lead * y for x, y in zip(a, b + [0.0] * (len(a) - len(b)))][1:]
        while a and a[0] == 0.0:
            a = a[1:]
        a, b = b, a
    assert len(b) == 1 and b[0] != 0.0


def test_gcd_request_boundary():
    rng = random.Random(9)
    common = [1] + [rng.randrange(-99, 99) for _ in range(4)]
    f = poly_mul(common, [rng.randrange(1, 999) for _ in range(12)])
    h = poly_mul(common, [rng.randrange(1, 999) for _ in range(12)])
    check_gcd(f, h, pgcd(f, h))
    assert rejected("poly.gcd", {"f": P([1] * 18), "h": P([1])}) == ["too_long"]
    assert rejected("poly.gcd", {"f": P([1, 0]), "h": P([1, 0], "y")}) == ["variable_mismatch"]
