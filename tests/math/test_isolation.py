"""The isolation boundary (MATH.md §8): deadline kill, unknown-on-deadline, concurrency.

A runaway computation is simulated by giving a declaration a deadline far below its work
(`dataclasses.replace` of the catalog entry); the worker still runs the real operation.
"""

from __future__ import annotations

import dataclasses
import os
import signal
import threading
import time

import pytest

from math_support import pigeonhole, run
from synsema.stdlib.math import catalog, isolation
from synsema.stdlib.math.errors import MathError


def _with_deadline(identifier: str, seconds: float):
    return dataclasses.replace(catalog.get(identifier), deadline=seconds)


def test_a_runaway_computation_is_killed_at_the_deadline_as_execution_limit():
    from sympy import prevprime
    tool = _with_deadline("nt.function.evaluate", 0.05)
    n = prevprime(7 * 10**14) * prevprime(1428 * 10**12)  # about 0.7 s of sympy's ECM
    request = tool.request.model_validate({"function": "totient", "n": str(n)})
    isolation.load(["nt"])  # the worker is up with sympy loaded; only the kill is timed
    started = time.monotonic()
    with pytest.raises(MathError) as info:
        isolation.execute(tool, request)
    elapsed = time.monotonic() - started
    assert info.value.kind == "execution_limit" and elapsed < 1.0
    assert info.value.detail["limit"] == "deadline" and info.value.detail["limit_value"] == 50
    assert str(info.value) == ("math.run nt.function.evaluate: execution_limit\n"
                               "- limit deadline: the operation did not finish within 50 ms")
    # the worker machinery survives the kill
    assert run("nt.integer.factor", {"n": 12})["factors"][0]["prime"] == 2


def test_a_deadline_becomes_unknown_where_the_result_declares_it():
    tool = _with_deadline("sat.solve", 0.3)
    cnf = run("sat.cnf.canonicalize", {"num_vars": 132, "clauses": pigeonhole(12, 11)})["cnf"]
    request = tool.request.model_validate({"cnf": cnf})  # the most conflicts the rule allows
    result = isolation.execute(tool, request)
    assert result.status == "unknown" and result.reason == "deadline"
    assert result.deadline_ms == 300 and result.elapsed_ms >= 300
    assert result.conflicts_used is None

    smt = _with_deadline("smt.solve", 0.05)  # before 10^6 rlimit units run out
    script = "".join(f"(declare-const b{i} Int)(assert (and (>= b{i} 0) (<= b{i} 1)))"
                     for i in range(40))
    script += "(assert (= (+ " + " ".join(f"(* {10**10 + 7919 * i * i} b{i})"
                                          for i in range(40)) + ") 123456789012))"
    request = smt.request.model_validate({"logic": "QF_LIA", "script": script,
                                          "resource_limit": 10**6})
    result = isolation.execute(smt, request)
    assert result.status == "unknown" and result.reason_kind == "deadline"


def test_concurrent_runs_queue_and_all_finish_correctly():
    results, errors = {}, []

    def work(k: int) -> None:
        try:
            results[k] = run("comb.binomial", {"n": 40 + k, "k": 20})["value"]
        except Exception as exc:  # recorded and asserted below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    from math import comb
    assert not errors and results == {k: comb(40 + k, 20) for k in range(6)}


def test_the_worker_refuses_to_trust_a_payload_that_skipped_validation():
    # The child re-validates the JSON it receives; a request built without validation and
    # holding a bad value is rejected there and reported as a fault, never computed.
    tool = catalog.get("comb.binomial")
    forged = tool.request.model_construct(n=-5, k=2)
    with pytest.raises(MathError) as info:
        isolation.execute(tool, forged)
    assert info.value.kind == "backend_fault"
    assert info.value.detail["code"] == "unexpected_exception"
    assert "Traceback" not in str(info.value)


def test_the_helper_still_ignores_sigint_after_a_backend_installs_a_handler():
    """cypari2's import (nt.integer.factor's PARI) installs cysignals' SIGINT handler; the
    helper puts SIG_IGN back, so an interrupt neither ends it nor reaches its children."""
    assert run("nt.integer.factor", {"n": 360})["factors"][0]["prime"] == 2  # PARI loaded
    pid = isolation._HELPER._pid
    os.kill(pid, signal.SIGINT)
    assert run("nt.integer.factor", {"n": 12})["factors"][0]["prime"] == 2
    assert isolation._HELPER._pid == pid  # the same helper answered: it was not restarted
