"""Preflight of the number-theory and combinatorics operations (MATH.md §5.1, §9.2).

Per operation: a known answer, boundary and degenerate inputs, an adversarial input that a
tempting weaker algorithm gets wrong, the defining invariant checked on the returned value,
and the request boundary (the largest accepted input runs; the first rejected one is refused
with its documented code).
"""

from __future__ import annotations

import math
import random

from math_support import (MR_BASES, PSI13, rejected, run, strong_lucas_probable_prime,
                          strong_probable_prime)


def factor(n) -> list[tuple[int, int, str]]:
    return [(f["prime"], f["exponent"], f["primality"])
            for f in run("nt.integer.factor", {"n": n})["factors"]]


def check_factorization(n: int, factors) -> None:
    primes = [p for p, _, _ in factors]
    assert primes == sorted(set(primes))
    assert math.prod(p**e for p, e, _ in factors) == n
    for p, _, label in factors:
        if label == "proven":
            assert p < PSI13 and all(strong_probable_prime(p, a) for a in MR_BASES if a % p)
        else:
            assert p >= PSI13 and strong_probable_prime(p, 2)


# --- nt.integer.factor ----------------------------------------------------------------------

def test_factor_known_answers():
    assert factor(360) == [(2, 3, "proven"), (3, 2, "proven"), (5, 1, "proven")]
    assert factor(1000000016000000063) == [(10**9 + 7, 1, "proven"), (10**9 + 9, 1, "proven")]


def test_factor_boundaries():
    assert factor(1) == []
    top = 10**30 - 1
    factors = factor(str(top))
    check_factorization(top, factors)
    assert len(factors) == 13
    assert rejected("nt.integer.factor", {"n": str(10**30)}) == ["integer_text"]
    assert rejected("nt.integer.factor", {"n": 10**30}) == ["integer_out_of_range"]
    assert rejected("nt.integer.factor", {"n": 0}) == ["integer_out_of_range"]
    assert rejected("nt.integer.factor", {"n": "0360"}) == ["integer_text"]
    assert rejected("nt.integer.factor", {"n": 360.0}) == ["integer_type"]


def test_factor_adversarial_composite_cofactors_are_split():
    from sympy import nextprime
    p, q = nextprime(2**49), nextprime(2**49 + 2**40)
    # A partial factorisation (factorint with a limit) reports p*q itself as a "prime".
    assert factor(2 * p * q) == [(2, 1, "proven"), (p, 1, "proven"), (q, 1, "proven")]
    assert factor(561) == [(3, 1, "proven"), (11, 1, "proven"), (17, 1, "proven")]


def test_factor_labels_large_primes_as_bpsw_probable():
    from sympy import nextprime
    big = nextprime(PSI13)
    factors = factor(str(2 * big))
    assert factors == [(2, 1, "proven"), (big, 1, "bpsw_probable")]
    check_factorization(2 * big, factors)


def test_factor_invariant_on_random_inputs():
    rng = random.Random(7)
    for _ in range(8):
        n = rng.randrange(1, 10**24)
        check_factorization(n, factor(str(n)))


def test_factor_largest_accepted_input_is_a_balanced_100_bit_semiprime():
    from sympy import prevprime
    p, q = prevprime(7 * 10**14), prevprime(1428 * 10**12)
    assert p * q < 10**30
    assert factor(str(p * q)) == [(p, 1, "proven"), (q, 1, "proven")]


# --- nt.prime.test --------------------------------------------------------------------------

def verdict(n) -> dict:
    return run("nt.prime.test", {"n": n})


def check_witness(n: int, result: dict) -> None:
    if result["status"] == "composite":
        w = result["witness"]
        if w["kind"] == "factor":
            assert 1 < w["factor"] < n and n % w["factor"] == 0
        elif w["kind"] == "strong_lucas":
            assert w["p"] == 1 and 4 * w["q"] == 1 - w["d"] and math.gcd(n, 2 * w["q"]) == 1
            assert not strong_lucas_probable_prime(n, w["d"], w["p"], w["q"])
        else:
            assert 2 <= w["base"] < n - 1 and not strong_probable_prime(n, w["base"])
    elif result["status"] == "prime":
        assert n < PSI13 and all(strong_probable_prime(n, a) for a in result["bases"])


def test_prime_test_known_answers():
    assert verdict(97) == {"status": "prime", "method": "deterministic_miller_rabin",
                           "bases": list(MR_BASES)}
    assert verdict(str(2**127 - 1)) == {"status": "probable_prime", "method": "strong_bpsw"}


def test_prime_test_boundaries():
    assert verdict(0) == verdict(1) == {"status": "neither"}
    two = verdict(2)
    assert two["status"] == "prime" and 2 not in two["bases"]
    result = verdict(str(PSI13))
    assert result["status"] == "composite" and result["witness"]["kind"] == "miller_rabin_base"
    assert result["witness"]["base"] > 41  # psi_13 passes all thirteen bases 2..41
    assert all(strong_probable_prime(PSI13, a) for a in MR_BASES)
    check_witness(PSI13, result)
    below = PSI13 - 2  # the largest odd n for which "prime" may be claimed
    from sympy import isprime
    check_witness(below, verdict(str(below)))
    assert (verdict(str(below))["status"] == "prime") == isprime(below)
    assert rejected("nt.prime.test", {"n": "1" + "0" * 620}) == ["integer_text"]
    assert rejected("nt.prime.test", {"n": 10**620}) == ["integer_out_of_range"]
    assert rejected("nt.prime.test", {"n": -1}) == ["integer_out_of_range"]
    largest = 10**620 - 1
    check_witness(largest, verdict(str(largest)))


def test_prime_test_near_the_digit_bound():
    # the bound is on the digit count, which drives the cost: a 2048-bit modulus is in range
    from sympy import prevprime
    p = prevprime(10**620)  # the largest prime the request accepts
    assert verdict(str(p)) == {"status": "probable_prime", "method": "strong_bpsw"}
    q = prevprime(10**310)
    semiprime = q * prevprime(10**309)
    result = verdict(str(semiprime))
    assert result["status"] == "composite"
    check_witness(semiprime, result)


def test_prime_test_adversarial_strong_pseudoprimes():
    for n in (3215031751, 3825123056546413051, 318665857834031151167461):
        # a Miller-Rabin test with the first few prime bases calls these prime
        assert all(strong_probable_prime(n, a) for a in (2, 3, 5, 7))
        result = verdict(str(n))
        assert result["status"] == "composite"
        check_witness(n, result)


def test_prime_test_witnesses_on_random_inputs():
    rng = random.Random(11)
    for _ in range(10):
        n = rng.randrange(0, 10**30)
        result = verdict(str(n))
        check_witness(n, result)
        from sympy import isprime
        assert (result["status"] in ("prime", "probable_prime")) == isprime(n)


# --- nt.integer.gcd and nt.integer.lcm ------------------------------------------------------

def gcd(*values) -> dict:
    return run("nt.integer.gcd", {"values": list(values)})


def check_gcd(values, result) -> None:
    ints = [int(v) for v in values]
    g = result["gcd"]
    assert g >= 0 and all(a % g == 0 for a in ints if g)
    assert sum(c * a for c, a in zip(result["bezout"], ints)) == g
    assert g == math.gcd(*ints)


def test_gcd_known_answer_and_boundaries():
    assert gcd(12, 18, 27)["gcd"] == 3
    check_gcd([12, 18, 27], gcd(12, 18, 27))
    assert gcd(0) == {"gcd": 0, "bezout": [0]}
    assert gcd(0, 0)["gcd"] == 0
    assert gcd(-7) == {"gcd": 7, "bezout": [-1]}
    check_gcd([-4, 6], gcd(-4, 6))
    assert gcd(-4, 6)["gcd"] == 2


def test_gcd_adversarial_value_beyond_float64():
    # 2^53 + 1 = 3 * 107 * 28059810762433; a float64 JSON layer turns it into 2^53.
    assert float(9007199254740993) == 2**53 and math.gcd(2**53, 3) == 1
    assert gcd("9007199254740993", 3)["gcd"] == 3


def test_gcd_largest_accepted_input_and_rejections():
    rng = random.Random(3)
    values = [str(rng.randrange(10**299, 10**300)) for _ in range(8)]
    result = gcd(*values)
    check_gcd(values, result)
    assert max(len(str(abs(c))) for c in result["bezout"]) < 2100
    assert rejected("nt.integer.gcd", {"values": [1] * 9}) == ["too_long"]
    assert rejected("nt.integer.gcd", {"values": []}) == ["too_short"]
    assert rejected("nt.integer.gcd", {"values": ["1" + "0" * 300]}) == ["integer_text"]


def test_lcm_known_answer_boundaries_and_minimality():
    assert run("nt.integer.lcm", {"values": [4, 6]}) == {"lcm": 12}  # not the product 24
    assert run("nt.integer.lcm", {"values": [0, 5]}) == {"lcm": 0}
    assert run("nt.integer.lcm", {"values": [-3]}) == {"lcm": 3}
    rng = random.Random(5)
    values = [rng.randrange(-10**299, 10**299) for _ in range(8)]
    lcm = run("nt.integer.lcm", {"values": [str(v) for v in values]})["lcm"]
    assert all(lcm % v == 0 for v in values)
    assert math.gcd(*(lcm // abs(v) for v in values)) == 1
    assert len(str(lcm)) < 2400


# --- nt.modular.inverse ---------------------------------------------------------------------

def inverse(a, m) -> dict:
    return run("nt.modular.inverse", {"a": a, "modulus": m})


def test_inverse_known_answer_boundaries_and_invariant():
    assert inverse(3, 7) == {"status": "invertible", "inverse": 5}
    assert inverse(0, 9) == {"status": "not_invertible", "gcd": 9}
    assert inverse(-1, 10) == {"status": "invertible", "inverse": 9}
    assert inverse(1, 2) == {"status": "invertible", "inverse": 1}
    rng = random.Random(13)
    for _ in range(6):
        a, m = rng.randrange(-10**299, 10**299), rng.randrange(2, 10**299)
        result = inverse(str(a), str(m))
        if result["status"] == "invertible":
            x = result["inverse"]
            assert 0 <= x < m and (a * x - 1) % m == 0
        else:
            g = result["gcd"]
            assert g > 1 and a % g == 0 and m % g == 0


def test_inverse_adversarial_composite_moduli_defeat_fermat():
    assert pow(2, 15 - 2, 15) == 2 and inverse(2, 15) == {"status": "invertible", "inverse": 8}
    assert pow(2, 4 - 2, 4) == 0 and inverse(2, 4) == {"status": "not_invertible", "gcd": 2}


def test_inverse_excludes_the_zero_ring():
    assert rejected("nt.modular.inverse", {"a": 3, "modulus": 1}) == ["integer_out_of_range"]
    assert rejected("nt.modular.inverse", {"a": 3, "modulus": "1"}) == ["integer_text"]


# --- nt.crt.solve ---------------------------------------------------------------------------

def crt(*pairs) -> dict:
    return run("nt.crt.solve", {"congruences": [{"residue": r, "modulus": m} for r, m in pairs]})


def check_crt(pairs, result) -> None:
    pairs = [(int(r), int(m)) for r, m in pairs]
    if result["status"] == "solvable":
        r, big = result["residue"], result["modulus"]
        assert big == math.lcm(*(m for _, m in pairs)) and 0 <= r < big
        assert all((r - ri) % mi == 0 for ri, mi in pairs)
    else:
        (ri, mi), (rj, mj) = pairs[result["i"]], pairs[result["j"]]
        assert result["gcd"] == math.gcd(mi, mj) and (ri - rj) % result["gcd"] != 0


def test_crt_known_answer_and_boundaries():
    assert crt((2, 3), (3, 5)) == {"status": "solvable", "residue": 8, "modulus": 15}
    assert crt((-1, 7)) == {"status": "solvable", "residue": 6, "modulus": 7}
    assert crt((5, 1)) == {"status": "solvable", "residue": 0, "modulus": 1}


def test_crt_adversarial_non_coprime_moduli():
    # the coprime-only algorithm needs an inverse of 4 modulo 6, or answers modulo 24
    assert crt((2, 4), (4, 6)) == {"status": "solvable", "residue": 10, "modulus": 12}
    result = crt((1, 4), (2, 6))
    assert result == {"status": "incompatible", "i": 0, "j": 1, "gcd": 2}
    check_crt([(1, 4), (2, 6)], result)


def test_crt_near_the_total_digit_bound_and_past_it():
    from sympy import randprime
    rng = random.Random(23)
    moduli = [randprime(10**186, 10**187) for _ in range(16)]  # 2992 digits in all
    pairs = [(str(rng.randrange(m)), str(m)) for m in moduli]
    result = crt(*pairs)
    check_crt(pairs, result)
    assert 2970 < len(str(result["modulus"])) <= 3000
    past = pairs + [(0, str(randprime(10**8, 10**9)))]  # 9 more digits: 3001
    assert rejected("nt.crt.solve", {"congruences": [{"residue": r, "modulus": m}
                                                     for r, m in past]}) == ["crt_too_large"]


def test_crt_largest_accepted_input_and_rejections():
    from sympy import prevprime
    pairs = [(str(i * 10**17 - 5), str(prevprime(10**19 - k * 10**6))) for i, k in
             zip(range(16), range(16))]
    result = crt(*pairs)
    check_crt(pairs, result)
    assert len(str(result["modulus"])) <= 304
    rng = random.Random(17)
    for _ in range(5):
        pairs = [(rng.randrange(-50, 50), rng.randrange(1, 40)) for _ in range(4)]
        check_crt(pairs, crt(*pairs))
    too_many = {"congruences": [{"residue": 0, "modulus": 2}] * 65}
    assert rejected("nt.crt.solve", too_many) == ["too_long"]
    assert rejected("nt.crt.solve", {"congruences": [{"residue": 0, "modulus": 0}]}) == [
        "integer_out_of_range"]


# --- comb.binomial --------------------------------------------------------------------------

def binomial(n, k) -> int:
    return run("comb.binomial", {"n": n, "k": k})["value"]


def test_binomial_known_answers_and_boundaries():
    assert binomial(5, 2) == 10
    assert binomial(62, 31) == 465428353255261088
    assert binomial(0, 0) == 1 and binomial(5, 7) == 0 and binomial(5, -1) == 0
    value = binomial(10000, 5000)
    assert len(str(value)) == 3009 and value == math.comb(10000, 5000)


def test_binomial_adversarial_float_evaluations_are_wrong():
    exact = binomial(60, 30)
    approx = math.exp(math.lgamma(61) - 2 * math.lgamma(31))
    assert exact == 118264581564861424 and round(approx) != exact
    assert int(float(binomial(62, 31))) != 465428353255261088


def test_binomial_pascal_and_symmetry():
    for n, k in ((30, 11), (200, 77), (1000, 3)):
        assert binomial(n, k) == binomial(n - 1, k - 1) + binomial(n - 1, k)
        assert binomial(n, k) == binomial(n, n - k)


def test_binomial_request_boundary():
    # the bound is the size of C(n, k), not n: huge n with small k, and k past n, are fine
    assert binomial(10001, 2) == 10001 * 10000 // 2
    assert binomial(5, 10001) == 0 and binomial(10**299, -3) == 0
    n = 10**200
    from math import comb
    assert binomial(str(n), 19) == comb(n, 19)
    value = binomial(12900, 6450)  # 3882 digits, just inside 10^3900
    assert value == comb(12900, 6450) and len(str(value)) == 3882
    assert rejected("comb.binomial", {"n": 13000, "k": 6500}) == ["binomial_too_large"]
    assert rejected("comb.binomial", {"n": str(n), "k": 20}) == ["binomial_too_large"]
    assert rejected("comb.binomial", {"n": -1, "k": 0}) == ["integer_out_of_range"]
    assert rejected("comb.binomial", {"n": 5.0, "k": 2}) == ["integer_type"]


# --- comb.partitions.count ------------------------------------------------------------------

def partitions_table(limit: int) -> list[int]:
    """p(0..limit) by Euler's pentagonal number recurrence (independent exact code)."""
    p = [1] + [0] * limit
    for n in range(1, limit + 1):
        k, total = 1, 0
        while True:
            g1, g2 = k * (3 * k - 1) // 2, k * (3 * k + 1) // 2
            if g1 > n:
                break
            sign = 1 if k % 2 else -1
            total += sign * p[n - g1]
            if g2 <= n:
                total += sign * p[n - g2]
            k += 1
        p[n] = total
    return p


def partitions(n: int) -> int:
    return run("comb.partitions.count", {"n": n})["value"]


def test_partitions_known_answers_boundaries_and_recurrence():
    assert partitions(100) == 190569292 and partitions(200) == 3972999029388
    assert partitions(0) == partitions(1) == 1
    table = partitions_table(2000)
    for n in (2, 7, 50, 999, 1234, 2000):
        assert partitions(n) == table[n]


def test_partitions_adversarial_asymptotic_is_not_exact():
    hardy_ramanujan = math.exp(math.pi * math.sqrt(2 * 100 / 3)) / (4 * 100 * math.sqrt(3))
    assert abs(hardy_ramanujan - 190569292) > 10**6


def test_partitions_ramanujan_congruences_and_largest_input():
    for k in (3, 17):
        assert partitions(5 * k + 4) % 5 == 0
        assert partitions(7 * k + 5) % 7 == 0
        assert partitions(11 * k + 6) % 11 == 0
    top = partitions(10**6)
    assert len(str(top)) == 1108
    assert partitions(999999) % 5 == 0  # 999999 = 5 * 199999 + 4
    assert rejected("comb.partitions.count", {"n": 10**6 + 1}) == ["less_than_equal"]


def test_prime_test_witness_needs_no_unbounded_search():
    # Issue 28: a composite passing BPSW's base 2 but failing its Lucas test once led to a
    # witness search bounded only by the deadline. Arnault's 1995 number is a strong
    # pseudoprime to every prime base below 307: bases 43..58 are tried, and then the failed
    # Lucas test's parameters are the witness.
    p1 = int("29674495668685510550154174642905332730771991799853043350995075531276838753171770"
             "199594238596428121188033664754218345562493168782883")
    n = p1 * (313 * (p1 - 1) + 1) * (353 * (p1 - 1) + 1)
    assert all(strong_probable_prime(n, a) for a in MR_BASES)
    result = verdict(str(n))
    assert result["status"] == "composite"
    check_witness(n, result)
