"""Whatever the input, the front end answers with an AST or a SynError — nothing else.

Random text (plain and built from Synsema's own vocabulary, so it gets deep into the grammar)
must never raise another exception, and pathological nesting must end in a SynError, never a
RecursionError or a crash. The parse-speed measurement is printed here, not asserted.
"""

import sys
import time

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from synsema.lang import ast
from synsema.lang.errors import SynError
from synsema.lang.lexer import HARD_KEYWORDS, PUNCTUATION
from synsema.lang.parser import parse, parse_expression

VOCABULARY = (list(HARD_KEYWORDS) + list(PUNCTUATION) + [
    "x", "xs", "f", "_", "test", "use", "export", "enum", "raise", "about", "between", "under",
    "given", "for", "within", "return", "if", "serve", "1", "2.5", "1_0", "0x1f", "3d", "90s",
    '"s"', "'t'", "`a{x}b`", "`{", "}", "--", "#", "\n", "\n    ", "\n        ", "\t", " ",
    "...", "not in", "\\", '"', "`", "{a", "=>", "|>"])

FUZZ = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def outcome(fn, src):
    try:
        result = fn(src, "fuzz.syn")
    except SynError as err:
        assert err.phase in ("Lexer", "Parse") and err.span is not None
        assert err.span.line >= 1 and err.span.col >= 1
        return err
    assert isinstance(result, ast.Node)
    return result


@FUZZ
@given(st.text(max_size=200))
def test_random_text(src):
    outcome(parse, src)
    outcome(parse_expression, src)


@FUZZ
@given(st.lists(st.sampled_from(VOCABULARY), max_size=60).map(" ".join))
def test_random_token_soup(src):
    outcome(parse, src)
    outcome(parse_expression, src)


@FUZZ
@given(st.lists(st.sampled_from(VOCABULARY), max_size=60).map("".join))
def test_random_glued_tokens(src):
    outcome(parse, src)


VALID_LINES = ["let x be 1", "set x to x + 1", "when x > 1", "otherwise", "each i in xs",
               "task f(a, b = 2)", "give a", "match x", "is [h, ...t]", "is {a, b: 1}",
               "try", "recover err", "print(`v={x}`)", "type P", "enum E", "    a: number",
               "while true", "stop", "log x", "sandbox", "test \"t\""]


@FUZZ
@given(st.lists(st.tuples(st.integers(0, 3), st.sampled_from(VALID_LINES)), max_size=25))
def test_random_programs_from_valid_lines(lines):
    outcome(parse, "".join("    " * depth + line + "\n" for depth, line in lines))


def test_pathological_nesting_is_a_synerror():
    for src in ["(" * 10000, "[" * 10000 + "]" * 10000, "{a: " * 10000, "`{" * 10000,
                "- " * 10000 + "1", "not " * 10000 + "x", "1" + " ** 1" * 10000,
                " of ".join(["a"] * 10000), "x" + ".a" * 10000, "x" + "[0]" * 10000,
                "f" + "(1)" * 10000, "when c then " * 10000 + "1",
                "(x) => " * 10000 + "1", "".join("    " * k + "when x\n" for k in range(3000))]:
        err = outcome(parse, src)
        assert isinstance(err, SynError), src[:30]


def test_parse_speed_on_a_generated_program():
    chunk = """task f{i}(a, b = 2, c: number)
    let total be a + b * c - 1
    when total > 10 and not (a == b)
        give `big {total}`
    otherwise when total in [1, 2, 3]
        set total to total // 2
    each x in range(10)
        set total to total + x ** 2
    give {"total": total, name: "f{i}"}
-- a comment line
let r{i} be f{i}(1, c = 3) |> text
print(r{i})
"""
    source = "".join(chunk.replace("{i}", str(i)) for i in range(834))
    lines = source.count("\n")
    parse("let warm be 1", "warm.syn")
    start = time.perf_counter()
    module = parse(source, "big.syn")
    elapsed = time.perf_counter() - start
    assert len(module.body) == 834 * 3
    print(f"\nparse speed: {lines} lines in {elapsed:.3f}s = {lines / elapsed:,.0f} lines/s",
          file=sys.stderr)
