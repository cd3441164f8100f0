"""Backtick templates: finding where one ends, and splitting it into text and holes.

A template is lexed as one TEMPLATE token (`scan_template`), because its holes hold whole
expressions with their own brackets and strings. The transformer later turns the token into an
`ast.Template` (`build_template`): text pieces get the template escapes, and each `{expr}` hole
is parsed as an expression whose tokens carry their real line and column in the file, so an
error inside a hole points at the hole.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from synsema.lang import ast
from synsema.lang.errors import Span, lex_error

MAX_TEMPLATE_NESTING = 20

HoleParser = Callable[[str, str, int, int], ast.Expr]

_ESCAPE = re.compile(r"\\(u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}"
                     r"|u[0-9a-fA-F]{4}|u\{[0-9a-fA-F]{1,6}\}|[\s\S])")
_SIMPLE_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", '"': '"', "'": "'"}


def decode_escapes(body: str, span: Span, template: bool = False) -> str:
    """Apply the text escapes of a quoted string (or, with `template`, of backtick text).

    Unknown sequences stay as written (`"C:\\users"`). In templates `\\u{` is not an escape,
    because the brace opens a hole, and `` \\` `` and `\\{` are.
    """
    if "\\" not in body:
        return body

    def one(m: re.Match) -> str:
        esc = m.group(1)
        if esc in _SIMPLE_ESCAPES:
            return _SIMPLE_ESCAPES[esc]
        if template and esc in "`{":
            return esc
        if esc[0] != "u" or len(esc) == 1:
            return m.group(0)
        if esc[1] == "{":
            if template:
                return m.group(0)
            return _code_point(int(esc[2:-1], 16), m.group(0), span)
        if len(esc) == 11:  # a surrogate pair \uD83D\uDE00
            high, low = int(esc[1:5], 16), int(esc[7:11], 16)
            return chr(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
        return _code_point(int(esc[1:5], 16), m.group(0), span)

    return _ESCAPE.sub(one, body)


def _code_point(value: int, written: str, span: Span) -> str:
    if value > 0x10FFFF or 0xD800 <= value <= 0xDFFF:
        raise lex_error(f"Invalid escape {written}: not a Unicode character "
                        "(a surrogate must be written as a \\uXXXX\\uXXXX pair)", span)
    return chr(value)


def scan_template(src: str, pos: int, span: Span, nesting: int = 0) -> int:
    """The index just after the template that starts with the backtick at `pos`."""
    if nesting > MAX_TEMPLATE_NESTING:
        raise lex_error("template nested too deeply (more than "
                        f"{MAX_TEMPLATE_NESTING} templates inside each other)", span)
    i, n = pos + 1, len(src)
    while i < n:
        c = src[i]
        if c == "\\":
            i += 2
        elif c == "`":
            return i + 1
        elif c == "{":
            i = _hole_end(src, i, span, nesting) + 1
        else:
            i += 1
    raise lex_error("Unterminated template (reached end of file)", span)


def _hole_end(src: str, start: int, span: Span, nesting: int) -> int:
    """Index of the `}` closing the hole opened at `start`; strings inside are skipped."""
    depth, i, n = 1, start + 1, len(src)
    while i < n:
        c = src[i]
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i
        elif c == "`":
            i = scan_template(src, i, span, nesting + 1)
            continue
        elif c in "\"'":
            i += 1
            while i < n and src[i] not in (c, "\n"):
                i += 2 if src[i] == "\\" else 1
        i += 1
    raise lex_error("Unterminated template (reached end of file)", span)


def build_template(raw: str, span: Span, parse_hole: HoleParser) -> ast.Template:
    """The Template node for a TEMPLATE token's source text `raw` (backticks included).

    `parts` never holds two text pieces in a row nor an empty text piece; a template without
    holes is a Template with at most one text part.
    """
    parts: list = []
    text_start = i = 1
    end = len(raw) - 1

    def flush_text(upto: int) -> None:
        if upto > text_start:
            piece = decode_escapes(raw[text_start:upto], span, template=True)
            if parts and isinstance(parts[-1], str):
                parts[-1] += piece
            else:
                parts.append(piece)

    while i < end:
        c = raw[i]
        if c == "\\":
            i += 2
        elif c == "{":
            flush_text(i)
            close = _hole_end(raw, i, span, 0)
            line, col = _position(raw, i + 1, span)
            source = raw[i + 1:close]
            if not source.strip():
                raise lex_error("Empty {} in a template: put an expression inside, or write \\{ "
                                "for a literal brace", Span(span.file, *_position(raw, i, span)))
            parts.append(parse_hole(source, span.file, line, col))
            i = text_start = close + 1
        else:
            i += 1
    flush_text(end)
    return ast.Template(parts, span=span)


def _position(raw: str, offset: int, span: Span) -> tuple[int, int]:
    """File line and column of `raw[offset]`, given where the template starts."""
    newline = raw.rfind("\n", 0, offset)
    if newline < 0:
        return span.line, span.col + offset
    return span.line + raw.count("\n", 0, offset), offset - newline
