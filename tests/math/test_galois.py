"""Preflight of poly.galois.group: a polynomial for every transitive group of degree 3 to 5 and
most of degree 6, the degenerate degrees 1 and 2 and reducible inputs, the adversarial pair
x^4 + 8x + 12 (A4) and x^4 - 10x^2 + 1 (V4) that a "square discriminant means A_n" shortcut
confuses, and two invariants checked independently of sympy: the discriminant's squareness
against the parity of the returned group, and Dedekind's theorem (f's factorisation pattern
modulo every good prime below 120 is the cycle type of an element of the group)."""

from __future__ import annotations

from fractions import Fraction

from math_support import factor_degrees_mod_p, rejected, run

ID = "poly.galois.group"

KNOWN = [  # (coefficients, label, order)
    ([1, 0, -2], "2T1", 2),
    ([1, 0, -3, -1], "3T1", 3), ([1, 0, 0, -2], "3T2", 6),
    ([1, 1, 1, 1, 1], "4T1", 4), ([1, 0, -10, 0, 1], "4T2", 4), ([1, 0, 0, 0, -2], "4T3", 8),
    ([1, 0, 0, 8, 12], "4T4", 12), ([1, 0, 0, 1, 1], "4T5", 24),
    ([1, 1, -4, -3, 3, 1], "5T1", 5), ([1, 0, 0, 0, -5, 12], "5T2", 10),
    ([1, 0, 0, 0, 0, -2], "5T3", 20), ([1, 0, 0, 0, 20, 16], "5T4", 60),
    ([1, 0, 0, 0, -1, -1], "5T5", 120),
    ([1, 1, 1, 1, 1, 1, 1], "6T1", 6), ([1, 0, 0, 0, 0, 0, 3], "6T2", 6),
    ([1, 0, 0, 3, 0, 0, 1], "6T3", 12), ([1, 0, 0, 0, 0, -1, -1], "6T16", 720),
]


def galois(coefficients, variable="x"):
    return run(ID, {"polynomial": {"variable": variable, "coefficients": coefficients}})


def elements(generators, n):
    seen, frontier = {tuple(range(n))}, [tuple(range(n))]
    while frontier:
        frontier = [g for g in {tuple(h[x] for x in p) for p in frontier for h in generators}
                    if g not in seen]
        seen.update(frontier)
    return seen


def cycle_type(p):
    seen, lengths = set(), []
    for start in range(len(p)):
        if start not in seen:
            length, i = 0, start
            while i not in seen:
                seen.add(i)
                i, length = p[i], length + 1
            lengths.append(length)
    return sorted(lengths)


def is_square(value: Fraction) -> bool:
    from math import isqrt
    return value >= 0 and all(isqrt(v) ** 2 == v for v in (value.numerator, value.denominator))


def check(coefficients, result):
    """The group's order, parity and cycle types against independent facts about f."""
    n = len(coefficients) - 1
    group = elements(result["generators"], n)
    assert len(group) == result["order"] and result["degree"] == n
    assert all(any(g[0] == k for g in group) for k in range(n))  # transitive
    disc = Fraction(result["discriminant"])
    even = all(sum(c - 1 for c in cycle_type(g)) % 2 == 0 for g in group)
    assert even == result["in_alternating"] == is_square(disc)
    types = {tuple(cycle_type(g)) for g in group}
    f = result["polynomial"]["coefficients"]
    for p in (p for p in range(3, 120) if all(p % d for d in range(2, p))):
        if f[0] % p and disc.numerator % p:
            assert tuple(factor_degrees_mod_p(f, p)) in types, p


def test_known_groups_of_every_degree():
    for coefficients, label, order in KNOWN:
        result = galois(coefficients)
        assert (result["status"], result["label"], result["order"]) == ("group", label, order)
        check(coefficients, result)
    assert galois([1, 0, 0, 0, -2])["name"] == "D4"
    assert galois([1, 0, 0, 0, -1, -1])["generators"]


def test_degenerate_degrees_and_reducible_inputs():
    linear = galois(["1/2", 3], "t")
    assert linear == {"status": "group", "polynomial": {"variable": "t", "coefficients": [1, 6]},
                      "degree": 1, "label": "1T1", "name": "trivial", "order": 1,
                      "generators": [[0]], "discriminant": "1", "in_alternating": True}
    assert galois([1, 0, -1]) == {"status": "reducible", "factors": [
        {"variable": "x", "coefficients": [1, -1]}, {"variable": "x", "coefficients": [1, 1]}]}
    # (x^2 + 1)^2 (x - 2): repeated factors are listed with repetition
    repeated = galois([1, -2, 2, -4, 1, -2])
    assert [f["coefficients"] for f in repeated["factors"]] == [[1, -2], [1, 0, 1], [1, 0, 1]]
    # rational coefficients: the primitive integer polynomial has the same group
    assert galois(["1/3", 0, 0, 0, "-2/3"])["polynomial"]["coefficients"] == [1, 0, 0, 0, -2]


def test_adversarial_square_discriminant_is_not_enough():
    a4, v4 = galois([1, 0, 0, 8, 12]), galois([1, 0, -10, 0, 1])
    assert a4["in_alternating"] and v4["in_alternating"]
    assert (a4["label"], v4["label"]) == ("4T4", "4T2")
    # x^4 + 1 splits into quadratics modulo every prime, yet its group is V4, not C2
    assert galois([1, 0, 0, 0, 1])["label"] == "4T2"


def test_sextic_labels_match_parity_and_order():
    parity = {"6T1": False, "6T2": False, "6T3": False, "6T4": True, "6T16": False}
    for coefficients, label, _ in KNOWN:
        if label in parity:
            assert galois(coefficients)["in_alternating"] == parity[label]
    big = galois([1, 0, 0, 10**29, 0, 0, 10**29])
    assert big["status"] == "group" and big["order"] in (6, 12, 18, 36, 72)
    check([1, 0, 0, 10**29, 0, 0, 10**29], big)


def test_request_boundary():
    top = [1] + [10**30 - 1 - k for k in range(6)]
    result = galois(top)
    assert result["status"] in ("group", "reducible", "undetermined")
    if result["status"] == "group":
        check(top, result)
    assert rejected(ID, {"polynomial": {"variable": "x", "coefficients": [5]}}) == [
        "degree_out_of_range"]
    assert rejected(ID, {"polynomial": {"variable": "x", "coefficients": [1] * 8}}) == [
        "too_long"]
    assert rejected(ID, {"polynomial": {"variable": "x", "coefficients": []}}) == ["too_short"]
    assert rejected(ID, {"polynomial": {"variable": "x", "coefficients": [0, 1]}}) == [
        "polynomial_leading_zero"]
    assert rejected(ID, {"polynomial": {"variable": "x", "coefficients": [1, 0.5]}}) != []


def test_every_label_has_the_lmfdb_order_and_parity():
    # LMFDB's transitive groups of degree 4 to 6: label -> (order, contained in A_n)
    lmfdb = {"4T1": (4, False), "4T2": (4, True), "4T3": (8, False), "4T4": (12, True),
             "4T5": (24, False), "5T1": (5, True), "5T2": (10, True), "5T3": (20, False),
             "5T4": (60, True), "5T5": (120, False), "6T1": (6, False), "6T2": (6, False),
             "6T3": (12, False), "6T4": (12, True), "6T5": (18, False), "6T6": (24, False),
             "6T7": (24, True), "6T8": (24, False), "6T9": (36, False), "6T10": (36, True),
             "6T11": (48, False), "6T12": (60, True), "6T13": (72, False),
             "6T14": (120, False), "6T15": (360, True), "6T16": (720, False)}
    from sympy.combinatorics import galois as groups
    from synsema.stdlib.math.domains.galois import LABELS
    tables = {4: groups.S4TransitiveSubgroups, 5: groups.S5TransitiveSubgroups,
              6: groups.S6TransitiveSubgroups}
    for (n, name), (label, _) in LABELS.items():
        if n >= 4:
            group = tables[n][name].get_perm_group()
            assert (group.order(), all(p.is_even for p in group.elements)) == lmfdb[label]
    assert sorted(label for label, _ in LABELS.values() if label[0] in "456") == sorted(lmfdb)
