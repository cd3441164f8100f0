"""Helpers for the math library tests, and the largest accepted input of every domain.

Every test drives the public path (`stdlib.math.script.run` -> `stdlib.math.api.run` -> a
forked worker), so what is asserted is what a script or a model would get back. The checks
that establish invariants are written here independently of sympy where the seed asks for it
(Miller-Rabin, fraction-exact elimination).
"""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction

import pytest

from synsema.stdlib.math import script
from synsema.stdlib.math.errors import MathError

PSI13 = 3317044064679887385961981
MR_BASES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)


def run(identifier: str, payload: dict):
    """The plain result of one operation, through the real worker path."""
    return script.run(identifier, payload)


def rejected(identifier: str, payload) -> list[str]:
    """The issue codes with which the request model rejects `payload` (it must reject it)."""
    report = script.check(identifier, payload)
    assert not report["valid"], f"{identifier} accepted {payload!r}"
    with pytest.raises(MathError) as info:
        script.run(identifier, payload)
    assert info.value.kind == "invalid_request"
    codes = [issue["code"] for issue in info.value.issues]
    assert codes == [issue["code"] for issue in report["issues"]]
    return codes


# --- independent arithmetic ----------------------------------------------------------------

def strong_probable_prime(n: int, a: int) -> bool:
    """Miller-Rabin round written for the tests, independent of the library and sympy."""
    if n % 2 == 0:
        return n == 2
    d, s = n - 1, 0
    while d % 2 == 0:
        d //= 2
        s += 1
    x = pow(a, d, n)
    if x == 1 or x == n - 1:
        return True
    for _ in range(s - 1):
        x = pow(x, 2, n)
        if x == n - 1:
            return True
    return False


def q(value) -> Fraction:
    """A rational result field ("3/4" or "-2") as a Fraction."""
    return Fraction(value)


def mat(rows) -> dict:
    rows = [list(r) for r in rows]
    return {"nrows": len(rows), "ncols": len(rows[0]) if rows else 0, "rows": rows}


def det_fraction(rows: list[list[Fraction]]) -> Fraction:
    """Determinant by Gaussian elimination over Fractions (test-side, no sympy)."""
    a = [[Fraction(v) for v in row] for row in rows]
    n, sign, result = len(a), 1, Fraction(1)
    for col in range(n):
        pivot = next((r for r in range(col, n) if a[r][col] != 0), None)
        if pivot is None:
            return Fraction(0)
        if pivot != col:
            a[col], a[pivot] = a[pivot], a[col]
            sign = -sign
        result *= a[col][col]
        for r in range(col + 1, n):
            factor = a[r][col] / a[col][col]
            a[r] = [x - factor * y for x, y in zip(a[r], a[col])]
    return sign * result


def mat_mul(a, b):
    return [[sum(Fraction(a[i][k]) * Fraction(b[k][j]) for k in range(len(b)))
             for j in range(len(b[0]))] for i in range(len(a))]


def poly_mul(f: list, g: list) -> list:
    """Product of coefficient lists (highest degree first)."""
    if not f or not g:
        return []
    out = [Fraction(0)] * (len(f) + len(g) - 1)
    for i, a in enumerate(f):
        for j, b in enumerate(g):
            out[i + j] += Fraction(a) * Fraction(b)
    return out


def poly_strip(f: list) -> list:
    f = [Fraction(c) for c in f]
    while f and f[0] == 0:
        f = f[1:]
    return f


def poly_add(f: list, g: list) -> list:
    n = max(len(f), len(g))
    f = [Fraction(0)] * (n - len(f)) + [Fraction(c) for c in f]
    g = [Fraction(0)] * (n - len(g)) + [Fraction(c) for c in g]
    return poly_strip([a + b for a, b in zip(f, g)])


def poly_rem(f: list, g: list) -> list:
    """Remainder of f modulo nonzero g over Q."""
    f, g = poly_strip(f), poly_strip(g)
    while len(f) >= len(g) and f:
        factor = f[0] / g[0]
        shifted = [factor * c for c in g] + [Fraction(0)] * (len(f) - len(g))
        f = poly_strip([a - b for a, b in zip(f, shifted)])
    return f


def from_roots(*roots) -> list:
    """The monic polynomial with the given roots."""
    out = [Fraction(1)]
    for r in roots:
        out = poly_mul(out, [1, -Fraction(r)])
    return out


def wire(values) -> list:
    """Fractions as the canonical text the library accepts."""
    return [str(Fraction(v)) for v in values]


# --- the largest accepted input of each domain (request-boundary tests and measurements) ----

def pigeonhole(pigeons: int, holes: int) -> list[list[int]]:
    var = lambda i, j: i * holes + j + 1  # noqa: E731
    clauses = [[var(i, j) for j in range(holes)] for i in range(pigeons)]
    for j in range(holes):
        for a in range(pigeons):
            for b in range(a + 1, pigeons):
                clauses.append([-var(a, j), -var(b, j)])
    return clauses


def swinnerton_dyer(k: int) -> list[int]:
    from sympy import Poly, Symbol, swinnerton_dyer_poly
    x = Symbol("x")
    return [int(c) for c in Poly(swinnerton_dyer_poly(k, x), x).all_coeffs()]


def swinnerton_dyer_numeric(k: int) -> list[int]:
    """The Swinnerton-Dyer polynomial of the first k primes as the product of x - r over its
    2^k roots r = +-sqrt 2 +- sqrt 3 ... at 400 digits, rounded (exact: its coefficients have
    under 90 digits for k <= 7); sympy's resultants take seconds at k = 7."""
    import itertools

    import mpmath
    primes = [2, 3, 5, 7, 11, 13, 17][:k]
    with mpmath.workdps(400):
        roots = [sum(s * mpmath.sqrt(p) for s, p in zip(signs, primes))
                 for signs in itertools.product((1, -1), repeat=k)]
        cs = [mpmath.mpf(1)]
        for r in roots:
            cs = [a - r * b for a, b in zip(cs + [0], [0] + cs)]
        return [int(mpmath.nint(c)) for c in cs]


def largest_inputs() -> list[tuple[str, str, dict]]:
    """Per domain, the largest (hardest) accepted requests as (domain, identifier, payload)."""
    from sympy import prevprime
    rng = random.Random(20260101)
    # A balanced 100-bit semiprime just below 10^30 whose factors are far apart (Fermat's
    # method does not apply): the slowest kind of input for factorint at this size.
    semiprime = prevprime(7 * 10**14) * prevprime(1428 * 10**12)
    rat_poly = [rng.choice([-1, 1]) * rng.randrange(10**29, 10**30) for _ in range(33)]
    isolate_poly = [rng.randrange(10**11, 10**12)] + [rng.randrange(-10**12 + 1, 10**12)
                                                      for _ in range(12)]
    matrix = [[rng.choice([-1, 1]) * 10**6 if (i + j) % 3 else rng.randrange(-10**6, 10**6)
               for j in range(20)] for i in range(20)]
    # near the size rule's 3000 digits: 20x20 of 149-digit and 24x24 of 115-digit integers
    big_integers = [[str(rng.randrange(10**148, 10**149)) for _ in range(20)] for _ in range(20)]
    charpoly_integers = [[str(rng.randrange(10**114, 10**115)) for _ in range(24)]
                         for _ in range(24)]
    big_rational = [[str(Fraction(rng.randrange(-10**9 + 1, 10**9), rng.randrange(1, 10**4)))
                     for _ in range(10)] for _ in range(10)]
    num = [str(Fraction(rng.randrange(10**5, 10**6) * rng.choice([-1, 1]), rng.randrange(2, 1000)))
           for _ in range(9)]
    den = [rng.randrange(1, 10**6)] + [rng.randrange(-10**6 + 1, 10**6) for _ in range(8)]
    cnf = []  # random 3-SAT at the threshold ratio 4.26: hard, so the budget is spent
    for _ in range(21300):
        vs = rng.sample(range(1, 5001), 3)
        cnf.append([v if rng.random() < 0.5 else -v for v in vs])
    wide = [[v if rng.random() < 0.5 else -v for v in rng.sample(range(1, 20001), 4)]
            for _ in range(25000)]
    canonical = run("sat.cnf.canonicalize", {"num_vars": 5000, "clauses": cnf})["cnf"]
    smt_lines = ["(declare-const x%d Int)" % i for i in range(50)]
    for i in range(49):
        smt_lines.append(f"(assert (<= (+ (* 3 x{i}) (* (- 7) x{i + 1})) "
                         f"{rng.randrange(1, 10**11)}))")
    smt_lines.append("(assert (> (+ " + " ".join(f"x{i}" for i in range(50)) + ") 999999999999))")
    php = ["(declare-const p%d_%d Int)" % (i, j) for i in range(7) for j in range(6)]
    php += [f"(assert (and (>= p{i}_{j} 0) (<= p{i}_{j} 1)))" for i in range(7) for j in range(6)]
    php += ["(assert (>= (+ " + " ".join(f"p{i}_{j}" for j in range(6)) + ") 1))"
            for i in range(7)]
    php += ["(assert (<= (+ " + " ".join(f"p{i}_{j}" for i in range(7)) + ") 1))"
            for j in range(6)]
    weights = [rng.randrange(10**10, 10**11) for _ in range(40)]
    knapsack = ["(declare-const b%d Int)" % i for i in range(40)]
    knapsack += [f"(assert (and (>= b{i} 0) (<= b{i} 1)))" for i in range(40)]
    knapsack.append("(assert (= (+ " + " ".join(f"(* {w} b{i})" for i, w in enumerate(weights))
                    + f") {sum(weights[::3]) + 1}))")
    poly = lambda cs: {"variable": "x", "coefficients": cs}  # noqa: E731
    return [
        ("nt", "nt.integer.factor", {"n": str(semiprime)}),
        ("nt", "nt.prime.test", {"n": str(prevprime(10**620))}),
        ("nt", "nt.crt.solve", {"congruences": [
            {"residue": i, "modulus": str(p)} for i, p in enumerate(
                [prevprime(10**187 - k * 10**6) for k in range(16)])]}),
        ("comb", "comb.binomial", {"n": 12900, "k": 6450}),
        ("comb", "comb.partitions.count", {"n": 1000000}),
        ("poly", "poly.factor", {"polynomial": poly(rat_poly)}),
        ("poly", "poly.factor", {"polynomial": poly(swinnerton_dyer(5))}),
        ("poly", "poly.roots", {"polynomial": poly(isolate_poly), "isolate": True}),
        ("poly", "poly.gcd", {"f": poly([rng.randrange(1, 10**12) for _ in range(17)]),
                              "h": poly([rng.randrange(1, 10**12) for _ in range(17)])}),
        ("linalg", "linalg.eigenvalues", {"matrix": mat(matrix), "isolate": True}),
        ("linalg", "linalg.det", {"matrix": mat(big_rational)}),
        ("linalg", "linalg.det", {"matrix": mat(big_integers)}),
        ("linalg", "linalg.rank", {"matrix": mat(big_integers)}),
        ("linalg", "linalg.rref", {"matrix": mat(big_integers)}),
        ("linalg", "linalg.charpoly", {"matrix": mat(charpoly_integers)}),
        ("linalg", "linalg.solve", {"matrix": mat([[str(Fraction(rng.randrange(-10**6 + 1, 10**6),
                                                                rng.randrange(1, 1000)))
                                                    for _ in range(8)] for _ in range(8)]),
                                    "rhs": [rng.randrange(-10**6 + 1, 10**6) for _ in range(8)]}),
        ("calculus", "calculus.integrate.rational", {"numerator": poly(num),
                                                      "denominator": poly(den)}),
        ("poly", "poly.system.solve", {"variables": ["x", "y", "z", "w"], "equations": [
            {"terms": [{"coefficient": str(Fraction(rng.randrange(-999, 1000) or 1,
                                                    rng.randrange(1, 100))),
                        "exponents": list(e)} for e in exponents]}
            for exponents in ([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 0, 0]],
                              [[0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 0]],
                              [[0, 0, 1, 0], [0, 0, 0, 1], [1, 0, 0, 0]],
                              [e for e in itertools.product(range(9), repeat=4)
                               if sum(e) <= 8][-45:])]}),
        ("calculus", "calculus.integrate.definite", {
            "numerator": poly(num), "denominator": poly(den),
            "lower": "-999999/998", "upper": "2/5"}),
        ("sat", "sat.cnf.canonicalize", {"num_vars": 20000, "clauses": wide}),
        ("sat", "sat.solve", {"cnf": canonical}),
        ("sat", "sat.solve", {"cnf": run("sat.cnf.canonicalize", {
            "num_vars": 20000, "clauses": wide})["cnf"]}),
        ("smt", "smt.solve", {"logic": "QF_LIA", "script": "".join(smt_lines),
                              "resource_limit": 10**6}),
        ("smt", "smt.solve", {"logic": "QF_LIA", "script": "".join(php),
                              "resource_limit": 10**6}),
        ("smt", "smt.solve", {"logic": "QF_LIA", "script": "".join(knapsack),
                              "resource_limit": 10**6}),
        ("poly", "poly.galois.group", {"polynomial": poly([
            str(Fraction(rng.choice([-1, 1]) * rng.randrange(10**29, 10**30), d))
            for d in (997, 991, 983, 977, 971, 967, 953)])}),
        ("nt", "nt.algebraic.minimal_polynomial", {"number": "sqrt(999999999989) + "
         "sqrt(999999999959) + sqrt(999999999961) + sqrt(999999999943)"}),
        ("nt", "nt.algebraic.minimal_polynomial", {"number": "9999999999^16 * "
                                                             "999999999999^(1/16)"}),
        ("seq", "seq.holonomic.find", {"terms": [rng.randrange(-10**30 + 1, 10**30)
                                                 for _ in range(100)]}),
        ("smt", "smt.nonlinear.solve", {"logic": "QF_NIA", "script": (
            "(declare-const x Int)(declare-const y Int)(declare-const z Int)"
            "(assert (and (> x 0) (> y 0) (> z 0)))"
            "(assert (= (+ (* x x x) (* y y y)) (* z z z)))"),
            "objective": {"sense": "minimize", "constant": "x"}}),
    ]


def rank_fraction(rows) -> int:
    """Rank by elimination over Fractions (test-side)."""
    a = [[Fraction(v) for v in r] for r in rows]
    r = 0
    for c in range(len(a[0]) if a else 0):
        pivot = next((i for i in range(r, len(a)) if a[i][c] != 0), None)
        if pivot is None:
            continue
        a[r], a[pivot] = a[pivot], a[r]
        for i in range(len(a)):
            if i != r and a[i][c] != 0:
                f = a[i][c] / a[r][c]
                a[i] = [x - f * y for x, y in zip(a[i], a[r])]
        r += 1
    return r


def check_lp(c, a, b, e, f, result) -> None:
    """Re-check an opt.lp.solve result with Fractions: feasibility, and the dual, Farkas or
    ray certificate by its defining inequalities (weak duality / Farkas' lemma)."""
    def dot(u, v):
        return sum((Fraction(p) * Fraction(r) for p, r in zip(u, v)), Fraction(0))
    rows, rhs = list(a) + list(e), [Fraction(v) for v in list(b) + list(f)]
    columns = [list(col) for col in zip(*rows)] if rows else [[] for _ in c]

    def feasible(x):
        return (len(x) == len(c) and all(v >= 0 for v in x)
                and all(dot(row, x) <= bi for row, bi in zip(a, map(Fraction, b)))
                and all(dot(row, x) == fi for row, fi in zip(e, map(Fraction, f))))
    status = result["status"]
    if status == "optimal":
        x = [q(v) for v in result["x"]]
        y, w = [q(v) for v in result["dual"]], [q(v) for v in result["dual_eq"]]
        assert feasible(x) and len(y) == len(a) and len(w) == len(e) and min(y, default=0) >= 0
        assert all(dot(col, y + w) + Fraction(ci) >= 0 for col, ci in zip(columns, c))
        assert dot(c, x) == q(result["value"]) == -dot(rhs, y + w)
    elif status == "infeasible":
        y, w = [q(v) for v in result["farkas"]], [q(v) for v in result["farkas_eq"]]
        assert len(y) == len(a) and len(w) == len(e) and min(y, default=0) >= 0
        assert all(dot(col, y + w) >= 0 for col in columns) and dot(rhs, y + w) < 0
    elif status == "unbounded":
        x, d = [q(v) for v in result["x"]], [q(v) for v in result["ray"]]
        assert feasible(x) and len(d) == len(c) and all(v >= 0 for v in d)
        assert all(dot(row, d) <= 0 for row in a) and all(dot(row, d) == 0 for row in e)
        assert dot(c, d) < 0
    else:
        assert status == "incomplete"
        if result["x"] is not None:
            assert feasible([q(v) for v in result["x"]])
            assert dot(c, [q(v) for v in result["x"]]) == q(result["value"])


def strong_lucas_probable_prime(n: int, d: int, p: int, q: int) -> bool:
    """The strong Lucas probable-prime test of odd n with parameters (D, P, Q), written for the
    tests from the doubling formulas (independent of the library and sympy)."""
    half = pow(2, -1, n)
    e, s = n + 1, 0
    while e % 2 == 0:
        e //= 2
        s += 1
    u, v, qk = 0, 2, 1  # U_0, V_0, Q^0
    for bit in bin(e)[2:]:
        u, v, qk = u * v % n, (v * v - 2 * qk) % n, qk * qk % n
        if bit == "1":
            u, v, qk = ((p * u + v) * half % n, (d * u + p * v) * half % n, qk * q % n)
    if u == 0 or v == 0:
        return True
    for _ in range(s - 1):
        v, qk = (v * v - 2 * qk) % n, qk * qk % n
        if v == 0:
            return True
    return False


def factor_degrees_mod_p(f: list[int], p: int) -> list[int]:
    """The degrees of the irreducible factors of f modulo a prime p not dividing lc(f) or
    disc(f) (f square-free mod p), sorted: distinct-degree factorisation written for the tests,
    independent of the library and sympy. By Dedekind's theorem it is the cycle type of a
    Frobenius element of the Galois group acting on the roots."""
    def rem(a, b):
        a = [c % p for c in a]
        inv = pow(b[0], -1, p)
        while len(a) >= len(b):
            factor = a[0] * inv % p
            a = [(x - factor * y) % p for x, y in zip(a, b + [0] * (len(a) - len(b)))][1:]
        while a and a[0] == 0:
            a = a[1:]
        return a

    def mul(a, b, m):
        out = [0] * (len(a) + len(b) - 1) if a and b else []
        for i, x in enumerate(a):
            for j, y in enumerate(b):
                out[i + j] = (out[i + j] + x * y) % p
        return rem(out, m)

    def gcd(a, b):
        while b:
            a, b = b, rem(a, b)
        return a

    def exact_div(a, b):
        inv, q, a = pow(b[0], -1, p), [], [c % p for c in a]
        while len(a) >= len(b):
            factor = a[0] * inv % p
            q.append(factor)
            a = [(x - factor * y) % p for x, y in zip(a, b + [0] * (len(a) - len(b)))][1:]
        return q

    def power(base, e, m):
        result, base = [1], rem(base, m)
        while e:
            if e & 1:
                result = mul(result, base, m)
            base, e = mul(base, base, m), e >> 1
        return result

    f, degrees, d, h = [c % p for c in f], [], 0, [1, 0]
    while len(f) > 1:
        d += 1
        h = power(h, p, f)  # x^(p^d) mod f
        minus_x = [0] * max(0, 2 - len(h)) + h
        minus_x = minus_x[:-2] + [(minus_x[-2] - 1) % p, minus_x[-1]]
        while minus_x and minus_x[0] == 0:
            minus_x = minus_x[1:]
        g = gcd(f, minus_x) if minus_x else f
        if len(g) > 1:
            degrees += [d] * ((len(g) - 1) // d)
            f = exact_div(f, g)
    return sorted(degrees)


def poly_value(f: list, x):
    """f(x) by Horner, coefficients highest degree first (exact for Fraction x)."""
    value = 0
    for c in f:
        value = value * x + c
    return value


def poly_derivative(f: list) -> list:
    n = len(f) - 1
    return [Fraction(c) * (n - i) for i, c in enumerate(f[:-1])]


def check_definite(payload: dict, result: dict) -> None:
    """Re-check a calculus.integrate.definite result without sympy: for a value, F' = f
    exactly at rational points (the log part's derivative summed over the roots of q is
    (r q' mod q)/q) and the closed form, evaluated here with mpmath's roots, against mpmath's
    quadrature to 30 digits; for `divergent`, the pole factor divides the denominator in
    lowest terms and has a root in the stated interval inside [a, b]."""
    import mpmath
    num = [q(c) for c in payload["numerator"]["coefficients"]]
    den = [q(c) for c in payload["denominator"]["coefficients"]]
    a, b = q(payload["lower"]), q(payload["upper"])
    if result["status"] == "divergent":
        factor = [Fraction(c) for c in result["pole"]["coefficients"]]
        lo, hi = (q(v) for v in result["interval"])
        assert min(a, b) <= lo <= hi <= max(a, b)
        assert (poly_value(factor, lo) == 0 if lo == hi
                else poly_value(factor, lo) * poly_value(factor, hi) < 0)
        assert poly_rem(den, factor) == [] and poly_rem(num, factor) != []
        return
    anti = result["antiderivative"]
    an = [q(c) for c in anti["rational_part"]["numerator"]["coefficients"]]
    ad = [q(c) for c in anti["rational_part"]["denominator"]["coefficients"]]
    terms = [([Fraction(c) for c in t["factor"]["coefficients"]],
              [q(c) for c in t["residue"]["coefficients"]]) for t in anti["log_terms"]]
    for x0 in (Fraction(7, 3), Fraction(-11, 5), Fraction(13, 2), Fraction(1, 9)):
        if poly_value(den, x0) == 0 or any(poly_value(f, x0) == 0 for f, _ in terms):
            continue
        derivative = ((poly_value(poly_derivative(an), x0) * poly_value(ad, x0)
                       - poly_value(an, x0) * poly_value(poly_derivative(ad), x0))
                      / poly_value(ad, x0) ** 2) if an else Fraction(0)
        for f, r in terms:
            derivative += poly_value(poly_rem(poly_mul(r, poly_derivative(f)), f) or [0],
                                     x0) / poly_value(f, x0)
        assert derivative == poly_value(num, x0) / poly_value(den, x0)
    value_rational = ((poly_value(an, b) / poly_value(ad, b) - poly_value(an, a)
                       / poly_value(ad, a)) if an else Fraction(0))
    assert q(result["rational"]) == value_rational
    if a == b:
        assert result["log_terms"] == [] and result["rational"] == "0"
        return
    assert result["log_terms"] == anti["log_terms"]
    with mpmath.workdps(50):
        mp = lambda v: mpmath.mpf(v.numerator) / v.denominator  # noqa: E731
        closed = mp(value_rational)
        for f, r in terms:
            for alpha in mpmath.polyroots([int(c) for c in f], maxsteps=500, extraprec=500):
                closed += (mpmath.polyval([mp(c) for c in r], alpha) * mpmath.log(
                    (mp(b) - alpha) / (mp(a) - alpha)))
        integrand = lambda x: mpmath.polyval([mp(c) for c in num], x) / mpmath.polyval(  # noqa: E731
            [mp(c) for c in den], x)
        numeric = mpmath.quad(integrand, mpmath.linspace(mp(a), mp(b), 9))
        assert abs(closed.imag) < mpmath.mpf(10) ** -30
        assert abs(closed.real - numeric) < mpmath.mpf(10) ** -25 * (1 + abs(numeric))
        assert abs(mpmath.mpf(result["approx"]) - numeric) < mpmath.mpf(10) ** -25 * (1 + abs(numeric))


def jacobi_symbol(a: int, n: int) -> int:
    """(a/n) for odd n > 0 by quadratic reciprocity (written for the tests)."""
    a, result = a % n, 1
    while a:
        while a % 2 == 0:
            a //= 2
            if n % 8 in (3, 5):
                result = -result
        a, n = n, a
        if a % 4 == 3 and n % 4 == 3:
            result = -result
        a %= n
    return result if n == 1 else 0


def lucas_u_matrix(n: int, p: int, q: int, k: int) -> int:
    """U_k(P, Q) mod n as the corner of [[P, -Q], [1, 0]]^k (a route unlike the library's)."""
    def mul(x, y):
        return [[(x[0][0] * y[0][0] + x[0][1] * y[1][0]) % n,
                 (x[0][0] * y[0][1] + x[0][1] * y[1][1]) % n],
                [(x[1][0] * y[0][0] + x[1][1] * y[1][0]) % n,
                 (x[1][0] * y[0][1] + x[1][1] * y[1][1]) % n]]
    result, base = [[1, 0], [0, 1]], [[p % n, -q % n], [1, 0]]
    while k:
        if k & 1:
            result = mul(result, base)
        base, k = mul(base, base), k >> 1
    return result[1][0]  # M^k = [[U_(k+1), -Q U_k], [U_k, -Q U_(k-1)]]


def verify_prime_certificate(certificate: dict, roots=()) -> set[int]:
    """Check an nt.prime.certify certificate from the theorems alone (modular arithmetic, gcd,
    Jacobi symbols and Lucas sequences written here), returning the primes it proves; every
    root must be among them."""
    proven = set()
    for leaf in certificate["leaves"]:
        leaf = int(leaf)
        assert 2 <= leaf < PSI13
        assert leaf in MR_BASES or (leaf % 2 and all(strong_probable_prime(leaf, a)
                                                     for a in MR_BASES))
        proven.add(leaf)
    for step in certificate["steps"]:
        p, method = int(step["prime"]), step["method"]
        assert p % 2 == 1 and p >= PSI13
        if method == "ecpp":
            _check_ecpp_step(step, proven)
            proven.add(p)
            continue
        f1 = f2 = 1
        for f in step["factors"]:
            q, e, a = int(f["prime"]), f["exponent"], int(f["base"])
            assert q in proven and (p - 1) % q**e == 0
            assert pow(a, p - 1, p) == 1 and math.gcd(pow(a, (p - 1) // q, p) - 1, p) == 1
            f1 *= q**e
        if step["plus_factors"]:
            d = int(step["discriminant"])
            assert jacobi_symbol(d, p) == -1
        for f in step["plus_factors"]:
            q, e, big_p, big_q = (int(f["prime"]), f["exponent"], int(f["lucas_p"]),
                                  int(f["lucas_q"]))
            assert q in proven and (p + 1) % q**e == 0
            assert big_p * big_p - 4 * big_q == d and math.gcd(big_q, p) == 1
            assert lucas_u_matrix(p, big_p, big_q, p + 1) == 0
            assert math.gcd(lucas_u_matrix(p, big_p, big_q, (p + 1) // q), p) == 1
            f2 *= q**e
        if method == "pocklington":
            assert f1 * f1 > p
        elif method == "morrison":
            assert (f2 - 1) ** 2 > p
        elif method == "bls_cube_root":
            assert f1**3 >= p
            c2, c1 = divmod((p - 1) // f1, f1)
            disc = c1 * c1 - 4 * c2
            assert disc < 0 or math.isqrt(disc) ** 2 != disc
        else:
            assert method == "combined"
            g = f1 * f2 // math.gcd(f1, f2)
            assert g * g >= p
            r = _crt_one_minus_one(f1, f2)  # the one residue mod g with these two properties:
            assert 0 <= r < g and (r - 1) % f1 == 0 and (r + 1) % f2 == 0
            assert r == 1 or p % r != 0
        proven.add(p)
    assert all(int(root) in proven for root in roots)
    return proven


def _check_ecpp_step(step: dict, proven: set) -> None:
    """Goldwasser-Kilian: a point P on a non-singular curve mod N with m P = O and (m/q) P != O
    for a proven prime q > (N^(1/4) + 1)^2 proves N prime. Each sum is the affine chord-tangent
    sum written over the common denominator w^3 of its slope u / w and then normalised; every
    denominator must be a unit mod N, so each sum reduces to the same sum mod every prime factor
    of N (curve arithmetic written here, independent of the operation's)."""
    n, a, b, m, q = (int(step[k]) for k in ("prime", "a", "b", "m", "q"))
    x, y = int(step["point"]["x"]), int(step["point"]["y"])
    assert math.gcd(n, 6) == 1 and q in proven and m % q == 0
    assert math.gcd(4 * a**3 + 27 * b**2, n) == 1
    assert (y * y - x**3 - a * x - b) % n == 0
    # q > (N^(1/4) + 1)^2 with integers only: the integer square root of q, less one, to the
    # fourth power exceeds N (a little stronger than the theorem asks)
    assert (math.isqrt(q) - 1) ** 4 > n

    def normal(big_x, big_y, big_z):
        """(x, y) from (X : Y : Z) with Z a unit mod N; a non-unit Z refutes the step."""
        assert math.gcd(big_z, n) == 1, "a non-unit denominator mod N"
        inverse = pow(big_z, -1, n)
        return big_x * inverse % n, big_y * inverse % n

    def add(p1, p2):
        """P1 + P2 (None is O); the slope u / w needs a unit w mod N, so the sum reduces to
        the same sum mod every prime factor of N."""
        if p1 is None or p2 is None:
            return p2 if p1 is None else p1
        (x1, y1), (x2, y2) = p1, p2
        if (x1 - x2) % n == 0:
            if (y1 + y2) % n == 0:
                return None
            assert (y1 - y2) % n == 0, "x equal mod N but y neither equal nor opposite"
            u, w = 3 * x1 * x1 + a, 2 * y1
        else:
            u, w = y2 - y1, x2 - x1
        # x3 = u^2/w^2 - x1 - x2 and y3 = (u/w)(x1 - x3) - y1, over the common denominator w^3
        x3_w2 = u * u - (x1 + x2) * w * w
        return normal(x3_w2 * w, u * (x1 * w * w - x3_w2) - y1 * w**3, w**3)

    def times(k, point):
        result = point
        for bit in bin(k)[3:]:
            result = add(result, result)
            if bit == "1":
                result = add(result, point)
        return result

    inner = times(m // q, (x, y))
    assert inner is not None, "(m/q) P is O"
    assert times(q, inner) is None, "m P is not O"


def _crt_one_minus_one(f1: int, f2: int) -> int:
    """r in [0, lcm) with r = 1 (mod f1), r = -1 (mod f2), by extended Euclid."""
    g = math.gcd(f1, f2)
    lcm = f1 * f2 // g
    # 1 + f1 t = -1 (mod f2)  <=>  (f1/g) t = -2/g (mod f2/g)
    m = f2 // g
    t = (-2 // g) * pow(f1 // g, -1, m) % m if m > 1 else 0
    return (1 + f1 * t) % lcm


def check_system(payload: dict, result: dict) -> None:
    """Re-check a poly.system.solve result without sympy. Each family: every equation,
    cleared of the denominator, is 0 modulo p exactly (Fractions), the separating form gives t
    back, and the denominator is a unit modulo p; the counts add up; the solutions, computed
    here from the families with mpmath, are distinct and satisfy the equations and every basis
    element; D is the number of standard monomials of the basis."""
    import mpmath
    names = payload["variables"]
    n = len(names)
    equations = [[(q(t["coefficient"]), tuple(t["exponents"])) for t in eq["terms"]]
                 for eq in payload["equations"]]
    basis = [[(q(t["coefficient"]), tuple(t["exponents"])) for t in g["terms"]]
             for g in result["groebner_basis"]]

    def evaluate(poly, point):
        total = 0
        for c, e in poly:
            term = mpmath.mpf(c.numerator) / c.denominator
            for v, k in zip(point, e):
                term *= v ** k
            total += term
        return total

    if result["status"] == "inconsistent":
        assert basis == [[(Fraction(1), (0,) * n)]]
        return
    leading = [g[0][1] for g in basis]
    assert all(g[0][0] == 1 for g in basis)
    if result["status"] == "positive_dimensional":
        pure = {i for e in leading for i in range(n) if e[i] and sum(e) == e[i]}
        assert result["unbounded"] == [v for i, v in enumerate(names) if i not in pure] != []
        assert all(any(e) for e in leading)
        return
    # the standard monomials (bounded by the pure powers) count D
    limits = [min(e[i] for e in leading if e[i] and sum(e) == e[i]) for i in range(n)]
    standard = [m for m in itertools.product(*(range(k) for k in limits))
                if not any(all(a >= b for a, b in zip(m, e)) for e in leading)]
    assert len(standard) == result["count_with_multiplicity"]
    families = result["solutions"]
    assert sum(len(f["polynomial"]["coefficients"]) - 1 for f in families) == result["distinct"]
    assert sum((len(f["polynomial"]["coefficients"]) - 1) * f["multiplicity"]
               for f in families) == result["count_with_multiplicity"]
    c = result["separating"]
    points = []
    for f in families:
        p = [Fraction(v) for v in f["polynomial"]["coefficients"]]
        gs = [[q(v) for v in g["coefficients"]] for g in f["coordinates"]]
        g0 = [q(v) for v in f["denominator"]["coefficients"]]

        def mod(a):
            return poly_rem(a, p)

        def power(a, k):
            out = [Fraction(1)]
            for _ in range(k):
                out = mod(poly_mul(out, a))
            return out
        for eq in equations:
            degree = max(sum(e) for _, e in eq)
            total: list = []
            for coefficient, e in eq:
                term = [coefficient]
                for g, k in zip(gs, e):
                    term = mod(poly_mul(term, power(g, k)))
                term = mod(poly_mul(term, power(g0, degree - sum(e))))
                total = poly_add(total, term)
            assert poly_strip(mod(total)) == []
        t_back = []
        for ci, g in zip(c, gs):
            t_back = poly_add(t_back, [ci * v for v in g])
        assert poly_strip(mod(poly_add(t_back, [-v for v in poly_mul(g0, [Fraction(1), Fraction(0)])]))) == []
        with mpmath.workdps(40):
            for theta in mpmath.polyroots([int(v) for v in p], maxsteps=300, extraprec=300):
                den = mpmath.polyval([mpmath.mpf(v.numerator) / v.denominator for v in g0], theta)
                assert abs(den) > mpmath.mpf(10) ** -20
                point = [mpmath.polyval([mpmath.mpf(v.numerator) / v.denominator for v in g],
                                        theta) / den if g else mpmath.mpf(0) for g in gs]
                points.append(point)
                scale = 1 + max(abs(v) for v in point) ** 8
                for poly in equations + basis:
                    assert abs(evaluate(poly, point)) < mpmath.mpf(10) ** -20 * scale
        if f["point"] is not None:
            assert len(p) == 2
            root = -p[1] / p[0]
            assert [q(v) for v in f["point"]] == [poly_value(g, root) / poly_value(g0, root)
                                                 for g in gs]
    for i, a in enumerate(points):
        for b in points[:i]:
            assert max(abs(x - y) for x, y in zip(a, b)) > mpmath.mpf(10) ** -15


def check_series(payload: dict, result: dict) -> None:
    """Re-check a calculus.series.expand expansion with sympy's own `series` (a different
    algorithm: Gruntz-style expansion of the expression tree), the expression rebuilt from the
    library's parse tree (never sympify on text)."""
    import sympy
    from synsema.stdlib.math.domains import expression
    x = sympy.Symbol(payload.get("variable", "x"))
    tree = expression.parse(payload["expression"], (str(x),))
    functions = {"exp": sympy.exp, "log": sympy.log, "sqrt": sympy.sqrt, "sin": sympy.sin,
                 "cos": sympy.cos, "tan": sympy.tan, "atan": sympy.atan, "asin": sympy.asin,
                 "acos": sympy.acos, "sinh": sympy.sinh, "cosh": sympy.cosh,
                 "tanh": sympy.tanh, "asinh": sympy.asinh, "atanh": sympy.atanh}

    def build(t):
        kind = t[0]
        if kind == "num":
            return sympy.Rational(t[1].numerator, t[1].denominator)
        if kind == "var":
            return x
        if kind == "neg":
            return -build(t[1])
        if kind == "pow":
            return build(t[1]) ** sympy.Rational(t[2].numerator, t[2].denominator)
        if kind == "call":
            return functions[t[1]](build(t[2]))
        a, b = build(t[1]), build(t[2])
        return {"add": a + b, "sub": a - b, "mul": a * b, "div": a / b}[kind]
    n = payload["order"]
    assert result["status"] == "series"
    start = result["start"]
    expansion = sympy.series(build(tree), x, 0, n + 1).removeO()
    expected = [sympy.expand(expansion).coeff(x, k) for k in range(start, n + 1)]
    assert [Fraction(c) for c in result["coefficients"]] == [
        Fraction(int(sympy.fraction(e)[0]), int(sympy.fraction(e)[1])) for e in expected]
    nonzero = [start + i for i, c in enumerate(result["coefficients"]) if Fraction(c)]
    assert result["valuation"] == (nonzero[0] if nonzero else None)
    assert start == min(0, result["valuation"] if nonzero else 0)


def more_largest_inputs() -> list[tuple[str, str, dict]]:
    """The largest accepted requests of the operations largest_inputs() leaves out (issue 28:
    every operation measured at its bound); tests/math/measure_bounds.py times both lists."""
    from sympy import fibonacci, prevprime
    rng = random.Random(20261202)
    semiprime = prevprime(7 * 10**14) * prevprime(1428 * 10**12)
    big_integers = [[str(rng.randrange(10**148, 10**149)) for _ in range(20)] for _ in range(20)]
    below = lambda digits: rng.randrange(10**(digits - 1), 10**digits)  # noqa: E731
    lp_rows = [[str(Fraction(rng.randrange(-999, 1000), rng.randrange(2, 1000)))
                for _ in range(20)] for _ in range(20)]
    cnf = sorted({tuple(sorted({v if rng.random() < 0.5 else -v
                                for v in rng.sample(range(1, 20001), 4)}, key=abs))
                  for _ in range(25000)})
    canonical = run("sat.cnf.canonicalize", {"num_vars": 20000, "clauses": [list(c) for c in
                                                                            cnf]})["cnf"]
    poly = lambda cs: {"variable": "x", "coefficients": cs}  # noqa: E731
    return [
        ("linalg", "linalg.inverse", {"matrix": mat(big_integers)}),
        ("linalg", "linalg.nullspace", {"matrix": mat(big_integers)}),
        ("linalg", "linalg.integer.normal_forms", {
            "matrix": mat([[rng.randrange(-10**9 + 1, 10**9) for _ in range(8)]
                           for _ in range(8)]),
            "rhs": [rng.randrange(-10**9 + 1, 10**9) for _ in range(8)]}),
        ("linalg", "linalg.lattice.reduce", {"basis": mat([[below(30) for _ in range(24)]
                                                           for _ in range(24)])}),
        ("nt", "nt.integer.gcd", {"values": [str(below(300)) for _ in range(8)]}),
        ("nt", "nt.integer.lcm", {"values": [str(below(300)) for _ in range(8)]}),
        ("nt", "nt.modular.inverse", {"a": str(below(300)), "modulus": str(prevprime(10**300))}),
        ("nt", "nt.integer.relations", {"values": [str(Fraction(below(30), below(30)))
                                                   for _ in range(12)]}),
        ("nt", "nt.continued_fraction.expand", {"a": str(fibonacci(4785)),
                                                "c": str(fibonacci(4784))}),
        ("nt", "nt.continued_fraction.expand", {"a": 0, "b": 1, "c": 1, "d": 999331}),
        ("nt", "nt.function.evaluate", {"function": "totient", "n": str(semiprime)}),
        ("nt", "nt.function.evaluate", {"function": "multiplicative_order", "n": str(semiprime),
                                        "a": 2}),
        ("nt", "nt.function.evaluate", {"function": "primitive_root",
                                        "n": str(prevprime(10**30))}),
        ("nt", "nt.prime.certify", {"n": str(prevprime(10**100))}),
        ("opt", "opt.lp.solve", {"c": [rng.randrange(-999, 1000) for _ in range(20)],
                                 "a": mat(lp_rows),
                                 "b": [rng.randrange(1, 10**6) for _ in range(20)]}),
        ("poly", "poly.cyclotomic", {"n": 1680}),
        ("poly", "poly.modp.compute", {"operation": "factor", "p": str(prevprime(10**24)),
                                       "f": [1] + [str(below(24) % prevprime(10**24))
                                                   for _ in range(32)]}),
        ("poly", "poly.resultant", {
            "f": poly([str(Fraction(below(12), rng.randrange(2, 10**4))) for _ in range(17)]),
            "g": poly([str(Fraction(below(12), rng.randrange(2, 10**4))) for _ in range(17)])}),
        ("sat", "sat.assignment.check", {"cnf": canonical,
                                         "assignment": [v if rng.random() < 0.5 else -v
                                                        for v in range(1, 20001)]}),
        ("seq", "seq.recurrence.find", {"terms": [str(rng.randrange(-10**30 + 1, 10**30))
                                                  for _ in range(64)]}),
        ("calculus", "calculus.series.expand", {
            "expression": "exp(exp(exp(x)-1)-1)*tan(tan(tan(x)))/(sin(x)-x)^3", "order": 30}),
        ("nt", "nt.real.relations", {"values": ["pi", "e", "log(2)", "zeta(3)", "catalan",
                                                "euler", "sqrt(2)", "log(3)"],
                                     "digits": 300, "norm_bound": 10**12 - 1}),
    ]
