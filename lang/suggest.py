""""Did you mean …?": the nearest name by edit distance, when it is near enough to be a typo."""

from __future__ import annotations

from collections.abc import Iterable


def edit_distance(a: str, b: str) -> int:
    """Levenshtein distance: insertions, deletions and substitutions each cost 1."""
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


def nearest(name: str, candidates: Iterable[str]) -> str | None:
    """The candidate closest to `name` by edit distance; ties go to the earliest."""
    best = None
    best_distance = None
    for candidate in candidates:
        d = edit_distance(name, candidate)
        if best_distance is None or d < best_distance:
            best, best_distance = candidate, d
    return best


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    """The nearest candidate if it looks like a typo of `name` (at most a third of its letters
    wrong, at least one allowed; a transposition counts as two), else None.

    The answer is `nearest`'s guess when that passes the test. A guess farther than the limit
    and than a transposition (2) never passes, so only distances up to that bound are worked
    out, and none at all for a candidate whose length alone puts it farther.
    """
    limit = max(1, len(name) // 3)
    best, bound = None, max(limit, 2)
    for candidate in dict.fromkeys(candidates):
        if candidate != name:
            distance = _distance_within(name, candidate, bound)
            if distance is not None:  # strictly nearer than the best so far: ties go to the earliest
                best, bound = candidate, distance - 1
    if best is None:
        return None
    if bound + 1 <= limit or _transposed(name, best):
        return best
    return None


def _distance_within(a: str, b: str, bound: int) -> int | None:
    """`edit_distance(a, b)` when it is at most `bound`, else None (worked out only as far as
    needed: a row of the table whose smallest entry passes `bound` ends it)."""
    if abs(len(a) - len(b)) > bound:
        return None
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        if min(current) > bound:
            return None
        previous = current
    return previous[-1] if previous[-1] <= bound else None


def _transposed(a: str, b: str) -> bool:
    if len(a) != len(b):
        return False
    diff = [i for i in range(len(a)) if a[i] != b[i]]
    return len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]
