"""The messages for source the grammar rejects: what Synsema wants instead.

`explain_unexpected` turns a token the parser could not take into the language's message: a
Python or JavaScript reflex (`return`, `if`, `x = 1`, …) names the Synsema form, a reserved word
in a binding position says which binding, an unsupported tier-C statement says so, and otherwise
the message says what was found and what was expected. Lark's own texts never reach a user.

lang.parser imports this module only when a parse fails, so a program that parses never
compiles it (start-up without `.pyc` files, issue 31).
"""

from __future__ import annotations

from synsema.lang.checks import REFLEX_WORDS, REFLEXES
from synsema.lang.errors import Span, SynError, parse_error
from synsema.lang.hints import Edit, Fix
from synsema.lang.lexer import (AFTER_WORDS, CLAUSE_WORDS, HARD_KEYWORDS, KEYWORD_TYPES, PUNCTUATION,
                                STATEMENT_START, STATEMENT_WORDS, Token, token_end)

# Statements this implementation leaves out (SPEC.md §2, tier C).
TIER_C_KEYWORDS = frozenset({"AGENT", "SPAWN", "SHARE", "OBSERVE", "SIGNAL", "WAIT_FOR"})
TIER_C_WORDS = frozenset({"serve", "judge", "routes", "socket", "proxy", "route", "cron"})

# Statements that open an indented block (where a `{` is a brace-language reflex).
_BLOCK_OPENERS = frozenset({"WHEN", "_OTHERWISE", "EACH", "WHILE", "TASK", "TRY", "_RECOVER", "TEST",
                            "MATCH", "SANDBOX", "TYPE", "ENUM"})
# Compound assignments of C, Python and JavaScript, and the operator they apply.
_COMPOUND = {"PLUS": "+", "MINUS": "-", "STAR": "*", "SLASH": "/", "PERCENT": "%"}

# Tokens whose spelling a message can show directly.
_SPELLING = {t: w for w, t in HARD_KEYWORDS.items()}
_SPELLING.update({t: w for w, t in STATEMENT_WORDS.items()})
_SPELLING.update({t: w for w, (_, t) in AFTER_WORDS.items()})
_SPELLING.update({t: w for w, t in CLAUSE_WORDS.items()})
_SPELLING.update({t: w for w, t in PUNCTUATION.items()})
_SPELLING.update({"NOT_IN": "not in", "LAMBDA_LPAR": "(", "P_LSQB": "[", "P_LBRACE": "{",
                  "_WCOMMA": ","})
_DESCRIPTION = {"NAME": "a name", "NUMBER": "a number", "STRING": "a quoted text",
                "TEMPLATE": "a template", "DURATION": "a duration", "_NL": "end of line",
                "_INDENT": "an indented block", "_DEDENT": "end of block", "$END": "end of input"}
# Forms that end with a full expression, so they cannot be an operand without parentheses.
_OPEN_ENDED = frozenset({"WHEN", "LAMBDA_LPAR", "SANDBOX", "REASON", "DECIDE", "ANALYZE",
                         "GENERATE", "SHOW", "ASK", "APPROVE", "CONFIRM"})
_EXPRESSION_START = frozenset({"NAME", "NUMBER", "STRING"})
# Words that continue a block statement, met where no such statement is open.
_ORPHANS = {
    "_OTHERWISE": "`otherwise` must follow a `when` block (or the arms of a `match`) at the same "
                  "indentation",
    "_RECOVER": "`recover` must follow a `try` block at the same indentation",
    "IS": "`is` arms belong inside a `match` block, indented below `match value`",
}



def explain_unexpected(tokens: list[Token], i: int, expected: set[str], file: str,
                       source: str | None = None) -> SynError:
    """The message for `tokens[i]`, which the parser could not accept in its position, with
    the rewrite that fixes it (`SynError.fixes`) where the rewrite is mechanical. `source` is
    the text the tokens came from (to measure quoted tokens)."""
    start = i
    while start > 0 and tokens[start - 1].type not in STATEMENT_START:
        start -= 1
    reflex = _Reflex(tokens, i, start, file, source)
    found = reflex.explain()
    if found is not None:
        return found
    return _explain(tokens, i, start, expected, file)


class _Reflex:
    """The habits of other languages the parser meets as an unexpected token, each named with
    its Synsema form and its rewrite: `when x = 1`, `===`, `i++`, `i += 1`, `f"…"`, `lambda x:`,
    a `{` block, `else if`, `-> type` after a task's parameters, a Python statement word."""

    def __init__(self, tokens: list[Token], i: int, start: int, file: str, source: str | None):
        self.tokens, self.i, self.start, self.file, self.source = tokens, i, start, file, source
        self.tok = tokens[i]
        self.first = tokens[start]
        self.prev = tokens[i - 1] if i > 0 else None

    def explain(self) -> SynError | None:
        for rule in (self.strict_equality, self.compound, self.increment, self.comparison,
                     self.f_string, self.lambda_, self.brace_block, self.return_type, self.else_if,
                     self.statement_word):
            found = rule()
            if found is not None:
                return found
        return None

    # -- positions
    def end(self, tok: Token) -> int:
        """The column just past `tok`."""
        if self.source is not None and tok.type in ("STRING", "_RPAR", "_RSQB", "_RBRACE"):
            return tok.column + token_end(tok, self.source) - tok.start_pos
        return tok.column + len(tok.value)

    def touching(self, a: Token, b: Token) -> bool:
        return a.line == b.line and self.end(a) == b.column

    def error(self, message: str, at: Token, title: str, edits: list[Edit]) -> SynError:
        error = parse_error(message, _span(at, self.file))
        error.fixes = [Fix(title, edits)]
        return error

    def span_edit(self, first: Token, last: Token, text: str) -> Edit:
        """Replace `first` through `last` (on one line) with `text`."""
        return Edit(first.line, first.column, last.line, self.end(last), text)

    # -- the rules
    def strict_equality(self):
        tok, prev = self.tok, self.prev
        if tok.type == "_EQUAL" and prev is not None and prev.type in ("EQ", "NE") and self.touching(prev, tok):
            wanted = "==" if prev.type == "EQ" else "!="
            return self.error(f"`{prev.value}=` is not Synsema: compare with `{wanted}` (it never converts "
                              "between types, so it is already strict)", prev, f"Replace with '{wanted}'",
                              [self.span_edit(prev, tok, wanted)])
        return None

    def compound(self):
        tok, prev, first = self.tok, self.prev, self.first
        if (tok.type == "_EQUAL" and prev is not None and prev.type in _COMPOUND and self.i == self.start + 2
                and first.type == "NAME" and self.touching(prev, tok)):
            name, op = first.value, _COMPOUND[prev.type]
            return self.error(f"`{op}=` is not Synsema: write `set {name} to {name} {op} …`", tok,
                              f"Rewrite as 'set {name} to {name} {op} …'",
                              [self.span_edit(first, tok, f"set {name} to {name} {op}")])
        return None

    def increment(self):
        tokens, i, first = self.tokens, self.i, self.first
        tok, prev = self.tok, self.prev
        if (tok.type in ("PLUS", "MINUS") and prev is not None and prev.type == tok.type and i == self.start + 2
                and first.type == "NAME" and self.touching(prev, tok)
                and tokens[i + 1].type in ("_NL", "$END", "_DEDENT")):
            name, op = first.value, tok.value
            rewrite = f"set {name} to {name} {op} 1"
            return self.error(f"`{op}{op}` is not Synsema: write `{rewrite}`", prev, f"Rewrite as '{rewrite}'",
                              [self.span_edit(first, tok, rewrite)])
        return None

    def comparison(self):
        if self.tok.type == "_EQUAL" and self.first.type in ("WHEN", "WHILE", "_OTHERWISE"):
            return self.error("`=` is not a comparison in Synsema: compare with `==`, as in `when x == 1`",
                              self.tok, "Replace '=' with '=='", [self.span_edit(self.tok, self.tok, "==")])
        return None

    def f_string(self):
        tok, prev = self.tok, self.prev
        if not (tok.type == "STRING" and prev is not None and prev.type == "NAME" and prev.value in ("f", "F")
                and self.touching(prev, tok)):
            return None
        message = ("Synsema has no f-strings: a template is written in backticks, `hi {name}`, and "
                   "fills each {expression} in")
        error = parse_error(message, _span(prev, self.file))
        if self.source is not None:
            body = self.source[tok.start_pos + 1:token_end(tok, self.source) - 1]
            if "`" not in body and "\\" not in body:
                error.fixes = [Fix("Rewrite as a backtick template", [self.span_edit(prev, tok, f"`{body}`")])]
        return error

    def lambda_(self):
        tokens, i = self.tokens, self.i
        at = next((k for k in range(i, self.start - 1, -1)
                   if tokens[k].type == "NAME" and tokens[k].value == "lambda"), None)
        if at is None or at < i - 8:
            return None
        colon = next((k for k in range(at + 1, len(tokens)) if tokens[k].type == "_COLON"), None)
        params = tokens[at + 1:colon] if colon is not None else []
        names = [t.value for t in params if t.type == "NAME"]
        if colon is None or any(t.type not in ("NAME", "_COMMA") for t in params) or tokens[colon].line != tokens[at].line:
            return parse_error("`lambda` is not Synsema: Synsema's lambda is `(x) => expression`",
                               _span(tokens[at], self.file))
        head = f"({', '.join(names)}) =>"
        return self.error(f"`lambda` is not Synsema: write `{head} expression`", tokens[at],
                          f"Rewrite as '{head} …'", [self.span_edit(tokens[at], tokens[colon], head)])

    def brace_block(self):
        tokens, i, tok = self.tokens, self.i, self.tok
        if tok.type not in ("LBRACE", "P_LBRACE") or self.first.type not in _BLOCK_OPENERS or self.source is None:
            return None
        line_rest = self.source[tok.start_pos + 1:].split("\n", 1)[0]
        if line_rest.strip():
            return None
        message = ("Synsema blocks are indented, not braced: end the line before the `{` and indent "
                   "the block below it (without a closing `}`)")
        edits = [Edit(tok.line, self.end(self.prev), tok.line, self.end(tok), "")]
        depth = 0
        for k in range(i + 1, len(tokens)):
            kind = tokens[k].type
            if kind in ("LBRACE", "P_LBRACE", "_LPAR", "LAMBDA_LPAR", "LSQB", "P_LSQB"):
                depth += 1
            elif kind in ("_RBRACE", "_RPAR", "_RSQB"):
                if depth == 0:
                    closer = tokens[k]
                    lines = self.source.split("\n")
                    if kind == "_RBRACE" and lines[closer.line - 1].strip() == "}":
                        edits.append(Edit(closer.line, 1, closer.line + 1, 1, ""))
                        return self.error(message, tok, "Remove the braces", edits)
                    break
                depth -= 1
        return parse_error(message, _span(tok, self.file))

    def return_type(self):
        tokens, i, tok = self.tokens, self.i, self.tok
        if tok.type != "RARROW" or self.first.type != "TASK":
            return None
        last = i
        while tokens[last + 1].type not in ("_NL", "$END", "_INDENT", "_DEDENT"):
            last += 1
        shown = " ".join(t.value for t in tokens[i:last + 1])
        return self.error(f"Synsema tasks declare no return type: remove `{shown}` (a parameter may "
                          "declare one: `task f(a: number)`)", tok, f"Remove '{shown}'",
                          [Edit(tok.line, self.end(self.prev), tok.line, self.end(tokens[last]), "")])

    def else_if(self):
        tokens, first, start = self.tokens, self.first, self.start
        if first.type == "NAME" and first.value == "else" and self.i > start and \
                tokens[start + 1].type == "NAME" and tokens[start + 1].value == "if":
            return self.error("`else if` is not Synsema: write `otherwise when condition` + an indented block",
                              first, "Replace with 'otherwise when'",
                              [self.span_edit(first, tokens[start + 1], "otherwise when")])
        return None

    def statement_word(self):
        first, tokens, start = self.first, self.tokens, self.start
        if not (first.type == "NAME" and first.value in REFLEXES and self.i > start):
            return None
        message = f"`{first.value}` is not Synsema: {REFLEXES[first.value]}"
        word = REFLEX_WORDS.get(first.value)
        if word is None:
            return parse_error(message, _span(first, self.file))
        edits = [self.span_edit(first, first, word)]
        if word == "let" and len(tokens) > start + 2 and tokens[start + 2].type == "_EQUAL":
            edits.append(self.span_edit(tokens[start + 2], tokens[start + 2], "be"))
        return self.error(message, first, f"Replace '{first.value}' with '{word}'", edits)


def _explain(tokens: list[Token], i: int, start: int, expected: set[str], file: str) -> SynError:
    """The message for an unexpected token that is no reflex of another language."""
    tok = tokens[i]
    span = _span(tok, file)
    first = tokens[start]
    prev = tokens[i - 1] if i > 0 else None

    if tok.type in TIER_C_KEYWORDS:
        return _unsupported(tok.value, span)
    if first.type == "NAME" and first.value in TIER_C_WORDS and i > start:
        return _unsupported(first.value, _span(first, file))
    if tok.type == "NAME" and tok.value in TIER_C_WORDS and prev is not None and prev.type == "EXPORT":
        return _unsupported(tok.value, span)
    if prev is not None and prev.type == "NAME" and prev.value in TIER_C_WORDS:
        return _unsupported(prev.value, _span(prev, file))  # `let v be judge ticket` + a block
    if tok.type == "_EQUAL" and first.type in ("NAME", "LET", "SET"):
        return parse_error("`=` is not assignment in Synsema: declare with `let x be value`, "
                           "change with `set x to value`", span)
    if i == start and tok.type in _ORPHANS:
        return parse_error(_ORPHANS[tok.type], span)
    if tok.type in KEYWORD_TYPES and prev is not None:
        what = _binding_position(tokens, i)
        if what:
            return parse_error(f"'{tok.value}' is a reserved word in Synsema; choose another name "
                               f"for the {what}", span)
    if tok.type == "_THEN" and first.type in ("WHEN", "_OTHERWISE"):
        return parse_error("inline `when … then` is an expression; as a statement write a block: "
                           "when c + indented body", span)
    if tok.type == "_NL" and prev is not None and prev.type == "RAISE":
        return parse_error("raise needs a message: write `raise \"what went wrong\"`, or "
                           "`raise err` to pass on a caught error", _span(prev, file))
    if tok.type == "_COLON" and i + 1 < len(tokens) and tokens[i + 1].type == "_NL":
        error = parse_error("Synsema blocks have no colon: remove the ':' at the end of the line "
                            "and indent the block below it", span)
        error.fixes = [Fix("Remove the ':'", [Edit(tok.line, tok.column, tok.line, tok.column + 1, "")])]
        return error
    if tok.type == "_OF":
        return parse_error("`of` needs a plain name on its left: write `name of value`, or "
                           "`value.name`", span)
    if "_INDENT" in expected and tok.type != "_INDENT":
        return parse_error("Expected indented block", span)
    if tok.type == "_INDENT":
        return parse_error("Unexpected token: INDENT (this line is indented more than the line "
                           "before, which does not open a block)", span)
    if tok.type == "ELLIPSIS":
        return parse_error("`...` (the spread) is only allowed in a list pattern after `is`", span)
    if tok.type in _OPEN_ENDED and _EXPRESSION_START <= expected:
        return parse_error(f"`{tok.value} …` must be wrapped in parentheses to be part of a larger "
                           "expression", span)
    if tok.type == "DURATION":
        return parse_error(f"A duration such as {tok.value} can only follow `within`", span)
    if "_NL" in expected and tok.type not in ("_NL", "$END", "_DEDENT"):
        hint = ""
        if prev is not None and prev is first and prev.type == "NAME" and tok.type in (
                "STRING", "NUMBER", "NAME", "TEMPLATE"):
            hint = f"; to call a task write {prev.value}({_source(tok)})"
        return parse_error(f"unexpected {_describe(tok)} after the end of this statement{hint} — "
                           "a statement ends at the end of its line", span)
    return parse_error(f"unexpected {_describe(tok)}; expected {_expected(expected)}", span)


def _binding_position(tokens: list[Token], i: int) -> str | None:
    """What `tokens[i]` would name, if it stands where a new name is bound."""
    prev = tokens[i - 1].type
    simple = {"LET": "variable after 'let'", "SET": "variable after 'set'",
              "EACH": "loop variable after 'each'", "TASK": "task name", "TYPE": "type name",
              "ENUM": "enum name", "_RECOVER": "error variable after 'recover'"}
    if prev in simple:
        return simple[prev]
    if prev == "_AS" and any(t.type == "USE" for t in tokens[max(0, i - 3):i]):
        return "module alias after 'as'"
    if prev in ("_LPAR", "LAMBDA_LPAR", "_COMMA", "P_LSQB", "P_LBRACE"):
        depth = 0
        for k in range(i - 1, -1, -1):
            t = tokens[k].type
            if t in ("_RPAR", "_RSQB", "_RBRACE"):
                depth += 1
            elif t in ("_LPAR", "LAMBDA_LPAR", "LSQB", "LBRACE", "P_LSQB", "P_LBRACE"):
                if depth == 0:
                    if t == "LAMBDA_LPAR" or (t == "_LPAR" and k >= 2 and tokens[k - 2].type == "TASK"):
                        return "parameter"
                    if t in ("P_LSQB", "P_LBRACE"):
                        return "pattern variable"
                    return None
                depth -= 1
            elif t in STATEMENT_START:
                return None
    return None


def unsupported_message(word: str) -> str:
    """What a tier-C feature (SPEC.md §2) says when a program uses it, as a statement or a require."""
    return (f"'{word}' is not supported by this implementation (Synsema for Python leaves agents, "
            "servers, judges and other tier-C features out of scope)")


def _unsupported(word: str, span: Span) -> SynError:
    return parse_error(unsupported_message(word), span)


def _span(tok: Token, file: str) -> Span:
    return Span(file, tok.line, tok.column)


def _source(tok: Token) -> str:
    if tok.type == "STRING":
        return '"' + tok.value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return tok.value


def _describe(tok: Token) -> str:
    if tok.type in _DESCRIPTION and tok.type not in ("NAME", "NUMBER", "STRING", "TEMPLATE", "DURATION"):
        return _DESCRIPTION[tok.type]
    text = _source(tok)
    if len(text) > 40:
        text = text[:37] + "..."
    return text if tok.type in ("STRING", "TEMPLATE") else f"'{text}'"


def _expected(expected: set[str]) -> str:
    if _EXPRESSION_START <= expected:
        return "an expression"
    names = sorted(_DESCRIPTION.get(t) or f"'{_SPELLING.get(t, t)}'" for t in expected)
    if len(names) > 6:
        names = names[:6] + ["…"]
    return " or ".join(names) if names else "nothing more"
