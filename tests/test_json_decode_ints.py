"""json_decode reads integers with the decoder's own int parsing while CPython's int↔text guard is
the language's MAX_INT_DIGITS (stdlib/formats.py `_decode`), and with its per-integer check
(`_parse_int`) otherwise or when the guard refuses one: the values and the refusal are the same
either way, at the limit and one digit past it, whatever the guard is set to."""

from __future__ import annotations

import sys

import pytest

from synsema.lang.errors import SynError
from synsema.runtime.limits import MAX_INT_DIGITS
from synsema.stdlib import formats
from tests.conftest import run_synsema

AT_LIMIT = "-" + "7" * MAX_INT_DIGITS
PAST_LIMIT = "7" * (MAX_INT_DIGITS + 1)
REFUSAL = f"json_decode: an integer has more than {MAX_INT_DIGITS:,} digits"


@pytest.mark.parametrize("guard", [MAX_INT_DIGITS, 0, 4300])
def test_integers_at_and_past_the_limit(guard):
    saved = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(guard)
    try:
        if guard in (0, MAX_INT_DIGITS):   # (4300: CPython's default refuses the long one before we do)
            assert formats._decode(f"[0, -0, {AT_LIMIT}]", False)[2] == int(AT_LIMIT)
        with pytest.raises(SynError) as refused:
            formats._decode(f'{{"a": [1, {PAST_LIMIT}]}}', False)
        assert refused.value.message == REFUSAL or guard == 4300
    finally:
        sys.set_int_max_str_digits(saved)


def test_the_cli_reads_and_refuses_as_before(tmp_path):
    program = tmp_path / "p.syn"
    program.write_text(
        'print(json_decode("[1, -0, 123456789012345678901234567890, 2.5, {\\"a\\": -7}]"))\n'
        'let digits be join(apply(range(' + str(MAX_INT_DIGITS + 1) + '), (i) => "7"), "")\n'
        "print(length(text(json_decode(slice(digits, 0, " + str(MAX_INT_DIGITS) + ")))))\n"
        "print(json_decode(digits, nothing))\nprint(json_decode(\"[1,\", nothing))\nprint(json_decode(digits))\n",
        encoding="utf-8")
    result = run_synsema("run", program)
    assert result.stdout == f'[1, 0, 123456789012345678901234567890, 2.5, {{a: -7}}]\n{MAX_INT_DIGITS}\nnothing\nnothing\n'
    assert result.returncode == 1 and "p.syn:6:7: " + REFUSAL in result.stderr, result.stderr
