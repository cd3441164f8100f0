"""The token stream: layout, literals, soft keywords and the context retags."""

import pytest

from synsema.lang.errors import SynError
from synsema.lang.lexer import tokenize


def types(src, **kw):
    return [t.type for t in tokenize(src, "l.syn", **kw)]


def pairs(src, **kw):
    return [(t.type, t.value) for t in tokenize(src, "l.syn", **kw)]


def lex_error(src):
    with pytest.raises(SynError) as info:
        tokenize(src, "l.syn")
    assert info.value.phase == "Lexer"
    return info.value


def where(err):
    return (err.span.line, err.span.col)


# ---------------------------------------------------------------- layout
def test_indent_and_dedent():
    assert types("when a\n    b\nc\n") == ["WHEN", "NAME", "_NL", "_INDENT", "NAME", "_NL", "_DEDENT", "NAME", "_NL"]


def test_dedents_close_at_end_of_file_and_final_newline_is_added():
    assert types("when a\n    when b\n        c") == [
        "WHEN", "NAME", "_NL", "_INDENT", "WHEN", "NAME", "_NL", "_INDENT", "NAME", "_NL", "_DEDENT", "_DEDENT"]


def test_blank_and_comment_only_lines_are_skipped():
    assert types("a\n\n   \n      -- note\n-- x\nb\n") == ["NAME", "_NL", "NAME", "_NL"]


def test_no_newlines_inside_brackets():
    assert types("f(1,\n  2)\n[3,\n4]\n{a:\n 1}\n") == [
        "NAME", "_LPAR", "NUMBER", "_COMMA", "NUMBER", "_RPAR", "_NL",
        "LSQB", "NUMBER", "_COMMA", "NUMBER", "_RSQB", "_NL",
        "LBRACE", "NAME", "_COLON", "NUMBER", "_RBRACE", "_NL"]


def test_tab_is_four_columns():
    assert types("when a\n\tb\n    c\n") == ["WHEN", "NAME", "_NL", "_INDENT", "NAME", "_NL", "NAME", "_NL", "_DEDENT"]


def test_inconsistent_indentation():
    err = lex_error("when a\n        b\n    c\n")
    assert err.message == "Inconsistent indentation: expected 0 spaces but got 4" and where(err) == (3, 5)


def test_expression_mode_has_no_layout_tokens():
    assert types("a +\n   b", expression=True) == ["NAME", "PLUS", "NAME"]


def test_positions_are_one_based_and_offset_for_holes():
    toks = tokenize("let x\n  be", "l.syn")
    assert [(t.line, t.column) for t in toks[:2]] == [(1, 1), (1, 5)]
    toks = tokenize("a\nb", "l.syn", 4, 7, expression=True)
    assert [(t.line, t.column) for t in toks] == [(4, 7), (5, 1)]


# ---------------------------------------------------------------- words
def test_hard_keywords_and_names():
    assert pairs("let x be y") == [("LET", "let"), ("NAME", "x"), ("_BE", "be"), ("NAME", "y"), ("_NL", "")]


def test_unicode_identifiers():
    assert pairs("ñandú_2 λ") == [("NAME", "ñandú_2"), ("NAME", "λ"), ("_NL", "")]


def test_any_word_after_a_dot_is_a_name():
    assert types("ev.type.to") == ["NAME", "_DOT", "NAME", "_DOT", "NAME", "_NL"]


@pytest.mark.parametrize("src, first", [
    ('test "t"', "TEST"), ('use "m" as m', "USE"), ("export let x be 1", "EXPORT"),
    ("enum E", "ENUM"), ("raise err", "RAISE"), ("raise", "RAISE"),
    ("test(1)", "NAME"), ("test.x", "NAME"), ("test[0]", "NAME"), ("raise + 1", "NAME"),
    ("raise |> f", "NAME"), ("use of x", "NAME"), ("test = 1", "NAME"), ("export == 1", "NAME"),
    ("test not in xs", "NAME"), ("raise not ok", "RAISE"),
])
def test_statement_soft_keywords(src, first):
    assert types(src)[0] == first


def test_soft_keyword_not_at_statement_start_is_a_name():
    assert types("let test be use") == ["LET", "NAME", "_BE", "NAME", "_NL"]
    assert types("export enum E")[:2] == ["EXPORT", "ENUM"]


def test_clause_words():
    assert types("reason about x")[:2] == ["REASON", "_ABOUT"]
    assert types("decide between [1]")[:2] == ["DECIDE", "_BETWEEN"]
    assert types("sandbox under net\n    x\n")[:2] == ["SANDBOX", "_UNDER"]
    assert types("analyze x for y")[2] == "_FOR"
    assert types("decide x given y")[2] == "_GIVEN"
    assert types("approve x within 90s")[2:4] == ["_WITHIN", "DURATION"]
    assert types("reason about.x")[1] == "NAME"
    assert types("f(given, for)")[2:5] == ["NAME", "_COMMA", "NAME"]


def test_keyword_map_keys_and_fields_become_names():
    assert types("{type: 1, to: 2}", expression=True) == [
        "LBRACE", "NAME", "_COLON", "NUMBER", "_COMMA", "NAME", "_COLON", "NUMBER", "_RBRACE"]
    assert types("type T\n    type: text\n")[3:7] == ["_INDENT", "NAME", "_COLON", "NAME"]
    assert types('intent: "x"')[0] == "INTENT"


def test_not_in_is_one_token():
    assert pairs("a not in b", expression=True) == [("NAME", "a"), ("NOT_IN", "not in"), ("NAME", "b")]
    assert types("not a", expression=True) == ["NOT", "NAME"]


def test_lambda_paren_is_retagged_only_when_followed_by_arrow():
    assert types("((x) => x)(1)", expression=True) == [
        "_LPAR", "LAMBDA_LPAR", "NAME", "_RPAR", "_ARROW", "NAME", "_RPAR", "_LPAR", "NUMBER", "_RPAR"]
    assert types("(a, (b)) => 1", expression=True)[:4] == ["LAMBDA_LPAR", "NAME", "_COMMA", "_LPAR"]


def test_pattern_brackets_after_is():
    toks = types("match v\n    is [a, {b}, {\"k\": 1}, xs[0]] when [1] == {c: 2}\n        x\n")
    opens = [t for t in toks if t in ("LSQB", "P_LSQB", "LBRACE", "P_LBRACE")]
    assert opens == ["P_LSQB", "P_LBRACE", "LBRACE", "LSQB", "LSQB", "LBRACE"]


def test_with_clause_commas():
    assert "_WCOMMA" in types("reason x with a = 1, b = 2")
    assert "_WCOMMA" not in types("f(reason x with a = 1, 2)")
    assert "_WCOMMA" not in types("f(a = 1, b = 2)")


# ---------------------------------------------------------------- numbers
@pytest.mark.parametrize("src", ["42", "1_000", "0x1f", "0o17", "0b101", "0xFF_FF", "3.14", "1e3",
                                 "1.5e-3", "1E+9", "1.50d", "100d", "2e3d"])
def test_number_tokens(src):
    assert pairs(src, expression=True) == [("NUMBER", src)]


@pytest.mark.parametrize("src, col", [("1__0", 1), ("1_", 1), ("x + 1_.5", 5), ("3abc", 1), ("0x", 1),
                                      ("1e", 1), ("0b102", 1)])
def test_bad_numbers(src, col):
    err = lex_error(src)
    assert err.message.startswith("Invalid number") and where(err) == (1, col)


def test_underscore_message():
    assert "`_` is allowed only between two digits" in lex_error("1__0").message


def test_dot_five_is_not_a_number():
    assert types(".5", expression=True) == ["_DOT", "NUMBER"]


def test_number_overflowing_float():
    assert "too large" in lex_error("1e999").message


def test_huge_integer_literal():
    assert "too long" in lex_error("1" * 5000).message


# ---------------------------------------------------------------- strings
def test_string_token_is_decoded():
    assert pairs(r'"a\nb" ' + r"'c\'d'", expression=True) == [("STRING", "a\nb"), ("STRING", "c'd")]


def test_unterminated_strings():
    err = lex_error('let s be "abc\nx"')
    assert err.message == "Unterminated string (newline in string)" and where(err) == (1, 10)
    err = lex_error("let s be 'abc")
    assert err.message == "Unterminated string (reached end of file)" and where(err) == (1, 10)
    assert lex_error('"abc\\').message == "Unterminated string (reached end of file)"


def test_invalid_unicode_escapes():
    assert "Invalid escape" in lex_error(r'"\u{110000}"').message
    assert "Invalid escape" in lex_error(r'"\ud800"').message
    assert pairs(r'"\u{zz}"', expression=True) == [("STRING", "\\u{zz}")]


def test_template_is_one_token_and_tracks_lines():
    toks = tokenize("let t be `a\nb {x}`\nlet y be 1\n", "l.syn")
    assert toks[3].type == "TEMPLATE" and toks[3].value == "`a\nb {x}`"
    assert (toks[5].line, toks[5].column) == (3, 1)


def test_unterminated_template():
    err = lex_error("x\nlet t be `abc {x}")
    assert err.message == "Unterminated template (reached end of file)" and where(err) == (2, 10)
    assert lex_error("`a {b").message == "Unterminated template (reached end of file)"


def test_template_nesting_limit():
    src = "`{" * 30 + "x" + "}`" * 30
    assert "nested too deeply" in lex_error(src).message


# ---------------------------------------------------------------- comments and odd characters
def test_comments():
    assert types("x -- note\nprint(1)--note\nx--note\n") == [
        "NAME", "_NL", "NAME", "_LPAR", "NUMBER", "_RPAR", "_NL", "NAME", "_NL"]


@pytest.mark.parametrize("src, col", [("5--1", 2), ("x--(y)", 2), ("f(a)--2", 5)])
def test_glued_double_dash(src, col):
    err = lex_error(src)
    assert "Ambiguous '--'" in err.message and "a - -b" in err.message and where(err) == (1, col)


def test_spaced_double_dash_is_a_comment():
    assert types("5 --1") == ["NUMBER", "_NL"]


def test_hash_and_c_comments():
    err = lex_error("x\n  # note")
    assert err.message.startswith("Unexpected character: '#'") and "--" in err.message
    assert where(err) == (2, 3)
    err = lex_error("// note")
    assert "floor division" in err.message and "--" in err.message
    assert types("a // b") == ["NAME", "DSLASH", "NAME", "_NL"]


@pytest.mark.parametrize("ch", ["@", "$", "?", ";", "!", "&", "^", "~", "\\"])
def test_unexpected_characters(ch):
    err = lex_error(f"a {ch} b")
    assert err.message == f"Unexpected character: '{ch}'" and where(err) == (1, 3)


def test_brackets_must_match():
    assert lex_error("(]").message.startswith("Mismatched ']'")
    assert lex_error(")").message.startswith("Unmatched ')'")
    err = lex_error("x\nf(a, [1\n")
    assert err.message == "'[' is never closed (reached end of file)" and where(err) == (2, 6)
