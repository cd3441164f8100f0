"""The grammar builds as LALR(1) with no conflicts, ships as package data, and agrees with
the lexer on every terminal name."""

import re
import subprocess
import sys
from importlib import resources
from pathlib import Path

from lark import Lark
from lark.lexer import Lexer

from synsema.lang import lexer

ROOT = str(Path(__file__).resolve().parent.parent)


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


def test_parser_tables_are_cached_between_processes(tmp_path):
    code = "from synsema.lang.parser import parse; parse('let x be 1', 'a.syn')"
    env = {"XDG_CACHE_HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "PYTHONPATH": ROOT}
    subprocess.run([sys.executable, "-c", code], check=True, env=env, cwd=ROOT)
    cached = list((tmp_path / "synsema").glob("grammar-*.lark-cache"))
    assert len(cached) == 1 and cached[0].stat().st_size > 0
    subprocess.run([sys.executable, "-c", code], check=True, env=env, cwd=ROOT)  # loads from the cache


def test_unwritable_cache_falls_back_to_building(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    code = "from synsema.lang.parser import parse; print(parse('let x be 1', 'a.syn').body[0].name)"
    env = {"XDG_CACHE_HOME": str(blocker), "PATH": "/usr/bin:/bin", "PYTHONPATH": ROOT}
    out = subprocess.run([sys.executable, "-c", code], check=True, env=env, cwd=ROOT,
                         capture_output=True, text=True)
    assert out.stdout.strip() == "x" and out.stderr == ""
