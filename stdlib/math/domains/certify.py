"""Primality certificates (`nt.prime.certify`): a Pocklington certificate that anyone can check
with modular exponentiation, or an honest partial outcome.

Pocklington's theorem: let n - 1 = F * R where every prime q dividing F is known. If for each
such q a base a_q satisfies a_q^(n-1) = 1 (mod n) and gcd(a_q^((n-1)/q) - 1, n) = 1, every prime
factor of n is 1 mod F; so if F^2 > n, n is prime. The primes q are certified the same way
(a flat list of steps, each using only primes certified earlier), down to leaves below
psi_13 = 3317044064679887385961981, where Miller-Rabin with the thirteen prime bases 2..41 is
a proof. When q ranges over all of n - 1 this is Pratt's certificate.

The certificate needs n - 1 factored far enough (F > sqrt n). Factoring is attempted with a
fixed, deterministic budget per number (trial division below 2^16, Pollard rho and p - 1 with
fixed seeds and bounds) and at most MAX_NUMBERS numbers in the whole tree. When the budget
does not reach F > sqrt n, the result is `unproven` with the factored part, the unfactored
cofactor and the BPSW verdict: evidence, never a claim of primality.
"""

from __future__ import annotations

import math
from typing import Literal

from pydantic import BaseModel, Field

from ..errors import BackendFault
from ..primitives import CONFIG, BigInt, Count, OutInt, tagged
from ..tool import Bounds, Example, MathTool
from .nt import (MR_BASES, PSI13, BaseWitness, Composite, FactorWitness, Neither,
                 strong_probable_prime)

MAX_NUMBERS = 24
RHO_STEPS = 10_000
PM1_BOUND = 10_000


class CertifyRequest(BaseModel):
    model_config = CONFIG
    n: BigInt(100, minimum=0, description="The integer to certify, 0 <= n < 10^100.")


class FactorStep(BaseModel):
    model_config = CONFIG
    prime: OutInt = Field(description="A prime q dividing p - 1.")
    exponent: Count(1, 400) = Field(description="The exponent of q in p - 1.")
    base: OutInt = Field(description=(
        "a with a^(p-1) = 1 (mod p) and gcd(a^((p-1)/q) - 1, p) = 1."))


class Step(BaseModel):
    model_config = CONFIG
    prime: OutInt = Field(description="The prime p this step proves.")
    factors: list[FactorStep] = Field(description=(
        "Primes q^e dividing p - 1 whose product F satisfies F^2 > p; every q is a leaf or "
        "the prime of an earlier step."))


class Certificate(BaseModel):
    model_config = CONFIG
    steps: list[Step] = Field(description="Pocklington steps, each using earlier ones; the "
                                          "last proves n (empty when n itself is a leaf).")
    leaves: list[OutInt] = Field(description=(
        "Primes below psi_13 = 3317044064679887385961981, proven by Miller-Rabin with bases "
        "2..41 (deterministic there), increasing."))


class Proven(BaseModel):
    model_config = CONFIG
    status: Literal["prime"]
    certificate: Certificate


class Unproven(BaseModel):
    model_config = CONFIG
    status: Literal["unproven"]
    bpsw_probable_prime: Literal[True] = Field(description=(
        "n passes the strong Baillie-PSW test (no counterexample is known; not a proof)."))
    factored_part: OutInt = Field(description=(
        "F: the part of n - 1 whose prime factors were certified; F^2 <= n, too small for "
        "Pocklington."))
    cofactor: OutInt = Field(description="(n - 1)/F, not factored or not certified within "
                                         "the budget.")
    certified: Certificate = Field(description="Certificates of the primes of F (the last step "
                                               "is not n).")


CertifyResult = tagged(Proven, Composite, Unproven, Neither)


def _mr_proves_prime(p: int) -> bool:
    """Deterministic below psi_13 (the caller guarantees p < psi_13)."""
    if p in MR_BASES:
        return True
    return p % 2 == 1 and all(strong_probable_prime(p, a) for a in MR_BASES)


class _Search:
    """The bounded factoring and the certificate being built for one request."""

    def __init__(self) -> None:
        from ..adapters import sympy_arithmetic
        self.backend = sympy_arithmetic
        self.small = sympy_arithmetic.SMALL_PRIMES
        self.numbers = 0
        self.steps: list[Step] = []
        self.leaves: set[int] = set()
        self.proven: dict[int, bool] = {}

    def split(self, m: int) -> tuple[dict[int, int], int]:
        """Probable primes and exponents of m found within the budget, and the cofactor left."""
        from ..adapters import sympy_ntheory
        primes: dict[int, int] = {}
        for p in self.small:
            while m % p == 0:
                primes[p] = primes.get(p, 0) + 1
                m //= p
        pending, left = [m] if m > 1 else [], 1
        while pending:
            c = pending.pop()
            if sympy_ntheory.is_strong_bpsw_probable_prime(c):
                primes[c] = primes.get(c, 0) + 1
                continue
            d = self.backend.pollard_rho(c, RHO_STEPS) or self.backend.pollard_pm1(c, PM1_BOUND)
            if d is None:
                left *= c
            else:
                pending += [d, c // d]
        return primes, left

    def certify(self, p: int) -> bool:
        """Prove the probable prime p, appending its steps; False when the budget ran out."""
        if p < PSI13:
            if not _mr_proves_prime(p):
                raise BackendFault("probable_prime_fails_miller_rabin")
            self.leaves.add(p)
            return True
        if p in self.proven:
            return self.proven[p]
        self.numbers += 1
        if self.numbers > MAX_NUMBERS:
            return False
        primes, _ = self.split(p - 1)
        known, factored = [], 1
        for q, e in sorted(primes.items()):
            if factored * factored > p:
                break
            if self.certify(q):
                base = self.base_for(p, q)
                if base is None:
                    raise BackendFault("no_pocklington_base_for_a_bpsw_prime")
                known.append(FactorStep(prime=q, exponent=e, base=base))
                factored *= q**e
        ok = factored * factored > p
        if ok:
            self.steps.append(Step(prime=p, factors=sorted(known, key=lambda s: s.prime)))
        self.proven[p] = ok
        return ok

    @staticmethod
    def base_for(p: int, q: int) -> int | None:
        """The least a with a^(p-1) = 1 and gcd(a^((p-1)/q) - 1, p) = 1 (mod p)."""
        for a in range(2, 2000):
            if pow(a, p - 1, p) != 1:
                return None
            if math.gcd(pow(a, (p - 1) // q, p) - 1, p) == 1:
                return a
        return None


def _composite_witness(n: int) -> Composite | None:
    for a in range(2, min(n - 1, int(2 * math.log(n) ** 2) + 2)):
        g = math.gcd(a, n)
        if 1 < g < n:
            return Composite(status="composite", witness=FactorWitness(kind="factor", factor=g))
        if not strong_probable_prime(n, a):
            return Composite(status="composite",
                             witness=BaseWitness(kind="miller_rabin_base", base=a))
    return None


def certify_prime(request: CertifyRequest):
    from ..adapters import sympy_ntheory
    n = request.n
    if n < 2:
        return Neither(status="neither")
    if n < 4:
        return Proven(status="prime", certificate=Certificate(steps=[], leaves=[n]))
    if n % 2 == 0:
        return Composite(status="composite", witness=FactorWitness(kind="factor", factor=2))
    if not sympy_ntheory.is_strong_bpsw_probable_prime(n):
        witness = _composite_witness(n)
        if witness is None:  # Bach: under GRH a witness exists below 2 (ln n)^2
            raise BackendFault("no_witness_below_bach_bound")
        return witness
    search = _Search()
    proven = search.certify(n)
    used = {f.prime for s in search.steps for f in s.factors} | {n}
    certificate = Certificate(steps=search.steps, leaves=sorted(search.leaves & used))
    if proven:
        return Proven(status="prime", certificate=certificate)
    factored, certified = 1, {s.prime for s in search.steps} | search.leaves
    m = n - 1
    for q in sorted(certified):
        while m % q == 0:
            factored *= q
            m //= q
    return Unproven(status="unproven", bpsw_probable_prime=True, factored_part=factored,
                    cofactor=(n - 1) // factored, certified=certificate)


CERTIFY = MathTool(
    identifier="nt.prime.certify",
    vocabulary=(
        "primality certificate", "prime certificate", "prove primality", "primality proof",
        "prove that n is prime", "Pratt certificate", "Pocklington", "certify a prime",
        "proven prime", "certificate of primality"),
    claim=("For 0 <= n < 10^100: prime with a Pocklington certificate (a list of steps p, "
           "primes q^e dividing p - 1 with product F, F^2 > p, and bases a_q with "
           "a_q^(p-1) = 1 and gcd(a_q^((p-1)/q) - 1, p) = 1, down to leaves below psi_13 proven "
           "by Miller-Rabin with bases 2..41); composite with a factor or a Miller-Rabin "
           "witness; neither for 0 and 1; or unproven: n passes strong BPSW but n - 1 could not "
           "be factored far enough within the fixed budget, with the factored part and the "
           "cofactor as evidence."),
    request=CertifyRequest, result=CertifyResult, function=certify_prime, deadline=20.0,
    adapters=("sympy_arithmetic", "sympy_ntheory"),
    examples=(
        Example.of("Compute a Pocklington primality certificate for 2^89 - 1 or an honest "
                   "partial outcome; n must be a non-negative integer below 10^100, large "
                   "values as decimal text.", {"n": "618970019642690137449562111"}),),
    bounds=Bounds(
        input="0 <= n < 10^100 (about 2^332).",
        computation=f"At most {MAX_NUMBERS} numbers above psi_13 are factored in the whole "
                    f"certificate tree, each by trial division below 2^16, {RHO_STEPS} Pollard "
                    f"rho steps and Pollard p - 1 with B = {PM1_BOUND} (fixed seeds, so the "
                    "outcome is reproducible), plus at most 2000 bases per factor; measured "
                    "about 0.15 s per number, so at most about 4 s.",
        output="At most 24 steps, each with at most 332 factors below n; leaves below psi_13."))


TOOLS = (CERTIFY,)
