"""Assertions that explain themselves, as pytest's assertion rewriting does.

A call of the builtin `assert`, `assert_eq` or `assert_ne` by its own name is compiled with a
recorder around each sub-expression of the checked arguments: every value the call computes
anyway is noted as it is computed, so nothing is evaluated twice (a task or model call inside an
assert runs exactly once, as it would without the recording). When the assertion fails, its
error gets a `detail`: the failed comparison with the values of both sides, the values of the
calls, names, field accesses and indexes inside it (`where length(xs) = 3`), and for `==` a
structural diff of the two sides (runtime.diffs). The detail is built only if the error is
shown, and every part of it is bounded, whatever the size of the values.

Which builtin the name means is a run-time fact: the recording is compiled where the name is
not a local, and the explanation is attached only when the error was raised by this very call
(a script that binds `assert` to its own task gets its own task's errors, unexplained). The
first line of the failure, which LANGUAGE.md §5 fixes, never changes.
"""

from __future__ import annotations

from synsema.lang import ast
from synsema.lang.errors import SynError
from synsema.runtime.values import CALLABLE_TYPES

# runtime.diffs (with difflib) and lang.unparse are imported by `explain`, the first time an
# assertion's failure is shown: a program whose asserts pass never loads them.

CHECKS = frozenset({"assert", "assert_eq", "assert_ne"})
WHERE = 8   # sub-expression values shown

# Sub-expressions whose values a reader cannot see in the source: pytest shows the same kinds.
_SHOWN = (ast.Call, ast.Name, ast.Attr, ast.Index, ast.Pipe, ast.LLMExpr)


def is_check(node, scope) -> bool:
    """Whether `node` calls one of the assert builtins by its global name."""
    func = node.func
    return (type(func) is ast.Name and func.name in CHECKS and not scope.resolve(func.name)
            and not node.named and 1 <= len(node.args) <= 3)


def compile_check(compiler, node, scope, compile_call):
    """The closure for an assert call: `compile_call(node, scope)` compiled with every
    sub-expression of the checked arguments recorded, and an explanation for its failure."""
    nodes = _recorded(node)
    logs: list[list] = []

    def watch(sub, closure):
        if id(sub) not in nodes:
            return closure

        def recorded(f):
            value = closure(f)
            logs[-1].append((sub, value))
            return value
        return recorded

    outer = compiler.watch
    compiler.watch = watch
    try:
        plain = compile_call(node, scope)
    finally:
        compiler.watch = outer
    span = node.span
    name = node.func.name

    def run(f):
        logs.append([])
        try:
            return plain(f)
        except SynError as error:
            if error.span is span and error.assertion and error.detail is None:
                seen = logs[-1]
                error.detail = lambda: explain(name, node, seen, nodes)
            raise
        finally:
            logs.pop()
    return run


def _recorded(node) -> dict:
    """The sub-expressions whose values an explanation may show, by id, in source order: the
    checked arguments, the operands of the comparisons `assert` explains (through `and`), and
    every call, name, field access and index inside. Only these pay for being recorded."""
    checked = node.args[:1] if node.func.name == "assert" else node.args[:2]
    wanted = {id(top) for top in checked}
    todo = list(checked) if node.func.name == "assert" else []
    while todo:
        current = todo.pop()
        if type(current) is ast.And:
            todo += [current.left, current.right]
            wanted |= {id(current.left), id(current.right)}
        elif type(current) is ast.Compare:
            wanted |= {id(current.first), *map(id, current.rest)}
    subs = [sub for top in checked for sub in _outside_functions(top)]
    callees = {id(sub.func) for sub in subs if type(sub) is ast.Call}   # a task's value says nothing
    return {id(sub): sub for sub in subs if id(sub) in wanted or (type(sub) in _SHOWN and id(sub) not in callees)}


def _outside_functions(node):
    """`node` and its sub-expressions, in source order, not entering lambdas (their bodies run
    later, or many times, and are not part of the value checked)."""
    todo = [node]
    while todo:
        current = todo.pop()
        yield current
        if type(current) is not ast.Lambda:
            todo.extend(reversed([c for c in ast.children(current) if isinstance(c, ast.Expr)]))


def explain(name: str, node, seen: list, nodes: dict) -> list[str]:
    """The lines below a failed assertion's first line (see the module docstring)."""
    from synsema.runtime.diffs import differences, preview
    values: dict[int, object] = {}
    for sub, value in seen:
        values.setdefault(id(sub), value)
    lines: list[str] = []
    hidden = {id(a) for a in node.args if type(a) is ast.Name}   # their values are the sides shown
    if name == "assert":
        failed = _failed_comparison(node.args[0], values)
        if failed is not None:
            left, op, right = failed
            lines.append(f"assert {preview(left)} {op} {preview(right)}")
            hidden |= {id(o) for o in _operands(node.args[0]) if type(o) is ast.Name}
        lines += _where(nodes, values, hidden, "  " if failed is not None else "")
        if failed is not None and failed[1] == "==":
            lines += _headed(differences(failed[0], failed[2], ("left", "right")))
    else:
        lines += _where(nodes, values, hidden, "")
        if name == "assert_eq" and all(id(a) in values for a in node.args[:2]):
            lines += _headed(differences(values[id(node.args[0])], values[id(node.args[1])]))
    return lines


def _failed_comparison(cond, values: dict):
    """(left value, op, right value) of the comparison that made `cond` false, when there is one."""
    if type(cond) is ast.And:
        if id(cond.right) in values and not values[id(cond.right)]:
            return _failed_comparison(cond.right, values)
        return _failed_comparison(cond.left, values)
    if type(cond) is not ast.Compare or id(cond.first) not in values:
        return None
    left = values[id(cond.first)]
    failed = None
    for op, operand in zip(cond.ops, cond.rest):
        if id(operand) not in values:
            break
        right = values[id(operand)]
        failed = (left, op, right)
        left = right
    return failed


def _operands(cond) -> list:
    if type(cond) is ast.And:
        return _operands(cond.left) + _operands(cond.right)
    if type(cond) is ast.Compare:
        return [cond.first, *cond.rest]
    return []


def _where(nodes: dict, values: dict, hidden: set, indent: str) -> list[str]:
    """`where TEXT = VALUE` for each call, name, field or index computed, in source order."""
    from synsema.lang.unparse import unparse
    from synsema.runtime.diffs import preview
    shown: dict[str, str] = {}
    left_out = 0
    for key, sub in nodes.items():
        if (key not in values or type(sub) not in _SHOWN or key in hidden
                or isinstance(values[key], CALLABLE_TYPES)):
            continue
        text = unparse(sub)
        if text in shown:
            continue
        if len(shown) >= WHERE:
            left_out += 1
            continue
        shown[text] = preview(values[key])
    lines = [f"{'where' if i == 0 else '     '} {text} = {value}" for i, (text, value) in enumerate(shown.items())]
    if left_out:
        lines.append(f"      … {left_out} more not shown")
    return [indent + line for line in lines]


def _headed(diff: list[str]) -> list[str]:
    return ["differences:", *("  " + line for line in diff)] if diff else []
