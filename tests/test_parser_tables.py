"""The parse tables ship as data (grammar/synsema.tables.json) and are used only when sound.

The shipped file must be exactly what Lark builds from the grammar today (so it can never go
stale unnoticed), and the parser on it must give the same trees as a parser on tables built
just now. A damaged, stale, foreign or ill-formed file is never used: the tables are rebuilt
from the grammar instead, and parsing is unchanged. Running a program never imports Lark.
(tests/test_parser_differential.py compares the parser on the shipped tables with Lark's own
LALR parser, over the corpus and generated programs.)
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import ROOT, synsema_env
from synsema.lang import parser, tables
from test_parser_differential import LINES, PROGRAMS, WORDS, outcome

GRAMMAR = tables.grammar_text()
SHIPPED = Path(tables.tables_path())


def test_the_shipped_tables_are_the_grammars():
    assert SHIPPED.read_text(encoding="utf-8") == tables.serialize(tables.build(GRAMMAR), GRAMMAR), (
        "grammar/synsema.tables.json is stale: run `python -m synsema.lang.tables`")
    assert subprocess.run([sys.executable, "-m", "synsema.lang.tables", "--check"], cwd=ROOT,
                          env=synsema_env(), timeout=120).returncode == 0


def test_building_the_tables_gives_the_same_file_whatever_the_hash_seed():
    """Lark numbers states in an order that follows string hashing; the file must not."""
    code = "from synsema.lang import tables as t; g = t.grammar_text(); print(t.serialize(t.build(g), g))"
    made = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120,
                           env={**synsema_env(), "PYTHONHASHSEED": seed}).stdout for seed in ("0", "1", "77")}
    assert len(made) == 1 and made.pop() == SHIPPED.read_text(encoding="utf-8") + "\n"


@pytest.fixture(scope="module")
def rebuilt():
    """A parser state holding tables built from the grammar now, swapped in around a parse."""
    built = parser._Tables(tables.build(GRAMMAR), parser._BUILDER)

    def parse_with(fn, source):
        shipped, parser._TABLES = parser._tables(), built
        try:
            return outcome(fn, source)
        finally:
            parser._TABLES = shipped
    return parse_with


def _same_either_way(rebuilt, source):
    for fn in (parser.parse, parser.parse_expression):
        assert outcome(fn, source) == rebuilt(fn, source), source[:200]


def test_shipped_and_rebuilt_tables_parse_the_corpus_alike(rebuilt):
    assert len(PROGRAMS) > 100
    for path in PROGRAMS:
        _same_either_way(rebuilt, Path(path).read_text(encoding="utf-8"))
    for line in LINES[::7]:
        _same_either_way(rebuilt, line)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.one_of(st.lists(st.sampled_from(LINES), min_size=1, max_size=12).map("\n".join),
                 st.lists(st.sampled_from(WORDS), max_size=40).map(" ".join)))
def test_shipped_and_rebuilt_tables_parse_generated_programs_alike(rebuilt, source):
    _same_either_way(rebuilt, source)


def _shipped_parts() -> tuple[dict, str]:
    header, body = SHIPPED.read_text(encoding="utf-8").split("\n", 1)
    return json.loads(header), body


def _damaged_files() -> dict[str, str]:
    meta, body = _shipped_parts()
    whole = SHIPPED.read_text(encoding="utf-8")
    data = json.loads(body)
    out_of_range = json.loads(body)
    out_of_range["states"][0][1] = 10**6  # an action naming no state or rule
    negative = json.loads(body)
    negative["states"][3][1] = -1  # would index from the end of a list
    unknown_goto = json.loads(body)
    unknown_goto["rules"][0][0] = "no_such_rule"
    wrong_start = json.loads(body)
    wrong_start["start"]["module"] = len(data["states"])
    not_a_list = json.loads(body)
    not_a_list["states"][5] = {"NAME": 1}
    return {
        "truncated": whole[: len(whole) // 2],
        "empty": "",
        "not JSON": "\x80\x81 not json at all",
        "a bit changed in the tables": whole.replace('"end":{"lone_expr":', '"end":{"lone_expr":1', 1),
        "built from another grammar": tables.serialize(data, GRAMMAR + "\n// edited\n"),
        "another format": whole.replace('"format": 1', '"format": 99', 1),
        "a header only": whole.split("\n", 1)[0],
        "a list for the tables (checksums right)": tables.serialize([], GRAMMAR),
        "an out-of-range action, checksummed": tables.serialize(out_of_range, GRAMMAR),
        "a negative action, checksummed": tables.serialize(negative, GRAMMAR),
        "a reduce to a rule no state goes to, checksummed": tables.serialize(unknown_goto, GRAMMAR),
        "a start state past the end, checksummed": tables.serialize(wrong_start, GRAMMAR),
        "a state that is not a list, checksummed": tables.serialize(not_a_list, GRAMMAR),
    }


def test_the_shipped_file_reads_back_as_the_built_tables():
    assert tables.read(str(SHIPPED), GRAMMAR) == json.loads(json.dumps(tables.build(GRAMMAR)))
    assert tables.read(str(SHIPPED), GRAMMAR + " ") is None  # stale: the grammar changed since


@pytest.mark.parametrize("damage", list(_damaged_files()))
def test_a_damaged_stale_or_ill_formed_file_is_rebuilt_from_the_grammar(tmp_path, damage):
    path = tmp_path / "synsema.tables.json"
    path.write_text(_damaged_files()[damage], encoding="utf-8", errors="surrogateescape")
    if not damage.endswith("checksummed"):
        assert tables.read(str(path), GRAMMAR) is None
    else:
        assert tables.read(str(path), GRAMMAR) is not None  # passes its checksums ...
        with pytest.raises(ValueError, match="malformed parse tables"):  # ... but not the shape check
            parser._Tables(tables.read(str(path), GRAMMAR), parser._BUILDER)
    used = parser.tables_from(str(path))
    assert _same_rows(used, parser._tables())
    assert used.start == parser._tables().start and used.end == parser._tables().end


def test_a_missing_file_is_rebuilt_from_the_grammar(tmp_path):
    used = parser.tables_from(str(tmp_path / "absent.json"))
    assert _same_rows(used, parser._tables())


def _same_rows(a, b) -> bool:
    """The two tables act alike: the same kind of action on every symbol of every state."""
    def kinds(t):
        return [{symbol: (entry[0], entry[1] if entry[0] else entry[-1]) for symbol, entry in row.items()}
                for row in t.actions]
    return kinds(a) == kinds(b)


PROBE = """
import json, sys
from synsema.runtime.cli import main
code = main(sys.argv[1:])
print(json.dumps({"code": code, "lark": sorted(m for m in sys.modules if m == "lark" or m.startswith("lark."))}))
"""


@pytest.mark.parametrize("command", [["run"], ["check"], ["fmt", "--check"]])
def test_running_checking_and_formatting_import_no_lark(tmp_path, command):
    program = tmp_path / "p.syn"
    program.write_text('task twice(x)\n    give x * 2\n\nprint(`{twice(21)}`)\n', encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", PROBE, *command, str(program)], capture_output=True, text=True,
                          env=synsema_env(), cwd=tmp_path, timeout=60)
    report = json.loads(done.stdout.splitlines()[-1])
    assert report == {"code": 0, "lark": []}, done.stderr
