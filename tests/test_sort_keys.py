"""`sort` and `sort_by` hand keys that Python compares exactly as the language orders them (all
ints, all texts, lists with one kind per position) to Python's own comparison
(stdlib/collections.py `_native_keys`); every other key goes through the language's order one
comparison at a time. Both must give the same positions, and the same error where one applies."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from synsema.lang.errors import SynError
from synsema.stdlib.collections import _native_keys, _ordered_positions, _sorted_positions

SCALARS = st.one_of(st.integers(-3, 3), st.sampled_from(["", "a", "b", "ab", "é", "B"]), st.booleans(),
                    st.sampled_from([1.0, 2.5, math.nan, None]))
KEYS = st.one_of(
    st.lists(st.integers(-5, 5), max_size=12),
    st.lists(st.sampled_from(["", "a", "b", "ab", "é", "B", "a\x00"]), max_size=12),
    st.lists(st.lists(st.one_of(st.integers(-2, 2), st.sampled_from(["a", "b"])), max_size=3), max_size=12),
    st.lists(st.tuples(st.integers(-2, 2), st.sampled_from(["a", "b", "c"])).map(list), max_size=12),
    st.lists(st.one_of(SCALARS, st.lists(SCALARS, max_size=3)), max_size=8),
)


def _outcome(fn, keys, desc):
    try:
        return fn(keys, desc)
    except SynError as error:
        return ("error", error.message)


@settings(max_examples=500, deadline=None, derandomize=True)
@given(keys=KEYS, desc=st.booleans())
def test_keys_sort_as_the_language_orders_them(keys, desc):
    assert _outcome(_sorted_positions, keys, desc) == _outcome(_ordered_positions, keys, desc)


def test_which_keys_python_compares():
    assert _native_keys([[0, "a"], [-1, "b"], [0]]) == [(0, "a"), (-1, "b"), (0,)]
    assert _native_keys(["b", "a"]) == ["b", "a"]
    for keys in ([1, True], [[1, "a"], ["b", 2]], [1, 2.0], [[1.5]], [None, 1], [[True]], [], [{"a": 1}]):
        assert _native_keys(keys) is None, keys
