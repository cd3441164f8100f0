"""The statement and operator fast paths compute exactly what the general ones do.

What is checked, each case in a task (where the fast paths apply): a `let` or `set` of a local
written by the generated operator or index closure itself (runtime.fastpaths' `Store`),
including a `set` whose local is not bound yet (it assigns the outer variable); `xs[i]` / `m[k]`
with both operands read inline, every operand kind; text constants in `==` / `!=`;
`set xs to slice(xs, i, j)` cutting a private list in place and leaving a shared one alone;
`set xs to append(xs, v)` with its callee looked up directly; `while true`. Every value case is
also run under `--labels`, where no fast store applies, and must print the same. Errors keep
their messages and their file:line:col.
"""

from __future__ import annotations

import pytest

from conftest import run_synsema

# (name, body of `task case(p, q)`, the call's arguments, expected output)
VALUES = [
    ("index: param list, local/param/constant/computed position, global list",
     """let j be 1
print(p[q], p[j], p[-1], p[-3], p[j + 1], p[1.0], G[j], G[q])""", "[1, 2, 3], 0", "1 2 3 1 3 2 20 10"),
    ("index: maps (text key, number key as text), texts, nested lists",
     """let n be {"1": "one", "b": 2}
let k be "b"
print(p[q], n[1], n[k], "abc"[-1], "abc"[1], [[1, 2], [3, 4]][1][0])""", '{"a": 5}, "a"', "5 one 2 c b 3"),
    ("let fused with + * % < == != on ints",
     """let a be p + q
let b be p * q
let c be p % q
let d be p < q
let e be p == 1
let f be q != 2
print(a, b, c, d, e, f)""", "7, 3", "10 21 1 false false true"),
    ("let fused: floats and bools take the general operators",
     """let a be p + 1
let b be p * 2
let c be p < 2
let d be q == 1
let e be q == 1.0
let one be 1
let f be one == 1.0
print(a, b, c, d, e, f)""", "1.5, true", "2.5 3.0 true true true true"),
    ("text constants in == and !=: only an equal text is equal",
     """let a be p == "add"
let b be "add" != p
let c be q == "1"
let d be q != "add"
print(a, b, c, d)""", '"add", 1', "true false false true"),
    ("let fused with an index: list, map, text",
     """let a be p[0]
let b be q["k"]
let c be "xyz"[1]
print(a, b, c)""", '[4, 5], {"k": "v"}', "4 v y"),
    ("set of a local fused with its operator, repeatedly",
     """let y be 1
set y to y + p
set y to y * 2
set y to y - q
set y to y < 10
set y to y == true
print(y)""", "2, 1", "true"),
    ("set fused with an index, and with a text comparison",
     """let y be 0
set y to p[1]
let z be false
set z to q == "on"
print(y, z)""", '[7, 8], "on"', "8 true"),
    ("set of a name whose local is not bound yet assigns the outer (global) variable",
     """set COUNTER to COUNTER + p
set COUNTER to COUNTER * 2
let COUNTER be 0
print(COUNTER)""", "1, 0", "0"),
    ("slice idiom: a private list is cut, a list shared with another name is not",
     """let s be [1, 2, 3, 4]
let keep be s
set s to slice(s, 0, -1)
let t be [1, 2, 3, 4]
set t to slice(t, 0, -1)
set t to slice(t, 1)
print(s, keep, t)""", "0, 0", "[1, 2, 3] [1, 2, 3, 4] [2, 3]"),
    ("slice idiom: bounds clamp as Python's do, empty results, the empty list",
     """let a be [1, 2, 3, 4]
set a to slice(a, 1, -1)
let b be [1, 2, 3]
set b to slice(b, 0, 10)
let c be [1, 2, 3]
set c to slice(c, 0, -5)
let d be [1, 2, 3]
set d to slice(d, 2, 1)
let e be []
set e to slice(e, 0, -1)
let h be [1, 2, 3]
set h to slice(h, 5)
print(a, b, c, d, e, h)""", "0, 0", "[2, 3] [1, 2, 3] [] [] [] []"),
    ("slice idiom: texts, a float start and a computed end take the builtin",
     """let w be "hello"
set w to slice(w, 0, -1)
let z be [1, 2, 3]
set z to slice(z, 1.0, -1)
let y be [1, 2, 3]
set y to slice(y, 0, p)
print(w, z, y)""", "2, 0", "hell [2] [1, 2]"),
    ("slice idiom as a stack: pops interleaved with appends, popped values kept",
     """let stack be []
let popped be []
each i in range(6)
    set stack to append(stack, i)
    when i % 2 == 1
        set popped to append(popped, stack[-1])
        set stack to slice(stack, 0, -1)
print(stack, popped)""", "0, 0", "[0, 2, 4] [1, 3, 5]"),
    ("append with its callee looked up directly: private extended, shared copied",
     """let xs be [1]
let other be xs
set xs to append(xs, p)
set xs to append(xs, q)
print(xs, other)""", "2, 3", "[1, 2, 3] [1]"),
    ("while true ends by stop, and by give",
     """let n be 0
while true
    set n to n + 1
    when n == p
        stop
let m be 0
let found be nothing
while true
    set m to m + 1
    when m == q
        set found to m
        stop
print(n, found)""", "4, 6", "4 6"),
]


def _program(cases) -> str:
    lines = ["let G be [10, 20, 30]", "let COUNTER be 5"]
    for i, (_, body, args, _) in enumerate(cases):
        lines.append(f"task case{i}(p, q)")
        lines.extend("    " + line for line in body.splitlines())
        lines.append(f'print("== {i}")')
        lines.append(f"case{i}({args})")
    lines += ['print("== end")', "print(COUNTER)"]
    return "\n".join(lines) + "\n"


def _sections(stdout: str) -> dict[str, str]:
    parts = {}
    for chunk in stdout.split("== ")[1:]:
        key, _, rest = chunk.partition("\n")
        parts[key] = rest.strip()
    return parts


@pytest.fixture(scope="module", params=["plain", "labels"])
def printed(request, tmp_path_factory):
    path = tmp_path_factory.mktemp("fused") / "cases.syn"
    path.write_text(_program(VALUES))
    flags = ["--labels"] if request.param == "labels" else []
    result = run_synsema("run", *flags, path)
    assert result.returncode == 0, result.stderr
    return _sections(result.stdout)


@pytest.mark.parametrize("index", range(len(VALUES)), ids=[c[0] for c in VALUES])
def test_fast_path_value(printed, index):
    assert printed[str(index)] == VALUES[index][3]


def test_outer_variable_assigned_through_an_unbound_local(printed):
    # case "set of a name whose local is not bound yet": COUNTER (5) became (5 + 1) * 2
    assert printed["end"] == "12"


# (name, body of `task case(p, q)`, arguments, the error message `recover` sees)
ERRORS = [
    ("list position out of range, read inline", "let i be 3\nlet r be p[i]", "[1, 2, 3], 0",
     "Index 3 out of range (list length 3)"),
    ("negative constant position out of range", "let r be p[-4]", "[1, 2, 3], 0",
     "Index -4 out of range (list length 3)"),
    ("fractional position", "let r be p[q]", "[1, 2], 1.5", "index must be an integer, got 1.5"),
    ("bool position", "let r be p[q]", "[1, 2], true", "index must be an integer, got true"),
    ("missing map key", 'let r be p[q]', '{"alpha": 1}, "alpah"', "Map has no key 'alpah'"),
    ("indexing a number", "let r be p[0]", "5, 0", "Cannot index into number"),
    ("fused modulo by zero", "let r be p % q", "1, 0", "Modulo by zero"),
    ("fused set of a text times a text", 'let r be ""\nset r to p * q', '"a", "b"',
     "Unsupported operation: text * text"),
    ("slice idiom on nothing takes the builtin's error", "let s be nothing\nset s to slice(s, 0, -1)",
     "0, 0", "slice expects a list, text or bytes, got nothing"),
]


@pytest.fixture(scope="module")
def recovered(tmp_path_factory):
    lines = []
    for i, (_, body, args, _) in enumerate(ERRORS):
        lines.append(f"task case{i}(p, q)")
        lines.extend("    " + line for line in body.splitlines())
        lines += ["try", f"    case{i}({args})", "recover e", f'    print("== {i}")', "    print(e)"]
    path = tmp_path_factory.mktemp("fused") / "errors.syn"
    path.write_text("\n".join(lines) + "\n")
    result = run_synsema("run", path)
    assert result.returncode == 0, result.stderr
    return _sections(result.stdout)


@pytest.mark.parametrize("index", range(len(ERRORS)), ids=[c[0] for c in ERRORS])
def test_fast_path_error_message(recovered, index):
    assert recovered[str(index)].startswith(ERRORS[index][3])


# (program, the first line of the uncaught error): the location is the failing expression's
LOCATED = [
    ("task t(xs)\n    let i be 5\n    let r be xs[i]\n    give r\nprint(t([1, 2]))\n",
     "Runtime error: {file}:3:14: Index 5 out of range (list length 2)"),
    ("task t(a)\n    let x be 1\n    set x to a % 0\n    give x\nprint(t(7))\n",
     "Runtime error: {file}:3:14: Modulo by zero"),
    ("task t()\n    let s be 3\n    set s to slice(s, 0, -1)\n    give s\nprint(t())\n",
     "Runtime error: {file}:3:14: slice expects a list, text or bytes, got number"),
]


@pytest.mark.parametrize("source, expected", LOCATED)
def test_fast_path_error_location(tmp_path, source, expected):
    path = tmp_path / "located.syn"
    path.write_text(source)
    result = run_synsema("run", path)
    assert result.returncode != 0
    assert result.stderr.splitlines()[0].startswith(expected.format(file=path))
