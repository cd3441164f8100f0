"""Preflight of seq.recurrence.find: known sequences, degenerate inputs, a sequence that agrees
with Fibonacci for a while (a prefix fit would claim Fibonacci), the recurrence, generating
function and minimality checked independently, and the request boundary."""

from __future__ import annotations

import random

from math_support import q, rank_fraction, rejected, run

ID = "seq.recurrence.find"


def find(terms) -> dict:
    return run(ID, {"terms": [str(t) if abs(t) > 2**53 else t for t in terms]})


def fits(terms, order: int) -> bool:
    """Is there any recurrence of this order fitting every term? (a linear system's consistency)"""
    rows = [[terms[n - i] for i in range(1, order + 1)] + [terms[n]]
            for n in range(order, len(terms))]
    if not rows:
        return True
    return rank_fraction([r[:-1] for r in rows]) == rank_fraction(rows) if order else all(t == 0 for t in terms)


def check(terms, result, minimal: bool = True) -> None:
    order, c = result["order"], [q(v) for v in result["coefficients"]]
    assert len(c) == order
    assert all(terms[n] == sum(c[i] * terms[n - 1 - i] for i in range(order))
               for n in range(order, len(terms)))
    # the generating function: Q * (sum a_n x^n) = P modulo x^N
    num = [q(v) for v in reversed(result["numerator"]["coefficients"])]
    den = [q(v) for v in reversed(result["denominator"]["coefficients"])]
    assert den[0] == 1 and len(num) <= order
    for n in range(len(terms)):
        lhs = sum(den[i] * terms[n - i] for i in range(min(len(den) - 1, n) + 1))
        assert lhs == (num[n] if n < len(num) else 0)
    assert not minimal or order == 0 or not fits(terms, order - 1)
    n = len(terms)
    assert result["status"] == ("determined" if 2 * order < n else
                                "candidate" if 2 * order == n else "underdetermined")
    assert result["confirming_terms"] == max(0, n - 2 * order)
    assert result["verified_terms"] == len(terms)


def test_known_sequences():
    fib = find([1, 1, 2, 3, 5, 8, 13, 21])
    assert fib["status"] == "determined" and fib["coefficients"] == ["1", "1"]
    assert fib["numerator"]["coefficients"] == ["1"]
    assert fib["denominator"]["coefficients"] == ["-1", "-1", "1"]  # 1 - x - x^2
    squares = find([n * n for n in range(10)])
    assert squares["coefficients"] == ["3", "-3", "1"]
    check([n * n for n in range(10)], squares)
    halves = find([2**n + 3**n for n in range(8)])
    assert halves["coefficients"] == ["5", "-6"]


def test_degenerate_inputs():
    assert find([0, 0, 0])["order"] == 0
    assert find([0, 0, 0])["denominator"]["coefficients"] == ["1"]
    single = find([5])
    assert single["status"] == "underdetermined" and single["order"] == 1
    check([5], single)
    impulse = [0, 1, 0, 0, 0, 0]
    result = find(impulse)
    assert result["order"] == 2 and result["numerator"]["coefficients"] == ["1", "0"]  # x
    check(impulse, result)
    constant = find([7] * 6)
    assert constant["coefficients"] == ["1"]


def test_adversarial_sequence_that_leaves_fibonacci():
    # Agrees with Fibonacci for ten terms: fitting order 2 on a prefix claims Fibonacci, but
    # the last term breaks it; the minimal recurrence that fits everything is much longer.
    terms = [1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 90]
    result = find(terms)
    assert result["order"] > 2 and result["status"] == "underdetermined"
    check(terms, result)
    assert not fits(terms, 2)


def test_invariants_on_random_recurrences():
    rng = random.Random(10)
    for order in range(1, 7):
        c = [rng.randrange(-4, 5) for _ in range(order - 1)] + [rng.choice([-2, -1, 1, 3])]
        terms = [rng.randrange(-9, 10) for _ in range(order)]
        while len(terms) < 3 * order + 2:
            terms.append(sum(c[i] * terms[-1 - i] for i in range(order)))
        result = find(terms)
        check(terms, result)
        assert result["status"] == "determined" and result["order"] <= order


def test_request_boundary():
    rng = random.Random(12)
    terms = [rng.randrange(-10**30 + 1, 10**30) for _ in range(64)]
    result = find(terms)
    assert result["order"] == 32 and result["status"] == "candidate"  # random: no confirmation
    check(terms, result, minimal=False)  # a 33 x 32 elimination on 30-digit Fractions is slow
    assert max(len(v) for v in result["coefficients"]) < 2000
    assert rejected(ID, {"terms": []}) == ["too_short"]
    assert rejected(ID, {"terms": [1] * 65}) == ["too_long"]
    assert rejected(ID, {"terms": [str(10**30)]}) == ["integer_text"]
    assert rejected(ID, {"terms": ["1/2"]}) == ["integer_text"]
    assert rejected(ID, {"terms": [1.5]}) == ["integer_type"]


def test_nothing_left_to_confirm_is_a_candidate_not_determined():
    # Issue 28: the first 8 digits of pi got an order-4 recurrence called determined, and 20
    # Catalan numbers (no constant-coefficient recurrence) an order-10 one.
    pi = find([3, 1, 4, 1, 5, 9, 2, 6])
    assert (pi["status"], pi["order"], pi["confirming_terms"]) == ("candidate", 4, 0)
    check([3, 1, 4, 1, 5, 9, 2, 6], pi)
    catalan = [1]
    for n in range(19):
        catalan.append(catalan[-1] * 2 * (2 * n + 1) // (n + 2))
    result = find(catalan)
    assert result["status"] in ("candidate", "underdetermined") and result["order"] >= 10
    check(catalan, result)
    # One term beyond the fit: Fibonacci's order 2 from 5 terms is confirmed by the fifth.
    fib = find([1, 1, 2, 3, 5])
    assert (fib["status"], fib["order"], fib["confirming_terms"]) == ("determined", 2, 1)
    assert find([1, 1, 2, 3])["status"] == "candidate"
