"""Compile a task body (or a loop) into one generated Python function instead of a tree of closures.

The closure compiler (runtime.compiler) makes one Python call per node a program runs; a task
call there costs a chain of closures. Here a whole task body, lambda body or loop becomes the
source of one Python function: statements become Python statements, an expression is computed
into temporaries in the language's order (left to right, `and`/`or`/inline `when` only when
reached), the integer cases of the hot operators are written inline, and a call of a task runs
its body directly (call depth, steps and the recursion limit kept exactly as `calls.run_body`
keeps them). Everything else — every rarer node and every slow case — is the closure the
compiler already makes, called on the same frame list, so the two evaluators share one frame
layout and can be mixed node by node; `SYNSEMA_CLOSURES=1` turns generation off, which is how
tests/test_codegen_differential.py compares the two.

Names stay frame slots (`f[3]`), as in the closures: closures made inside a body capture the
frame, and a fallback closure reads and writes it. What generation removes is the calls, not
the frame. The generated text is made from the compiler's own tables and never contains user
text (strings, names and numbers a program writes are passed in as values), and a body Python
refuses to compile (too deeply nested) stays on the closures.
"""

from __future__ import annotations

import os
import warnings

from synsema.lang import ast
from synsema.lang.checks import PROTECTED_NAMES
from synsema.lang.errors import SynError
from synsema.runtime import fastpaths
from synsema.runtime import operators as ops
from synsema.runtime.calls import (GIVE, RECURSION_LIMIT, REG, STOP, call_builtin, call_value, host_failure,
                                   invoke)
from synsema.runtime.control import StopLoop
from synsema.runtime.limits import MAX_INT_BITS
from synsema.runtime.operators import checked_product
from synsema.runtime.scope import UNBOUND
from synsema.runtime.values import Builtin, Task, equal, type_name

# The internal switch of the differential tests: with it set, every body stays on the closures.
ENABLED = os.environ.get("SYNSEMA_CLOSURES", "") in ("", "0")

_BOOLEAN_NODES = (ast.And, ast.Or, ast.Bool)
_ORDERING = ("==", "!=", "<", "<=", ">", ">=")

# Integer cases written inline, as runtime.fastpaths writes them (the same expressions, so the
# same results and the same integer-size check on `*`).
_INT_OPS = {"+": "{a} + {b}", "-": "{a} - {b}", "%": "{a} % {b}", "//": "{a} // {b}",
            "<": "{a} < {b}", "<=": "{a} <= {b}", ">": "{a} > {b}", ">=": "{a} >= {b}"}
_NONZERO = ("%", "//")


class _GiveUp(Exception):
    """Generation is not possible here; the caller keeps the closures."""


def _contains_call(node) -> bool:
    """Whether evaluating `node` may run a call written inline (a nested task's body excluded)."""
    todo = [node]
    while todo:
        n = todo.pop()
        t = type(n)
        if t is ast.Call or t is ast.Pipe:
            return True
        if t is ast.Lambda or t is ast.TaskDef:
            continue
        todo.extend(ast.children(n))
    return False


def _signals(node) -> bool:
    """Whether a statement may end with the GIVE or STOP signal (nested task bodies excluded)."""
    todo = [node]
    while todo:
        n = todo.pop()
        t = type(n)
        if t is ast.Give or t is ast.Stop:
            return True
        if t is ast.Lambda or t is ast.TaskDef:
            continue
        todo.extend(ast.children(n))
    return False


def _frame_owner(scope, depth: int):
    """The scope whose frame is `depth` frames out from code in `scope` (as Scope.resolve counts)."""
    s = scope
    while not s.opens_frame:
        s = s.parent
    for _ in range(depth):
        s = s.parent
        while not s.opens_frame:
            s = s.parent
    return s


def _bool_node(node) -> bool:
    """An operand `and`/`or` need not pass through bool() (Compiler.truth's rule)."""
    return type(node) in _BOOLEAN_NODES or (type(node) is ast.Compare and len(node.ops) == 1
                                            and node.ops[0] in _ORDERING)


class Generator:
    """Writes one function. `compiler` supplies the closures of everything not written inline."""

    def __init__(self, compiler, task_body: bool):
        self.c = compiler
        self.task_body = task_body      # a `give` returns its value directly
        self.inline_calls = compiler.generated_calls
        self.lines: list[str] = []
        self.values: list = []          # passed to the maker as k0, k1, …
        self.value_names: dict[int, str] = {}
        self.temps = 0
        self.statement_temps: list[str] = []
        self.frames: list[tuple[str, object]] = []   # (Python name, Scope), innermost last
        self.loops = 0                  # generated loops around the code being written
        self.indent = 2
        self.frame_count = 0

    # ------------------------------------------------------------------ plumbing
    def emit(self, text: str) -> None:
        self.lines.append("    " * self.indent + text)

    def value(self, v) -> str:
        key = id(v)
        name = self.value_names.get(key)
        if name is None:
            name = self.value_names[key] = f"k{len(self.values)}"
            self.values.append(v)
        return name

    def temp(self) -> str:
        self.temps += 1
        name = f"t{self.temps}"
        self.statement_temps.append(name)
        return name

    @property
    def frame(self) -> str:
        return self.frames[-1][0]

    @property
    def scope(self):
        return self.frames[-1][1]

    def finish(self):
        names = ", ".join(f"k{i}" for i in range(len(self.values)))
        source = (f"def make({names}):\n    def body(f0):\n" + "\n".join(self.lines) + "\n    return body\n")
        namespace = dict(_NAMESPACE, g=self.c.globals, rt=self.c.rt, reg=REG,
                         st=getattr(self.c.rt, "labels", None))
        try:
            with warnings.catch_warnings():   # `None[0]` and the like: the program's own error, at run time
                warnings.simplefilter("ignore")
                code = compile(source, "<synsema generated>", "exec")
            exec(code, namespace)
        except (SyntaxError, RecursionError, MemoryError, ValueError):
            raise _GiveUp() from None
        return namespace["make"](*self.values)

    # ------------------------------------------------------------------ entry points
    def task(self, stmts: list, scope):
        self.frames.append(("f0", scope))
        self.block(stmts, tail=True)
        self.emit("return None")
        return self.finish()

    def lambda_body(self, node, scope):
        self.frames.append(("f0", scope))
        self.emit(f"return {self.expr(node)}")
        return self.finish()

    def loop(self, node, scope, tail: bool):
        """A `while`/`each` statement as a function with the statement contract (value or signal)."""
        self.frames.append(("f0", scope))
        self.statement(node, tail=False)
        self.emit("return None")
        return self.finish()

    # ------------------------------------------------------------------ statements
    def block(self, stmts: list, tail: bool) -> None:
        if not stmts:
            if tail:
                self.emit("return None")
            return
        for i, stmt in enumerate(stmts):
            self.statement(stmt, tail and i == len(stmts) - 1)

    def end_statement(self) -> None:
        """Drop what temporaries hold, so no list or map stays referenced (compiler._own)."""
        if self.statement_temps:
            self.emit(" = ".join(self.statement_temps) + " = None")
            self.statement_temps = []

    def statement(self, node, tail: bool) -> None:
        method = getattr(self, "s_" + type(node).__name__, None)
        if method is None or not method(node, tail):
            self.fallback_statement(node, tail)
        self.end_statement()

    def fallback_statement(self, node, tail: bool) -> None:
        run = self.value(self.c.stmt(node, self.scope, tail))
        if tail:
            self.emit(f"return {run}({self.frame})")
            return
        if not _signals(node):
            self.emit(f"{run}({self.frame})")
            return
        r = self.temp()
        self.emit(f"{r} = {run}({self.frame})")
        self.emit(f"if {r} is GIVE or {r} is STOP:")
        if self.loops:
            self.emit(f"    if {r} is STOP:")
            self.emit("        break")
        self.emit(f"    return {r}")

    def s_ExprStmt(self, node, tail):
        v = self.expr(node.expr)
        if tail:
            self.emit(f"return {v}")
        return True

    def s_Let(self, node, tail):
        scope = self.scope
        if node.exported or node.name in PROTECTED_NAMES:
            return False
        if scope.is_global:
            v = self.expr(node.value)
            self.emit(f"g[{self.value(node.name)}] = {v}")
        elif self.c.plain_slots:
            slot = scope.declare(node.name)
            v = self.expr(node.value)
            self.emit(f"{self.frame}[{slot}] = {v}")
        else:
            return False
        if tail:
            self.emit(f"return {v}")
        return True

    def s_Set(self, node, tail):
        target = node.target
        if type(target) is not ast.Name or target.name in PROTECTED_NAMES:
            return False
        name = target.name
        c = self.c
        scope = self.scope
        if c._append_pattern(node, name, scope) is not None:
            return False
        candidates = scope.resolve(name)
        if not candidates:
            v = self.expr(node.value)
            key = self.value(name)
            self.emit(f"if {key} in g:")
            self.emit(f"    g[{key}] = {v}")
            self.emit("else:")
            self.emit(f"    raise {self.value(_not_declared_raiser(name, node.span))}()")
        elif len(candidates) == 1 and candidates[0][0] == 0 and c.plain_slots:
            if c._shrink_pattern(node, name, scope) is not None:
                return False
            slot = candidates[0][1]
            v = self.expr(node.value)
            f = self.frame
            self.emit(f"if {f}[{slot}] is U:")
            self.emit(f"    {self.value(_set_outer(name, node.span, c.globals))}({v})")
            self.emit("else:")
            self.emit(f"    {f}[{slot}] = {v}")
        else:
            locate = self.value(c.locator(name, scope, node.span))
            v = self.expr(node.value)
            holder, key = self.temp(), self.temp()
            self.emit(f"{holder}, {key} = {locate}({self.frame})")
            self.emit(f"{holder}[{key}] = {v}")
        if tail:
            self.emit(f"return {v}")
        return True

    def s_Give(self, node, tail):
        scope = self.scope
        if not scope.in_task() and not self.c._in_test(scope):
            return False  # the closure compiler raises the load error
        v = self.expr(node.value) if node.value is not None else "None"
        if tail or self.task_body:
            self.emit(f"return {v}")
        else:
            self.emit(f"reg.value = {v}")
            self.emit("return GIVE")
        return True

    def s_Stop(self, node, tail):
        if not self.loops:
            return False
        if node.value is not None:
            self.expr(node.value)
        self.emit(f"reg.stop_span = {self.value(node.span)}")
        self.emit("break")
        return True

    def s_When(self, node, tail):
        if len(node.branches) > 12:
            return False
        self._branches(list(node.branches), node.otherwise, tail)
        return True

    def _branches(self, branches, otherwise, tail):
        cond, body = branches[0]
        self.emit(f"if {self.condition(cond)}:")
        self.nested(body, tail)
        rest = branches[1:]
        if rest or otherwise is not None or tail:
            self.emit("else:")
            self.indent += 1
            if rest:
                self._branches(rest, otherwise, tail)
            elif otherwise is not None:
                self.block_body(otherwise, tail)
            else:
                self.emit("return None")
            self.indent -= 1

    def condition(self, node) -> str:
        """A test's truth, with every temporary it used dropped before the branch runs."""
        v = self.expr(node)
        if not _bool_node(node):
            b = self.temp()
            self.emit(f"{b} = True if {v} else False")
            v = b
        if v in self.statement_temps:
            self.statement_temps.remove(v)
            self.end_statement()
            self.statement_temps.append(v)
        else:
            self.end_statement()
        return v

    def nested(self, stmts, tail):
        self.indent += 1
        self.block_body(stmts, tail)
        self.indent -= 1

    def block_body(self, stmts, tail):
        if not stmts:
            self.emit("return None" if tail else "pass")
            return
        self.block(stmts, tail)

    def s_While(self, node, tail):
        c = self.c
        forever = type(node.cond) is ast.Bool and node.cond.value is True
        self.emit("while True:")
        self.indent += 1
        if not forever:
            test = self.condition(node.cond)
            self.emit(f"if not {test}:")
            self.emit("    break")
            self.end_statement()
        self.emit("try:")
        self.indent += 1
        c.loops += 1
        self.loops += 1
        self.block_body(node.body, False)
        self.loops -= 1
        c.loops -= 1
        self.indent -= 1
        self.emit("except StopLoop:")
        self.emit("    break")
        self.indent -= 1
        if tail:
            self.emit("return None")
        return True

    def s_Each(self, node, tail):
        from synsema.lang.resolve import block_scope
        c = self.c
        iterable = self.value(c.lazy_iterable(node.iterable, self.scope))
        coll = self.temp()
        outer = self.frame
        self.emit(f"{coll} = {iterable}({outer})")
        self.emit(f"{coll} = each_items({coll}, {self.value(node.iterable.span)})")
        c.loops += 1
        inner = block_scope(self.scope, node.body, [node.var])
        self.frame_count += 1
        fname = f"f{self.frame_count}"
        item = f"i{self.frame_count}"
        self.emit(f"for {item} in {coll}:")
        self.indent += 1
        self.statement_temps.remove(coll)
        saved_temps, self.statement_temps = self.statement_temps, []
        # the template is filled after the body compiles: its `let`s declare the slots
        marker = len(self.lines)
        self.emit("")
        self.frames.append((fname, inner))
        self.emit("try:")
        self.indent += 1
        self.loops += 1
        self.block_body(node.body, False)
        self.loops -= 1
        self.indent -= 1
        self.emit("except StopLoop:")
        self.emit("    break")
        self.emit(f"{fname} = None")
        self.frames.pop()
        extra = inner.size - 2
        slots = "".join(", U" for _ in range(extra))
        self.lines[marker] = "    " * self.indent + f"{fname} = [{outer}, {item}{slots}]"
        self.indent -= 1
        c.loops -= 1
        self.statement_temps = saved_temps + [coll]
        if tail:
            self.emit("return None")
        return True

    # ------------------------------------------------------------------ expressions
    def expr(self, node) -> str:
        """Python source for `node`'s value: a temporary, a constant or a slot read that nothing
        between here and its use can change. Statements computing it are emitted first."""
        method = getattr(self, "e_" + type(node).__name__, None)
        if method is not None:
            out = method(node)
            if out is not None:
                return out
        return self.fallback_expr(node)

    def fallback_expr(self, node) -> str:
        run = self.value(self.c.expr(node, self.scope))
        t = self.temp()
        self.emit(f"{t} = {run}({self.frame})")
        return t

    def atom(self, node, later) -> str:
        """`node`'s value, held in a temporary when the expressions after it (`later`) could
        change what it reads."""
        v = self.expr(node)
        if not v.startswith("t") and not v.startswith("k") and any(_contains_call(n) for n in later):
            t = self.temp()
            self.emit(f"{t} = {v}")
            return t
        return v

    def e_Num(self, node):
        self.c.expr(node, self.scope)  # the literal's load-time limits
        v = node.value
        if type(v) is int and abs(v) < 1 << 62 or v is None or type(v) is bool:
            return repr(v)
        return self.value(v)

    e_Str = e_Num
    e_Bool = e_Num

    def e_Nothing(self, node):
        return "None"

    def e_Name(self, node):
        scope = self.scope
        candidates = scope.resolve(node.name)
        if not candidates:
            key = self.value(node.name)
            t = self.temp()
            self.emit(f"{t} = g[{key}] if {key} in g else {self.value(self.c.expr(node, scope))}({self.frame})")
            return t
        depth, slot = candidates[0]
        if depth < len(self.frames):
            holder = self.frames[-1 - depth][0]
        else:
            holder = self.frames[0][0] + "[0]" * (depth - len(self.frames) + 1)
        owner = _frame_owner(scope, depth)
        t = self.temp()
        if owner.kind == "task" and slot <= owner.params:
            self.emit(f"{t} = {holder}[{slot}]")
            return t
        self.emit(f"{t} = {holder}[{slot}]")
        self.emit(f"if {t} is U:")
        self.emit(f"    {t} = {self.value(self.c.expr(node, scope))}({self.frame})")
        return t

    def e_ListLit(self, node):
        items = [self.atom(item, node.items[i + 1:]) for i, item in enumerate(node.items)]
        t = self.temp()
        self.emit(f"{t} = [{', '.join(items)}]")
        return t

    def e_Unary(self, node):
        if node.op == "not":
            v = self.expr(node.operand)
            t = self.temp()
            self.emit(f"{t} = not {v}")
            return t
        if type(node.operand) is ast.Num and type(node.operand.value) in (int, float):
            self.c.expr(node.operand, self.scope)
            return self.value(-node.operand.value)
        if node.op != "-":
            return None
        v = self.expr(node.operand)
        t = self.temp()
        self.emit(f"if {v}.__class__ is int or {v}.__class__ is float:")
        self.emit(f"    {t} = -{v}")
        self.emit("else:")
        self.emit(f"    {t} = {self.value(_slow_negate(node.span))}({v})")
        return t

    def e_Binary(self, node):
        op = node.op
        if not fastpaths.has_fast_path(op):
            return None
        general = _slow_binary(ops.BINARY[op], node.span, f"`{op}`")
        return self.operator(op, node.left, node.right, general, node.span)

    def e_Compare(self, node):
        if len(node.ops) != 1 or not fastpaths.has_fast_path(node.ops[0]):
            return None
        from synsema.runtime.compiler import _comparison
        op = node.ops[0]
        general = _slow_binary(_comparison(op), node.span, f"`{op}`")
        return self.operator(op, node.first, node.rest[0], general, node.span)

    def operator(self, op, left_node, right_node, general, span) -> str:
        a = self.atom(left_node, [right_node])
        right_const = type(right_node) is ast.Num and type(right_node.value) is int
        b = self.expr(right_node)
        slow = self.value(general)
        t = self.temp()
        if op == "==" or op == "!=":
            test = (f"{a}.__class__ is {b}.__class__ and ({a}.__class__ is int or {a}.__class__ is str)")
            fast = f"{a} {op} {b}"
        else:
            test = f"{a}.__class__ is int" if right_const else f"{a}.__class__ is {b}.__class__ is int"
            if op in _NONZERO:
                test += f" and {b}"
            if op == "*":
                self.emit(f"if {test}:")
                self.emit(f"    {t} = {a} * {b}")
                self.emit(f"    if not _INT_LOW < {t} < _INT_HIGH:")
                self.emit(f"        {t} = checked_product({t}, {self.value(span)})")
                self.emit("else:")
                self.emit(f"    {t} = {slow}({a}, {b})")
                return t
            fast = _INT_OPS[op].format(a=a, b=b)
        self.emit(f"{t} = {fast} if {test} else {slow}({a}, {b})")
        return t

    def e_And(self, node):
        return self.logic(node, "and")

    def e_Or(self, node):
        return self.logic(node, "or")

    def logic(self, node, word):
        left = self.expr(node.left)
        t = self.temp()
        self.emit(f"{t} = {left}" if _bool_node(node.left) else f"{t} = bool({left})")
        self.emit(f"if {t}:" if word == "and" else f"if not {t}:")
        self.indent += 1
        right = self.expr(node.right)
        self.emit(f"{t} = {right}" if _bool_node(node.right) else f"{t} = bool({right})")
        self.indent -= 1
        return t

    def e_InlineWhen(self, node):
        cond = self.expr(node.cond)
        t = self.temp()
        self.emit(f"if {cond}:")
        self.indent += 1
        then = self.expr(node.then)
        self.emit(f"{t} = {then}")
        self.indent -= 1
        self.emit("else:")
        self.indent += 1
        other = self.expr(node.otherwise) if node.otherwise is not None else "None"
        self.emit(f"{t} = {other}")
        self.indent -= 1
        return t

    def e_Index(self, node):
        from synsema.runtime.compiler import _int_literal
        a = self.atom(node.obj, [node.index])
        position = _int_literal(node.index)
        if position is not None:
            self.c.expr(node.index, self.scope)
            b = repr(position) if abs(position) < 1 << 62 else self.value(position)
        else:
            b = self.expr(node.index)
        t = self.temp()
        slow = self.value(_slow_binary(ops.index, node.span, None))
        self.emit(f"if {a}.__class__ is list and {b}.__class__ is int and -len({a}) <= {b} < len({a}):")
        self.emit(f"    {t} = {a}[{b}]")
        self.emit(f"elif {a}.__class__ is dict and {b}.__class__ is str and {b} in {a}:")
        self.emit(f"    {t} = {a}[{b}]")
        self.emit("else:")
        self.emit(f"    {t} = {slow}({a}, {b})")
        return t

    def e_Pipe(self, node):
        step = node.step
        if type(step) is ast.Call:
            call = ast.Call(step.func, [node.value, *step.args], step.named, span=step.span)
        else:
            call = ast.Call(step, [node.value], [], span=node.span)
        return self.e_Call(call)

    def e_Call(self, node):
        from synsema.runtime import assertions
        c = self.c
        if node.named or type(node.func) is ast.Attr or assertions.is_check(node, self.scope):
            return None
        if not self.inline_calls:
            if self.c.generated_public_calls:
                return self.public_call(node)
            return None
        fn = self.atom(node.func, node.args)
        args = [self.atom(a, node.args[i + 1:]) for i, a in enumerate(node.args)]
        n = len(args)
        span = self.value(node.span)
        code = self.temp()
        t = self.temp()
        listed = ", ".join(args)
        self.emit("try:")
        self.emit(f"    if {fn}.__class__ is Task and len(({code} := {fn}.code).names) == {n}:")
        self.emit("        if reg.depth >= RECURSION_LIMIT:")
        self.emit("            raise SynError('maximum recursion depth exceeded')")
        self.emit("        reg.depth += 1")
        self.emit("        reg.steps += 1")
        self.emit("        try:")
        self.emit(f"            {t} = {code}.body([{fn}.env, {listed}, *{code}.extra] if {code}.extra "
                  f"else [{fn}.env, {listed}])" if n else
                  f"            {t} = {code}.body([{fn}.env, *{code}.extra] if {code}.extra else [{fn}.env])")
        self.emit("        finally:")
        self.emit("            reg.depth -= 1")
        self.emit(f"        if {t} is GIVE:")
        self.emit(f"            {t} = reg.value")
        self.emit("            reg.value = None")
        self.emit(f"        elif {t} is STOP:")
        self.emit("            raise StopLoop()")
        self.emit("    else:")
        self.emit(f"        {t} = call_other(rt, {fn}, [{listed}], {span})")
        self.emit("except SynError as error:")
        self.emit(f"    raise error.at({span})")
        return t

    def public_call(self, node):
        """A call in a public body (label_compiler.PublicCompiler.e_Call written inline): a task's
        closed body, or its public one while nothing is private, else give up the public run."""
        c = self.c
        if type(node.func) is not ast.Name:
            return None
        callee = c._global_name(node.func, self.scope)
        func = self.value(c.expr(node.func, self.scope))
        fn = self.temp()
        if callee is not None:
            key = self.value(callee)
            self.emit(f"{fn} = g[{key}] if {key} in g else {func}({self.frame})")
        else:
            self.emit(f"{fn} = {func}({self.frame})")
        args = [self.atom(a, node.args[i + 1:]) for i, a in enumerate(node.args)]
        n = len(args)
        listed = "".join(f", {a}" for a in args)
        span = self.value(node.span)
        leave = self.value(c.public_leave)
        code = self.temp()
        body = self.temp()
        t = self.temp()
        self.emit(f"if {fn}.__class__ is not Task:")
        self.emit(f"    raise {leave}()")
        self.emit(f"{code} = {fn}.code")
        self.emit(f"{body} = {code}.closed")
        self.emit(f"if {body} is None and not st.touched:")
        self.emit(f"    {body} = {code}.public")
        self.emit(f"if {body} is None or len({code}.names) != {n}:")
        self.emit(f"    raise {leave}()")
        self.emit("try:")
        self.emit("    if reg.depth >= RECURSION_LIMIT:")
        self.emit("        raise SynError('maximum recursion depth exceeded')")
        self.emit("    reg.depth += 1")
        self.emit("    reg.steps += 1")
        self.emit("    try:")
        self.emit(f"        {t} = {body}([{fn}.env{listed}, *{code}.extra] if {code}.extra else [{fn}.env{listed}])")
        self.emit("    finally:")
        self.emit("        reg.depth -= 1")
        self.emit("except SynError as error:")
        self.emit(f"    raise error.at({span})")
        self.emit(f"if {t} is GIVE:")
        self.emit(f"    {t} = reg.value")
        self.emit("    reg.value = None")
        return t


# ---------------------------------------------------------------------- run-time helpers
def call_other(rt, fn, values: list, span):
    """Any call but a task of matching arity: what the closure compiler's call paths do."""
    if type(fn) is Task:
        return invoke(fn, values)
    if type(fn) is Builtin:
        return call_builtin(rt, fn.spec, values, None, span)
    return call_value(rt, fn, values)


def each_items(coll, span):
    """What `each` walks (compiler.s_Each's rule): a map's keys, a list, a range, a text."""
    t = type(coll)
    if t is dict:
        return list(coll)
    if t is not list and t is not range and t is not str and t is not bytes:
        from synsema.runtime.compiler import ITERATE_HINT
        raise SynError(f"Cannot iterate over {type_name(coll)}", span, hint=ITERATE_HINT)
    return coll


def _slow_binary(fn, span, operation):
    """The general operator, errors located at its node (fastpaths' general path)."""
    def slow(a, b):
        try:
            return fn(a, b)
        except SynError as error:
            raise error.at(span)
        except MemoryError:
            if operation is None:
                raise
            raise host_failure(operation, MemoryError()).at(span) from None
    return slow


def _slow_negate(span):
    def negate(v):
        try:
            return ops.negate(v)
        except SynError as error:
            raise error.at(span)
    return negate


def _not_declared_raiser(name, span):
    from synsema.runtime.compiler import _not_declared
    return lambda: _not_declared(name, span)


def _set_outer(name, span, g):
    from synsema.runtime.compiler import _not_declared

    def set_outer(v):
        if name in g:
            g[name] = v
        else:
            raise _not_declared(name, span)
    return set_outer


_NAMESPACE = {
    "GIVE": GIVE, "STOP": STOP, "U": UNBOUND, "Task": Task, "SynError": SynError, "StopLoop": StopLoop,
    "RECURSION_LIMIT": RECURSION_LIMIT, "call_other": call_other, "each_items": each_items,
    "checked_product": checked_product, "_INT_LOW": -(1 << MAX_INT_BITS), "_INT_HIGH": 1 << MAX_INT_BITS,
}


def generate(compiler, kind: str, node, scope, tail: bool = False):
    """The generated function for a task body (`kind` "task", `node` its statements), a lambda
    body ("lambda", an expression) or a loop statement ("loop"); None when it stays on closures."""
    if not ENABLED or not compiler.generates or compiler.watch is not None:
        return None
    gen = Generator(compiler, kind == "task")
    saved_loops = compiler.loops
    try:
        if kind == "task":
            return gen.task(node, scope)
        if kind == "lambda":
            return gen.lambda_body(node, scope)
        return gen.loop(node, scope, tail)
    except _GiveUp:
        return None
    finally:
        compiler.loops = saved_loops
