"""Number-theoretic functions of one integer: totient, divisors, sigma_k, Moebius, Jacobi symbol,
square roots modulo a prime, primitive roots and multiplicative orders (`nt.function.evaluate`).

Everything that depends on the prime factorisation of n computes it once (sympy factorint,
bounded by n < 10^30 exactly as `nt.integer.factor`) and returns it as evidence, so a caller can
recompute the value. Claims that are decisions carry their certificate: a square root comes
with the Legendre symbol (an empty root list with symbol -1 is Euler's criterion), a primitive
root and an order come with the prime factors q of the group order for which g^(order/q) != 1,
and "no primitive root" comes with the Carmichael exponent lambda(n) < phi(n).
"""

from __future__ import annotations

import math
from typing import Annotated, Literal

from pydantic import BaseModel, Field, model_validator

from ..errors import BackendFault
from ..primitives import CONFIG, BigInt, Count, OutInt, Rule, reject, tagged
from ..tool import Bounds, Example, MathTool
from .nt import PSI13, strong_probable_prime

FUNCTIONS = ("totient", "divisors", "sigma", "mobius", "jacobi", "sqrt_mod", "primitive_root",
             "multiplicative_order")
NEEDS_A = ("jacobi", "sqrt_mod", "multiplicative_order")
FACTOR_LIMIT = 10**30
DIVISORS_LIMIT = 10**12
ROOT_CANDIDATES = 2000
SQRT_LIMIT = 10**24

RULE_ARGUMENTS = Rule("function_arguments", (
    "a is required for jacobi, sqrt_mod and multiplicative_order and not allowed otherwise; k "
    "is allowed only for sigma (default 1)."))
RULE_RANGE = Rule("function_range", (
    "n must be below 10^30 for every function except jacobi (n odd, below 10^300), divisors "
    "(n below 10^12, so at most 6720 divisors are listed) and sqrt_mod (n a prime below 10^24, "
    "proven prime by deterministic Miller-Rabin); primitive_root and "
    "multiplicative_order need n >= 2."))


class FunctionRequest(BaseModel):
    __doc__ = ("One number-theoretic function of n (and a or k). " + RULE_ARGUMENTS.text + " "
               + RULE_RANGE.text + ' Example: {"function": "totient", "n": 36}')
    model_config = CONFIG
    function: Literal[FUNCTIONS] = Field(description=(
        "totient phi(n); divisors of n; sigma: sum of d^k over divisors d; mobius mu(n); jacobi "
        "(a/n); sqrt_mod: all x in [0, n) with x^2 = a (mod n) for a prime n; primitive_root: "
        "the smallest generator of (Z/nZ)^*; multiplicative_order: the least k >= 1 with "
        "a^k = 1 (mod n)."))
    n: BigInt(300, minimum=1, description="n >= 1 (the modulus for jacobi, sqrt_mod, "
                                          "primitive_root and multiplicative_order).")
    a: BigInt(300, description="The second argument of jacobi, sqrt_mod and "
                               "multiplicative_order; any sign, read modulo n.") | None = None
    k: Count(0, 100, "The power in sigma_k (0 counts divisors); default 1.") | None = None

    @model_validator(mode="after")
    def _arguments(self) -> "FunctionRequest":
        f = self.function
        if (self.a is None) == (f in NEEDS_A):
            reject(RULE_ARGUMENTS.code, f"{f} {'needs' if f in NEEDS_A else 'takes no'} a",
                   ("a",))
        if self.k is not None and f != "sigma":
            reject(RULE_ARGUMENTS.code, f"k is only for sigma, not {f}", ("k",))
        limit = {"jacobi": 10**300, "divisors": DIVISORS_LIMIT,
                 "sqrt_mod": SQRT_LIMIT}.get(f, FACTOR_LIMIT)
        if self.n >= limit:
            reject(RULE_RANGE.code, f"{f} needs n below 10^{len(str(limit)) - 1}", ("n",))
        if f in ("primitive_root", "multiplicative_order") and self.n == 1:
            reject(RULE_RANGE.code, f"{f} needs n >= 2", ("n",))
        if f == "jacobi" and self.n % 2 == 0:
            reject(RULE_RANGE.code, "the Jacobi symbol needs an odd n", ("n",))
        if f == "sqrt_mod" and not _proven_prime(self.n):
            reject(RULE_RANGE.code, f"sqrt_mod needs a prime modulus; {self.n} is not prime",
                   ("n",))
        return self


def _proven_prime(p: int) -> bool:
    """Deterministic Miller-Rabin with the bases 2..41, a proof for p < psi_13 > 10^24."""
    if p < 2:
        return False
    if p < 42:
        return all(p % d for d in range(2, p))
    return p % 2 == 1 and p < PSI13 and all(
        strong_probable_prime(p, b) for b in (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41))


class PrimePower(BaseModel):
    model_config = CONFIG
    prime: OutInt
    exponent: Count(1, 99)


Factors = Annotated[list[PrimePower], Field(description=(
    "The prime factorisation of n the value was computed from, primes increasing."))]


class Totient(BaseModel):
    model_config = CONFIG
    function: Literal["totient"]
    value: OutInt = Field(description="phi(n) = prod p^(e-1) (p - 1).")
    factors: Factors


class Divisors(BaseModel):
    model_config = CONFIG
    function: Literal["divisors"]
    divisors: list[OutInt] = Field(description="All positive divisors of n, increasing.")


class Sigma(BaseModel):
    model_config = CONFIG
    function: Literal["sigma"]
    k: Count(0, 100)
    value: OutInt = Field(description="sigma_k(n) = sum of d^k over the divisors d of n.")
    factors: Factors


class Mobius(BaseModel):
    model_config = CONFIG
    function: Literal["mobius"]
    value: Literal[-1, 0, 1]
    factors: Factors


class Jacobi(BaseModel):
    model_config = CONFIG
    function: Literal["jacobi"]
    value: Literal[-1, 0, 1]


class SquareRoots(BaseModel):
    model_config = CONFIG
    function: Literal["sqrt_mod"]
    legendre: Literal[-1, 0, 1] = Field(description=(
        "(a/p) by Euler's criterion: 0 when p divides a, otherwise 1 or -1 as "
        "a^((p-1)/2) = 1 or -1 (mod p); -1 proves there is no root."))
    roots: list[OutInt] = Field(description="Every x in [0, p) with x^2 = a (mod p), "
                                            "increasing: 0, 1 or 2 of them.")


class PrimitiveRoot(BaseModel):
    model_config = CONFIG
    function: Literal["primitive_root"]
    status: Literal["found", "none_exists", "not_found_below"] = Field(description=(
        "found: root is the smallest generator; none_exists: (Z/nZ)^* is not cyclic; "
        f"not_found_below: a generator exists (lambda(n) = phi(n)) but none is at most "
        f"{ROOT_CANDIDATES}, the candidates this operation tests (no claim about larger ones)."))
    root: OutInt | None = Field(description=(
        "found: the smallest g in [1, n) generating (Z/nZ)^*; null otherwise."))
    totient: OutInt = Field(description="phi(n), the order of (Z/nZ)^*.")
    totient_primes: list[OutInt] = Field(description=(
        "The primes q dividing phi(n); found: g^(phi/q) != 1 (mod n) for each, the "
        "certificate that g has order phi(n)."))
    carmichael: OutInt = Field(description=(
        "lambda(n), the exponent of (Z/nZ)^*; none_exists: lambda(n) < phi(n), so no element "
        "has order phi(n)."))


class Order(BaseModel):
    model_config = CONFIG
    function: Literal["multiplicative_order"]
    status: Literal["order", "not_a_unit"]
    order: OutInt | None = Field(description=(
        "order: the least k >= 1 with a^k = 1 (mod n); null when gcd(a, n) > 1."))
    order_primes: list[OutInt] = Field(description=(
        "The primes q dividing the order; a^(order/q) != 1 (mod n) for each, which with "
        "a^order = 1 proves minimality."))
    gcd: OutInt = Field(description="gcd(a, n); above 1 means a is not a unit mod n.")


FunctionResult = tagged(Totient, Divisors, Sigma, Mobius, Jacobi, SquareRoots, PrimitiveRoot,
                        Order, tag="function")


def _factorization(n: int) -> dict[int, int]:
    from ..adapters import sympy_ntheory as backend
    factors = backend.factorint(n) if n > 1 else {}
    if math.prod(p**e for p, e in factors.items()) != n:
        raise BackendFault("factorization_product_mismatch")
    return dict(sorted(factors.items()))


def _factor_list(factors: dict[int, int]) -> list[PrimePower]:
    return [PrimePower(prime=p, exponent=e) for p, e in factors.items()]


def _totient(factors: dict[int, int]) -> int:
    return math.prod(p**(e - 1) * (p - 1) for p, e in factors.items())


def _totient_factorization(factors: dict[int, int]) -> dict[int, int]:
    out: dict[int, int] = {}
    for p, e in factors.items():
        for q, f in [(p, e - 1)] + list(_factorization(p - 1).items()):
            if f:
                out[q] = out.get(q, 0) + f
    return dict(sorted(out.items()))


def _carmichael(factors: dict[int, int]) -> int:
    parts = [2**(e - 2) if p == 2 and e >= 3 else p**(e - 1) * (p - 1)
             for p, e in factors.items()]
    return math.lcm(*parts) if parts else 1


def _certify_order(g: int, n: int, order: int, primes: list[int]) -> None:
    if pow(g, order, n) != 1 % n or any(pow(g, order // q, n) == 1 % n for q in primes):
        raise BackendFault("order_certificate_failed")


def evaluate(request: FunctionRequest):
    from ..adapters import sympy_arithmetic as backend
    f, n = request.function, request.n
    if f == "jacobi":
        return Jacobi(function=f, value=backend.jacobi(request.a, n))
    if f == "divisors":
        return Divisors(function=f, divisors=backend.divisors(n))
    if f == "sqrt_mod":
        roots = backend.sqrt_mod(request.a, n)
        if any((x * x - request.a) % n for x in roots):
            raise BackendFault("root_does_not_square_to_a")
        # Euler's criterion: a^((p-1)/2) is 1 for a residue and p - 1 for a non-residue.
        legendre = 0 if request.a % n == 0 else (
            1 if pow(request.a, (n - 1) // 2, n) == 1 else -1)
        if (legendre == -1) != (not roots):
            raise BackendFault("roots_contradict_euler_criterion")
        return SquareRoots(function=f, legendre=legendre, roots=roots)
    if f == "multiplicative_order":
        g = math.gcd(request.a, n)
        if g != 1:
            return Order(function=f, status="not_a_unit", order=None, order_primes=[], gcd=g)
        order = backend.multiplicative_order(request.a % n, n)
        primes = [q for q in _totient_factorization(_factorization(n)) if order % q == 0]
        _certify_order(request.a, n, order, primes)
        return Order(function=f, status="order", order=order, order_primes=primes, gcd=1)
    factors = _factorization(n)
    if f == "totient":
        return Totient(function=f, value=_totient(factors), factors=_factor_list(factors))
    if f == "sigma":
        k = 1 if request.k is None else request.k
        value = math.prod((e + 1) if k == 0 else (p**(k * (e + 1)) - 1) // (p**k - 1)
                          for p, e in factors.items())
        return Sigma(function=f, k=k, value=value, factors=_factor_list(factors))
    if f == "mobius":
        value = 0 if any(e > 1 for e in factors.values()) else (-1) ** len(factors)
        return Mobius(function=f, value=value, factors=_factor_list(factors))
    phi = _totient(factors)
    primes = list(_totient_factorization(factors))
    carmichael = _carmichael(factors)
    if carmichael < phi:  # no element has order phi(n)
        return PrimitiveRoot(function=f, status="none_exists", root=None, totient=phi,
                             totient_primes=primes, carmichael=carmichael)
    # The smallest generator, by testing g = 1, 2, ... up to ROOT_CANDIDATES: g generates
    # exactly when gcd(g, n) = 1 and g^(phi/q) != 1 for every prime q of phi.
    for g in range(1, min(n, ROOT_CANDIDATES + 1)):
        if math.gcd(g, n) == 1 and all(pow(g, phi // q, n) != 1 % n for q in primes):
            _certify_order(g, n, phi, primes)
            return PrimitiveRoot(function=f, status="found", root=g, totient=phi,
                                 totient_primes=primes, carmichael=carmichael)
    return PrimitiveRoot(function=f, status="not_found_below", root=None, totient=phi,
                         totient_primes=primes, carmichael=carmichael)


FUNCTION = MathTool(
    identifier="nt.function.evaluate",
    vocabulary=(
        "arithmetic function", "Euler's totient", "totient", "Euler phi", "phi function",
        "divisors", "number of divisors", "sum of divisors", "divisor function", "sigma function",
        "Moebius function", "Mobius function", "Jacobi symbol", "Legendre symbol",
        "quadratic residue", "square root modulo", "modular square root", "primitive root",
        "multiplicative order", "order modulo"),
    claim=("The exact value of one arithmetic function: Euler's phi(n), the divisors of n, "
           "sigma_k(n), the Moebius mu(n) (each with the factorisation it was computed from), "
           "the Jacobi symbol (a/n) for odd n, all square roots of a modulo a prime n with the "
           "Legendre symbol, the smallest primitive root modulo n or the proof that none "
           "exists (lambda(n) < phi(n)), and the multiplicative order of a modulo n with its "
           "minimality certificate, or gcd(a, n) > 1."),
    request=FunctionRequest, result=FunctionResult, function=evaluate,
    adapters=("sympy_arithmetic", "sympy_ntheory"),
    rules=(RULE_ARGUMENTS, RULE_RANGE),
    examples=(
        Example.of("Compute Euler's totient of 36 with the factorisation it comes from; n must "
                   "be a positive integer below 10^30.", {"function": "totient", "n": 36}),
        Example.of("Compute the smallest primitive root modulo 41 with its order certificate; "
                   "n must be below 10^30 and takes no a.",
                   {"function": "primitive_root", "n": 41}),
        Example.of("Compute all square roots of 10 modulo the prime 13 with the Legendre "
                   "symbol; the modulus n must be a prime below 10^24.",
                   {"function": "sqrt_mod", "n": 13, "a": 10}),
        Example.of("Compute the multiplicative order of 2 modulo 101 with its certificate; "
                   "a is required and n must be below 10^30.",
                   {"function": "multiplicative_order", "n": 101, "a": 2})),
    bounds=Bounds(
        input="n < 10^30 (jacobi: odd n < 10^300; divisors: n < 10^12; sqrt_mod: prime "
              "n < 10^24); |a| < 10^300; 0 <= k <= 100.",
        computation="At most one factorisation of n below 10^30 (as nt.integer.factor: about "
                    "1.5 s for the hardest 100-bit semiprimes, 3.3 s measured under load 13 on 2 cores) plus, for primitive_root and "
                    "multiplicative_order, factorisations of p - 1 for the primes p of n (each "
                    "below 10^30); primitive_root searches only when a root exists (n = "
                    "2, 4, p^k or 2p^k, so phi(n) = p^(k-1)(p-1) has at most 23 distinct "
                    "primes below 10^30) and tests at most 2000 candidates with at most one "
                    "exponentiation per prime: at most 46,000 exponentiations modulo "
                    "n < 10^30, about 0.6 s (40,000 measured in 0.54 s). A larger smallest "
                    "root is reported as not_found_below, never guessed. jacobi and sqrt_mod "
                    "are polynomial in the digits of n: milliseconds.",
        output="Values below 10^3000 (sigma_100 of n < 10^30 is below 2 n^100); at most 6720 "
               "divisors below 10^12; at most 2 roots; at most 99 prime powers."))


TOOLS = (FUNCTION,)
