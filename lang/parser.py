"""The front end's public entry points: `parse` (a file) and `parse_expression`.

The LALR tables are built from grammar/synsema.lark (package data) once per process, the first
time something is parsed, and cached on disk between processes (the user cache directory,
`$XDG_CACHE_HOME/synsema` or `~/.cache/synsema`), because building them costs far more than a
small program's whole run. When the cache cannot be written the tables are simply rebuilt.

Tokens come from lang.lexer and are fed to Lark one at a time, so a token the parser rejects is
known by its index and lang.checks can explain it in Synsema terms.
"""

from __future__ import annotations

import hashlib
import os
from importlib import resources

from lark import Lark, Token
from lark.parse_tree_builder import ExpandSingleChild
from lark.parsers.lalr_analysis import Shift
from lark.lexer import Lexer

from lang import ast, checks
from lang.errors import Span, parse_error
from lang.lexer import tokenize
from lang.transform import Builder


def parse(source: str, file: str) -> ast.Module:
    """Parse a whole source file; any bad input raises SynError (phase Lexer or Parse)."""
    if source.startswith("\ufeff"):  # a UTF-8 byte-order mark some editors write
        source = source[1:]
    tokens = tokenize(source, file)
    module = _feed(tokens, "module", file)
    checks.check_nesting(module)
    return module


def parse_expression(source: str, file: str, line: int = 1, col: int = 1) -> ast.Expr:
    """Parse one expression; `line`/`col` say where it starts in `file` (template holes)."""
    tokens = tokenize(source, file, line, col, expression=True)
    if not tokens:
        raise parse_error("Expected an expression", Span(file, line, col))
    expr = _feed(tokens, "lone_expr", file)
    checks.check_nesting(ast.Module(file, [ast.ExprStmt(expr, span=expr.span)]))
    return expr


class _NoLexer(Lexer):
    """Lark requires a lexer; lang.lexer does the lexing and its tokens are fed directly."""

    def __init__(self, lexer_conf):
        pass

    def lex(self, data):
        raise NotImplementedError("tokens are fed by lang.parser")


_BUILDER = Builder(parse_expression)
_LARK: Lark | None = None


def _lark() -> Lark:
    global _LARK
    if _LARK is None:
        grammar = resources.files("grammar").joinpath("synsema.lark").read_text(encoding="utf-8")
        options = dict(parser="lalr", lexer=_NoLexer, strict=True, maybe_placeholders=True,
                       start=["module", "lone_expr"], transformer=_BUILDER)
        _LARK = Lark(grammar, cache=_cache_file(grammar) or False, **options)
    return _LARK


def _cache_file(grammar: str) -> str | None:
    """A writable path for the table cache, named after the grammar's hash, or None."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = os.path.join(base, "synsema")
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError:
        return None
    if not os.access(folder, os.W_OK):
        return None
    digest = hashlib.sha256(grammar.encode("utf-8")).hexdigest()[:16]
    return os.path.join(folder, f"grammar-{digest}.lark-cache")


class _Tables:
    """Lark's LALR tables, rearranged once per process for `_feed`'s loop.

    `actions[state][terminal or rule name]` is `(True, next_state)` for a shift (and for the goto
    after a reduce), `(False, size, callback, rule name)` for a reduce by a rule whose right-hand
    side has `size` symbols (`callback` is the tree builder's function for that rule), or
    `(None, rule name)` for a reduce that passes its one child through unchanged (a `?rule` with
    one symbol, such as `?sum: term`): most reduces are those, and they cost no call. Looking the
    callback up here, once, spares every reduce the hashing and comparing of Lark's `Rule`
    objects that its own driver does (the deserialized table holds copies of the rules that key
    the callbacks, so each lookup compares them field by field).
    """

    def __init__(self, lark: Lark):
        parser = lark.parser.parser.parser
        table = parser.parse_table
        callbacks = parser.callbacks
        self.start = table.start_states
        self.end = table.end_states
        self.actions: list[dict] = [dict() for _ in range(max(table.states) + 1)]
        for state, row in table.states.items():
            for symbol, (action, arg) in row.items():
                if action is Shift:
                    self.actions[state][symbol] = (True, arg)
                elif len(arg.expansion) == 1 and type(callbacks[arg]) is ExpandSingleChild:
                    self.actions[state][symbol] = (None, arg.origin.name)
                else:
                    self.actions[state][symbol] = (False, len(arg.expansion), callbacks[arg],
                                                   arg.origin.name)


_TABLES: _Tables | None = None


def _tables() -> _Tables:
    global _TABLES
    if _TABLES is None:
        _TABLES = _Tables(_lark())
    return _TABLES


def _feed(tokens: list[Token], start: str, file: str):
    """Run the LALR automaton over `tokens` (then the end marker) and return the tree the
    builder made; a token no action accepts is explained by lang.checks."""
    tables = _tables()
    actions = tables.actions
    end_state = tables.end[start]
    states = [tables.start[start]]
    values: list = []
    builder_file, _BUILDER.file = _BUILDER.file, file
    last = tokens[-1] if tokens else None
    end = Token("$END", "", 0, last.line if last else 1, last.column if last else 1)
    try:
        for i, tok in enumerate((*tokens, end)):
            kind = tok.type
            while True:
                entry = actions[states[-1]].get(kind)
                if entry is None:
                    expected = {s for s in actions[states[-1]] if s.isupper()}
                    raise checks.explain_unexpected([*tokens, end], i, expected, file)
                flag = entry[0]
                if flag:
                    states.append(entry[1])
                    values.append(tok)
                    break
                if flag is None:
                    states[-1] = actions[states[-2]][entry[1]][1]
                    if kind == "$END" and states[-1] == end_state:
                        return values[-1]
                    continue
                _, size, callback, origin = entry
                if size:
                    children = values[-size:]
                    del states[-size:]
                    del values[-size:]
                else:
                    children = []
                states.append(actions[states[-1]][origin][1])
                values.append(callback(children))
                if kind == "$END" and states[-1] == end_state:
                    return values[-1]
    finally:
        _BUILDER.file = builder_file
