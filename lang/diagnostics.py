"""How an error is shown: the source line with a caret under the span, a hint, or JSON.

Every front end (run, test, check, the REPL) prints a `SynError` through `human` or `as_json`,
so the first line stays the one-line report of LANGUAGE.md §5 (`Runtime error: f:l:c: message`)
and what follows it is the same everywhere:

    Runtime error: prog.syn:3:7: Undefined variable: 'lenght'
      3 | print(lenght(words))
        |       ^^^^^^
      hint: did you mean 'length'?

Nodes carry only where they start, so the caret runs to the end of the token found there (a
name, a number, a quoted text, or one character). `Sources` finds the text of a file: what a
front end registered (stdin, a REPL entry) or the file on disk.
"""

from __future__ import annotations

import re

from synsema.lang.errors import SynError

_TOKEN = re.compile(r"[^\W\d]\w*(?:\.[^\W\d]\w*)*|\d[\w.]*|\"(?:[^\"\\]|\\.)*\"?|`[^`]*`?|\S")


# Control characters, and the format characters that reorder or hide text (bidi overrides and
# isolates, line and paragraph separators): a terminal would act on them.
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]")


def terminal_safe(text: str) -> str:
    """`text` with every character a terminal would act on written as an escape (`\x1b`,
    `\u202e`): a test name or a message a program chose cannot rewrite the screen."""
    return _UNSAFE.sub(_escape, text)


def _escape(match: re.Match) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def source_lines(text: str) -> list[str]:
    """The lines of a source as the lexer counts them: only a line feed, CR LF or CR ends a
    line. (str.splitlines also splits at U+2028, U+0085, form feeds…, which may sit inside a
    string, and would then show every later error with the wrong line.)"""
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


class Sources:
    """The text of the files errors point into: registered ones first, then the disk."""

    def __init__(self):
        self._texts: dict[str, list[str]] = {}

    def add(self, file: str, text: str) -> None:
        self._texts[file] = source_lines(text)

    def line(self, file: str, number: int) -> str | None:
        lines = self._texts.get(file)
        if lines is None:
            try:
                with open(file, encoding="utf-8") as handle:
                    lines = source_lines(handle.read())
            except (OSError, UnicodeDecodeError, ValueError):
                lines = []
            self._texts[file] = lines
        return lines[number - 1] if 0 < number <= len(lines) else None


def extent(text: str, col: int) -> int:
    """The column just past the token that starts at 1-based `col` of `text`."""
    found = _TOKEN.match(text, col - 1) if 0 < col <= len(text) else None
    return found.end() + 1 if found else col + 1


def code_of(error: SynError) -> str:
    """A stable machine name for the kind of error (the `code` field of the JSON form)."""
    if error.code:
        return error.code
    if error.assertion:
        return "assertion"
    return {"Lexer": "lexer", "Parse": "syntax"}.get(error.phase, "runtime")


def human(error: SynError, sources: Sources | None = None, hints: bool = True) -> str:
    """The report line, then (when the source is known) the line with a caret, then the
    explanation of a failed assertion, then the hint.

    A label violation or a secret error stays one line, and under `--labels` the caller passes
    `hints=False`: a hint may quote data (a map's keys), and labels decide what may be shown.
    (An assertion's explanation shows private values as `print` does, so it stays.)"""
    return "\n".join([error.report(), *below(error, sources, hints)])


def below(error: SynError, sources: Sources | None = None, hints: bool = True) -> list[str]:
    """The lines `human` puts under the report line: what `synsema test` shows under a failure."""
    if error.secret or error.violation:
        return []
    out = pointer(error.span, sources) + ["  " + line for line in explanation(error)]
    if hints and error.hint:
        out.append(f"  hint: {error.hint}")
    return out


def explanation(error: SynError) -> list[str]:
    """A failed assertion's values, sub-expressions and diff (runtime.assertions), or nothing."""
    if error.detail is None or error.secret or error.violation:
        return []
    return error.detail()


def render(headline: str, span, hint: str | None, sources: Sources | None) -> str:
    """`headline`, the source line at `span` with a caret under its token, and the hint."""
    out = [headline, *pointer(span, sources)]
    if hint:
        out.append(f"  hint: {hint}")
    return "\n".join(out)


def pointer(span, sources: Sources | None) -> list[str]:
    """The source line at `span` and a caret under its token (nothing when the text is unknown)."""
    if span is None or sources is None or not span.line:
        return []
    text = sources.line(span.file, span.line)
    if text is None:
        return []
    end = extent(text, span.col)
    gutter = str(span.line)
    return [f"  {gutter} | {text}", f"  {' ' * len(gutter)} | {' ' * (span.col - 1)}{'^' * max(1, end - span.col)}"]


def as_json(error: SynError, sources: Sources | None = None) -> dict:
    """`{file, line, col, end_line, end_col, code, message, hint}`; positions null when unknown.
    A failed assertion adds `detail`: its explanation's lines (values, sub-expressions, diff)."""
    if error.secret:
        span = error.public_span()
        return {**position(None, sources), "file": span.file if span else None,
                "line": span.line if span else None, "code": error.withheld_code(), "message": error.withheld(),
                "hint": None}
    detail = explanation(error)
    return {**position(error.span, sources), "code": code_of(error), "message": error.message,
            "hint": error.hint, **({"detail": detail} if detail else {})}


def position(span, sources: Sources | None) -> dict:
    """`{file, line, col, end_line, end_col}` of a span (end: past the token found there)."""
    if span is None or not span.line:
        return {"file": span.file if span is not None else None, "line": None, "col": None,
                "end_line": None, "end_col": None}
    text = sources.line(span.file, span.line) if sources is not None else None
    end_col = extent(text, span.col) if text is not None else span.col + 1
    return {"file": span.file, "line": span.line, "col": span.col, "end_line": span.line, "end_col": end_col}
