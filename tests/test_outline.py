"""`synsema code outline`: parameters and input_schema per task, derived like the providers do."""

from __future__ import annotations

import json

from conftest import ROOT, run_synsema

PROGRAM = '''task add(a: number, b: number = 1)
    give a + b

task tag(name: text, extra = nothing, opts: map = {"k": [1, 2]})
    let x be 1
    give [name, extra, opts]

task weather(city)
    give city
'''


def test_outline_json_lists_parameters_and_schema(tmp_path):
    (tmp_path / "p.syn").write_text(PROGRAM, encoding="utf-8")
    result = run_synsema("code", "outline", "p.syn", "--json", cwd=tmp_path)
    assert result.returncode == 0
    tasks = {t["name"]: t for t in json.loads(result.stdout)["tasks"]}
    add = tasks["add"]
    assert (add["line"], add["end_line"]) == (1, 2)
    assert add["parameters"] == [
        {"name": "a", "type": "number", "default": None, "optional": False},
        {"name": "b", "type": "number", "default": "1", "optional": True},
    ]
    assert add["input_schema"] == {"type": "object",
                                   "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
                                   "required": ["a"], "additionalProperties": False}
    tag = tasks["tag"]
    assert (tag["line"], tag["end_line"]) == (4, 6)
    assert [p["default"] for p in tag["parameters"]] == [None, "nothing", '{"k": [1, 2]}']
    assert tag["input_schema"]["properties"] == {"name": {"type": "string"}, "extra": {"type": "string"},
                                                 "opts": {"type": "object"}}
    assert tasks["weather"]["input_schema"]["required"] == ["city"]


def test_outline_text_form_and_errors(tmp_path):
    (tmp_path / "p.syn").write_text(PROGRAM, encoding="utf-8")
    result = run_synsema("code", "outline", "p.syn", cwd=tmp_path)
    assert "task add(a: number, b: number = 1)" in result.stdout
    (tmp_path / "bad.syn").write_text("task (\n", encoding="utf-8")
    bad = run_synsema("code", "outline", "bad.syn", cwd=tmp_path)
    assert bad.returncode == 1
    assert bad.stderr.startswith(("Lexer error: bad.syn:1:", "Parse error: bad.syn:1:"))
    assert run_synsema("code", "outline", "missing.syn", cwd=tmp_path).returncode == 2
    assert run_synsema("code", "frob", "p.syn", cwd=tmp_path).returncode == 2


def test_the_readme_s_outline_example_is_what_it_prints(tmp_path):
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Static checks and tool schemas\n", 1)[1].split("\n## ", 1)[0]
    program = section.split("```\n", 1)[1].split("```", 1)[0]
    shown = section.split("```json\n", 1)[1].split("```", 1)[0]
    (tmp_path / "add.syn").write_text(program, encoding="utf-8")
    result = run_synsema("code", "outline", "--json", "add.syn", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == json.loads(shown)
