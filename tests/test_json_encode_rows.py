"""json_encode writes a list or map of plain items, and a list of distinct such maps (rows of
records), with CPython's JSON encoder in one call (stdlib/formats.py `_flat_json`); everything
else item by item as before. The two paths must give the same text and the same refusals: a
NaN or infinity, an int past the digit limit (in-process: a program cannot make one), nesting past 128 levels, a text past
MAX_TEXT_LENGTH; and a list holding one map many times must still be refused for its size
without being written out once per reference. The item-by-item path is the reference (the fast
path switched off), and the bounds cases run the real CLI under a memory limit and a deadline."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from synsema.lang.errors import SynError
from synsema.stdlib import formats
from tests.bounds.conftest import DEADLINE, assert_language_error, run_bounded

LEAVES = st.one_of(
    st.text(alphabet=st.sampled_from('a"\\\n\t\x01é中\U0001f600\ud800/'), max_size=8),
    st.integers(-(10 ** 30), 10 ** 30), st.booleans(), st.none(),
    st.floats(allow_nan=True, allow_infinity=True), st.sampled_from([Decimal("1.50"), b"\x00\xff"]))
KEYS = st.text(alphabet=st.sampled_from('ab"\\é'), max_size=3)
ROW = st.dictionaries(KEYS, LEAVES, max_size=4)
FLAT = st.one_of(st.lists(LEAVES, max_size=5), ROW)


def _values():
    """Flat lists and maps, rows (some of them one map shared), and both nested in each other."""
    rows = st.one_of(st.lists(ROW, max_size=4), ROW.flatmap(lambda row: st.integers(1, 3).map(lambda n: [row] * n)))
    return st.recursive(st.one_of(FLAT, rows), lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(KEYS, inner, max_size=3)), max_leaves=6)


def _encoded(value, fast: bool):
    """json_encode's text of `value` or its error message, with or without the one-call path."""
    saved = formats._flat_json
    if not fast:
        formats._flat_json = lambda value, t, depth: None
    try:
        return formats.json_encode(None, value)
    except SynError as error:
        return ("error", error.message)
    finally:
        formats._flat_json = saved


@settings(max_examples=300, deadline=None, derandomize=True)
@given(value=_values())
def test_one_call_writes_what_item_by_item_writes(value):
    assert _encoded(value, True) == _encoded(value, False)


@pytest.mark.parametrize("value", [
    [{"id": 1, "t": "x"}, {"id": 2, "t": float("nan")}],   # the encoder refuses: the item-by-item error
    [1, 10 ** 60000], {"a": 10 ** 60000}, [float("inf")], [{"a": -float("inf")}],
])
def test_refusals_are_the_item_by_item_ones(value):
    assert _encoded(value, True) == _encoded(value, False)
    assert _encoded(value, True)[0] == "error"


@pytest.mark.parametrize("value", [[{"a": 1}, {"a": Decimal("2")}], [{"a": 1}, [1]], [{"a": [1]}], [b"\x00"]])
def test_other_shapes_go_item_by_item(value):
    assert formats._flat_json(value, type(value), 0) is None
    assert _encoded(value, True) == _encoded(value, False)


def test_the_depth_limit_counts_the_rows():
    """A list of maps at the deepest level a list may have: its maps are one level too deep."""
    rows = [{"a": 1}]
    plain = [1]
    for _ in range(formats.MAX_DEPTH - 1):
        rows, plain = [rows], [plain]
    assert _encoded(rows, True) == ("error", f"json_encode: the value is nested deeper than {formats.MAX_DEPTH} levels")
    assert _encoded(plain, True) == _encoded(plain, False) == "[" * formats.MAX_DEPTH + "1" + "]" * formats.MAX_DEPTH


@pytest.mark.parametrize("nested", [False, True])
def test_a_text_past_the_limit_is_refused_where_item_by_item_refuses_it(nested):
    """Distinct rows whose text passes MAX_TEXT_LENGTH: refused by the rows' own join, with its
    count, not by the caller's (the count would then differ)."""
    text = "a" * 10_000
    rows = [{"t": text, "i": i} for i in range(formats.MAX_TEXT_LENGTH // 10_000 + 100)]
    value = {"rows": rows} if nested else rows
    refused = _encoded(value, True)
    assert refused == _encoded(value, False)
    assert refused[0] == "error" and "json_encode would make a text of 51,0" in refused[1], refused


def test_a_shared_row_is_written_once():
    """Rows that are one map many times over go item by item, which writes the map once (the
    fast path would write it once per reference)."""
    row = {"t": "a" * 10}
    rows = [row] * 4
    seen = {}
    assert formats._encode(rows, 0, seen) == "[" + ",".join(['{"t":"' + "a" * 10 + '"}'] * 4) + "]"
    assert id(row) in seen


# (program, what the refusal says): each must end with a language error within the deadline
REFUSED = {
    # 10^6 references to one map of a 10,000-character text: 10^10 characters if written per reference
    "one map referenced by every row": (
        'let s be join(apply(range(10000), (i) => "a"), "")\nlet row be {"t": s}\n'
        "let rows be apply(range(1000000), (i) => row)\nprint(length(json_encode(rows)))\n",
        "json_encode would make a text"),
    # 6,000 distinct rows of 10,000 characters: each fits, the whole is past MAX_TEXT_LENGTH
    "distinct rows past the text limit": (
        'let s be join(apply(range(10000), (i) => "a"), "")\n'
        "let rows be apply(range(6000), (i) => {\"t\": s, \"i\": i})\nprint(length(json_encode(rows)))\n",
        "json_encode would make a text"),
    "a NaN in a row": ('print(json_encode([{"a": 1}, {"a": nan}]))\n', "has no JSON form"),
}


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_rows_are_refused_as_before(program, name):
    source, fragment = REFUSED[name]
    result = run_bounded("run", program(source), timeout=DEADLINE * 3)
    assert_language_error(result, fragment)


@pytest.fixture
def program(tmp_path):
    def write(source: str):
        path = tmp_path / "p.syn"
        path.write_text(source, encoding="utf-8")
        return path
    return write
