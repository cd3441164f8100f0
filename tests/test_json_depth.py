"""json_decode's nesting test (stdlib/formats.py `json_too_deep`) reads a text exactly as the
one-token-at-a-time scan it had before its quick path for texts without a backslash: a string
runs from a quote to the next unescaped quote (or to the end), brackets inside strings do not
count, and the deepest point decides. The old scan is kept here as the reference."""

from __future__ import annotations

import json
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from synsema.stdlib.formats import MAX_DEPTH, json_too_deep
from tests.conftest import run_synsema

_TOKENS = re.compile(r'"(?:[^"\\]++|\\.)*+(?:"|\Z)|[\[\]{}]', re.S)


def scanned_too_deep(text: str, limit: int) -> bool:
    """The scan json_too_deep made of every text before the quick path: token by token."""
    depth = 0
    for token in _TOKENS.finditer(text):
        bracket = token.group(0)
        if bracket in ("[", "{"):
            depth += 1
            if depth > limit:
                return True
        elif bracket in ("]", "}"):
            depth -= 1
    return False


# Texts of brackets, quotes, backslashes and characters whose UTF-8 is several bytes (a lone
# surrogate included), with a limit small enough that random texts pass it often.
TEXTS = st.text(alphabet=st.sampled_from('[]{}"\\a,é中\U0001f600\ud800'), max_size=60)


@settings(max_examples=400, deadline=None, derandomize=True)
@given(text=TEXTS, limit=st.integers(0, 4))
def test_depth_is_read_as_the_scan_reads_it(text, limit):
    assert json_too_deep(text, limit) == scanned_too_deep(text, limit)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(parts=st.lists(st.sampled_from(['[', ']', '{', '}', '"[["', '"]"', '"a"', ',', '"{"']), max_size=400))
def test_long_texts_without_escapes_at_the_real_limit(parts):
    text = "".join(parts)
    assert json_too_deep(text) == scanned_too_deep(text, MAX_DEPTH)


def test_json_decode_refuses_depth_past_brackets_in_strings(tmp_path):
    deep = "[" * 129 + "]" * 129
    hidden = '["' + "[" * 300 + '", ' + "[" * 127 + "]" * 127 + "]"
    program = tmp_path / "deep.syn"
    program.write_text(f"print(length(json_decode({json.dumps(hidden)})))\nprint(json_decode({json.dumps(deep)}))\n",
                       encoding="utf-8")
    result = run_synsema("run", str(program))
    assert result.stdout == "2\n"
    assert result.returncode == 1
    assert "json_decode: the JSON is nested deeper than 128 levels" in result.stderr
