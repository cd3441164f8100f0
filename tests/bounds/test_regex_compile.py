"""Compiling a regex is bounded like matching it (issue 25 item 5): a pattern whose counted
repeats would make the C compiler build millions of nodes is refused before compiling, and a
long pattern whose parsing runs past REGEX_SECONDS is interrupted."""

from __future__ import annotations

import pytest

from tests.bounds.conftest import DEADLINE, assert_language_error, assert_no_leak, run_bounded


def doubled(unit: str, times: int, extra: str = "") -> str:
    return f'let p be "{unit}"\neach i in range({times})\n    set p to p + p\n{extra}'


CASES = {
    "a 1.3 MB pattern (the issue's reproducer)": (
        doubled("(a|b)", 18) + 'print(matches("ab", p))', "compiles to about 786,432 parts"),
    "a counted repeat the compiler would expand": ('print(matches("a", "a{1000000,}"))',
                                                   "compiles to about 1,000,000 parts"),
    "nested counted repeats": ('print(matches("a", "(?:(?:a{100}){100}){100}"))', "the limit is 100,000"),
    "a count beyond any machine": ('print(matches("a", "a{4294967294}"))', "compiles to about 4,294,967,294"),
    "a long pattern that parses too slowly": (
        doubled("(a|b)", 15) + 'print(regex_find_all("ab", p))', "took more than 1 s to compile"),
}


@pytest.mark.parametrize("name", list(CASES))
def test_regex_compilation_is_bounded(program, name):
    source, fragment = CASES[name]
    result = run_bounded("run", program(source + "\n"), timeout=DEADLINE * 2)
    assert_language_error(result, fragment, "p.syn:")


def test_patterns_that_do_not_copy_still_compile(program):
    source = ('print(matches("aaaa", "a{0,1000000}"), matches("ab", "(?:a|b){2}"), '
              'regex_find_all("x1y22", "[0-9]{1,3}"))\n'
              'try\n    print(matches("a", "a{100001}"))\nrecover e\n    print("refused")\n')
    result = run_bounded("run", program(source))
    assert result.returncode == 0, result.stderr
    assert result.stdout == 'true true ["1", "22"]\nrefused\n'
    assert_no_leak(result)
