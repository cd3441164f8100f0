"""Every bad input gives the language's own message with file:line:col, never Lark's text."""

import pytest

from synsema.lang.errors import SynError
from synsema.lang.parser import parse, parse_expression


def error(src, file="e.syn"):
    with pytest.raises(SynError) as info:
        parse(src, file)
    err = info.value
    assert err.span is not None and err.span.file == file
    for lark_word in ("Token(", "Expected one of", "UnexpectedToken", "$END", "_NL", "__ANON"):
        assert lark_word not in err.message
    return err


def check(src, phase, line, col, *fragments):
    err = error(src)
    assert (err.phase, err.span.line, err.span.col) == (phase, line, col), err.report()
    for fragment in fragments:
        assert fragment in err.message, err.message
    return err


# ---------------------------------------------------------------- statement ends
def test_print_without_parentheses():
    err = check('print "x"', "Parse", 1, 7, 'unexpected "x" after the end of this statement',
                'print("x")')
    assert err.report().startswith("Parse error: e.syn:1:7: ")


def test_leftover_tokens():
    check("let x be 1 2", "Parse", 1, 12, "unexpected '2' after the end of this statement")


# ---------------------------------------------------------------- reserved words
@pytest.mark.parametrize("src, line, col, what", [
    ("let task be 1", 1, 5, "variable after 'let'"),
    ("set type to 2", 1, 5, "variable after 'set'"),
    ("each to in xs\n    x\n", 1, 6, "loop variable after 'each'"),
    ("task give(x)\n    give 1\n", 1, 6, "task name"),
    ("task f(a, type)\n    give 1\n", 1, 11, "parameter"),
    ("let f be (as) => 1", 1, 11, "parameter"),
    ("type when\n    a: number\n", 1, 6, "type name"),
    ("enum reason\n    a\n", 1, 6, "enum name"),
    ('use "x.syn" as with', 1, 16, "module alias"),
    ("try\n    x\nrecover type\n    y\n", 3, 9, "error variable after 'recover'"),
    ("export let show be 1", 1, 12, "variable after 'let'"),
    ("match v\n    is [a, measure]\n        x\n", 2, 12, "pattern variable"),
    ("match v\n    is {type}\n        x\n", 2, 9, "pattern variable"),
])
def test_reserved_words(src, line, col, what):
    err = check(src, "Parse", line, col, "is a reserved word in Synsema; choose another name for the " + what)
    assert err.message.startswith("'")


# ---------------------------------------------------------------- protected names
@pytest.mark.parametrize("src, name", [
    ("task print(x)\n    give x\n", "print"),
    ("let declassify be (v, r) => v", "declassify"),
    ("set label_of to () => 1", "label_of"),
    ("task eprint\n    give 1\n", "eprint"),
])
def test_protected_names_cannot_hold_callables(src, name):
    err = error(src)
    assert err.phase == "Parse" and f"'{name}' is a protected name" in err.message


@pytest.mark.parametrize("src, line, col, what", [
    ("task f(print)\n    give 1\n", 1, 8, "a parameter"),
    ("let f be (a, declassify) => a", 1, 14, "a parameter"),
    ("each print in xs\n    x\n", 1, 6, "a loop variable"),
    ("match v\n    is [print]\n        x\n", 2, 9, "a pattern binding"),
    ("match v\n    is {label_of}\n        x\n", 2, 9, "a pattern binding"),
    ("match v\n    is [a, ...eprint]\n        x\n", 2, 15, "a pattern binding"),
])
def test_protected_names_are_never_bound_from_data(src, line, col, what):
    """What a caller or a list supplies could be a task: refused at load, whatever it is."""
    err = check(src, "Parse", line, col, f"is a protected name: it cannot be {what}")
    assert err.message.startswith("'")


@pytest.mark.parametrize("src", [
    "task log(x)\n    give x\n", "export task trace(m)\n    give m\n", "let log be 1",
    "print(trace(1))", "set trace to 2", "m.log(1)",
])
def test_log_and_trace_are_names_outside_their_statements(src):
    statement = parse(src, "e.syn").body[0]
    assert type(statement).__name__ not in ("Log", "Marker"), statement


def test_log_and_trace_still_open_their_statements():
    body = parse('log "x"\ntrace "step"\n    y\n', "e.syn").body
    assert [type(s).__name__ for s in body] == ["Log", "Marker"]


# ---------------------------------------------------------------- python and JS reflexes
@pytest.mark.parametrize("src, line, col, fragment", [
    ("return x", 1, 1, "give"),
    ("while true\n    return\n", 2, 5, "give"),
    ("if x > 1:\n    y\n", 1, 1, "when"),
    ("for x in xs\n    y\n", 1, 1, "each x in xs"),
    ("x = 1", 1, 3, "let x be"),
    ("xs[0] = 1", 1, 7, "set x to"),
    ("x += 1", 1, 4, "set x to"),
    ("let x = 1", 1, 7, "let x be"),
    ("set x = 1", 1, 7, "set x to"),
    ("import os", 1, 1, 'use "./file.syn" as name'),
    ("from os import path", 1, 1, "use"),
    ("def f(x):\n    give x\n", 1, 1, "task"),
    ("when x\n    y\nelse\n    z\n", 3, 1, "otherwise"),
    ("when x\n    y\nelif z\n    w\n", 3, 1, "otherwise when"),
    ("while true\n    break\n", 2, 5, "stop"),
    ("each x in xs\n    continue\n", 2, 5, "no `continue`"),
    ("try\n    x\nexcept e\n    y\n", 3, 1, "recover"),
    ("try\n    x\ncatch e\n    y\n", 3, 1, "recover"),
    ("lambda x: x", 1, 1, "(x) => expression"),
])
def test_python_reflexes(src, line, col, fragment):
    check(src, "Parse", line, col, fragment)


def test_true_false_none_are_names_for_the_runtime():
    assert parse("let x be True or None", "e.syn").body[0].value.left.name == "True"


# ---------------------------------------------------------------- tier C
@pytest.mark.parametrize("src, word, line, col", [
    ("agent Worker\n    x\n", "agent", 1, 1),
    ("let x be spawn worker", "spawn", 1, 10),
    ('share x as "k"', "share", 1, 1),
    ("observe k as v", "observe", 1, 1),
    ("signal done", "signal", 1, 1),
    ("wait_for done", "wait_for", 1, 1),
    ("serve on 8080\n    x\n", "serve", 1, 1),
    ("judge state\n    x\n", "judge", 1, 1),
    ('routes "api"\n    x\n', "routes", 1, 1),
    ("socket s\n    x\n", "socket", 1, 1),
    ('proxy to "x"', "proxy", 1, 1),
])
def test_tier_c_statements(src, word, line, col):
    check(src, "Parse", line, col, f"'{word}' is not supported by this implementation")


def test_exported_tier_c_statement():
    check('export routes "api"\n    x\n', "Parse", 1, 8, "'routes' is not supported")


def test_block_words_without_their_block():
    check("otherwise\n    x\n", "Parse", 1, 1, "`otherwise` must follow a `when` block")
    check("x\nrecover err\n    y\n", "Parse", 2, 1, "`recover` must follow a `try` block")
    check("is 1\n    y\n", "Parse", 1, 1, "`is` arms belong inside a `match` block")
    check("when a\n    x\ny\notherwise\n    z\n", "Parse", 4, 1, "`otherwise` must follow")


def test_tier_c_word_as_a_plain_name_is_fine():
    assert parse("let judge be serve(1)", "e.syn").body[0].name == "judge"


# ---------------------------------------------------------------- statements
def test_inline_when_as_statement():
    check("when c then x", "Parse", 1, 8, "inline `when … then` is an expression",
          "when c + indented body")


def test_bare_raise():
    check("raise", "Parse", 1, 1, "raise needs a message")


def test_block_header_colon():
    check("when x:\n    y\n", "Parse", 1, 7, "Synsema blocks have no colon")
    check("task f(a):\n    give a\n", "Parse", 1, 10, "Synsema blocks have no colon")
    check("when x\n    y\notherwise:\n    z\n", "Parse", 3, 10, "Synsema blocks have no colon")


def test_expected_indented_block():
    check("when x\ny\n", "Parse", 2, 1, "Expected indented block")
    check("task f\n", "Parse", 1, 7, "Expected indented block")


def test_unexpected_indentation():
    check("x\n    y\n", "Parse", 2, 5, "Unexpected token: INDENT (")


def test_invalid_set_target():
    check("set f(x).a to 1", "Parse", 1, 5, "Invalid set target: it must start from a variable — ")
    check("set 1 to 2", "Parse", 1, 5, "Invalid set target")


def test_of_needs_a_plain_name():
    check('let v be p["a"] of p', "Parse", 1, 17, "`of` needs a plain name on its left")


def test_positional_after_named():
    check("f(a = 1, 2)", "Parse", 1, 10, "positional argument cannot come after a named one")


def test_inline_forms_as_operands_need_parentheses():
    check("let x be 1 + when c then 2 otherwise 3", "Parse", 1, 14, "must be wrapped in parentheses")
    check("let x be 1 + (x) => x", "Parse", 1, 14, "must be wrapped in parentheses")


def test_spread_outside_patterns():
    check("let x be [...xs]", "Parse", 1, 11, "only allowed in a list pattern")


def test_pattern_errors():
    check("match x\n    is [a, ...b, ...c]\n        y\n", "Parse", 2, 18, "only one `...`")
    check("match x\n    is f([a])\n        y\n", "Parse", 2, 10, "list or map pattern can only stand alone")
    check("match x\n    is Shape.c(r = 1)\n        y\n", "Parse", 2, 8, "by position")


def test_duration_outside_within():
    check("let t be 90s", "Parse", 1, 10, "can only follow `within`")


def test_intent_needs_a_text_literal():
    check("intent: x", "Parse", 1, 9, "unexpected 'x'; expected a quoted text")


def test_generic_messages_say_what_was_expected():
    check("let x be", "Parse", 1, 9, "unexpected end of line; expected an expression")
    check("let 5 be 3", "Parse", 1, 5, "unexpected '5'; expected a name")
    check("x.", "Parse", 1, 3, "expected a name")
    check("export foo", "Parse", 1, 8, "'let'", "'task'")


def test_error_inside_a_template_hole_points_into_the_hole():
    check("let a be 1\nlet s be `value: {1 +}`", "Parse", 2, 21, "expected an expression")
    check("let s be `x\n  {)}`", "Lexer", 2, 4, "Unmatched ')'")


def test_empty_template_hole():
    check("let s be `a {} b`", "Lexer", 1, 13, "Empty {} in a template")


def test_parse_expression_errors_are_synerrors():
    with pytest.raises(SynError) as info:
        parse_expression("1 +", "repl")
    assert info.value.phase == "Parse" and "expected an expression" in info.value.message
    with pytest.raises(SynError):
        parse_expression("", "repl")
    with pytest.raises(SynError):
        parse_expression("let x be 1", "repl")


# ---------------------------------------------------------------- nesting limits
def test_deep_brackets():
    check("let x be " + "(" * 10000 + "1" + ")" * 10000, "Lexer", 1, 110, "nested too deeply")
    check("let x be " + "[" * 10000 + "]" * 10000, "Lexer", 1, 110, "nested too deeply")


def test_deep_operator_chains():
    assert "nested too deeply" in error("let x be " + "- " * 5000 + "1").message
    assert "nested too deeply" in error("let x be " + "not " * 5000 + "x").message
    assert "nested too deeply" in error("let x be " + " ** ".join(["2"] * 5000)).message
    assert "nested too deeply" in error("let x be " + " of ".join(["a"] * 5000)).message


def test_deep_blocks():
    src = "".join("    " * k + "when x\n" for k in range(600)) + "    " * 600 + "y\n"
    assert "nested too deeply" in error(src).message


def test_reasonable_nesting_is_fine():
    parse("let x be " + "(" * 90 + "1" + ")" * 90, "e.syn")
    parse("let x be " + " + ".join(["1"] * 300), "e.syn")
