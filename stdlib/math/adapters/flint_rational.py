"""Private adapter: antiderivatives of rational functions on FLINT's exact polynomials
(python-flint), by Hermite reduction and the Lazard-Rioboo-Trager logarithmic part.

The answer is a unique mathematical object, so the algorithm is free: for f = P/Q in lowest
terms, the rational part A/B of an antiderivative with a proper fraction plus the integrated
polynomial part is unique (B monic, coprime to A); the logarithmic integrand N/D (D square-free)
that remains is unique; R(t) = res_x(D, N - t D') has as roots exactly the residues of N/D, and
for each multiplicity i of its square-free decomposition R_i, S_i(t, x) is the gcd of D and
N - t D' over Q[t]/(R_i): at every root alpha of R_i it has degree i (Rothstein-Trager's
residues, sharpened by Lazard-Rioboo), so its monic form with coefficients reduced modulo R_i is
unique. It is the i-th subresultant of D and N - t D' (determinants, evaluated and
interpolated in t) over its leading coefficient modulo R_i -- Euclid's algorithm in the number
fields Q[t]/(p) was measured 300 times slower at the bound, its coefficients swell. When
i = deg D, S_i is D itself, written as the operation has always written it: the primitive
integer D0 times the denominator of the rational constant k in N/D = k N0/D0 (N0, D0
primitive, LC(D0) > 0).

The same rational part, with the log integrand's factors and residues, is
calculus.integrate.definite's residue form (`residue_form`), and `real_root_between` decides
exactly whether that operation's interval holds a pole.

Values cross as coefficient lists, highest degree first (Fractions; R as ints).
"""

from __future__ import annotations

import math
from fractions import Fraction

from flint import fmpq, fmpq_mat, fmpq_mpoly_ctx, fmpq_poly, fmpz_poly

from ..errors import BackendFault

LogTerm = tuple[list[int], list[list[Fraction]]]
_XT = fmpq_mpoly_ctx.get(("x", "t"))


def integrate_rational(numerator: list[Fraction], denominator: list[Fraction]
                       ) -> tuple[list[Fraction], list[Fraction], list[LogTerm]]:
    """An antiderivative of P/Q as (A, B, [(R, S)]): F = A/B + sum over the roots t of each
    R of t * log(S(t, x)). B is monic and coprime to A; R is primitive in Z[t] with positive
    leading coefficient, square-free, the terms in increasing multiplicity of their roots in
    res_x(D, N - t D'); S is given by its x-coefficients, each a polynomial in t over Q."""
    _, _, a, b, n, d = _split(numerator, denominator)
    return _coefficients(a), _coefficients(b), _log_part(n, d) if not n.is_zero() else []


def _split(numerator: list[Fraction], denominator: list[Fraction]):
    """(p, q, a, b, n, d): P/Q = p/q in lowest terms = (a/b)' + n/d, where a/b (b monic,
    coprime to a) is the integrated polynomial part, with constant 0, plus Hermite's proper
    rational part, and n/d is proper, in lowest terms, d square-free (n = 0 when there is no
    logarithmic part). a/b is unique: two such parts differ by a proper rational function
    whose derivative has only simple poles, which is a constant, so 0."""
    p, q = _poly(numerator), _poly(denominator)
    common = p.gcd(q)
    p, q = _exact(p, common), _exact(q, common)
    quotient, remainder = divmod(p, q)
    a, b = quotient.integral(), fmpq_poly(1)
    n, d = fmpq_poly(0), fmpq_poly(1)
    if not remainder.is_zero():
        (h_num, h_den), (n, d) = _hermite(remainder, q)
        a, b = a * h_den + h_num, h_den
        common = n.gcd(d)
        n, d = _exact(n, common), _exact(d, common)
    common = a.gcd(b) if not a.is_zero() else b
    a, b = _exact(a, common), _exact(b, common)
    lead = b.leading_coefficient()
    return p, q, a / lead, b / lead, n, d


ResidueTerm = tuple[list[int], list[Fraction]]


def residue_form(numerator: list[Fraction], denominator: list[Fraction]
                 ) -> tuple[list[Fraction], list[Fraction], list[ResidueTerm], list[int]]:
    """An antiderivative of P/Q in residue form, (A, B, [(q, r)], Q0): F = A/B + sum over the
    terms of sum over {alpha : q(alpha) = 0} of r(alpha) log(x - alpha). A/B is the rational
    part of integrate_rational; each q is an irreducible factor over Q of the denominator D of
    the logarithmic integrand N/D (square-free), primitive in Z[x] with LC > 0, in increasing
    degree and, within a degree, in increasing order of the coefficient lists (highest degree
    first), the order calculus.integrate.definite has always published; r = N / D' mod q, of
    degree < deg q, is the residue of N/D at each root of q. Q0 is the denominator of P/Q in
    lowest terms, primitive in Z[x] with LC > 0. Checked before it leaves: (A/B)' + sum of
    (r q' mod q)/q equals P/Q exactly (the log part's derivative summed over the conjugate
    roots is (r q' mod q)/q, since its residue at each root alpha is r(alpha))."""
    p, q, a, b, n, d = _split(numerator, denominator)
    terms: list[ResidueTerm] = []
    log_num, log_den = fmpq_poly(0), fmpq_poly(1)
    if not n.is_zero():
        _, factors = _integer(d).factor()
        for ints in sorted(_positive(f) for f, _ in factors):  # (degree, coefficients)
            factor = fmpq_poly(ints[1][::-1])
            r = (n * _inverse(d.derivative() % factor, factor)) % factor
            terms.append((ints[1], _coefficients(r)))
            log_num = log_num * factor + (r * factor.derivative()) % factor * log_den
            log_den *= factor
    # (a/b)' + log_num/log_den == p/q, cross-multiplied.
    if ((a.derivative() * b - a * b.derivative()) * log_den + log_num * b ** 2) * q != \
            p * b ** 2 * log_den:
        raise BackendFault("residue_form_derivative_mismatch")
    return _coefficients(a), _coefficients(b), terms, _positive(_integer(q))[1]


def _positive(p: fmpz_poly) -> tuple[int, list[int]]:
    """(degree, coefficients highest degree first) of +-p, the sign making LC > 0."""
    ints = [int(c) for c in reversed(p.coeffs())]
    return len(ints) - 1, [-c for c in ints] if ints[0] < 0 else ints


def real_root_between(polynomial: list[int], low: Fraction, high: Fraction) -> bool:
    """Whether the integer polynomial (highest degree first) has a real root in [low, high],
    low <= high: a root at low, or Sturm's count V(low) - V(high) of the distinct roots in
    (low, high] of its square-free part (exact, over Q)."""
    p = fmpq_poly(polynomial[::-1])
    if p.degree() < 1:
        return False
    p = _exact(p, p.gcd(p.derivative()))
    lo, hi = fmpq(low.numerator, low.denominator), fmpq(high.numerator, high.denominator)
    if p(lo) == 0:
        return True
    chain = [p, p.derivative()]
    while chain[-1].degree() > 0:
        chain.append(-(chain[-2] % chain[-1]))
    return _sign_changes(chain, lo) > _sign_changes(chain, hi)


def _sign_changes(chain: list[fmpq_poly], x: fmpq) -> int:
    signs = [v > 0 for v in (c(x) for c in chain) if v != 0]
    return sum(u != v for u, v in zip(signs, signs[1:]))


def _poly(coefficients: list[Fraction]) -> fmpq_poly:
    return fmpq_poly([fmpq(c.numerator, c.denominator) for c in reversed(coefficients)])


def _coefficients(p: fmpq_poly) -> list[Fraction]:
    """Highest degree first, [] for zero."""
    return [Fraction(int(c.p), int(c.q)) for c in reversed(p.coeffs())]


def _exact(p: fmpq_poly, divisor: fmpq_poly) -> fmpq_poly:
    quotient, remainder = divmod(p, divisor)
    if not remainder.is_zero():
        raise BackendFault("rational_inexact_division")
    return quotient


def _hermite(a: fmpq_poly, d: fmpq_poly):
    """Hermite reduction (the linear version, one multiplicity level per step) of the proper
    fraction a/d: ((g_num, g_den), (n, d_star)) with a/d = (g_num/g_den)' + n/d_star, d_star
    the square-free part of d. Checked exactly before it is returned."""
    g_num, g_den = fmpq_poly(0), fmpq_poly(1)
    d_minus = d.gcd(d.derivative())
    d_star = _exact(d, d_minus)
    rest = a
    while d_minus.degree() > 0:
        d_minus2 = d_minus.gcd(d_minus.derivative())
        d_minus_star = _exact(d_minus, d_minus2)
        # B (-d_star d_minus' / d_minus) + C d_minus_star = rest, deg B < deg d_minus_star.
        u = -_exact(d_star * d_minus.derivative(), d_minus)
        big_b, big_c = _bezout(u, d_minus_star, rest)
        rest = big_c - _exact(big_b.derivative() * d_star, d_minus_star)
        g_num, g_den = g_num * d_minus + big_b * g_den, g_den * d_minus
        d_minus = d_minus2
    common = g_num.gcd(g_den) if not g_num.is_zero() else g_den
    g_num, g_den = _exact(g_num, common), _exact(g_den, common)
    # (g_num/g_den)' + rest/d_star == a/d, cross-multiplied.
    derivative_num = g_num.derivative() * g_den - g_num * g_den.derivative()
    if (derivative_num * d_star + rest * g_den ** 2) * d != a * g_den ** 2 * d_star:
        raise BackendFault("hermite_reduction_mismatch")
    return (g_num, g_den), (rest, d_star)


def _bezout(a: fmpq_poly, b: fmpq_poly, c: fmpq_poly) -> tuple[fmpq_poly, fmpq_poly]:
    """(s, r) with s a + r b = c and deg s < deg b, for coprime a, b."""
    g, s, _ = a.xgcd(b)
    if g != 1:
        raise BackendFault("hermite_not_coprime")
    s = (s * c) % b
    return s, _exact(c - s * a, b)


def _log_part(n: fmpq_poly, d: fmpq_poly) -> list[LogTerm]:
    """The Lazard-Rioboo-Trager pairs (R_i, S_i) of n/d: proper, in lowest terms, d
    square-free."""
    _, factors = _integer(_residue_polynomial(n, d)).factor()
    by_multiplicity: dict[int, list[fmpz_poly]] = {}
    for factor, e in factors:
        by_multiplicity.setdefault(int(e), []).append(factor)
    # Each root of d has exactly one residue alpha, and gcd(d, n - alpha d') has degree i at
    # a root alpha of multiplicity i: the multiplicities weighted by degree add up to deg d.
    if sum(i * p.degree() for i, ps in by_multiplicity.items() for p in ps) != d.degree():
        raise BackendFault("log_part_degree_sum")
    logs: list[LogTerm] = []
    for i in sorted(by_multiplicity):
        irreducibles = by_multiplicity[i]
        r_i = _integer(math.prod(irreducibles, start=fmpz_poly(1)))
        r_ints = [int(c) for c in reversed(r_i.coeffs())]
        if d.degree() == i:
            s = [[c] if c else [] for c in _full_degree_log_argument(n, d)]
        else:
            s = _reduced_gcd(n, d, r_i, i)
        logs.append((r_ints, s))
    return logs


def _residue_polynomial(n: fmpq_poly, d: fmpq_poly) -> fmpq_poly:
    """res_x(d, n - t d') as a polynomial in t: its roots are the residues of n/d."""
    x, t = _XT.gens()
    d_xt = _mpoly(d, x)
    resultant = d_xt.resultant(_mpoly(n, x) - t * d_xt.derivative("x"), "x")
    r = fmpq_poly(0)
    for (_, k), c in resultant.to_dict().items():
        r += fmpq_poly([0] * k + [c])
    return r


def _mpoly(p: fmpq_poly, x):
    out = _XT.from_dict({})
    for k, c in enumerate(p.coeffs()):
        if c:
            out += c * x ** k
    return out


def _integer(p) -> fmpz_poly:
    """The primitive integer multiple of p with positive leading coefficient."""
    p = fmpq_poly(p)
    den = p.denom()
    ints = [int(c) for c in (p * den).numer().coeffs()]
    content = math.gcd(*ints) * (1 if ints[-1] > 0 else -1)
    return fmpz_poly([c // content for c in ints])


def _full_degree_log_argument(n: fmpq_poly, d: fmpq_poly) -> list[Fraction]:
    """D as the log's argument when every residue is the same: the primitive integer D0
    (LC > 0) times the denominator of k in n/d = k N0/D0, N0 and D0 primitive in Z[x]."""
    d0, n0 = _integer(d), _integer(n)
    k = (Fraction(_lead(n)) / int(n0.coeffs()[-1])) / (Fraction(_lead(d)) / int(d0.coeffs()[-1]))
    return [Fraction(int(c) * k.denominator) for c in reversed(d0.coeffs())]


def _lead(p: fmpq_poly) -> Fraction:
    c = p.leading_coefficient()
    return Fraction(int(c.p), int(c.q))


def _reduced_gcd(n: fmpq_poly, d: fmpq_poly, r_i: fmpz_poly, i: int) -> list[list[Fraction]]:
    """The monic gcd of d and n - t d' over Q[t]/(r_i): the i-th subresultant S_i(t, x) of d
    and n - t d' (formal degrees deg d and deg d - 1; lc(d) is a nonzero constant, so S_i
    specialises at every t), divided by its leading coefficient modulo r_i. At a root alpha
    of r_i the gcd has degree i, so S_i(alpha, x) is a nonzero multiple of it; checked here by
    dividing d and n - t d' by the result modulo r_i (with the degree sum, that makes it the
    gcd at every root)."""
    modulus = fmpq_poly(r_i)
    s_i = _subresultant(n, d, i)
    inverse = _inverse(s_i[0] % modulus, modulus)
    monic = [(c * inverse) % modulus for c in s_i]
    size = d.degree()
    a = [fmpq_poly(c) for c in reversed(_padded(d, size + 1))]
    b = [fmpq_poly([u, -v]) for u, v in zip(_padded(n, size), _padded(d.derivative(), size))]
    for dividend in (a, b[::-1]):
        if _remainder(dividend, monic, modulus):
            raise BackendFault("log_part_gcd_degree")
    return [_coefficients(c) for c in monic]


def _subresultant(n: fmpq_poly, d: fmpq_poly, i: int) -> list[fmpq_poly]:
    """Coefficients (x^i first) of the i-th subresultant in x of d and n - t d', as
    polynomials in t of degree <= deg d - i: each a determinant of Sylvester's rows, evaluated
    at deg d - i + 1 values of t (FLINT's exact fmpq_mat.det) and interpolated."""
    size = d.degree()
    a = list(reversed(_padded(d, size + 1)))
    width = 2 * size - 1 - i          # the rows' columns: x^(width - 1) .. x^0
    lead = width - i - 1              # the columns x^(width - 1) .. x^(i + 1)
    points = list(range(size - i + 1))
    values = []
    for tau in points:
        b = list(reversed(_padded(n - tau * d.derivative(), size)))
        rows = ([[0] * k + a + [0] * (width - size - 1 - k) for k in range(size - 1 - i)] +
                [[0] * k + b + [0] * (width - size - k) for k in range(size - i)])
        values.append([fmpq_mat([row[:lead] + [row[width - 1 - j]] for row in rows]).det()
                       for j in range(i, -1, -1)])
    return [_interpolate(points, [v[k] for v in values]) for k in range(i + 1)]


def _interpolate(points: list[int], values: list) -> fmpq_poly:
    """The polynomial of degree < len(points) through (points[k], values[k])."""
    out = fmpq_poly(0)
    for k, (p, v) in enumerate(zip(points, values)):
        basis = fmpq_poly(1)
        for q in points[:k] + points[k + 1:]:
            basis *= fmpq_poly([fmpq(-q, p - q), fmpq(1, p - q)])
        out += basis * v
    return out


def _remainder(a: list[fmpq_poly], b: list[fmpq_poly], modulus: fmpq_poly) -> list[fmpq_poly]:
    """a mod b in x over Q[t]/(modulus), b monic; coefficients highest degree first, [] for 0."""
    a = _strip([c % modulus for c in a])
    while len(a) >= len(b):
        factor = a[0]
        a = _strip([(u - factor * v) % modulus
                    for u, v in zip(a, b + [fmpq_poly(0)] * (len(a) - len(b)))])
    return a


def _padded(p: fmpq_poly, length: int) -> list:
    """Coefficients lowest degree first, zero-padded to length."""
    cs = list(p.coeffs())
    return cs + [0] * (length - len(cs))


def _inverse(a: fmpq_poly, p: fmpq_poly) -> fmpq_poly:
    g, s, _ = a.xgcd(p)
    if g != 1:
        raise BackendFault("log_part_not_invertible")
    return s % p


def _strip(a: list[fmpq_poly]) -> list[fmpq_poly]:
    k = 0
    while k < len(a) and a[k].is_zero():
        k += 1
    return a[k:]
