"""The grammar builds as LALR(1) with no conflicts, ships as package data, and agrees with
the lexer on every terminal name."""

import re
from importlib import resources

from lark import Lark
from lark.lexer import Lexer

from synsema.lang import lexer


class _Unused(Lexer):
    def __init__(self, conf):
        pass

    def lex(self, data):
        raise NotImplementedError


def grammar_text():
    return resources.files("synsema.grammar").joinpath("synsema.lark").read_text(encoding="utf-8")


def test_grammar_builds_strict_lalr_without_conflicts():
    # strict=True turns every shift/reduce or reduce/reduce conflict into a GrammarError
    parser = Lark(grammar_text(), parser="lalr", lexer=_Unused, strict=True,
                  start=["module", "lone_expr"])
    assert set(parser.options.start) == {"module", "lone_expr"}


def test_every_token_the_lexer_makes_is_declared():
    declared = set()
    for line in grammar_text().splitlines():
        if line.startswith("%declare"):
            declared.update(line.split()[1:])
    made = set(lexer.HARD_KEYWORDS.values()) | set(lexer.STATEMENT_WORDS.values())
    made |= {kw for _, kw in lexer.AFTER_WORDS.values()} | set(lexer.CLAUSE_WORDS.values())
    made |= set(lexer.PUNCTUATION.values()) - {"RARROW"}  # `->` is lexed but has no use
    made |= {"NAME", "NUMBER", "STRING", "TEMPLATE", "DURATION", "_NL", "_INDENT", "_DEDENT",
             "NOT_IN", "LAMBDA_LPAR", "P_LSQB", "P_LBRACE", "_WCOMMA"}
    assert made - declared == set()
    used = set(re.findall(r"\b[A-Z_][A-Z_]+\b", grammar_text().split("module:", 1)[1]))
    assert declared - used == {"AGENT", "SPAWN", "SHARE", "OBSERVE", "SIGNAL", "WAIT_FOR"}
