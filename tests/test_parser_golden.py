"""The front end against what it answered before its issue-31 rework, recorded.

tests/parser_golden.json holds, for a fixed corpus of inputs, a digest of everything `parse` and
`parse_expression` answered when it was recorded: the whole tree with every node's class, fields
and span, or the error's phase, message, position, hint, code and fixes; and of the token list
`tokenize` gave (types, values, texts, offsets, lines, columns) or its error. It was recorded with
the parser as it was before the token columns and the index-shifting LALR loop (commit bec573c),
so a change in any answer, however small, fails here. The corpus is generated from a fixed seed
and vocabulary (valid and invalid programs, mutations, every layout and literal edge case), plus
every .syn file of the repository whose text is the one recorded (a file edited since is
covered only by tests/test_parser_differential.py).

`python tests/test_parser_golden.py --record` rewrites the file: only for a deliberate change
of the language, never to make this test pass.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path

import pytest

from synsema.lang import ast
from synsema.lang.errors import SynError
from synsema.lang.lexer import tokenize
from synsema.lang.parser import parse, parse_expression

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).with_name("parser_golden.json")
SEED = 31

_WORDS = [
    "let", "be", "set", "to", "when", "otherwise", "each", "in", "while", "match", "is", "then", "stop",
    "task", "give", "type", "as", "of", "with", "agent", "spawn", "share", "observe", "signal", "wait_for",
    "require", "sandbox", "invariant", "intent", "approve", "confirm", "ask", "show", "reason", "decide",
    "analyze", "generate", "try", "recover", "measure", "checkpoint", "and", "or", "not", "true", "false",
    "nothing", "test", "use", "export", "enum", "raise", "log", "trace", "about", "between", "under",
    "given", "for", "within", "return", "if", "x", "xs", "f", "_", "é", "日本", "private", "declassify",
    "+", "-", "*", "/", "//", "%", "**", "==", "!=", "<", ">", "<=", ">=", "=", "=>", "|>", "->", "(", ")",
    "[", "]", "{", "}", ",", ".", ":", "...", "not in", "1", "2.5", "1_0", "1__0", "0x1f", "0b2", "3d",
    "1e5", "1e999", "90s", "2m", "3x", '"s"', "'t'", '"a\\tb\\u00e9"', '"\\q"', '"open', "`a{x}b`",
    "`{x + {k: 1}[\"k\"]}`", "`\\{`", "`{`", "`{}`", "`a\nb`", "--", "-- note", "#", "\\", "`", "\t",
    "\f", "\r\n", "\r", "\n", "\n    ", "\n        ", "\n\t", "\n  ", "\ufeff", "\x00", "$",
]
_LINES = [
    "let x be 1", "set x to x + 1", "set xs[0] to f(x)", "set m.k to 2", "when x > 1", "otherwise",
    "otherwise when x < 0", "each i in xs", "while true", "stop", "task f(a, b = 2, c: text = \"t\")",
    "give a", "give", "match x", "is [h, ...t]", "is {a, b: 1}", "is Shape.circle(r) when r > 1",
    "is 1", "is _", "try", "recover err", "print(`v={x}`)", "type P", "    a: number", "enum E",
    "    red", "    circle(r)", "log x", "sandbox", "sandbox under net(\"h\")", "test \"t\"",
    "require fs.read(\"/tmp\")", "use \"./m.syn\" as m", "export let y be 2", "intent \"do it\"",
    "invariant \"pos\" x > 0", "let r be reason about x with a = 1, b = 2", "let d be decide between [1, 2] given x",
    "let g be generate text given x with n = 1", "let h be ask \"q\" within 90s", "show x as \"t\"",
    "let l be (a, b) => a + b", "let y be when x then 1 otherwise 2", "let z be x |> f |> g(1)",
    "let w be not x in xs and y not in ys or z", "let v be -x ** 2 // 3 % 4", "let q be name of m",
    "let c be {type: 1, \"k\": [1, 2], 3: x, `t{x}`: 4}", "checkpoint \"c\"", "measure \"m\"",
    "let p be private(1)", "let s be declassify(p, \"why\")", "f(1, b = 2)", "f(b = 2, 1)", "x == 1",
    "return x", "if x", "def f()", "let 1 be x", "set f(x) to 1", "x = 1",
]


EDGES = [  # layout, literals and the lexer's fast paths at their borders
    "", "\n", "\n\n  \n", "   ", "-- only a comment", "-- c\n-- d\n", "\ufefflet x be 1\n", "\ufeff",
    "let x be 1", "let x be 1\r\nlet y be 2\r\n", "let x be 1\rlet y be 2\r", "when x\r\n    give 1\r\n",
    "when x\n\tgive 1\n", "when x\n\tgive 1\n    give 2\n", "when x\n \t give 1\n", "when x\n\f    give 1\n",
    "when x\n    give 1\n  give 2\n", "when x\n    when y\n        give 1\n\n    -- c\n    give 2\ngive 3",
    "when x\n    give 1\n    // not a comment\n", "when x\n    -x\n", "when x\n    - x\n", "let a be b--1",
    "let a be b --1", "let a be b -- c\n", "let x be " + "9" * 4000, "let x be " + "9" * 4001, "let x be 1.5 + 1.e",
    "let x be [1...]", "let x be 1..2", "let x be 007 + 0x1F + 0o7 + 0b1 + 1_000 + 2.5e3 + 3d + 1e999",
    "let x be 12abc", "let x be 1_", "let t be ask \"q\" within 90s", "let t be ask \"q\" within 1.5h",
    'let s be "plain" + \'single\' + "" + \'\'', 'let s be "tab\\there \\u00e9 \\u{1F600} \\q"',
    'let s be "\\uD83D\\uDE00"', 'let s be "\\u{110000}"', 'let s be "open', 'let s be "a\\', "let s be 'a\nb'",
    "let s be `a{x}b{`n{y}`}c \\{ \\` \\u{41}`", "let s be `{`", "let s be `{}`", "let s be `a\nb{x}\nc`",
    "let é be \"日本\"", "let 日本 be 1", "let x be ١", "let x be #", "let x be \x00", "let x be $",
    "let f be (x) => x", "let f be (x)\n=> x", "let f be ((x) => x)", "g((x) => x, (y) => (z) => y)",
    "let f be (x) (y) => 1", "let v be f(x)(y)", "let p be (a, b)", "f(\n    1,\n    2\n)\n", "[(]", "(", ")",
    "x not in y", "x not  in y", "not in", "let m be {type: 1, when: 2}", "let x be a.when.type",
]


def _layout(rng: random.Random, lines: list[str]) -> str:
    newline = rng.choice(["\n", "\n", "\r\n", "\r"])
    out = []
    for line in lines:
        indent = rng.choice(["", "", "    ", "        ", "\t", "  ", "    \t"])
        out.append(indent + line)
    text = newline.join(out)
    return text + newline if rng.random() < 0.7 else text


def corpus() -> list[str]:
    """The generated inputs (the same list on every run: a fixed seed and vocabulary)."""
    rng = random.Random(SEED)
    inputs = [*EDGES, "x", "\t\n\t\n"]
    for _ in range(700):  # whole programs of real lines, re-indented
        inputs.append(_layout(rng, [rng.choice(_LINES) for _ in range(rng.randint(1, 14))]))
    for _ in range(700):  # a real line with one word changed, inserted or dropped
        words = rng.choice(_LINES).split(" ")
        k = rng.randint(0, len(words))
        action = rng.randrange(3)
        if action == 0:
            words[k:k + 1] = [rng.choice(_WORDS)]
        elif action == 1:
            words.insert(k, rng.choice(_WORDS))
        else:
            del words[k:k + 1]
        inputs.append(" ".join(words))
    for _ in range(700):  # token soup, spaced and glued
        glue = rng.choice([" ", " ", ""])
        inputs.append(glue.join(rng.choice(_WORDS) for _ in range(rng.randint(0, 30))))
    alphabet = "ab_1 ()[]{}`'\"\\-+=>.,:\n\t\r#é日\x00"
    for _ in range(300):  # characters
        inputs.append("".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30))))
    deep = [lambda n: "let x be " + "- " * n + "1", lambda n: "let x be " + "not " * n + "x",
            lambda n: "let x be a" + ".b" * n, lambda n: "let x be f" + "(1)" * n,
            lambda n: "let x be `{" + "- " * n + "1}`", lambda n: "let x be " + "(" * n + "1" + ")" * n,
            lambda n: "match x\n    is " + "- " * n + "1\n        give 1",
            lambda n: "".join("    " * k + "when x\n" for k in range(n // 2)) + "    " * (n // 2) + "give 1"]
    for make in deep:
        for n in (99, 100, 101, 399, 400, 401):
            inputs.append(make(n))
    return inputs


def tree_dump(value):
    """Every node's class, fields and span, in order (iterative: trees can be deep)."""
    out, todo = [], [value]
    while todo:
        item = todo.pop()
        if isinstance(item, ast.Node):
            span = item.span
            out.append((type(item).__name__, None if span is None else (span.file, span.line, span.col)))
            todo.extend(reversed([getattr(item, f) for f in item._fields]))
        elif isinstance(item, (list, tuple)):
            out.append((type(item).__name__, len(item)))
            todo.extend(reversed(item))
        else:
            out.append((type(item).__name__, repr(item)))
    return out


def _answer(fn, source: str):
    try:
        return ("tree", tree_dump(fn(source, "g.syn")))
    except SynError as err:
        span = err.span
        fixes = [(fix.title, [(e.line, e.col, e.end_line, e.end_col, e.text, e.expects) for e in fix.edits])
                 for fix in err.fixes]
        return ("error", err.phase, err.message, None if span is None else (span.file, span.line, span.col),
                err.hint, err.code, fixes)


def digest(source: str) -> str:
    answers = (_answer(parse, source), _answer(parse_expression, source))
    return hashlib.sha256(repr(answers).encode("utf-8")).hexdigest()[:20]


def token_digest(source: str) -> str:
    """What lang.lexer.tokenize answered (the editor, the formatter and error messages read it)."""
    answers = []
    for options in ({}, {"expression": True}, {"line": 3, "col": 7}):
        try:
            answers.append([(t.type, t.value, str(t), t.start_pos, t.line, t.column)
                            for t in tokenize(source, "g.syn", **options)])
        except SynError as err:
            answers.append((err.phase, err.message, err.span.line, err.span.col))
    return hashlib.sha256(repr(answers).encode("utf-8")).hexdigest()[:20]


def _text_key(source: str) -> str:
    return hashlib.sha256(source.encode("utf-8")).hexdigest()[:20]


def repository_files() -> list[Path]:
    patterns = ("examples/**/*.syn", "tests/**/*.syn", "bench/**/*.syn")
    files = {p for pattern in patterns for p in ROOT.glob(pattern)}
    files |= set((ROOT.parent / "shared" / "acceptance").glob("*.syn"))
    return sorted(files)


def _bench_inputs() -> list[str]:
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        from gen_parse import generate
    finally:
        sys.path.remove(str(ROOT / "bench"))
    return [generate(2000)[0]]


def record() -> None:
    texts = [p.read_text(encoding="utf-8") for p in repository_files()] + _bench_inputs()
    data = {"corpus": [digest(source) for source in corpus()],
            "tokens": [token_digest(source) for source in corpus()],
            "texts": {_text_key(source): digest(source) for source in texts}}
    GOLDEN.write_text(json.dumps(data, indent=0, sort_keys=True) + "\n", encoding="utf-8")


GOLDEN_DATA = json.loads(GOLDEN.read_text(encoding="utf-8")) if GOLDEN.exists() else None


def test_the_generated_corpus_answers_as_recorded():
    inputs = corpus()
    assert len(inputs) == len(GOLDEN_DATA["corpus"])
    changed = [k for k, source in enumerate(inputs) if digest(source) != GOLDEN_DATA["corpus"][k]]
    assert not changed, [inputs[k][:120] for k in changed[:5]]


def test_the_generated_corpus_tokenizes_as_recorded():
    inputs = corpus()
    changed = [k for k, source in enumerate(inputs) if token_digest(source) != GOLDEN_DATA["tokens"][k]]
    assert not changed, [inputs[k][:120] for k in changed[:5]]


def test_repository_programs_answer_as_recorded():
    texts = [p.read_text(encoding="utf-8") for p in repository_files()] + _bench_inputs()
    recorded = GOLDEN_DATA["texts"]
    known = [source for source in texts if _text_key(source) in recorded]
    assert len(known) >= 100  # most files are as recorded; the rest are the differential test's
    changed = [source[:120] for source in known if digest(source) != recorded[_text_key(source)]]
    assert not changed, changed[:5]


if __name__ == "__main__" and sys.argv[1:] == ["--record"]:
    record()
