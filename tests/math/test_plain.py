"""The Pydantic-free path (stdlib/math/plain.py) against the Pydantic models it stands for.

plain.py validates requests and results of the operations declared with a kernel, from
plain_ops.json, and must accept exactly what the Pydantic models accept, with the same values;
whatever it does not accept goes to the Pydantic path, so a message a user sees is always
Pydantic's. Checked here: the table is what the models generate; every published example
validates and computes the same result both ways; generated inputs (examples with parts
replaced, removed or added) are accepted by both or by neither, with equal values; results are
re-checked the same way; and a run of such an operation imports neither Pydantic nor a backend,
in the interpreter or in the worker.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from conftest import ROOT, run_synsema, synsema_env
from synsema.stdlib.math import catalog, plain, plain_table

PLAIN_OPS = sorted(plain.OPS)
KERNEL_OPS = sorted(i for i, tool in catalog.TOOLS.items() if tool.kernel is not None)


def test_the_table_is_what_the_models_generate():
    with open(plain.TABLE_PATH, encoding="utf-8") as handle:
        assert handle.read() == plain_table.text(), \
            "stdlib/math/plain_ops.json is stale: run python -m synsema.stdlib.math.plain_table"
    assert PLAIN_OPS == KERNEL_OPS


def _pydantic(identifier: str, payload):
    """The Pydantic path's validated request dumped, or None when it refuses."""
    tool = catalog.get(identifier)
    try:
        return tool.request.model_validate(payload).model_dump()
    except ValidationError:
        return None


def _plain(identifier: str, payload):
    record = plain.request(identifier, payload)
    return None if record is None else plain._dump(plain.OPS[identifier]["request"], record)


@pytest.mark.parametrize("identifier", PLAIN_OPS)
def test_every_example_validates_and_computes_the_same_both_ways(identifier):
    tool = catalog.get(identifier)
    for example in tool.examples:
        payload = example.payload
        assert _plain(identifier, payload) == _pydantic(identifier, payload) is not None
        typed = tool.function(tool.request.model_validate(payload))
        expected = tool.result_adapter.validate_json(tool.result_adapter.dump_json(typed))
        body = plain.compute(identifier, json.dumps(payload).encode())
        assert plain.result(identifier, body) == expected.model_dump()
        # the child's JSON is what the Pydantic path's child writes, up to spacing
        assert json.loads(body) == json.loads(tool.result_adapter.dump_json(typed))


# Values that probe each kind's edges: exact types, bounds, text forms, wrong types.
SCALARS = st.one_of(
    st.integers(-10, 10), st.integers(), st.sampled_from([10**300 - 1, 10**300, -10**300 + 1,
                                                          2**53, 10**30 - 1, 10**30, 2000, 2001]),
    st.booleans(), st.none(), st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from(["0", "-0", "+1", "01", "12", "-7", "3/4", "6/8", "3/1", "0.5", "1e3", "x",
                     "y", "x\n", "ab_1", "Ab", "abcdefghi", "", " 1", "1 ", "9" * 301]),
    st.text(max_size=6))
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.sampled_from(
        ["values", "n", "k", "x", "rows", "nrows", "ncols", "variable", "status"]), inner,
        max_size=3)), max_leaves=8)


def _paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, prefix + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, prefix + (index,))


def _similar(draw, value):
    """A value of the same kind as `value`, so that many mutants stay valid (or nearly)."""
    if type(value) is bool:
        return draw(st.booleans())
    if type(value) is int:
        return draw(st.one_of(st.integers(-30, 30), st.integers(-10**31, 10**31)))
    if type(value) is str:
        return draw(st.sampled_from([value, "x", "n", "0", "7", "-3", "1/2", "-3/4", "4/2",
                                     "exp(x)", "sin(x)/x", "1/(1 - x)^2", "log(1+x)", "x^(1/2)"]))
    if type(value) is list and value:
        return draw(st.lists(st.sampled_from(value), max_size=len(value) + 2))
    return draw(VALUES)


def _mutated(draw, payload):
    """The payload with one part replaced (by a value of any kind, or of the same kind),
    removed, or a key added."""
    paths = list(_paths(payload))
    path = draw(st.sampled_from(paths))
    action = draw(st.sampled_from(["replace", "similar", "similar", "remove", "add"] if path
                                  else ["replace"]))
    if not path:
        return draw(VALUES) if action == "replace" else payload
    parent = payload
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    if action == "similar":
        parent[last] = _similar(draw, parent[last])
    elif action == "replace":
        parent[last] = draw(VALUES)
    elif action == "remove":
        del parent[last]
    elif isinstance(parent, dict):
        parent[draw(st.sampled_from(["extra", "values", "n", "status", "x"]))] = draw(VALUES)
    else:
        parent.insert(last, draw(VALUES))
    return payload


@st.composite
def requests(draw):
    identifier = draw(st.sampled_from(PLAIN_OPS))
    example = draw(st.sampled_from(catalog.get(identifier).examples))
    payload = example.payload
    for _ in range(draw(st.integers(1, 2))):
        payload = _mutated(draw, payload)
    return identifier, payload


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(requests())
def test_generated_requests_are_accepted_by_both_paths_or_by_neither(case):
    identifier, payload = case
    assert _plain(identifier, payload) == _pydantic(identifier, payload)


@st.composite
def results(draw):
    identifier = draw(st.sampled_from(PLAIN_OPS))
    tool = catalog.get(identifier)
    example = draw(st.sampled_from(tool.examples))
    typed = tool.function(tool.request.model_validate(example.payload))
    body = json.loads(tool.result_adapter.dump_json(typed))
    return identifier, _mutated(draw, body)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(results())
def test_generated_results_are_rechecked_the_same_way_by_both_paths(case):
    identifier, body = case
    tool = catalog.get(identifier)
    text = json.dumps(body).encode()
    try:
        expected = tool.result_adapter.validate_json(text).model_dump()
    except ValidationError:
        expected = None
    assert plain.result(identifier, text) == expected


PROBE = """
import json, sys
from synsema.runtime.cli import main
code = main(["run", sys.argv[1]])
from synsema.stdlib.math import isolation
print(json.dumps({"code": code, "interpreter": sorted(sys.modules),
                  "worker": isolation._HELPER.modules()}))
"""
# The backends behind each adapter a plain operation declares: they load in the worker only.
BACKEND_OF = {"flint_groebner": ("flint",), "flint_matrix": ("flint",),
              "flint_numberfield": ("flint", "mpmath"), "flint_poly": ("flint",),
              "flint_rational": ("flint",), "mpmath_pslq": ("mpmath",),
              "mpmath_residues": ("mpmath",), "pari_integer": ("cypari2",),
              "pysat_solver": ("pysat",), "z3_smt": ("z3",)}
HEAVY = ("pydantic", "pydantic_core", "sympy", "z3", "pysat", "mpmath", "flint", "cypari2",
         "synsema.stdlib.math.catalog", "synsema.stdlib.math.tool", "synsema.stdlib.math.api",
         "synsema.stdlib.math.primitives")


@pytest.mark.parametrize("identifier", PLAIN_OPS)
def test_a_plain_operation_runs_without_pydantic_or_sympy_in_either_process(
        identifier, tmp_path):
    example = catalog.get(identifier).examples[0].payload
    program = tmp_path / "first_call.syn"
    program.write_text(f"print(json_encode(math.run({json.dumps(identifier)}, "
                       f"json_decode({json.dumps(json.dumps(example))}))))\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", PROBE, str(program)], capture_output=True,
                          text=True, env=synsema_env(), cwd=ROOT, timeout=120)
    lines = done.stdout.splitlines()
    report = json.loads(lines[-1])
    assert report["code"] == 0, done.stderr
    tool = catalog.get(identifier)
    expected = tool.function(tool.request.model_validate(example)).model_dump()
    assert json.loads(lines[0]) == json.loads(json.dumps(expected))
    backends = {backend for adapter in tool.adapters for backend in BACKEND_OF[adapter]}
    for process in ("interpreter", "worker"):
        allowed = backends if process == "worker" else set()
        loaded = [m for m in report[process] if (m in HEAVY or m.split(".")[0] in HEAVY)
                  and m.split(".")[0] not in allowed]
        assert loaded == [], process
    assert backends <= {m.split(".")[0] for m in report["worker"]}


def test_a_series_text_is_read_without_pythons_ast_in_the_worker(tmp_path):
    """domains/expression.py reads grammar texts itself: `import ast` and its node classes cost
    the worker about 15 ms, more than the rest of a first series call."""
    program = tmp_path / "series.syn"
    program.write_text('print(math.run("calculus.series.expand", '
                       '{expression: "exp(x)/(1 - x)", order: 6}).coefficients[6])\n',
                       encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", PROBE, str(program)], capture_output=True,
                          text=True, env=synsema_env(), cwd=ROOT, timeout=120)
    lines = done.stdout.splitlines()
    assert lines[0] == "1957/720", done.stderr
    report = json.loads(lines[-1])
    assert "synsema.stdlib.math.domains.expression" in report["worker"]
    assert "ast" not in report["worker"]


def test_a_request_the_plain_path_refuses_gets_the_pydantic_message(tmp_path):
    program = tmp_path / "refused.syn"
    program.write_text('print(math.run("comb.binomial", {n: 13000, k: 6500}))\n', encoding="utf-8")
    done = run_synsema("run", str(program))
    assert done.returncode == 1
    assert ("math.run comb.binomial: invalid_request\n"
            "- k [binomial_too_large]: C(n, k) has more than 3900 digits\n"
            'example: {"n": 5, "k": 2}') in done.stderr


def test_the_plain_path_keeps_the_deadline_kill(monkeypatch):
    from synsema.stdlib.math import isolation
    from synsema.stdlib.math.errors import MathError
    monkeypatch.setitem(plain.OPS, "poly.cyclotomic",
                        {**plain.OPS["poly.cyclotomic"], "deadline": 0.001})
    with pytest.raises(MathError) as raised:
        isolation.execute_plain("poly.cyclotomic", {"n": 1680})
    assert raised.value.kind == "execution_limit"
    assert raised.value.detail["limit"] == "deadline"


def test_a_result_the_table_cannot_vouch_for_goes_to_the_pydantic_recheck(monkeypatch):
    from synsema.stdlib.math import isolation
    monkeypatch.setattr(plain, "result", lambda identifier, body: None)
    tool = catalog.get("seq.recurrence.find")
    payload = tool.examples[0].payload
    expected = tool.function(tool.request.model_validate(payload)).model_dump()
    assert isolation.execute_plain("seq.recurrence.find", payload) == expected


def test_a_deadline_the_operation_answers_itself_is_its_unknown_on_the_plain_path_too(
        monkeypatch):
    from synsema.stdlib.math import isolation
    monkeypatch.setitem(plain.OPS, "sat.solve", {**plain.OPS["sat.solve"], "deadline": 0.001})
    payload = catalog.get("sat.solve").examples[0].payload
    result = isolation.execute_plain("sat.solve", payload)
    assert result["status"] == "unknown" and result["reason"] == "deadline"
    assert result["deadline_ms"] == catalog.get("sat.solve").deadline_ms  # as declared
