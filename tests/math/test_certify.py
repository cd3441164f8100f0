"""Preflight of nt.prime.certify: certificates checked by an independent verifier written here
(modular exponentiation and gcd only), the degenerate integers, pseudoprimes that fool weaker
tests, the honest partial outcome, and the request boundary."""

from __future__ import annotations

import math

from math_support import MR_BASES, PSI13, rejected, run, strong_probable_prime

ID = "nt.prime.certify"
M89 = 2**89 - 1


def certify(n) -> dict:
    return run(ID, {"n": str(n) if n > 2**53 else n})


def verify(n: int, certificate: dict) -> None:
    """Pocklington, step by step: each q is a leaf or proven earlier, F | p - 1, F^2 > p."""
    proven = set()
    for leaf in certificate["leaves"]:
        assert leaf < PSI13
        assert leaf in MR_BASES or all(strong_probable_prime(leaf, a) for a in MR_BASES)
        proven.add(leaf)
    for step in certificate["steps"]:
        p, factored = step["prime"], 1
        for f in step["factors"]:
            q, e, a = f["prime"], f["exponent"], f["base"]
            assert q in proven and (p - 1) % q**e == 0
            assert pow(a, p - 1, p) == 1 and math.gcd(pow(a, (p - 1) // q, p) - 1, p) == 1
            factored *= q**e
        assert factored * factored > p
        proven.add(p)
    assert n in proven


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
        assert f * r == n - 1 and f * f <= n and strong_probable_prime(n, 2)
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


def test_unproven_is_evidence_not_a_verdict():
    # The largest prime below 10^99 + 300: n - 1 has a large composite cofactor that the fixed
    # budget does not split, so the honest answer is "unproven" with F and R.
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
