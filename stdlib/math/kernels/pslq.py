"""The kernel of `nt.real.relations` (declared in domains/pslq.py, which states its claims):
PSLQ (mpmath, adapters/mpmath_pslq.py) at P digits on constants read by domains/expression.py,
a relation re-checked at 2P digits."""

from __future__ import annotations

from ..domains import expression

STEPS = 3000


def constants_problem(self):
    """Each value is a constant expression of the grammar."""
    for i, text in enumerate(self.values):
        try:
            expression.parse(text)
        except expression.ExpressionError as error:
            return ("constant_grammar", str(error), ("values", i))
    return None


def find_relation(request) -> dict:
    from ..adapters import mpmath_pslq as backend
    p, bound = request.digits, request.norm_bound
    trees = [expression.parse(text) for text in request.values]
    values = []
    for i, tree in enumerate(trees):
        try:
            values.append(backend.evaluate(tree, p))
        except backend.Undefined as error:
            return {"status": "undefined", "index": i, "message": str(error)}
    small = next((i for i, v in enumerate(values) if abs(v) < 10.0 ** -(p * 9 // 10)), None)
    if small is not None:
        return {"status": "incomplete", "reason": "value_too_small", "norm_bound": None,
                "relation": [int(i == small) for i in range(len(values))]}
    relation, norm = backend.pslq(values, p, bound, STEPS)
    if relation is None:
        if norm is not None and norm > bound:
            return {"status": "none_below", "norm_bound": norm}
        return {"status": "incomplete", "reason": "step_budget", "norm_bound": norm,
                "relation": None}
    precise = [backend.evaluate(tree, 2 * p) for tree in trees]
    text, zeros = backend.residual(relation, precise, 2 * p)
    if zeros < 3 * p // 2:
        return {"status": "incomplete", "reason": "failed_at_double_precision",
                "norm_bound": None, "relation": relation}
    return {"status": "candidate", "relation": relation, "residual": text,
            "vanishing_digits": zeros}
