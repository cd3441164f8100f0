"""Preflight of nt.prime.certify: certificates checked by an independent verifier written here
(modular exponentiation and gcd only), the degenerate integers, pseudoprimes that fool weaker
tests, the honest partial outcome, and the request boundary."""

from __future__ import annotations

import math

from math_support import (MR_BASES, PSI13, rejected, run, strong_probable_prime,
                          verify_prime_certificate)

ID = "nt.prime.certify"
M89 = 2**89 - 1


def certify(n) -> dict:
    return run(ID, {"n": str(n) if n > 2**53 else n})


def verify(n: int, certificate: dict) -> None:
    verify_prime_certificate(certificate, [n])


def check(n: int, result: dict) -> None:
    if result["status"] == "prime":
        verify(n, result["certificate"])
    elif result["status"] == "composite":
        w = result["witness"]
        if w["kind"] == "factor":
            assert 1 < w["factor"] < n and n % w["factor"] == 0
        else:
            assert not strong_probable_prime(n, w["base"])
    elif result["status"] == "unproven":
        f, r = result["factored_part"], result["cofactor"]
        f2, r2 = result["plus_factored_part"], result["plus_cofactor"]
        assert f * r == n - 1 and f2 * r2 == n + 1 and strong_probable_prime(n, 2)
        # every prime of both factored parts is proven by the certificate it carries
        proven = verify_prime_certificate(result["certified"])
        assert n not in proven
        for part in (f, f2):
            for q in proven:
                while part % q == 0:
                    part //= q
            assert part == 1
    else:
        assert n < 2


def test_known_answers():
    result = certify(M89)
    assert result["status"] == "prime"
    assert [s["prime"] for s in result["certificate"]["steps"]] == [M89]
    verify(M89, result["certificate"])
    assert certify(97) == {"status": "prime", "certificate": {"steps": [], "leaves": [97]}}
    result = certify(2**127 - 1)
    assert result["status"] == "prime"
    verify(2**127 - 1, result["certificate"])


def test_degenerate_integers():
    assert certify(0) == certify(1) == {"status": "neither"}
    assert certify(2)["certificate"] == {"steps": [], "leaves": [2]}
    assert certify(4)["witness"] == {"kind": "factor", "factor": 2}
    check(9, certify(9))


def test_adversarial_pseudoprimes_are_composite():
    # 561 fools the Fermat test to every coprime base; psi_13 fools Miller-Rabin with the 13
    # bases 2..41; 3825123056546413051 fools bases 2..23. None is certified.
    assert all(pow(a, 560, 561) == 1 for a in range(2, 561) if math.gcd(a, 561) == 1)
    assert all(strong_probable_prime(PSI13, a) for a in MR_BASES)
    for n in (561, PSI13, 3825123056546413051):
        result = certify(n)
        assert result["status"] == "composite"
        check(n, result)


def test_certificates_recurse_through_large_factors():
    # p - 1 = 2 * q with q above psi_13: q needs its own step before p's.
    from sympy import isprime, primorial
    q = 206 * (primorial(20) // 3) + 1  # the least such k with q and 2q + 1 prime
    p = 2 * q + 1
    assert q > PSI13 and isprime(q) and isprime(p)
    result = certify(p)
    assert result["status"] == "prime"
    assert [s["prime"] for s in result["certificate"]["steps"]][-2:] == [q, p]
    verify(p, result["certificate"])


# Random primes of 60 to 100 digits ("fixed set" seed of the measurement), each proved within the
# budget, by the method its last step names: every method closes some step here.
FIXED = {
    453925627487217619436129362282524037405859690553664374258113: "pocklington",
    259026963144917656399938547472969018161097477396396278893241: "morrison",
    41152815413864513946254218897713124563977652376346721646089207457899493758501019:
        "bls_cube_root",
    696834853305956793546279425854369224771874123072397924877479: "combined",
    2592568837225824766986549387627746815132407212311496855992178102350150207620756233578396955084982917:
        "bls_cube_root",
    8554932906486705170954200581993792470131092458338415467382859658802641890100703811391580382003652897:
        "pocklington",
    1823010015810121121838695544880095053223681436165799393593249258721067881652390217827628200261435631:
        "morrison",
    8081585243371171132905003642207876344357321846130255824848173859145811680719872822215893842983718749:
        "combined",
}


def test_fixed_60_to_100_digit_primes_verified_independently():
    for n, method in FIXED.items():
        result = certify(n)
        assert result["status"] == "prime", n
        assert result["certificate"]["steps"][-1]["method"] == method
        verify(n, result["certificate"])
    methods = {s["method"] for s in certify(max(FIXED))["certificate"]["steps"]}
    assert methods == {"pocklington", "combined"}  # recursion mixes them


def test_n_minus_1_plus_1_misses_are_proven_by_checked_ecpp():
    # A 100-digit prime whose n - 1 and n + 1 the budget factors only in part (F1 and F2 of 23
    # and 13 digits): PARI's elliptic-curve chain, checked step by step, proves it.
    n = 4963282892573286684077250546726406079169688619717496669120236433222696772957203850520626602672682937
    result = certify(n)
    assert result["status"] == "prime"
    steps = result["certificate"]["steps"]
    assert {s["method"] for s in steps} == {"ecpp"} and steps[-1]["prime"] == n
    verify(n, result["certificate"])


def test_ten_random_100_digit_primes_are_certified_and_checked():
    import random

    from sympy import isprime
    rng = random.Random("ecpp 100 digits")
    for _ in range(10):
        n = rng.randrange(10**99, 10**100) | 1
        while not isprime(n):
            n += 2
        result = certify(n)
        assert result["status"] == "prime", n
        verify(n, result["certificate"])


def _tampered(certificate: dict, change) -> dict:
    import copy
    forged = copy.deepcopy(certificate)
    change(forged["certificate"]["steps"][-1])
    return forged["certificate"]


def test_the_checker_rejects_a_tampered_ecpp_step():
    import pytest
    n = 4963282892573286684077250546726406079169688619717496669120236433222696772957203850520626602672682937
    result = certify(n)
    verify(n, result["certificate"])

    def move_point(step):
        step["point"]["x"] = (step["point"]["x"] + 1) % step["prime"]

    def other_q(step):  # a proven prime, but not the one the curve's order was built on
        step["q"] = result["certificate"]["steps"][-2]["q"]

    def other_m(step):
        step["m"] = step["m"] + step["q"]

    for change in (move_point, other_q, other_m):
        with pytest.raises(AssertionError):
            verify(n, _tampered(result, change))


def test_unproven_is_evidence_not_a_verdict():
    from sympy import isprime, nextprime
    n = nextprime(10**99)
    result = certify(n)
    assert isprime(n) and result["status"] in ("prime", "unproven")
    check(n, result)


def test_request_boundary():
    from sympy import prevprime
    top = prevprime(10**100)
    check(top, certify(top))
    check(10**100 - 1, certify(10**100 - 1))
    assert rejected(ID, {"n": str(10**100)}) == ["integer_text"]
    assert rejected(ID, {"n": -1}) == ["integer_out_of_range"]
    assert rejected(ID, {"n": "97.0"}) == ["integer_text"]
