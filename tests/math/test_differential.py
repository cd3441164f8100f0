"""The differential suite: every operation's exact results re-verified by an independent route.

For each public operation, a seeded generator draws requests from every degree/shape class it
accepts (a class is one of `SHAPES[identifier]`: the shapes where a backend convention could
differ, such as deg f < deg g with both degrees odd for resultants), and a verifier checks the
result by another algorithm, the defining invariant, or brute force on small inputs — never by
calling the backend the operation uses. Issue 28 found a sign convention of sympy's resultant
that the operation's own tests never drew; this suite exists so that a backend's convention
cannot reach a user silently again.

The calls go the worker's way in this process (request validated by the model, the domain
function, the result serialised to JSON and re-validated), which keeps the default budget
small: SYNSEMA_DIFFERENTIAL=N multiplies the draws per class (`make differential` runs N=20).
"""

from __future__ import annotations

import itertools
import math
import os
import random
from fractions import Fraction

import pytest

from math_support import (check_definite, check_series, check_system, det_fraction, from_roots, mat, mat_mul,
                          poly_mul, poly_rem, poly_strip, q, rank_fraction, strong_probable_prime,
                          verify_prime_certificate, wire)
from synsema.stdlib.math import catalog

DRAWS = 3 * int(os.environ.get("SYNSEMA_DIFFERENTIAL", "1"))


def call(identifier: str, payload: dict):
    """The plain JSON result, as a worker child produces it and the parent re-validates it."""
    tool = catalog.get(identifier)
    result = tool.function(tool.request.model_validate(payload))
    text = tool.result_adapter.dump_json(result)
    tool.result_adapter.validate_json(text)
    import json
    return json.loads(text)


# --- independent helpers --------------------------------------------------------------------

def P(coefficients, variable="x") -> dict:
    return {"variable": variable, "coefficients": wire(coefficients)}


def coeffs(value) -> list[Fraction]:
    return [q(c) for c in value["coefficients"]]


def rand_poly(rng, degree, big=5, rational=False):
    lead = rng.choice([1, 2, -3, 5])
    rest = [Fraction(rng.randrange(-big, big + 1), rng.randrange(1, 4) if rational else 1)
            for _ in range(degree)]
    return [Fraction(lead)] + rest


def poly_eval(f, x):
    value = Fraction(0) if isinstance(x, Fraction) else 0
    for c in f:
        value = value * x + c
    return value


def poly_pow(f, e):
    out = [Fraction(1)]
    for _ in range(e):
        out = poly_mul(out, f)
    return out


def poly_divmod(f, g):
    f, g = poly_strip(f), poly_strip(g)
    quotient = [Fraction(0)] * max(0, len(f) - len(g) + 1)
    while len(f) >= len(g) and f:
        factor = f[0] / g[0]
        quotient[len(quotient) - (len(f) - len(g)) - 1] = factor
        f = poly_strip([a - b for a, b in zip(f, [factor * c for c in g]
                                              + [Fraction(0)] * (len(f) - len(g)))])
    return poly_strip(quotient), f


def monic(f):
    f = poly_strip(f)
    return [c / f[0] for c in f] if f else f


def poly_gcd(f, g):
    f, g = poly_strip(f), poly_strip(g)
    while g:
        f, g = g, poly_rem(f, g)
    return monic(f)


def sylvester(f, g) -> Fraction:
    m, n = len(f) - 1, len(g) - 1
    rows = [[Fraction(0)] * i + list(f) + [Fraction(0)] * (n - 1 - i) for i in range(n)]
    rows += [[Fraction(0)] * i + list(g) + [Fraction(0)] * (m - 1 - i) for i in range(m)]
    return det_fraction(rows) if rows else Fraction(1)


def rand_matrix(rng, m, n, big=4, rational=False, rank=None):
    rows = [[Fraction(rng.randrange(-big, big + 1), rng.randrange(1, 3) if rational else 1)
             for _ in range(n)] for _ in range(m)]
    if rank is not None and m and n:  # a product of m x r and r x n: rank <= r
        left = [[Fraction(rng.randrange(-2, 3)) for _ in range(rank)] for _ in range(m)]
        right = [[Fraction(rng.randrange(-2, 3)) for _ in range(n)] for _ in range(rank)]
        rows = mat_mul(left, right) if rank else [[Fraction(0)] * n for _ in range(m)]
    return rows


def charpoly_faddeev(a) -> list[Fraction]:
    """det(xI - A) by Faddeev-LeVerrier over Fractions (highest degree first)."""
    n = len(a)
    coefficients = [Fraction(1)]
    m = [[Fraction(0)] * n for _ in range(n)]
    c = Fraction(1)
    for k in range(1, n + 1):
        m = [[sum(Fraction(a[i][t]) * m[t][j] for t in range(n)) + (c if i == j else 0)
              for j in range(n)] for i in range(n)]
        am = mat_mul(a, m)
        c = -sum(am[i][i] for i in range(n)) / k
        coefficients.append(c)
    return coefficients


def is_prime(n: int) -> bool:
    if n < 2:
        return False
    return all(strong_probable_prime(n, b) for b in (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37,
                                                     41) if b % n)


def trial_factor(n: int) -> dict[int, int]:
    out, p = {}, 2
    while p * p <= n:
        while n % p == 0:
            out[p] = out.get(p, 0) + 1
            n //= p
        p += 1
    if n > 1:
        out[n] = out.get(n, 0) + 1
    return out


def rref_fraction(rows):
    a = [[Fraction(v) for v in r] for r in rows]
    pivots, r = [], 0
    for col in range(len(a[0]) if a else 0):
        p = next((i for i in range(r, len(a)) if a[i][col]), None)
        if p is None:
            continue
        a[r], a[p] = a[p], a[r]
        a[r] = [v / a[r][col] for v in a[r]]
        for i in range(len(a)):
            if i != r and a[i][col]:
                a[i] = [x - a[i][col] * y for x, y in zip(a[i], a[r])]
        pivots.append(col)
        r += 1
    return a, pivots


# --- one generator and one verifier per operation -------------------------------------------
# Each entry: shapes (the classes drawn), generate(rng, shape) -> payload,
# verify(payload, result) raising AssertionError when the result is wrong.

CASES: dict = {}


def case(identifier, shapes):
    def register(pair):
        generate, verify = pair()
        CASES[identifier] = (shapes, generate, verify)
        return pair
    return register


@case("poly.resultant", [(m, n) for m in range(1, 6) for n in range(0, 6)])
def _resultant():
    def generate(rng, shape):
        m, n = shape
        return {"f": P(rand_poly(rng, m, rational=True)), "g": P(rand_poly(rng, n))}

    def verify(payload, out):
        f, g = coeffs(payload["f"]), coeffs(payload["g"])
        assert q(out["resultant"]) == sylvester(f, g)
        n = len(f) - 1
        df = [c * (n - i) for i, c in enumerate(f[:-1])]
        disc = (-1) ** (n * (n - 1) // 2) * sylvester(f, df) / f[0] if n > 1 else Fraction(1)
        assert q(out["discriminant"]) == disc
    return generate, verify


@case("poly.gcd", [(m, n, k) for m in range(0, 4) for n in range(0, 4) for k in (0, 1, 2)])
def _poly_gcd():
    def generate(rng, shape):
        m, n, k = shape
        common = rand_poly(rng, k)
        return {"f": P(poly_mul(common, rand_poly(rng, m, rational=True))),
                "h": P(poly_mul(common, rand_poly(rng, n)))}

    def verify(payload, out):
        f, h = coeffs(payload["f"]), coeffs(payload["h"])
        g, s, t = coeffs(out["gcd"]), coeffs(out["s"]), coeffs(out["t"])
        assert g == poly_gcd(f, h)
        from math_support import poly_add
        assert poly_add(poly_mul(s, f), poly_mul(t, h)) == g
    return generate, verify


@case("poly.factor", [(d, m) for d in (1, 2, 3) for m in (1, 2)]
      + [("cyclotomic", 12), ("cyclotomic", 105), ("product", 120)])
def _poly_factor():
    def generate(rng, shape):
        if shape[0] == "cyclotomic":
            return {"polynomial": P([1] + [0] * (shape[1] - 1) + [-1])}
        if shape[0] == "product":  # degree 120: the new size class, factors of degree 1 to 60
            f = [1]
            while len(f) - 1 < shape[1]:
                f = poly_mul(f, rand_poly(rng, min(rng.randrange(1, 61), shape[1] + 1 - len(f))))
            return {"polynomial": P(f)}
        d, m = shape
        f = poly_mul(poly_pow(rand_poly(rng, d), m), rand_poly(rng, rng.randrange(1, 3)))
        return {"polynomial": P(f)}

    def verify(payload, out):
        f = coeffs(payload["polynomial"])
        product = [q(out["content"])]
        for item in out["factors"]:
            g = coeffs(item["factor"])
            product = poly_mul(product, poly_pow(g, item["multiplicity"]))
            # irreducible over Q: no rational root for low degree (degree <= 3 suffices there)
            if len(g) - 1 in (2, 3):
                lead, const = int(g[0]), int(g[-1])
                assert const != 0
                candidates = {Fraction(s * p, r) for p in trial_divisors(abs(const))
                              for r in trial_divisors(abs(lead)) for s in (1, -1)}
                assert not any(poly_eval(g, c) == 0 for c in candidates)
        assert product == f
    return generate, verify


def trial_divisors(n: int) -> list[int]:
    return [d for d in range(1, n + 1) if n % d == 0]


@case("poly.roots", [(r, a) for r in (0, 1, 2) for a in (0, 1)])
def _poly_roots():
    def generate(rng, shape):
        r, a = shape
        roots = [Fraction(rng.randrange(-4, 5), rng.randrange(1, 3)) for _ in range(r)]
        f = from_roots(*roots, *roots[:1])  # one repeated root when there is one
        if a:
            f = poly_mul(f, [1, 0, -rng.choice([2, 3, 5])])
        if len(f) == 1:
            f = poly_mul(f, [1, -1])
        return {"polynomial": P(f), "isolate": True}

    def verify(payload, out):
        f = coeffs(payload["polynomial"])
        product = [f[0]]
        for root in out["rational_roots"]:
            assert poly_eval(f, q(root["value"])) == 0
            product = poly_mul(product, poly_pow([Fraction(1), -q(root["value"])],
                                                 root["multiplicity"]))
        for group in out["algebraic_roots"]:
            g = [Fraction(c) for c in group["minimal_polynomial"]["coefficients"]]
            product = poly_mul(product, poly_pow(monic(g), group["multiplicity"]))
            for root in group["roots"]:
                if root["root"]["kind"] == "real":
                    lo, hi = (q(v) for v in root["root"]["interval"])
                    assert poly_eval(g, lo) * poly_eval(g, hi) <= 0
        assert product == f
        assert out["total_multiplicity"] == len(f) - 1
    return generate, verify


@case("poly.modp.compute", [(op, p) for op in ("factor", "gcd", "powmod") for p in (2, 3, 101)])
def _modp():
    def generate(rng, shape):
        op, p = shape
        f = [1] + [rng.randrange(p) for _ in range(rng.randrange(1, 6))]
        if op == "factor":
            return {"operation": op, "p": p, "f": f}
        g = [1] + [rng.randrange(p) for _ in range(rng.randrange(1, 4))]
        if op == "gcd":
            return {"operation": op, "p": p, "f": f, "g": g}
        return {"operation": op, "p": p, "f": f, "g": g, "exponent": rng.randrange(0, 200)}

    def mul(u, v, p):
        out = [0] * (len(u) + len(v) - 1)
        for i, a in enumerate(u):
            for j, b in enumerate(v):
                out[i + j] = (out[i + j] + a * b) % p
        return out

    def rem(u, v, p):
        u = list(u)
        inv = pow(v[0], -1, p)
        while len(u) >= len(v):
            t = u[0] * inv % p
            u = [(a - t * b) % p for a, b in zip(u, v + [0] * (len(u) - len(v)))][1:]
            while u and u[0] == 0:
                u = u[1:]
        return u

    def verify(payload, out):
        p, f = payload["p"], payload["f"]
        if payload["operation"] == "factor":
            product = [out["leading"]]
            for item in out["factors"]:
                g = item["factor"]
                # irreducible: brute force over all monic polynomials of degree <= deg g / 2
                for d in range(1, (len(g) - 1) // 2 + 1):
                    for tail in itertools.product(range(p), repeat=d):
                        if p ** d > 2000:
                            break
                        assert rem(g, [1, *tail], p) != []
                for _ in range(item["multiplicity"]):
                    product = mul(product, g, p)
            assert product == [c % p for c in f]
        elif payload["operation"] == "gcd":
            g = out["gcd"]
            assert not g or (rem(f, g, p) == [] and rem(payload["g"], g, p) == [])
            a, b = f, payload["g"]
            while b:
                a, b = b, rem(a, b, p)
            inv = pow(a[0], -1, p)
            assert g == [c * inv % p for c in a]
        else:
            result, base, e = [1], rem(f, payload["g"], p) if len(f) >= len(payload["g"]) else f, \
                payload["exponent"]
            for _ in range(e):
                result = rem(mul(result, base, p), payload["g"], p) if base else []
                if not result:
                    break
            expected = rem(result, payload["g"], p) if len(result) >= len(payload["g"]) else result
            assert out["value"] == expected
    return generate, verify


@case("poly.system.solve", [(n, kind) for n in (1, 2, 3) for kind in ("random", "rational_points",
                                                                   "multiple", "dependent")])
def _poly_system():
    def term(c, e):
        return {"coefficient": str(c), "exponents": list(e)}

    def generate(rng, shape):
        n, kind = shape
        names = ["x", "y", "z"][:n]
        monomials = [e for e in itertools.product(range(3), repeat=n) if sum(e) <= 2]
        if kind == "rational_points":  # x_i - a_i and products vanishing at chosen points
            a = [rng.randrange(-3, 4) for _ in range(n)]
            b = [rng.randrange(-3, 4) for _ in range(n)]
            eqs = [[term(1, [2 * (j == i) for j in range(n)]), term(-(a[i] + b[i]),
                    [int(j == i) for j in range(n)]), term(a[i] * b[i], [0] * n)]
                   for i in range(n)]
            eqs = [[t for t in eq if Fraction(t["coefficient"])] for eq in eqs]
        elif kind == "multiple":  # x_i^2 = 0 for some i: multiplicity above 1
            eqs = [[term(1, [2 * (j == i) for j in range(n)])] + (
                [term(rng.randrange(1, 4), [int(j == i) for j in range(n)]),
                 term(-rng.randrange(1, 4), [0] * n)] if i % 2 else []) for i in range(n)]
        else:
            eqs = [[term(Fraction(rng.randrange(-5, 6), rng.randrange(1, 3)), e)
                    for e in monomials if rng.random() < 0.7] for _ in range(n)]
            eqs = [[t for t in eq if Fraction(t["coefficient"])] or [term(1, [2] + [0] * (n - 1))]
                   for eq in eqs]
            if kind == "dependent":  # a repeated equation: positive-dimensional or less
                eqs[-1] = eqs[0]
        return {"variables": names, "equations": [{"terms": eq} for eq in eqs]}

    def verify(payload, out):
        check_system(payload, out)  # exact substitution mod p, counts, numeric solutions
    return generate, verify


@case("poly.cyclotomic", ["prime", "prime_power", "squarefree", "smooth", "three_odd_primes"])
def _cyclotomic():
    def generate(rng, shape):
        n = {"prime": rng.choice([2, 3, 5, 97, 101, 1999]),
             "prime_power": rng.choice([2, 3, 5, 7]) ** rng.randrange(1, 4),
             "squarefree": rng.choice([6, 10, 30, 42, 66, 210]),
             "smooth": rng.choice([12, 48, 72, 360, 720, 1680]),
             "three_odd_primes": rng.choice([105, 165, 195, 231, 385, 1155])}[shape]
        return {"n": n}

    def verify(payload, out):
        # another algorithm: sympy's cyclotomic_poly; and x^n - 1 = the product of the factors
        from sympy import Poly, Symbol, cyclotomic_poly
        x = Symbol("x")
        n = payload["n"]
        expected = [int(c) for c in Poly(cyclotomic_poly(n, x), x).all_coeffs()]
        assert out["cyclotomic"]["coefficients"] == expected
        product = [1]
        for f in out["factors"]:
            product = [int(c) for c in poly_mul(product, f["polynomial"]["coefficients"])]
        assert product == [1] + [0] * (n - 1) + [-1]
    return generate, verify


@case("linalg.lattice.reduce", [(n, m, kind) for n, m in ((1, 1), (2, 2), (3, 5), (6, 6))
                                 for kind in ("random", "knapsack")])
def _lll():
    def generate(rng, shape):
        n, m, kind = shape
        while True:
            if kind == "knapsack" and m > n:
                rows = [[int(i == j) for j in range(n)] + [rng.randrange(10**8, 10**9)]
                        for i in range(n)]
                rows = [r + [0] * (m - n - 1) for r in rows]
            else:
                rows = [[rng.randrange(-50, 51) for _ in range(m)] for _ in range(n)]
            if rank_fraction(rows) == n:
                return {"basis": mat(rows)}

    def verify(payload, out):
        # the defining invariants by another route: T integral with |det T| = 1 (Fractions),
        # T * input = reduced, and LLL's conditions from Fraction Gram-Schmidt; for 2 x 2 a
        # brute-force shortest vector: Lagrange-reduced, the first vector is a shortest one.
        from test_lll import check
        rows = payload["basis"]["rows"]
        check(rows, out)
        if len(rows) == 2 == len(rows[0]):
            first = out["basis"]["rows"][0]
            shortest = min(sum((a * rows[0][k] + b * rows[1][k]) ** 2 for k in range(2))
                           for a in range(-60, 61) for b in range(-60, 61) if a or b)
            assert sum(x * x for x in first) <= 2 * shortest
    return generate, verify


@case("linalg.det", [n for n in range(0, 7)])
def _det():
    def generate(rng, n):
        return {"matrix": mat(wire_rows(rand_matrix(rng, n, n, rational=True))) if n else
                {"nrows": 0, "ncols": 0, "rows": []}}

    def verify(payload, out):
        rows = [[q(v) for v in r] for r in payload["matrix"]["rows"]]
        n = len(rows)
        brute = sum(permutation_sign(p) * math.prod((rows[i][p[i]] for i in range(n)),
                                                    start=Fraction(1))
                    for p in itertools.permutations(range(n)))
        assert q(out["determinant"]) == brute
    return generate, verify


def permutation_sign(p) -> int:
    sign, seen = 1, set()
    for i in range(len(p)):
        if i in seen:
            continue
        j, length = i, 0
        while j not in seen:
            seen.add(j)
            j = p[j]
            length += 1
        sign *= (-1) ** (length - 1)
    return sign


def wire_rows(rows):
    return [wire(r) for r in rows]


@case("linalg.rank", [(m, n, r) for m in (1, 3, 5) for n in (1, 4) for r in (0, 1, 3)])
def _rank():
    def generate(rng, shape):
        m, n, r = shape
        return {"matrix": mat(wire_rows(rand_matrix(rng, m, n, rank=min(r, m, n))))}

    def verify(payload, out):
        rows = [[q(v) for v in r] for r in payload["matrix"]["rows"]]
        assert out["rank"] == rank_fraction(rows)
        minor = [[rows[i][j] for j in out["witness_cols"]] for i in out["witness_rows"]]
        assert len(minor) == out["rank"] and (not minor or det_fraction(minor) != 0)
    return generate, verify


@case("linalg.rref", [(m, n, r) for m in (1, 3, 4) for n in (1, 3, 5) for r in (0, 2)])
def _rref():
    def generate(rng, shape):
        m, n, r = shape
        return {"matrix": mat(wire_rows(rand_matrix(rng, m, n, rank=min(r, m, n) if r else None,
                                                    rational=True)))}

    def verify(payload, out):
        rows = [[q(v) for v in r] for r in payload["matrix"]["rows"]]
        expected, pivots = rref_fraction(rows)
        assert [[q(v) for v in r] for r in out["rref"]["rows"]] == expected
        assert out["pivot_columns"] == pivots
    return generate, verify


@case("linalg.nullspace", [(m, n, r) for m in (1, 3) for n in (1, 3, 5) for r in (0, 1, 2)])
def _nullspace():
    def generate(rng, shape):
        m, n, r = shape
        return {"matrix": mat(wire_rows(rand_matrix(rng, m, n, rank=min(r, m, n))))}

    def verify(payload, out):
        rows = [[q(v) for v in r] for r in payload["matrix"]["rows"]]
        basis = [[q(v) for v in b] for b in out["basis"]]
        n = payload["matrix"]["ncols"]
        assert len(basis) == n - rank_fraction(rows)
        assert all(sum(a * b for a, b in zip(row, v)) == 0 for row in rows for v in basis)
        assert not basis or rank_fraction(basis) == len(basis)
    return generate, verify


@case("linalg.solve", [(m, n, kind) for m in (1, 3) for n in (1, 3) for kind in ("any", "low")])
def _solve():
    def generate(rng, shape):
        m, n, kind = shape
        a = rand_matrix(rng, m, n, rank=1 if kind == "low" else None)
        return {"matrix": mat(wire_rows(a)), "rhs": wire([rng.randrange(-3, 4) for _ in range(m)])}

    def verify(payload, out):
        a = [[q(v) for v in r] for r in payload["matrix"]["rows"]]
        b = [q(v) for v in payload["rhs"]]
        consistent = rank_fraction(a) == rank_fraction([r + [v] for r, v in zip(a, b)])
        if out["status"] == "inconsistent":
            assert not consistent
            y = [q(v) for v in out["certificate"]]
            assert all(sum(y[i] * a[i][j] for i in range(len(a))) == 0 for j in range(len(a[0])))
            assert sum(yi * bi for yi, bi in zip(y, b)) != 0
            return
        assert consistent
        x = [q(v) for v in (out["x"] if out["status"] == "unique" else out["particular"])]
        assert all(sum(r * v for r, v in zip(row, x)) == bi for row, bi in zip(a, b))
        dimension = len(a[0]) - rank_fraction(a)
        assert (out["status"] == "unique") == (dimension == 0)
        if out["status"] == "affine":
            basis = [[q(v) for v in vec] for vec in out["basis"]]
            assert len(basis) == dimension
            assert all(sum(r * v for r, v in zip(row, vec)) == 0 for row in a for vec in basis)
    return generate, verify


@case("linalg.inverse", [(n, kind) for n in (1, 2, 4, 6) for kind in ("full", "singular")])
def _inverse():
    def generate(rng, shape):
        n, kind = shape
        a = rand_matrix(rng, n, n, rational=True, rank=n - 1 if kind == "singular" else None)
        return {"matrix": mat(wire_rows(a))}

    def verify(payload, out):
        a = [[q(v) for v in r] for r in payload["matrix"]["rows"]]
        n = len(a)
        if out["status"] == "invertible":
            inverse = [[q(v) for v in r] for r in out["inverse"]["rows"]]
            assert mat_mul(a, inverse) == [[Fraction(int(i == j)) for j in range(n)]
                                           for i in range(n)]
        else:
            assert det_fraction(a) == 0
            v = [q(x) for x in out["kernel_vector"]]
            assert any(v) and all(sum(r * x for r, x in zip(row, v)) == 0 for row in a)
            assert out["rank"] == rank_fraction(a)
    return generate, verify


@case("linalg.charpoly", [n for n in range(1, 7)])
def _charpoly():
    def generate(rng, n):
        return {"matrix": mat([[int(v) for v in r] for r in rand_matrix(rng, n, n)])}

    def verify(payload, out):
        a = [[q(v) for v in r] for r in payload["matrix"]["rows"]]
        assert coeffs(out["charpoly"]) == charpoly_faddeev(a)
    return generate, verify


@case("linalg.eigenvalues",
      [(n, kind) for n in (1, 3, 5, 12) for kind in ("random", "repeated")])
def _eigenvalues():
    def generate(rng, shape):
        n, kind = shape
        if kind == "repeated":  # a block with a repeated eigenvalue, with or without a Jordan block
            a = [[Fraction(2 if i == j else 0) for j in range(n)] for i in range(n)]
            if n > 1:
                a[0][1] = Fraction(rng.randrange(0, 2))
        else:
            a = rand_matrix(rng, n, n)
        return {"matrix": mat([[int(v) for v in r] for r in a]), "isolate": True}

    def verify(payload, out):
        a = [[q(v) for v in r] for r in payload["matrix"]["rows"]]
        n = len(a)
        product = [Fraction(1)]
        for group in out["groups"]:
            g = [Fraction(c) for c in group["minimal_polynomial"]["coefficients"]]
            product = poly_mul(product, poly_pow(monic(g), group["algebraic_multiplicity"]))
            if group["value"] is not None:
                lam = q(group["value"])
                shifted = [[a[i][j] - (lam if i == j else 0) for j in range(n)] for i in range(n)]
                assert group["geometric_multiplicity"] == n - rank_fraction(shifted)
        assert product == charpoly_faddeev(a)
    return generate, verify


@case("linalg.integer.normal_forms", [(m, n) for m in (1, 2, 3) for n in (1, 2, 4)])
def _normal_forms():
    def generate(rng, shape):
        m, n = shape
        a = [[rng.randrange(-6, 7) for _ in range(n)] for _ in range(m)]
        return {"matrix": mat(a), "rhs": [rng.randrange(-6, 7) for _ in range(m)]}

    def verify(payload, out):
        a = payload["matrix"]["rows"]
        b = payload["rhs"]
        m, n = len(a), len(a[0])
        assert out["rank"] == rank_fraction(a)
        # invariant factors: d_k = gcd of k x k minors / gcd of (k-1) x (k-1) minors
        previous = 1
        factors = []
        for k in range(1, out["rank"] + 1):
            g = 0
            for rows in itertools.combinations(range(m), k):
                for cols in itertools.combinations(range(n), k):
                    g = math.gcd(g, int(det_fraction([[a[i][j] for j in cols] for i in rows])))
            factors.append(g // previous)
            previous = g
        assert out["invariant_factors"] == factors
        for v in out["kernel"]:
            assert all(sum(r * x for r, x in zip(row, v)) == 0 for row in a)
        assert len(out["kernel"]) == n - out["rank"]
        solution = out["solution"]
        if solution["status"] == "solvable":
            x = solution["particular"]
            assert [sum(r * v for r, v in zip(row, x)) for row in a] == b
        else:  # y A integral, y b not: no integer solution
            y = [q(v) for v in solution["certificate"]]
            assert all((sum(y[i] * a[i][j] for i in range(m))).denominator == 1 for j in range(n))
            assert sum(yi * bi for yi, bi in zip(y, b)).denominator != 1
    return generate, verify


@case("nt.integer.relations", [n for n in (1, 2, 3, 5)])
def _relations():
    def generate(rng, n):
        return {"values": wire([Fraction(rng.randrange(-30, 31), rng.randrange(1, 13))
                                for _ in range(n)])}

    def verify(payload, out):
        xs = [q(v) for v in payload["values"]]
        n = len(xs)
        for r in out["relations"]:
            assert sum(ri * x for ri, x in zip(r, xs)) == 0
        if not any(xs):
            return
        w = out["complement"]
        assert sum(wi * x for wi, x in zip(w, xs)) == q(out["gcd"])
        assert abs(det_fraction(out["relations"] + [w])) == 1  # unimodular: all relations
        scale = math.lcm(*(x.denominator for x in xs))
        assert q(out["gcd"]) == Fraction(math.gcd(*(int(x * scale) for x in xs)), scale)
        assert len(out["relations"]) == n - 1
    return generate, verify


@case("nt.integer.gcd", [n for n in (1, 2, 3, 5)])
def _gcd():
    def generate(rng, n):
        return {"values": [rng.randrange(-10**6, 10**6) * rng.choice([1, 6, 0]) for _ in range(n)]}

    def verify(payload, out):
        values = payload["values"]
        assert out["gcd"] == math.gcd(*values)
        assert sum(a * b for a, b in zip(values, out["bezout"])) == out["gcd"]
    return generate, verify


@case("nt.integer.lcm", [n for n in (1, 2, 4)])
def _lcm():
    def generate(rng, n):
        return {"values": [rng.randrange(1, 60) for _ in range(n)]}

    def verify(payload, out):
        values = payload["values"]  # brute force: the least positive common multiple
        smallest = next(k for k in range(max(values), math.prod(values) + 1, max(values))
                        if all(k % v == 0 for v in values))
        assert out["lcm"] == smallest
    return generate, verify


@case("nt.integer.factor", ["small", "prime_power", "semiprime"])
def _factor():
    def generate(rng, shape):
        if shape == "small":
            return {"n": rng.randrange(1, 10**6)}
        if shape == "prime_power":
            return {"n": rng.choice([2, 3, 7, 101]) ** rng.randrange(1, 15)}
        return {"n": rng.randrange(10**5, 10**6) * rng.randrange(10**5, 10**6)}

    def verify(payload, out):
        n = payload["n"]
        assert {f["prime"]: f["exponent"] for f in out["factors"]} == trial_factor(n)
    return generate, verify


@case("nt.prime.test", ["small", "carmichael", "strong_pseudoprime"])
def _prime_test():
    def generate(rng, shape):
        if shape == "small":
            return {"n": rng.randrange(0, 10**5)}
        if shape == "carmichael":
            return {"n": rng.choice([561, 1105, 1729, 2465, 2821, 6601, 8911])}
        return {"n": rng.choice([2047, 1373653, 25326001, 3215031751])}

    def verify(payload, out):
        n = payload["n"]
        truth = n >= 2 and all(n % p for p in range(2, math.isqrt(n) + 1))
        assert (out["status"] == "prime") == truth
        assert (out["status"] == "composite") == (n >= 2 and not truth) or out["status"] == "neither"
    return generate, verify


@case("nt.prime.certify", ["30-digit", "60-digit", "100-digit", "mersenne", "composite"])
def _certify():
    def generate(rng, shape):
        if shape == "mersenne":
            return {"n": str(2**rng.choice([89, 107, 127]) - 1)}
        digits = int(shape.split("-")[0]) if shape[0].isdigit() else 30
        n = rng.randrange(10 ** (digits - 1), 10**digits) | 1
        while not is_prime(n) if shape != "composite" else is_prime(n):
            n += 2
        return {"n": str(n)}

    def verify(payload, out):
        n = int(payload["n"])
        assert out["status"] in (("prime", "unproven") if is_prime(n) else ("composite",))
        if out["status"] == "prime":
            verify_prime_certificate(out["certificate"], [n])
        elif out["status"] == "unproven":  # the certified primes cover both factored parts
            proven = verify_prime_certificate(out["certified"])
            for part, whole in ((int(out["factored_part"]), n - 1),
                                (int(out["plus_factored_part"]), n + 1)):
                assert whole % part == 0 and all(whole // part % p for p in proven)
                assert math.prod(p ** _valuation(part, p) for p in proven) == part
    return generate, verify


def _valuation(m: int, p: int) -> int:
    e = 0
    while m % p == 0:
        m, e = m // p, e + 1
    return e


@case("nt.modular.inverse", ["coprime", "shared"])
def _modinv():
    def generate(rng, shape):
        m = rng.randrange(2, 10**6)
        a = rng.randrange(-10**6, 10**6)
        if shape == "shared":
            a = a * math.gcd(a, m) or m
        return {"a": a, "modulus": m}

    def verify(payload, out):
        a, m = payload["a"], payload["modulus"]
        if math.gcd(a, m) == 1:
            assert out["status"] == "invertible" and 0 <= out["inverse"] < m
            assert a * out["inverse"] % m == 1
        else:
            assert out["status"] == "not_invertible"
    return generate, verify


@case("nt.crt.solve", [n for n in (1, 2, 3)])
def _crt():
    def generate(rng, n):
        return {"congruences": [{"residue": rng.randrange(0, 20), "modulus": rng.randrange(2, 20)}
                                for _ in range(n)]}

    def verify(payload, out):
        pairs = [(c["residue"], c["modulus"]) for c in payload["congruences"]]
        lcm = math.lcm(*(m for _, m in pairs))
        solutions = [x for x in range(lcm) if all((x - r) % m == 0 for r, m in pairs)]
        if out["status"] == "solvable":
            assert out["modulus"] == lcm and solutions == [out["residue"]]
        else:
            assert solutions == []
    return generate, verify


@case("comb.binomial", ["inside", "edges", "negative_k"])
def _binomial():
    def generate(rng, shape):
        n = rng.randrange(0, 60)
        k = {"inside": rng.randrange(0, n + 1), "edges": rng.choice([0, n, n + 1]),
             "negative_k": -1}[shape]
        return {"n": n, "k": k}

    def verify(payload, out):
        n, k = payload["n"], payload["k"]
        pascal = [[1]]
        for i in range(1, n + 1):
            pascal.append([1] + [pascal[-1][j - 1] + pascal[-1][j] for j in range(1, i)] + [1])
        assert out["value"] == (pascal[n][k] if 0 <= k <= n else 0)
    return generate, verify


@case("comb.partitions.count", ["small"])
def _partitions():
    def generate(rng, shape):
        return {"n": rng.randrange(0, 80)}

    def verify(payload, out):
        n = payload["n"]
        ways = [1] + [0] * n
        for part in range(1, n + 1):
            for total in range(part, n + 1):
                ways[total] += ways[total - part]
        assert out["value"] == ways[n]
    return generate, verify


@case("nt.function.evaluate", ["totient", "divisors", "sigma", "mobius", "jacobi", "sqrt_mod",
                               "primitive_root", "multiplicative_order"])
def _arithmetic():
    def generate(rng, function):
        n = rng.randrange(1, 3000)
        if function in ("sqrt_mod",):
            n = next(p for p in range(rng.randrange(3, 500), 10**4) if is_prime(p))
        if function == "jacobi":
            n = rng.randrange(1, 500) * 2 + 1
        payload = {"function": function, "n": n}
        if function in ("jacobi", "sqrt_mod", "multiplicative_order"):
            payload["a"] = rng.randrange(0, n + 5)
            if function == "multiplicative_order" and n == 1:
                payload["n"] = n = 2
        if function == "sigma":
            payload["k"] = rng.randrange(0, 3)
        return payload

    def verify(payload, out):
        f, n = payload["function"], payload["n"]
        divisors = [d for d in range(1, n + 1) if n % d == 0]
        if f == "totient":
            assert out["value"] == sum(1 for k in range(1, n + 1) if math.gcd(k, n) == 1)
        elif f == "divisors":
            assert out["divisors"] == divisors
        elif f == "sigma":
            assert out["value"] == sum(d ** payload["k"] for d in divisors)
        elif f == "mobius":
            factors = trial_factor(n)
            assert out["value"] == (0 if any(e > 1 for e in factors.values())
                                    else (-1) ** len(factors))
        elif f == "jacobi":
            a, value = payload["a"], 1
            for p, e in trial_factor(n).items():
                legendre = 0 if a % p == 0 else (1 if any(x * x % p == a % p
                                                          for x in range(p)) else -1)
                value *= legendre ** e
            assert out["value"] == value
        elif f == "sqrt_mod":
            a = payload["a"]
            assert out["roots"] == [x for x in range(n) if (x * x - a) % n == 0]
        elif f == "primitive_root":
            units = [k for k in range(1, n) if math.gcd(k, n) == 1] if n > 1 else [0]
            order = lambda g: next(k for k in range(1, n + 1) if pow(g, k, n) == 1 % n)  # noqa
            exists = n in (1, 2, 4) or any(order(g) == len(units) for g in units)
            assert (out["status"] == "found") == exists
            if exists:
                assert out["root"] == min(g for g in units if order(g) == len(units)) or n == 1
        else:
            a = payload["a"]
            if math.gcd(a, n) != 1:
                assert out["status"] == "not_a_unit" and out["gcd"] == math.gcd(a, n)
            else:
                assert out["order"] == next(k for k in range(1, n + 1) if pow(a, k, n) == 1 % n)
    return generate, verify


@case("nt.continued_fraction.expand", ["rational", "quadratic"])
def _contfrac():
    def generate(rng, shape):
        if shape == "rational":
            return {"a": rng.randrange(-10**6, 10**6), "c": rng.choice([1, -1]) * rng.randrange(1, 10**4)}
        d = rng.choice([2, 3, 5, 6, 7, 13, 19, 61])
        return {"a": rng.randrange(-5, 6), "b": rng.choice([1, -1, 2]), "c": rng.randrange(1, 5), "d": d}

    def verify(payload, out):
        a, c, b, d = payload["a"], payload["c"], payload.get("b", 0), payload.get("d", 0)
        if out["kind"] == "finite":
            value = Fraction(out["terms"][-1])
            for t in reversed(out["terms"][:-1]):
                value = t + 1 / value
            assert value == Fraction(a, c) and all(t >= 1 for t in out["terms"][1:])
            return
        # the partial quotients of x = (a + b sqrt d)/c by floors at 120 digits (Decimal),
        # independent of the library's exact (P + sqrt D)/Q recurrence: 25 terms compared.
        from decimal import Decimal, getcontext
        getcontext().prec = 120
        x = (Decimal(a) + Decimal(b) * Decimal(d).sqrt()) / Decimal(c)
        expected = []
        for _ in range(25):
            term = int(x.to_integral_value(rounding="ROUND_FLOOR"))
            expected.append(term)
            x = 1 / (x - term)
        period = out["period"]
        terms = out["preperiod"] + period * (25 // len(period) + 1)
        assert terms[:25] == expected
    return generate, verify


@case("seq.recurrence.find", [(order, extra) for order in (0, 1, 3) for extra in (-1, 0, 2)])
def _recurrence():
    def generate(rng, shape):
        order, extra = shape
        c = [rng.randrange(-3, 4) for _ in range(order - 1)] + [rng.choice([-2, 1, 3])] if order else []
        terms = [rng.randrange(-9, 10) for _ in range(order)] or [0]
        while len(terms) < max(1, 2 * order + extra):
            terms.append(sum(c[i] * terms[-1 - i] for i in range(order)) if order else 0)
        return {"terms": terms[:max(1, 2 * order + extra)]}

    def verify(payload, out):
        terms = payload["terms"]
        order, c = out["order"], [q(v) for v in out["coefficients"]]
        assert all(terms[n] == sum(c[i] * terms[n - 1 - i] for i in range(order))
                   for n in range(order, len(terms)))
        if order:  # minimal: no recurrence of order - 1 fits (a consistency test)
            rows = [[terms[n - i] for i in range(1, order)] + [terms[n]]
                    for n in range(order - 1, len(terms))]
            assert order == 1 and any(terms) or \
                rank_fraction([r[:-1] for r in rows]) != rank_fraction(rows)
        n = len(terms)
        assert out["status"] == ("determined" if 2 * order < n else
                                 "candidate" if 2 * order == n else "underdetermined")
    return generate, verify


@case("poly.galois.group", [(n, kind) for n in (2, 3, 4, 5, 6) for kind in ("random", "even")])
def _galois():
    def generate(rng, shape):
        n, kind = shape
        coefficients = [1] + [rng.randrange(-6, 7) for _ in range(n)]
        if kind == "even":  # f(x^2)-like sparse shapes: small imprimitive groups
            coefficients = [c if i % 2 == 0 else 0 for i, c in enumerate(coefficients)]
            coefficients[-1] = coefficients[-1] or 1
        return {"polynomial": P(coefficients)}

    def verify(payload, out):
        from test_galois import check
        f = [int(c) for c in coeffs(payload["polynomial"])]
        if out["status"] == "reducible":  # the factors multiply back to f
            product = [Fraction(1)]
            for g in out["factors"]:
                product = poly_mul(product, coeffs(g))
            assert product == [Fraction(c) for c in f] and len(out["factors"]) > 1
            return
        assert out["status"] == "group"
        check(f, out)
        assert out["order"] % (len(f) - 1) == 0  # a transitive group's order: n divides it
    return generate, verify


@case("nt.algebraic.minimal_polynomial", ["sqrt_sum", "radical_mix", "cosine", "quotient"])
def _minimal_polynomial():
    primes = [2, 3, 5, 7, 11, 13, 17, 19, 23]

    def generate(rng, shape):
        if shape == "sqrt_sum":  # k distinct primes: degree exactly 2^k (Besicovitch)
            chosen = rng.sample(primes, rng.randrange(1, 5))
            text = " + ".join(f"{rng.choice([1, 2, -3])}*sqrt({p})" for p in chosen)
            return {"number": text, "_degree": 2 ** len(chosen)}
        if shape == "radical_mix":
            a, b = rng.sample(primes, 2)
            return {"number": f"{a}^({rng.choice([1, -1])}/{rng.randrange(2, 5)}) "
                              f"{rng.choice('+-*')} {rng.choice(['I', f'sqrt({b})', str(b)])}"}
        if shape == "cosine":
            n = rng.randrange(3, 31)
            k = rng.choice([k for k in range(1, n) if math.gcd(k, n) == 1])
            totient = sum(1 for j in range(1, n + 1) if math.gcd(j, n) == 1)
            return {"number": f"cos(2*{k}*pi/{n})", "_degree": totient // 2}
        a, b = rng.sample(primes, 2)
        return {"number": f"({rng.randrange(1, 9)} + sqrt({a}))/({rng.randrange(-5, 5)} - cbrt({b}))"}

    def verify(payload, out):
        from test_algebraic import check
        assert out["status"] == "algebraic"
        check(payload["number"], out)
        if "_degree" in payload:
            assert out["degree"] == payload["_degree"]
    return generate, verify


@case("seq.holonomic.find", [(r, d, extra) for r, d in ((1, 0), (1, 1), (2, 1), (1, 2))
                              for extra in (-1, 0, 3)])
def _holonomic():
    def generate(rng, shape):
        r, d, extra = shape
        # a(n+r) = sum_i q_i(n) a(n+i) with integer q_i of degree <= d: integer terms
        q = [[rng.randrange(-3, 4) for _ in range(d + 1)] for _ in range(r)]
        q[0][0] = q[0][0] or 1
        terms = [rng.randrange(1, 6) for _ in range(r)]
        count = (r + 1) * (d + 1) - 1 + r + extra
        while len(terms) < count:
            n = len(terms) - r
            terms.append(sum(sum(c * n ** j for j, c in enumerate(q[i])) * terms[n + i]
                             for i in range(r)))
        return {"terms": terms[:max(1, count)], "max_order": 2, "max_degree": 2}

    def verify(payload, out):
        from sympy import Matrix
        from test_holonomic import check
        terms = payload["terms"]
        if out["status"] != "none":
            check(terms, out)
        # no earlier shape fits, and the found shape's nullity (sympy's nullspace, not ours)
        n = len(terms)
        shapes = sorted(((r, d) for r in (1, 2) for d in (0, 1, 2)
                         if (r + 1) * (d + 1) - 1 <= n - r),
                        key=lambda s: ((s[0] + 1) * (s[1] + 1), s[0]))
        for r, d in shapes:
            rows = [[m ** j * terms[m + i] for i in range(r + 1) for j in range(d + 1)]
                    for m in range(n - r)]
            nullity = len(Matrix(rows).nullspace())
            if (r, d) == (out.get("order"), out.get("degree")):
                assert nullity == out["nullity"]
                break
            assert nullity == 0, (r, d)
        else:
            assert out["status"] == "none"
    return generate, verify


@case("calculus.integrate.rational", [(m, n) for m in (0, 1, 3) for n in (1, 2, 3)])
def _integrate():
    def generate(rng, shape):
        m, n = shape
        return {"numerator": P(rand_poly(rng, m, rational=True)),
                "denominator": P(rand_poly(rng, n))}

    def verify(payload, out):
        # F' = f at rational points: the rational part differentiated exactly, the log part
        # sum_{R(t)=0} t S_x(t, x)/S(t, x) evaluated at the roots of R to 60 digits.
        import mpmath
        mpmath.mp.dps = 60
        f_num, f_den = coeffs(payload["numerator"]), coeffs(payload["denominator"])
        rn = coeffs(out["rational_part"]["numerator"])
        rd = coeffs(out["rational_part"]["denominator"])
        def d(p):
            k = len(p) - 1
            return [c * (k - i) for i, c in enumerate(p[:-1])]
        for x0 in (Fraction(7, 3), Fraction(-11, 5), Fraction(13, 2)):
            if poly_eval(f_den, x0) == 0 or poly_eval(rd, x0) == 0:
                continue
            expected = poly_eval(f_num, x0) / poly_eval(f_den, x0)
            rational = ((poly_eval(d(rn), x0) * poly_eval(rd, x0) - poly_eval(rn, x0)
                         * poly_eval(d(rd), x0)) / poly_eval(rd, x0) ** 2) if rn else Fraction(0)
            total = mpmath.mpf(rational.numerator) / rational.denominator
            for term in out["log_terms"]:
                r = [int(v) for v in term["R"]["coefficients"]]
                s = [[q(v) for v in c["coefficients"]] for c in term["S"]["coefficients"]]
                for t in mpmath.polyroots(r, maxsteps=200, extraprec=200):
                    sx = [sum(mpmath.mpf(c.numerator) / c.denominator * t ** (len(cs) - 1 - j)
                              for j, c in enumerate(cs)) for cs in s]
                    value = sum(c * (mpmath.mpf(x0.numerator) / x0.denominator) ** (len(sx) - 1 - i)
                                for i, c in enumerate(sx))
                    deriv = sum(c * (len(sx) - 1 - i) * (mpmath.mpf(x0.numerator) / x0.denominator)
                                ** (len(sx) - 2 - i) for i, c in enumerate(sx[:-1]))
                    total += t * deriv / value
            assert abs(total - mpmath.mpf(expected.numerator) / expected.denominator) < 1e-40
    return generate, verify


@case("calculus.integrate.definite", [(m, n, kind) for m in (0, 2, 4) for n in (1, 2, 4)
                                      for kind in ("interval", "pole_inside")])
def _definite():
    def generate(rng, shape):
        m, n, kind = shape
        den = rand_poly(rng, n)
        a = Fraction(rng.randrange(-6, 6), rng.randrange(1, 4))
        b = a + Fraction(rng.randrange(1, 12), rng.randrange(1, 4))
        if kind == "pole_inside":
            den = poly_mul(den, [Fraction(1), -(a + (b - a) * Fraction(rng.randrange(0, 5), 4))])
        return {"numerator": P(rand_poly(rng, m, rational=True)), "denominator": P(den),
                "lower": str(a), "upper": str(b)}

    def verify(payload, out):
        check_definite(payload, out)  # F' = f exactly, the closed form against quadrature
    return generate, verify


@case("calculus.series.expand", ["taylor", "laurent", "composition", "power"])
def _series():
    def small(rng):  # a polynomial with zero constant term
        return f"({rng.randrange(1, 4)}*x + {rng.randrange(-3, 4)}*x^2)"

    def generate(rng, shape):
        f = rng.choice(["sin", "exp", "atan", "sinh", "tan", "asin"])
        g = rng.choice(["cos", "log(1 + {})", "atanh", "tanh"])
        inner = f"{f}({small(rng)})"
        other = g.format(small(rng)) if "{" in g else f"{g}({small(rng)})"
        text = {"taylor": f"{inner}*{other} + {rng.randrange(-5, 6)}",
                "laurent": f"{other}/{inner}^{rng.randrange(1, 4)}",
                "composition": f"{f}({g.format('x') if '{' in g else g + '(x)'} - 1)"
                if g.startswith("cos") else f"{f}({other})",
                "power": f"(1 + {small(rng)})^({rng.randrange(-5, 6)}/{rng.randrange(1, 4)})"}[shape]
        return {"expression": text, "order": rng.randrange(0, 7)}

    def verify(payload, out):
        check_series(payload, out)  # against sympy's series, a different algorithm
    return generate, verify


@case("nt.real.relations", ["planted", "independent"])
def _real_relations():
    # 1, sqrt 2, log 2, log 3 and pi are linearly independent over Q (Baker's theorem), so
    # the relations among them and one planted combination are exactly the multiples of it
    pool = ["1", "sqrt(2)", "log(2)", "log(3)", "pi"]

    def generate(rng, shape):
        chosen = rng.sample(pool, 3)
        if shape == "independent":
            return {"values": chosen, "digits": 60, "norm_bound": 1000, "_planted": None}
        a = [rng.randrange(-9, 10) or 1 for _ in chosen]
        combination = " + ".join(f"({c})*{v}" for c, v in zip(a, chosen))
        return {"values": chosen + [combination], "digits": 60, "norm_bound": 1000,
                "_planted": a + [-1]}

    def verify(payload, out):
        planted = payload["_planted"]
        if planted is None:
            assert out["status"] == "none_below" and out["norm_bound"] > payload["norm_bound"]
            return
        assert out["status"] == "candidate"
        m = out["relation"]
        k = Fraction(m[-1], planted[-1])
        assert k.denominator == 1 and k and [k * v for v in planted] == m
    return generate, verify


@case("opt.lp.solve", [(m, k, n) for m in (0, 2, 5) for k in (0, 1, 2) for n in (1, 3, 5)])
def _lp():
    def generate(rng, shape):
        m, k, n = shape
        payload = {"c": [rng.randrange(-4, 5) for _ in range(n)]}
        if m:
            payload["a"] = mat([[rng.randrange(-3, 4) for _ in range(n)] for _ in range(m)])
            payload["b"] = [rng.randrange(-2, 6) for _ in range(m)]
        if k:
            payload["e"] = mat([[rng.randrange(-2, 3) for _ in range(n)] for _ in range(k)])
            payload["f"] = [rng.randrange(-2, 4) for _ in range(k)]
        return payload

    def verify(payload, out):
        from math_support import check_lp
        a = payload["a"]["rows"] if "a" in payload else []
        e = payload["e"]["rows"] if "e" in payload else []
        check_lp(payload["c"], a, payload.get("b", []), e, payload.get("f", []), out)
        assert out["status"] != "incomplete"
        # brute force on the vertices: the minimum over every basic feasible solution
        if out["status"] == "optimal" and len(payload["c"]) <= 3:
            assert q(out["value"]) == _vertex_minimum(payload["c"], a, payload.get("b", []),
                                                      e, payload.get("f", []))
    return generate, verify


def _vertex_minimum(c, a, b, e, f) -> Fraction:
    """min c.x over the vertices of {x >= 0, A x <= b, E x = f}, by enumerating every choice of
    n tight constraints (brute force, for n <= 3)."""
    n = len(c)
    rows = [([Fraction(v) for v in r], Fraction(bi), "le") for r, bi in zip(a, b)]
    rows += [([Fraction(v) for v in r], Fraction(fi), "eq") for r, fi in zip(e, f)]
    rows += [([Fraction(int(i == j)) for j in range(n)], Fraction(0), "x") for i in range(n)]
    best = None
    for chosen in itertools.combinations(range(len(rows)), n):
        system = [rows[i][0] + [rows[i][1]] for i in chosen]
        reduced, pivots = rref_fraction(system)
        if pivots != list(range(n)):
            continue
        x = [reduced[i][-1] for i in range(n)]
        ok = all(v >= 0 for v in x) and all(
            (sum(p * v for p, v in zip(r, x)) <= rhs) if kind == "le" else
            (sum(p * v for p, v in zip(r, x)) == rhs) if kind == "eq" else True
            for r, rhs, kind in rows)
        if ok:
            value = sum(Fraction(ci) * v for ci, v in zip(c, x))
            best = value if best is None else min(best, value)
    return best


@case("sat.cnf.canonicalize", [(n, m) for n in (1, 3, 5) for m in (0, 3, 8)])
def _canonicalize():
    def generate(rng, shape):
        n, m = shape
        return {"num_vars": n, "clauses": [[rng.choice([1, -1]) * rng.randrange(1, n + 1)
                                            for _ in range(rng.randrange(1, 4))] for _ in range(m)]}

    def verify(payload, out):
        n = payload["num_vars"]
        for bits in itertools.product((False, True), repeat=n):
            value = lambda lit: bits[abs(lit) - 1] == (lit > 0)  # noqa: E731
            before = all(any(value(l) for l in c) for c in payload["clauses"])
            after = all(any(value(l) for l in c) for c in out["cnf"]["clauses"])
            assert before == after
        again = call("sat.cnf.canonicalize", out["cnf"])
        assert again["cnf"] == out["cnf"]  # idempotent
    return generate, verify


def _brute_sat(n, clauses):
    for bits in itertools.product((False, True), repeat=n):
        if all(any(bits[abs(l) - 1] == (l > 0) for l in c) for c in clauses):
            return bits
    return None


@case("sat.solve", [(n, m) for n in (2, 5, 8) for m in (2, 10, 30)])
def _sat():
    def generate(rng, shape):
        n, m = shape
        clauses = sorted({tuple(sorted({rng.choice([1, -1]) * v for v in
                                        rng.sample(range(1, n + 1), min(3, n))}, key=abs))
                          for _ in range(m)})
        clauses = [list(c) for c in clauses if not any(-l in c for l in c)]
        cnf = call("sat.cnf.canonicalize", {"num_vars": n, "clauses": clauses})["cnf"]
        return {"cnf": cnf}

    def verify(payload, out):
        cnf = payload["cnf"]
        truth = _brute_sat(cnf["num_vars"], cnf["clauses"])
        assert out["status"] == ("sat" if truth is not None else "unsat")
        if out["status"] == "sat":
            model = set(out["model"])
            assert all(any(l in model for l in c) for c in cnf["clauses"])
    return generate, verify


@case("sat.assignment.check", [(n, kind) for n in (2, 5) for kind in ("full", "partial")])
def _assignment():
    def generate(rng, shape):
        n, kind = shape
        clauses = [[rng.choice([1, -1]) * v for v in rng.sample(range(1, n + 1), min(2, n))]
                   for _ in range(4)]
        cnf = call("sat.cnf.canonicalize", {"num_vars": n, "clauses": clauses})["cnf"]
        variables = range(1, n + 1) if kind == "full" else range(1, n)
        return {"cnf": cnf, "assignment": [v * rng.choice([1, -1]) for v in variables]}

    def verify(payload, out):
        assigned = set(payload["assignment"])
        statuses = []
        for c in payload["cnf"]["clauses"]:
            if any(l in assigned for l in c):
                statuses.append("true")
            elif all(-l in assigned for l in c):
                statuses.append("false")
            else:
                statuses.append("open")
        expected = ("falsified" if "false" in statuses else
                    "undetermined" if "open" in statuses else "satisfied")
        assert out["status"] == expected
    return generate, verify


@case("smt.solve", [(logic, n) for logic in ("QF_LIA", "QF_LRA") for n in (1, 2, 3)])
def _smt():
    def generate(rng, shape):
        logic, n = shape
        sort = "Int" if logic == "QF_LIA" else "Real"
        names = [f"x{i}" for i in range(n)]
        lines = [f"(declare-const {v} {sort})" for v in names]
        constraints = []
        for v in names:
            lines.append(f"(assert (and (>= {v} (- 3)) (<= {v} 3)))")
        for _ in range(rng.randrange(1, 4)):
            coefficients = [rng.randrange(-3, 4) for _ in names]
            bound = rng.randrange(-4, 5)
            terms = " ".join(f"(* {c} {v})" if c >= 0 else f"(* (- {-c}) {v})"
                             for c, v in zip(coefficients, names))
            rhs = str(bound) if bound >= 0 else f"(- {-bound})"
            lines.append(f"(assert (<= (+ 0 {terms}) {rhs}))")
            constraints.append((coefficients, bound))
        return {"logic": logic, "script": "".join(lines), "_constraints": constraints}

    def verify(payload, out):
        constraints, n = payload["_constraints"], payload["script"].count("declare-const")
        if payload["logic"] == "QF_LIA":  # brute force over the box
            points = list(itertools.product(range(-3, 4), repeat=n))
            feasible = any(all(sum(c * x for c, x in zip(cs, p)) <= b for cs, b in constraints)
                           for p in points)
            assert out["status"] == ("sat" if feasible else "unsat")
        if out["status"] == "sat":
            values = {}
            for entry in out["model"]:
                v = entry["value"]
                values[entry["name"]] = Fraction(v["value"]) if v["kind"] == "int" else q(v["value"])
            x = [values.get(f"x{i}", Fraction(0)) for i in range(n)]
            assert all(-3 <= v <= 3 for v in x)
            assert all(sum(c * v for c, v in zip(cs, x)) <= b for cs, b in constraints)
    return generate, verify


@case("smt.nonlinear.solve", [(n, objective) for n in (1, 2, 3) for objective in (False, True)])
def _smt_nonlinear():
    def lit(c):
        return str(c) if c >= 0 else f"(- {-c})"

    def generate(rng, shape):
        n, objective = shape
        names = [f"x{i}" for i in range(n)]
        lines = [f"(declare-const {v} Int)" for v in names]
        lines += [f"(assert (and (>= {v} (- 3)) (<= {v} 3)))" for v in names]
        constraints = []
        for _ in range(rng.randrange(1, 4)):  # sum of c * x_i * x_j (+ c * x_k) <= b
            monomials = [(rng.randrange(-3, 4), rng.randrange(n), rng.randrange(n))
                         for _ in range(2)]
            linear = (rng.randrange(-3, 4), rng.randrange(n))
            bound = rng.randrange(-4, 5)
            terms = " ".join(f"(* {lit(c)} x{i} x{j})" for c, i, j in monomials)
            lines.append(f"(assert (<= (+ {terms} (* {lit(linear[0])} x{linear[1]})) "
                         f"{lit(bound)}))")
            constraints.append((monomials, linear, bound))
        payload = {"logic": "QF_NIA", "script": "", "_constraints": constraints, "_n": n}
        if objective:
            lines.append("(declare-const goal Int)")
            lines.append(f"(assert (= goal (+ (* x0 x{n - 1}) x0)))")
            payload["objective"] = {"sense": rng.choice(["minimize", "maximize"]),
                                    "constant": "goal"}
        payload["script"] = "".join(lines)
        return payload

    def verify(payload, out):
        n, constraints = payload["_n"], payload["_constraints"]

        def holds(p):
            return all(sum(c * p[i] * p[j] for c, i, j in mono) + lin[0] * p[lin[1]] <= b
                       for mono, lin, b in constraints)
        feasible = [p for p in itertools.product(range(-3, 4), repeat=n) if holds(p)]
        if not feasible:
            assert out["status"] == "unsat"
            return
        assert out["status"] in ("sat", "optimal")
        model = {e["name"]: e["value"]["value"] for e in out["model"]}
        point = tuple(model[f"x{i}"] for i in range(n))
        assert holds(point) and all(-3 <= v <= 3 for v in point)
        if "objective" in payload:
            goals = [p[0] * p[n - 1] + p[0] for p in feasible]
            best = min(goals) if payload["objective"]["sense"] == "minimize" else max(goals)
            assert out["value"]["value"] == best == model["goal"]
    return generate, verify


# --- the tests ------------------------------------------------------------------------------

def test_every_operation_has_a_differential_case():
    assert sorted(CASES) == sorted(catalog.TOOLS)


@pytest.mark.parametrize("identifier", sorted(CASES))
def test_results_agree_with_an_independent_route(identifier):
    shapes, generate, verify = CASES[identifier]
    rng = random.Random(f"differential {identifier}")
    for shape in shapes:
        for _ in range(DRAWS):
            payload = generate(rng, shape)
            request = {k: v for k, v in payload.items() if not k.startswith("_")}
            out = call(identifier, request)
            try:
                verify(payload, out)
            except AssertionError as error:
                raise AssertionError(f"{identifier} shape {shape}: {request} -> {out}") from error
