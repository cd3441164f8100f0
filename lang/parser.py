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
from lark.exceptions import UnexpectedInput
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


def _feed(tokens: list[Token], start: str, file: str):
    interactive = _lark().parse_interactive(start=start)
    state = interactive.parser_state
    feed = state.feed_token
    builder_file, _BUILDER.file = _BUILDER.file, file
    i = 0
    try:
        for i, tok in enumerate(tokens):
            feed(tok)
        last = tokens[-1] if tokens else None
        end = Token("$END", "", 0, last.line if last else 1, last.column if last else 1)
        tokens = tokens + [end]
        i = len(tokens) - 1
        return feed(end, True)
    except UnexpectedInput as e:
        raise checks.explain_unexpected(tokens, i, set(getattr(e, "expected", ()) or ()), file) from None
    finally:
        _BUILDER.file = builder_file
