"""Private adapter: zero-dimensional polynomial systems over Q by a Gröbner basis and the
rational univariate representation (RUR).

sympy computes the reduced Gröbner basis (grevlex). Everything after it is exact linear algebra
in the quotient algebra A = Q[x]/I, whose dimension D is the number of solutions counted with
multiplicity:
- the normal set (monomials that no leading monomial divides) is a basis of A; the
  multiplication matrices M_i (by x_i) come from normal forms of the border monomials;
- the trace form H(b, c) = Tr(M_b M_c) has rank N, the number of distinct complex solutions;
- t = sum c^i x_i separates the solutions when its characteristic polynomial chi_t has a
  square-free part of degree N; then chi_t = prod over solutions alpha of (T - t(alpha))^mu(alpha),
  so its factorisation over Q gives the conjugacy classes of solutions with their
  multiplicities;
- with f the square-free part and s_v(m) = Tr(M_(v t^m)) = sum mu(alpha) v(alpha) t(alpha)^m,
  g_v(T) = sum_j T^j sum_(k > j) f_k s_v(k - 1 - j) = sum mu(alpha) v(alpha) f(T)/(T - t(alpha)),
  so v(alpha) = g_v(t(alpha)) / g_1(t(alpha)), g_1(t(alpha)) = mu(alpha) f'(t(alpha)) != 0;
  both are reduced modulo each factor (the classical RUR form: no inversion modulo p, whose
  coefficients grow much faster).
Every family is substituted back into every equation (cleared of the denominator) modulo its
factor before it leaves (exact zero or a BackendFault).
"""

from __future__ import annotations

import math
from fractions import Fraction

from sympy import Poly, QQ, groebner, symbols
from sympy.polys.matrices import DomainMatrix
from sympy.polys.orderings import grevlex  # an order object: FLINT-backed polys reject names

from ..errors import BackendFault
from .sympy_poly import primitive_integer

Terms = dict[tuple[int, ...], Fraction]


def _fraction(value) -> Fraction:
    return Fraction(int(value.numerator), int(value.denominator))


def _terms(poly: Poly) -> Terms:
    return {monomial: _fraction(c) for monomial, c in poly.terms(order=grevlex)}


def solve(n: int, equations: list[Terms]):
    """("inconsistent" | "positive_dimensional", basis) or ("finite", basis, D, N, separating,
    [(p, e, [g_1 .. g_n], g_0)]) with p primitive in Z[T] (highest degree first), e its
    multiplicity, g_i in Q[T] (degree < deg p, highest first) such that the solutions are
    x_i = g_i(theta)/g_0(theta) over the roots theta of p (g_0(theta) != 0); `basis` is the
    reduced grevlex Gröbner basis as term maps."""
    gens = symbols(f"x0:{n}")
    polys = [Poly.from_dict({m: QQ(c.numerator, c.denominator) for m, c in eq.items()},
                            *gens, domain=QQ) for eq in equations]
    g = groebner(polys, *gens, order="grevlex", domain=QQ)
    basis = [_terms(p) for p in g.polys]
    if any(not any(p.monoms(order=grevlex)[0]) for p in g.polys):  # 1 is in the ideal
        return "inconsistent", basis
    if not g.is_zero_dimensional:
        return "positive_dimensional", basis
    leading = [p.monoms(order=grevlex)[0] for p in g.polys]
    normal = _normal_set(n, leading)
    index = {m: i for i, m in enumerate(normal)}
    dim = len(normal)

    def vector(poly_expr) -> list:
        poly = Poly(poly_expr, *gens, domain=QQ)
        column = [QQ(0)] * dim
        for m, c in poly.terms():
            column[index[m]] = QQ.convert(c)
        return column

    mult = []
    for i in range(n):
        columns = []
        for m in normal:
            shifted = tuple(e + (j == i) for j, e in enumerate(m))
            if shifted in index:
                columns.append([QQ(int(k == index[shifted])) for k in range(dim)])
            else:
                columns.append(vector(g.reduce(Poly.from_dict({shifted: QQ(1)}, *gens,
                                                              domain=QQ))[1]))
        mult.append(DomainMatrix([list(row) for row in zip(*columns)], (dim, dim), QQ))
    # M_b for every normal monomial b (b = x_i b' with b' earlier: the set is an order ideal)
    of_monomial = {normal[0]: DomainMatrix.eye(dim, QQ)}
    for m in normal[1:]:
        i = next(i for i, e in enumerate(m) if e and tuple(
            e - (j == i) for j, e in enumerate(m)) in of_monomial)
        of_monomial[m] = mult[i] * of_monomial[tuple(e - (j == i) for j, e in enumerate(m))]
    trace = [sum((row[k] for k, row in enumerate(of_monomial[m].to_list())), QQ(0))
             for m in normal]
    tau = DomainMatrix([trace], (1, dim), QQ)
    hermite = DomainMatrix([(tau * of_monomial[m]).to_list()[0] for m in normal], (dim, dim), QQ)
    distinct = hermite.rank()

    for c in range(0, dim * dim * n + 2):
        weights = [c ** i for i in range(n)] if c else [int(i == 0) for i in range(n)]
        m_t = DomainMatrix.zeros((dim, dim), QQ)
        for w, m in zip(weights, mult):
            if w:
                m_t = m_t + m * QQ(w)
        chi = Poly(m_t.charpoly(), symbols("T"), domain=QQ)
        square_free = chi.quo(chi.gcd(chi.diff()))
        if square_free.degree() == distinct:
            break
    else:
        raise BackendFault("no_separating_element")
    f = square_free.monic().all_coeffs()[::-1]  # f_0 .. f_d
    d = len(f) - 1
    one = [QQ(int(m == normal[0])) for m in normal]
    tvar = chi.gen

    def g_of(start: list) -> Poly:
        sums, w = [], DomainMatrix([[v] for v in start], (dim, 1), QQ)
        for _ in range(d):
            sums.append((tau * w).to_list()[0][0])
            w = m_t * w
        coefficients = [sum((f[k] * sums[k - 1 - j] for k in range(j + 1, d + 1)), QQ(0))
                        for j in range(d)]
        return Poly(coefficients[::-1], tvar, domain=QQ)

    g1 = g_of(one)
    coordinates = [g_of([row[0] for row in (mult[i] * DomainMatrix(
        [[v] for v in one], (dim, 1), QQ)).to_list()]) for i in range(n)]
    families = []
    _, factors = chi.factor_list()
    if sum(p.degree() * e for p, e in factors) != dim:
        raise BackendFault("multiplicities_do_not_add_up")
    for p, e in sorted(factors, key=lambda pair: (pair[0].degree(), str(pair[0].all_coeffs()))):
        denominator = g1.rem(p)
        numerators = [h.rem(p) for h in coordinates]
        # x = numerators / denominator at the roots of p: t must come back, and every
        # equation, multiplied by denominator^deg, must vanish modulo p
        if sum((h * QQ(w) for h, w in zip(numerators, weights)),
               Poly(0, tvar, domain=QQ)).sub(denominator.mul(Poly(tvar, tvar, domain=QQ))
                                             ).rem(p) != Poly(0, tvar, domain=QQ):
            raise BackendFault("separating_element_mismatch")
        for poly in polys:
            if not _substitute(poly, numerators, denominator, p):
                raise BackendFault("solution_does_not_satisfy_the_system")
        _, integer = primitive_integer([_fraction(v) for v in p.all_coeffs()])
        values = [_fraction(v) for v in denominator.all_coeffs()]
        families.append((integer, e, [[_fraction(v) for v in h.all_coeffs()] if not h.is_zero
                                      else [] for h in numerators], values))
    return "finite", basis, dim, distinct, weights, families


def _substitute(poly: Poly, numerators: list[Poly], denominator: Poly, p: Poly) -> bool:
    """Whether denominator^deg(poly) * poly(numerators / denominator) is 0 modulo p, decided
    exactly in integers: with a = lc(p), d = deg p, S = a T turns p into the monic
    P(S) = a^(d-1) p(S/a) in Z[S], and each g(T) of degree < d into a^(d-1) g(S/a) in Z[S]
    (the numerators and the denominator are scaled by one common integer, which changes
    no quotient), so every reduction modulo P is division by a monic polynomial: no
    fractions and no gcds (Python's rationals spend most of their time in gcd here)."""
    ps = [int(c) for c in primitive_integer([_fraction(v) for v in p.all_coeffs()])[1]]
    d, a = len(ps) - 1, ps[0]
    monic = [c * a ** max(0, i - 1) for i, c in enumerate(ps)]  # P, highest first: c_i a^(i-1)
    monic[0] = 1
    common = 1
    for g in numerators + [denominator]:
        for v in g.all_coeffs():
            common = common * _fraction(v).denominator // math.gcd(common, _fraction(v).denominator)

    def in_s(g: Poly) -> list[int]:  # a^(d-1) * common * g(S/a), lowest degree first
        low = [int(_fraction(v) * common) for v in reversed(g.all_coeffs())] if not g.is_zero \
            else []
        return [c * a ** (d - 1 - k) for k, c in enumerate(low)]

    def reduce(f: list[int]) -> list[int]:  # f mod P, lowest first, P monic
        f = list(f)
        for top in range(len(f) - 1, d - 1, -1):
            c = f[top]
            if c:
                for j in range(1, d + 1):
                    f[top - j] -= c * monic[j]
        return f[:d]

    def mul(f: list[int], g: list[int]) -> list[int]:
        if not f or not g:
            return []
        out = [0] * (len(f) + len(g) - 1)
        for i, x in enumerate(f):
            if x:
                for j, y in enumerate(g):
                    out[i + j] += x * y
        return reduce(out)

    bases = [in_s(g) for g in numerators] + [in_s(denominator)]
    degree = poly.total_degree()
    cache: dict[tuple[int, int], list[int]] = {}

    def power(i: int, e: int) -> list[int]:
        if (i, e) not in cache:
            cache[(i, e)] = [1] if e == 0 else mul(power(i, e - 1), bases[i])
        return cache[(i, e)]
    total = [0] * d
    scale = 1
    for _, c in poly.terms():
        scale = scale * int(c.q) // math.gcd(scale, int(c.q))
    for monomial, c in poly.terms():
        term = [int(c.p) * (scale // int(c.q))]
        for i, e in enumerate(monomial):
            if e:
                term = mul(term, power(i, e))
        term = mul(term, power(len(numerators), degree - sum(monomial)))
        total = [x + y for x, y in zip(total, term + [0] * (d - len(term)))]
    return not any(total)


def _normal_set(n: int, leading: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
    """The monomials no leading monomial divides, breadth first from 1 (an order ideal, so
    each one after 1 is x_i times an earlier one); finite because the ideal is zero-dimensional."""
    def divisible(m):
        return any(all(a >= b for a, b in zip(m, lm)) for lm in leading)
    start = tuple([0] * n)
    found, frontier = [start], [start]
    seen = {start}
    while frontier:
        following = []
        for m in frontier:
            for i in range(n):
                nxt = tuple(e + (j == i) for j, e in enumerate(m))
                if nxt not in seen and not divisible(nxt):
                    seen.add(nxt)
                    found.append(nxt)
                    following.append(nxt)
        frontier = following
    return found
