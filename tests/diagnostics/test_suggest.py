"""synsema.lang.suggest.did_you_mean works out edit distances only up to the bound a guess must pass;
its answer must be the one the definition gives: `nearest`'s guess (full distances, ties to the
earliest candidate) if it is within a third of the name's letters, or a transposition."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from synsema.lang.suggest import _transposed, did_you_mean, edit_distance, nearest

WORDS = st.text(alphabet="abcde_", max_size=9)


def by_definition(name: str, candidates: list[str]) -> str | None:
    guess = nearest(name, [c for c in dict.fromkeys(candidates) if c != name])
    if guess is None:
        return None
    if edit_distance(name, guess) <= max(1, len(name) // 3) or _transposed(name, guess):
        return guess
    return None


@settings(max_examples=600, deadline=None)
@given(WORDS, st.lists(WORDS, max_size=25), st.data())
def test_did_you_mean_is_the_nearest_guess_that_passes(name, candidates, data):
    if len(name) > 1 and data.draw(st.booleans()):  # a transposition among the candidates
        i = data.draw(st.integers(0, len(name) - 2))
        candidates.insert(data.draw(st.integers(0, len(candidates))), name[:i] + name[i + 1] + name[i] + name[i + 2:])
    if data.draw(st.booleans()):
        candidates.append(name)
    assert did_you_mean(name, candidates) == by_definition(name, candidates)


def test_examples():
    assert did_you_mean("lenght", ["print", "length", "len"]) == "length"
    assert did_you_mean("ab", ["ba", "xb"]) == "xb"          # distance 1 beats a transposition
    assert did_you_mean("abcd", ["xyzw", "bacd"]) == "bacd"   # a transposition passes at 2
    assert did_you_mean("abc", ["xyz", "abc"]) is None
