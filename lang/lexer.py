"""Source text to the token list the grammar reads.

Synsema needs more than a regular-expression lexer: indentation becomes `_INDENT`/`_DEDENT`,
newlines inside brackets vanish, and several decisions need one token of *context* that an
LALR(1) parser cannot take (it only sees one token ahead). Those are settled here, so the
grammar stays conflict-free:

* soft keywords (`test`, `use`, `export`, `enum`, `raise`, `log`, `trace` at the start of a statement; the
  clause words `about`, `between`, `under`, `given`, `for`, `within`) become keywords only where
  their construct starts, and stay plain names before `(`, `.`, `[`, an operator, `|>` or `of`;
* a `(` whose matching `)` is followed by `=>` opens a lambda (`LAMBDA_LPAR`);
* `not in` is one operator;
* inside a `match` pattern, `[` and `{name…` open list and map patterns (`P_LSQB`, `P_LBRACE`);
* in `reason … with a = 1, b = 2` the commas belong to the `with` clause (`_WCOMMA`);
* after `.` any word is a member name, and a hard keyword used as a map key (`{type: 1}`) or a
  record field (`type: text`) is a name.

`scan` gives the tokens as columns (`Tokens`: a list each of types, values, offsets, lines and
columns), which is what lang.parser reads; `tokenize` gives them as `Token`s (strings carrying
their terminal type and 1-based line and column, the shape of Lark's tokens), which the editor
tools, the formatter and parse-error messages read. Quoted strings arrive decoded; numbers and
templates arrive as their source text (see `number_value` and lang.templates).
"""

from __future__ import annotations

import re
from itertools import compress
from decimal import Decimal

from synsema.lang.errors import Span, lex_error

# Hard (reserved) keywords and the terminal each becomes. A `_` terminal is dropped from the
# tree because no node needs it.
HARD_KEYWORDS = {
    "when": "WHEN", "otherwise": "_OTHERWISE", "each": "EACH", "in": "IN", "while": "WHILE",
    "match": "MATCH", "is": "IS", "then": "_THEN", "stop": "STOP", "task": "TASK", "give": "GIVE",
    "let": "LET", "be": "_BE", "set": "SET", "to": "_TO", "type": "TYPE", "as": "_AS", "of": "_OF",
    "with": "_WITH", "agent": "AGENT", "spawn": "SPAWN", "share": "SHARE", "observe": "OBSERVE",
    "signal": "SIGNAL", "wait_for": "WAIT_FOR", "require": "REQUIRE", "sandbox": "SANDBOX",
    "invariant": "INVARIANT", "intent": "INTENT", "approve": "APPROVE", "confirm": "CONFIRM",
    "ask": "ASK", "show": "SHOW", "reason": "REASON", "decide": "DECIDE", "analyze": "ANALYZE",
    "generate": "GENERATE", "try": "TRY", "recover": "_RECOVER",
    "measure": "MEASURE", "checkpoint": "CHECKPOINT", "and": "_AND", "or": "_OR", "not": "NOT",
    "true": "TRUE", "false": "FALSE", "nothing": "NOTHING",
}
KEYWORD_TYPES = frozenset(HARD_KEYWORDS.values())

# Soft keywords that open a statement, and the clause words.
STATEMENT_WORDS = {"test": "TEST", "use": "USE", "export": "EXPORT", "enum": "ENUM", "raise": "RAISE",
                   "log": "LOG", "trace": "TRACE"}
AFTER_WORDS = {"about": ("REASON", "_ABOUT"), "between": ("DECIDE", "_BETWEEN"),
               "under": ("SANDBOX", "_UNDER")}
CLAUSE_WORDS = {"given": "_GIVEN", "for": "_FOR", "within": "_WITHIN"}
_SOFT_WORDS = frozenset(STATEMENT_WORDS) | frozenset(CLAUSE_WORDS) | frozenset(AFTER_WORDS)

PUNCTUATION = {
    "+": "PLUS", "-": "MINUS", "*": "STAR", "/": "SLASH", "//": "DSLASH", "%": "PERCENT",
    "**": "POW", "==": "EQ", "!=": "NE", "<": "LT", ">": "GT", "<=": "LE", ">=": "GE",
    "=": "_EQUAL", "=>": "_ARROW", "|>": "_PIPE", "->": "RARROW", "(": "_LPAR", ")": "_RPAR",
    "[": "LSQB", "]": "_RSQB", "{": "LBRACE", "}": "_RBRACE", ",": "_COMMA", ".": "_DOT",
    ":": "_COLON", "...": "ELLIPSIS",
}
_CLOSERS = {")": "(", "]": "[", "}": "{"}

# Tokens after which a soft word is a plain name (`raise(err)`, `test.x`, `use + 1`).
_NAME_FOLLOWERS = frozenset({
    "_LPAR", "_DOT", "LSQB", "PLUS", "MINUS", "STAR", "SLASH", "DSLASH", "PERCENT", "POW",
    "EQ", "NE", "LT", "GT", "LE", "GE", "IN", "_AND", "_OR", "_PIPE", "_OF", "_EQUAL",
})
# After `reason`/`decide`/`sandbox`, `about (x)` and `between [a, b]` read as the clause word.
_AFTER_WORD_FOLLOWERS = (_NAME_FOLLOWERS - {"_LPAR", "LSQB", "MINUS"}) | {"_NL", None}
# Tokens that can end an expression: a word right after one cannot be a name.
VALUE_END = frozenset({"NAME", "NUMBER", "STRING", "TEMPLATE", "DURATION", "TRUE", "FALSE",
                       "NOTHING", "_RPAR", "_RSQB", "_RBRACE"})
STATEMENT_START = frozenset({None, "_NL", "_INDENT", "_DEDENT"})
_OPENERS = frozenset({"_LPAR", "LAMBDA_LPAR", "LSQB", "P_LSQB", "LBRACE", "P_LBRACE"})
_CLOSER_TYPES = frozenset({"_RPAR", "_RSQB", "_RBRACE"})

MAX_BRACKET_DEPTH = 100

# Leading blanks are consumed with the token, so most tokens take one match. The commonest
# kinds come first (`--` must come before the `-` of punctuation). Brackets, `=>`, plain
# integers (no `_`, fraction, exponent or unit) and plain quoted strings (no escape) have
# groups of their own, so the main loop makes them without a method call; anything else that
# starts with a digit or a quote goes to `number` / `string`.
_TOKEN = re.compile(r"""[ \t\f]*(?:
    (?P<word>[^\W\d]\w*)
  | (?P<comment>--[^\n]*)
  | (?P<open>[(\[{])
  | (?P<close>[)\]}])
  | (?P<arrow>=>)
  | (?P<punct>\.\.\.|//|\*\*|==|!=|<=|>=|\|>|->|[-+*/%<>=,.:])
  | (?P<nl>\n)
  | (?P<int>[0-9]+)(?![\w.])
  | (?P<number>[0-9])
  | "(?P<plain>[^"\\\n]*)" | '(?P<plain1>[^'\\\n]*)'
  | (?P<quote>["'])
  | (?P<template>`)
  | (?P<end>\Z)
)""", re.VERBOSE)
(_WORD, _COMMENT, _OPEN, _CLOSE, _ARROW, _PUNCT, _NL, _INT, _NUMBER_START, _PLAIN, _PLAIN1, _QUOTE,
 _TEMPLATE) = map(_TOKEN.groupindex.__getitem__, (
    "word", "comment", "open", "close", "arrow", "punct", "nl", "int", "number", "plain", "plain1", "quote",
    "template"))
_INDENTATION = re.compile(r"[ \t\f]*")
# The patterns below are compiled at their first use (`re`'s own cache keeps them): the main
# loop reads plain integers and strings without them, so hello world never compiles them.
_NUMBER = r"""(?x)
    0[xX][0-9a-fA-F]+(?:_[0-9a-fA-F]+)* | 0[oO][0-7]+(?:_[0-7]+)* | 0[bB][01]+(?:_[01]+)*
  | (?P<int>[0-9]+(?:_[0-9]+)*)(?P<frac>\.[0-9]+(?:_[0-9]+)*)?(?P<exp>[eE][+-]?[0-9]+(?:_[0-9]+)*)?(?P<dec>d)?
"""
_WORD_CHAR = r"\w"
_BAD_NUMBER = r"[\w.]*"
_STRING = {'"': r'"((?:[^"\\\n]|\\.)*)"', "'": r"'((?:[^'\\\n]|\\.)*)'"}
_STRING_BODY = {'"': r'"(?:[^"\\\n]|\\.)*', "'": r"'(?:[^'\\\n]|\\.)*"}
_DURATION_UNITS = {"s": 1, "m": 60, "h": 3600}
_MAX_DIGITS = 4000


def tokenize(source: str, file: str, line: int = 1, col: int = 1,
             expression: bool = False) -> list[Token]:
    """Tokens of `source`, refined (see the module docstring).

    `line`/`col` place the first character (template holes start mid-line). With
    `expression`, newlines are plain whitespace and no indentation tokens are made.
    """
    return scan(source, file, line, col, expression).tokens()


def scan(source: str, file: str, line: int = 1, col: int = 1, expression: bool = False) -> Tokens:
    """The same tokens as `tokenize`, as the parser reads them: columns of plain lists, no
    token object per token (lang.parser shifts a token's index)."""
    tokens = _Scanner(source, file, line, col, expression).run()
    _refine(tokens)
    return tokens


def number_value(text: str):
    """The value of a NUMBER token: int, float, or Decimal for the `d` suffix."""
    if text.isdigit() and text.isascii():  # the commonest: plain digits
        return int(text)
    digits = text.replace("_", "")
    if digits[:2].lower() in ("0x", "0o", "0b"):
        return int(digits, 0)
    if digits.endswith("d"):
        return Decimal(digits[:-1])
    if "." in digits or "e" in digits or "E" in digits:
        return float(digits)
    return int(digits)


def duration_seconds(text: str):
    """`90s` / `2m` / `1.5h` as a number of seconds."""
    return number_value(text[:-1]) * _DURATION_UNITS[text[-1]]


class Token(str):
    """A token: the text it stands for, its terminal `type` (a grammar terminal name), `value`
    (the text, or a quoted string's decoded contents), and where it starts: `start_pos` in the
    source, `line` and `column` from 1. Tokens are equal as strings of the same type."""

    __slots__ = ("type", "value", "start_pos", "line", "column")

    def __new__(cls, type_: str, value: str, start_pos: int = 0, line: int = 1, column: int = 1):
        tok = str.__new__(cls, value)
        tok.type, tok.value, tok.start_pos, tok.line, tok.column = type_, value, start_pos, line, column
        return tok

    def __reduce__(self):
        return (Token, (self.type, self.value, self.start_pos, self.line, self.column))

    def __repr__(self):
        return f"Token({self.type!r}, {self.value!r})"

    def __eq__(self, other):
        if isinstance(other, Token) and self.type != other.type:
            return False
        return str.__eq__(self, other)

    __hash__ = str.__hash__


class Tokens:
    """A token list as columns: for token `i`, its terminal `types[i]`, `values[i]` (the text, or
    a quoted string's decoded contents), `starts[i]` (its offset in the source), and `lines[i]`
    / `cols[i]` (from 1). Five list appends per token cost a fraction of one `Token` object,
    and the parser needs no more than this; `tokens()` makes the `Token` list from them."""

    __slots__ = ("types", "values", "starts", "lines", "cols")

    def __init__(self):
        self.types: list[str] = []
        self.values: list[str] = []
        self.starts: list[int] = []
        self.lines: list[int] = []
        self.cols: list[int] = []

    def __len__(self) -> int:
        return len(self.types)

    def tokens(self) -> list[Token]:
        tokens = list(map(_new_token, self.types, self.values, self.starts, self.lines, self.cols))
        if "NOT_IN" in self.types:  # such a token's text stays its first word, as scanned
            for k, type_ in enumerate(self.types):
                if type_ == "NOT_IN":
                    tok = tokens[k]
                    tokens[k] = _new_token(type_, "not", tok.start_pos, tok.line, tok.column)
                    tokens[k].value = tok.value
        return tokens

    def end(self, i: int, src: str) -> int:
        """Where token `i` ends in the source (see `token_end`)."""
        return _token_end(self.types[i], self.values[i], self.starts[i], src)


class _Scanner:
    """One pass over the characters: raw tokens plus layout tokens, into a `Tokens`."""

    def __init__(self, source: str, file: str, line: int, col: int, expression: bool):
        self.src = source.replace("\r\n", "\n").replace("\r", "\n")
        self.file = file
        self.line = line
        self.line_start = -(col - 1)  # so the first line's columns start at `col`
        self.expression = expression
        self.tokens = Tokens()
        self.indents = [0]
        self.brackets: list[int] = []  # the open brackets' token indices
        self.last_close: tuple[int, int] | None = None  # the last `)` and its `(`, as indices

    def span(self, pos: int, line: int | None = None) -> Span:
        return Span(self.file, self.line if line is None else line, pos - self.line_start + 1)

    def add(self, type_: str, value: str, pos: int) -> None:
        tokens = self.tokens
        tokens.types.append(type_)
        tokens.values.append(value)
        tokens.starts.append(pos)
        tokens.lines.append(self.line)
        tokens.cols.append(pos - self.line_start + 1)

    def run(self) -> Tokens:
        """The main loop. Words, punctuation, brackets, plain integers and strings and newlines,
        most of all tokens, are made here directly (the position and the line kept in locals,
        written back before a method that reads them); the rarer kinds go to methods."""
        src, n = self.src, len(self.src)
        pos = 0
        at_line_start = not self.expression
        match = _TOKEN.match
        tokens = self.tokens
        types, values = tokens.types, tokens.values
        add_type, add_value = types.append, values.append
        add_start, add_line, add_col = tokens.starts.append, tokens.lines.append, tokens.cols.append
        brackets = self.brackets
        keyword = HARD_KEYWORDS.get
        punctuation = PUNCTUATION
        line, line_start = self.line, self.line_start
        while pos < n:
            if at_line_start:
                self.line, self.line_start = line, line_start
                pos = self.indentation(pos)
                line, line_start = self.line, self.line_start
                at_line_start = False
                if pos >= n:
                    break
            m = match(src, pos)
            if m is None:
                self.line, self.line_start = line, line_start
                self.bad_character(_INDENTATION.match(src, pos).end())
            kind = m.lastindex
            start, pos = m.span(kind)
            if kind == _WORD:
                text = src[start:pos]
                add_type("NAME" if types and types[-1] == "_DOT" else keyword(text, "NAME"))
            elif kind == _PUNCT:
                text = src[start:pos]
                add_type(punctuation[text])
            elif kind == _NL:
                if not brackets and not self.expression:
                    add_type("_NL")
                    add_value("\n")
                    add_start(start)
                    add_line(line)
                    add_col(start - line_start + 1)
                    at_line_start = True
                line += 1
                line_start = pos
                continue
            elif kind == _OPEN or kind == _CLOSE:
                text = src[start:pos]
                add_type(punctuation[text])
                add_value(text)
                add_start(start)
                add_line(line)
                add_col(start - line_start + 1)
                self.line, self.line_start = line, line_start
                if kind == _OPEN:
                    brackets.append(len(types) - 1)
                    if len(brackets) > MAX_BRACKET_DEPTH:
                        self.too_deep(start)
                else:
                    self.close(len(types) - 1)
                continue
            elif kind == _INT and pos - start <= _MAX_DIGITS:
                text = src[start:pos]
                add_type("NUMBER")
            elif kind == _PLAIN or kind == _PLAIN1:
                text = src[start:pos]
                add_type("STRING")
                start -= 1  # the token starts at its quote
                pos += 1
            elif kind == _ARROW:
                text = "=>"
                add_type("_ARROW")
                close = self.last_close
                if close is not None and close[0] == len(types) - 2 and types[close[1]] == "_LPAR":
                    types[close[1]] = "LAMBDA_LPAR"  # its matching `)` is followed by `=>`
            else:
                self.line, self.line_start = line, line_start
                if kind == _INT or kind == _NUMBER_START:
                    pos = self.number(start)
                elif kind == _QUOTE:
                    pos = self.string(start)
                elif kind == _COMMENT:
                    self.comment(start)
                elif kind == _TEMPLATE:
                    pos = self.template(start)
                line, line_start = self.line, self.line_start
                continue
            add_value(text)
            add_start(start)
            add_line(line)
            add_col(start - line_start + 1)
        self.line, self.line_start = line, line_start
        return self.finish(pos)

    def indentation(self, pos: int) -> int:
        """Measure a line's indentation; skip the line if it is blank or only a comment."""
        src = self.src
        while True:
            end = _INDENTATION.match(src, pos).end()
            if end >= len(src):
                return end
            first = src[end]
            if first == "\n":
                self.line += 1
                pos = self.line_start = end + 1
                continue
            if first == "-" and src.startswith("--", end):
                nl = src.find("\n", end)
                if nl < 0:
                    return len(src)
                self.line += 1
                pos = self.line_start = nl + 1
                continue
            break
        blanks = src[pos:end]
        width = len(blanks)
        if blanks.count(" ") != width:  # a tab is four columns, a form feed none
            width = 0
            for ch in blanks:
                width += 4 if ch == "\t" else 1 if ch == " " else 0
        indents = self.indents
        if width > indents[-1]:
            indents.append(width)
            self.add("_INDENT", "", end)
        elif width < indents[-1]:
            while width < indents[-1]:
                indents.pop()
                self.add("_DEDENT", "", end)
            if width != indents[-1]:
                raise lex_error(f"Inconsistent indentation: expected {indents[-1]} spaces but got "
                                f"{width}", self.span(end))
        if first == "/" and src.startswith("//", end):
            error = lex_error("Unexpected '//' at the start of a statement: `//` is floor division; "
                              "comments start with `--`", self.span(end))
            from synsema.lang.hints import replace   # errors only (start-up without .pyc)
            error.fixes = [replace(error.span, "//", "--", "Write the comment with '--'")]
            raise error
        return end

    def too_deep(self, pos: int):
        raise lex_error(f"expression nested too deeply (more than {MAX_BRACKET_DEPTH} "
                        "open brackets); split it into smaller parts with let", self.span(pos))

    def close(self, i: int) -> None:
        """Token `i` closes a bracket: it must match the one open."""
        tokens = self.tokens
        text, pos = tokens.values[i], tokens.starts[i]
        if not self.brackets:
            raise lex_error(f"Unmatched '{text}': nothing is open here", self.span(pos))
        opener = self.brackets.pop()
        if tokens.values[opener] != _CLOSERS[text]:
            raise lex_error(f"Mismatched '{text}': the '{tokens.values[opener]}' at line "
                            f"{tokens.lines[opener]}, column {tokens.cols[opener]} is still open",
                            self.span(pos))
        self.last_close = (i, opener)

    def number(self, pos: int) -> int:
        src = self.src
        m = re.compile(_NUMBER).match(src, pos)
        end = m.end()
        text = m.group()
        kind = "NUMBER"
        if end < len(src) and re.compile(_WORD_CHAR).match(src, end):
            unit = src[end]
            plain = m.group("int") is not None and not m.group("exp") and not m.group("dec")
            if (plain and unit in _DURATION_UNITS
                    and not (end + 1 < len(src) and re.compile(_WORD_CHAR).match(src, end + 1))):
                text, end, kind = text + unit, end + 1, "DURATION"
            else:
                bad = re.compile(_BAD_NUMBER).match(src, pos).group()
                why = ("`_` is allowed only between two digits" if "_" in bad
                       else "a number cannot run into letters")
                raise lex_error(f"Invalid number '{bad}': {why}", self.span(pos))
        if len(text) > _MAX_DIGITS and not text[:2].lower() in ("0x", "0o", "0b"):
            raise lex_error(f"Number literal too long (more than {_MAX_DIGITS} digits)", self.span(pos))
        if m.group("exp") and not m.group("dec") and number_value(m.group()) == float("inf"):
            raise lex_error(f"Number {m.group()} is too large for a float", self.span(pos))
        self.add(kind, text, pos)
        return end

    def string(self, pos: int) -> int:
        quote = self.src[pos]
        m = re.compile(_STRING[quote]).match(self.src, pos)
        if m is None:
            end = re.compile(_STRING_BODY[quote]).match(self.src, pos).end()
            at_eof = end >= len(self.src) or (self.src[end] == "\\" and end + 1 >= len(self.src))
            where = "reached end of file" if at_eof else "newline in string"
            raise lex_error(f"Unterminated string ({where})", self.span(pos))
        from synsema.lang.templates import decode_escapes   # a string with an escape (see _TOKEN's plain)
        self.add("STRING", decode_escapes(m.group(1), self.span(pos)), pos)
        return m.end()

    def template(self, pos: int) -> int:
        from synsema.lang.templates import scan_template   # a program without templates never loads it
        end = scan_template(self.src, pos, self.span(pos))
        self.add("TEMPLATE", self.src[pos:end], pos)
        newlines = self.src.count("\n", pos, end)
        if newlines:
            self.line += newlines
            self.line_start = self.src.rfind("\n", pos, end) + 1
        return end

    def comment(self, pos: int) -> None:
        """`--` starts a comment, except glued between a value and a digit or `(`."""
        tokens = self.tokens
        after = self.src[pos + 2:pos + 3]
        if (tokens.types and tokens.types[-1] in VALUE_END and tokens.lines[-1] == self.line
                and tokens.end(-1, self.src) == pos and (after.isdigit() or after == "(")):
            raise lex_error(f"Ambiguous '--' after '{tokens.values[-1]}': it starts a comment, so "
                            "everything after it is ignored. For subtraction of a negative value "
                            "write `a - -b`; for a comment put a space before `--`", self.span(pos))

    def bad_character(self, pos: int):
        ch = self.src[pos]
        shown = ch if ch.isprintable() else ascii(ch)[1:-1]
        hint = " (comments start with `--` in Synsema)" if ch == "#" else ""
        raise lex_error(f"Unexpected character: '{shown}'{hint}", self.span(pos))

    def finish(self, pos: int) -> Tokens:
        tokens = self.tokens
        if self.brackets:
            opener = self.brackets[-1]
            raise lex_error(f"'{tokens.values[opener]}' is never closed (reached end of file)",
                            Span(self.file, tokens.lines[opener], tokens.cols[opener]))
        if not self.expression:
            if tokens.types and tokens.types[-1] not in ("_NL", "_DEDENT"):
                self.add("_NL", "", pos)
            for _ in self.indents[1:]:
                self.add("_DEDENT", "", pos)
        return tokens


_make_str = str.__new__


def _new_token(type_: str, value: str, pos: int, line: int, column: int) -> Token:
    """A Token, made without a call to its constructor (one Python frame less per token)."""
    tok = _make_str(Token, value)
    tok.type, tok.value, tok.start_pos, tok.line, tok.column = type_, value, pos, line, column
    return tok


def token_end(tok: Token, src: str) -> int:
    """Where a token ends in the source (strings are stored decoded, so measure them)."""
    return _token_end(tok.type, tok.value, tok.start_pos, src)


def _token_end(type_: str, value: str, start: int, src: str) -> int:
    if type_ == "STRING":
        return re.compile(_STRING[src[start]]).match(src, start).end()
    if type_ in _CLOSER_TYPES:
        return start + 1
    return start + len(value)


def _refine(tokens: Tokens) -> None:
    """Second pass, in place: the context decisions listed in the module docstring.

    It reads the token types with two Nones past the end (sparing the bounds checks), and
    writes a type or value only to change it.
    """
    types = tokens.types
    values = tokens.values
    types += (None, None)
    merged: list[int] = []   # the `in` of each `not in`, folded into the `not`
    depth = 0
    pattern_depth = -1       # bracket depth of the current `is` pattern, -1 outside one
    llm_depths: set[int] = set()   # depths where a `reason`/`generate` is open
    with_depths: set[int] = set()  # depths inside such a form's `with` clause
    count = len(types) - 2
    prev_type = None
    i = 0
    while i < count:
        t = types[i]
        if t == "NAME":
            word = values[i]
            if word in _SOFT_WORDS:
                nxt = types[i + 1]
                if nxt == "NOT" and types[i + 2] == "IN":
                    nxt = "IN"  # `not in` counts as the operator it will become
                if word in STATEMENT_WORDS:
                    if (prev_type in STATEMENT_START or prev_type == "EXPORT") and nxt not in _NAME_FOLLOWERS:
                        t = STATEMENT_WORDS[word]
                elif word in CLAUSE_WORDS:
                    if prev_type in VALUE_END:
                        t = CLAUSE_WORDS[word]
                else:
                    before, kw = AFTER_WORDS[word]
                    if prev_type == before and nxt not in _AFTER_WORD_FOLLOWERS:
                        t = kw
                if t != "NAME":
                    types[i] = t
        elif t in KEYWORD_TYPES:
            nxt = types[i + 1]
            if nxt == "NOT" and types[i + 2] == "IN":
                nxt = "IN"
            if nxt == "_COLON" and t not in ("INTENT", "INVARIANT") and (
                    prev_type in STATEMENT_START or prev_type in ("LBRACE", "P_LBRACE", "_COMMA")):
                t = types[i] = "NAME"  # a map key or record field spelled like a keyword
            elif t == "NOT" and nxt == "IN":
                t = types[i] = "NOT_IN"
                values[i] = "not in"
                i += 1
                merged.append(i)
            elif t == "IS":
                pattern_depth = depth
            elif t == "WHEN" and depth == pattern_depth:
                pattern_depth = -1
            elif t in ("REASON", "GENERATE"):
                llm_depths.add(depth)
            elif t == "_WITH" and depth in llm_depths:
                with_depths.add(depth)
        elif t in _OPENERS:
            if pattern_depth >= 0:
                if t == "LSQB" and prev_type not in VALUE_END:
                    t = types[i] = "P_LSQB"
                elif t == "LBRACE":
                    nxt = types[i + 1]
                    if nxt == "NOT" and types[i + 2] == "IN":
                        nxt = "IN"
                    if nxt in ("NAME", "_RBRACE") or nxt in KEYWORD_TYPES:
                        t = types[i] = "P_LBRACE"
            depth += 1
        elif t in _CLOSER_TYPES:
            depth -= 1
            if llm_depths:
                llm_depths = {d for d in llm_depths if d <= depth}
                with_depths = {d for d in with_depths if d <= depth}
        elif t == "_COMMA":
            if depth in with_depths and types[i + 1] == "NAME" and types[i + 2] == "_EQUAL":
                t = types[i] = "_WCOMMA"
        elif t == "_NL":
            pattern_depth = -1
            llm_depths.clear()
            with_depths.clear()
        prev_type = t
        i += 1
    del types[-2:]
    if merged:
        keep = [True] * len(types)
        for k in merged:
            keep[k] = False
        for name in Tokens.__slots__:
            setattr(tokens, name, list(compress(getattr(tokens, name), keep)))
