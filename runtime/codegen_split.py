"""Labelled task and lambda bodies whose variables are Python locals: a value and a label each.

Frame-mode labelled code (runtime.codegen_labels) keeps every variable in the frame list and
every private value in a `Labeled` box, so each step through private data reads the frame, opens
the box and makes a new one. A body in which every node is one this module writes (`_STATEMENTS`,
`_EXPRESSIONS`, checked before anything is written; anything else gives up and the body goes to
runtime.codegen_labels) is written here with two Python locals per variable: `x<slot>`, its value
without its top-level label, and `l<slot>`, that label — EMPTY when public, else the frozenset
some operation made, passed on as it is, so joining a label with itself is an identity test
(`_join`). A box is made only where a value leaves the locals (`boxed`): an argument, an item of
a new list or map, a stored value, a `give`, the general operator. The body has no frame, so
nothing can capture a variable: no closure, task or lambda is written inside one (they are not in
the lists).

Each construct keeps label_compiler.LabelCompiler's rule, applied to the pair as the closure
applies it to the box (unwrap, compute on the values, label with the union):

* `+ - * // %` and one comparison: the int (and text + literal) cases on the values, labelled
  with both labels; every other case the general operator on the boxes (runtime.operators and
  `labelled_comparison` take labels and make their errors secret), its answer unboxed;
* `not` keeps its operand's label; `-` on a number keeps it, else the general negation;
* `let` under a private pc is born private and may not replace a binding less private than the
  pc (no-sensitive-upgrade), as LabelCompiler.binder; `set x to …` under a private pc is refused
  unless `x` is at least that private (`_check_upgrade`), and stores the value raised by the pc;
* `set m[k] to …` is the unlabelled keyed assignment while nothing is private (its error secret
  under what the run touched meanwhile, the variable tainted when the first private value appeared
  in a computed key), else `_keyed_store` (LabelCompiler.s_Set's labelled path);
* a call of a builtin while nothing is private is `public_builtin` written out (its callbacks'
  labels on its answer or its error); every other call is the LabelCompiler's `general_call` on
  the boxes; list and text-keyed map literals hold their items boxed and are public themselves;
* `give` carries the pc; `while` raises the pc on a private condition (its place recorded in
  `public_at`), taints a `give` inside, hides the absence of the names its body binds, makes its
  errors secret and puts the pc back as `old | give_taint` on every exit; `stop` leaves the loop.
  A `while` whose body computes its labels from nothing but the labels it starts with settles:
  once an iteration leaves every label it assigns the same object under the same pc, the next
  ones run a copy of the body without label code (s_While).

A body whose names are not all its own bound variables, parameters or globals gives up too, as
does one Python refuses to compile. tests/test_codegen_labels.py runs programs both ways.
"""

from __future__ import annotations

import re

from synsema.lang import ast
from synsema.lang.checks import PROTECTED_NAMES
from synsema.lang.resolve import Scope, collect_declarations
from synsema.lang.errors import SynError
from synsema.runtime import assertions, fastpaths
from synsema.runtime import operators as ops
from synsema.runtime.codegen import Generator, _GiveUp, _slow_binary, _slow_negate, _undefined_raiser
from synsema.runtime.compiler import _append_call
from synsema.runtime.codegen_labels import _PURE_BUILTINS, public_builtin_call
from synsema.runtime.label_compiler import _may_give, _updated, labelled_comparison
from synsema.runtime.labels import EMPTY, Labeled, assignment_refusal, make_secret, unwrap, violation, wrap

_STATEMENTS = frozenset({"ExprStmt", "Let", "Set", "Give", "Stop", "While"})
_EXPRESSIONS = frozenset({"Num", "Str", "Bool", "Nothing", "Name", "Unary", "Binary", "Compare", "Call", "Pipe",
                          "ListLit", "MapLit"})

# Operators whose int case is written inline on the values (runtime.operators' int cases).
_INT_OPS = frozenset({"+", "-", "*", "//", "%", "<", "<=", ">", ">="})


# Where written code reads the local `pc` (the pc as the body entered it, kept in step with st.pc).
_PC_READ = re.compile(r"(?<![.\w])pc\b")

# Where written code reads the local `depth`: the body's call depth, REG.depth as the body entered
# it, which every call it makes puts back as it found it (so it is REG.depth all through the body).
_DEPTH_READ = re.compile(r"(?<![.\w])depth\b")


def writable(body) -> bool:
    """Whether every node of a task body (a list) or lambda body (an expression) is one this
    module writes (nested task and lambda bodies are not: they would capture the frame)."""
    todo = list(body) if type(body) is list else [body]
    while todo:
        node = todo.pop()
        name = type(node).__name__
        if name not in _STATEMENTS and name not in _EXPRESSIONS:
            return False
        if name == "Set" and type(node.target) is not ast.Name and not (
                type(node.target) is ast.Index and type(node.target.obj) is ast.Name):
            return False
        if name == "Call" and (node.named or type(node.func) is ast.Attr):
            return False
        if name == "MapLit" and any(type(k) is not ast.Str for k, _ in node.entries):
            return False
        if name == "Compare" and (len(node.ops) != 1 or not fastpaths.has_fast_path(node.ops[0])):
            return False
        if name == "Set" and type(node.target) is ast.Index:   # the target's index, not the Index
            todo += [node.value, node.target.index]
            continue
        todo.extend(ast.children(node))
    return True


def _join(a: frozenset, b: frozenset) -> frozenset:
    """The union of two labels, neither empty nor the same object: one of them when it holds the
    other, so a label joined again with what it already holds stays the same object."""
    if b <= a:
        return a
    if a <= b:
        return b
    return a | b


def _refusal(st, name: str, span, declassified: bool):
    """LabelCompiler._check_upgrade for a variable held in locals: `refuse(held)` raises the
    violation for assigning to `name`, labelled `held`, under the private pc."""
    def refuse(held):
        raise violation(assignment_refusal(name, held, st.pc, declassified), span)
    return refuse


def _keyed_store(compiler, name: str, span, declassified: bool):
    """LabelCompiler.s_Set's `labelled` for `set name[key] to value` once something is private:
    `store(current, key, value)` (boxed) checks the assignment under the pc, raises the value by
    the pc and answers the variable's new (boxed) value, an error secret under the labels of the
    key and of what the variable held."""
    st = compiler.st

    def store(current, key, value):
        compiler._check_upgrade(name, current, span, declassified)
        try:
            return _updated(current, [key], wrap(value, st.pc))
        except SynError as error:
            raise make_secret(error.at(span), unwrap(key)[1] | unwrap(current)[1])
    return store


class SplitGenerator(Generator):
    """Writes one labelled task or lambda body with values and labels in locals (module doc)."""

    names = {"Labeled": Labeled, "EMPTY": EMPTY, "make_secret": make_secret, "join": _join}

    def __init__(self, compiler, task_body: bool):
        super().__init__(compiler, task_body, direct=False)
        self.labels = 0   # label temporaries m1, m2, … (frozensets: never dropped, never counted)
        self.pcs = 0
        self.values_only = False   # writing a settled loop's body (s_While): no label is computed
        self.inner_condition = False   # writing the condition of settled_loop's inner loop

    # ------------------------------------------------------------------ plumbing
    def label_temp(self) -> str:
        self.labels += 1
        return f"m{self.labels}"

    def join(self, a: str, b: str, into: str) -> None:
        """`into` = the label of a result whose operands are labelled `a` and `b` (written
        names, or EMPTY)."""
        if self.values_only:
            return
        if a == "EMPTY" or a == b:
            self.emit(f"{into} = {b}")
        elif b == "EMPTY":
            self.emit(f"{into} = {a}")
        else:
            self.emit(f"{into} = {a} if {b} is {a} or not {b} else {b} if not {a} else join({a}, {b})")

    @staticmethod
    def with_pc(label: str) -> str:
        """An expression for `label` joined with the pc, read where it is not empty."""
        if label == "EMPTY":
            return "pc"
        return f"pc if {label} is pc or not {label} else join({label}, pc)"

    @staticmethod
    def boxed(v: str, label: str) -> str:
        """The value as the closures hold it, in a Labeled box when its label is not empty (an
        expression: used once, where the value leaves the locals)."""
        if label == "EMPTY":
            return v
        return f"(Labeled({v}, {label}) if {label} else {v})"

    def unboxed(self, t: str) -> tuple[str, str]:
        """A value the closures' way (`t`, a temporary) as a pair: its box opened."""
        m = self.label_temp()
        self.unbox_into(t, m)
        return t, m

    def unbox_into(self, t: str, m: str) -> None:
        self.emit(f"if {t}.__class__ is Labeled:")
        self.emit(f"    {m} = {t}.labels")
        self.emit(f"    {t} = {t}.value")
        self.emit("else:")
        self.emit(f"    {m} = EMPTY")

    def local(self, slot: int) -> tuple[str, str]:
        return f"x{slot}", f"l{slot}"

    def depth_now(self) -> str:
        """The local `depth` (`_DEPTH_READ`): Generator.builtin_call reads it and puts REG.depth
        back to it absolutely, as in a direct body."""
        return "depth"

    # ------------------------------------------------------------------ entry points
    def task(self, stmts: list, scope):
        self.frames.append(("f0", scope))
        self.block(stmts, tail=True)
        self.emit("return None")
        return self.finish_split(scope)

    def lambda_body(self, node, scope):
        self.frames.append(("f0", scope))
        v, label = self.expr(node)
        self.emit(f"return {self.boxed(v, label)}")
        return self.finish_split(scope)

    def finish_split(self, scope):
        """Open each parameter's box into its pair, every other variable unbound and public."""
        head = []
        for slot in range(1, scope.params + 1):
            x, lab = self.local(slot)
            head += [f"{x} = f0[{slot}]", f"if {x}.__class__ is Labeled:", f"    {lab} = {x}.labels",
                     f"    {x} = {x}.value", "else:", f"    {lab} = EMPTY"]
        if any(_PC_READ.search(line) for line in self.lines):
            head.append("pc = st.pc")
        if any(_DEPTH_READ.search(line) for line in self.lines):
            head.append("depth = reg.depth")
        rest = range(scope.params + 1, scope.size)
        if rest:
            head.append(" = ".join(f"x{s}" for s in rest) + " = U")
            head.append(" = ".join(f"l{s}" for s in rest) + " = EMPTY")
        self.lines[:0] = ["        " + line for line in head]
        return self.finish()

    # ------------------------------------------------------------------ statements
    def statement(self, node, tail: bool) -> None:
        name = type(node).__name__
        if name not in _STATEMENTS or not getattr(self, "s_" + name)(node, tail):
            raise _GiveUp()
        self.end_statement()

    def variable(self, name: str) -> int | None:
        """The slot of `name` when it is this body's own variable, bound here; else None."""
        candidates = self.scope.resolve(name)
        if not candidates or candidates[0][0] != 0:
            return None
        slot = candidates[0][1]
        if slot <= self.scope.params or f"x{slot}" in self.bound:
            return slot
        return None

    def s_ExprStmt(self, node, tail):
        v, label = self.expr(node.expr)
        if tail:
            self.emit(f"return {self.boxed(v, label)}")
        return True

    def s_Let(self, node, tail):
        if node.exported or node.name in PROTECTED_NAMES or self.scope.is_global:
            return False
        v, label = self.expr(node.value)
        slot = self.scope.declare(node.name)
        x, lab = self.local(slot)
        self.bound.add(x)
        # LabelCompiler.binder's private_store: born private, replacing no less private binding
        self.assign(x, lab, v, label, _refusal(self.c.st, node.name, node.span, False), f"{x} is not U and ")
        if tail:
            self.emit(f"return {self.boxed(v, label)}")
        return True

    def s_Set(self, node, tail):
        target = node.target
        if type(target) is ast.Index:
            return self.set_key(node, tail)
        if target.name in PROTECTED_NAMES:
            return False
        slot = self.variable(target.name)
        if slot is None:
            return False
        v, label = self.expr(node.value)
        x, lab = self.local(slot)
        if self.values_only:   # a settled loop: the check passed, the label is what it was
            self.emit(f"{x} = {v}")
            return True
        declassified = (type(node.value) is ast.Call and type(node.value.func) is ast.Name
                        and node.value.func.name == "declassify")
        # LabelCompiler.s_Set's `labelled`: refused unless as private as the pc, the value raised
        self.assign(x, lab, v, label, _refusal(self.c.st, target.name, node.span, declassified), "")
        if tail:
            self.emit(f"return {self.boxed(x, lab)}")
        return True

    def set_key(self, node, tail):
        """`set m[k] to v` (LabelCompiler.s_Set's `assign_inside`): while nothing is private, the
        unlabelled assignment (Generator.set_key's, in place on an unshared map at a text key), its
        error secret under what the run touched meanwhile, and the variable as private as that
        when the run's first private value appeared in it and the key is not a literal; once
        something is private, the labelled assignment (`_keyed_store`)."""
        name = node.target.obj.name
        slot = self.variable(name)
        if tail or slot is None or name in PROTECTED_NAMES \
                or self.c._keyed_append(node, name, None, None, self.scope) is not None:
            return False
        x, lab = self.local(slot)
        span = self.value(node.span)
        declassified = (type(node.value) is ast.Call and type(node.value.func) is ast.Name
                        and node.value.func.name == "declassify")
        store = self.value(_keyed_store(self.c, name, node.span, declassified))
        outer, self.statement_temps = self.statement_temps, []   # each branch drops its own temporaries
        self.emit("if st.touched:")
        self.indent += 1
        v, vl = self.expr(node.value)
        k, kl = self.expr(node.target.index)
        new = self.temp()
        self.emit(f"{new} = {store}({self.boxed(x, lab)}, {self.boxed(k, kl)}, {self.boxed(v, vl)})")
        self.emit(f"{x} = {new}")
        self.unbox_into(x, lab)
        self.end_statement()
        self.indent -= 1
        self.emit("else:")
        self.indent += 1
        self.emit("try:")
        self.indent += 1
        v, vl = self.expr(node.value)
        k, kl = self.expr(node.target.index)
        vb, kb, box = self.temp(), self.temp(), self.temp()
        self.emit(f"{vb} = {self.boxed(v, vl)}")
        self.emit(f"{kb} = {self.boxed(k, kl)}")
        self.drop_temps((vb, kb))
        self.statement_temps = outer + [vb, kb]   # the rest are dropped, and `box` is by its `finally`
        self.emit(f"if {x}.__class__ is dict and {kb}.__class__ is str and getrefcount({x}) <= 2:")
        self.emit(f"    {x}[{kb}] = {vb}")
        self.emit("else:")
        self.indent += 1
        self.emit(f"{box} = [{x}]")
        self.emit(f"{x} = None")
        self.emit("try:")
        self.emit(f"    store({box}, 0, {kb}, {vb})")
        self.emit("except SynError as error:")
        self.emit(f"    raise error.at({span})")
        self.emit("finally:")
        self.emit(f"    {x} = {box}[0]")
        self.emit(f"    {box} = None")
        self.indent -= 2
        self.emit("except SynError as error:")
        self.emit("    raise make_secret(error, st.touched)")
        if type(node.target.index) not in (ast.Str, ast.Num):
            self.emit("if st.touched:")   # the first private value appeared in the key, or the value
            self.emit(f"    {lab} = st.touched if {lab} is st.touched or not {lab} else join({lab}, st.touched)")
        self.indent -= 1
        return True

    def assign(self, x, lab, v, label, refusal, bound_test) -> None:
        """Store the pair (`v`, `label`) in the variable (`x`, `lab`): under a private pc only when
        the variable is at least that private (`bound_test` first, for a `let`), the label raised
        by the pc; under a public pc as it is."""
        self.emit("if pc:")
        self.emit(f"    if {bound_test}not pc <= {lab}:")
        self.emit(f"        {self.value(refusal)}({lab})")
        self.emit(f"    {lab} = {self.with_pc(label)}")
        self.emit(f"    {x} = {v}")
        self.emit("else:")
        self.emit(f"    {x} = {v}")
        self.emit(f"    {lab} = {label}")

    def s_Give(self, node, tail):
        if not self.scope.in_task():
            return False
        if node.value is None:
            v, label = "None", "EMPTY"
        else:
            v, label = self.expr(node.value)
        carried = self.label_temp()   # LabelCompiler.s_Give: `wrap(v, st.pc) if st.pc else v`
        self.emit(f"{carried} = {self.with_pc(label)} if pc else {label}")
        self.emit(f"return {self.boxed(v, carried)}")
        return True

    def s_While(self, node, tail):
        """LabelCompiler.s_While (see the module doc). A loop whose body's labels are a function of
        the labels it starts with (`_settles`) runs that body with labels only until an iteration
        ends with every variable it assigns labelled as it began, under the same pc: from then on
        each iteration would compute the same labels again and pass the same checks, so the body
        runs on the values alone (`values_only`). When the condition too reads nothing but
        operators, constants and bound variables of this body (`_settled_condition`), that run is
        an inner Python loop with the condition on the values too (`settled_loop`); otherwise the
        condition keeps computing its label and a private one sends the body back to labels."""
        probe = Scope(None, "block")
        collect_declarations(node.body, probe)
        hidden = [self.local(self.scope.declare(n)) for n in probe.slots]
        self.pcs += 1
        old = f"p{self.pcs}"
        settles = self._settles(node.body)
        # (a body with its unconditional `stop` runs once: the inner loop would never be reached)
        inner = settles and self._settled_condition(node.cond) and not any(type(s) is ast.Stop for s in node.body)
        settled = f"q{self.pcs}" if settles and not inner else None
        span = self.value(node.span)
        plain = PlainLoop(self).write(node)
        self.emit(f"{old} = pc")
        if settled:
            self.emit(f"{settled} = False")
        self.emit("try:")
        self.indent += 1
        if plain is not None:   # entered while nothing is private: the whole loop without labels
            test, lines = plain
            self.emit(f"if {test}:")
            self.lines += lines
            self.emit("else:")
            self.indent += 1
        self.emit("while True:")
        self.indent += 1
        at_condition = self.temps, self.labels
        c, label = self.expr(node.cond)
        if label != "EMPTY":
            self.emit(f"if {label}:")
            self.emit("    if not pc:")
            self.emit(f"        st.public_at = {span}")
            self.emit(f"    st.pc = pc = pc | {label}")
            if _may_give(node.body):
                self.emit(f"    st.give_taint = st.give_taint | {label}")
            for x, lab in hidden:   # LabelCompiler._hide_absence
                self.emit(f"    if {x} is U:")
                self.emit(f"        {x} = None")
                self.emit(f"        {lab} = pc")
            if settled:
                self.emit(f"    {settled} = False")
        self.emit(f"if not {c}:")
        self.emit("    break")
        self.end_statement()
        self.emit("try:")
        self.indent += 1
        self.loops += 1
        if inner:
            self.settled_loop(node, at_condition)
        elif settled:
            assigned = self._assigned(node.body)
            counters = self.temps, self.labels
            self.emit(f"if {settled}:")
            self.values_only = True
            self.nested(node.body, False)
            self.values_only = False
            self.temps, self.labels = counters   # the same temporaries in both copies
            self.emit("else:")
            self.indent += 1
            for slot in assigned:
                self.emit(f"s{slot} = l{slot}")
            self.block_body(node.body, False)
            same = " and ".join(f"l{slot} is s{slot}" for slot in assigned) or "True"
            self.emit(f"{settled} = {same}")
            self.indent -= 1
        else:
            self.block_body(node.body, False)
        self.loops -= 1
        self.indent -= 1
        self.emit("except StopLoop:")
        self.emit("    break")
        self.indent -= 1
        if plain is not None:
            self.indent -= 1
        if tail:
            self.emit("return Labeled(None, pc) if pc else None")
        self.indent -= 1
        self.emit("except SynError as error:")
        self.emit("    raise make_secret(error, st.pc)")
        self.emit("finally:")
        self.emit(f"    st.pc = pc = {old} | st.give_taint")
        return True

    def settled_loop(self, node, at_condition) -> None:
        """The body with labels; then, when it left every label it assigns as it found it, an inner
        loop running the condition and the body on the values alone, labels and pc as they are.
        The variables the condition reads keep the labels they had when it was last computed with
        labels (the body assigns each one the label it had), so its int cases' label is the one
        the pc already holds; a general comparison whose answer is private leaves the inner loop
        for the labelled condition, which computes it again (no effect but its label) and raises
        the pc, as does a false condition, which the labelled one then finds false again. Each
        values-only copy uses the temporaries of its labelled copy (`at_condition`: the counters
        where the condition was written), so a label one computed is there for the other."""
        assigned = self._assigned(node.body)
        for slot in assigned:
            self.emit(f"s{slot} = l{slot}")
        counters = self.temps, self.labels
        self.block_body(node.body, False)
        self.emit(f"if {' and '.join(f'l{slot} is s{slot}' for slot in assigned) or 'True'}:")
        self.indent += 1
        self.emit("while True:")
        self.indent += 1
        written = self.temps, self.labels
        self.temps, self.labels = at_condition   # the same temporaries in both copies
        self.values_only = self.inner_condition = True
        if type(node.cond) is ast.Compare:
            self.settled_exit(node.cond)
        else:
            c, _ = self.expr(node.cond)
            self.emit(f"if not {c}:")
            self.emit("    break")
        self.inner_condition = False
        self.end_statement()
        self.temps, self.labels = counters
        self.block_body(node.body, False)
        self.values_only = False
        self.temps, self.labels = max(written[0], self.temps), max(written[1], self.labels)
        self.indent -= 2

    def settled_exit(self, node) -> None:
        """The inner loop's test of a comparison condition: its int case as `if not a < b: break`,
        since CPython specializes a comparison to its int form only when a jump follows it
        directly (an answer stored first goes through the generic comparison and a bool), else
        e_Compare's general comparison, leaving for the labelled condition on a private or false
        answer."""
        op, general, (a, al), (b, bl), t, m = self.comparison_head(node)
        self.emit(f"    if not {a} {op} {b}:")
        self.emit("        break")
        self.emit("else:")
        self.indent += 1
        self.emit(f"{t} = {general}({self.boxed(a, al)}, {self.boxed(b, bl)})")
        self.unbox_into(t, m)
        self.emit(f"if {m} or not {t}:")
        self.emit("    break")
        self.indent -= 1

    def _assigned(self, body) -> list[int]:
        """The slots of the variables a settled loop body's `set`s assign."""
        return sorted({self.scope.resolve(s.target.name)[0][1] for s in body if type(s) is ast.Set})

    def _settled_condition(self, cond) -> bool:
        """Whether a loop condition computes its label from nothing but the labels of this body's
        bound variables: operators, one comparison with an int case, constants and such variables
        (a name perhaps unbound here could read a private global, whose label the values-only
        copy would not compute)."""
        todo = [cond]
        while todo:
            node = todo.pop()
            t = type(node)
            if t is ast.Name:
                if self.variable(node.name) is None:
                    return False
            elif t is ast.Compare:
                if len(node.ops) != 1 or node.ops[0] not in _INT_OPS | {"==", "!="}:
                    return False
            elif t not in (ast.Num, ast.Str, ast.Bool, ast.Nothing, ast.Unary, ast.Binary):
                return False
            todo.extend(ast.children(node))
        return True

    def _settles(self, body) -> bool:
        """Whether the labels a loop body computes depend on nothing but the labels its variables
        hold as it starts and the pc: statements `set x`, expression and `stop`, over operators
        (whose answer is labelled with their operands' union whichever case runs), constants and
        this body's own variables. Not a `let` (a name it binds may have been read unbound, from
        the globals, earlier in the same iteration: the first iteration's labels are not the
        next ones'), a comparison (its general case finds labels inside lists and maps), a call,
        a global, a nested loop."""
        todo = list(body)
        while todo:
            node = todo.pop()
            t = type(node)
            if t is ast.Name:
                if not self.scope.resolve(node.name) or self.scope.resolve(node.name)[0][0] != 0:
                    return False
            elif t not in (ast.ExprStmt, ast.Set, ast.Stop, ast.Num, ast.Str, ast.Bool, ast.Nothing, ast.Unary,
                           ast.Binary):
                return False
            todo.extend(ast.children(node))
        return True

    # ------------------------------------------------------------------ expressions
    def expr(self, node) -> tuple[str, str]:
        name = type(node).__name__
        if name not in _EXPRESSIONS:
            raise _GiveUp()
        out = getattr(self, "e_" + name)(node)
        if out is None:
            raise _GiveUp()
        return out

    def e_Num(self, node):
        return Generator.e_Num(self, node), "EMPTY"

    e_Str = e_Num
    e_Bool = e_Num

    def e_Nothing(self, node):
        return "None", "EMPTY"

    def e_Name(self, node):
        name = node.name
        slot = self.variable(name)
        if slot is not None:
            return self.local(slot)
        candidates = self.scope.resolve(name)
        if not candidates:
            return self.unboxed(self.global_value(node))
        t = self.temp()
        key = self.value(name)
        missing = f"{self.value(_undefined_raiser(name, self.scope, self.c.globals, node.span))}()"
        if candidates != [(0, candidates[0][1])]:
            raise _GiveUp()   # a variable of an enclosing frame
        # this body's variable, perhaps unbound here (let in a loop, hidden): else the global.
        # Its label is computed even in a settled loop's copy (which the variable decides).
        x, lab = self.local(candidates[0][1])
        m = self.label_temp()
        self.emit(f"if {x} is not U:")
        self.emit(f"    {t} = {x}")
        self.emit(f"    {m} = {lab}")
        self.emit("else:")
        self.indent += 1
        self.emit(f"{t} = g[{key}] if {key} in g else {missing}")
        self.unbox_into(t, m)
        self.indent -= 1
        return t, m

    def global_value(self, node) -> str:
        """A temporary holding the global `node` names as the globals hold it (boxed when
        private), read as Generator.e_Name reads a global; the undefined-name error when unbound."""
        t = self.temp()
        read, failure = self.global_read(node.name)
        self.emit("try:")
        self.emit(f"    {t} = {read}")
        self.emit(f"except {failure}:")
        self.emit(f"    {self.value(_undefined_raiser(node.name, self.scope, self.c.globals, node.span))}()")
        return t

    def e_Unary(self, node):
        if node.op == "not":
            v, label = self.expr(node.operand)
            t = self.temp()
            self.emit(f"{t} = not {v}")
            return t, label
        if type(node.operand) is ast.Num and type(node.operand.value) in (int, float):
            return Generator.e_Unary(self, node), "EMPTY"
        if node.op != "-":
            return None
        v, label = self.expr(node.operand)   # negation labels its answer with the operand's label
        t = self.temp()
        self.emit(f"if {v}.__class__ is int or {v}.__class__ is float:")
        self.emit(f"    {t} = -{v}")
        self.emit("else:")
        self.indent += 1
        self.emit(f"{t} = {self.value(_slow_negate(node.span))}({self.boxed(v, label)})")
        self.emit(f"if {t}.__class__ is Labeled:")
        self.emit(f"    {t} = {t}.value")
        self.indent -= 1
        return t, label

    def e_Binary(self, node):
        """Every operator of runtime.operators answers labelled operands with the operation on
        their values, labelled with the union of their labels (`_labelled`), so the label is that
        union whichever case runs: the int (or text) case inline, else the general operator on the
        boxes (its error made secret by them), its answer unboxed."""
        op = node.op
        general = self.value(_slow_binary(ops.BINARY[op], node.span, f"`{op}`"))
        a, al = self.expr(node.left)
        b, bl = self.expr(node.right)
        if al == "EMPTY" or al == bl:
            m = bl
        elif bl == "EMPTY":
            m = al
        else:
            m = self.label_temp()
            self.join(al, bl, m)
        t = self.temp()
        test = self.fast_test(op, node.left, node.right, a, b)
        if test is not None:
            self.emit(f"if {test}:")
            self.emit(f"    {t} = {a} {op} {b}")
            if op == "*":
                self.emit(f"    if not _INT_LOW < {t} < _INT_HIGH:")
                checked = f"checked_product({t}, {self.value(node.span)})"
                if m == "EMPTY":
                    self.emit(f"        {t} = {checked}")
                else:   # labelled operands: the general operator's error, made secret
                    self.indent += 2
                    wa, wb = self.boxed(a, al), self.boxed(b, bl)
                    self.emit(f"{t} = {general}({wa}, {wb}) if {m} else {checked}")
                    self.indent -= 2
            self.emit("else:")
            self.indent += 1
        self.emit(f"{t} = {general}({self.boxed(a, al)}, {self.boxed(b, bl)})")
        if m != "EMPTY":
            self.emit(f"if {t}.__class__ is Labeled:")
            self.emit(f"    {t} = {t}.value")
        if test is not None:
            self.indent -= 1
        return t, m

    @staticmethod
    def fast_test(op, left, right, a, b) -> str | None:
        """When `a op b` on the values is what runtime.operators computes (Generator.operator's
        inline cases): ints, or two texts for `+` with a text literal, or one kind for `==`."""
        if op == "+" and (type(left) is ast.Str or type(right) is ast.Str):
            other = b if type(left) is ast.Str else a
            return f"{other}.__class__ is str and len({a}) + len({b}) <= MAX_TEXT_LENGTH"
        if op == "==" or op == "!=":
            return f"{a}.__class__ is {b}.__class__ and ({a}.__class__ is int or {a}.__class__ is str)"
        if op not in _INT_OPS:
            return None
        constant = type(right) is ast.Num and type(right.value) is int
        test = f"{a}.__class__ is int" if constant else f"{a}.__class__ is {b}.__class__ is int"
        return test + f" and {b}" if op in ("%", "//") else test

    def comparison_head(self, node):
        """A comparison's operands written, its answer's temporaries, and the `if` of its int (or
        one-kind `==`) case, whose body the caller writes: (op, general comparison, (a, label),
        (b, label), answer, answer's label)."""
        op = node.ops[0]
        general = self.value(_slow_binary(labelled_comparison(op), node.span, f"`{op}`"))
        a, al = self.expr(node.first)
        b, bl = self.expr(node.rest[0])
        t, m = self.temp(), self.label_temp()
        self.emit(f"if {self.fast_test(op, node.first, node.rest[0], a, b)}:")
        return op, general, (a, al), (b, bl), t, m

    def e_Compare(self, node):
        """One comparison: the int (or one-kind `==`) case on the values, labelled with both
        labels; else `labelled_comparison` on the boxes, whose answer carries every label inside
        them too (it strips the operands all through), unboxed."""
        op, general, (a, al), (b, bl), t, m = self.comparison_head(node)
        self.emit(f"    {t} = {a} {op} {b}")
        self.indent += 1
        self.join(al, bl, m)
        self.indent -= 1
        self.emit("else:")
        self.indent += 1
        self.emit(f"{t} = {general}({self.boxed(a, al)}, {self.boxed(b, bl)})")
        self.unbox_into(t, m)
        if self.inner_condition:   # settled_loop's condition: a private answer goes back to labels
            self.emit(f"if {m}:")
            self.emit("    break")
        self.indent -= 1
        return t, m

    def e_ListLit(self, node):
        items = [self.boxed(*self.expr(item)) for item in node.items]
        t = self.temp()
        self.emit(f"{t} = [{', '.join(items)}]")
        return t, "EMPTY"

    def e_MapLit(self, node):
        """Text keys only (`writable`): public, so the map is; each value as it is, boxed."""
        entries = []
        for k, v in node.entries:
            key = self.expr(k)[0]
            entries.append((key, self.boxed(*self.expr(v))))
        t = self.temp()
        self.emit(f"{t} = {{}}")
        for key, v in entries:
            self.emit(f"{t}[{key}] = {v}")
        return t, "EMPTY"

    def e_Call(self, node):
        """LabelCompiler.e_Call: a builtin while nothing is private is `public_builtin` written out
        (the known builtin's call inline, what its callbacks returned labelling its answer or its
        error), every other call the LabelCompiler's `general_call` on the boxes."""
        if node.named or type(node.func) is ast.Attr or assertions.is_check(node, self.scope):
            return None
        if self.known_builtin(node.func, len(node.args)) is not None:
            fn = box = self.global_value(node.func)   # a builtin is never boxed: no box to open
        else:
            fn, fnl = self.expr(node.func)
            box = self.boxed(fn, fnl)
        args = [self.expr(a) for a in node.args]
        t, m = self.temp(), self.label_temp()
        span = self.value(node.span)
        self.emit(f"if {fn}.__class__ is Builtin and not st.touched:")   # so every label is EMPTY
        self.indent += 1
        public_builtin_call(self, node, fn, t, [v for v, _ in args], span, m, inline=True)
        self.emit(f"if {t}.__class__ is Labeled:")   # (`private` itself makes the first private value)
        self.emit(f"    {m} = {t}.labels if not {m} or {m} <= {t}.labels else {t}.labels | {m}")
        self.emit(f"    {t} = {t}.value")
        self.indent -= 1
        self.emit("else:")
        self.indent += 1
        boxes = ", ".join(self.boxed(v, label) for v, label in args)
        self.emit(f"{t} = {self.value(self.c.general_call(node.span))}(None, {box}, [{boxes}], ())")
        self.unbox_into(t, m)
        self.indent -= 1
        return t, m


class PlainLoop(Generator):
    """A `while` of a split body as runtime.codegen writes it without labels, on the body's value
    locals (`x<slot>`), for a loop entered while nothing is private (SplitGenerator.s_While).

    While the run has no private value, every label local is EMPTY and so is the pc, and every
    operator, comparison, name, literal and store computes what its labelled form computes, error
    included (a secret error is one made secret by a non-empty label). What could make the run's
    first private value is a call, so the loop may call only builtins of _PURE_BUILTINS (no
    callback, no effect, no private answer), each named by a global that is not one of the body's
    variables, and nothing in the loop can rebind a global: so the test at the loop's entry, that
    nothing is private and each of those globals still holds its builtin, holds for the whole
    loop, and the labelled copy is never needed once it passes. No `give`, no nested loop, no
    in-place append or slice (their own paths call what the global holds, rebound or not)."""

    def __init__(self, split: SplitGenerator):
        super().__init__(split.c, split.task_body, direct=True)
        self.split = split
        self.values, self.value_names, self.name_reads = split.values, split.value_names, split.name_reads
        self.constants, self.names = split.constants, split.names
        self.frames = [("x", split.scope)]
        self.local_frames = {"x"}
        self.bound = set(split.bound)
        self.temps = split.temps
        self.indent = split.indent + 2   # under the loop's `try:` and `if <entry test>:`
        self.callees: dict = {}          # global name -> the builtin it must still hold

    def write(self, node) -> tuple[str, list] | None:
        """(the entry test, the loop's lines), or None when the loop holds anything else."""
        try:
            Generator.s_While(self, node, False)
        except _GiveUp:
            return None
        self.split.temps = self.temps   # the plain copy's temporaries are not the labelled one's
        tests = ["not st.touched"] + [f"g.get({self.key(name)}) is {self.value(fn)}"
                                      for name, fn in sorted(self.callees.items())]
        return " and ".join(tests), self.lines

    def statement(self, node, tail: bool) -> None:
        name = type(node).__name__
        if name not in ("ExprStmt", "Let", "Set", "Stop") or not getattr(self, "s_" + name)(node, tail):
            raise _GiveUp()
        self.end_statement()

    def s_Let(self, node, tail):
        """SplitGenerator.s_Let under a public pc: the value, then the local bound."""
        if node.exported or node.name in PROTECTED_NAMES or self.scope.is_global:
            raise _GiveUp()
        mark = len(self.lines)
        v = self.expr(node.value)
        where = self.location(0, self.scope.declare(node.name))
        self.store(where, v, mark)
        self.bound.add(where)
        return True

    def s_Set(self, node, tail):
        """SplitGenerator.s_Set / set_key under a public pc, on the body's own bound variable."""
        target = node.target
        name = target.obj.name if type(target) is ast.Index else target.name
        candidates = self.scope.resolve(name)
        if (not candidates or candidates != [(0, candidates[0][1])]
                or not (candidates[0][1] <= self.scope.params or self.location(0, candidates[0][1]) in self.bound)
                or (type(target) is ast.Name and _append_call(node, name))
                or self.c._shrink_pattern(node, name, self.scope) is not None):
            raise _GiveUp()
        return Generator.s_Set(self, node, tail)

    def expr(self, node) -> str:
        if type(node).__name__ not in _EXPRESSIONS:
            raise _GiveUp()
        return super().expr(node)

    def fallback_expr(self, node) -> str:
        raise _GiveUp()

    def fallback_statement(self, node, tail: bool) -> None:
        raise _GiveUp()

    def e_Name(self, node):
        """The body's own variable or a global (a split body reads no enclosing frame)."""
        candidates = self.scope.resolve(node.name)
        if candidates and candidates != [(0, candidates[0][1])]:
            raise _GiveUp()
        return super().e_Name(node)

    def e_Call(self, node):
        """A builtin of _PURE_BUILTINS named by a global the entry test checks: its call written
        out (Generator.builtin_call) without testing the callee again."""
        if node.named or type(node.func) is not ast.Name or assertions.is_check(node, self.scope) \
                or self.scope.resolve(node.func.name):
            raise _GiveUp()
        known = self.known_builtin(node.func, len(node.args))
        if known is None or known.spec.name not in _PURE_BUILTINS:
            raise _GiveUp()
        self.callees[node.func.name] = known
        args = [self.atom(a, node.args[i + 1:]) for i, a in enumerate(node.args)]
        t = self.temp()
        span = self.value(node.span)
        self.emit("try:")
        at = len(self.lines)
        self.builtin_call(known, "CALLEE", t, ", ".join(args), span, args)
        test = self.lines[at]
        if not test.endswith(f"if CALLEE is {self.value(known)}:"):
            raise _GiveUp()
        self.lines[at] = test[:test.index("if ")] + "if True:"   # the entry test holds for the whole loop
        self.emit("except SynError as error:")
        self.emit(f"    raise error.at({span})")
        return t
