"""Twenty-five (and more) beginner mistakes: each gets the source line with a caret under the
mistake and a fix, either in the message itself or on the `hint:` line below the caret."""

from __future__ import annotations

import pytest

from conftest import run_synsema

# (name, program, first line of stderr, the text the caret underlines, the fix shown)
MISTAKES = [
    ('typo_builtin', 'print(lenght([1, 2]))\n',
     "Runtime error: {f}:1:7: Undefined variable: 'lenght'", 'lenght', ('hint', "did you mean 'length'?")),
    ('typo_variable', 'let total be 0\nprint(totl + 1)\n',
     "Runtime error: {f}:2:7: Undefined variable: 'totl'", 'totl', ('hint', "did you mean 'total'?")),
    ('typo_map_key', 'let user be {name: "Ada"}\nprint(user.nmae)\n',
     "Runtime error: {f}:2:7: Map has no key 'nmae'", 'user.nmae', ('hint', 'did you mean \'name\'? (or get(m, "nmae", default) when it may be missing)')),
    ('missing_map_key', 'let ages be {"ada": 36}\nprint(ages["bob"])\n',
     "Runtime error: {f}:2:7: Map has no key 'bob'", 'ages', ('hint', 'use get(m, "bob", default) when the key may be missing')),
    ('builtin_arity', 'print(split("a,b"))\n',
     'Runtime error: {f}:1:7: split() takes 2 arguments, got 1', 'split', ('hint', 'call it as split(t, sep)')),
    ('builtin_too_many', 'print(upper("a", "b"))\n',
     'Runtime error: {f}:1:7: upper() takes at most 1 argument, got 2', 'upper', ('hint', 'call it as upper(t)')),
    ('task_missing_argument', 'task area(w, h)\n    give w * h\nprint(area(3))\n',
     "Runtime error: {f}:3:7: task 'area' is missing argument 'h' — pass it, or give the parameter a default", 'area', ('hint', 'call it as area(w, h)')),
    ('task_too_many', 'task double(x)\n    give x * 2\nprint(double(1, 2))\n',
     "Runtime error: {f}:3:7: task 'double' takes 1 argument, got 2", 'double', ('hint', 'call it as double(x)')),
    ('named_typo', 'task greet(name)\n    give "hi " + name\nprint(greet(nam = "x"))\n',
     "Runtime error: {f}:3:7: task 'greet' has no parameter 'nam' — did you mean 'name'?", 'greet', ('message', "did you mean 'name'?")),
    ('positional_named_only', 'print(sort([2, 1], true))\n',
     'Runtime error: {f}:1:7: sort() takes at most 1 argument, got 2', 'sort', ('hint', 'call it as sort(xs, *, desc = false)')),
    ('if_reflex', 'let x be 2\nif x > 1\n    print(x)\n',
     "Parse error: {f}:2:1: `if` is not Synsema: Synsema's conditional is `when`: write `when condition` + an indented block", 'if', ('message', 'write `when condition`')),
    ('assignment_reflex', 'x = 1\n',
     'Parse error: {f}:1:3: `=` is not assignment in Synsema: declare with `let x be value`, change with `set x to value`', '=', ('message', 'declare with `let x be value`')),
    ('return_reflex', 'return 5\n',
     'Parse error: {f}:1:1: `return` is not Synsema: Synsema returns with `give`: write `give value` (or a bare `give`)', 'return', ('message', 'write `give value`')),
    ('python_true', 'print(True)\n',
     "Runtime error: {f}:1:7: Undefined variable: 'True' — in Synsema: true", 'True', ('message', 'in Synsema: true')),
    ('python_none', 'let x be None\n',
     "Runtime error: {f}:1:10: Undefined variable: 'None' — in Synsema: nothing", 'None', ('message', 'in Synsema: nothing')),
    ('python_len', 'print(len([1]))\n',
     "Runtime error: {f}:1:7: Undefined variable: 'len' — in Synsema: length(x)", 'len', ('message', 'in Synsema: length')),
    ('set_before_let', 'set tally to 1\n',
     "Runtime error: {f}:1:1: Cannot set undefined variable: 'tally'. Use 'let' first.", 'set', ('message', "Use 'let' first.")),
    ('method_call', 'let xs be [1]\nxs.append(2)\n',
     'Runtime error: {f}:2:1: Synsema has no methods: set xs to append(xs, item)', 'xs.append', ('message', 'set xs to append(xs, item)')),
    ('block_colon', 'let x be 1\nwhen x > 0:\n    print(x)\n',
     "Parse error: {f}:2:11: Synsema blocks have no colon: remove the ':' at the end of the line and indent the block below it", ':', ('message', "remove the ':'")),
    ('print_without_parens', 'print "hello"\n',
     'Parse error: {f}:1:7: unexpected "hello" after the end of this statement; to call a task write print("hello") — a statement ends at the end of its line', '"hello"', ('message', 'write print("hello")')),
    ('reserved_word', 'let task be 1\n',
     "Parse error: {f}:1:5: 'task' is a reserved word in Synsema; choose another name for the variable after 'let'", 'task', ('message', 'choose another name')),
    ('for_reflex', 'for x in [1, 2]\n    print(x)\n',
     'Parse error: {f}:1:1: `for` is not Synsema: Synsema loops with `each`: write `each x in xs` + an indented block', 'for', ('message', 'write `each x in xs`')),
    ('def_reflex', 'def f()\n    give 1\n',
     'Parse error: {f}:1:1: `def` is not Synsema: Synsema defines functions with `task`: write `task name(a, b)` + an indented block', 'def', ('message', 'write `task name(a, b)`')),
    ('capability_missing', 'print(read_file("/etc/hostname"))\n',
     'Runtime error: {f}:1:7: Capability not granted: file_read("/etc/hostname") — this is a permission, not a bug: add require file.read("/etc/hostname") to the program\'s preamble', 'read_file', ('message', 'add require file.read(')),
    ('fmt_missing_value', 'print(fmt("hi {name}", {}))\n',
     'Runtime error: {f}:1:7: fmt: no value for {{name}} — pass it in the map, or write {{{{name}}}} for a literal brace', 'fmt', ('message', 'pass it in the map')),
    ('else_reflex', 'let x be 1\nwhen x > 1\n    print(1)\nelse\n    print(2)\n',
     'Parse error: {f}:4:1: `else` is not Synsema: write `otherwise` + an indented block', 'else', ('message', 'write `otherwise`')),
    ('iterate_number', 'each i in 5\n    print(i)\n',
     'Runtime error: {f}:1:11: Cannot iterate over number', '5', ('hint', "each walks a list, a map's keys or a text; to count, write each i in range(n)")),
    ('index_out_of_range', 'let xs be [1, 2]\nprint(xs[2])\n',
     'Runtime error: {f}:2:7: Index 2 out of range (list length 2)', 'xs', ('hint', 'positions run from 0 to 1, or from -1 back to -2; get(xs, i, default) gives a default instead')),
    ('int_base_positional', 'print(int("ff", 16))\n',
     'Runtime error: {f}:1:7: int(x, 16): the second argument is the fallback value, not the base, and from 2 to 36 it is ambiguous: write int(x, base = 16) to read text in that base, or int(x, fallback = 16) to get it instead of an error', 'int', ('message', 'write int(x, base = 16)')),
    ('text_plus_nothing', 'let name be nothing\nprint("hi " + name)\n',
     'Runtime error: {f}:2:7: Cannot add text and nothing — convert it on purpose: text(x), or interpolate it', '"hi "', ('message', 'convert it on purpose')),
]


def test_there_are_at_least_twenty_five():
    assert len(MISTAKES) >= 25


@pytest.mark.parametrize("name, program, first, underlined, fix", MISTAKES, ids=[m[0] for m in MISTAKES])
def test_a_beginner_mistake_points_and_suggests(tmp_path, name, program, first, underlined, fix):
    (tmp_path / f"{name}.syn").write_text(program, encoding="utf-8")
    result = run_synsema("run", f"{name}.syn", cwd=tmp_path)
    lines = result.stderr.splitlines()
    assert result.returncode == 1 and lines[0] == first.format(f=f"{name}.syn"), result.stderr
    number = lines[0].split(":")[2]
    source = program.splitlines()[int(number) - 1]
    assert lines[1] == f"  {number} | {source}"
    caret = lines[2].split(" | ", 1)[1]
    start = len(caret) - len(caret.lstrip())
    assert set(caret.strip()) == {"^"} and source[start:start + len(caret.strip())] == underlined
    where, text = fix
    if where == "hint":
        assert lines[3:] == [f"  hint: {text}"]
    else:
        assert text in lines[0] and len(lines) == 3
