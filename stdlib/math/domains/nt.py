"""Number theory and combinatorics over the integers (MATH.md §5.1).

Every operation here is exact integer arithmetic. Primality claims are graded by what the code
establishes: below psi_13 = 3317044064679887385961981 the Miller-Rabin test with the thirteen
prime bases 2..41 is deterministic, so a pass is a proof; at and above psi_13 only the strong
Baillie-PSW test is available, and a pass is labelled a probable prime. The Miller-Rabin rounds
are the library's own (kernels/primes.py) because they *are* the proof the result claims.
"""

from __future__ import annotations

import math
from typing import Annotated, Literal

from pydantic import BaseModel, Field, model_validator

from ..errors import BackendFault
from ..kernels import factorization, integers, primes
from ..kernels.integers import BINOMIAL_DIGITS
from ..kernels.primes import MR_BASES, PSI13, strong_probable_prime  # noqa: F401 (certify, arithmetic)
from ..primitives import CONFIG, BigInt, Count, OutInt, Rule, after, reject, tagged
from ..tool import Bounds, Example, MathTool


# --- nt.integer.factor ----------------------------------------------------------------------

class FactorRequest(BaseModel):
    model_config = CONFIG
    n: BigInt(30, minimum=1, description="The positive integer to factor, below 10^30.")


class PrimePower(BaseModel):
    model_config = CONFIG
    prime: OutInt
    exponent: Count(1, 99)
    primality: Literal["proven", "bpsw_probable"] = Field(description=(
        "proven: deterministic Miller-Rabin with bases 2..41 (prime < psi_13); "
        "bpsw_probable: passes strong Baillie-PSW, no proof given."))


class Factorization(BaseModel):
    model_config = CONFIG
    factors: list[PrimePower] = Field(description="Prime powers in increasing order of prime; "
                                                  "empty for n = 1.")


FACTOR = MathTool(
    identifier="nt.integer.factor",
    vocabulary=(
        "factorization", "factorisation", "integer factorization", "prime factorization",
        "prime factors", "prime decomposition", "factor an integer", "factor a number",
        "prime power", "semiprime", "Pollard rho", "elliptic curve method",
        "fundamental theorem of arithmetic", "multiplicity of a prime", "p-adic valuation"),
    claim=("For 1 <= n < 10^30: the primes p1 < p2 < ... and exponents ei >= 1 with "
           "n = prod pi^ei. Each pi < psi_13 (about 3.3e24) is proven prime by deterministic "
           "Miller-Rabin with bases 2..41; a larger factor is labelled bpsw_probable (passes "
           "strong Baillie-PSW; no counterexample is known, no proof is given)."),
    request=FactorRequest, result=Factorization, kernel=factorization.factor_integer,
    adapters=("pari_integer",),
    examples=(Example.of(
        "Compute the prime factorisation of 360 with exponents; n must be a positive integer "
        "below 10^30, given as a JSON integer or as decimal text.", {"n": 360}),),
    bounds=Bounds(
        input="1 <= n <= 10^30 - 1 (below 2^99.7).",
        computation="PARI's factor (trial division, Pollard rho, SQUFOF, ECM, quadratic sieve, "
                    "in memory), then at most 99 factors each proven by 13 Miller-Rabin rounds "
                    "or (at most one, above psi_13) tested by strong BPSW: measured here (2 "
                    "shared cores) at most 0.1 s through the worker for balanced 100-bit "
                    "semiprimes. The bound stays where sympy's factorint, the backend before "
                    "PARI, set it (128-bit semiprimes cost it up to 13.6 s).",
        output="At most 99 prime powers, each prime below 10^30."))


# --- nt.prime.test --------------------------------------------------------------------------

# A Miller-Rabin round on a d-digit n is one modular exponentiation, cost about d^2.6 here;
# the verdict needs at most 13 rounds and one BPSW test (about three more).
PRIME_TEST_DIGITS = 620


class PrimeTestRequest(BaseModel):
    model_config = CONFIG
    n: BigInt(PRIME_TEST_DIGITS, minimum=0, description=(
        f"The integer to test, 0 <= n < 10^{PRIME_TEST_DIGITS} (2048-bit numbers fit)."))


class Prime(BaseModel):
    model_config = CONFIG
    status: Literal["prime"]
    method: Literal["deterministic_miller_rabin"]
    bases: list[Count(2, 41)] = Field(description="The Miller-Rabin bases that were run.")


class ProbablePrime(BaseModel):
    model_config = CONFIG
    status: Literal["probable_prime"]
    method: Literal["strong_bpsw"]


class FactorWitness(BaseModel):
    model_config = CONFIG
    kind: Literal["factor"]
    factor: OutInt = Field(description="A divisor f of n with 1 < f < n.")


class BaseWitness(BaseModel):
    model_config = CONFIG
    kind: Literal["miller_rabin_base"]
    base: OutInt = Field(description="A base a, 2 <= a < n - 1, to which n fails the strong "
                                     "probable-prime test.")


class LucasWitness(BaseModel):
    model_config = CONFIG
    kind: Literal["strong_lucas"]
    d: OutInt = Field(description=(
        "Selfridge's D: the first of 5, -7, 9, -11, ... with Jacobi symbol (D/n) = -1."))
    p: Literal[1] = Field(description="The Lucas parameter P = 1.")
    q: OutInt = Field(description=(
        "Q = (1 - D)/4. n fails the strong Lucas probable-prime test with these parameters, "
        "which every odd prime coprime to Q passes: n is composite."))


class Composite(BaseModel):
    model_config = CONFIG
    status: Literal["composite"]
    witness: Annotated[FactorWitness | BaseWitness | LucasWitness, Field(discriminator="kind")]


class Neither(BaseModel):
    model_config = CONFIG
    status: Literal["neither"]


PrimeVerdict = tagged(Prime, ProbablePrime, Composite, Neither)


PRIME_TEST = MathTool(
    identifier="nt.prime.test",
    vocabulary=(
        "primality", "primality test", "primality testing", "is prime", "is it prime",
        "prime or composite", "compositeness", "composite number", "probable prime",
        "pseudoprime", "strong pseudoprime", "Miller-Rabin", "Baillie-PSW", "BPSW", "witness"),
    claim=(f"For 0 <= n < 10^{PRIME_TEST_DIGITS}: composite with a checkable witness (a "
           "nontrivial factor, a Miller-Rabin witness base, or the Selfridge parameters of "
           "a failed strong Lucas test); prime only when n < psi_13 = 3317044064679887385961981, "
           "where Miller-Rabin with bases 2..41 is deterministic; probable_prime when "
           "n >= psi_13 passes strong Baillie-PSW; neither for 0 and 1."),
    request=PrimeTestRequest, result=PrimeVerdict, kernel=primes.primality_verdict,
    examples=(Example.of(
        "Decide whether 97 is prime and return the verdict with its method or a compositeness "
        f"witness; n must be a non-negative integer below 10^{PRIME_TEST_DIGITS}.", {"n": 97}),),
    bounds=Bounds(
        input=f"0 <= n < 10^{PRIME_TEST_DIGITS} (about 2^2060): the cost is driven by the digit "
              "count d of n, each modular exponentiation costing about d^2.6.",
        computation="Trial division by primes below 1000, at most 13 modular exponentiations "
                    "and one strong BPSW test (about three more). Measured here (2 shared "
                    "cores, load about 12) for the largest prime below 10^620: 1.8 s through "
                    "the worker; a "
                    "620-digit semiprime: 0.16 s. Only when n passes bases 2..41 but "
                    "fails BPSW do at most 16 more bases (43..58) follow, and then the strong "
                    "Lucas test's parameters are the witness: at most 29 modular "
                    "exponentiations and two Lucas sequences in all, about 0.7 s of CPU at "
                    "620 digits (20 ms per exponentiation measured), with no search whose "
                    "length depends on n.",
        output="One verdict; a witness is smaller than n (a Lucas witness's D and Q are below "
               "n in absolute value: D is the first Selfridge candidate with (D/n) = -1)."))


# --- nt.integer.gcd and nt.integer.lcm ------------------------------------------------------

Values = Annotated[list[BigInt(300)], Field(min_length=1, max_length=8, description=(
    "1 to 8 integers, each below 10^300 in absolute value."))]


class IntegerListRequest(BaseModel):
    model_config = CONFIG
    values: Values


class GcdResult(BaseModel):
    model_config = CONFIG
    gcd: OutInt = Field(description="gcd of the values, >= 0 (0 when all are 0).")
    bezout: list[OutInt] = Field(description="Coefficients c_i with sum c_i * a_i == gcd, one "
                                             "per value.")


GCD = MathTool(
    identifier="nt.integer.gcd",
    vocabulary=(
        "greatest common divisor", "gcd", "highest common factor", "hcf",
        "greatest common factor", "Bezout", "Bezout coefficients", "Bezout identity",
        "extended Euclidean algorithm", "Euclid's algorithm", "coprime", "relatively prime"),
    claim=("g = gcd(a1, ..., ak) >= 0 and Bezout coefficients ci with sum ci*ai = g; the gcd "
           "of zeros is 0."),
    request=IntegerListRequest, result=GcdResult, kernel=integers.gcd,
    examples=(Example.of(
        "Compute gcd(12, 18, 27) with Bezout coefficients; give 1 to 8 integers, each below "
        "10^300 in absolute value.", {"values": [12, 18, 27]}),),
    bounds=Bounds(
        input="k <= 8 integers with |ai| < 10^300.",
        computation="k - 1 extended Euclid runs on numbers below 2^1000: microseconds.",
        output="g < 10^300; iterated coefficients satisfy |ci| <= prod_{j != i} max(|aj|, 1) "
               "< 10^2100."))


class LcmResult(BaseModel):
    model_config = CONFIG
    lcm: OutInt = Field(description="lcm of the values, >= 0 (0 when any value is 0).")


LCM = MathTool(
    identifier="nt.integer.lcm",
    vocabulary=(
        "least common multiple", "lowest common multiple", "lcm", "smallest common multiple",
        "common multiple", "least common denominator"),
    claim="L = lcm(a1, ..., ak) >= 0, the least non-negative common multiple; L = 0 if any "
          "ai = 0.",
    request=IntegerListRequest, result=LcmResult, kernel=integers.lcm,
    examples=(Example.of(
        "Compute lcm(4, 6); give 1 to 8 integers, each below 10^300 in absolute value.",
        {"values": [4, 6]}),),
    bounds=Bounds(
        input="k <= 8 integers with |ai| < 10^300.",
        computation="k - 1 gcd computations: microseconds.",
        output="L <= prod |ai| < 10^2400."))


# --- nt.modular.inverse ---------------------------------------------------------------------

class InverseRequest(BaseModel):
    model_config = CONFIG
    a: BigInt(300, description="The integer to invert, any sign.")
    modulus: BigInt(300, minimum=2, description=(
        "The modulus m >= 2 (the zero ring m = 1 is excluded)."))


class Invertible(BaseModel):
    model_config = CONFIG
    status: Literal["invertible"]
    inverse: OutInt = Field(description="The unique x with 0 <= x < m and a*x = 1 (mod m).")


class NotInvertible(BaseModel):
    model_config = CONFIG
    status: Literal["not_invertible"]
    gcd: OutInt = Field(description="g = gcd(a, m) > 1, which proves no inverse exists.")


InverseResult = tagged(Invertible, NotInvertible)


INVERSE = MathTool(
    identifier="nt.modular.inverse",
    vocabulary=(
        "modular inverse", "inverse modulo", "multiplicative inverse",
        "modular multiplicative inverse", "inverse mod", "reciprocal modulo", "invert modulo",
        "unit modulo", "modular arithmetic", "division modulo"),
    claim=("For a modulus m >= 2 and an integer a: the unique x in [0, m) with a*x = 1 (mod m), "
           "or the proof that none exists: g = gcd(a, m) > 1."),
    request=InverseRequest, result=InverseResult, kernel=integers.modular_inverse,
    examples=(Example.of(
        "Compute the inverse of 3 modulo 7 or show that it does not exist; the modulus must be "
        "an integer of at least 2.", {"a": 3, "modulus": 7}),),
    bounds=Bounds(
        input="|a| < 10^300, 2 <= m < 10^300.",
        computation="One extended Euclid run: microseconds.",
        output="x < m < 10^300, or g <= m."))


# --- nt.crt.solve ---------------------------------------------------------------------------

# The merged modulus is at most the product of the moduli, so the request bounds the moduli's
# total digits: that bounds the output and every intermediate of the merges.
CRT_DIGITS = 3000
MAX_CONGRUENCES = 64
RULE_CRT_SIZE = Rule("crt_too_large", f"The moduli's decimal digits add up to at most "
                                      f"{CRT_DIGITS} (so lcm(m_i) < 10^{CRT_DIGITS}).")


class Congruence(BaseModel):
    model_config = CONFIG
    residue: BigInt(CRT_DIGITS, description="r in x = r (mod m); any integer.")
    modulus: BigInt(CRT_DIGITS, minimum=1, description="m >= 1.")


class CrtRequest(BaseModel):
    model_config = CONFIG
    congruences: Annotated[list[Congruence], Field(
        min_length=1, max_length=MAX_CONGRUENCES, description=(
            f"1 to {MAX_CONGRUENCES} congruences x = r (mod m); the moduli need not be coprime. "
            + RULE_CRT_SIZE.text))]

    @model_validator(mode="after")
    def _size(self) -> "CrtRequest":
        digits = sum(len(str(c.modulus)) for c in self.congruences)
        if digits > CRT_DIGITS:
            reject(RULE_CRT_SIZE.code, f"the moduli have {digits} digits together; at most "
                   f"{CRT_DIGITS}", ("congruences",))
        return self


class Solvable(BaseModel):
    model_config = CONFIG
    status: Literal["solvable"]
    residue: OutInt = Field(description="r with 0 <= r < M.")
    modulus: OutInt = Field(description="M = lcm of the moduli; the solutions are exactly "
                                        "x = r (mod M).")


class Incompatible(BaseModel):
    model_config = CONFIG
    status: Literal["incompatible"]
    i: Count(0, MAX_CONGRUENCES - 1)
    j: Count(0, MAX_CONGRUENCES - 1)
    gcd: OutInt = Field(description="gcd(m_i, m_j), which does not divide r_i - r_j.")


CrtResult = tagged(Solvable, Incompatible)


def solve_crt(request: CrtRequest):
    pairs = [(c.residue, c.modulus) for c in request.congruences]
    for i, (ri, mi) in enumerate(pairs):
        for j in range(i + 1, len(pairs)):
            rj, mj = pairs[j]
            g = math.gcd(mi, mj)
            if (ri - rj) % g:
                return Incompatible(status="incompatible", i=i, j=j, gcd=g)
    # Pairwise compatibility is equivalent to solvability of the whole system.
    from ..adapters import sympy_ntheory as backend
    merged = backend.merge_congruences(pairs)
    modulus = math.lcm(*(m for _, m in pairs))
    if merged is None or merged[1] != modulus or any((merged[0] - r) % m for r, m in pairs):
        raise BackendFault("crt_merge_failed")
    return Solvable(status="solvable", residue=merged[0] % modulus, modulus=modulus)


CRT = MathTool(
    identifier="nt.crt.solve",
    synonyms=("x = a mod m, x = b mod n", "smallest x with given remainders", "remainders", "simultaneous remainders"),
    vocabulary=(
        "Chinese remainder theorem", "CRT", "simultaneous congruences", "system of congruences",
        "congruences", "linear congruences", "residue class", "remainders", "modular equations",
        "non-coprime moduli"),
    claim=("The full solution set of x = ri (mod mi) as one class r mod M with M = lcm(mi) and "
           "0 <= r < M; or incompatibility witnessed by a pair (i, j) with gcd(mi, mj) not "
           "dividing ri - rj. Moduli need not be coprime."),
    request=CrtRequest, result=CrtResult, function=solve_crt,
    adapters=("sympy_ntheory",),
    examples=(Example.of(
        "Compute all integers x with x = 2 (mod 3) and x = 3 (mod 5) as one residue class; "
        "the moduli are positive integers whose digits add up to at most 3000, and they need not "
        "be coprime.",
        {"congruences": [{"residue": 2, "modulus": 3}, {"residue": 3, "modulus": 5}]}),),
    rules=(RULE_CRT_SIZE,),
    bounds=Bounds(
        input=f"k <= {MAX_CONGRUENCES} congruences; the moduli's digits add up to at most "
              f"{CRT_DIGITS}; residues below 10^{CRT_DIGITS} in absolute value.",
        computation="At most k(k-1)/2 pairwise gcds and k generalised CRT merges, all on "
                    f"numbers below 10^{CRT_DIGITS}. Measured here (load about 12): 0.31 s for "
                    "16 moduli of 187 digits, 0.16 s for 64 moduli of 46 digits.",
        output=f"M <= prod mi < 10^{CRT_DIGITS}, 0 <= r < M."))


# --- comb.binomial --------------------------------------------------------------------------

RULE_BINOMIAL_SIZE = Rule("binomial_too_large", f"C(n, k) must be below 10^{BINOMIAL_DIGITS} "
                                                "(e.g. C(12900, 6450) fits, C(13000, 6500) "
                                                "does not; C(10^200, 19) fits).")


class BinomialRequest(BaseModel):
    model_config = CONFIG
    n: BigInt(300, minimum=0, description=(
        "n >= 0 (the generalised binomial for negative n is a different function and is not "
        "offered)."))
    k: BigInt(300, description="k; any k outside 0..n gives 0. " + RULE_BINOMIAL_SIZE.text)

    _size = after(integers.binomial_too_large)


class IntegerValue(BaseModel):
    model_config = CONFIG
    value: OutInt


BINOMIAL = MathTool(
    identifier="comb.binomial",
    synonyms=("pick", "ways to pick", "select k of n", "combinations", "choose"),
    vocabulary=(
        "binomial coefficient", "binomial", "n choose k", "choose", "combinations",
        "number of combinations", "Pascal's triangle", "subsets of size k", "combinatorics"),
    claim=("C(n, k) = n!/(k!(n-k)!) for 0 <= k <= n and 0 for k < 0 or k > n, for n >= 0 "
           f"and C(n, k) < 10^{BINOMIAL_DIGITS}."),
    request=BinomialRequest, result=IntegerValue, kernel=integers.binomial,
    examples=(Example.of(
        "Compute the binomial coefficient C(5, 2); n must be a non-negative integer, C(n, k) "
        "must stay below 10^3900, and k outside 0..n gives 0.", {"n": 5, "k": 2}),),
    rules=(RULE_BINOMIAL_SIZE,),
    bounds=Bounds(
        input=f"0 <= n < 10^300, |k| < 10^300, and C(n, k) < 10^{BINOMIAL_DIGITS} (checked "
              "by summing log10 of its factors before multiplying).",
        computation="Exact integer product (math.comb) over min(k, n - k) <= 13000 factors. "
                    "Measured here (load about 12): 0.05 s through the worker for "
                    "C(12900, 6450), 3882 digits.",
        output=f"C(n, k) < 10^{BINOMIAL_DIGITS}."))


# --- comb.partitions.count ------------------------------------------------------------------

class PartitionRequest(BaseModel):
    model_config = CONFIG
    n: Count(0, 1000000, "n, 0 <= n <= 1000000.")


def partition_count(request: PartitionRequest) -> IntegerValue:
    from ..adapters import sympy_ntheory as backend
    return IntegerValue(value=backend.partition_count(request.n))


PARTITIONS = MathTool(
    identifier="comb.partitions.count",
    vocabulary=(
        "integer partitions", "partition function", "number of partitions", "partitions of n",
        "partition numbers", "Hardy-Ramanujan", "Rademacher", "ways to write n as a sum",
        "combinatorics", "counting"),
    claim="p(n), the number of partitions of n into positive integer parts (p(0) = 1).",
    request=PartitionRequest, result=IntegerValue, function=partition_count,
    adapters=("sympy_ntheory",),
    examples=(Example.of(
        "Compute the number of partitions of 100; n must be an integer from 0 to 1000000.",
        {"n": 100}),),
    bounds=Bounds(
        input="0 <= n <= 10^6.",
        computation="Hardy-Ramanujan-Rademacher series with exact rounding (sympy "
                    "partition): about 0.03 s at n = 10^6.",
        output="p(10^6) has 1108 digits."))


TOOLS = (FACTOR, PRIME_TEST, GCD, LCM, INVERSE, CRT, BINOMIAL, PARTITIONS)
