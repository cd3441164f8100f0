"""The three ways in: the Python API, the script bridge, and the `synsema math` command line.

Also the start-up rule: importing the library (and its script and CLI modules) must not load
sympy, z3, PySAT or even pydantic; the backends load only in the worker process.
"""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction

import pytest

import synsema.stdlib.math as math_api
from synsema.stdlib.math import cli, index, script
from synsema.stdlib.math.errors import MathError

HEAVY = ("sympy", "z3", "pysat", "pydantic", "mpmath")

# 23 tier-A operations and the ones issues 15 and 28 add: tests/math/test_catalog.py pins the
# list, so the count here follows the index (three engineers add operations at once).
OPERATIONS = len(index.IDENTIFIERS)


def _modules_after(code: str) -> list[str]:
    probe = code + "\nimport sys, json\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True, timeout=120)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_importing_the_library_loads_no_backend_and_no_pydantic():
    loaded = _modules_after("import synsema.stdlib.math, synsema.stdlib.math.script, synsema.stdlib.math.cli, "
                            "synsema.stdlib.math.errors")
    assert [m for m in loaded if m.split(".")[0] in HEAVY] == []


def test_backends_load_only_in_the_worker_even_after_a_run():
    loaded = _modules_after("import synsema.stdlib.math as m\n"
                            "assert m.run('poly.factor', {'polynomial': {'variable': 'x', "
                            "'coefficients': [1, 0, -1]}}).factors")
    assert [m for m in loaded if m.split(".")[0] in ("sympy", "z3", "pysat", "mpmath")] == []


def test_python_api_returns_typed_pydantic_values():
    result = math_api.run("linalg.det", {"matrix": {"nrows": 2, "ncols": 2,
                                                    "rows": [[1, 2], [3, 4]]}})
    assert type(result).__name__ == "Determinant" and result.determinant == Fraction(-2)
    report = math_api.check("linalg.det", {"matrix": {"nrows": 1, "ncols": 1, "rows": [[1]]}})
    assert report.valid and report.issues == []


def test_invalid_request_message_is_deterministic_and_lists_every_issue():
    payload = {"matrix": {"nrows": 2, "ncols": 2, "rows": [[1, 2], [3]]}}
    with pytest.raises(MathError) as info:
        math_api.run("linalg.det", payload)
    assert str(info.value) == (
        "math.run linalg.det: invalid_request\n"
        "- matrix.rows[1] [matrix_row_length]: row 1 has 1 entries; this 2x2 matrix needs 2\n"
        'example: {"matrix": {"nrows": 2, "ncols": 2, "rows": [[1, 2], [3, 4]]}}')
    assert info.value.issues == ({"path": "matrix.rows[1]", "code": "matrix_row_length",
                                  "message": "row 1 has 1 entries; this 2x2 matrix needs 2"},)
    with pytest.raises(MathError) as again:
        math_api.run("linalg.det", payload)
    assert str(again.value) == str(info.value)


def test_unknown_field_suggests_the_nearest_and_check_never_raises():
    report = script.check("comb.binomial", {"n": 5, "kk": 2})
    assert report["valid"] is False
    codes = {i["code"]: i["message"] for i in report["issues"]}
    assert "did you mean 'k'?" in codes["extra_forbidden"]
    assert "missing" in codes
    from synsema.stdlib.math.catalog import DOMAINS
    assert script.check("no.such", {}) == {"valid": False, "issues": [
        {"path": "", "code": "unknown_operation", "message": "no such operation; math.find "
         f"lists them (domains: {', '.join(DOMAINS)})"}]}
    assert script.check("comb.binomial", "not a map")["valid"] is False


def test_script_values_are_plain_python_exact_ints_and_rational_text():
    big = script.run("comb.binomial", {"n": 100, "k": 50})
    assert big == {"value": 100891344545564193334812497256}
    assert type(big["value"]) is int
    solved = script.run("linalg.solve", {"matrix": {"nrows": 1, "ncols": 1, "rows": [[4]]},
                                         "rhs": [3]})
    assert solved == {"status": "unique", "x": ["3/4"]}
    roots = script.run("poly.roots", {"polynomial": {"variable": "x",
                                                     "coefficients": [1, 0, -2]},
                                      "isolate": True})
    root = roots["algebraic_roots"][0]["roots"][0]
    assert root["root"]["kind"] == "real" and isinstance(root["approx"], str)
    assert roots["algebraic_roots"][0]["roots"][0]["minimal_polynomial"]["coefficients"] == \
        [1, 0, -2]


def test_script_payloads_reject_floats_decimals_and_bools_in_exact_fields():
    from decimal import Decimal
    assert "integer_type" in [i["code"] for i in
                          script.check("comb.binomial", {"n": 5.0, "k": 2})["issues"]]
    assert not script.check("comb.binomial", {"n": Decimal(5), "k": 2})["valid"]
    assert not script.check("comb.binomial", {"n": True, "k": 2})["valid"]
    issues = script.check("linalg.det", {"matrix": {"nrows": 1, "ncols": 1,
                                                    "rows": [["0.5"]]}})["issues"]
    assert issues[0]["code"] == "rational_decimal" and "write 1/2" in issues[0]["message"]


def test_find_entries_work_as_an_llm_step_catalog():
    entries = script.find("", limit=100)
    assert len(entries) == OPERATIONS
    for entry in entries:
        assert {"name", "describe", "params", "optional"} <= set(entry)
        for param in entry["params"]:
            name, _, kind = param.partition(": ")
            assert kind in ("", "number", "text", "bool", "list", "map")
        assert set(entry["optional"]) <= {p.partition(":")[0] for p in entry["params"]}
        assert "Example arguments: {" in entry["describe"]


def test_tool_params_describe_the_top_level_request_fields():
    assert script.tool_params("linalg.eigenvalues") == [("matrix", "map", True),
                                                        ("isolate", "bool", False)]
    assert script.tool_params("nt.integer.factor") == [("n", None, True)]
    assert script.tool_params("smt.solve") == [("logic", "text", True), ("script", "text", True),
                                               ("resource_limit", "number", False),
                                               ("unsat_core", "bool", False)]
    with pytest.raises(MathError) as info:
        script.tool_params("sat.solv")
    assert str(info.value).startswith("math.tool sat.solv: unknown_operation")


def test_a_model_writes_integers_as_text_and_untyped_params_accept_it():
    # llm_step turns an untyped argument into text; the request must take "360" as 360.
    assert script.run("nt.integer.factor", {"n": "360"}) == script.run("nt.integer.factor",
                                                                       {"n": 360})


def test_cli_list_json_lists_every_operation(capsys):
    assert cli.main(["list", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert len(listed) == OPERATIONS and {e["name"] for e in listed} == set(
        e["identifier"] for e in listed)


def test_cli_list_describe_and_run(capsys):
    assert cli.main(["list"]) == 0
    assert "linalg.det" in capsys.readouterr().out
    assert cli.main(["describe", "linalg.det"]) == 0
    assert json.loads(capsys.readouterr().out)["identifier"] == "linalg.det"
    assert cli.main(["run", "comb.binomial", '{"n": 100, "k": 50}']) == 0
    assert json.loads(capsys.readouterr().out) == {"value": "100891344545564193334812497256"}


def test_cli_errors_are_one_line_with_exit_1_and_usage_errors_exit_2(capsys):
    assert cli.main(["run", "linalg.det", '{"matrix": 1}']) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("math.run linalg.det: invalid_request; ")
    assert cli.main(["run", "linalg.det", "{not json"]) == 1
    assert "invalid JSON payload" in capsys.readouterr().err
    assert cli.main(["describe", "nope"]) == 1
    assert cli.main(["run", "linalg.det"]) == 2
    assert cli.main(["frobnicate"]) == 2
    assert cli.main([]) == 2
    assert "usage: synsema math list" in capsys.readouterr().err


def test_cli_run_refuses_deeply_nested_json_without_a_traceback():
    from conftest import run_synsema
    for depth in (1200, 50000):
        payload = '{"n": ' + "[" * depth + "]" * depth + ', "k": 1}'
        done = run_synsema("math", "run", "comb.binomial", payload)
        assert done.returncode == 1 and "Traceback" not in done.stderr
        assert done.stderr == ("math.run comb.binomial: invalid JSON payload: nested deeper "
                               "than 100 levels at character 105\n")
    # brackets inside text do not count, and ordinary nesting is untouched
    done = run_synsema("math", "run", "smt.solve",
                       json.dumps({"logic": "QF_LIA", "script": "; " + "[" * 500}))
    assert done.returncode == 0 and json.loads(done.stdout) == {"status": "sat", "model": []}


def test_cli_reads_json_integers_beyond_2_53_exactly_and_writes_them_as_text():
    from conftest import run_synsema
    done = run_synsema("math", "run", "nt.integer.gcd", '{"values": [9007199254740993, 3]}')
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["gcd"] == 3
    done = run_synsema("math", "run", "nt.integer.lcm", '{"values": [9007199254740993, 2]}')
    assert json.loads(done.stdout) == {"lcm": "18014398509481986"}


def test_run_many_keeps_order_and_puts_each_error_in_its_place():
    # Ramanujan's congruence p(5k + 4) = 0 (mod 5) over a range, in one call (issue 28).
    results = script.run_many("comb.partitions.count", [{"n": 5 * k + 4} for k in range(12)])
    assert [r["status"] for r in results] == ["ok"] * 12
    assert all(r["result"]["value"] % 5 == 0 for r in results)
    assert results[1]["result"]["value"] == 30  # p(9)
    mixed = script.run_many("comb.binomial", [{"n": 5, "k": 2}, {"n": -1, "k": 0}, "text",
                                              {"n": 6, "k": 3}])
    assert [r["status"] for r in mixed] == ["ok", "error", "error", "ok"]
    assert mixed[0]["result"] == {"value": 10} and mixed[3]["result"] == {"value": 20}
    assert mixed[1]["kind"] == "invalid_request" and mixed[1]["issues"][0]["path"] == "n"
    assert mixed[1]["message"].startswith("math.run comb.binomial: invalid_request")
    assert mixed[2]["issues"][0]["code"] == "model_type"
    assert script.run_many("comb.binomial", []) == []
    with pytest.raises(MathError, match="unknown_operation"):
        script.run_many("comb.binomiall", [{"n": 1, "k": 1}])
    with pytest.raises(MathError, match="at most 1000"):
        script.run_many("comb.binomial", [{"n": 1, "k": 1}] * 1001)


def test_run_many_from_a_script(tmp_path):
    from conftest import run_synsema
    program = tmp_path / "batch.syn"
    program.write_text(
        'let out be math.run_many("nt.integer.gcd", [{values: [12, 18]}, {values: "x"}])\n'
        'print(out[0].result.gcd)\nprint(out[1].status)\nprint(out[1].kind)\n'
        'try\n    math.run_many("nt.integer.gcd", 5)\nrecover err\n    print(err)\n',
        encoding="utf-8")
    done = run_synsema("run", str(program))
    lines = done.stdout.splitlines()
    assert lines[:3] == ["6", "error", "invalid_request"], done.stderr
    assert lines[3] == "math.run_many expects a list of payload maps, got number"
