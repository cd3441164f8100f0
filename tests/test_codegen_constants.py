"""A literal operand of an inline operation is a constant of the compiled code, and still its own.

runtime/codegen.py writes a number or text literal beside a non-literal operand of `+ - * // % < <=
> >= == !=` as a placeholder constant (`Generator.operand`), which the compiled code gets the
literal's value for, so bodies of one shape compile once and each gets its own literals. These
programs run bodies that differ only in their literals (so they share one compiled shape), the
literal on either side, zero where a test of nonzero-ness guards `//` and `%`, two literals
together (left as they were: Python would fold two placeholders), floats, texts, a literal at the
integer-size limit's edge and a lambda handed to a builtin (the callback entry, compiled apart). Each
runs generated and on the closures (`SYNSEMA_CLOSURES`), with and without `--labels`, and must also
print what it requires.
"""

from __future__ import annotations

import pytest

from tests.test_codegen_differential import assert_same

# Tasks of one shape (a parameter and an operation with one literal) for each operator.
SHAPES = "".join(
    f"task {name}{i}(x)\n    give x {op} {lit}\n"
    for name, op in (("add", "+"), ("sub", "-"), ("mul", "*"), ("div", "//"), ("mod", "%"),
                     ("lt", "<"), ("ge", ">="), ("eq", "=="), ("ne", "!="))
    for i, lit in enumerate((1, 7, 0)))

# name: (program, lines its output must hold, text its stderr must hold or None)
PROGRAMS = {
    "bodies of one shape, each with its own literal": (
        SHAPES
        + "print(add0(10), add1(10), add2(10), sub0(10), sub1(10), sub2(10))\n"
        "print(mul0(10), mul1(10), mul2(10), div0(10), div1(10), mod0(10), mod1(10))\n"
        "print(lt0(5), lt1(5), lt2(5), ge0(1), ge1(1), ge2(1), eq0(7), eq1(7), eq2(7), ne0(1), ne1(1), ne2(1))\n"
        "print(add1(2.5), lt1(6.5), eq1(\"7\"))\n"
        "try\n    print(div2(10))\nrecover e\n    print(`div: {e}`)\n"
        "try\n    print(mod2(10))\nrecover e\n    print(`mod: {e}`)\n"
        "print(add1(\"a\"))\n",
        ["11 17 10 9 3 10", "10 70 0 10 1 0 3", "false true false true false true false true false false true true",
         "9.5 true false", "div: Division by zero", "mod: Modulo by zero", "a7"], None),
    "the literal on the left, texts and floats": (
        "task f(x)\n    give 100 - x\ntask g(x)\n    give 2 * x + 0.5\n"
        "task h(s)\n    when \"yes\" == s\n        give 1\n    give s + \"!\"\n"
        "task k(x)\n    give 7 // x + 7 % x\n"
        "print(f(1), f(-1), g(3), h(\"yes\"), h(\"no\"), k(2), k(3))\n"
        "try\n    print(k(0))\nrecover e\n    print(`k: {e}`)\n",
        ["99 101 6.5 1 no! 4 3", "k: "], None),
    "two literals, and literals in tests and loops": (
        "task f(x)\n    let a be 2 + 3\n    when 1 < 2 and x > 0\n        give a * 4 - x\n    give 0 - 1\n"
        "let total be 0\neach i in range(10)\n    when i % 3 == 0\n        set total to total + i * 10\n"
        "print(f(1), f(0), total, 10 - 3)\n"
        "let n be 0\nwhile n < 5\n    set n to n + 2\nprint(n)\n",
        ["19 -1 180 7", "6"], None),
    "the integer-size limit with a literal operand": (
        "task grow(x)\n    give x * 1000000000000\n"
        "let big be 1\neach i in range(5000)\n    set big to grow(big)\n"
        "print(big > 0)\n",
        [], "prog.syn:2:10: value too large"),
    "a lambda's literals in a builtin's callback": (
        "print(apply([1, 2, 3], (x) => x * 3 + 1), where(range(10), (x) => x % 4 == 1))\n"
        "print(apply([1, 2], (x) => x - 5), reduce([1, 2, 3], (a, x) => a * 2 + x, 10))\n",
        ["[4, 7, 10] [1, 5, 9]", "[-4, -3] 91"], None),
}


@pytest.mark.parametrize("labels", [False, True])
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_literal_operands_are_each_bodys_own(tmp_path, name, labels):
    source, lines, err_text = PROGRAMS[name]
    code, out, err, _ = assert_same(tmp_path, source, labels)
    printed = out.splitlines()
    for line in lines:
        assert any(p == line or p.startswith(line) for p in printed), (line, out, err)
    if err_text is not None:
        assert code == 1 and err_text in err, err
    else:
        assert code == 0, err
