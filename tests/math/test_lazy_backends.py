"""The lean worker: each backend loads on the first call that needs it, or when pre-warmed.

The worker starts with the catalog only. Before the child of a call is forked it imports the
adapters the operation declares (`MathTool.adapters`), so a pure-Python operation such as
nt.integer.gcd never loads sympy, z3 or PySAT. `math.prewarm(domains)` loads domains ahead and
reports the backends the worker holds; `--math-prewarm` does it from the command line while
the program starts. The declarations themselves are checked against what every published
example really imports; an operation's `late_adapters` (imported only on a path its first
example does not take) are not prepared, and the first example runs without them.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import ROOT, run_synsema, synsema_env
from synsema.stdlib.math import catalog

# Runs in a fresh interpreter: forks one child per operation, runs the operation's examples
# there and reports what the child had to import. Operations that declare no adapter run from
# a process that has loaded no backend, so any backend import shows; the others run after
# every adapter has been loaded once, with the adapter modules (not the libraries) forgotten in
# the child, so the adapters an example imports show without paying sympy's import each time.
PROBE = r"""
import importlib, json, sys
from synsema.stdlib.math import catalog
from synsema.stdlib.math import adapters as package
from tests.math.forked import in_fork

PREFIX = "synsema.stdlib.math.adapters."
BACKENDS = ("mpmath", "pysat", "sympy", "z3")


def imported(tool, forget):
    for name in [m for m in sys.modules if m.startswith(PREFIX)] if forget else []:
        del sys.modules[name]
        delattr(package, name[len(PREFIX):])
    before = set(sys.modules)
    for example in tool.examples:
        tool.function(tool.request.model_validate(example.payload))
    return sorted(m[len(PREFIX):] if m.startswith(PREFIX) else m
                  for m in set(sys.modules) - before if m.startswith(PREFIX) or m in BACKENDS)


def imported_by(tool, forget):
    return in_fork(lambda: imported(tool, forget))


# In a child of a process that has loaded no adapter: the operation's declared adapters (the
# worker's state before its first call), then its first example; the adapters that example
# imports, and the backends held after it.
def first_example_without_late(tool):
    for name in tool.adapters:
        importlib.import_module(PREFIX + name)
    before = set(sys.modules)
    tool.function(tool.request.model_validate(tool.examples[0].payload))
    return {"new": sorted(m[len(PREFIX):] for m in set(sys.modules) - before
                          if m.startswith(PREFIX)),
            "held": sorted(m for m in BACKENDS if m in sys.modules)}


tools = list(catalog.TOOLS.values())
seen = {t.identifier: imported_by(t, False) for t in tools if not t.adapters}
first = {t.identifier: in_fork(lambda: first_example_without_late(t))
         for t in tools if t.late_adapters}
for tool in tools:
    for name in tool.adapters + tool.late_adapters:
        importlib.import_module(PREFIX + name)
seen.update({t.identifier: imported_by(t, True) for t in tools if t.adapters})
print(json.dumps({"all": seen, "first": first}))
"""


@pytest.fixture(scope="module")
def probe() -> dict[str, dict[str, list[str]]]:
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                         timeout=300, env=synsema_env(), cwd=ROOT, check=True)
    return json.loads(out.stdout)


@pytest.fixture(scope="module")
def imported(probe) -> dict[str, list[str]]:
    return probe["all"]


@pytest.fixture(scope="module")
def first_without_late(probe) -> dict[str, list[str]]:
    return probe["first"]


def test_every_declared_adapter_is_a_module_of_the_adapters_package():
    modules = {path.stem for path in (ROOT / "stdlib/math/adapters").glob("*.py")} - {"__init__"}
    declared = {name for tool in catalog.TOOLS.values()
                for name in tool.adapters + tool.late_adapters}
    assert declared and declared <= modules
    assert modules <= declared, "an adapter no operation declares is dead code"


@pytest.mark.parametrize("tool", list(catalog.TOOLS.values()), ids=lambda t: t.identifier)
def test_an_operation_imports_only_the_adapters_it_declares(tool, imported):
    assert type(imported[tool.identifier]) is list, imported[tool.identifier]  # or "failed: ..."
    if tool.adapters:
        assert set(imported[tool.identifier]) <= set(tool.adapters + tool.late_adapters)
    else:  # from a lean process: neither an adapter nor a backend library may load
        assert imported[tool.identifier] == []


def test_a_first_example_runs_without_its_late_adapters(first_without_late):
    """calculus.integrate.definite states a pole with sympy; its first example (a value)
    runs on FLINT and mpmath alone, so the worker never loads sympy for it."""
    assert catalog.TOOLS["calculus.integrate.definite"].late_adapters == (
        "sympy_calculus", "sympy_poly")
    assert "calculus.integrate.definite" in first_without_late
    for identifier, first in first_without_late.items():
        tool = catalog.TOOLS[identifier]
        assert type(first) is dict, first  # or "failed: ..."
        assert not set(first["new"]) & set(tool.late_adapters), identifier
        assert "sympy" not in first["held"], identifier


def test_the_worker_loads_a_late_adapter_once_a_child_has_needed_it():
    """The first value leaves sympy out of the worker; the first pole's child imports it and
    says so; the helper loads it before the next fork, and every later child inherits it."""
    probe = """
import json
from synsema.stdlib.math import catalog, isolation, script
ID = "calculus.integrate.definite"
value, pole = (example.payload for example in catalog.get(ID).examples)
def held():
    return "sympy" in isolation._HELPER.modules()
out = [script.run(ID, value)["status"], held(), script.run(ID, pole)["status"], held(),
       script.run(ID, value)["status"], held(), script.run(ID, pole)]
print(json.dumps(out))
"""
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=120, env=synsema_env(), cwd=ROOT, check=True)
    out = json.loads(done.stdout)
    assert out[:6] == ["value", False, "divergent", False, "value", True]
    assert out[6] == {"status": "divergent", "pole": {"variable": "x", "coefficients": [1, 0, -2]},
                      "interval": ["1", "2"]}


def test_pure_python_operations_include_gcd_and_the_solvers_are_separate():
    assert catalog.TOOLS["nt.integer.gcd"].adapters == ()
    assert catalog.TOOLS["smt.solve"].adapters == ("z3_smt",)
    assert catalog.TOOLS["sat.solve"].adapters == ("pysat_solver",)


SMT = catalog.TOOLS["smt.solve"].examples[0].payload


def _program(tmp_path, text: str):
    path = tmp_path / "prog.syn"
    path.write_text(text)
    return path


def test_the_worker_loads_each_backend_on_first_use_through_the_real_cli(tmp_path):
    prog = _program(tmp_path, f"""\
print(math.prewarm())
print(math.run("nt.integer.gcd", {{values: [12, 18, 27]}}).gcd)
print(math.prewarm())
print(math.run("smt.solve", {json.dumps(SMT)}).status)
print(math.prewarm())
print(math.run("comb.partitions.count", {{n: 10}}).value)
print(math.prewarm())
""")
    result = run_synsema("run", prog)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "[]", "3", "[]", "sat", '["z3"]', "42", '["mpmath", "sympy", "z3"]']


def test_math_prewarm_loads_named_domains_or_all_and_rejects_unknown_ones(tmp_path):
    prog = _program(tmp_path, """\
print(math.prewarm(["sat"]))
print(math.prewarm(["sat", "sat"]))
print(math.prewarm("all"))
try
    math.prewarm(["nt", "algebra"])
recover err
    print(err)
try
    math.prewarm(7)
recover err
    print(err)
""")
    result = run_synsema("run", prog)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[:3] == ['["pysat"]', '["pysat"]', '["mpmath", "pysat", "sympy", "z3"]']
    assert lines[3] == "math.prewarm: invalid_argument"
    assert lines[4].startswith("- unknown domain 'algebra'; domains: calculus, comb, linalg,")
    assert lines[5:] == ["math.prewarm: invalid_argument",
                         '- domains must be a list of domain names or "all"']


def test_the_command_line_prewarm_is_done_before_the_first_math_call(tmp_path):
    prog = _program(tmp_path, 'print(math.prewarm())\n')
    result = run_synsema("run", "--math-prewarm", "sat,smt", prog)
    assert result.returncode == 0, result.stderr
    assert result.stdout == '["pysat", "z3"]\n'
    result = run_synsema("run", "--math-prewarm=all", prog)
    assert result.stdout == '["mpmath", "pysat", "sympy", "z3"]\n'


def test_an_unknown_prewarm_domain_is_a_usage_error(tmp_path):
    prog = _program(tmp_path, 'print("never")\n')
    result = run_synsema("run", "--math-prewarm", "nt,geometry", prog)
    assert result.returncode == 2 and result.stdout == ""
    assert "--math-prewarm: invalid_argument; unknown domain 'geometry'" in result.stderr
