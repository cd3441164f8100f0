"""Generated code reads a global by its name and still sees every rebinding at once.

runtime/codegen.py makes the program's globals the builtins of each generated function, so a
read of a global is CPython's LOAD_GLOBAL of the dictionary's current entry (`Generator.global_read`)
instead of a subscript of it. Nothing is cached, so no proof that a name is never rebound is
needed; these programs rebind names in every way the language allows while code that reads them
stays loaded (`set` at the top level and inside a task, a task defined again under the same name,
a loop rebinding a callee each turn, a module's exported variable set from outside, the REPL's
later entries) and must still call the new value. Names that the generated function uses itself
(its values k0, call-site caches, `g`, Python's builtins, names starting with `_`) are read from
the dictionary; a global with such a name must read its own value, and a global whose name Python
would normalise (NFKC) must not be confused with another. Each program runs generated and on the
closures (`SYNSEMA_CLOSURES`), with and without `--labels`, and must also print what it requires.
A comparison that is a branch's test is written as the test itself, but only when its operands
are held in no temporary that the branch's start drops.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.test_codegen_differential import assert_same

CALLER = "task f(x)\n    give x + 1\ntask caller(x)\n    give f(x) * 2\n"

# Names the generated function holds itself, Python builtins, and two names NFKC folds together.
OWN_NAMES = ["int", "len", "k0", "k3", "site0", "site0_fn", "site1_env", "g", "rt", "reg", "st", "store",
             "make", "t1", "v1", "depth", "env", "error", "problem", "direct", "body", "f0", "i1", "U", "GIVE",
             "Task", "NameError", "KeyError", "SynError", "RECURSION_LIMIT", "_G0", "_G1", "__builtins__", "_INT_LOW", "ﬁb", "fib", "Ǆx"]

# name: (program, lines its output must hold, text its stderr must hold or None, modules beside it)
PROGRAMS = {
    "a callee rebound in every way": (
        CALLER
        + "print(caller(1))\nset f to (x) => x * 10\nprint(caller(1))\n"
        "task rebind()\n    set f to (x) => x - 100\nrebind()\nprint(caller(1))\n"
        "task f(x)\n    give x + 5\nprint(caller(1))\n"
        "each f in [(x) => 7]\n    print(`loop {caller(1)}`)\n"
        "each h in [(x) => x + 1, (x) => x + 2]\n    set f to h\n    print(`turn {caller(10)}`)\n"
        "set f to length\nprint(caller(\"abc\"))\n"
        "set f to 5\nprint(caller(1))\n",
        ["4", "20", "-198", "12", "loop 12", "turn 22", "turn 24", "6"], "prog.syn:4:10", None),
    "a module's exported variable set from outside": (
        "use \"./mod.syn\" as mod\nprint(mod.bump(1))\nset mod.base to 10\nprint(mod.bump(1))\n"
        "each k in range(2)\n    set mod.base to k * 100\n    print(`bump {mod.bump(1)}`)\n",
        ["2", "11", "bump 1", "bump 101"], None,
        {"mod.syn": "export let base be 1\nexport task bump(x)\n    give x + base\n"}),
    "a global read before it exists, then after": (
        "task later_plus_one()\n    give later + 1\n"
        "try\n    print(later_plus_one())\nrecover e\n    print(`first: {e}`)\n"
        "let later be 41\nprint(later_plus_one())\n"
        "each i in range(2)\n    print(`loop {later + i}`)\n"
        "print(missing_name)\n",
        ["first: ", "42", "loop 41", "loop 42"], "prog.syn:11:7", None),
    "globals named as the generated code's own names": (
        "".join(f"let {n} be {i}\n" for i, n in enumerate(OWN_NAMES))
        + "task own()\n    give [" + ", ".join(OWN_NAMES) + "]\n"
        "print(own())\neach i in range(1)\n    print([" + ", ".join(OWN_NAMES) + "])\n"
        "set fib to 1000\nprint(own()[-2], ﬁb)\n",
        ["[" + ", ".join(str(i) for i in range(len(OWN_NAMES))) + "]", "1000 34"], None, None),
    "a comparison as a branch's test, operands in temporaries": (
        "task three()\n    give 3\n"
        "task size(x)\n    when three() < x\n        give \"big\"\n    otherwise when x < three()\n"
        "        give \"small\"\n    give \"three\"\n"
        "print(size(5), size(1), size(3))\n"
        "let xs be [1]\nwhile length(xs) < 4\n    set xs to append(xs, length(xs))\nprint(xs)\n"
        "task count_up(n)\n    let ys be []\n    while length(ys) < n\n        set ys to append(ys, 0)\n    give ys\n"
        "print(count_up(3))\n",
        ["big small three", "[1, 1, 2, 3]", "[0, 0, 0]"], None, None),
    "top-level loops with their own frames in locals": (
        "let acc be []\neach x in range(5)\n    let y be x * 2\n    when y > 4\n        set acc to append(acc, y)\n"
        "    each z in [1, 2]\n        let w be z + y\n        set acc to append(acc, x + w)\nprint(acc)\n"
        "each k in {\"a\": 1, \"b\": 2}\n    print(`key {k}`)\n"
        "let total be 0\neach x in range(10)\n    when x == 7\n        stop\n    set total to total + x\nprint(`total {total}`)\n"
        "each x in [1, 2]\n    match [x, 1]\n        is [1, b]\n            print(`one {b}`)\n        otherwise\n"
        "            print(\"other\")\n"
        "each x in [1, 2]\n    print(`lambda {apply([x], (v) => v + x)}`)\n"
        "let n be 0\nwhile n < 3\n    each x in [n]\n        set n to n + 1 + x\nprint(`n {n}`)\n"
        "each x in [[1], 3]\n    print(x[0])\n",
        ["[1, 2, 4, 5, 7, 8, 6, 10, 11, 8, 13, 14]", "key a", "key b", "total 21", "one 1",
         "other", "lambda [2]", "lambda [4]", "n 3", "1"], "prog.syn:32:11", None),
    "the general paths of in-place statements and of range, names rebound": (
        "let acc be []\neach x in range(3)\n    set acc to append(acc, x)\n"
        "set append to (xs, v) => [v]\nset range to (n) => [n, n]\n"
        "each x in range(3)\n    set acc to append(acc, x)\nprint(`rebound {acc}`)\n"
        "task deep(n)\n    when n == 0\n        let ys be [1, 2, 3]\n        each y in range(1)\n"
        "            set ys to slice(ys, 1)\n        give ys\n    give deep(n - 1)\nprint(`deep {deep(3)}`)\n"
        "set slice to (xs, i) => \"cut\"\nlet zs be [1, 2]\neach z in [0]\n    set zs to slice(zs, 1)\nprint(`sliced {zs}`)\n"
        "let text_acc be \"ab\"\nset append to length\neach x in [1]\n    set text_acc to append(text_acc, x)\n",
        ["rebound [3]", "deep [3]", "sliced cut"], "prog.syn:25:21", None),
}


@pytest.mark.parametrize("labels", [False, True])
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_generated_global_reads_see_every_rebinding(tmp_path, name, labels):
    source, lines, err_text, files = PROGRAMS[name]
    code, out, err, _ = assert_same(tmp_path, source, labels, files)
    printed = out.splitlines()
    for line in lines:
        assert any(p == line or p.startswith(line) for p in printed), (line, out, err)
    if err_text is not None:
        assert code == 1 and err_text in err, err
    else:
        assert code == 0, err


REPL_ENTRIES = (CALLER + "\nprint(caller(1))\nset f to (x) => x * 10\nprint(caller(1))\n"
                "task f(x)\n    give x - 1\n\nprint(caller(1))\n"
                "let total be 0\neach i in range(3)\n    set total to total + caller(i)\n\nprint(total)\n"
                "set f to (x) => 100\neach i in range(1)\n    print(caller(i))\n\n")


@pytest.mark.parametrize("closures", ["0", "1"])
def test_the_repl_calls_what_a_later_entry_rebound(tmp_path, closures):
    """Tasks loaded by one entry read a global that later entries rebind (set, a task of the
    same name): every call, and a top-level loop's, sees the value of the moment."""
    from tests.repl.conftest import repl_env
    env = {**repl_env(tmp_path / "data"), "SYNSEMA_CLOSURES": closures}
    done = subprocess.run([sys.executable, "-m", "synsema", "repl"], input=REPL_ENTRIES, capture_output=True,
                          text=True, cwd=tmp_path, env=env, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (0, "4\n20\n0\n0\n200\n", ""), done
