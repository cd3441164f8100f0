"""`synsema code check [--json]` lists every declassify site: {file, line, reason, to, constant}.

The listing is the static audit of what a program may publish: the reason when it is a text
literal (null otherwise), the principals a narrowing keeps, and whether the published value is
a constant. A computed narrowing principal is a load error (LANGUAGE §8, SPEC §7), so the check
must refuse it like the loader does.
"""

from __future__ import annotations

import json

from conftest import run_synsema

PROGRAM = """\
let s be private(1, "app")
let t be private(private(2, "bank"), "app")
let why be "a computed reason"
print(declassify(s, "shown to its owner"))
print(declassify(s, why))
print(declassify(5, "a constant"))
print(declassify(t, "the bank may see it", ["bank"]))
print(declassify(t, "the bank may see it", "bank"))
task f(x)
    give declassify(x, `about {x}`)
when true
    print(declassify(s + 1, "nested in a block"))

test "inside a test"
    assert_eq(declassify(1, "in a test"), 1)
"""

EXPECTED = [
    {"file": "prog.syn", "line": 4, "reason": "shown to its owner", "to": [], "constant": False, "direct": True},
    {"file": "prog.syn", "line": 5, "reason": None, "to": [], "constant": False, "direct": True},
    {"file": "prog.syn", "line": 6, "reason": "a constant", "to": [], "constant": True, "direct": True},
    {"file": "prog.syn", "line": 7, "reason": "the bank may see it", "to": ["bank"], "constant": False, "direct": True},
    {"file": "prog.syn", "line": 8, "reason": "the bank may see it", "to": ["bank"], "constant": False, "direct": True},
    {"file": "prog.syn", "line": 10, "reason": None, "to": [], "constant": False, "direct": True},
    {"file": "prog.syn", "line": 12, "reason": "nested in a block", "to": [], "constant": False, "direct": True},
    {"file": "prog.syn", "line": 15, "reason": "in a test", "to": [], "constant": True, "direct": True},
]


def check(tmp_path, source: str, *flags: str):
    (tmp_path / "prog.syn").write_text(source, encoding="utf-8")
    return run_synsema("code", "check", "prog.syn", *flags, cwd=tmp_path)


def test_code_check_json_lists_every_declassify_site(tmp_path):
    proc = check(tmp_path, PROGRAM, "--json")
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["ok"] is True
    assert report["errors"] == []
    assert report["declassify"] == EXPECTED


def test_code_check_json_site_keys_are_exactly_the_documented_ones(tmp_path):
    proc = check(tmp_path, PROGRAM, "--json")
    for site in json.loads(proc.stdout)["declassify"]:
        assert set(site) == {"file", "line", "reason", "to", "constant", "direct"}


def test_code_check_json_with_no_declassify(tmp_path):
    proc = check(tmp_path, 'let s be private(1, "app")\nprint(s)\n', "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["declassify"] == []


def test_code_check_human_listing(tmp_path):
    proc = check(tmp_path, PROGRAM)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert "  declassify at prog.syn:4: shown to its owner" in lines
    assert "  declassify at prog.syn:5: (reason not a literal)" in lines
    assert sum(1 for line in lines if line.startswith("  declassify at ")) == len(EXPECTED)


def test_code_check_does_not_run_the_program(tmp_path):
    proc = check(tmp_path, 'print("ran")\nprint(declassify(1, "r"))\n', "--json")
    assert proc.returncode == 0
    report = json.loads(proc.stdout)        # only the JSON report: a print would break it
    assert report["declassify"][0]["line"] == 2


def test_code_check_refuses_a_computed_narrowing_principal(tmp_path):
    """`synsema run` refuses this at load; the static check must agree (ok false, exit 1)."""
    proc = check(tmp_path, 'let p be "bank"\nprint(declassify(1, "r", [p]))\n', "--json")
    report = json.loads(proc.stdout)
    assert proc.returncode == 1, proc.stdout
    assert report["ok"] is False
    assert any("never computed" in error for error in report["errors"]), report


def test_code_check_refuses_a_computed_private_principal(tmp_path):
    proc = check(tmp_path, 'let p be "bank"\nprint(private(1, p))\n', "--json")
    report = json.loads(proc.stdout)
    assert proc.returncode == 1, proc.stdout
    assert report["ok"] is False
    assert any("text literal" in error for error in report["errors"]), report


def test_code_check_reports_a_syntax_error_with_no_sites(tmp_path):
    proc = check(tmp_path, 'print(declassify(1, "r")\n', "--json")
    report = json.loads(proc.stdout)
    assert proc.returncode == 1
    assert report["ok"] is False and report["errors"] and report["declassify"] == []


def test_a_container_written_only_with_literals_is_a_constant(tmp_path):
    (tmp_path / "prog.syn").write_text(
        'let x be 1\nlet a be declassify([1, "a"], "lits")\nlet b be declassify({"k": [true]}, "map")\n'
        'let c be declassify([x], "var")\n', encoding="utf-8")
    result = run_synsema("code", "check", "--json", "prog.syn", cwd=tmp_path)
    sites = json.loads(result.stdout)["declassify"]
    assert [site["constant"] for site in sites] == [True, True, False]


def test_declassify_used_as_a_value_is_listed_too_in_modules(tmp_path):
    """Decision: declassify is tracked through every route, so every use of the name that is
    not a direct call (an alias, a callback argument, a module's export) is a site: `direct`
    false, reason and principals unknown (null)."""
    (tmp_path / "lib.syn").write_text("export let publish be declassify\n", encoding="utf-8")
    source = ('use "lib.syn" as lib\nlet d be declassify\nlet s be private(1, "app")\n'
              'print(reduce(["r"], declassify, s))\nprint(declassify(s, "direct"))\n')
    proc = check(tmp_path, source, "--json")
    assert proc.returncode == 0, proc.stderr
    sites = json.loads(proc.stdout)["declassify"]
    indirect = {"reason": None, "to": None, "constant": False, "direct": False}
    assert sites == [
        {"file": "prog.syn", "line": 2, **indirect},
        {"file": "prog.syn", "line": 4, **indirect},
        {"file": "prog.syn", "line": 5, "reason": "direct", "to": [], "constant": False, "direct": True},
        {"file": "lib.syn", "line": 1, **indirect},
    ]
    human = check(tmp_path, source).stdout
    assert "  declassify at prog.syn:2: (used as a value: every call through it can publish)" in human
