"""`obj[index]` in generated code (runtime/codegen.py `Generator.e_Index`): a list at an int
position and a map at a text key are read by Python, and whatever Python refuses (a position out
of range, a missing key) or the inline tests do not admit (a bool or float position, a key that
is not text, a text, `nothing`) goes to the general operator, which gives the value or the
language's error. Each program runs generated and on the closures, with and without --labels
(tests/test_codegen_differential.py's harness), and the answers are asserted too.
"""

from __future__ import annotations

import pytest

from tests.test_codegen_differential import assert_same

CASES = ("[xs, 0], [xs, -1], [xs, -3], [xs, 3], [xs, -4], [xs, true], [xs, false], [xs, 1.0], [xs, 2.5], "
         "[xs, 100000000000000000000], [xs, -100000000000000000000], [xs, \"a\"], [m, \"a\"], [m, \"zz\"], "
         "[m, 1], [m, [1]], [m, nothing], [m, true], [\"abc\", 1], [\"abc\", 9], [nothing, 0], [5, \"a\"]")

READS = (
    "task at(xs, i)\n    give xs[i]\ntask at_literal(xs)\n    give [xs[0], xs[-1]]\n"
    "let xs be [10, 20, 30]\nlet m be {\"a\": 1, \"1\": \"one\", \"b\": 2, \"true\": \"t\"}\n"
    f"each args in [{CASES}]\n    try\n        print(at(args[0], args[1]))\n    recover e\n        print(e)\n"
    "each v in [xs, [], m, \"xyz\", nothing, [1]]\n    try\n        print(at_literal(v))\n    recover e\n"
    "        print(e)\n")

EXPECTED = ("10\n30\n10\nIndex 3 out of range (list length 3)\nIndex -4 out of range (list length 3)\n"
            "index must be an integer, got true\nindex must be an integer, got false\n20\n"
            "index must be an integer, got 2.5\n"
            "Index 100000000000000000000 out of range (list length 3)\n"
            "Index -100000000000000000000 out of range (list length 3)\nindex must be an integer, got a\n"
            "1\nMap has no key 'zz'\none\nMap has no key '[1]'\nMap has no key 'nothing'\nt\nb\n"
            "Index 9 out of range (text length 3)\nCannot index into nothing\nCannot index into number\n"
            "[10, 30]\nIndex 0 out of range (list length 0)\nMap has no key '0'\n[\"x\", \"z\"]\n"
            "Cannot index into nothing\n[1, 1]\n")


@pytest.mark.parametrize("labels", [False, True])
def test_index_reads_match_the_closures(tmp_path, labels):
    code, out, err, _ = assert_same(tmp_path, READS, labels)
    assert (code, out) == (0, EXPECTED), err


@pytest.mark.parametrize("labels", [False, True])
@pytest.mark.parametrize("read, where, message", [
    ("xs[7]", "2:10", "Index 7 out of range (list length 2)"),
    ("xs[-3]", "2:10", "Index -3 out of range (list length 2)"),
    ("m[\"ab\"]", "2:10", "Map has no key 'ab'"),
    ("m[[\"a\"]]", "2:10", "Map has no key '[\"a\"]'"),
])
def test_an_uncaught_index_error_is_located(tmp_path, labels, read, where, message):
    source = f"task f(xs, m)\n    give {read}\nprint(f([1, 2], {{\"a\": 1, \"b\": 2}}))\n"
    code, out, err, _ = assert_same(tmp_path, source, labels)
    assert code == 1 and out == "" and message in err and f"prog.syn:{where}" in err, err
