"""Generated functions for labelled code: runtime.codegen's generator, held to the label rules.

Under `--labels` every task body, lambda body and `while` loop is compiled by
`label_compiler.LabelCompiler`. This module writes the same body as one Python function, as
runtime.codegen does for unlabelled code, but only for the constructs listed in `_STATEMENTS`
and `_EXPRESSIONS`, each written to do exactly what the LabelCompiler's closure for it does;
every other node is that closure, called on the same frame list (generation here is always in
frame mode, so a closure can run anywhere in the body). What each construct keeps:

* the operators: `+ - * // %` and friends are the same as unlabelled code (runtime.operators
  takes labelled operands itself); a comparison's and an index's slow case is the LabelCompiler's
  (`labelled_comparison`, `labelled_index`); `not` keeps its operand's label;
* a call: a builtin while nothing is private is `public_builtin` written out (the known
  builtin's `call_builtin` as codegen writes it, the callbacks' labels on its result or error),
  everything else the LabelCompiler's `general_call` (public bodies, the pc of a labelled callee,
  `_leaving`);
* `let` stores into its slot under a public pc and through the LabelCompiler's binder (born
  private, no-sensitive-upgrade) under a private one; `set x to …` is the unlabelled assignment
  under a public pc and the LabelCompiler's closure under a private one; `set m[k] to …` the
  unlabelled one while nothing is private (its error made secret, the variable tainted if the
  run's first private value appeared meanwhile), else the closure;
* `give` carries the pc; `when` runs the public branches inline and hands a private condition
  to the closure's `private_from` (pc raised, absence hidden, `_leaving`); `while` raises the pc
  on a private condition, taints a `give`, hides absence, makes errors secret and puts the pc
  back as `old | give_taint` on every exit, as the closure does; `each` likewise, with the
  collection's label raising the pc for the whole loop and labelling every item.

`SYNSEMA_CLOSURES=1` (codegen.ENABLED) turns this off with the rest of the generator;
tests/test_codegen_labels.py runs programs with private data both ways.
"""

from __future__ import annotations

import re

from synsema.lang import ast
from synsema.lang.checks import PROTECTED_NAMES
from synsema.runtime import assertions, fastpaths
from synsema.runtime.compiler import _early_returns_as_branches
from synsema.runtime.codegen import (_CONSTANT, Generator, _callback_entry, _frame_mode, _GiveUp, _inline_operator,
                                     _signals, _slow_binary)
from synsema.runtime.label_compiler import _may_give, labelled_comparison, labelled_index, not_iterable
from synsema.runtime.labels import EMPTY, Labeled, make_secret, strip, wrap
from synsema.runtime.limits import MAX_TEXT_LENGTH

# The constructs written inline (by name of their node class); anything else is its closure.
_STATEMENTS = frozenset({"ExprStmt", "Let", "Set", "Give", "Stop", "When", "While", "Each"})
_EXPRESSIONS = frozenset({"Num", "Str", "Bool", "Nothing", "Name", "ListLit", "Unary", "Binary", "Compare",
                          "Index", "Call", "Pipe", "Template", "MapLit"})

# Arithmetic whose labelled integer case is written inline (runtime.operators' int cases).
_LABELLED_INT_OPS = ("+", "-", "*", "//", "%")


def public_builtin_call(gen, node, fn: str, t: str, args: list, span: str, found: str, inline: bool = False) -> None:
    """label_compiler.public_builtin written out by `gen` (this module's generator or
    codegen_split's), for a call whose callee `fn` is a builtin while nothing is private, so its
    arguments are public: `t` = its answer (the known builtin's call inline, else call_builtin),
    an error secret under what its callbacks returned; `found` = what they returned, taken back
    out of the label state when not empty (the caller labels the answer with it, under an
    `if {found}:` left open). `inline`: `args` are names, so a builtin Generator.builtin_call
    writes as its Python expression (`get`, `length`) may be written so (no private value exists)."""
    listed = ", ".join(args)
    gen.emit("try:")
    known = gen.known_builtin(node.func, len(args))
    if known is not None:
        gen.builtin_call(known, fn, t, listed, span, args if inline else None)   # calls.call_builtin written out
        gen.emit("    else:")
    else:
        gen.emit("    if True:")
    gen.emit(f"        {t} = call_builtin(rt, {fn}.spec, [{listed}], None, {span})")
    gen.emit("except SynError as error:")
    gen.emit(f"    {found} = st.callback_labels")
    gen.emit("    st.callback_labels = EMPTY")
    gen.emit(f"    raise make_secret(error.at({span}), {found})")
    gen.emit(f"{found} = st.callback_labels")
    gen.emit(f"if {found}:")
    gen.emit("    st.callback_labels = EMPTY")


def generate_labelled(compiler, kind: str, node, scope, tail: bool):
    """codegen.generate for the LabelCompiler: a task or lambda body every node of which
    runtime.codegen_split writes, with each variable's value and label in Python locals; any
    other body, or one it gives up on, in frame mode here. A lambda body of one or two
    parameters written so also gets the callback entry label_compiler.labelled_callback takes."""
    if kind != "loop":
        from synsema.runtime import codegen_split
        if codegen_split.writable(node):
            try:
                split = codegen_split.SplitGenerator(compiler, kind == "task")
                if kind == "task":
                    return split.task(node, scope), None
                plain = None
                if scope.params in (1, 2):
                    split.names = {**split.names, "LabelledCall": _LabelledCall}
                    plain = PlainCallback(compiler, split).lines_for(node, scope)
                body = split.lambda_body(node, scope)
                if scope.params in (1, 2):
                    body.entry = callback_entry(split, scope.params, body.__globals__, plain)
                return body, None
            except _GiveUp:
                pass
    return _frame_mode(LabelGenerator(compiler, kind == "task"), kind, node, scope, tail)


# A line of generated code that leaves the function.
_RETURN = re.compile(r"\s*return\b")


def callback_entry(split, params: int, namespace: dict, plain: list | None):
    """`entry(env, slow, leave)` of a lambda body `split` wrote (its lines, head included, and
    the namespace its body runs in), for label_compiler.labelled_callback, or None: a Python
    function of the lambda's `params` arguments for a builtin calling it once per item, the
    body's own lines inside what labelled_callback's `slow` does around the body, for a call
    that starts while nothing is private. Then the pc, the give taint and the builtin's argument
    labels are all empty (no label exists yet), so there is nothing to raise, save or put back,
    and the body is run as `run_body` runs it (the depth limit, one step, one level deeper);
    should the body make the run's first private value, `leave(result, error)` does what `slow`
    does after its body (the answer stripped and labelled, an error made secret, the label state
    emptied again). A call that starts once something is private is `slow`'s. The body is an
    expression, so its one `return` is its last line, which here keeps the answer instead.

    With `plain` (PlainCallback's lines), the call first runs the body without labels, which
    cannot make a private value: it answers, or fails, as the labelled body would; where it
    meets a callee that may (LabelledCall, raised before that call, after nothing but pure
    work), the labelled body runs instead, the step already counted."""
    lines = split.lines
    returns = [i for i, line in enumerate(lines) if _RETURN.match(line)]
    if split.sites or returns != [len(lines) - 1] or not lines[-1].startswith("        return "):
        return None
    args = ", ".join(f"v{i}" for i in range(1, params + 1))
    last = lines[-1].replace("return ", "cb_result = ", 1)
    if plain is None:
        first = ""
    else:
        first = ("        depth = cb_depth + 1\n"
                 "        try:\n"
                 + "".join(f"    {line}\n" for line in plain)
                 + "        except LabelledCall:\n"
                 "            pass\n"
                 "        finally:\n"
                 "            reg.depth = cb_depth\n")
    source = ("def entry(cb_env, cb_slow, cb_leave):\n"
              f"    def callback({args}):\n"
              "        if st.touched:\n"
              f"            return cb_slow({args})\n"
              "        cb_depth = reg.depth\n"
              "        if cb_depth >= RECURSION_LIMIT:\n"
              "            raise SynError('maximum recursion depth exceeded')\n"
              "        next(STEPS)\n"
              + first
              + "        reg.depth = cb_depth + 1\n"
              "        try:\n"
              f"            f0 = [cb_env, {args}]\n"
              + "".join(f"    {line}\n" for line in lines[:-1]) + f"    {last}\n"
              + "        except SynError as error:\n"
              "            if st.touched:\n"
              "                raise cb_leave(None, error)\n"
              "            raise\n"
              "        finally:\n"
              "            reg.depth = cb_depth\n"
              "        if st.touched:\n"
              "            return cb_leave(cb_result, None)\n"
              "        return cb_result\n"
              "    return callback\n")
    names = {placeholder: name for name, placeholder in split.name_reads.items()}
    constants = {_CONSTANT.format(k): split.values[int(k[1:])] for k in split.constants}
    return _callback_entry(source, namespace, names, constants)


class _LabelledCall(Exception):
    """A lambda's plain body met a callee that is not one of _PURE_BUILTINS; nothing but pure
    work has happened (PlainCallback)."""


# The builtins a lambda's plain body calls: functions of their arguments alone, which run no
# code of the program's, make no private value, change nothing and read nothing the labels
# track (each is "propagate", behind no capability, with no effect: tests/test_codegen_label_callbacks.py).
_PURE_BUILTINS = frozenset({"length", "get", "lower", "upper", "trim", "text", "contains", "starts_with",
                            "ends_with", "abs", "split", "replace", "slice", "append", "keys", "values",
                            "type_of"})

# What a lambda's plain body is made of: the constructs codegen.Generator writes, on values
# that hold no label while nothing is private.
_PLAIN_EXPRESSIONS = frozenset({"Num", "Str", "Bool", "Nothing", "Name", "Unary", "Binary", "Compare",
                                "ListLit", "Call"})


class PlainCallback(Generator):
    """The lines of a lambda body as runtime.codegen writes it without labels (a direct body,
    arguments `v1`, `v2`, the depth in `depth`), for callback_entry's first try at a call that
    starts while nothing is private. While nothing is private no value holds a label and the pc
    is empty, so every operator, comparison, name and literal computes what its labelled form
    computes, error included; what could end that is a call, so the only calls are of builtins
    in _PURE_BUILTINS, and a call site whose callee is something else when it runs (the name
    rebound) raises LabelledCall before the call. Written with the labelled body's constants,
    names and namespace (`split`'s), into which both are compiled."""

    def __init__(self, compiler, split):
        super().__init__(compiler, True, direct=True)
        self.values, self.value_names, self.name_reads = split.values, split.value_names, split.name_reads
        self.constants, self.names = split.constants, split.names
        self.loop = False    # writing a callback loop's body (loop_body)
        self.callees: dict = {}   # global name -> builtin, of each call written (loop_body)

    def loop_body(self, node, scope, indent: int, temps: int) -> str | None:
        """The body's lines for LabelGenerator.callback_loop, written at `indent` with
        temporaries numbered after `temps` (the labelled function's), the parameters `v1`, `v2`,
        the depth in `depth`: what computes the body's value (a comparison as the expression
        itself), or None when it holds anything else. `callees`: the globals it calls and the
        builtins they held as it was written, which the loop tests before it starts."""
        self.open_body(scope)
        self.indent, self.temps, self.loop = indent, temps, True
        try:
            if type(node) is ast.Compare and _inline_operator(node):
                return self.e_Compare(node, in_test=True)
            return self.expr(node)
        except _GiveUp:
            return None

    def lines_for(self, node, scope) -> list | None:
        """The body's lines, ending with its `return`; None when it holds anything else."""
        self.open_body(scope)
        try:
            self.emit(f"return {self.expr(node)}")
        except _GiveUp:
            return None
        return self.lines

    def expr(self, node) -> str:
        if type(node).__name__ not in _PLAIN_EXPRESSIONS:
            raise _GiveUp()
        return super().expr(node)

    def fallback_expr(self, node) -> str:
        raise _GiveUp()

    def e_Name(self, node):
        """A parameter or a global (the entry has no enclosing frame to read)."""
        candidates = self.scope.resolve(node.name)
        if candidates and candidates[0][0] != 0:
            raise _GiveUp()
        return super().e_Name(node)

    def e_Call(self, node):
        return _pure_call(self, node, self.callees if self.loop else None)

    def guard(self) -> str:
        return _callees_held(self, self.callees)


def _pure_call(gen, node, callees: dict | None) -> str:
    """A call of a builtin of _PURE_BUILTINS as runtime.codegen writes it (PlainCallback,
    PlainLoop); anything else gives up. The call site tests that the global still holds that
    builtin, and raises LabelledCall before the call if it does not; with `callees`, the code
    around it tests that before it starts, nothing in it can rebind the global, and the call is
    of the builtin itself (the global recorded in `callees` for that test, `_callees_held`)."""
    if node.named or type(node.func) is ast.Attr or assertions.is_check(node, gen.scope):
        raise _GiveUp()
    known = gen.known_builtin(node.func, len(node.args))
    if known is None or known.spec.name not in _PURE_BUILTINS:
        raise _GiveUp()
    if callees is not None:
        callees[gen.c._global_name(node.func, gen.scope)] = known
        fn = gen.value(known)
    else:
        fn = gen.atom(node.func, node.args)
    args = [gen.atom(a, node.args[i + 1:]) for i, a in enumerate(node.args)]
    t = gen.temp()
    span = gen.value(node.span)
    gen.emit("try:")
    gen.builtin_call(known, fn, t, ", ".join(args), span, args)
    gen.emit("    else:")
    gen.emit("        raise LabelledCall")
    gen.emit("except SynError as error:")
    gen.emit(f"    raise error.at({span})")
    return t


def _callees_held(gen, callees: dict) -> str:
    """The test (` and …` terms) that every global in `callees` still holds its builtin."""
    return "".join(f" and g.get({gen.key(name)}) is {gen.value(callee)}" for name, callee in callees.items())


# What a loop's body without labels is made of (PlainLoop): the statements that only compute and
# store, over PlainCallback's expressions and items, templates and map literals.
_PLAIN_STATEMENTS = frozenset({"Let", "Set", "When", "Each", "While"})
_PLAIN_LOOP_EXPRESSIONS = _PLAIN_EXPRESSIONS | {"Index", "Template", "MapLit"}


class PlainLoop(Generator):
    """A `while` or `each` statement of a labelled frame-mode body as runtime.codegen writes it
    without labels (its own `each` frames in Python locals), which LabelGenerator runs instead of
    the labelled loop when the loop starts while nothing is private. Written only when the
    loop's body is made of _PLAIN_STATEMENTS over _PLAIN_LOOP_EXPRESSIONS whose calls are of
    _PURE_BUILTINS, none of them a name the loop assigns: nothing in it runs code of the
    program's or makes a private value, so nothing is private until it ends, and every statement
    computes what its labelled form computes while nothing is private (the pc, the give taint and
    every label empty: the LabelGenerator's and LabelCompiler's public cases are these plain ones,
    an error made secret under no label is the error itself). The globals it calls are tested
    before it starts (`guard`). It shares the labelled function's values, names and frames."""

    def __init__(self, parent):
        super().__init__(parent.c, parent.task_body, local_slots=True)
        self.values, self.value_names, self.name_reads = parent.values, parent.value_names, parent.name_reads
        self.constants, self.names = parent.constants, parent.names
        self.frames, self.local_frames, self.bound = list(parent.frames), set(parent.local_frames), set(parent.bound)
        self.temps, self.frame_count, self.loops = parent.temps, parent.frame_count, parent.loops
        self.indent = parent.indent + 1
        self.callees: dict = {}
        self.coll = None

    def written(self, node, coll: str | None):
        """This generator holding the loop `node` (an `each` over the temporary `coll` the
        labelled function computed), or None when its body holds anything else."""
        assigned = {n.name for n in ast.walk(ast.Module("", node.body)) if type(n) is ast.Let}
        assigned |= {n.target.name for n in ast.walk(ast.Module("", node.body))
                     if type(n) is ast.Set and type(n.target) is ast.Name}
        self.coll = coll
        self.statement_temps = [coll] if coll is not None else []
        loops = self.c.loops
        try:
            self.statement(node, False)
        except _GiveUp:
            return None
        finally:
            self.c.loops = loops
        if assigned & set(self.callees):
            return None
        return self

    def guard(self) -> str:
        return _callees_held(self, self.callees)

    def statement(self, node, tail: bool) -> None:
        if type(node).__name__ not in _PLAIN_STATEMENTS:
            raise _GiveUp()
        super().statement(node, tail)

    def fallback_statement(self, node, tail: bool) -> None:
        raise _GiveUp()

    def expr(self, node) -> str:
        if type(node).__name__ not in _PLAIN_LOOP_EXPRESSIONS:
            raise _GiveUp()
        return super().expr(node)

    def fallback_expr(self, node) -> str:
        raise _GiveUp()

    def iterable(self, node) -> str:
        if self.coll is not None:   # the loop's own collection, computed by the labelled function
            coll, self.coll = self.coll, None
            return coll
        return super().iterable(node)

    def e_Call(self, node):
        return _pure_call(self, node, self.callees)


class LabelGenerator(Generator):
    """Writes one labelled function in frame mode (see the module doc)."""

    names = {"Labeled": Labeled, "wrap": wrap, "make_secret": make_secret, "EMPTY": EMPTY,
             "not_iterable": not_iterable, "strip": strip, "LabelledCall": _LabelledCall}

    def __init__(self, compiler, task_body: bool):
        super().__init__(compiler, task_body, direct=False)
        self.pcs = 0   # how many saved-pc locals the loops written so far use

    # ------------------------------------------------------------------ dispatch
    def statement(self, node, tail: bool) -> None:
        name = type(node).__name__
        if name not in _STATEMENTS or not getattr(self, "s_" + name)(node, tail):
            self.fallback_statement(node, tail)
        self.end_statement()

    def expr(self, node) -> str:
        name = type(node).__name__
        if name in _EXPRESSIONS:
            out = getattr(self, "e_" + name)(node)
            if out is not None:
                return out
        return self.fallback_expr(node)

    def loop(self, node, scope, tail: bool):
        """A `while` statement as a function with the statement contract; in tail position its
        value is what the closure gives there (`_leaving(None, pc)`)."""
        self.frames.append(("f0", scope))
        self.statement(node, tail)
        self.emit("return None")
        return self.finish()

    def block(self, stmts: list, tail: bool) -> None:
        """As Compiler.block: in tail position an early `give` becomes a branch first."""
        super().block(_early_returns_as_branches(stmts) if tail else stmts, tail)

    def test(self, node) -> str:
        """A condition's value in a temporary of its own (it may be replaced by its unlabelled
        value), every other temporary dropped before a branch runs."""
        v = self.expr(node)
        if v not in self.statement_temps:
            t = self.temp()
            self.emit(f"{t} = {v}")
            v = t
        self.statement_temps.remove(v)
        self.end_statement()
        self.statement_temps.append(v)
        return v

    # ------------------------------------------------------------------ statements
    def s_Let(self, node, tail):
        if node.exported or node.name in PROTECTED_NAMES:
            return False
        scope = self.scope
        v = self.expr(node.value)
        store = self.value(self.c.binder(node.name, scope, node.span))
        if scope.is_global:
            self.emit(f"{store}({self.frame}, {v})")
        else:
            where = self.location(0, scope.declare(node.name))
            self.emit("if st.pc:")
            self.emit(f"    {store}({self.frame}, {v})")   # born private; no-sensitive-upgrade
            self.emit("else:")
            self.emit(f"    {where} = {v}")
            self.bound.add(where)
        if tail:
            self.emit(f"return {v}")
        return True

    def s_Set(self, node, tail):
        target = node.target
        if type(target) is ast.Name:
            if target.name in PROTECTED_NAMES:
                return False
            closure = self.value(self.c.stmt(node, self.scope, tail))
            self.emit("if st.pc:")
            self.emit(f"    {'return ' if tail else ''}{closure}({self.frame})")
            self.emit("else:")
            self.indent += 1
            written = self.plain(lambda: Generator.s_Set(self, node, tail))
            if not written:
                self.emit(f"{'return ' if tail else ''}{closure}({self.frame})")
            self.indent -= 1
            return True
        if tail or type(target) is not ast.Index or type(target.obj) is not ast.Name:
            return False
        closure = self.c.stmt(node, self.scope, tail)
        run = self.value(closure)
        self.emit("if st.touched:")
        self.emit(f"    {run}({self.frame})")
        self.emit("else:")
        self.indent += 1
        self.emit("try:")
        self.indent += 1
        written = self.plain(lambda: self.set_key(node, False))
        if not written:
            self.emit(f"{run}({self.frame})")
        self.indent -= 1
        self.emit("except SynError as error:")
        self.emit("    raise make_secret(error, st.touched)")
        if closure.taint is not None:
            self.emit("if st.touched:")
            self.emit(f"    {self.value(closure.taint)}({self.frame})")
        self.indent -= 1
        return True

    def plain(self, write) -> bool:
        """Run `write` (an unlabelled statement writer); when it declines, undo what it wrote."""
        lines, temps, bound, indent = len(self.lines), list(self.statement_temps), set(self.bound), self.indent
        if write():
            return True
        del self.lines[lines:]
        self.statement_temps, self.bound, self.indent = temps, bound, indent
        return False

    def s_Give(self, node, tail):
        scope = self.scope
        if not scope.in_task() and not self.c._in_test(scope):
            return False  # the closure compiler raises the load error
        v = self.expr(node.value) if node.value is not None else "None"
        carried = f"wrap({v}, st.pc) if st.pc else {v}"
        if tail or self.task_body:
            self.emit(f"return {carried}")
        else:
            self.emit(f"reg.value = {carried}")
            self.emit("return GIVE")
        return True

    def s_When(self, node, tail):
        if len(node.branches) > 12:
            return False
        closure = self.c.stmt(node, self.scope, tail)
        private = self.value(closure.private_from)
        self.labelled_branches(node, 0, private, tail)
        return True

    def labelled_branches(self, node, position, private, tail):
        cond, body = node.branches[position]
        c = self.test(cond)
        self.emit(f"if {c}.__class__ is Labeled:")
        self.indent += 1
        r = self.temp()
        self.emit(f"{r} = {private}({self.frame}, {position}, {c})")   # the rest of the `when`, pc raised
        self.signal(node, r, tail)
        self.indent -= 1
        self.emit(f"elif {c}:")
        self.nested(body, tail)
        last = position + 1 == len(node.branches)
        if not last or node.otherwise is not None or tail:
            self.emit("else:")
            self.indent += 1
            if not last:
                self.labelled_branches(node, position + 1, private, tail)
            elif node.otherwise is not None:
                self.block_body(node.otherwise, tail)
            else:
                self.emit("return None")
            self.indent -= 1

    def signal(self, node, r, tail) -> None:
        """What follows a statement run by a closure: its value in tail position, else a GIVE or
        STOP it ends with (fallback_statement's rule)."""
        if tail:
            self.emit(f"return {r}")
        elif _signals(node):
            self.emit(f"if {r} is GIVE or {r} is STOP:")
            if self.loops:
                self.emit(f"    if {r} is STOP:")
                self.emit("        break")
            self.emit(f"    return {r}")

    def s_While(self, node, tail):
        """`while`: a PlainLoop for a loop that starts while nothing is private, where one can be
        written; else, and every other time, `labelled_while`."""
        plain = None if tail else PlainLoop(self).written(node, None)
        self.plain_first(plain, lambda: self.labelled_while(node, tail))
        return True

    def plain_first(self, plain, labelled) -> None:
        """`if not st.touched <and the callees held>: <the PlainLoop> else: <labelled()>`; without
        a PlainLoop (None) the labelled loop alone."""
        if plain is None:
            labelled()
            return
        self.emit(f"if not st.touched{plain.guard()}:")
        self.lines.extend(plain.lines)   # its temporaries and frames numbered on from this function's
        self.temps, self.frame_count = plain.temps, plain.frame_count
        self.statement_temps.extend(t for t in plain.statement_temps if t not in self.statement_temps)
        self.emit("else:")
        self.indent += 1
        labelled()
        self.indent -= 1

    def labelled_while(self, node, tail):
        """label_compiler.LabelCompiler.s_While: a private condition raises the pc (and the give
        taint, and hides absence) for the rest of the loop; errors secret under the pc; the pc
        back to `old | give_taint` on every exit."""
        c = self.c
        self.pcs += 1
        old = f"p{self.pcs}"
        hide = c._hide_absence([node.body], self.scope)
        self.emit(f"{old} = st.pc")
        self.emit("try:")
        self.indent += 1
        self.emit("while True:")
        self.indent += 1
        v = self.test(node.cond)
        self.emit(f"if {v}.__class__ is Labeled:")
        self.emit("    if not st.pc:")
        self.emit(f"        st.public_at = {self.value(node.span)}")
        self.emit(f"    st.pc = st.pc | {v}.labels")
        if _may_give(node.body):
            self.emit(f"    st.give_taint = st.give_taint | {v}.labels")
        if hide is not None:
            self.emit(f"    {self.value(hide)}({self.frame}, st.pc)")
        self.emit(f"    {v} = {v}.value")
        self.emit(f"if not {v}:")
        self.emit("    break")
        self.end_statement()
        self.loop_body(node.body)
        self.indent -= 1
        self.loop_end(old, tail)

    def loop_body(self, stmts) -> None:
        """A loop's body, a `stop` of a called task (StopLoop) ending the loop."""
        self.emit("try:")
        self.indent += 1
        self.c.loops += 1
        self.loops += 1
        self.block_body(stmts, False)
        self.loops -= 1
        self.c.loops -= 1
        self.indent -= 1
        self.emit("except StopLoop:")
        self.emit("    break")

    def loop_end(self, old: str, tail: bool) -> None:
        """What closes a labelled loop's `try` (the closures' `_leaving`, `make_secret` and
        `finally`): in tail position its value `_leaving(None, pc)`; an error secret under the
        pc; the pc back to what it was, raised by the labels of every private `give` (taint)."""
        if tail:
            self.emit("return wrap(None, st.pc)")
        self.indent -= 1
        self.emit("except SynError as error:")
        self.emit("    raise make_secret(error, st.pc)")
        self.emit("finally:")
        self.emit(f"    st.pc = {old} | st.give_taint")

    def s_Each(self, node, tail):
        """`each`: a PlainLoop for a walk that starts while nothing is private, where one can be
        written (the collection is then no labelled value, and runtime.codegen's each_items walks
        or refuses it as the labelled loop does); else, and every other time, `labelled_each`."""
        coll = self.iterable(node.iterable)
        plain = None if tail else PlainLoop(self).written(node, coll)
        self.plain_first(plain, lambda: self.labelled_each(node, coll, tail))
        return True

    def labelled_each(self, node, coll: str, tail: bool) -> None:
        """label_compiler.LabelCompiler.s_Each: the collection's label raises the pc for the
        whole loop and labels every item; errors in the loop are secret under the pc; the pc
        goes back to `old | give_taint` on every exit."""
        from synsema.lang.resolve import block_scope
        labels = self.temp()
        span = self.value(node.iterable.span)
        self.emit(f"if {coll}.__class__ is Labeled:")
        self.emit(f"    {labels} = {coll}.labels")
        self.emit(f"    {coll} = {coll}.value")
        self.emit("else:")
        self.emit(f"    {labels} = EMPTY")
        self.emit(f"if {coll}.__class__ is dict:")
        self.emit(f"    {coll} = list({coll})")
        self.emit(f"elif {coll}.__class__ is not list and {coll}.__class__ is not range and {coll}.__class__ is not str "
                  f"and {coll}.__class__ is not bytes:")
        self.emit(f"    raise make_secret(not_iterable({coll}, {span}), {labels})")
        self.pcs += 1
        old = f"p{self.pcs}"
        self.emit(f"{old} = st.pc")
        self.emit(f"if {labels} and not {old}:")
        self.emit(f"    st.public_at = {span}")
        self.emit(f"st.pc = {old} | {labels}")
        if _may_give(node.body):
            self.emit(f"if {labels}:")
            self.emit(f"    st.give_taint = st.give_taint | {labels}")
        self.statement_temps.remove(coll)
        self.statement_temps.remove(labels)
        self.end_statement()
        saved_temps, self.statement_temps = self.statement_temps, []
        self.emit("try:")
        self.indent += 1
        inner = block_scope(self.scope, node.body, [node.var])
        self.frame_count += 1
        outer = self.frames[-1][0]
        fname, target = f"f{self.frame_count}", f"i{self.frame_count}"
        self.emit(f"for {target} in {coll}:")
        self.indent += 1
        marker = len(self.lines)   # the frame is written once the body has declared its slots
        self.emit("")
        self.frames.append((fname, inner))
        self.loop_body(node.body)
        self.emit(f"{fname} = None")
        self.frames.pop()
        slots = "".join(", U" for _ in range(inner.size - 2))
        self.lines[marker] = ("    " * self.indent
                              + f"{fname} = [{outer}, wrap({target}, {labels}) if {labels} else {target}{slots}]")
        self.indent -= 1
        self.loop_end(old, tail)
        self.statement_temps = saved_temps + [coll, labels]

    # ------------------------------------------------------------------ expressions
    def e_Unary(self, node):
        if node.op != "not":
            return super().e_Unary(node)   # minus: the operator takes labels itself
        v = self.expr(node.operand)
        t = self.temp()
        self.emit(f"{t} = Labeled(not {v}.value, {v}.labels) if {v}.__class__ is Labeled else not {v}")
        return t

    def e_Compare(self, node):
        if len(node.ops) != 1 or not fastpaths.has_fast_path(node.ops[0]):
            return None
        op = node.ops[0]
        general = _slow_binary(labelled_comparison(op), node.span, f"`{op}`")
        return self.operator(op, node.first, node.rest[0], general, node.span)

    def operator(self, op, left_node, right_node, general, span) -> str:
        """As Generator.operator, and for `+ - * // %` a second inline case: integers of which one
        or both are labelled, answered as runtime.operators' `_labelled` answers (the operation
        on the values, labelled with both labels); anything else is the general operator."""
        if op not in _LABELLED_INT_OPS or (op == "+" and ast.Str in (type(left_node), type(right_node))):
            # (text joined to a literal: Generator.operator's inline case takes two texts, which
            # are never labelled; anything else is the general operator, which takes labels)
            return super().operator(op, left_node, right_node, general, span)
        a = self.atom(left_node, [right_node])
        b = self.expr(right_node)
        slow = self.value(general)
        t, x, y, labels = self.temp(), self.temp(), self.temp(), self.temp()
        nonzero = f" and {b}" if op in ("%", "//") else ""
        constant = type(right_node) is ast.Num and type(right_node.value) is int   # `b` is a plain int
        self.emit(f"if {a}.__class__ is {'int' if constant else b + '.__class__ is int'}{nonzero}:")
        self.indent += 1
        self.int_result(op, t, a, b, slow, span)
        self.indent -= 1
        if constant:
            self.emit(f"elif {a}.__class__ is Labeled and ({x} := {a}.value).__class__ is int{nonzero}:")
            self.indent += 1
            self.int_result(op, t, x, b, slow, span, a, b)
            self.emit(f"if {t}.__class__ is int:")
            self.emit(f"    {t} = Labeled({t}, {a}.labels) if {a}.labels else {t}")
            self.indent -= 1
        else:
            self.emit(f"elif {a}.__class__ is Labeled or {b}.__class__ is Labeled:")
            self.indent += 1
            self.emit(f"if {a}.__class__ is Labeled:")
            self.emit(f"    {x} = {a}.value")
            self.emit(f"    {labels} = {a}.labels")
            self.emit(f"    if {b}.__class__ is Labeled:")
            self.emit(f"        {y} = {b}.value")
            self.emit(f"        {labels} = {labels} | {b}.labels")
            self.emit("    else:")
            self.emit(f"        {y} = {b}")
            self.emit("else:")
            self.emit(f"    {x} = {a}")
            self.emit(f"    {y} = {b}.value")
            self.emit(f"    {labels} = {b}.labels")
            self.emit(f"if {x}.__class__ is {y}.__class__ is int{' and ' + y if nonzero else ''}:")
            self.indent += 1
            self.int_result(op, t, x, y, slow, span, a, b)
            self.emit(f"if {labels} and {t}.__class__ is int:")
            self.emit(f"    {t} = Labeled({t}, {labels})")
            self.indent -= 1
            self.emit("else:")
            self.emit(f"    {t} = {slow}({a}, {b})")
            self.indent -= 1
        self.emit("else:")
        self.emit(f"    {t} = {slow}({a}, {b})")
        return t

    def int_result(self, op, t, x, y, slow, span, a=None, b=None) -> None:
        """`t` = `x op y` on two ints as Generator.operator writes it; a product past the integer
        limit is, for labelled operands, the general operator's (whose error is made secret)."""
        if op != "*":
            self.emit(f"{t} = {x} {op} {y}")
            return
        self.emit(f"{t} = {x} * {y}")
        self.emit(f"if not _INT_LOW < {t} < _INT_HIGH:")
        if a is None:
            self.emit(f"    {t} = checked_product({t}, {self.value(span)})")
        else:
            self.emit(f"    {t} = {slow}({a}, {b})")

    def stripped(self, v: str, labels: str) -> str:
        """`v` without its labels, at any depth, their union added to `labels` (a written name):
        `strip` once something is private; before, no label exists anywhere. A temporary."""
        if v[0] != "t":
            held = self.temp()
            self.emit(f"{held} = {v}")
            v = held
        self.emit("if st.touched:")
        self.emit(f"    {v}, found = strip({v})")
        self.emit("    if found:")
        self.emit(f"        {labels} = {labels} | found")
        return v

    def e_Template(self, node):
        """LabelCompiler.e_Template: each hole in turn, stripped and shown (its errors its own);
        the text joined (its size error secret under the holes' labels) and labelled by them."""
        labels = self.temp()
        self.emit(f"{labels} = EMPTY")
        parts = []
        for p in node.parts:
            if type(p) is str:
                parts.append(self.value(p))
                continue
            raw = self.stripped(self.expr(p), labels)
            shown = self.temp()
            self.emit(f"{shown} = {raw} if {raw}.__class__ is str else display({raw})")
            parts.append(shown)
        t = self.temp()
        holes = [p for p in parts if p[0] == "t"]
        room = MAX_TEXT_LENGTH - sum(len(p) for p in node.parts if type(p) is str)
        listed = ", ".join(parts)
        if holes:
            self.emit(f"if {' + '.join(f'len({h})' for h in holes)} <= {self.value(room)}:")
            self.emit(f"    {t} = ''.join(({listed},))")
            self.emit("else:")
            self.indent += 1
        self.emit("try:")
        self.emit(f"    {t} = joined('a template', [{listed}])")
        self.emit("except SynError as error:")
        self.emit(f"    raise make_secret(error.at({self.value(node.span)}), {labels})")
        if holes:
            self.indent -= 1
        self.emit(f"if {labels}:")
        self.emit(f"    {t} = Labeled({t}, {labels})")
        return t

    def e_MapLit(self, node):
        """LabelCompiler.e_MapLit: each key (stripped, its labels the map's), then its value as
        it is; the map labelled by the keys' labels."""
        labels, t = self.temp(), self.temp()
        self.emit(f"{labels} = EMPTY")
        self.emit(f"{t} = {{}}")
        for k, v in node.entries:
            if type(k) is ast.Str:
                key = self.expr(k)   # (a literal's load-time limits)
                self.emit(f"{t}[{key}] = {self.expr(v)}")
                continue
            key = self.stripped(self.expr(k), labels)
            value = self.expr(v)
            self.emit(f"{t}[{key} if {key}.__class__ is str else map_key({key})] = {value}")
        self.emit(f"if {labels}:")
        self.emit(f"    {t} = Labeled({t}, {labels})")
        return t

    @staticmethod
    def index_slow(span):
        return labelled_index(span)

    def e_Call(self, node):
        if node.named or type(node.func) is ast.Attr or assertions.is_check(node, self.scope):
            return None
        looped = self.callback_loop(node)
        if looped is not None:
            return looped
        fn = self.atom(node.func, node.args)
        args = [self.atom(a, node.args[i + 1:]) for i, a in enumerate(node.args)]
        t = self.temp()
        self.labelled_call(node, fn, args, t)
        return t

    def labelled_call(self, node, fn: str, args: list, t: str) -> None:
        """`t` = the call of `fn` on `args` under the label rules: a builtin while nothing is
        private as public_builtin (written out), anything else the LabelCompiler's general_call."""
        listed = ", ".join(args)
        span = self.value(node.span)
        found = self.temp()
        self.emit(f"if {fn}.__class__ is Builtin and not st.touched:")
        self.indent += 1
        public_builtin_call(self, node, fn, t, args, span, found, inline=True)   # (args: temporaries, constants)
        self.emit(f"    {t} = wrap({t}, {found})")
        self.indent -= 1
        self.emit("else:")
        self.emit(f"    {t} = {self.value(self.c.general_call(node.span))}(None, {fn}, [{listed}], ())")

    def callback_loop(self, node):
        """codegen.Generator.callback_loop under labels: `where(xs, (x) => …)` and the other
        builtins of _CALLBACK_LOOPS as a loop here, for a call that starts while nothing is
        private, with the lambda's body as PlainCallback writes it (no labels; operators, its
        parameters, globals, literals, calls of _PURE_BUILTINS) inline per item. Taken when the
        global still holds that builtin, `xs` is a list, nothing is private (`st.touched` empty:
        then the pc, the give taint, the builtin's argument labels and `callback_labels` are empty
        too) and every callee of the body is still its builtin. Nothing in the loop can change
        any of that: the body runs no code of the program's and makes no private value, so each
        item computes what labelled_callback's entry computes for it (its plain body), with the
        same depth tests, steps, depth and errors, and the answer carries no label. Any other
        call is `labelled_call` on the lambda made there, as before. None when the call is not of
        that form or PlainCallback cannot write the body."""
        from synsema.lang.resolve import task_scope
        from synsema.runtime.codegen import _CALLBACK_LOOPS
        lam = node.args[1] if len(node.args) in (2, 3) else None
        if type(lam) is not ast.Lambda or any(p.default is not None for p in lam.params):
            return None
        fn_value = self.known_builtin(node.func, len(node.args))
        form = _CALLBACK_LOOPS.get(fn_value.spec.name) if fn_value is not None else None
        if form is None or fn_value.spec.cap is not None or form[:2] != (len(node.args), len(lam.params)):
            return None
        _, params, start, before, after = form
        plain = PlainCallback(self.c, self)
        written = plain.loop_body(lam.body, task_scope(self.scope, lam.params, lam.body), self.indent + 4, self.temps)
        if written is None:
            return None
        self.temps = plain.temps
        fn = self.atom(node.func, node.args)
        xs = self.atom(node.args[0], node.args[1:])
        rest = [self.atom(a, node.args[i + 3:]) for i, a in enumerate(node.args[2:])]   # reduce's initial value
        span = self.value(node.span)
        t, d = self.temp(), self.temp()
        item = f"v{params}"
        names = {"r": t, "x": item, "a": "v1", "i": rest[0] if rest else None}
        callees = plain.guard()
        self.emit(f"if {fn} is {self.value(fn_value)} and not st.touched and {xs}.__class__ is list{callees}:")
        self.indent += 1
        self.emit("try:")
        self.indent += 1
        self.callback_loop_head(xs, d, item, start, before, names, "depth = ")
        self.lines.extend(plain.lines)
        self.statement_temps.extend(plain.statement_temps)
        self.callback_loop_tail(after, dict(names, v=written), self.value(fn_value.spec.name), d)
        self.indent -= 1
        self.emit("except SynError as error:")
        self.emit(f"    raise error.at({span})")
        self.indent -= 1
        self.emit("else:")
        self.indent += 1
        self.labelled_call(node, fn, [xs, self.fallback_expr(lam), *rest], t)
        self.indent -= 1
        return t

