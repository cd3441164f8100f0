"""A Pygments lexer for Synsema, used by the REPL to colour what is being typed.

Colouring runs on every keystroke over text that is usually incomplete or wrong, so this lexer
never fails and never asks the real front end (lang.lexer) anything; it only borrows that
module's keyword tables, so a word reserved there is coloured as a keyword here. Context the
real lexer settles with a token of lookahead is approximated with regular-expression lookahead:
a soft keyword (`test`, `use`, `export`, `enum`, `raise`, and the clause words `about`,
`between`, `under`, `given`, `for`, `within`) is coloured as one unless a `(`, `.`, `[`, `=` or
`|>` follows it, and any word right after `.` or right before a `:` field colon is a plain name.

Only the REPL imports this module, so nothing else pays for Pygments. It is also registered as
a Pygments plugin (the `pygments.lexers` entry point in pyproject.toml), so `pygmentize -l
synsema`, Sphinx and MkDocs find it by name or by the `*.syn` file name.
"""

from __future__ import annotations

from pygments.lexer import RegexLexer, bygroups, include, words
from pygments.token import (Comment, Error, Keyword, Name, Number, Operator, Punctuation,
                            String, Whitespace)

from synsema.lang.lexer import AFTER_WORDS, CLAUSE_WORDS, HARD_KEYWORDS, STATEMENT_WORDS

_NAME = r"[^\W\d]\w*"
_CONSTANTS = ("true", "false", "nothing")
_WORD_OPERATORS = ("and", "or", "not", "in")
_KEYWORDS = tuple(sorted(w for w in HARD_KEYWORDS if w not in _CONSTANTS + _WORD_OPERATORS))
# After a soft word, these make it a plain name (a call, member access, index, named argument, pipe).
_NOT_SOFT = r"(?!\s*(?:[(.\[]|=(?!=)|\|>))"


class SynsemaLexer(RegexLexer):
    """Keywords, soft keywords, quoted strings, backtick templates with `{…}` holes, numbers
    (hex/octal/binary, floats, `d` decimals, `90s` durations), `--` comments and operators."""

    name = "Synsema"
    aliases = ["synsema", "syn"]
    filenames = ["*.syn"]

    tokens = {
        "root": [
            # A statement word opens its construct only at the start of a line.
            (r"^([ \t]*)((?:export[ \t]+)?)(enum)([ \t]+)(" + _NAME + ")",
             bygroups(Whitespace, Keyword.Pseudo, Keyword.Pseudo, Whitespace, Name.Class)),
            (r"^([ \t]*)((?:export[ \t]+)?)(" + "|".join(STATEMENT_WORDS) + r")\b" + _NOT_SOFT,
             bygroups(Whitespace, Keyword.Pseudo, Keyword.Pseudo)),
            (r"\b(task)([ \t]+)(" + _NAME + ")", bygroups(Keyword, Whitespace, Name.Function)),
            (r"\b(type)([ \t]+)(" + _NAME + ")", bygroups(Keyword, Whitespace, Name.Class)),
            include("expression"),
        ],
        "expression": [
            (r"\n", Whitespace),
            (r"[ \t\f]+", Whitespace),
            (r"--[^\n]*", Comment.Single),
            (r'"', String.Double, "dquote"),
            (r"'", String.Single, "squote"),
            (r"`", String.Backtick, "template"),
            (r"0[xX][0-9a-fA-F]+(?:_[0-9a-fA-F]+)*\b", Number.Hex),
            (r"0[oO][0-7]+(?:_[0-7]+)*\b", Number.Oct),
            (r"0[bB][01]+(?:_[01]+)*\b", Number.Bin),
            (r"\d+(?:_\d+)*(?:\.\d+(?:_\d+)*)?(?:[eE][+-]?\d+(?:_\d+)*)?d\b", Number),
            (r"\d+(?:_\d+)*[smh]\b", Number),
            (r"\d+(?:_\d+)*(?:\.\d+(?:_\d+)*(?:[eE][+-]?\d+(?:_\d+)*)?|[eE][+-]?\d+(?:_\d+)*)",
             Number.Float),
            (r"\d+(?:_\d+)*", Number.Integer),
            (r"\.\.\.", Operator),
            (r"(\.)(\s*)(" + _NAME + ")", bygroups(Punctuation, Whitespace, Name.Attribute)),
            # A keyword spelled as a record field or map key (`type: text`, `{to: 1}`) is a name.
            (r"(?!intent\b|invariant\b)" + _NAME + r"(?=[ \t]*:(?!:))", Name),
            (words(_CONSTANTS, suffix=r"\b"), Keyword.Constant),
            (r"not\s+in\b", Operator.Word),
            (words(_WORD_OPERATORS, suffix=r"\b"), Operator.Word),
            (words(_KEYWORDS, suffix=r"\b"), Keyword),
            (words(tuple(CLAUSE_WORDS) + tuple(AFTER_WORDS), suffix=r"\b" + _NOT_SOFT), Keyword.Pseudo),
            (_NAME, Name),
            (r"//|\*\*|==|!=|<=|>=|=>|\|>|->|[-+*/%<>=]", Operator),
            (r"[()\[\]{},.:]", Punctuation),
            (r".", Error),  # a character the language rejects (`#`, `@`, …): flagged as the user types
        ],
        "dquote": [
            (r'\\(?:u\{[0-9a-fA-F]{1,6}\}|u[0-9a-fA-F]{4}|.)', String.Escape),
            (r'[^"\\\n]+', String.Double),
            (r'"', String.Double, "#pop"),
            (r"\n", Whitespace, "#pop"),  # unterminated: the next line is code again
        ],
        "squote": [
            (r"\\(?:u\{[0-9a-fA-F]{1,6}\}|u[0-9a-fA-F]{4}|.)", String.Escape),
            (r"[^'\\\n]+", String.Single),
            (r"'", String.Single, "#pop"),
            (r"\n", Whitespace, "#pop"),
        ],
        "template": [
            (r"\\(?:u[0-9a-fA-F]{4}|.)", String.Escape),
            (r"\{", String.Interpol, "hole"),
            (r"`", String.Backtick, "#pop"),
            (r"[^`\\{]+", String.Backtick),
            (r"\\", String.Backtick),
        ],
        "hole": [
            (r"\}", String.Interpol, "#pop"),
            (r"\{", Punctuation, "braces"),
            include("expression"),
        ],
        "braces": [
            (r"\}", Punctuation, "#pop"),
            (r"\{", Punctuation, "#push"),
            include("expression"),
        ],
    }
