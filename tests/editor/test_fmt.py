"""`synsema fmt`: one canonical layout that keeps every comment, never changes what a program
means, and is idempotent — over every program in the repository, a table of layout rules,
random programs, and the real command line."""

from __future__ import annotations

import glob
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from synsema.lang.errors import SynError
from synsema.lang.format import LINE_LENGTH, format_source
from synsema.lang.parser import parse
from tests.conftest import ROOT, run_synsema

_PROGRAMS = sorted(glob.glob(str(ROOT / "examples" / "**" / "*.syn"), recursive=True)
                   + glob.glob(str(ROOT / "tests" / "**" / "*.syn"), recursive=True))


def _parses(path: str) -> bool:
    try:
        parse(open(path, encoding="utf-8").read().lstrip("\ufeff"), path)
    except (SynError, UnicodeDecodeError):
        return False
    return True


_VALID = [p for p in _PROGRAMS if _parses(p)]


def _comments(source: str) -> list[str]:
    """The comment texts of a program, in order: the `--` runs in the gaps between tokens."""
    from synsema.lang.lexer import token_end, tokenize
    source = source.lstrip("\ufeff").replace("\r\n", "\n")
    found, end = [], 0
    for tok in tokenize(source, "x.syn"):
        found += [m.group().rstrip() for m in re.finditer(r"--[^\n]*", source[end:tok.start_pos])]
        end = max(end, token_end(tok, source))
    return found + [m.group().rstrip() for m in re.finditer(r"--[^\n]*", source[end:])]


def test_the_repository_has_programs_to_format():
    assert len(_VALID) > 100


@pytest.mark.parametrize("path", _VALID, ids=lambda p: p.replace(str(ROOT) + "/", ""))
def test_every_program_keeps_its_meaning_and_comments_and_is_stable(path):
    source = open(path, encoding="utf-8").read()
    once = format_source(source, path)
    assert parse(once, path).body == parse(source.lstrip("\ufeff"), path).body
    assert format_source(once, path) == once
    assert _comments(once) == _comments(source)
    code_lines = [line for line in once.splitlines() if not line.lstrip().startswith("--")]
    assert all(len(line) <= LINE_LENGTH or any(q in line for q in "`\"'-") for line in code_lines)


LAYOUT = [
    # spacing around operators, commas, colons, calls, indexes, members, unary minus
    ("let   x be 1+2*3\n", "let x be 1 + 2 * 3\n"),
    ("print( f( 1 ,2 ) , xs [ 0 ] , m . k )\n", "print(f(1, 2), xs[0], m.k)\n"),
    ("let m be {\"a\" :1,\"b\":[ ]}\n", "let m be {\"a\": 1, \"b\": []}\n"),
    ("give-1\n", "give -1\n"),
    ("let y be a - -b\n", "let y be a - -b\n"),
    ("let y be - -b\n", "let y be - -b\n"),
    ("let y be x**-2\n", "let y be x ** -2\n"),
    ("when x not  in xs and not(y)\n    stop\n", "when x not in xs and not (y)\n    stop\n"),
    ("task f(a:number,b = 2)\n    give a\n", "task f(a: number, b = 2)\n    give a\n"),
    ("let g be (x)=>x|>h\n", "let g be (x) => x |> h\n"),
    ("print(f(name=1))\n", "print(f(name = 1))\n"),
    ("let s be 'single'  \n", "let s be 'single'\n"),
    ("let t be `a {x+1} b`\n", "let t be `a {x+1} b`\n"),
    # blank lines: at most one, none at a block's start, one around top-level definitions
    ("let a be 1\n\n\n\nlet b be 2\n", "let a be 1\n\nlet b be 2\n"),
    ("task f()\n\n    give 1\nprint(f())\n", "task f()\n    give 1\n\nprint(f())\n"),
    ("let a be 1\ntest \"t\"\n    assert(true)\n", "let a be 1\n\ntest \"t\"\n    assert(true)\n"),
    # indentation is four spaces whatever the source used
    ("when x\n  print(1)\n  when y\n   print(2)\n", "when x\n    print(1)\n    when y\n        print(2)\n"),
    # comments: trailing ones get two spaces, block-end ones stay in their block
    ("print(1)    -- one\n", "print(1)  -- one\n"),
    ("task f()\n    give 1\n    -- still in f\n-- at top\nprint(2)\n",
     "task f()\n    give 1\n    -- still in f\n\n-- at top\nprint(2)\n"),
    # a group the author broke stays broken, one element per line, with a trailing comma
    ("let xs be [1,\n  2]\n", "let xs be [\n    1,\n    2,\n]\n"),
    ("let m be {\n  \"k\": 1, -- one\n  -- next\n  \"j\": 2}\n",
     "let m be {\n    \"k\": 1,  -- one\n    -- next\n    \"j\": 2,\n}\n"),
    # no trailing comma where the grammar takes none: a parenthesised expression, an index
    ("let y be (a +\n  b)\n", "let y be (\n    a + b\n)\n"),
    ("let y be xs[\n  0]\n", "let y be xs[\n    0\n]\n"),
    ("require net(\n \"a.example\")\n", "require net(\n    \"a.example\"\n)\n"),
    # a line past the limit breaks its largest group
    ("print(" + ", ".join(f"item_{i}" for i in range(20)) + ")\n",
     "print(\n" + "".join(f"    item_{i},\n" for i in range(20)) + ")\n"),
]


@pytest.mark.parametrize("source, expected", LAYOUT)
def test_layout_rules(source, expected):
    assert format_source(source, "x.syn") == expected
    assert format_source(expected, "x.syn") == expected


def test_a_program_that_does_not_parse_is_an_error_with_its_position():
    with pytest.raises(SynError) as caught:
        format_source("print(1 +\n", "bad.syn")
    assert caught.value.span is not None and caught.value.span.file == "bad.syn"


_VOCAB = ["x", "y", "f", "1", "2.5", "3d", '"s"', "`a{x}`", "+", "-", "*", "**", "==", "not", "and",
          "(", ")", "[", "]", "{", "}", ",", ":", ".", "|>", "-- c", "\n", "\n    ", "=>"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(_VOCAB), max_size=40).map(" ".join))
def test_random_programs_that_parse_format_to_the_same_program(source):
    program = "let x be 1\nlet y be 2\ntask f(a)\n    give a\nprint(" + source + ")\n"
    try:
        parse(program, "fuzz.syn")
    except SynError:
        return
    once = format_source(program, "fuzz.syn")   # raises if the meaning changed
    assert format_source(once, "fuzz.syn") == once


# ---------------------------------------------------------------- the command line
def test_fmt_rewrites_files_and_check_reports_them(tmp_path):
    ugly = tmp_path / "ugly.syn"
    ugly.write_text("print( 1+2 )\n")
    tidy = tmp_path / "tidy.syn"
    tidy.write_text("print(1)\n")
    checked = run_synsema("fmt", "--check", str(tmp_path))
    assert checked.returncode == 1
    assert f"would reformat {ugly}" in checked.stderr
    assert "1 file would be reformatted, 1 file left unchanged." in checked.stderr
    assert ugly.read_text() == "print( 1+2 )\n"
    shown = run_synsema("fmt", "--diff", str(ugly))
    assert shown.returncode == 0 and "-print( 1+2 )\n+print(1 + 2)\n" in shown.stdout
    done = run_synsema("fmt", str(tmp_path))
    assert done.returncode == 0 and f"reformatted {ugly}" in done.stderr
    assert ugly.read_text() == "print(1 + 2)\n" and tidy.read_text() == "print(1)\n"
    assert run_synsema("fmt", "--check", str(tmp_path)).returncode == 0
    assert [p.name for p in tmp_path.iterdir()] != [] and not list(tmp_path.glob(".fmt-*"))


def test_fmt_reads_stdin_and_reports_bad_input(tmp_path):
    piped = run_synsema("fmt", "-", stdin="when x\n  print( 1 )\n")
    assert piped.returncode == 0 and piped.stdout == "when x\n    print(1)\n"
    broken = tmp_path / "broken.syn"
    broken.write_text("print(1 +\n")
    failed = run_synsema("fmt", str(broken))
    assert failed.returncode == 1
    assert f"error: cannot format {broken}: " in failed.stderr and f"{broken}:1:" in failed.stderr
    assert "Traceback" not in failed.stderr
    missing = run_synsema("fmt", str(tmp_path / "nope.syn"))
    assert missing.returncode == 2 and "no such file or directory" in missing.stderr
    assert run_synsema("fmt", "--bogus", str(broken)).returncode == 2
