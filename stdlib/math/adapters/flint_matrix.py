"""Private adapter: FLINT's exact inverse of a nonsingular integer matrix (python-flint).

FLINT's fmpz_mat determinant and inverse (multimodular and p-adic methods) take a fraction of
the time of sympy's fraction-free elimination at the size rule's largest matrices (20x20 of
149-digit integers: 0.4 s against 1.3 s here). The caller checks M adj = den I exactly.
"""

from __future__ import annotations

from flint import fmpz_mat

from ..errors import BackendFault


def adjugate(n: int, rows: list[list[int]]) -> tuple[list[list[int]], int]:
    """(adj, den) with M^-1 = adj / den for a nonsingular square integer matrix M, den = det M
    (adj is then the classical adjugate)."""
    matrix = fmpz_mat(rows)
    den = int(matrix.det())
    if den == 0:
        raise BackendFault("adjugate_of_singular_matrix")
    inverse = matrix.inv().entries()
    adj = [int(entry * den) for entry in inverse]
    return [adj[i * n:(i + 1) * n] for i in range(n)], den
