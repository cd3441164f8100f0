"""synsema.lang.parser's own LALR loop against Lark's stock LALR parser, on the same grammar and tokens.

lang.parser drives the shipped tables itself (grammar/synsema.tables.json, see lang.tables),
shapes each rule's children once per rule instead of through Lark's tree builder, and bounds the nesting depth on the way instead of walking the
tree afterwards. The reference here is the plain way to do the same job: Lark's own
`parse_interactive` fed the `Token` list of lang.lexer.tokenize, with lang.transform's Builder as
its inline transformer (Lark's child filters, placeholders and inlined rules; each token child
handed to the builder as its index, as lang.parser shifts it), then the full `check_nesting`
walk over the tree, for the file and for every template hole. Both must give the same tree, spans included, or the same
error at the same position, on every input.
"""

from importlib import resources
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lark import Lark, Token
from lark.exceptions import UnexpectedInput
from lark.lexer import Lexer

from synsema.lang import ast, checks, parse_errors
from synsema.lang import parser as parser_module
from synsema.lang import tables as grammar_tables
from synsema.lang.errors import Span, SynError, parse_error
from synsema.lang.lexer import HARD_KEYWORDS, PUNCTUATION, scan
from synsema.lang.lexer import Token as SynToken
from synsema.lang.parser import parse, parse_expression
from synsema.lang.transform import Builder
from tests.test_parser_golden import EDGES, tree_dump

ROOT = Path(__file__).resolve().parent.parent


class _Fed(Lexer):
    def __init__(self, conf):
        pass

    def lex(self, data):
        raise NotImplementedError


class _TokensAsIndices:
    """The Builder as Lark's transformer: each `Token` child becomes its index in the token list
    being fed (`_at`), as lang.parser hands them to the builder."""

    def __init__(self, builder):
        self.builder = builder
        self._at = {}

    def __getattr__(self, name):
        method = getattr(Builder, name, None)
        if method is None or name.startswith("_"):
            raise AttributeError(name)

        def build(children):
            index = self._at  # the list being fed now (a template hole's inside its template's)
            return method(self.builder, [index[id(c)] if isinstance(c, SynToken) else c for c in children])
        return build


class StockLark:
    """parse / parse_expression built the plain way, on Lark's own parser."""

    def __init__(self):
        self.builder = Builder(self.parse_expression)
        self.transformer = _TokensAsIndices(self.builder)
        grammar = resources.files("synsema.grammar").joinpath("synsema.lark").read_text(encoding="utf-8")
        self.lark = Lark(grammar, parser="lalr", lexer=_Fed, strict=True, maybe_placeholders=True,
                         start=["module", "lone_expr"], transformer=self.transformer)

    def feed(self, columns, start, file):
        tokens = columns.tokens()
        state = self.lark.parse_interactive(start=start).parser_state
        builder = self.builder
        outer = (builder.file, builder.types, builder.values, builder.lines, builder.cols,
                 self.transformer._at)
        builder.file, builder.types, builder.values, builder.lines, builder.cols = (
            file, columns.types, columns.values, columns.lines, columns.cols)
        self.transformer._at = {id(tok): k for k, tok in enumerate(tokens)}
        i = 0
        try:
            for i, tok in enumerate(tokens):
                state.feed_token(tok)
            last = tokens[-1] if tokens else None
            tokens = tokens + [Token("$END", "", 0, last.line if last else 1,
                                     last.column if last else 1)]
            i = len(tokens) - 1
            return state.feed_token(tokens[-1], True)
        except UnexpectedInput as e:
            raise parse_errors.explain_unexpected(tokens, i, set(e.expected), file) from None
        finally:
            (builder.file, builder.types, builder.values, builder.lines, builder.cols,
             self.transformer._at) = outer

    def parse(self, source, file):
        if source.startswith("\ufeff"):
            source = source[1:]
        module = self.feed(scan(source, file), "module", file)
        checks.check_nesting(module)
        return module

    def parse_expression(self, source, file, line=1, col=1):
        tokens = scan(source, file, line, col, expression=True)
        if not tokens:
            raise parse_error("Expected an expression", Span(file, line, col))
        expr = self.feed(tokens, "lone_expr", file)
        checks.check_nesting(ast.Module(file, [ast.ExprStmt(expr, span=expr.span)]))
        return expr


STOCK = StockLark()


def outcome(fn, source):
    try:
        return ("tree", tree_dump(fn(source, "d.syn")))
    except SynError as err:
        span = err.span
        return ("error", err.phase, err.message, span.file, span.line, span.col)


def same(source):
    assert outcome(parse, source) == outcome(STOCK.parse, source), source[:200]
    assert outcome(parse_expression, source) == outcome(STOCK.parse_expression, source), source[:200]


PROGRAMS = sorted(p for pattern in ("examples/*.syn", "tests/conformance/*.syn", "tests/**/*.syn",
                                    "bench/programs/*.syn")
                  for p in {str(q) for q in ROOT.glob(pattern)})
LINES = [line for p in PROGRAMS for line in Path(p).read_text(encoding="utf-8").splitlines()]


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: str(Path(p).relative_to(ROOT)))
def test_every_program_in_the_repository(path):
    same(Path(path).read_text(encoding="utf-8"))


def test_the_parse_benchmark_input():
    import sys
    sys.path.insert(0, str(ROOT / "bench"))
    from gen_parse import generate
    same(generate(230)[0])


@pytest.mark.parametrize("promote_after", (1, 10**9), ids=("generated reduces", "general reduces"))
def test_generated_and_general_reduces(monkeypatch, promote_after):
    """lang.parser generates a rule's reduce once the rule is used often; both kinds agree with
    the reference, errors and template holes included."""
    import sys
    sys.path.insert(0, str(ROOT / "bench"))
    from gen_parse import generate
    tables = parser_module.tables_from(grammar_tables.tables_path())
    tables.promote_after = promote_after
    monkeypatch.setattr(parser_module, "_TABLES", tables)
    for source in [generate(60)[0], *EDGES, *LINES[::7]]:
        same(source)
    generated = {e[2].__qualname__.startswith("reduce ") for row in tables.actions for e in row.values()
                 if e[0] is False}
    assert generated == ({True, False} if promote_after == 1 else {False})


WORDS = (list(HARD_KEYWORDS) + list(PUNCTUATION) + [
    "x", "f", "_", "test", "use", "export", "enum", "raise", "about", "between", "under", "given",
    "for", "within", "return", "1", "2.5", "3d", "90s", '"s"', "`a{x}b`", "`{x + {k: 1}[\"k\"]}`",
    "private", "declassify", "not in", "...", "\n", "\n    ", "\n        ", "(", ")", "[", "]"])
FUZZ = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(st.lists(st.sampled_from(WORDS), max_size=40).map(" ".join))
def test_token_soup(source):
    same(source)


@FUZZ
@given(st.lists(st.sampled_from(LINES), min_size=1, max_size=12).map("\n".join))
def test_lines_of_real_programs_recombined(source):
    same(source)


@FUZZ
@given(st.sampled_from(LINES), st.integers(0, 200), st.sampled_from(WORDS), st.booleans())
def test_real_lines_with_one_word_changed(line, at, word, insert):
    words = line.split(" ")
    k = at % (len(words) + 1)
    same(" ".join(words[:k] + [word] + words[k + (0 if insert else 1):]))


@pytest.mark.parametrize("source", EDGES, ids=range(len(EDGES)))
def test_edge_cases(source):
    same(source)


DEEP = [  # each makes a tree about n levels deep, one of them in its own way
    lambda n: "let x be " + "- " * n + "1",
    lambda n: "let x be " + "not " * n + "x",
    lambda n: "let x be " + " ** ".join(["2"] * (n + 1)),
    lambda n: "let x be " + " of ".join(["a"] * (n + 1)),
    lambda n: "let x be a" + ".b" * n,
    lambda n: "let x be f" + "(1)" * n,
    lambda n: "let x be a" + "[0]" * n,
    lambda n: "let x be `{" + "- " * n + "1}`",
    lambda n: "let x be {`k{" + "- " * n + "1}`: 1}",
    lambda n: "let x be " + "`{" * 5 + "- " * n + "1" + "}`" * 5,
    lambda n: "let x be (a) => " + "- " * n + "1",
    lambda n: "f(" + "- " * n + "1)",
    lambda n: "let p be private(1)\nlet x be " + "- " * n + "1",
    lambda n: "let x be " + "- " * n + "1\nlet p be declassify(1, 2, x)",
    lambda n: "let x be `{private(1)}` + " + "- " * n + "1",
    lambda n: "match x\n    is " + "- " * n + "1\n        give 1",
    lambda n: "".join("    " * k + "when x\n" for k in range(n // 2)) + "    " * (n // 2) + "give 1",
]


@pytest.mark.parametrize("n", (399, 400, 401))
def test_nesting_at_the_limit(n):
    for make in DEEP:
        same(make(n))


@pytest.mark.parametrize("n", (99, 100, 101))
def test_brackets_at_the_limit(n):
    for source in ["let x be " + "(" * n + "1" + ")" * n, "let x be " + "[" * n + "]" * n,
                   "let x be " + "{a: " * n + "1" + "}" * n, "let x be " + "(" * n]:
        same(source)


def test_flat_chains_of_any_length():
    for source in ["let y be " + " + ".join(["a"] * 2000), "let y be " + " and ".join(["a"] * 2000),
                   "let y be a" + " |> f" * 2000, "let y be " + " < ".join(["a"] * 1000)]:
        same(source)
