"""`synsema check` as a linter, and `code caps` with what is needed and missing.

tests/diagnostics/check/NAME.syn is checked and must print exactly NAME.err and NAME.out;
five_classes.syn holds one of each class of error the linter finds without running.
"""

from __future__ import annotations

import json
from pathlib import Path

from conftest import ROOT, run_synsema

HERE = Path(__file__).resolve().parent / "check"


def test_check_finds_the_five_classes_of_error():
    result = run_synsema("check", "five_classes.syn", cwd=HERE)
    assert result.stderr == (HERE / "five_classes.err").read_text(encoding="utf-8")
    assert result.stdout == (HERE / "five_classes.out").read_text(encoding="utf-8")
    assert result.returncode == 1
    codes = {line.rsplit("[", 1)[1].rstrip("]") for line in result.stderr.splitlines() if line.endswith("]")}
    assert codes == {"undefined-name", "arity", "unknown-keyword", "unreachable", "missing-capability"}


def test_warnings_alone_exit_3_and_a_clean_file_exits_0(tmp_path):
    warned = run_synsema("check", "warnings_only.syn", cwd=HERE)
    assert warned.returncode == 3 and "warning: unreachable code" in warned.stderr
    (tmp_path / "ok.syn").write_text('require file.read\nprint(read_file("x"))\n', encoding="utf-8")
    clean = run_synsema("check", "ok.syn", cwd=tmp_path)
    assert (clean.returncode, clean.stdout, clean.stderr) == (0, "OK: 2 statements parsed.\n", "")


def test_check_json_has_structured_diagnostics():
    result = run_synsema("check", "--format", "json", "five_classes.syn", cwd=HERE)
    report = json.loads(result.stdout)
    assert result.returncode == 1 and result.stderr == ""
    assert (report["ok"], report["errors"], report["warnings"]) == (False, 5, 1)
    first = report["diagnostics"][0]
    assert first == {"file": "five_classes.syn", "line": 3, "col": 7, "end_line": 3, "end_col": 13,
                     "code": "undefined-name", "message": "undefined name 'lenght'",
                     "hint": "did you mean 'length'?", "severity": "error",
                     "fixes": [{"title": "Change 'lenght' to 'length'",
                                "edits": [{"line": 3, "col": 7, "end_line": 3, "end_col": 13, "text": "length"}]}]}


def test_a_parse_error_in_json_is_a_diagnostic_too(tmp_path):
    (tmp_path / "bad.syn").write_text("x = 1\n", encoding="utf-8")
    report = json.loads(run_synsema("check", "--format=json", "bad.syn", cwd=tmp_path).stdout)
    assert report["diagnostics"][0]["code"] == "syntax" and report["diagnostics"][0]["col"] == 3


def test_shadowed_builtins_and_rebound_tasks_are_not_guessed_at(tmp_path):
    (tmp_path / "p.syn").write_text(
        "task split(x)\n    give [x]\nprint(split(1))\ntask f(a)\n    give a\nset f to (a, b) => a\n"
        "print(f(1, 2))\nlet later be () => defined_below\nlet defined_below be 1\nprint(later())\n",
        encoding="utf-8")
    result = run_synsema("check", "p.syn", cwd=tmp_path)
    assert (result.returncode, result.stderr) == (0, ""), result.stderr


def test_every_example_and_the_seed_program_check_clean():
    programs = [*sorted((ROOT / "examples").glob("*.syn")), Path("/work/shared/acceptance/tool-calling.syn")]
    for program in programs:
        if program.exists():
            result = run_synsema("check", program)
            assert (result.returncode, result.stderr) == (0, ""), (program, result.stderr)


def test_code_caps_reports_needed_and_missing_per_task(tmp_path):
    (tmp_path / "p.syn").write_text(
        "require file.read\ntask load(p)\n    give read_file(p)\ntask get(u)\n    give fetch(u)\n"
        "task both(p, u)\n    give [load(p), get(u)]\nprint(load(\"x\"))\n", encoding="utf-8")
    outline = json.loads(run_synsema("code", "caps", "p.syn", "--json", cwd=tmp_path).stdout)
    tasks = {t["name"]: (t["needed"], t["missing"]) for t in outline["tasks"]}
    assert tasks == {"load": (["file.read"], []), "get": (["net"], ["net"]),
                     "both": (["file.read", "net"], ["net"])}
    assert (outline["needed"], outline["missing"]) == (["file.read", "stdout"], [])
    human = run_synsema("code", "caps", "p.syn", cwd=tmp_path).stdout
    assert "    it needs: net — missing: net (add: require net)\n" in human


def test_check_is_given_exactly_the_names_a_run_starts_with():
    # `synsema check` takes the predeclared names from stdlib.registry.global_names, without
    # importing the evaluator; they must be the keys of the globals a run starts with.
    from synsema.runtime.interp import builtin_globals
    from synsema.stdlib.registry import global_names
    assert global_names() == list(builtin_globals())


def test_check_warns_of_shadowed_aliases_and_missing_exports(tmp_path):
    """Upstream's two module warnings (issue 32 item 8): a local name hiding a `use` alias, and
    `alias.x` where the module exports no `x` — with the nearest export, or how to export a name
    the module defines. Warnings: the exit code is 3, as for every warning."""
    (tmp_path / "orders.syn").write_text('export task total_orders()\n    give 42\n\ntask secret_helper()\n'
                                         '    give 1\n\nexport let unit be "eur"\n', encoding="utf-8")
    (tmp_path / "main.syn").write_text('use "./orders.syn" as orders\nprint(orders.total_order())\n'
                                       'print(orders.secret_helper())\nprint(orders.nope)\n'
                                       'task report(orders)\n    give orders\nlet f be (orders) => orders\n'
                                       'print(orders.unit)\n', encoding="utf-8")
    result = run_synsema("check", "--format", "json", "main.syn", cwd=tmp_path)
    report = json.loads(result.stdout)
    assert result.returncode == 3 and (report["errors"], report["warnings"]) == (0, 5)
    found = [(d["line"], d["code"], d["message"], d["hint"]) for d in report["diagnostics"]]
    assert found[:3] == [
        (2, "no-export", "module 'orders' has no export 'total_order'", "did you mean 'orders.total_orders'?"),
        (3, "no-export", "module 'orders' has no export 'secret_helper'",
         "it is defined in the module but not exported: write `export task secret_helper` there"),
        (4, "no-export", "module 'orders' has no export 'nope'", "it exports total_orders, unit")]
    assert [(line, code) for line, code, _, _ in found[3:]] == [(5, "shadowed-alias"), (7, "shadowed-alias")]
    assert found[3][2].startswith("'orders' shadows the module alias of `use \"./orders.syn\" as orders` (line 1)")

