"""The kernel of `linalg.lattice.reduce` (declared in domains/lll.py, which explains the method):
integral LLL (Cohen 2.6.7, de Weger) in exact integers, and the result checked exactly -- the
same lattice (an integer transform of determinant +-1), size reduction and Lovasz's condition."""

from __future__ import annotations

from ..errors import BackendFault


def _rank(rows: list[list[int]]) -> int:
    """Rank by fraction-free (Bareiss) elimination over Z."""
    a = [list(r) for r in rows]
    rank, previous = 0, 1
    for col in range(len(a[0]) if a else 0):
        pivot = next((i for i in range(rank, len(a)) if a[i][col]), None)
        if pivot is None:
            continue
        a[rank], a[pivot] = a[pivot], a[rank]
        p = a[rank][col]
        for i in range(rank + 1, len(a)):
            a[i] = [(p * x - a[i][col] * y) // previous for x, y in zip(a[i], a[rank])]
        previous, rank = p, rank + 1
    return rank


def independent_rows(self):
    """A lattice basis: at least one row, the rows linearly independent."""
    rows = self.basis.rows
    if not rows or _rank(rows) < len(rows):
        return ("basis_dependent", "the rows must be nonempty and linearly independent "
                "(a lattice basis)", ("basis", "rows"))
    return None


def _dot(u, v) -> int:
    return sum(x * y for x, y in zip(u, v))


def integral_lll(basis: list[list[int]]) -> tuple[list[list[int]], list[list[int]], int]:
    """(reduced basis, transform, swaps) for independent integer rows, delta = 3/4."""
    b = [list(r) for r in basis]
    n = len(b)
    h = [[int(i == j) for j in range(n)] for i in range(n)]
    d = [1] + [0] * n           # d[i+1] = Gram determinant of b_0..b_i; d[0] = 1
    lam = [[0] * n for _ in range(n)]
    swaps = 0

    def reduce(k: int, l: int) -> None:
        if 2 * abs(lam[k][l]) > d[l + 1]:
            q = (2 * lam[k][l] + d[l + 1]) // (2 * d[l + 1])  # nearest integer
            b[k] = [x - q * y for x, y in zip(b[k], b[l])]
            h[k] = [x - q * y for x, y in zip(h[k], h[l])]
            lam[k][l] -= q * d[l + 1]
            for i in range(l):
                lam[k][i] -= q * lam[l][i]

    def swap(k: int, kmax: int) -> None:
        b[k], b[k - 1] = b[k - 1], b[k]
        h[k], h[k - 1] = h[k - 1], h[k]
        for j in range(k - 1):
            lam[k][j], lam[k - 1][j] = lam[k - 1][j], lam[k][j]
        mu = lam[k][k - 1]
        new = (d[k - 1] * d[k + 1] + mu * mu) // d[k]
        for i in range(k + 1, kmax + 1):
            t = lam[i][k]
            lam[i][k] = (d[k + 1] * lam[i][k - 1] - mu * t) // d[k]
            lam[i][k - 1] = (new * t + mu * lam[i][k]) // d[k + 1]
        d[k] = new

    d[1] = _dot(b[0], b[0])
    k, kmax = 1, 0
    while k < n:
        if k > kmax:
            kmax = k
            for j in range(k + 1):
                u = _dot(b[k], b[j])
                for i in range(j):
                    u = (d[i + 1] * u - lam[k][i] * lam[j][i]) // d[i]
                if j < k:
                    lam[k][j] = u
                else:
                    d[k + 1] = u
            if d[k + 1] == 0:
                raise BackendFault("lll_dependent_rows")
        reduce(k, k - 1)
        if 4 * d[k + 1] * d[k - 1] < 3 * d[k] * d[k] - 4 * lam[k][k - 1] ** 2:
            swap(k, kmax)
            swaps += 1
            k = max(1, k - 1)
        else:
            for l in range(k - 2, -1, -1):
                reduce(k, l)
            k += 1
    return b, h, swaps


def _determinant(rows: list[list[int]]) -> int:
    a = [list(r) for r in rows]
    n, sign, previous = len(a), 1, 1
    for col in range(n):
        pivot = next((i for i in range(col, n) if a[i][col]), None)
        if pivot is None:
            return 0
        if pivot != col:
            a[col], a[pivot] = a[pivot], a[col]
            sign = -sign
        for i in range(col + 1, n):
            a[i] = [(a[col][col] * x - a[i][col] * y) // previous
                    for x, y in zip(a[i], a[col])]
        previous = a[col][col]
    return sign * a[n - 1][n - 1] if n else 1


def _is_lll_reduced(rows: list[list[int]]) -> bool:
    """Size reduction and Lovasz's condition (delta = 3/4), with exact Gram-Schmidt."""
    from fractions import Fraction  # here: the interpreter imports this module for its finder
    ortho: list[list[Fraction]] = []
    norms: list[Fraction] = []
    for i, row in enumerate(rows):
        v = [Fraction(x) for x in row]
        for j, (u, norm) in enumerate(zip(ortho, norms)):
            mu = sum(x * y for x, y in zip(row, u)) / norm
            if abs(mu) > Fraction(1, 2):
                return False
            v = [x - mu * y for x, y in zip(v, u)]
            if j == i - 1 and sum(x * x for x in v) < (Fraction(3, 4) - mu * mu) * norm:
                return False
        ortho.append(v)
        norms.append(sum(x * x for x in v))
    return True


def reduce_lattice(request) -> dict:
    rows = request.basis.rows
    n, m = len(rows), request.basis.ncols
    reduced, transform, swaps = integral_lll(rows)
    product = [[sum(t * rows[k][j] for k, t in enumerate(trow)) for j in range(m)]
               for trow in transform]
    if product != reduced or abs(_determinant(transform)) != 1 or not _is_lll_reduced(reduced):
        raise BackendFault("lll_result_check_failed")
    return {"basis": {"nrows": n, "ncols": m, "rows": reduced},
            "transform": {"nrows": n, "ncols": n, "rows": transform}, "swaps": swaps}
