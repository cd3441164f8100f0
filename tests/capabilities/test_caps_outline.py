"""`synsema code caps`: the static outline, checked against what a run actually grants."""

from __future__ import annotations

import json

from synsema.lang.caps_outline import caps_outline
from synsema.lang.parser import parse

from .cli import run_program, synsema

PROGRAM = """\
require llm
require net("api.x.com"), env("APP_*")

task get_weather(city)
    require net("api.weather.com")
    when city == "x"
        require net
    give "weather in " + city

task pure(a: number)
    give a + 1

when true
    require time

each i in [1]
    require random

sandbox under net("api.x.com")
    require exec("rm")

sandbox
    print("boxed")

try
    require file.read("/data")
recover err
    require file.write("/data")

let host be "h.org"
require net(host), net(`b.org`)

test "t"
    require stdin
"""


def outline(source: str = PROGRAM) -> dict:
    return caps_outline(parse(source, "prog.syn"))


def entry(name, scope=None, line=0, dynamic=False, **extra):
    return {"capability": name, "scope": scope, "dynamic": dynamic, "line": line, **extra}


def test_program_grants_include_frameless_blocks():
    assert outline()["program"] == [
        entry("llm", line=1), entry("net", "api.x.com", 2), entry("env", "APP_*", 2),
        entry("time", line=14), entry("file.read", "/data", 26),
        entry("net", None, 31, dynamic=True), entry("net", "b.org", 31),
    ]


def test_tasks_list_their_leading_requires():
    assert outline()["tasks"] == [
        {"name": "get_weather", "line": 4, "requires": [entry("net", "api.weather.com", 5)]},
        {"name": "pure", "line": 10, "requires": []},
    ]


def test_sandboxes_and_requires_that_never_grant():
    result = outline()
    assert result["sandboxes"] == [{"line": 19, "under": [entry("net", "api.x.com", 19)]},
                                   {"line": 22, "under": None}]
    assert [(item["capability"], item["line"], item["why"]) for item in result["ignored"]] == [
        ("net", 7, "inside task 'get_weather', below its leading require lines"),
        ("random", 17, "inside an each loop"),
        ("exec", 20, "inside a sandbox block"),
        ("file.write", 28, "inside a recover block"),
        ("stdin", 34, "inside a test block"),
    ]


def test_cli_json_and_human_forms(tmp_path):
    (tmp_path / "prog.syn").write_text(PROGRAM)
    as_json = synsema("code", "caps", "prog.syn", "--json", cwd=tmp_path)
    assert as_json.code == 0, as_json
    shown = json.loads(as_json.out)
    needs = (shown.pop("needed"), shown.pop("missing"), [(t.pop("needed"), t.pop("missing")) for t in shown["tasks"]])
    assert shown == {**outline(), "file": "prog.syn"}  # needed/missing: tests/diagnostics/test_check.py
    assert all(type(part) is list for part in needs)
    human = synsema("code", "caps", "prog.syn", cwd=tmp_path)
    assert human.code == 0, human
    lines = human.out.splitlines()
    assert lines[0] == "prog.syn" and lines[1] == "  program grants:"
    assert any(line.split() == ['net("api.weather.com")', "line", "5"] for line in lines)
    assert "  task pure (line 10) declares: nothing" in lines
    assert '  sandbox (line 19) keeps: net("api.x.com") (and stdout)' in lines
    assert "  sandbox (line 22) keeps: nothing but stdout" in lines
    assert any(line.startswith("    net(<computed>)") for line in lines)
    assert any(line.endswith("line 17 — inside an each loop") for line in lines)


def test_cli_failures(tmp_path):
    (tmp_path / "bad.syn").write_text("require net(\"x\") extra\n")
    bad = synsema("code", "caps", "bad.syn", cwd=tmp_path)
    assert bad.code == 1 and bad.err.startswith("Parse error: bad.syn:") and "Traceback" not in bad.err
    missing = synsema("code", "caps", "missing.syn", cwd=tmp_path)
    assert missing.code == 2 and "missing.syn" in missing.err


def test_run_code_caps_on_an_unreadable_path(tmp_path, capsys):
    from synsema.lang.caps_outline import run_code_caps
    assert run_code_caps(str(tmp_path), False) == 2
    assert capsys.readouterr().err.startswith(f"synsema: cannot read {tmp_path}: ")


def test_what_the_outline_calls_ignored_really_grants_nothing(tmp_path):
    """The outline and the evaluator agree on what is top level."""
    for block in ("each i in [1]\n    require random\n", "try\n    raise \"x\"\nrecover e\n    require random\n"):
        result = run_program(block + "print(random() < 1)\n", tmp_path)
        assert result.code == 1 and "Capability not granted: random" in result.err, result
    for block in ("when true\n    require random\n", "try\n    require random\nrecover e\n    print(e)\n"):
        result = run_program(block + "print(random() < 1)\n", tmp_path)
        assert (result.code, result.out) == (0, "true\n"), result
