"""Polynomials over the prime field GF(p) (`poly.modp.compute`): factorisation into monic
irreducibles with multiplicities, gcd with Bezout cofactors, and f^e mod g for huge e.

Factoring over GF(p) is a different question from factoring over Q: x^4 + 1 is irreducible over
Q but splits modulo every prime. p is proven prime when the request is validated (Miller-Rabin
with the bases 2..41 is deterministic below psi_13 > 10^24), because the algorithms (sympy's
galoistools: square-free split, distinct- and equal-degree factorisation) are only correct over
a field.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field, model_validator

from ..errors import BackendFault
from ..primitives import CONFIG, BigInt, Count, OutInt, Rule, reject, tagged
from ..tool import Bounds, Example, MathTool
from .arithmetic import _proven_prime

MAX_DEGREE = 32
RULE_MODP = Rule("modp_request", (
    "p must be a prime below 10^24. Coefficients are integers below 10^24 in absolute value, "
    "listed from the highest degree down and read modulo p; the first must be nonzero modulo "
    "p (the zero polynomial is []). factor needs a nonzero f; gcd needs g; powmod needs g "
    "(nonzero, the modulus polynomial) and exponent; other fields must be omitted."))

Coefficients = Annotated[list[BigInt(24)], Field(max_length=MAX_DEGREE + 1, description=(
    "Coefficients from the highest degree down (degree <= 32), read modulo p."))]


class ModpRequest(BaseModel):
    __doc__ = ("One computation with polynomials over GF(p). " + RULE_MODP.text + ' Example: '
               '{"operation": "factor", "p": 5, "f": [1, 0, 0, 0, 1]} factors x^4 + 1 mod 5.')
    model_config = CONFIG
    operation: Literal["factor", "gcd", "powmod"] = Field(description=(
        "factor: f = leading * prod g_i^e_i with monic irreducible g_i; gcd: monic gcd(f, g) "
        "with s f + t g = gcd; powmod: f^exponent mod g."))
    p: BigInt(24, minimum=2, description="The prime modulus, below 10^24.")
    f: Coefficients
    g: Coefficients | None = None
    exponent: BigInt(300, minimum=0, description="For powmod: e >= 0, below 10^300.") | None = None

    @model_validator(mode="after")
    def _rules(self) -> "ModpRequest":
        if not _proven_prime(self.p):
            reject(RULE_MODP.code, f"p = {self.p} is not prime", ("p",))
        for name in ("f", "g"):
            cs = getattr(self, name)
            if cs and cs[0] % self.p == 0:
                reject(RULE_MODP.code, f"the first coefficient of {name} is 0 modulo p; drop "
                       "leading zeros", (name, 0))
        op = self.operation
        if op == "factor" and not self.f:
            reject(RULE_MODP.code, "factor needs a nonzero f", ("f",))
        if (self.g is None) == (op in ("gcd", "powmod")):
            reject(RULE_MODP.code, f"{op} {'needs' if op != 'factor' else 'takes no'} g", ("g",))
        if op == "powmod" and not self.g:
            reject(RULE_MODP.code, "powmod needs a nonzero modulus polynomial g", ("g",))
        if (self.exponent is None) == (op == "powmod"):
            reject(RULE_MODP.code, f"{op} {'needs' if op == 'powmod' else 'takes no'} exponent",
                   ("exponent",))
        return self


Residues = Annotated[list[OutInt], Field(description=(
    "Coefficients in [0, p), highest degree first; [] is the zero polynomial."))]


class ModpFactor(BaseModel):
    model_config = CONFIG
    factor: Residues = Field(description="A monic irreducible polynomial over GF(p).")
    multiplicity: Count(1, MAX_DEGREE)


class Factored(BaseModel):
    model_config = CONFIG
    operation: Literal["factor"]
    leading: OutInt = Field(description="The leading coefficient of f modulo p.")
    factors: list[ModpFactor] = Field(description=(
        "Distinct monic irreducible factors with multiplicities, by degree then coefficients; "
        "empty for a constant f."))


class Gcd(BaseModel):
    model_config = CONFIG
    operation: Literal["gcd"]
    gcd: Residues = Field(description="The monic gcd ([] when f = g = 0).")
    s: Residues
    t: Residues = Field(description="Cofactors with s*f + t*g = gcd over GF(p).")


class PowMod(BaseModel):
    model_config = CONFIG
    operation: Literal["powmod"]
    value: Residues = Field(description="f^exponent mod g, of degree below deg g.")


ModpResult = tagged(Factored, Gcd, PowMod, tag="operation")


def compute(request: ModpRequest):
    from ..adapters import sympy_galois as backend
    p = request.p
    f = backend.reduce(request.f, p)
    if request.operation == "factor":
        leading, factors = backend.factor(f, p)
        product = [leading]
        for g, e in factors:
            for _ in range(e):
                product = backend.multiply(product, g, p)
        if product != f:
            raise BackendFault("factor_product_mismatch")
        return Factored(operation="factor", leading=leading, factors=[
            ModpFactor(factor=g, multiplicity=e) for g, e in sorted(
                factors, key=lambda pair: (len(pair[0]), pair[0]))])
    g = backend.reduce(request.g, p)
    if request.operation == "gcd":
        s, t, h = backend.gcdex(f, g, p)
        if backend.add(backend.multiply(s, f, p), backend.multiply(t, g, p), p) != h:
            raise BackendFault("bezout_identity_failed")
        return Gcd(operation="gcd", gcd=h, s=s, t=t)
    return PowMod(operation="powmod", value=backend.pow_mod(f, request.exponent, g, p))


MODP = MathTool(
    identifier="poly.modp.compute",
    synonyms=("GF", "GF(p)", "F_p", "finite field", "prime field", "mod p", "modulo a prime", "over a finite field", "polynomial modulo a prime"),
    vocabulary=(
        "finite field", "GF(p)", "polynomials modulo a prime", "factor modulo p",
        "Berlekamp", "Cantor-Zassenhaus", "irreducible modulo p", "polynomial gcd mod p",
        "modular exponentiation of polynomials", "Frobenius", "powmod"),
    claim=("Over the prime field GF(p), p < 10^24: the factorisation f = c * prod g_i^e_i into "
           "distinct monic irreducibles; or the monic gcd(f, g) with Bezout cofactors; or "
           "f^e mod g for 0 <= e < 10^300."),
    request=ModpRequest, result=ModpResult, function=compute, rules=(RULE_MODP,),
    adapters=("sympy_galois",),
    examples=(
        Example.of("Compute the factorisation of x^4 + 1 over GF(5) into monic irreducibles; "
                   "p must be a prime below 10^24 and coefficients run from the highest degree "
                   "down.", {"operation": "factor", "p": 5, "f": [1, 0, 0, 0, 1]}),
        Example.of("Compute x^(10^20) mod x^2 + 1 over GF(7); powmod needs the modulus "
                   "polynomial g and the exponent.",
                   {"operation": "powmod", "p": 7, "f": [1, 0], "g": [1, 0, 1],
                    "exponent": "100000000000000000000"}),
        Example.of("Compute the monic gcd of x^2 - 1 and x^2 + 2x + 1 over GF(3) with Bezout "
                   "cofactors; gcd needs both f and g.",
                   {"operation": "gcd", "p": 3, "f": [1, 0, -1], "g": [1, 2, 1]})),
    bounds=Bounds(
        input="p prime < 10^24 (about 2^80); degrees <= 32; exponent < 10^300.",
        computation="factor: square-free split, distinct-degree and Cantor-Zassenhaus "
                    "equal-degree factorisation, O(d^3 log p) operations mod p: measured "
                    "2.3 s at degree 32 with p near 10^24 (random f). gcd: Euclid, milliseconds. "
                    "powmod: square-and-multiply, at most 2000 products mod g.",
        output="At most 33 residues below p per polynomial; at most 32 factors."))


TOOLS = (MODP,)
