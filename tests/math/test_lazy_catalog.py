"""The lean catalog: a call builds only the models of the operation it runs.

`catalog.get` imports only the domain module that declares an operation (`index.MODULES` says
which), and the models there build their validators on first use. The worker builds an
operation's validators once, before it forks that operation's first child, so the children
inherit them; the checks below fail if a child had to build a model itself (per call), if the
index and the modules disagree, or if a call imports more than its own module.
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import subprocess
import sys

import pytest

from conftest import ROOT, run_synsema, synsema_env
from synsema.stdlib.math import catalog, index
from synsema.stdlib.math import domains as domains_package


def test_the_index_lists_every_domain_module_and_exactly_what_each_declares():
    declaring = {}
    for info in pkgutil.iter_modules(domains_package.__path__):
        module = importlib.import_module(f"synsema.stdlib.math.domains.{info.name}")
        if hasattr(module, "TOOLS"):
            declaring[info.name] = sorted(tool.identifier for tool in module.TOOLS)
    assert declaring == {module: sorted(ids) for module, ids in index.MODULES.items()}
    assert list(catalog.TOOLS) == list(index.IDENTIFIERS) == sorted(index.IDENTIFIERS)
    assert catalog.DOMAINS == tuple(sorted({tool.domain for tool in catalog.TOOLS.values()}))


def test_a_module_that_disagrees_with_the_index_is_refused(monkeypatch):
    monkeypatch.setitem(index.MODULES, "sequence", ("seq.recurrence.find", "seq.other"))
    catalog._declared_by.cache_clear()
    try:
        with pytest.raises(RuntimeError, match="domains/sequence.py declares"):
            catalog.get("seq.recurrence.find")
    finally:
        catalog._declared_by.cache_clear()


# A fresh interpreter with every backend loaded and no domain module: per operation, one child
# imports the declaring module and builds the validators as the worker's helper does
# (`build_validators`), and a grandchild runs every published example as a worker child does
# (request JSON in, result JSON out). It reports the models the grandchild had to build.
PROBE = r"""
import importlib, json, pkgutil, sys
from pydantic import BaseModel
from synsema.stdlib.math import catalog, index
from synsema.stdlib.math import adapters as package
from tests.math.forked import in_fork

for info in pkgutil.iter_modules(package.__path__):
    importlib.import_module("synsema.stdlib.math.adapters." + info.name)
assert not [m for m in sys.modules if m.startswith("synsema.stdlib.math.domains.") and m != "synsema.stdlib.math.domains.smtlib"]


def models():
    found, todo = set(), [BaseModel]
    while todo:
        for sub in todo.pop().__subclasses__():
            if sub not in found:
                found.add(sub)
                todo.append(sub)
    return found


def run_examples(tool):
    unbuilt = {m for m in models() if not m.__pydantic_complete__}
    for example in tool.examples:
        request = tool.request.model_validate_json(json.dumps(example.payload))
        tool.result_adapter.validate_json(tool.result_adapter.dump_json(tool.function(request)))
    return sorted(m.__qualname__ for m in unbuilt if m.__pydantic_complete__)


def prepared_then_run(identifier):
    tool = catalog.get(identifier)
    tool.build_validators()
    return in_fork(lambda: run_examples(tool))


print(json.dumps({i: in_fork(lambda: prepared_then_run(i)) for i in index.IDENTIFIERS}))
"""


@pytest.fixture(scope="module")
def built_in_child() -> dict:
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                         timeout=300, env=synsema_env(), cwd=ROOT, check=True)
    return json.loads(out.stdout)


@pytest.mark.parametrize("identifier", index.IDENTIFIERS)
def test_a_worker_child_inherits_every_validator_its_operation_uses(identifier, built_in_child):
    assert built_in_child[identifier] == []


def test_a_call_imports_only_the_domain_module_of_its_operation():
    code = ("import sys, synsema.stdlib.math as m\n"
            "print(m.run('nt.integer.gcd', {'values': [12, 18]}).gcd)\n"
            "print(sorted(n for n in sys.modules if n.startswith('synsema.stdlib.math.domains.')))\n"
            "try:\n    m.run('nt.integer.gdc', {})\nexcept m.errors.MathError as e:\n"
            "    print(e.one_line())\n"
            "print(sorted(n for n in sys.modules if n.startswith('synsema.stdlib.math.domains.')))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, env=synsema_env(), cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == [
        "6", "['synsema.stdlib.math.domains.nt']",
        "math.run nt.integer.gdc: unknown_operation; did you mean: nt.integer.gcd, "
        "nt.integer.lcm, nt.integer.factor",
        "['synsema.stdlib.math.domains.nt']"]


def test_an_identifier_that_is_not_declared_never_reaches_the_worker(tmp_path):
    prog = tmp_path / "prog.syn"
    prog.write_text('let long be join(transform(range(100000), (i) => "nt."), "")\n'
                    'try\n    math.run(long, {})\nrecover err\n    print(length(err) > 0)\n'
                    'print(math.run("comb.binomial", {n: 5, k: 2}).value)\n')
    result = run_synsema("run", prog)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["true", "10"]
