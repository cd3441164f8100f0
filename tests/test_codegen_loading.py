"""What making generated code costs a run before its first call (issue 31, session 5).

A task, a lambda or a loop makes `synsema run` import runtime/codegen.py and compile the bodies it
writes; that fixed cost is paid by every run, so it is kept to what such a program uses:

* the bodies are made without `compile()` (codegen._compiled runs the source with `exec`), whose
  first call in a process creates the `_ast` module's node classes (about ten million
  instructions), more than compiling the bodies of fib;
* `match` is written by runtime/codegen_match.py, loaded at the first `match` a generated body
  holds, with runtime.patterns; the fast-path closures (runtime.fastpaths) and the assertion
  recorder (runtime.assertions) stay unloaded by a body that needs neither.

Each program runs in a fresh interpreter so that what it loads first is really loaded there, and
its output is compared with the closures' (`SYNSEMA_CLOSURES=1`), with and without `--labels`.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import ROOT, synsema_env
from synsema.runtime import codegen, fastpaths

# A fresh interpreter running `synsema run` with `compile()` refusing anything but a module's
# source file (importing a module without its .pyc compiles it): every body it generates must be
# made without it.
NO_COMPILE = """
import builtins, json, sys
from synsema.runtime import cli, codegen
from synsema.stdlib.registry import load_all
load_all()
made = []
original = codegen._compiled
def spy(source):
    made.append(source)
    return original(source)
codegen._compiled = spy
compile_module = builtins.compile
def refuse(source, filename, *args, **kwargs):
    if not str(filename).endswith(".py"):
        raise AssertionError("compile() called")
    return compile_module(source, filename, *args, **kwargs)
builtins.compile = refuse
code = cli.main(["run", *sys.argv[2:], sys.argv[1]])
sys.stdout.flush()
print(json.dumps({"code": code, "made": len(made), "refused": codegen.REFUSED}))
"""

# A task (direct body, two call sites), a lambda handed to a builtin (its callback entry), a
# lambda value called from a loop, a top-level loop, a `match` in a task, an error from a
# generated body.
PROGRAM = """task fib(n)
    when n < 2
        give n
    give fib(n - 1) + fib(n - 2)
task kind(v)
    match v
        is ["add", a, b]
            give a + b
        is ["neg", a]
            give -a
        is []
            give "empty"
        otherwise
            give "other"
let double be (x) => x * 2
let acc be []
each x in range(5)
    set acc to append(acc, double(x) + 1)
print(fib(15), acc, apply([1, 2, 3], (y) => y * y), where(acc, (y) => y > 4))
print(kind(["add", 2, 3]), kind(["neg", 4]), kind([]), kind(7))
print(steps())
task bad(n)
    give n - "a"
print(bad(1))
"""


def _run(source_path, flags: list[str], closures: bool):
    env = synsema_env()
    env["SYNSEMA_CLOSURES"] = "1" if closures else "0"
    return subprocess.run([sys.executable, "-c", NO_COMPILE, str(source_path), *flags], capture_output=True,
                          text=True, env=env, cwd=ROOT, timeout=60)


@pytest.mark.parametrize("flags", [[], ["--labels"]])
def test_generated_bodies_are_made_without_compile(tmp_path, flags):
    program = tmp_path / "p.syn"
    program.write_text(PROGRAM, encoding="utf-8")
    generated, closures = _run(program, flags, False), _run(program, flags, True)
    *out, report = generated.stdout.splitlines()
    report = json.loads(report)
    assert "compile() called" not in generated.stderr and "Traceback" not in generated.stderr, generated.stderr
    assert report["code"] == 1 and report["refused"] == [] and report["made"] >= 3, report
    assert out == closures.stdout.splitlines()[:-1]
    assert generated.stderr == closures.stderr and "Unsupported operation: number - text" in generated.stderr
    assert out[:2] == ["610 [1, 3, 5, 7, 9] [1, 4, 9] [5, 7, 9]", "5 -4 empty other"], out


def test_a_generated_body_refused_by_python_stays_on_the_closures():
    """What Python refuses to compile (`exec` raises as `compile()` did) is recorded and given up."""
    deep = "def make():\n" + "".join("    " * (i + 1) + "while x:\n" for i in range(30)) + "    " * 31 + "pass\n"
    with pytest.raises(SyntaxError):
        codegen._compiled(deep)
    code, _ = codegen._compiled("def make():\n    return made\n")
    namespace = {"made": 7}
    assert codegen._define(code, namespace) is namespace["make"] and namespace["make"]() == 7


OPERATORS = ["+", "-", "*", "/", "//", "%", "**", "<", "<=", ">", ">=", "==", "!=", "in", "not in", "and", "or"]


@pytest.mark.parametrize("op", OPERATORS)
def test_the_fast_operators_are_fastpaths_own(op):
    assert (op in codegen._FAST_OPERATORS) == fastpaths.has_fast_path(op)


PROBE = """
import json, sys
from synsema.runtime.cli import main
code = main(["run", sys.argv[1]])
print(json.dumps({"code": code, "modules": sorted(sys.modules)}))
"""

# What the call and loop benchmarks never use: the match writer and runtime.patterns, the
# assertion recorder, and in fib the fast-path closures (the top-level append's last line,
# `acc[0]` in a top-level `print`, is the closure compiler's, which takes fastpaths' index).
NOT_FOR_CALLS = ("synsema.runtime.codegen_match", "synsema.runtime.patterns", "synsema.runtime.assertions")


@pytest.mark.parametrize("program, also", [("fib.syn", ("synsema.runtime.fastpaths",)),
                                           ("each_append_global.syn", ())])
def test_the_call_benchmarks_load_no_match_writer_fast_path_or_assertion_recorder(program, also):
    result = subprocess.run([sys.executable, "-c", PROBE, str(ROOT / "bench" / "programs" / program)],
                            capture_output=True, text=True, env=synsema_env(), cwd=ROOT, timeout=60)
    report = json.loads(result.stdout.splitlines()[-1])
    assert report["code"] == 0, result.stderr
    assert "synsema.runtime.codegen" in report["modules"]
    assert [m for m in report["modules"] if m in NOT_FOR_CALLS + also] == []


def test_a_match_is_written_by_the_module_loaded_at_its_first_use(tmp_path):
    program = tmp_path / "p.syn"
    program.write_text(PROGRAM.replace("print(bad(1))\n", ""), encoding="utf-8")
    result = subprocess.run([sys.executable, "-c", PROBE, str(program)], capture_output=True, text=True,
                            env=synsema_env(), cwd=ROOT, timeout=60)
    *out, report = result.stdout.splitlines()
    assert out[1] == "5 -4 empty other", result.stderr
    assert "synsema.runtime.codegen_match" in json.loads(report)["modules"]


# The generator's tests of names in its own text are string operations, not regular expressions
# (compiling a pattern costs a run more than generating a small body): each agrees with the pattern
# it replaced wherever that pattern says yes, and `_own_global` may say yes to more (a global of
# such a name is then read from the dictionary, which is always right).
_OWN_GLOBAL_PATTERN = r"k[0-9]+|site[0-9]+(?:_fn|_env)?|g|rt|reg|store|st|make|entry"
_NAME = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,8}", fullmatch=True)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.from_regex(_OWN_GLOBAL_PATTERN, fullmatch=True), _NAME))
def test_the_own_globals_test_says_yes_wherever_its_pattern_did(name):
    if re.fullmatch(_OWN_GLOBAL_PATTERN, name):
        assert codegen._own_global(name)
    elif not name.startswith(("k", "site")):
        assert not codegen._own_global(name)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(_NAME, st.sampled_from(["t1", "t12", "(", ")", " ", ".", "[", "'\\x00k3'", "t3.x",
                                                  "xt4", "t5_", "1"])), max_size=12))
def test_the_temporaries_of_a_test_are_its_pattern_s(parts):
    text = "".join(parts)
    found = [w for w in codegen._words(text) if codegen._is_temporary(w)]
    assert found == re.findall(r"\bt[0-9]+\b", text)


@pytest.mark.parametrize("text, written", [
    ("v1 = 2", True), ("t3 = v1 = U", True), ("v1 += 1", True), ("(v1 := t2)", True), ("for v1 in t4:", True),
    ("del v1", True), ("v1 == 2", False), ("t1 = v1 + 1", False), ("v12 = 3", False), ("v1_int = v1.__class__ is int", False),
    ("t2 = f(v1, 3)", False), ("x.v1 = 3", False), ("t1 = v1\nv1 //= 2", True), ("if v1 >= 3:", False), ("v1 <= 2", False)])
def test_what_writes_a_local(text, written):
    assert codegen._writes(text, "v1") is written
