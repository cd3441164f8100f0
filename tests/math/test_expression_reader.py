"""The expression reader's two readers give one answer (stdlib/math/domains/expression.py).

`_read` (tokens and precedence, no `ast`) only vouches; `_parse_with_ast` (Python's parser and
the whitelist) is the authority. For any text, `parse` must return exactly what the ast reader
returns, or raise its exact message; and for texts written in the grammar, the fast reader must
actually be the one answering, or the speed it exists for is gone unnoticed."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from synsema.stdlib.math.domains import expression
from synsema.stdlib.math.domains.expression import CONSTANTS, FUNCTIONS, ExpressionError

VARIABLE_SETS = [("x",), (), ("t",), ("pi",), ("exp",), ("None",), ("x", "y")]


def verdict(reader, text: str, variables: tuple[str, ...]):
    try:
        return ("tree", reader(text, variables))
    except ExpressionError as error:
        return ("refused", str(error))


def assert_same(text: str, variables: tuple[str, ...]) -> None:
    assert verdict(expression.parse, text, variables) == \
        verdict(expression._parse_with_ast, text, variables), (text, variables)


# Pieces a text is cut from: the grammar's own, and everything near it Python reads otherwise.
PIECES = (["x", "y", "t", "x1", "_", "None", "lambda", "not", "if", "or", *CONSTANTS, *FUNCTIONS,
           "0", "00", "01", "7", "24", "25", "999999", "1000000", "1000001", "10" * 8, "1_0",
           "1.5", ".5", "1e3", "2j", "0x1f",
           "+", "-", "*", "/", "**", "^", "(", ")", ",", ".", " ", "  ",
           "%", "//", "@", "=", "<", "!", "\t", "\n", "\\", "'", "é", "ｘ", "[", "]", ":"])


@settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(PIECES), max_size=14), st.sampled_from(VARIABLE_SETS))
def test_any_text_gets_the_ast_readers_verdict(pieces, variables):
    assert_same("".join(pieces), variables)


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet="x+-*/^()1203 .", max_size=30), st.sampled_from(VARIABLE_SETS))
def test_operator_soup_gets_the_ast_readers_verdict(text, variables):
    assert_same(text, variables)


def grammar_texts():
    """Texts written in the grammar (some over its bounds), spaced and parenthesised freely."""
    space = st.sampled_from(["", " "])
    leaves = st.one_of(
        st.integers(0, 1_200_000).map(str), st.sampled_from(["x", *CONSTANTS]))
    exponents = st.one_of(
        st.integers(-30, 30).map(lambda n: f"({n})" if n < 0 else str(n)),
        st.tuples(st.integers(-30, 30), st.integers(-30, 30)).map(
            lambda p: f"({p[0]}/{p[1]})"),
        st.tuples(st.integers(0, 30), st.integers(1, 30)).map(lambda p: f"-({p[0]}/{p[1]})"))

    def extend(inner):
        return st.one_of(
            st.tuples(inner, space, st.sampled_from("+-*/"), space, inner).map("".join),
            st.tuples(st.sampled_from(["-", "+"]), inner).map("".join),
            inner.map(lambda e: f"({e})"),
            st.tuples(st.sampled_from(FUNCTIONS), inner).map(lambda p: f"{p[0]}({p[1]})"),
            st.tuples(inner.map(lambda e: f"({e})"), st.sampled_from(["^", "**", " ^ "]),
                      exponents).map("".join))
    return st.recursive(leaves, extend, max_leaves=30)


@settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(grammar_texts())
def test_grammar_texts_are_read_by_the_fast_reader(text):
    variables = ("x",)
    assert_same(text, variables)
    authority = verdict(expression._parse_with_ast, text, variables)
    if authority[0] == "tree":
        assert expression._read(text, variables) == authority[1], text
    else:
        assert expression._read(text, variables) is None, text


@pytest.mark.parametrize("text, tree", [
    ("-x**2", ("neg", ("pow", ("var", "x"), 2))),
    ("2**-1", ("pow", ("num", 2), -1)),
    ("x^(1/2)", ("pow", ("var", "x"), expression.Fraction(1, 2))),
    ("1 - x - x", ("sub", ("sub", ("num", 1), ("var", "x")), ("var", "x"))),
    ("x/2*x", ("mul", ("div", ("var", "x"), ("num", 2)), ("var", "x"))),
    ("+-x", ("neg", ("var", "x"))),
    ("exp (x)", ("call", "exp", ("var", "x"))),
])
def test_precedence_and_signs_are_pythons(text, tree):
    assert expression._read(text, ("x",)) == tree
    assert expression._parse_with_ast(text, ("x",)) == tree


def balanced(leaves: int) -> str:
    """A sum of `leaves` x's, parenthesised as a balanced tree: 2 * leaves - 1 nodes, shallow."""
    if leaves == 1:
        return "x"
    half = leaves // 2
    return f"({balanced(half)}+{balanced(leaves - half)})"


def test_the_node_and_depth_bounds_are_the_ast_readers():
    at_bound = "-" + balanced(40)   # 80 nodes, 7 deep: read, by the fast reader
    over = balanced(41)             # 81 nodes: refused by the ast reader
    assert expression._read(at_bound, ("x",)) == expression._parse_with_ast(at_bound, ("x",))
    assert expression._read(over, ("x",)) is None
    assert_same(over, ("x",))
    deepest = "-" * expression.MAX_DEPTH + "x"   # x at depth 24
    assert expression._read(deepest, ("x",)) == expression._parse_with_ast(deepest, ("x",))
    assert expression._read("-" + deepest, ("x",)) is None
    assert_same("-" + deepest, ("x",))


@pytest.mark.parametrize("text", [
    " x", "x**2**3", "(exp)(x)", "x(x)", "2(x)", "exp(x)(x)", "01", "1_0", "x\t+1", "ｘ",
    "x^(1/25)", "1000001", "-" * 30 + "x", "+".join(["x"] * 41), "None"])
def test_texts_near_the_grammar_are_left_to_the_ast_reader(text):
    assert expression._read(text, ("x", "None")) is None
    assert_same(text, ("x", "None"))


def test_a_decimal_beyond_a_float_is_refused_with_a_message():
    """Python reads 1e999 as infinity, which no fraction writes (it once escaped as Fraction's
    own ValueError)."""
    for text in ("1e999*x", "-1e999", "x^2 + 9e400"):
        with pytest.raises(ExpressionError, match="beyond a float"):
            expression.parse(text, ("x",))
