"""The generated task-call path keeps every guard of `calls.run_body` exactly.

A direct body (runtime/codegen.py) takes the call depth as an argument instead of counting it
in REG.depth, and each call site caches the task it last called with that task's direct body.
Each program below runs through the generated path and through the closures (`SYNSEMA_CLOSURES`
off, tests/test_codegen_differential.py's `assert_same`), with and without `--labels`, and must
print, fail and exit alike; each also asserts the output a dropped guard would change: a callee
rebound while its callers are loaded, the recursion limit exactly at and one past it through
direct, frame and callback calls, the depth after a caught recursion error, `steps()`, an error
deep in a recursion keeping its position. Ctrl-C and `--time-limit` must stop a deep recursion
of direct calls, in a run and at the REPL, which then calls the same tasks again.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time

import pytest

from tests.bounds.conftest import assert_language_error, run_bounded
from tests.test_codegen_differential import assert_same

DOWN = "task down(n)\n    when n == 0\n        give 0\n    give 1 + down(n - 1)\n"

# name: (program, a line its output must hold, or a text its stderr must hold)
PROGRAMS = {
    "callee rebound between calls": (
        "task f(x)\n    give x + 1\ntask g(x)\n    give f(x) * 2\nprint(g(1))\n"
        "set f to (x) => x * 10\nprint(g(1))\n"
        "task f(x)\n    give x - 1\nprint(g(1))\n"
        "set f to length\nprint(g(\"abc\"))\n"
        "set f to (a, b) => a + b\ntry\n    print(g(1))\nrecover e\n    print(e)\n"
        "set f to 5\nprint(g(1))\n",
        ["4", "20", "0", "6", "lambda is missing argument 'b'"], "prog.syn:4:10"),
    "a callee that is a parameter": (
        "task run(h, x)\n    give h(x)\n"
        "print(run((x) => x + 1, 1), run((x) => x * 3, 2), run(length, [1, 2]), run(run, 1))\n",
        [], "prog.syn:2:10: task 'run' is missing argument 'x'"),
    "same code, another environment": (
        "task run(h, x)\n    give h(x)\neach i in range(3)\n    task f(x)\n        give x + i\n"
        "    print(run(f, 10))\n"
        "task maker(k)\n    task add(x)\n        give x + k\n    give add\n"
        "print(run(maker(1), 0), run(maker(2), 0), run(maker(3), 0))\n",
        ["10", "11", "12", "1 2 3"], None),
    "recursion limit at and past it, frame and direct bodies mixed": (
        DOWN
        + "task framed(n)\n    when n == 0\n        give 0\n    try\n        let r be 1 + framed2(n - 1)\n"
        "    recover e\n        raise e\n    give r\n"
        "task framed2(n)\n    when n == 0\n        give 0\n    give 1 + framed(n - 1)\n"
        "print(framed(2999))\ntry\n    print(framed(3000))\nrecover e\n    print(`framed: {e}`)\n"
        "try\n    print(down(5000))\nrecover e\n    print(e, steps())\n"
        "print(down(2999), steps())\n"
        "try\n    print(down(3000))\nrecover e\n    print(`down: {e}`)\n",
        ["2999", "framed: maximum recursion depth exceeded", "maximum recursion depth exceeded 9000", "2999 12000",
         "down: maximum recursion depth exceeded"], None),
    "callbacks at the recursion limit": (
        DOWN + "print(apply([2997], (x) => down(x)))\n"
        "try\n    print(apply([2998], (x) => down(x)))\nrecover e\n    print(`apply: {e}`)\n"
        "print(reduce([2997], (a, x) => a + down(x), 0))\n"
        "try\n    print(reduce([2998], (a, x) => a + down(x), 0))\nrecover e\n    print(`reduce: {e}`)\n"
        "print(steps())\n",
        ["[2997]", "apply: maximum recursion depth exceeded", "2997",
         "reduce: maximum recursion depth exceeded"], None),
    "a builtin at the bottom of a direct recursion": (
        "task bottom(n)\n    when n == 0\n        give length(\"xy\")\n    give bottom(n - 1)\n"
        "print(bottom(2998))\ntry\n    print(bottom(2999))\nrecover e\n    print(`bottom: {e}`)\n"
        "task ranged(n)\n    when n == 0\n        let s be 0\n        each k in range(3)\n"
        "            set s to s + k\n        give s\n    give ranged(n - 1)\n"
        "print(ranged(2998))\ntry\n    print(ranged(2999))\nrecover e\n    print(`ranged: {e}`)\n",
        ["2", "bottom: maximum recursion depth exceeded", "3", "ranged: maximum recursion depth exceeded"],
        None),
    "an error deep in a recursion keeps its position": (
        "task dig(n, xs)\n    when n == 0\n        give xs[5]\n    give dig(n - 1, xs)\n"
        "print(steps())\nprint(dig(100, [1]))\n",
        ["0"], "prog.syn:3:"),
    "the uncaught recursion error": (
        DOWN + "print(down(10), steps())\nprint(down(4000))\n", ["10 11"], "prog.syn:4:14"),
    "public and closed bodies before and after something is private": (
        "let limit be 3\n"
        "task fib(n)\n    when n < 2\n        give n\n    give fib(n - 1) + fib(n - 2)\n"
        "task capped(n)\n    when n < limit\n        give n\n    give capped(n - 1)\n"
        "print(fib(10), capped(8), steps())\nlet s be private(4, \"app\")\n"
        "print(fib(10), capped(8), steps())\nprint(declassify(fib(s), \"ok\"), declassify(capped(s), \"ok\"))\n"
        "set fib to (n) => n * 100\nprint(capped(8), fib(2))\n",
        ["55 2", "55 2", "3 2", "2 200"], None),
    # Once something is private a closed body's recursive calls hit its call sites' caches
    # (codegen.public_call): the depth limit, the steps and an error's position all on that path.
    "closed bodies at the recursion limit once something is private": (
        DOWN + "task dig(n)\n    when n == 0\n        give 10 // n\n    give dig(n - 1)\n"
        "let s be private(1, \"app\")\ntask count()\n    give declassify(steps(), \"work\")\n"
        "print(down(2999), count())\n"
        "try\n    print(down(3000))\nrecover e\n    print(`down: {e}`, count())\n"
        "print(down(5), count())\nprint(dig(40))\n",
        ["2999 3001", "down: maximum recursion depth exceeded 6002", "5 6009"], "prog.syn:7:14"),
    # Under --labels each call below starts a public run that meets `length` at its bottom and
    # gives up; the steps it took are taken back (one entry per arity) and the labelled body
    # runs the calls again: steps() counts each call once.
    "steps after public runs given up part-way": (
        "task one(n)\n    when n == 0\n        give length([1, 2])\n    give one(n - 1) + 1\n"
        "task two(n, k)\n    when n == 0\n        give length([1, 2]) + k\n    give two(n - 1, k) + 1\n"
        "print(one(5), steps())\nprint(two(5, 1), steps())\nprint(one(3), two(3, 0), steps())\n",
        ["7 6", "8 12", "5 5 20"], None),
    # A parameter read by two or more int fast paths is tested once, at the body's entry
    # (Generator.hoist_int_tests), unless the body assigns it: each call below gives the
    # parameter another kind of value, and the tasks that assign theirs change its kind part-way.
    "a parameter's int test made once, and parameters the body assigns": (
        "task three(n)\n    give [n + 1, n - 1, n * 2, n < 3, n == 2, n // 2, n % 2]\n"
        "print(three(2), three(-7))\nprint(three(2.5))\n"
        "each v in [\"ab\", true, nothing, [1]]\n    try\n        print(three(v))\n    recover e\n        print(e)\n"
        "task kinds(n, m)\n    let a be n + m\n    set n to true\n    try\n        give [a, n + 1, n - 1]\n"
        "    recover e\n        give [a, e]\n"
        "print(kinds(1, 2))\n"
        "task texts(n)\n    let a be n + 1\n    set n to \"x\"\n    give [a, n + \"y\", n * 2]\n"
        "try\n    print(texts(1))\nrecover e\n    print(e)\n"
        "task counted(n)\n    while n < 3\n        set n to n + 0.5\n    give [n, n + 1]\n"
        "print(counted(1))\n"
        "task rebound(n)\n    let k be n + 1\n    each n in [\"a\"]\n        print(n + \"b\")\n    give n - k\n"
        "print(rebound(4))\n"
        "task matched(n, xs)\n    let k be n + 1\n    match xs\n        is [n]\n            give [k, n + 1, n - 1]\n"
        "    give [k, n - 1]\n"
        "try\n    print(matched(1, [\"a\"]))\nrecover e\n    print(e)\nprint(matched(1, [5]), matched(1, 2))\n"
        "print(apply([1, 2], (x) => x + x * 2 - x), steps())\n",
        ["[3, 1, 4, true, true, 1, 0] [-6, -8, -14, true, false, -4, 1]", "[3.5, 1.5, 5.0, true, false, 1.0, 0.5]",
         "Unsupported operation: bool + number", '[3, "Unsupported operation: bool + number"]',
         "Unsupported operation: text * number", "[3.0, 4.0]", "-1", "[2, 6, 4] [2, 0]", "[2, 4] 16"], None),
}


@pytest.mark.parametrize("labels", [False, True])
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_the_call_path_computes_what_the_closures_compute(tmp_path, name, labels):
    source, lines, err_text = PROGRAMS[name]
    if "private(" in source and not labels:
        pytest.skip("private values need --labels")
    code, out, err, _ = assert_same(tmp_path, source, labels)
    printed = out.splitlines()
    for line in lines:
        assert any(p == line or p.startswith(line + " ") for p in printed), (line, out, err)
    if err_text is not None:
        assert code == 1 and err_text in err, err
    else:
        assert code == 0, err


FIB = "task fib(n)\n    when n < 2\n        give n\n    give fib(n - 1) + fib(n - 2)\n"


def _program(tmp_path, source: str) -> str:
    path = tmp_path / "p.syn"
    path.write_text(source, encoding="utf-8")
    return str(path)


# Ctrl-C in a deep recursion of direct calls: tests/bounds/test_edges.py, "deep recursion".
def test_the_time_limit_ends_a_deep_recursion_of_direct_calls(tmp_path):
    result = run_bounded("run", "--time-limit", "1", _program(tmp_path, FIB + "print(fib(60))\n"), timeout=60)
    assert_language_error(result, "time limit of 1 s exceeded", code=3)


def test_the_repl_calls_the_same_tasks_after_ctrl_c_in_a_recursion(tmp_path):
    """After Ctrl-C the session keeps its tasks and their call sites' caches: the same tasks
    still compute, and the depth starts again from zero (down(2999) is exactly the limit)."""
    from tests.repl.conftest import repl_env
    proc = subprocess.Popen([sys.executable, "-m", "synsema", "repl"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
                            env=repl_env(tmp_path / "data"))
    proc.stdin.write(FIB + "\n" + DOWN + "\nfib(60)\n")
    proc.stdin.flush()
    time.sleep(2)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate("print(fib(15))\nprint(down(2999))\n", timeout=30)
    assert (proc.returncode, out, err) == (0, "610\n2999\n", "Interrupted\n")


def test_a_parameter_read_by_int_paths_is_tested_once_at_entry(tmp_path, monkeypatch):
    """The program above does go through the hoisted test: `three`'s parameter is tested once
    at its entry, and `texts`, which assigns its `n`, keeps the test at each operation."""
    from synsema.runtime import codegen
    sources = []
    original = codegen._compiled

    def spy(source):
        sources.append(source)
        return original(source)
    monkeypatch.setattr(codegen, "_compiled", spy)
    assert_same(tmp_path, PROGRAMS["a parameter's int test made once, and parameters the body assigns"][0], False)
    three = next(s for s in sources if "v1 % " in s)
    assert three.count("v1_int = v1.__class__ is int") == 1 and "v1.__class__" not in three.replace(
        "v1_int = v1.__class__", ""), three
    texts = next(s for s in sources if "v1 * " in s and "v1 = " in s)
    assert "v1_int" not in texts and texts.count("v1.__class__ is int") == 2, texts


def test_an_exhausted_step_counter_stops_a_run_loudly(tmp_path, monkeypatch):
    """A direct call takes its step with a `for` loop left at once (Generator.step); were STEPS
    exhausted (after sys.maxsize steps), the loop's `else` raises as `next(STEPS)` does, so the
    count never stops silently. Planted here: a STEPS of three items for the generated bodies."""
    import itertools

    from synsema.runtime import codegen
    from tests.test_codegen_differential import _run
    monkeypatch.setitem(codegen._NAMESPACE, "STEPS", itertools.repeat(None, 3))
    code, out, err, _ = _run(str(tmp_path / "p.syn"), FIB + "print(fib(2))\nprint(fib(10))\n", False, True)
    assert code != 0 and out == "1\n", (code, out, err)
    assert "StopIteration" in err, err
