"""The Galois group over Q of a polynomial of degree at most 6 (`poly.galois.group`).

The Galois group of an irreducible f of degree n acts transitively on its n roots, so it is one
of the transitive subgroups of S_n, up to conjugacy: 1 of degree 1 and 2, 2 of degree 3, 5 of
degree 4, 5 of degree 5 and 16 of degree 6. sympy (1.14, `galois_group`) decides which by the
classical resolvent method: the discriminant's squareness, then the factorisation of resolvent
polynomials whose integer coefficients it computes from root approximations at a precision
derived from a coefficient bound, so the answer is exact, not numerical. For degree 5 and 6 it
may need a Tschirnhausen transformation making a resolvent square-free, searched
deterministically (30 tries); if none is found the result says so (`undetermined`) instead of
guessing. A reducible f has no transitive group to name: the result gives its factorisation
over Q instead (the evidence), since the group of a product depends on how the factors' fields
intersect, which this operation does not decide.

Checked before returning: the group's order agrees with its name, and the group lies in A_n
exactly when the discriminant is a square (a theorem, computed here independently of sympy's
resolvents).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Annotated, Literal

from pydantic import BaseModel, Field, model_validator

from ..errors import BackendFault
from ..primitives import (CONFIG, Count, IntegerPolynomial, OutRat, Rat, Rule, poly_model, reject,
                          tagged)
from ..tool import Bounds, Example, MathTool

MAX_DEGREE = 6
Polynomial6 = poly_model(
    "SexticPolynomial", Rat(30, 3), MAX_DEGREE, "rational coefficients (numerators below "
    "10^30, denominators below 10^3)", nonzero=True)
RULE_DEGREE = Rule("degree_out_of_range", "f must have degree 1 to 6.")

# sympy's names of the transitive groups -> (LMFDB label nTk, a conventional name)
LABELS: dict[tuple[int, str], tuple[str, str]] = {
    (1, "S1"): ("1T1", "trivial"), (2, "S2"): ("2T1", "C2"),
    (3, "A3"): ("3T1", "C3"), (3, "S3"): ("3T2", "S3"),
    (4, "C4"): ("4T1", "C4"), (4, "V"): ("4T2", "V4"), (4, "D4"): ("4T3", "D4"),
    (4, "A4"): ("4T4", "A4"), (4, "S4"): ("4T5", "S4"),
    (5, "C5"): ("5T1", "C5"), (5, "D5"): ("5T2", "D5"), (5, "M20"): ("5T3", "F20"),
    (5, "A5"): ("5T4", "A5"), (5, "S5"): ("5T5", "S5"),
    (6, "C6"): ("6T1", "C6"), (6, "S3"): ("6T2", "S3"), (6, "D6"): ("6T3", "D6"),
    (6, "A4"): ("6T4", "A4"), (6, "G18"): ("6T5", "C3 x S3"), (6, "A4xC2"): ("6T6", "A4 x C2"),
    (6, "S4p"): ("6T7", "S4+"), (6, "S4m"): ("6T8", "S4-"), (6, "G36m"): ("6T9", "S3 x S3"),
    (6, "G36p"): ("6T10", "C3^2 : C4"), (6, "S4xC2"): ("6T11", "S4 x C2"),
    (6, "PSL2F5"): ("6T12", "PSL(2,5) = A5"), (6, "G72"): ("6T13", "C3^2 : D4"),
    (6, "PGL2F5"): ("6T14", "PGL(2,5) = S5"), (6, "A6"): ("6T15", "A6"),
    (6, "S6"): ("6T16", "S6")}


class GaloisRequest(BaseModel):
    model_config = CONFIG
    polynomial: Annotated[Polynomial6, Field(description="f, of degree 1 to 6. "
                                                         + RULE_DEGREE.text)]

    @model_validator(mode="after")
    def _degree(self) -> "GaloisRequest":
        if len(self.polynomial.coefficients) < 2:
            reject(RULE_DEGREE.code, "f is a constant; give a polynomial of degree 1 to 6",
                   ("polynomial", "coefficients"))
        return self


class GaloisGroup(BaseModel):
    model_config = CONFIG
    status: Literal["group"]
    polynomial: IntegerPolynomial = Field(description="f made primitive in Z[x] (same roots).")
    degree: Count(1, MAX_DEGREE)
    label: str = Field(description="The transitive group's LMFDB label nTk (e.g. 4T3).")
    name: str = Field(description="A conventional name (C4, V4, D4, F20, S3 x S3, ...).")
    order: Count(1, 720) = Field(description="|G| = [splitting field : Q].")
    generators: list[list[Count(0, MAX_DEGREE - 1)]] = Field(description=(
        "Permutations generating a group conjugate in S_n to G acting on the roots (array "
        "form: the images of 0..n-1); the numbering of the roots is not given."))
    discriminant: OutRat = Field(description="disc(f) of the primitive f.")
    in_alternating: bool = Field(description=(
        "G lies in A_n; true exactly when the discriminant is a rational square (checked)."))


class GaloisReducible(BaseModel):
    model_config = CONFIG
    status: Literal["reducible"]
    factors: list[IntegerPolynomial] = Field(description=(
        "The irreducible factors over Q (each primitive, positive leading coefficient, with "
        "repetition for multiple factors). The group of a product is not determined here: "
        "call this operation on each factor for the factors' groups."))


class GaloisUndetermined(BaseModel):
    model_config = CONFIG
    status: Literal["undetermined"]
    polynomial: IntegerPolynomial
    reason: str = Field(description="Why the resolvent method stopped (no square-free "
                                    "Tschirnhausen transform within 30 deterministic tries).")


GaloisResult = tagged(GaloisGroup, GaloisReducible, GaloisUndetermined)


def _is_square(value: Fraction) -> bool:
    if value < 0:
        return False
    num, den = value.numerator, value.denominator
    return math.isqrt(num) ** 2 == num and math.isqrt(den) ** 2 == den


def _group_order(generators: list[list[int]], n: int) -> tuple[int, bool]:
    """(order, every element even) of the group the generators span, by closure (|G| <= 720)."""
    identity = tuple(range(n))
    seen, frontier = {identity}, [identity]
    while frontier:
        nxt = []
        for g in frontier:
            for h in generators:
                gh = tuple(h[g[i]] for i in range(n))
                if gh not in seen:
                    seen.add(gh)
                    nxt.append(gh)
        frontier = nxt
    return len(seen), all(_parity(p) == 0 for p in seen)


def _parity(p) -> int:
    visited, transpositions = set(), 0
    for start in range(len(p)):
        length, i = 0, start
        while i not in visited:
            visited.add(i)
            i, length = p[i], length + 1
        transpositions += max(0, length - 1)
    return transpositions % 2


def galois(request: GaloisRequest):
    from ..adapters import sympy_poly, sympy_numberfield as backend
    f = request.polynomial
    variable = f.variable
    _, integer = sympy_poly.primitive_integer(f.coefficients)
    _, factors = sympy_poly.factor_over_q([Fraction(c) for c in integer])
    if len(factors) != 1 or factors[0][1] != 1:
        return GaloisReducible(status="reducible", factors=[
            IntegerPolynomial(variable=variable, coefficients=g)
            for g, e in sorted(factors, key=lambda pair: (len(pair[0]), pair[0]))
            for _ in range(e)])
    polynomial = IntegerPolynomial(variable=variable, coefficients=integer)
    n = len(integer) - 1
    if n == 1:
        found = ("S1", [[0]])
    else:
        found = backend.galois_group(integer)
    if found is None:
        return GaloisUndetermined(status="undetermined", polynomial=polynomial,
                                  reason="no square-free Tschirnhausen transformation found in "
                                         "30 deterministic tries")
    sympy_name, generators = found
    label, name = LABELS[(n, sympy_name)]
    discriminant = Fraction(1) if n == 1 else sympy_poly.discriminant(
        [Fraction(c) for c in integer])
    order, even = _group_order(generators, n)
    if even != _is_square(discriminant):
        raise BackendFault("galois_group_parity_disagrees_with_discriminant")
    return GaloisGroup(status="group", polynomial=polynomial, degree=n, label=label, name=name,
                       order=order, generators=generators, discriminant=discriminant,
                       in_alternating=even)


GALOIS = MathTool(
    identifier="poly.galois.group",
    vocabulary=(
        "Galois group", "Galois group of a polynomial", "splitting field", "transitive group",
        "solvable by radicals", "solvability by radicals", "resolvent", "Galois theory",
        "degree of the splitting field", "nTk label"),
    synonyms=("galois", "symmetry group of the roots", "quintic", "sextic", "quartic",
              "solvable"),
    claim=("For f in Q[x] of degree 1 to 6: if f is irreducible, its Galois group over Q as "
           "a transitive subgroup of S_n up to conjugacy (LMFDB label nTk, name, order = "
           "degree of the splitting field, generators), decided exactly by sympy's resolvent "
           "method, with disc(f) and whether G lies in A_n (checked against the "
           "discriminant's squareness); if f is reducible, its irreducible factors instead; "
           "undetermined (never a guess) when the degree 5/6 method finds no usable "
           "Tschirnhausen transformation."),
    request=GaloisRequest, result=GaloisResult, function=galois,
    adapters=("sympy_numberfield", "sympy_poly"),
    rules=(RULE_DEGREE,),
    examples=(
        Example.of(
            "Compute the Galois group over Q of x^4 - 2 (the dihedral group D4 of order 8); "
            "the polynomial must have degree 1 to 6 with rational coefficients.",
            {"polynomial": {"variable": "x", "coefficients": [1, 0, 0, 0, -2]}}),
        Example.of(
            "Compute the Galois group over Q of x^5 - x - 1 and whether it is solvable by "
            "radicals (S5 is not); the polynomial must have degree 1 to 6.",
            {"polynomial": {"variable": "x", "coefficients": [1, 0, 0, 0, -1, -1]}})),
    bounds=Bounds(
        input="Degree 1 to 6, rational coefficients with numerators below 10^30 and "
              "denominators below 10^3 (made primitive in Z[x]: below 10^51).",
        computation="One factorisation over Q of degree <= 6; then at most a handful of "
                    "resolvents of degree <= 15 (degree 6: sextic resolvents of degree 6, 10 "
                    "and 15), each from root approximations at a precision fixed by a "
                    "coefficient bound, and at most 30 Tschirnhausen tries; the group closure "
                    "check enumerates at most 720 permutations. The cost grows with the digits "
                    "of the primitive integer polynomial (a non-monic f is made monic first): "
                    "measured 0.73 s at the bound (degree 6, 30-digit numerators over seven "
                    "coprime 3-digit denominators, group S6), 7% of the 10 s deadline.",
        output="A label, a name, an order <= 720, at most a few generators of length <= 6, "
               "and disc(f), which is at most n^n ||f||_2^(2n - 2) (Hadamard on the Sylvester "
               "matrix of f and f'): below 10^520 at the bound; or at most 6 factors, whose "
               "coefficients Mignotte's bound keeps below 2^6 ||f||_2 (10^53)."))


TOOLS = (GALOIS,)
