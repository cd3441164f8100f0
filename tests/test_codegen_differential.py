"""The generated evaluator (runtime/codegen.py) computes exactly what the closures compute.

Every program here runs twice through the command line's own entry, in this process: once with
task bodies and loops generated (the default), once with `codegen.ENABLED` off, which keeps every
body on the closure compiler. Both runs must show the same exit code, stdout, stderr and written files — values,
errors with their file:line:col and message, `steps()`, the recursion limit — with and without
`--labels`. Two sources of programs: a hypothesis strategy aimed at what the generator writes
inline (tasks, calls, arithmetic on every kind of value, loops, `stop`, `give`, out-of-range
indexes, undefined names, deep recursion), and the noninterference tester's program generator
(tests/labels/nifuzz), which covers the rest of the language and the label rules.

The CI budget is small; `make fuzz-codegen N=2000` runs a bigger one (SYNSEMA_CODEGEN_EXAMPLES).
"""

from __future__ import annotations

import io
import os
import random
import shutil
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from synsema.lang import gcpause
from synsema.runtime import codegen

EXAMPLES = int(os.environ.get("SYNSEMA_CODEGEN_EXAMPLES", "120"))


def _run(path: str, source: str, labels: bool, generated: bool, flags: tuple = (), files=None) -> tuple:
    """Exit code, stdout, stderr and the files in the program's folder after one run (`flags`:
    more options of `synsema run`; `files`: name -> text written beside the program, modules)."""
    from synsema.runtime import cli
    from synsema.runtime.calls import REG
    folder = os.path.dirname(path)
    for entry in os.scandir(folder):   # each run starts from an empty folder
        if entry.is_dir(follow_symlinks=False):
            shutil.rmtree(entry.path)
        else:
            os.unlink(entry.path)
    for name, text in {os.path.basename(path): source, **(files or {})}.items():
        with open(os.path.join(folder, name), "w", encoding="utf-8") as handle:
            handle.write(text)
    saved = sys.stdout, sys.stderr, sys.stdin, codegen.ENABLED, os.getcwd()
    out, err = io.StringIO(), io.StringIO()
    REG.value, REG.depth, REG.stop_span, REG.steps = None, 0, None, 0
    sys.stdout, sys.stderr, sys.stdin = out, err, io.StringIO("")
    codegen.ENABLED = generated
    os.chdir(os.path.dirname(path))   # what a program writes stays in its folder
    try:
        code = cli.main(["run", *(["--labels"] if labels else []), *flags, path, "--", "7"])
    finally:
        sys.stdout, sys.stderr, sys.stdin, codegen.ENABLED = saved[:4]
        os.chdir(saved[4])
        gcpause.release()
    written = sorted((e.name, open(e.path, "rb").read()) for e in os.scandir(folder) if e.is_file())
    return code, out.getvalue(), err.getvalue(), written


def assert_same(tmp_path, source: str, labels: bool, files=None) -> tuple:
    path = str(tmp_path / "prog.syn")
    closures = _run(path, source, labels, generated=False, files=files)
    generated = _run(path, source, labels, generated=True, files=files)
    assert "Traceback" not in generated[2] and "Internal error" not in generated[2], generated[2]
    assert generated == closures, f"--- program\n{source}\n--- closures\n{closures}\n--- generated\n{generated}"
    assert codegen.REFUSED == [], f"Python refused generated code for\n{source}\n{codegen.REFUSED}"
    return generated


# ---------------------------------------------------------------------- the strategy
VALUES = ["0", "1", "-3", "7", "2.5", '"ab"', '""', "nothing", "true", "false", "[1, 2, 3]", "[]",
          '{"a": 1}', "1.5d", "100000000000000000000"]
OPS = ["+", "-", "*", "//", "%", "<", "<=", ">", ">=", "==", "!=", "/", "and", "or", "in"]


def _expressions(names: list[str]):
    atoms = st.sampled_from(VALUES + names)

    def extend(inner):
        return st.one_of(
            st.tuples(inner, st.sampled_from(OPS), inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
            st.tuples(inner, inner).map(lambda t: f"{t[0]}[{t[1]}]"),
            st.tuples(inner, st.sampled_from(["0", "-1", "5"])).map(lambda t: f"{t[0]}[{t[1]}]"),
            inner.map(lambda e: f"(not {e})"),
            inner.map(lambda e: f"(-{e})"),
            st.lists(inner, max_size=3).map(lambda xs: "[" + ", ".join(xs) + "]"),
            st.tuples(inner, inner, inner).map(lambda t: f"(when {t[0]} then {t[1]} otherwise {t[2]})"),
            st.tuples(st.sampled_from(["step", "twice", "length", "text", "missing", "fact", "pair"]),
                      st.lists(inner, min_size=0, max_size=2)).map(lambda t: f"{t[0]}(" + ", ".join(t[1]) + ")"),
            inner.map(lambda e: f"`v={{{e}}}`"),
            inner.map(lambda e: f"{e} |> text"),
            inner.map(lambda e: f"((x) => x * 2)({e})"),
        )
    return st.recursive(atoms, extend, max_leaves=6)


def _block(depth: int, names: list[str], in_loop: bool, in_task: bool):
    e = _expressions(names)
    simple = [
        e.map(lambda x: f"print({x})"),
        st.tuples(st.sampled_from(names), e).map(lambda t: f"set {t[0]} to {t[1]}"),
        st.tuples(st.sampled_from(["p", "q"]), e).map(lambda t: f"let {t[0]} be {t[1]}"),
        e.map(lambda x: f"set acc to append(acc, {x})"),
        st.tuples(st.sampled_from(["acc", "p", "b"]), e).map(lambda t: f"set {t[0]} to append({t[0]}, {t[1]})"),
        st.tuples(st.sampled_from(["b", "m", "p", "acc"]), st.sampled_from(['0', '-1', '5', '"a"', '"z"', "c"]), e)
        .map(lambda t: f"set {t[0]}[{t[1]}] to {t[2]}"),
        st.tuples(st.sampled_from(["m", "p"]), e).map(lambda t: f"set {t[0]}[text({t[1]})] to get({t[0]}, text({t[1]}), 0)"),
        e.map(lambda x: f"{x}"),
    ]
    if in_task:
        simple.append(e.map(lambda x: f"give {x}"))
    if in_loop:
        simple.append(st.just("stop"))
    if depth > 0:
        inner = _block(depth - 1, names, in_loop, in_task)
        loop_body = _block(depth - 1, names, True, in_task)
        simple += [
            st.tuples(e, inner, inner).map(lambda t: f"when {t[0]}\n{_indent(t[1])}\notherwise\n{_indent(t[2])}"),
            st.tuples(e, inner, e, inner).map(
                lambda t: f"when {t[0]}\n{_indent(t[1])}\nwhen {t[2]}\n{_indent(t[3])}"),
            st.tuples(st.integers(0, 4), loop_body).map(
                lambda t: f"let n{depth} be 0\nwhile n{depth} < {t[0]}\n    set n{depth} to n{depth} + 1\n{_indent(t[1])}"),
            st.tuples(e, loop_body).map(lambda t: f"each it in {t[0]}\n{_indent(t[1])}"),
            st.tuples(st.integers(0, 4), loop_body).map(lambda t: f"each it in range({t[0]})\n{_indent(t[1])}"),
            st.tuples(inner).map(lambda t: f"try\n{_indent(t[0])}\nrecover err\n    print(err)"),
            st.tuples(e, inner).map(lambda t: f"match {t[0]}\n    is [h, ...rest]\n{_indent(t[1], 2)}\n"
                                              f"    otherwise\n        print(\"other\")"),
        ]
    return st.lists(st.one_of(*simple), min_size=1, max_size=4).map("\n".join)


def _indent(text: str, times: int = 1) -> str:
    return "\n".join("    " * times + line for line in text.split("\n"))


PRELUDE = """let a be 3
let b be [1, 2, 3]
let c be "hi"
let acc be []
let m be {"a": 1}
task step(x)
    give x + 1
task twice(x, y)
    give [x, y]
task fact(k)
    when k <= 1
        give 1
    give k * fact(k - 1)
task pair(u, v = 2)
    give u * v
task count(n)
    let i be 0
    let t be []
    while i < n
        set i to i + 1
        when i % 3 == 0
            stop
        set t to append(t, i - 1)
    give t
print(fact(5), pair(3), step(4), twice(1, 2), count(5))
"""

programs = st.tuples(_block(2, ["a", "b", "c", "x"], False, True), _block(2, ["a", "b", "c"], False, False)).map(
    lambda t: PRELUDE + "task body(x)\n" + _indent(t[0]) + "\nprint(body(a))\nprint(body(b))\n" + t[1]
    + "\nprint(a, b, c, m, length(acc), steps())\n")


@settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(source=programs, labels=st.booleans())
def test_generated_programs_compute_what_the_closures_compute(tmp_path, source, labels):
    assert_same(tmp_path, source, labels)


# ---------------------------------------------------------------------- the label fuzzer's programs
NIFUZZ_SEEDS = max(10, EXAMPLES // 3)


@pytest.mark.parametrize("labels", [True, False])
def test_nifuzz_programs_compute_what_the_closures_compute(tmp_path, labels):
    sys.path.insert(0, os.path.dirname(__file__))
    try:
        from labels.nifuzz.generator import generate
    finally:
        sys.path.pop(0)
    start = random.Random(31).randrange(1, 10 ** 6)
    for seed in range(start, start + NIFUZZ_SEEDS):
        assert_same(tmp_path, generate(seed).source(), labels)


# ---------------------------------------------------------------------- fixed cases
FIXED = {
    "recursion limit": "task down(n)\n    give down(n + 1)\nprint(down(0))\n",
    "recursion caught": ("task down(n)\n    give down(n + 1)\ntry\n    down(0)\nrecover e\n    print(e, steps())\n"
                         "print(steps())\n"),
    "integer limit": "task sq(n)\n    let k be n\n    while true\n        set k to k * k\nprint(sq(3))\n",
    "stop leaving a task": "task out()\n    stop\neach i in range(5)\n    print(i)\n    out()\nprint(\"after\")\n",
    "stop in a task body": "task f()\n    stop\nprint(f())\n",
    "give from a loop": "task find(xs)\n    each x in xs\n        when x > 2\n            give x\n    give -1\nprint(find([1, 5, 3]), find([]))\n",
    "undefined callee": "task f(x)\n    give nope(x)\nprint(f(1))\n",
    "arity": "task f(x)\n    give x\ntask g()\n    give f(1, 2)\nprint(g())\n",
    "unbound local read": "task f(x)\n    when x\n        let y be 1\n    give y\nprint(f(true))\nprint(f(false))\n",
    "set of an outer variable": ("let total be 0\ntask add(x)\n    set total to total + x\n    give total\n"
                                 "print(add(2), add(3), total)\n"),
    "value semantics": ("task f(xs)\n    let ys be xs\n    set ys to append(ys, 9)\n    set ys[0] to 7\n    give [xs, ys]\n"
                        "let b be [1, 2]\nprint(f(b), b)\n"),
    "closure sees later set": ("task f()\n    let k be 1\n    let g be () => k\n    set k to 2\n    give g()\n"
                               "print(f())\n"),
    "each over a map and a text": "task f(m)\n    each k in m\n        print(k)\n    each ch in \"ab\"\n        print(ch)\nf({\"x\": 1, \"y\": 2})\n",
    "each over a number": "task f()\n    each k in 5\n        print(k)\nf()\n",
    "division by zero": "task f(x)\n    give x % 0\nprint(f(3))\n",
    "private in a hot loop": ("let s be private(5, \"app\")\ntask f(n)\n    let t be 0\n    let i be 0\n"
                              "    while i < n\n        set t to t + i\n        set i to i + 1\n    give t\n"
                              "print(f(10))\nprint(declassify(f(s), \"ok\"))\n"),
    "top-level loop steps": "let i be 0\nwhile i < 5\n    set i to i + 1\nprint(i, steps())\n",
    "blocks of bare constants": ("each it in [1, 2]\n    1\nlet k be 0\nwhile k < 2\n    set k to k + 1\n    when k\n        2\n"
                                 "task f(x)\n    when x\n        1\n    each i in [1]\n        2\n    give 3\nprint(f(true), k)\n"),
}


BENCH = os.path.join(os.path.dirname(__file__), "..", "bench", "programs")


@pytest.mark.parametrize("name", ["fib", "closures", "each_append", "fib_private"])
def test_benchmark_programs(tmp_path, name):
    with open(os.path.join(BENCH, name + ".syn"), encoding="utf-8") as handle:
        source = handle.read().replace("fib(25)", "fib(12)").replace("100000", "3000")
    assert_same(tmp_path, source, labels=name == "fib_private")


@pytest.mark.parametrize("labels", [False, True])
@pytest.mark.parametrize("name", sorted(FIXED))
def test_fixed_programs(tmp_path, name, labels):
    code, out, err, _ = assert_same(tmp_path, FIXED[name], labels)
    if name == "recursion limit":
        assert code == 1 and "maximum recursion depth exceeded" in err and "prog.syn:2:" in err
    if name == "integer limit":
        assert code == 1 and "prog.syn:4:" in err
    if name == "set of an outer variable":
        assert out == "5 5 5\n" or out.startswith("2 5")


def test_hot_bodies_are_direct():
    """The shapes the benchmarks time get direct bodies (a silent fall back to the closures
    would pass every differential test and only show in bench/)."""
    from synsema.runtime.interp import Runtime
    output = io.StringIO()
    rt = Runtime(out=output.write, err=output.write)
    rt.run_main("task fib(n)\n    when n < 2\n        give n\n    give fib(n - 1) + fib(n - 2)\n"
                "task count(xs)\n    let m be {}\n    each x in xs\n        set m[x] to get(m, x, 0) + 1\n"
                "    give m\nlet scale be (x) => x * 2 + 1\n", "hot.syn")
    for name in ("fib", "count", "scale"):
        assert rt.globals[name].code.direct is not None, name
