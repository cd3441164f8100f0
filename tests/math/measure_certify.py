"""Measure nt.prime.certify: the share of random 30-, 60- and 100-digit primes its budget proves,
the slowest request (CPU seconds of the domain function, against the deadline: wall time on a
shared machine measures the neighbours), and what the whole budget costs at 100 digits (each
counted unit timed on a hard 100-digit composite, times its cap, plus the ECPP fallback that
follows it). A measurement, not a test; the figures go into the declaration's bounds (PROVED):

    .venv/bin/python tests/math/measure_certify.py [COUNT]
"""

from __future__ import annotations

import random
import sys
import time

from sympy import isprime, nextprime

from synsema.stdlib.math import catalog
from synsema.stdlib.math.adapters import flint_integer
from synsema.stdlib.math.adapters import sympy_arithmetic as arith
from synsema.stdlib.math.domains import certify


def random_prime(rng: random.Random, digits: int) -> int:
    n = rng.randrange(10 ** (digits - 1), 10**digits) | 1
    while not isprime(n):
        n += 2
    return n


def budget_seconds() -> float:
    """Every counted unit spent on a 100-digit semiprime with two 50-digit factors (none of
    the methods splits it), times its cap."""
    c = nextprime(10**49 + 12345) * nextprime(3 * 10**50 + 777)
    started = time.process_time()
    assert len(flint_integer.smooth_factors(c, certify.SMOOTH_BITS)) == 1
    piece = time.process_time() - started
    started = time.process_time()
    for _ in range(10):
        m = c
        for p in arith.SMALL_PRIMES:
            while m % p == 0:
                m //= p
    trial = (time.process_time() - started) / 10
    started = time.process_time()
    assert certify.ecpp_certificate(nextprime(10**99 + 12345)) is not None
    ecpp = time.process_time() - started
    return certify.MAX_PIECES * piece + 2 * certify.MAX_PRIMES * trial + ecpp


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    deadline = catalog.TOOLS["nt.prime.certify"].deadline
    for digits in (30, 60, 100):
        rng = random.Random(f"certify {digits}")
        proved, slowest, by_ecpp, longest_chain = 0, 0.0, 0, 0
        for _ in range(count):
            n = random_prime(rng, digits)
            started = time.process_time()
            result = certify.certify_prime(certify.CertifyRequest(n=n))
            slowest = max(slowest, time.process_time() - started)
            proved += result.status == "prime"
            if result.status == "prime":
                chain = [s for s in result.certificate.steps if s.method == "ecpp"]
                by_ecpp += bool(chain)
                longest_chain = max(longest_chain, len(chain))
        print(f"{digits:>3} digits: proved {proved}/{count} ({by_ecpp} by ECPP, at most "
              f"{longest_chain} curve steps), slowest {slowest:.2f} s of CPU against the "
              f"{deadline:.0f} s deadline")
    print(f"whole budget at 100 digits: about {budget_seconds():.2f} s of CPU")


if __name__ == "__main__":
    main()
