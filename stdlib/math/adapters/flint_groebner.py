"""Private adapter: zero-dimensional polynomial systems over Q by a Gröbner basis and the
rational univariate representation (RUR), on FLINT (python-flint).

FLINT computes a Gröbner basis (fmpz_mpoly_vec.buchberger_naive, grevlex, on the equations
cleared of denominators) and inter-reduces it (autoreduction); made monic, that is the reduced
Gröbner basis, which is unique, so it is the one any correct implementation publishes. Every
later step computes a value that is unique too, exactly, in the quotient algebra A = Q[x]/I,
whose dimension D is the number of solutions counted with multiplicity:
- the normal set (monomials that no leading monomial divides) is a basis of A; the
  multiplication matrices M_i (by x_i) come from normal forms of the border monomials: a
  leading monomial's is minus its basis element's tail (the basis is reduced, so the tail is
  normal), any other monomial q * lm reduces to -q * tail, whose terms are smaller;
- the trace form H(b, c) = Tr(M_b M_c) has rank N, the number of distinct complex solutions;
- t = sum c^i x_i separates the solutions when its characteristic polynomial chi_t has a
  square-free part of degree N (c = 0, 1, 2, ... in turn; c = 0 means t = x_1); then
  chi_t = prod over solutions alpha of (T - t(alpha))^mu(alpha), so its factorisation over Q
  gives the conjugacy classes of solutions with their multiplicities;
- with f the monic square-free part and s_v(m) = Tr(M_(v t^m)) = sum mu(alpha) v(alpha)
  t(alpha)^m, g_v(T) = sum_j T^j sum_(k > j) f_k s_v(k - 1 - j)
  = sum mu(alpha) v(alpha) f(T)/(T - t(alpha)), so v(alpha) = g_v(t(alpha)) / g_1(t(alpha)),
  g_1(t(alpha)) = mu(alpha) f'(t(alpha)) != 0; both are reduced modulo each factor (the
  classical RUR form: no inversion modulo p, whose coefficients grow much faster).
The families are ordered by the degree of p, then by the text of p's integer coefficient list
(highest first), as the operation has always published them. Every family is substituted back
into every equation (cleared of the denominator) modulo its factor before it leaves (exact zero
or a BackendFault).
"""

from __future__ import annotations

import math
from fractions import Fraction

from flint import fmpq, fmpq_mat, fmpq_poly, fmpz_mpoly_ctx, fmpz_mpoly_vec, fmpz_poly

from ..errors import BackendFault

Terms = dict[tuple[int, ...], Fraction]
Monomial = tuple[int, ...]


def grevlex(monomial: Monomial) -> tuple:
    """The graded reverse lexicographic key (x_1 > x_2 > ...): larger key, larger monomial."""
    return sum(monomial), tuple(-e for e in reversed(monomial))


def _fraction(value: fmpq) -> Fraction:
    return Fraction(int(value.p), int(value.q))


def reduced_basis(n: int, equations: list[Terms]) -> list[dict[Monomial, fmpq]]:
    """The reduced grevlex Gröbner basis of the ideal: monic, each element's terms in
    decreasing grevlex order, the elements by decreasing leading monomial."""
    context = fmpz_mpoly_ctx.get(tuple(f"x{i}" for i in range(n)), "degrevlex")
    polys = []
    for equation in equations:
        scale = math.lcm(*(c.denominator for c in equation.values()))
        polys.append(context.from_dict({m: int(c * scale) for m, c in equation.items()}))
    reduced = fmpz_mpoly_vec(polys, context).buchberger_naive().autoreduction()
    basis = []
    for element in reduced:
        terms = sorted(element.to_dict().items(), key=lambda mc: grevlex(mc[0]), reverse=True)
        lead = fmpq(int(terms[0][1]))
        basis.append({tuple(int(e) for e in m): fmpq(int(c)) / lead for m, c in terms})
    basis.sort(key=lambda element: grevlex(next(iter(element))), reverse=True)
    return basis


def solve(n: int, equations: list[Terms]):
    """("inconsistent" | "positive_dimensional", basis) or ("finite", basis, D, N, separating,
    [(p, e, [g_1 .. g_n], g_0)]) with p primitive in Z[T] (highest degree first), e its
    multiplicity, g_i in Q[T] (degree < deg p, highest first) such that the solutions are
    x_i = g_i(theta)/g_0(theta) over the roots theta of p (g_0(theta) != 0); `basis` is the
    reduced grevlex Gröbner basis as term maps."""
    reduced = reduced_basis(n, equations)
    basis = [{m: _fraction(c) for m, c in element.items()} for element in reduced]
    leading = [next(iter(element)) for element in reduced]
    if any(not any(m) for m in leading):  # 1 is in the ideal
        return "inconsistent", basis
    pure = {i for m in leading for i, e in enumerate(m) if e and sum(m) == e}
    if len(pure) < n:
        return "positive_dimensional", basis
    mult, tau, distinct = _quotient_algebra(n, reduced, leading)
    dim = mult[0].nrows()
    weights, m_t, chi, f = _separating_form(mult, distinct)
    g1, coordinates = univariate_numerators(mult, tau, m_t, f)
    _, factors = fmpz_poly([int(c * chi.denom()) for c in chi.coeffs()]).factor()
    if sum(p.degree() * e for p, e in factors) != dim:
        raise BackendFault("multiplicities_do_not_add_up")
    families = []
    tvar = fmpq_poly([0, 1])
    for p_int, e in sorted(factors, key=lambda pair: (
            pair[0].degree(), str([int(c) for c in reversed(pair[0].coeffs())]))):
        p = fmpq_poly(p_int)
        denominator = g1 % p
        if denominator == 0:
            raise BackendFault("denominator_vanishes")
        numerators = [h % p for h in coordinates]
        # x = numerators / denominator at the roots of p: t must come back, and every
        # equation, multiplied by denominator^deg, must vanish modulo p
        if (sum((h * w for h, w in zip(numerators, weights)), fmpq_poly(0))
                - denominator * tvar) % p != 0:
            raise BackendFault("separating_element_mismatch")
        for equation in equations:
            if not _vanishes(equation, numerators, denominator, p):
                raise BackendFault("solution_does_not_satisfy_the_system")
        integer = [int(c) for c in reversed(p_int.coeffs())]
        if integer[0] < 0:
            raise BackendFault("factor_sign")
        families.append((integer, int(e), [_high_first(h) for h in numerators],
                         _high_first(denominator)))
    return "finite", basis, dim, distinct, weights, families


def _quotient_algebra(n: int, reduced: list[dict[Monomial, fmpq]], leading: list[Monomial]
                      ) -> tuple[list[fmpq_mat], fmpq_mat, int]:
    """The multiplication matrices M_i on the normal set (M_i[k, j] = the coefficient of
    normal[k] in the normal form of x_i normal[j]), the traces Tr(M_b) of the normal monomials
    b as a row, and N = the rank of the trace form."""
    normal = _normal_set(n, leading)
    index = {m: i for i, m in enumerate(normal)}
    dim = len(normal)
    normal_form = _NormalForms(reduced, index)
    mult = []
    for i in range(n):
        entries = [[fmpq(0)] * dim for _ in range(dim)]
        for j, m in enumerate(normal):
            for b, c in normal_form(tuple(e + (k == i) for k, e in enumerate(m))).items():
                entries[index[b]][j] = c
        mult.append(fmpq_mat(dim, dim, [c for row in entries for c in row]))
    # M_b for every normal monomial b (b = x_i b' with b' earlier: the set is an order ideal)
    of_monomial = {normal[0]: fmpq_mat(dim, dim, [int(r == c) for r in range(dim)
                                                  for c in range(dim)])}
    for m in normal[1:]:
        i = next(i for i, e in enumerate(m) if e and tuple(
            e - (j == i) for j, e in enumerate(m)) in of_monomial)
        of_monomial[m] = mult[i] * of_monomial[tuple(e - (j == i) for j, e in enumerate(m))]
    trace = [sum((of_monomial[m][k, k] for k in range(dim)), fmpq(0)) for m in normal]
    tau = fmpq_mat(1, dim, trace)
    hermite = fmpq_mat(dim, dim, [c for m in normal for c in (tau * of_monomial[m]).entries()])
    return mult, tau, int(hermite.rank())


def _separating_form(mult: list[fmpq_mat], distinct: int):
    """The first weights (1, 0, ..), then (1, c, c^2, ..) for c = 1, 2, .. whose t = sum w_i x_i
    has a characteristic polynomial with a square-free part of degree N: the weights, M_t,
    chi_t and the monic square-free part's coefficients f_0 .. f_N."""
    n, dim = len(mult), mult[0].nrows()
    for c in range(0, dim * dim * n + 2):
        weights = [c ** i for i in range(n)] if c else [int(i == 0) for i in range(n)]
        m_t = fmpq_mat(dim, dim)
        for w, m in zip(weights, mult):
            if w:
                m_t = m_t + m * w
        chi = m_t.charpoly()
        square_free = chi // chi.gcd(chi.derivative())
        if square_free.degree() == distinct:
            return weights, m_t, chi, (square_free / square_free[distinct]).coeffs()
    raise BackendFault("no_separating_element")


def univariate_numerators(mult: list[fmpq_mat], tau: fmpq_mat, m_t: fmpq_mat,
                          f: list[fmpq]) -> tuple[fmpq_poly, list[fmpq_poly]]:
    """g_1 and g_(x_1) .. g_(x_n) of the module docstring, from the sums s_v(m) = Tr(M_v M_t^m)."""
    d = len(f) - 1

    def g_of(start: fmpq_mat) -> fmpq_poly:
        sums, w = [], start
        for _ in range(d):
            sums.append((tau * w)[0, 0])
            w = m_t * w
        return fmpq_poly([sum((f[k] * sums[k - 1 - j] for k in range(j + 1, d + 1)), fmpq(0))
                          for j in range(d)])

    dim = m_t.nrows()
    one = fmpq_mat(dim, 1, [int(k == 0) for k in range(dim)])
    return g_of(one), [g_of(m * one) for m in mult]


def _high_first(poly: fmpq_poly) -> list[Fraction]:
    """The coefficients, highest degree first; [] for 0."""
    return [_fraction(c) for c in reversed(poly.coeffs())]


def _vanishes(equation: Terms, numerators: list[fmpq_poly], denominator: fmpq_poly,
              p: fmpq_poly) -> bool:
    """Whether denominator^deg * equation(numerators / denominator) is 0 modulo p, exactly."""
    degree = max(sum(m) for m in equation)
    bases = numerators + [denominator]
    powers: dict[tuple[int, int], fmpq_poly] = {}

    def power(i: int, e: int) -> fmpq_poly:
        if (i, e) not in powers:
            powers[(i, e)] = fmpq_poly(1) if e == 0 else power(i, e - 1) * bases[i] % p
        return powers[(i, e)]
    total = fmpq_poly(0)
    for monomial, c in equation.items():
        term = fmpq_poly(fmpq(c.numerator, c.denominator))
        for i, e in enumerate(monomial):
            if e:
                term = term * power(i, e) % p
        total += term * power(len(numerators), degree - sum(monomial)) % p
    return total % p == 0


class _NormalForms:
    """Normal forms modulo the reduced basis as {normal monomial: coefficient}, memoised."""

    def __init__(self, reduced: list[dict[Monomial, fmpq]], index: dict[Monomial, int]) -> None:
        self.index = index
        self.tails = [(next(iter(element)), [(m, c) for m, c in element.items()][1:])
                      for element in reduced]
        self.known: dict[Monomial, dict[Monomial, fmpq]] = {}

    def __call__(self, monomial: Monomial) -> dict[Monomial, fmpq]:
        if monomial in self.index:
            return {monomial: fmpq(1)}
        if monomial not in self.known:
            # monomial = q * lm: it is -q * tail modulo the basis, every term below monomial
            lm, tail = next((lm, tail) for lm, tail in self.tails
                            if all(a >= b for a, b in zip(monomial, lm)))
            q = tuple(a - b for a, b in zip(monomial, lm))
            out: dict[Monomial, fmpq] = {}
            for m, c in tail:
                for b, v in self(tuple(x + y for x, y in zip(q, m))).items():
                    out[b] = out.get(b, fmpq(0)) - c * v
            self.known[monomial] = {b: v for b, v in out.items() if v != 0}
        return self.known[monomial]


def _normal_set(n: int, leading: list[Monomial]) -> list[Monomial]:
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
