"""Preflight of seq.holonomic.find: the Catalan, Motzkin, factorial and derangement
recurrences, the degenerate one-term and all-zero inputs, the honest states (the first 8 digits
of pi get only a candidate; a sequence with an order-1 fit but too few terms is not called
determined), the adversarial sequence a(n) = 2^n + p b(n) that a fixed-prime screen would take
for 2^n, and the invariant: every returned recurrence is checked here by substitution, and
the first terms of a determined one reproduce the rest."""

from __future__ import annotations

import random
from fractions import Fraction
from math import comb, factorial

from math_support import rejected, run

ID = "seq.holonomic.find"
CATALAN = [comb(2 * n, n) // (n + 1) for n in range(20)]


def guess(terms, **options):
    return run(ID, {"terms": terms, **options})


def polys(result):
    return [[Fraction(c) for c in p["coefficients"]] for p in result["coefficients"]]


def evaluate(p, n):
    value = Fraction(0)
    for c in p:
        value = value * n + c
    return value


def check(terms, result):
    """The recurrence holds at every n the terms reach (substitution in Fractions)."""
    ps = polys(result)
    r = result["order"]
    assert len(ps) == r + 1 and any(ps)
    assert all(len(p) <= result["degree"] + 1 for p in ps)
    for n in range(len(terms) - r):
        assert sum(evaluate(p, n) * terms[n + i] for i, p in enumerate(ps)) == 0
    assert result["equations"] == len(terms) - r


def test_known_recurrences():
    catalan = guess(CATALAN)
    assert (catalan["status"], catalan["order"], catalan["degree"]) == ("determined", 1, 1)
    assert polys(catalan) == [[-4, -2], [1, 2]]  # (n + 2) a(n+1) = (4n + 2) a(n)
    assert catalan["confirming_terms"] == 16 and catalan["nullity"] == 1
    check(CATALAN, catalan)
    motzkin = [1, 1, 2, 4, 9, 21, 51, 127, 323, 835, 2188, 5798, 15511, 41835, 113634]
    result = guess(motzkin)
    assert polys(result) == [[-3, -3], [-2, -5], [1, 4]] and result["status"] == "determined"
    assert polys(guess([factorial(n) for n in range(12)])) == [[-1, -1], [1]]
    derangements = [1, 0, 1, 2, 9, 44, 265, 1854, 14833, 133496, 1334961]
    result = guess(derangements)
    assert polys(result) == [[-1, -1], [-1, -1], [1]]
    check(derangements, result)


def test_degenerate_inputs():
    assert guess([5]) == {"status": "none", "searched":
                          "order 1..4, coefficient degree <= 4, 1 terms"}
    zeros = guess([0] * 10)
    assert (zeros["status"], zeros["order"], zeros["nullity"]) == ("underdetermined", 1, 2)
    check([0] * 10, zeros)
    assert guess([3, 6])["status"] == "candidate"  # a(1) = 2 a(0): nothing left to test it
    assert guess([2 ** n for n in range(10)], max_order=1, max_degree=0)["confirming_terms"] == 8


def test_honest_states():
    pi = guess([3, 1, 4, 1, 5, 9, 2, 6])
    assert pi["status"] == "candidate" and pi["confirming_terms"] == 0
    check([3, 1, 4, 1, 5, 9, 2, 6], pi)
    # the Catalan recurrence has 4 unknowns: 4 terms pin it, the fifth confirms it
    assert guess(CATALAN[:4])["status"] != "determined"
    five = guess(CATALAN[:5])
    assert (five["status"], five["confirming_terms"]) == ("determined", 1)
    primes = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73]
    assert guess(primes)["status"] == "none"


def test_adversarial_not_fooled_by_a_prime():
    rng = random.Random(1)
    for p in (2**61 - 1, 2**62 - 57):
        terms = [2 ** n + p * rng.randrange(1, 10**5) for n in range(40)]
        assert guess(terms)["status"] == "none"
    # a fit that exists only with polynomial coefficients, invisible to constant ones
    assert guess(CATALAN, max_degree=0)["status"] == "none"


def test_request_boundary():
    rng = random.Random(2)
    top = [rng.randrange(-10**30 + 1, 10**30) for _ in range(100)]
    assert guess(top)["status"] == "none"
    assert rejected(ID, {"terms": []}) == ["too_short"]
    assert rejected(ID, {"terms": [1] * 101}) == ["too_long"]
    assert rejected(ID, {"terms": [10**30]}) == ["integer_out_of_range"]
    assert rejected(ID, {"terms": [1, 2], "max_order": 5}) == ["less_than_equal"]
    assert rejected(ID, {"terms": [1, 2], "max_degree": -1}) == ["greater_than_equal"]
    assert rejected(ID, {"terms": [1.5]}) != []
