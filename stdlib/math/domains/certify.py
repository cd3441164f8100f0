"""Primality certificates (`nt.prime.certify`): N - 1, N + 1 and combined Brillhart-Lehmer-
Selfridge certificates that anyone can check with modular arithmetic, elliptic-curve (ECPP)
steps when those do not close, or an honest partial outcome that keeps every prime it proved.

Each step proves one prime p from partial factorisations of p - 1 = F1 R1 and p + 1 = F2 R2 whose
primes q are already proven (leaves, or earlier steps):

- Pocklington (n - 1): for each q | F1 a base a with a^(p-1) = 1 (mod p) and
  gcd(a^((p-1)/q) - 1, p) = 1. Then every prime factor of p is 1 mod F1.
- Morrison (n + 1): one discriminant D with Jacobi (D/p) = -1 and gcd(p, D) = 1, and for each
  q | F2 a Lucas pair (P, Q), P^2 - 4Q = D, gcd(p, Q) = 1, with U_(p+1) = 0 (mod p) and
  gcd(U_((p+1)/q), p) = 1. Then every prime factor r of p is (D/r) mod F2, that is +-1.

The step then closes by one of four methods: `pocklington` F1^2 > p; `morrison` (F2 - 1)^2 > p;
`bls_cube_root` F1^3 >= p and, writing p = c2 F1^2 + c1 F1 + 1 (0 <= c1, c2 < F1), c1^2 - 4 c2 is
not a square (Brillhart, Lehmer and Selfridge 1975, Theorem 5); `combined` with G = lcm(F1, F2),
G^2 >= p and r, the residue of 1 mod F1 and -1 mod F2 in [0, G), either 1 or not a divisor of p
(every prime factor is 1 or r mod G, so none is at most sqrt p). Leaves are primes below
psi_13 = 3317044064679887385961981, where Miller-Rabin with the thirteen prime bases 2..41 is a
proof.

The factorisations are partial and deterministic within a fixed budget on counted work: trial
division below 2^16, then FLINT's smooth-part factoring (elliptic curves in C, python-flint) of
each composite piece for primes of up to SMOOTH_BITS bits, with caps on the pieces tried and the
primes certified in the whole tree. FLINT's factors are checked by their product and only used
as probable primes: each is proven here, by a leaf or a step, like any other. When
the budget does not close n's step, n goes to PARI/GP's elliptic-curve primality proving
(`primecert`, adapter pari_ecpp): each step of its Atkin-Morain chain is checked here before it
is used (Goldwasser-Kilian: a non-singular curve y^2 = x^3 + a x + b mod N, a point P on it,
m P = O and (m/q) P != O in affine arithmetic mod N where every denominator must be a unit, and
q | m with q > (N^(1/4) + 1)^2 proven by the next step or a leaf); PARI's own verdict is never
used. The N - 1 / N + 1 methods run first because their certificates are smaller and need only
modular exponentiation to check. Only when PARI fails or a step does not check is the result
`unproven`, with the factored parts of n - 1 and n + 1, their cofactors, the BPSW verdict and
the certificates of every prime of those factored parts: evidence, never a claim of primality.
"""

from __future__ import annotations

import math
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from ..errors import BackendFault
from ..primitives import CONFIG, BigInt, Count, OutInt, tagged
from ..tool import Bounds, Example, MathTool
from .nt import (MR_BASES, PSI13, BaseWitness, Composite, FactorWitness, Neither,
                 strong_probable_prime)

MAX_PRIMES = 24            # primes above psi_13 whose p - 1 and p + 1 are factored
MAX_PIECES = 7             # composite pieces given to FLINT's smooth-part factoring ...
SMOOTH_BITS = 50           # ... each searched for prime factors of up to about 50 bits
MAX_CANDIDATES = 2_000     # bases a (Pocklington) or Lucas P tried per prime q
MAX_ECPP_STEPS = 40        # elliptic-curve steps accepted from PARI's chain for one n
# Measured by tests/math/measure_certify.py (40 random primes of each size): the share this
# budget proves.
PROVED = {30: "40/40", 60: "40/40", 100: "40/40"}


class CertifyRequest(BaseModel):
    model_config = CONFIG
    n: BigInt(100, minimum=0, description="The integer to certify, 0 <= n < 10^100.")


class FactorStep(BaseModel):
    model_config = CONFIG
    prime: OutInt = Field(description="A proven prime q dividing p - 1.")
    exponent: Count(1, 400) = Field(description="e with q^e dividing p - 1.")
    base: OutInt = Field(description=(
        "a with a^(p-1) = 1 (mod p) and gcd(a^((p-1)/q) - 1, p) = 1."))


class LucasStep(BaseModel):
    model_config = CONFIG
    prime: OutInt = Field(description="A proven prime q dividing p + 1.")
    exponent: Count(1, 400) = Field(description="e with q^e dividing p + 1.")
    lucas_p: OutInt = Field(description="P of the Lucas sequence U_j(P, Q).")
    lucas_q: OutInt = Field(description=(
        "Q, with P^2 - 4Q the step's discriminant, gcd(Q, p) = 1, U_(p+1) = 0 (mod p) and "
        "gcd(U_((p+1)/q), p) = 1."))


class Step(BaseModel):
    model_config = CONFIG
    prime: OutInt = Field(description="The prime p this step proves.")
    method: Literal["pocklington", "morrison", "bls_cube_root", "combined"] = Field(description=(
        "How the step closes, with F1 the product of the q^e of `factors` and F2 that of "
        "`plus_factors`: pocklington F1^2 > p; morrison (F2 - 1)^2 > p; bls_cube_root F1^3 >= p "
        "and c1^2 - 4 c2 not a square for p = c2 F1^2 + c1 F1 + 1, 0 <= c1 < F1; combined "
        "G = lcm(F1, F2), G^2 >= p, and r (r = 1 mod F1, r = -1 mod F2, 0 <= r < G) is 1 or "
        "does not divide p."))
    factors: list[FactorStep] = Field(description="Pocklington conditions for primes of p - 1.")
    discriminant: OutInt | None = Field(description=(
        "D with Jacobi symbol (D/p) = -1 and gcd(D, p) = 1, shared by every plus factor; null "
        "when there are none."))
    plus_factors: list[LucasStep] = Field(description="Lucas conditions for primes of p + 1.")


class CurvePoint(BaseModel):
    model_config = CONFIG
    x: OutInt
    y: OutInt


class EcppStep(BaseModel):
    model_config = CONFIG
    prime: OutInt = Field(description="The prime N this step proves (gcd(N, 6) = 1).")
    method: Literal["ecpp"] = Field(description=(
        "Goldwasser-Kilian / Atkin-Morain: on y^2 = x^3 + a x + b over Z/N with "
        "gcd(4a^3 + 27b^2, N) = 1, the point lies on the curve, m P = O and (m/q) P != O "
        "(affine arithmetic mod N, every denominator a unit), q divides m, "
        "q > (N^(1/4) + 1)^2 and q is proven (a leaf or an earlier step)."))
    a: OutInt = Field(description="The curve's coefficient a, 0 <= a < N.")
    b: OutInt = Field(description="The curve's coefficient b, 0 <= b < N.")
    m: OutInt = Field(description="The multiple m with m P = O.")
    q: OutInt = Field(description="The proven prime q dividing m.")
    point: CurvePoint = Field(description="P = (x, y) on the curve, 0 <= x, y < N.")


class Certificate(BaseModel):
    model_config = CONFIG
    steps: list[Annotated[Step | EcppStep, Field(discriminator="method")]] = Field(
        description="Steps in order; each uses only leaves and primes of earlier steps.")
    leaves: list[OutInt] = Field(description=(
        "Primes below psi_13 = 3317044064679887385961981, proven by Miller-Rabin with bases "
        "2..41 (deterministic there), increasing."))


class Proven(BaseModel):
    model_config = CONFIG
    status: Literal["prime"]
    certificate: Certificate = Field(description="The last step proves n (no step when n is "
                                                 "itself a leaf).")


class Unproven(BaseModel):
    model_config = CONFIG
    status: Literal["unproven"]
    bpsw_probable_prime: Literal[True] = Field(description=(
        "n passes the strong Baillie-PSW test (no counterexample is known; not a proof)."))
    factored_part: OutInt = Field(description=(
        "F1: the part of n - 1 made of proven primes (the full powers found)."))
    cofactor: OutInt = Field(description="(n - 1)/F1: not factored, or factored into primes "
                                         "not proven, within the budget.")
    plus_factored_part: OutInt = Field(description=(
        "F2: the part of n + 1 made of proven primes (the full powers found)."))
    plus_cofactor: OutInt = Field(description="(n + 1)/F2, likewise.")
    certified: Certificate = Field(description=(
        "Certificates of every prime of F1 and F2: a leaf or a step each (no step proves n)."))


CertifyResult = tagged(Proven, Composite, Unproven, Neither)


def _mr_proves_prime(p: int) -> bool:
    """Deterministic below psi_13 (the caller guarantees p < psi_13)."""
    if p in MR_BASES:
        return True
    return p % 2 == 1 and all(strong_probable_prime(p, a) for a in MR_BASES)


def _power(factors: dict[int, int]) -> int:
    return math.prod(q**e for q, e in factors.items())


def closing_method(n: int, minus: dict[int, int], plus: dict[int, int]) -> str | None:
    """The first method whose size condition holds for F1 = prod(minus), F2 = prod(plus) (the
    cube-root method's square test and the combined method's divisor test come later)."""
    f1, f2 = _power(minus), _power(plus)
    if f1 * f1 > n:
        return "pocklington"
    if (f2 - 1) ** 2 > n:
        return "morrison"
    if f1**3 >= n:
        return "bls_cube_root"
    g = f1 * f2 // math.gcd(f1, f2)
    return "combined" if g * g >= n else None


def cube_root_square_test(n: int, f1: int) -> bool:
    """BLS Theorem 5's test: with p = c2 F^2 + c1 F + 1, is c1^2 - 4 c2 a non-square?"""
    c2, c1 = divmod((n - 1) // f1, f1)
    d = c1 * c1 - 4 * c2
    return d < 0 or math.isqrt(d) ** 2 != d


def combined_residue(f1: int, f2: int) -> tuple[int, int]:
    """(G, r): G = lcm(F1, F2) and r in [0, G) with r = 1 mod F1, r = -1 mod F2."""
    g = f1 * f2 // math.gcd(f1, f2)
    # r = 1 + F1 t with F1 t = -2 (mod F2); gcd(F1, F2) divides 2
    h = math.gcd(f1, f2)
    t = (-2 // h) * pow(f1 // h, -1, f2 // h) % (f2 // h) if f2 // h > 1 else 0
    return g, (1 + f1 * t) % g


class _Search:
    """The bounded factoring and the certificates being built for one request."""

    def __init__(self) -> None:
        from ..adapters import flint_integer, sympy_arithmetic, sympy_ntheory
        self.arith = sympy_arithmetic
        self.smooth_factors = flint_integer.smooth_factors
        self.is_probable_prime = sympy_ntheory.is_strong_bpsw_probable_prime
        self.primes = self.pieces = 0
        self.steps: dict[int, Step] = {}
        self.leaves: set[int] = set()
        self.failed: set[int] = set()

    def split(self, m: int) -> dict[int, int]:
        """Probable primes and exponents found in m within the budget (the rest stays out)."""
        found: dict[int, int] = {}
        for p in self.arith.SMALL_PRIMES:
            while m % p == 0:
                found[p] = found.get(p, 0) + 1
                m //= p
        pending = [m] if m > 1 else []
        while pending:
            c = pending.pop()
            if self.is_probable_prime(c):
                found[c] = found.get(c, 0) + 1
                continue
            if self.pieces >= MAX_PIECES:
                continue
            self.pieces += 1
            for q in self.smooth_factors(c, SMOOTH_BITS):
                if self.is_probable_prime(q):  # an unsplit cofactor is not retried
                    found[q] = found.get(q, 0) + 1
        return found

    def proven(self, q: int) -> bool:
        return q in self.leaves or q in self.steps

    def certify(self, p: int) -> bool:
        """Prove the probable prime p, recording its step; False when the budget runs out."""
        if p < PSI13:
            if not _mr_proves_prime(p):
                raise BackendFault("probable_prime_fails_miller_rabin")
            self.leaves.add(p)
            return True
        if self.proven(p) or p in self.failed:
            return p in self.steps
        if self.primes >= MAX_PRIMES:
            return False
        self.primes += 1
        minus = self.split(p - 1)
        self.prove_leaves(minus)
        # p - 1 alone often suffices (a prime cofactor); p + 1 is factored only when it does not
        if closing_method(p, minus, {}) is not None and self.close(p, minus, {}):
            return True
        plus = self.split(p + 1)
        self.prove_leaves(plus)
        if self.close(p, minus, plus):
            return True
        self.failed.add(p)
        return False

    def prove_leaves(self, found: dict[int, int]) -> None:
        """Miller-Rabin with the 13 bases proves every found prime below psi_13."""
        for q in found:
            if q < PSI13:
                self.certify(q)

    def close(self, p: int, minus: dict[int, int], plus: dict[int, int]) -> bool:
        """Prove the large primes of minus and plus, largest first, until a method closes p."""
        if closing_method(p, minus, plus) is None:
            return False
        have_minus = {q: e for q, e in minus.items() if self.proven(q)}
        have_plus = {q: e for q, e in plus.items() if self.proven(q)}
        large = sorted({q for q in (*minus, *plus) if q >= PSI13}, reverse=True)
        for i, q in enumerate(large):
            if self.try_step(p, have_minus, have_plus):
                return True
            rest = set(large[i:])
            if closing_method(p, {**have_minus, **{r: minus[r] for r in rest if r in minus}},
                              {**have_plus, **{r: plus[r] for r in rest if r in plus}}) is None:
                return False
            if self.certify(q):
                if q in minus:
                    have_minus[q] = minus[q]
                if q in plus:
                    have_plus[q] = plus[q]
        return self.try_step(p, have_minus, have_plus)

    def try_step(self, p: int, minus: dict[int, int], plus: dict[int, int]) -> bool:
        """Record p's step when the proven parts close it and its bases are found."""
        method = closing_method(p, minus, plus)
        if method == "bls_cube_root" and not cube_root_square_test(p, _power(minus)):
            raise BackendFault("bpsw_probable_prime_is_composite")
        if method == "combined":
            _, r = combined_residue(_power(minus), _power(plus))
            if r > 1 and p % r == 0:
                raise BackendFault("bpsw_probable_prime_is_composite")
        if method is None:
            return False
        if method in ("pocklington", "bls_cube_root"):
            plus = {}
        if method == "morrison":
            minus = {}
        factors = [self.pocklington(p, q, e) for q, e in sorted(minus.items())]
        d = self.discriminant(p) if plus else None
        lucas = [self.lucas(p, d, q, e) for q, e in sorted(plus.items())]
        if None in factors or None in lucas:
            return False
        self.steps[p] = Step(prime=p, method=method, factors=factors, discriminant=d,
                             plus_factors=lucas)
        return True

    @staticmethod
    def pocklington(p: int, q: int, e: int) -> FactorStep | None:
        """The least base a that satisfies Pocklington's conditions for q, or None."""
        for a in range(2, 2 + MAX_CANDIDATES):
            if pow(a, p - 1, p) != 1:
                raise BackendFault("bpsw_probable_prime_fails_fermat")
            if math.gcd(pow(a, (p - 1) // q, p) - 1, p) == 1:
                return FactorStep(prime=q, exponent=e, base=a)
        return None

    def discriminant(self, p: int) -> int:
        """Selfridge's first D of 5, -7, 9, -11, ... with (D/p) = -1 (p is not a square)."""
        d = 5
        for _ in range(MAX_CANDIDATES):
            if self.arith.jacobi(d % p, p) == -1:
                return d
            d = -d - 2 if d > 0 else -d + 2
        raise BackendFault("no_selfridge_discriminant_for_a_bpsw_prime")

    def lucas(self, p: int, d: int, q: int, e: int) -> LucasStep | None:
        """The least odd P (with Q = (P^2 - D)/4) satisfying the Lucas conditions for q."""
        for big_p in range(1, 2 * MAX_CANDIDATES, 2):
            big_q = (big_p * big_p - d) // 4
            if big_q == 0 or math.gcd(big_q, p) != 1:
                continue
            if self.arith.lucas_u(p, big_p, big_q, p + 1) != 0:
                raise BackendFault("bpsw_probable_prime_fails_lucas")
            if math.gcd(self.arith.lucas_u(p, big_p, big_q, (p + 1) // q), p) == 1:
                return LucasStep(prime=q, exponent=e, lucas_p=big_p, lucas_q=big_q)
        return None

    def certificate(self, roots: list[int]) -> Certificate:
        """The steps and leaves the roots' proofs use, each step after the ones it uses."""
        steps: list[Step] = []
        leaves: set[int] = set()
        seen: set[int] = set()

        def visit(p: int) -> None:
            if p in seen:
                return
            seen.add(p)
            if p in self.leaves and p not in self.steps:
                leaves.add(p)
                return
            step = self.steps[p]
            for q in [f.prime for f in step.factors] + [f.prime for f in step.plus_factors]:
                visit(q)
            steps.append(step)

        for root in roots:
            visit(root)
        return Certificate(steps=steps, leaves=sorted(leaves))


class _NotAUnit(Exception):
    """A denominator mod N was not invertible: the curve arithmetic proves nothing."""


def _ec_add(n: int, a: int, p1: tuple[int, int] | None, p2: tuple[int, int] | None):
    """P1 + P2 on y^2 = x^3 + a x + b over Z/n in affine coordinates (None is O), as if Z/n
    were a field: every denominator must be a unit, so the result reduces to the true sum mod
    every prime factor of n."""
    if p1 is None:
        return p2
    if p2 is None:
        return p1
    (x1, y1), (x2, y2) = p1, p2
    if x1 == x2:
        if (y1 + y2) % n == 0:
            return None
        if y1 != y2:
            raise _NotAUnit
        num, den = 3 * x1 * x1 + a, 2 * y1
    else:
        num, den = y2 - y1, x2 - x1
    if math.gcd(den, n) != 1:
        raise _NotAUnit
    slope = num * pow(den, -1, n) % n
    x3 = (slope * slope - x1 - x2) % n
    return x3, (slope * (x1 - x3) - y1) % n


def _ec_multiply(n: int, a: int, k: int, point: tuple[int, int]):
    """k P by double-and-add (k >= 1)."""
    result = None
    for bit in bin(k)[2:]:
        result = _ec_add(n, a, result, result)
        if bit == "1":
            result = _ec_add(n, a, result, point)
    return result


def _above_hasse_square(q: int, n: int) -> bool:
    """q > (n^(1/4) + 1)^2, exactly: (sqrt q - 1)^4 > n, that is
    q^2 + 6q + 1 - n > 4 sqrt(q) (q + 1) with both sides positive, squared."""
    lhs = q * q + 6 * q + 1 - n
    return q > 1 and lhs > 0 and lhs * lhs > 16 * q * (q + 1) ** 2


def ecpp_step_holds(step: EcppStep) -> bool:
    """Every condition of the Goldwasser-Kilian theorem for the step, except q's own proof."""
    n, a, b, m, q = step.prime, step.a, step.b, step.m, step.q
    x, y = step.point.x, step.point.y
    if n % 2 == 0 or n % 3 == 0 or not (0 <= a < n and 0 <= b < n and 0 <= x < n and 0 <= y < n):
        return False
    if math.gcd(4 * a**3 + 27 * b**2, n) != 1 or (y * y - x**3 - a * x - b) % n != 0:
        return False
    # m within the Hasse interval's top (the order of the curve mod a prime N) bounds the work
    if not 2 <= m <= n + 1 + 2 * math.isqrt(n) + 2 or m % q != 0 or not _above_hasse_square(q, n):
        return False
    try:
        cofactor_point = _ec_multiply(n, a, m // q, (x, y))
        return cofactor_point is not None and _ec_multiply(n, a, q, cofactor_point) is None
    except _NotAUnit:
        return False


def ecpp_certificate(n: int) -> Certificate | None:
    """PARI's elliptic-curve chain for n, every step checked here (the curve arithmetic above)
    and ended at a leaf; None when PARI's chain does not prove n."""
    from ..adapters import pari_ecpp
    chain = pari_ecpp.ecpp_chain(n)
    if len(chain) > MAX_ECPP_STEPS:
        return None
    steps: list[EcppStep] = []
    expected = n
    for big_n, a, b, m, s, x, y in chain:
        if big_n != expected or s < 1 or m % s != 0:
            return None
        step = EcppStep(prime=big_n, method="ecpp", a=a, b=b, m=m, q=m // s,
                        point=CurvePoint(x=x, y=y))
        if not ecpp_step_holds(step):
            return None
        steps.append(step)
        expected = step.q
        if expected < PSI13:
            break
    if expected >= PSI13 or not _mr_proves_prime(expected):
        return None
    return Certificate(steps=steps[::-1], leaves=[expected])


def _composite_witness(n: int) -> Composite | None:
    for a in range(2, min(n - 1, int(2 * math.log(n) ** 2) + 2)):
        g = math.gcd(a, n)
        if 1 < g < n:
            return Composite(status="composite", witness=FactorWitness(kind="factor", factor=g))
        if not strong_probable_prime(n, a):
            return Composite(status="composite",
                             witness=BaseWitness(kind="miller_rabin_base", base=a))
    return None


def _proven_part(m: int, proven: set[int]) -> int:
    """The product of the full powers of the proven primes in m."""
    part = 1
    for q in proven:
        while m % q == 0:
            part *= q
            m //= q
    return part


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
    if search.certify(n):
        return Proven(status="prime", certificate=search.certificate([n]))
    certificate = ecpp_certificate(n)
    if certificate is not None:
        return Proven(status="prime", certificate=certificate)
    proven = search.leaves | set(search.steps)
    f1, f2 = _proven_part(n - 1, proven), _proven_part(n + 1, proven)
    held = sorted(q for q in proven if (n - 1) % q == 0 or (n + 1) % q == 0)
    return Unproven(status="unproven", bpsw_probable_prime=True, factored_part=f1,
                    cofactor=(n - 1) // f1, plus_factored_part=f2, plus_cofactor=(n + 1) // f2,
                    certified=search.certificate(held))


CERTIFY = MathTool(
    identifier="nt.prime.certify",
    vocabulary=(
        "primality certificate", "prime certificate", "prove primality", "primality proof",
        "prove that n is prime", "Pratt certificate", "Pocklington", "certify a prime",
        "proven prime", "certificate of primality", "Brillhart Lehmer Selfridge"),
    claim=("For 0 <= n < 10^100: prime with a certificate checkable by modular arithmetic (steps "
           "proving primes p from proven primes of p - 1 with Pocklington bases and of p + 1 "
           "with Lucas sequences, each closed by Pocklington F1^2 > p, Morrison (F2 - 1)^2 > p, "
           "the Brillhart-Lehmer-Selfridge cube-root test F1^3 >= p, or the combined "
           "lcm(F1, F2)^2 >= p test, or, when those do not close within their budget, "
           "elliptic-curve steps (PARI's ECPP chain, every step checked here: a point P on a "
           "non-singular curve mod N with m P = O, (m/q) P != O and a proven prime "
           "q > (N^(1/4) + 1)^2), down to leaves below psi_13 proven by Miller-Rabin with "
           "bases 2..41); composite with a factor or a Miller-Rabin witness; neither for 0 and "
           "1; or unproven: n passes strong BPSW but neither the fixed factoring budget nor a "
           "checked ECPP chain proved it, with the proven parts of n - 1 and n + 1, their "
           "cofactors, and the certificates of every proven prime of those parts."),
    request=CertifyRequest, result=CertifyResult, function=certify_prime, deadline=20.0,
    adapters=("flint_integer", "pari_ecpp", "pari_integer", "sympy_arithmetic", "sympy_ntheory"),
    examples=(
        Example.of("Compute a primality certificate for 2^89 - 1 or an honest partial "
                   "outcome; n must be a non-negative integer below 10^100, large values as "
                   "decimal text.", {"n": "618970019642690137449562111"}),),
    bounds=Bounds(
        input="0 <= n < 10^100 (about 2^332).",
        computation=(
            f"Counted work in the whole certificate tree: p - 1 and p + 1 factored for at most "
            f"{MAX_PRIMES} primes p above psi_13, each by trial division below 2^16; at most "
            f"{MAX_PIECES} composite pieces (< 10^100) given FLINT's smooth-part factoring "
            f"for primes of up to {SMOOTH_BITS} bits (its factors checked by their product and "
            f"proven here, never taken from FLINT); FLINT's fixed random state makes the "
            f"outcome reproducible; at most {MAX_CANDIDATES} bases or Lucas pairs per prime "
            f"q (a prime p needs about q/(q-1)). Then, if n is not proven, one PARI ECPP "
            f"chain for n < 10^100, at most {MAX_ECPP_STEPS} steps accepted, each checked by "
            f"two scalar multiplications (scalars below 2N) mod N < 10^100. Measured: "
            f"{PROVED[30]} random 30-digit, {PROVED[60]} random 60-digit and {PROVED[100]} "
            f"random 100-digit primes proved (24 and 2 of the 100- and 60-digit ones by ECPP, "
            f"chains of at most 14 steps; the slowest took 1.3 s of CPU); every counted "
            f"unit spent at 100 digits plus the ECPP chain costs about 3.5 s, under 20% of "
            f"the 20 s deadline."),
        output=f"At most {MAX_PRIMES} N - 1 / N + 1 steps, each with at most 332 factors on "
               f"each side below n, or at most {MAX_ECPP_STEPS} elliptic-curve steps; leaves "
               f"below psi_13."))


TOOLS = (CERTIFY,)
