"""Preflight of nt.function.evaluate: each function's known answers, degenerate arguments, an
adversarial input for a tempting shortcut, the certificate checked on the returned value, and
the request boundary. Brute force over small n is the independent reference."""

from __future__ import annotations

import math
import random

import pytest

from math_support import rejected, run

ID = "nt.function.evaluate"


def ev(function: str, n, **extra) -> dict:
    return run(ID, {"function": function, "n": n, **extra})


def brute_divisors(n: int) -> list[int]:
    return [d for d in range(1, n + 1) if n % d == 0]


def brute_order(a: int, n: int) -> int:
    return next(k for k in range(1, n + 1) if pow(a, k, n) == 1)


def check_factors(n: int, result: dict) -> None:
    assert math.prod(f["prime"] ** f["exponent"] for f in result["factors"]) == n
    assert all(brute_divisors(f["prime"]) == [1, f["prime"]] for f in result["factors"]
               if f["prime"] < 10**6)


def test_known_answers():
    assert ev("totient", 36)["value"] == 12
    assert ev("divisors", 28)["divisors"] == [1, 2, 4, 7, 14, 28]
    assert ev("sigma", 28)["value"] == 56  # perfect
    assert ev("sigma", 12, k=2)["value"] == 1 + 4 + 9 + 16 + 36 + 144
    assert ev("mobius", 30)["value"] == -1 and ev("mobius", 12)["value"] == 0
    assert ev("jacobi", 15, a=2)["value"] == 1  # yet 2 is not a square mod 15
    assert ev("sqrt_mod", 13, a=10) == {"function": "sqrt_mod", "legendre": 1, "roots": [6, 7]}
    assert ev("primitive_root", 41)["root"] == 6
    assert ev("multiplicative_order", 101, a=2)["order"] == 100


def test_degenerate_arguments():
    assert ev("totient", 1) == {"function": "totient", "value": 1, "factors": []}
    assert ev("divisors", 1)["divisors"] == [1]
    assert ev("sigma", 1, k=0)["value"] == 1
    assert ev("mobius", 1)["value"] == 1
    assert ev("jacobi", 1, a=0)["value"] == 1
    assert ev("jacobi", 9, a=3)["value"] == 0
    assert ev("sqrt_mod", 2, a=3) == {"function": "sqrt_mod", "legendre": 1, "roots": [1]}
    assert ev("sqrt_mod", 13, a=26) == {"function": "sqrt_mod", "legendre": 0, "roots": [0]}
    assert ev("primitive_root", 2)["root"] == 1
    assert ev("multiplicative_order", 12, a=-1)["order"] == 2
    assert ev("multiplicative_order", 12, a=6) == {
        "function": "multiplicative_order", "status": "not_a_unit", "order": None,
        "order_primes": [], "gcd": 6}
    none = ev("primitive_root", 8)
    assert none["status"] == "none_exists" and none["carmichael"] == 2 < none["totient"] == 4


def test_adversarial_primitive_root_modulo_a_prime_square():
    # 5 is the smallest primitive root modulo 40487 but not modulo 40487^2, where it is 10:
    # lifting the root of p to p^2 without the check g^(p-1) != 1 (mod p^2) is wrong.
    p = 40487
    assert ev("primitive_root", p)["root"] == 5
    assert pow(5, p - 1, p * p) == 1
    result = ev("primitive_root", p * p)
    assert result["root"] == 10
    n, g, phi = p * p, result["root"], result["totient"]
    assert phi == p * (p - 1) and all(pow(g, phi // q, n) != 1 for q in result["totient_primes"])


def test_adversarial_jacobi_is_not_legendre_and_carmichael_numbers():
    # (2/15) = 1 while 2 is a non-residue mod 3 and mod 5; the order of 2 mod 561 (Carmichael)
    # divides lambda(561) = 80, not 560: a Fermat-style "order = n - 1" shortcut fails.
    assert not any(x * x % 15 == 2 for x in range(15))
    result = ev("multiplicative_order", 561, a=2)
    assert result["order"] == brute_order(2, 561) == 40


def test_certificates_on_random_inputs():
    rng = random.Random(6)
    for _ in range(6):
        n = rng.randrange(2, 3000)
        assert ev("totient", n)["value"] == sum(1 for k in range(1, n + 1) if math.gcd(k, n) == 1)
        divisors = brute_divisors(n)
        assert ev("divisors", n)["divisors"] == divisors
        k = rng.randrange(0, 4)
        sigma = ev("sigma", n, k=k)
        assert sigma["value"] == sum(d**k for d in divisors)
        check_factors(n, sigma)
        a = rng.randrange(-50, 50)
        order = ev("multiplicative_order", n, a=a)
        if math.gcd(a, n) == 1:
            assert order["order"] == brute_order(a % n, n)
        else:
            assert order["status"] == "not_a_unit" and order["gcd"] == math.gcd(a, n)
        root = ev("primitive_root", n)
        units = [u for u in range(1, n) if math.gcd(u, n) == 1] or [0]
        generators = [g for g in units if n > 1 and brute_order(g, n) == len(units)]
        assert root["root"] == (generators[0] if generators else None)
    for p in (3, 7, 97, 2003):
        for a in range(0, 12):
            result = ev("sqrt_mod", p, a=a)
            assert result["roots"] == [x for x in range(p) if (x * x - a) % p == 0]


def test_request_boundary():
    from sympy import prevprime
    big = prevprime(10**24)
    result = ev("sqrt_mod", str(big), a=4)
    assert result["roots"] == [2, big - 2]
    top = 10**30 - 1
    check_factors(top, ev("totient", str(top)))
    highly_composite = 963761198400  # 6720 divisors, the most below 10^12
    assert len(ev("divisors", highly_composite)["divisors"]) == 6720
    assert rejected(ID, {"function": "totient", "n": str(10**30)}) == ["function_range"]
    assert rejected(ID, {"function": "divisors", "n": 10**12}) == ["function_range"]
    assert rejected(ID, {"function": "sqrt_mod", "n": 15, "a": 1}) == ["function_range"]
    assert rejected(ID, {"function": "jacobi", "n": 10, "a": 1}) == ["function_range"]
    assert rejected(ID, {"function": "primitive_root", "n": 1}) == ["function_range"]
    assert rejected(ID, {"function": "jacobi", "n": 9}) == ["function_arguments"]
    assert rejected(ID, {"function": "totient", "n": 9, "a": 2}) == ["function_arguments"]
    assert rejected(ID, {"function": "mobius", "n": 9, "k": 2}) == ["function_arguments"]
    assert rejected(ID, {"function": "sigma", "n": 9, "k": 101}) == ["less_than_equal"]
    assert rejected(ID, {"function": "phi", "n": 9}) == ["literal_error"]
    assert rejected(ID, {"function": "totient", "n": 0}) == ["integer_out_of_range"]


@pytest.mark.parametrize("function", ["sigma", "jacobi", "multiplicative_order"])
def test_large_values_travel_as_text(function):
    n = 10**29 + 1 if function != "jacobi" else 10**299 + 1
    extra = {"k": 100} if function == "sigma" else {"a": 3}
    result = ev(function, str(n), **extra)
    assert result["function"] == function
