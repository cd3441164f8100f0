"""The Pygments lexer: each kind of token gets its colour class, and no input makes it fail."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st
from pygments.token import (Comment, Error, Keyword, Name, Number, Operator, String, Token)

from synsema.lang.errors import SynError
from synsema.lang.highlight import SynsemaLexer
from synsema.lang.parser import parse

from .conftest import REPO


def tokens(source: str) -> list[tuple[object, str]]:
    return [(kind, text) for kind, text in SynsemaLexer().get_tokens(source) if text.strip()]


def kind_of(source: str, text: str):
    return next(kind for kind, value in tokens(source) if value == text)


@pytest.mark.parametrize("source, text, kind", [
    ("let x be 1", "let", Keyword), ("let x be 1", "be", Keyword),
    ("when x then 1 otherwise 2", "otherwise", Keyword),
    ("give nothing", "nothing", Keyword.Constant), ("true and false", "and", Operator.Word),
    ("x not in xs", "not in", Operator.Word),
    # soft keywords: keywords where their construct starts, names elsewhere
    ('test "adds"', "test", Keyword.Pseudo), ("test(1)", "test", Name),
    ('use "./m.syn" as m', "use", Keyword.Pseudo), ("let use be 1", "use", Name),
    ("export task f()", "export", Keyword.Pseudo), ("raise err", "raise", Keyword.Pseudo),
    ("raise(err)", "raise", Name), ("reason about x", "about", Keyword.Pseudo),
    ("decide between xs given ctx", "given", Keyword.Pseudo), ("f(for = 1)", "for", Name),
    # a keyword after `.` or as a field name is a name
    ("ev.type", "type", Name.Attribute), ("{to: 1}", "to", Name), ("    type: text", "type", Name),
    ("task area(w)", "area", Name.Function), ("type Point", "Point", Name.Class),
    ("enum Color", "Color", Name.Class),
    # numbers
    ("1.50d", "1.50d", Number), ("100d", "100d", Number), ("2e3d", "2e3d", Number),
    ("0xFF_FF", "0xFF_FF", Number.Hex), ("0b101", "0b101", Number.Bin), ("0o17", "0o17", Number.Oct),
    ("1_000.5", "1_000.5", Number.Float), ("1.5e-3", "1.5e-3", Number.Float), ("42", "42", Number.Integer),
    ("approve x within 90s", "90s", Number),
    # strings, templates and comments
    ('"a \\"q\\" \\u00e9"', '\\"', String.Escape), ("'it'", "it", String.Single),
    ("x -- note", "-- note", Comment.Single), ("`a {b} c`", "{", String.Interpol),
    ("`a {b} c`", "b", Name), ("`a \\{b} c`", "\\{", String.Escape),
    # operators
    ("xs |> f", "|>", Operator), ("(a) => a", "=>", Operator), ("7 // 2", "//", Operator),
    ("2 ** 8", "**", Operator), ("[a, ...rest]", "...", Operator),
    # a character the language rejects is flagged
    ("x # comment", "#", Error),
])
def test_token_kinds(source, text, kind):
    assert kind_of(source, text) is kind


def test_template_holes_are_code_and_nest():
    kinds = tokens('`total: {sum({"a": 1}["a"])} and {`inner {x}`}`')
    assert (Name, "sum") in kinds and (String.Double, "a") in kinds
    assert [text for kind, text in kinds if kind is String.Interpol] == ["{", "}", "{", "{", "}", "}"]
    assert kinds[-1] == (String.Backtick, "`")


def test_programs_that_parse_have_nothing_flagged():
    """Every valid program of the repository (examples and conformance files) colours cleanly."""
    valid = []
    for path in sorted((REPO / "examples").glob("*.syn")) + sorted((REPO / "tests").rglob("*.syn")):
        source = path.read_text(encoding="utf-8")
        try:
            parse(source, path.name)
        except SynError:
            continue
        valid.append(path.name)
        assert [text for kind, text in SynsemaLexer().get_tokens(source) if kind is Error] == [], path
    assert len(valid) > 20


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab1d_.`'\"{}()[]\\-#:\n \t=>|ts")) | st.characters(), max_size=80))
def test_any_text_lexes_and_keeps_every_character(source):
    """Colouring runs on every keystroke over half-typed text: it must never fail or lose text."""
    rebuilt = "".join(text for _, text in SynsemaLexer(stripnl=False, ensurenl=False).get_tokens(source))
    assert rebuilt == source.replace("\r\n", "\n").replace("\r", "\n")
    assert all(kind in Token for kind, _ in SynsemaLexer().get_tokens(source))
