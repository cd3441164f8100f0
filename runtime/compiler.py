"""Compile the syntax tree once into Python closures, then run those.

Each expression becomes `fn(frame) -> value`; each statement `fn(frame) -> value | GIVE | STOP`
(its value is what a task returns when its body ends without `give`). Names are resolved to
frame slots here, in the scopes `lang.resolve` builds, so running a program never looks a local
up by name. A `give` in tail position compiles to a plain value; others store their value in
`REG` and return the GIVE sentinel, so returning never raises. The int∘int cases of the arithmetic and
comparison operators are inlined; everything else defers to `runtime.operators`.
"""

from __future__ import annotations

import sys
from decimal import Decimal

from synsema.lang import ast
from synsema.lang.checks import PROTECTED_NAMES, protected_binding
from synsema.lang.errors import SynError
from synsema.lang.gcpause import collector_paused
from synsema.lang.resolve import Scope, arm_scope, block_scope, task_scope
from synsema.runtime.calls import (GIVE, host_failure, RECURSION_LIMIT, REG, STEPS, STOP, TaskCode, call_builtin, call_value,
                           invoke, invoke1)
from synsema.runtime.control import StopLoop
from synsema.runtime.labels import unwrap as unwrap_label
from synsema.runtime.limits import check_decimal, check_int, joined
from synsema.runtime.scope import UNBOUND
from synsema.runtime.values import (CALLABLE_TYPES, Builtin, Constructor, EnumValue, ModuleValue, Param, Task, display,
                            equal, map_key, compare, type_name)

_refcount = sys.getrefcount

# runtime.operators, runtime.fastpaths, runtime.assertions, lang.hints and lang.toolschema are
# imported by the methods that compile an operator, an index, a local store, an assert call or a
# typed parameter, or that word an error: a program without them (hello world) never compiles
# their source when there is no bytecode cache (issue 31).

# A second `intent:`: the purpose is fixed once the program runs, so injected code cannot widen it.
INTENT_FROZEN = ("Cannot declare a new intent after execution has started: intent is frozen, so text "
                 "that reaches the program later cannot widen its mandate; a program declares it once, at the top")


# What `each` can walk, for the error when it is given something else.
ITERATE_HINT = "each walks a list, a map's keys or a text; to count, write each i in range(n)"


def undefined(name: str, scope: Scope | None = None, globals_=()) -> SynError:
    """The error for reading an unbound name: a tier-C builtin's refusal, or the hint of
    `lang.hints.undefined_name` (the Synsema name of a Python habit, else a near name in scope:
    `scope`'s frames, then the globals and builtins, never a tier-C builtin)."""
    from synsema.lang import hints   # words errors only: loaded by the first (start-up without .pyc)
    from synsema.stdlib.unsupported import tier_c_family, unsupported_error
    family = tier_c_family(name)
    if family is not None:
        return unsupported_error(name, family)
    near = [*(scope.visible() if scope else ()), *_user_first(globals_)]
    suffix, hint, _ = hints.undefined_name(name, None, near, _unsupported(globals_))
    return SynError(f"Undefined variable: '{name}'{suffix}", code="undefined-name", hint=hint)


def _unsupported(globals_) -> set[str]:
    """The tier-C builtins among the globals: never offered as a fix."""
    if type(globals_) is not dict:
        return set()
    return {n for n, v in globals_.items() if type(v) is Builtin and v.spec.unsupported}


def _user_first(globals_) -> list[str]:
    """Global names, the program's own before the builtins: a typo is likelier to be of a name
    the program defined."""
    names = list(globals_)
    if type(globals_) is dict:
        names.sort(key=lambda n: type(globals_[n]) is Builtin)
    return names


def no_methods(name: str, span, target=None) -> SynError:
    """`xs.append(1)` and the like: Synsema has functions, not methods (`target`: the receiver
    node, named in the message when it is a plain name)."""
    from synsema.lang import hints
    message, _ = hints.no_methods(name, target.name if type(target) is ast.Name else None)
    return SynError(message, span)


def _not_declared(name: str, span) -> SynError:
    return SynError(f"Cannot set undefined variable: '{name}'. Use 'let' first.", span)


def _foldable(part, scope: Scope) -> bool:
    """Whether a `match` arm (or its `otherwise` statements) may run in the enclosing frame: not
    at the top level (whose names are the globals), and creating no task or lambda that could
    keep the arm's frame alive after it ends."""
    if scope.is_global:
        return False
    for node in ast.walk(ast.Module("", part) if type(part) is list else part):
        if type(node) is ast.Lambda or type(node) is ast.TaskDef:
            return False
    return True


# Expressions whose value is always a bool (without labels): what `and`/`or` need not convert.
_BOOLEAN_NODES = (ast.And, ast.Or, ast.Bool)
_ORDERING = ("==", "!=", "<", "<=", ">", ">=")


def _append_call(node, name: str) -> bool:
    """Whether the `set` statement `node` is `set name to append(name, item)`, the statement
    Compiler._append_pattern (and codegen's in-place append) runs in place."""
    call = node.value
    return (type(call) is ast.Call and type(call.func) is ast.Name and call.func.name == "append"
            and not call.named and len(call.args) == 2 and type(call.args[0]) is ast.Name
            and call.args[0].name == name)


def _int_literal(node):
    """The value of an integer literal, negative ones included (`-1`), else None."""
    if type(node) is ast.Unary and node.op == "-":
        inner = _int_literal(node.operand)
        return None if inner is None else -inner
    if type(node) is ast.Num and type(node.value) is int:
        return node.value
    return None


def _walk(frame, depth: int):
    for _ in range(depth):
        frame = frame[0]
    return frame


def _own(holder, key):
    """The container at `holder[key]`, copied first if anyone else can see it.

    Lists and maps are values; changing one in place is allowed only when no other variable,
    container or closure can observe it. CPython's reference count answers that exactly: every
    other holder adds a reference, so a count of 3 here (`holder`'s slot, the local `c`, and the
    argument of getrefcount) proves the container is private. The test is conservative: an
    unknown extra reference (a temporary, the last statement's value) only costs a copy.
    """
    c = holder[key]
    if _refcount(c) > 3:
        t = type(c)
        if t is list or t is dict:
            c = c.copy()
            holder[key] = c
    return c


def _assertions():
    """runtime.assertions, imported at the first call whose name could be an assert builtin's
    (each begins with `assert`): a program without one never compiles the module."""
    from synsema.runtime import assertions
    return assertions


def _generated(compiler, kind: str, node, scope):
    """runtime.codegen.generate, imported at the first body: a program with no task, lambda or
    loop (hello world) never loads the generator."""
    from synsema.runtime import codegen
    return codegen.generate(compiler, kind, node, scope)


class Compiler:
    """Turns one module's statements into closures over its global dictionary and runtime."""

    # Whether a `let` or `set` of a local may write its frame slot directly, value as it is
    # (the labels compiler's stores label the value and check the pc: it says no).
    plain_slots = True
    # Whether task bodies, lambda bodies and loops become generated functions (runtime.codegen),
    # and how a generated body calls a task: directly (`generated_calls`), or as a public body
    # of the labels compiler calls one (`generated_public_calls`, label_compiler.PublicCompiler).
    generates = True
    generated_calls = True
    generated_public_calls = False

    def __init__(self, rt, globals_: dict, file: str, is_module: bool = False):
        self.rt = rt
        self.globals = globals_
        self.file = file
        self.is_module = is_module
        self.loops = 0          # loops enclosing the code being compiled, within its task
        self.in_sandbox = 0
        self.watch = None       # while an assert call compiles: wraps closures to record values
        self._statements = {}   # node class → the bound method compiling it (see _method)
        self._expressions = {}

    # ------------------------------------------------------------------ programs
    def program(self, body: list, tests: list | None):
        """The module body as one closure run with frame None; test blocks go to `tests`.

        The cyclic collector is held off meanwhile: compiling builds closures and cells that
        live as long as the program and makes no garbage cycles, and for a big script the
        collections that walked them again were two thirds of the compile time."""
        self.tests = tests
        self.exported = [stmt.name for stmt in body if getattr(stmt, "exported", False)]
        scope = Scope(None, "global")
        self._check_intent_position(body)
        with collector_paused():
            return self.block(body, scope, False)

    def _check_intent_position(self, body: list) -> None:
        seen_other = seen_intent = False
        for stmt in body:
            if type(stmt) is ast.Intent:
                if self.is_module:
                    raise SynError("a module does not declare intent: only the main program does",
                                   stmt.span)
                if seen_intent:
                    raise SynError(INTENT_FROZEN, stmt.span)
                seen_intent = True
                if seen_other:
                    raise SynError("intent: must come at the top of the program, before other statements",
                                   stmt.span)
            else:
                seen_other = True

    # ------------------------------------------------------------------ blocks
    def block(self, stmts: list, scope: Scope, tail: bool):
        if tail:
            stmts = _early_returns_as_branches(stmts)
        compiled = [self.stmt(s, scope, tail and i == len(stmts) - 1) for i, s in enumerate(stmts)]
        compiled = [c for c in compiled if c is not None]
        if not compiled:
            return lambda f: None
        if len(compiled) == 1:
            return compiled[0]
        if len(compiled) == 2:
            first, second = compiled

            def run2(f):
                r = first(f)
                if r is GIVE or r is STOP:
                    return r
                r = None  # hold no value while the next statement runs (see _own)
                return second(f)
            return run2
        from synsema.runtime import fastpaths
        return fastpaths.sequence(compiled, GIVE, STOP)

    def frame_block(self, stmts: list, scope: Scope, tail: bool, preset: list[str] = ()):
        """A block that opens its own frame: returns (body, template) where the frame is
        `[parent, *preset values, *template]`."""
        inner = block_scope(scope, stmts, preset)
        body = self.block(stmts, inner, tail)
        return body, [UNBOUND] * (inner.size - 1 - len(preset))

    # ------------------------------------------------------------------ statements
    def stmt(self, node, scope: Scope, tail: bool):
        method = self._statements.get(node.__class__)
        if method is None:
            method = self._method(self._statements, "s_", node)
        return method(node, scope, tail)

    def _method(self, table: dict, prefix: str, node):
        """This compiler's `s_…`/`e_…` method for the node's class, looked up by name once per
        class and kept in `table`: its class's own, else runtime.compiler_more's function of that
        name (a subclass overrides either kind by defining the method)."""
        name = prefix + type(node).__name__
        method = getattr(self, name, None)
        if method is None:
            from synsema.runtime import compiler_more   # the constructs hello world does not use
            function = getattr(compiler_more, name, None)
            if function is None:
                raise SynError(f"'{type(node).__name__}' is not supported by this implementation", node.span)
            method = function.__get__(self)   # bound to this compiler, as a method of its class would be
        table[node.__class__] = method
        return method

    def s_ExprStmt(self, node, scope, tail):
        return self.expr(node.expr, scope)

    def s_Let(self, node, scope, tail):
        local = self.plain_slots and not scope.is_global and not node.exported
        if local and node.name not in PROTECTED_NAMES:
            from synsema.runtime import fastpaths
            fused = self.stored(node.value, scope, fastpaths.Store(scope.declare(node.name)))
            if fused is not None:
                return fused
        value = self.protected(node.name, self.expr(node.value, scope), node.span)
        if node.exported and not scope.is_global:
            raise SynError("export is only allowed at the top level of a module", node.span)
        if local:  # the slot is written here; `binder`'s store would do nothing more
            slot = scope.declare(node.name)

            def let_local(f):
                v = f[slot] = value(f)
                return v
            return let_local
        store = self.binder(node.name, scope, node.span)

        def run(f):
            v = value(f)
            store(f, v)
            return v
        return run

    def stored(self, node, scope: Scope, store):
        """The expression `node` and the write of its value into a frame slot (`store`) as one
        generated closure, for the operators and indexing runtime.fastpaths writes out; None for
        anything else."""
        if not self.plain_slots or self.watch is not None:
            return None
        from synsema.runtime import fastpaths
        t = type(node)
        if (t is ast.Index or (t is ast.Binary and fastpaths.has_fast_path(node.op))
                or (t is ast.Compare and len(node.ops) == 1 and fastpaths.has_fast_path(node.ops[0]))):
            method = self._expressions.get(t) or self._method(self._expressions, "e_", node)
            return method(node, scope, store)
        return None

    def binder(self, name: str, scope: Scope, span=None):
        """A function storing a value under `name` in the scope's own frame (a `let`); `span`
        locates what the labels compiler may refuse there."""
        if scope.is_global:
            g = self.globals
            name = sys.intern(name)   # generated code looks it up by the interned key (codegen.Generator.key)

            def store_global(f, v):
                g[name] = v
            return store_global
        slot = scope.declare(name)

        def store_slot(f, v):
            f[slot] = v
        return store_slot

    def locator(self, name: str, scope: Scope, span):
        """A function finding where `name` is currently bound: (holder, key) for item access."""
        candidates = scope.resolve(name)
        g = self.globals
        if len(candidates) == 1 and candidates[0][0] <= 1:
            depth, slot = candidates[0]
            slow = self.locator_general(name, candidates, span)
            if depth == 0:
                return lambda f: (f, slot) if f[slot] is not UNBOUND else slow(f)

            def locate_outer(f):
                frame = f[0]
                return (frame, slot) if frame[slot] is not UNBOUND else slow(f)
            return locate_outer
        if not candidates:
            def locate_global(f):
                if name in g:
                    return g, name
                raise _not_declared(name, span)
            return locate_global
        return self.locator_general(name, candidates, span)

    def locator_general(self, name: str, candidates, span):
        g = self.globals

        def locate(f):
            for depth, slot in candidates:
                frame = _walk(f, depth)
                if frame[slot] is not UNBOUND:
                    return frame, slot
            if name in g:
                return g, name
            raise _not_declared(name, span)
        return locate

    def s_Set(self, node, scope, tail):
        target = node.target
        if type(target) is ast.Name:
            return self._set_name(target.name, scope, node)
        value = self.expr(node.value, scope)
        path = []
        while type(target) in (ast.Attr, ast.Index):
            if type(target) is ast.Attr:
                path.append((True, target.name))
            else:
                path.append((False, self.expr(target.index, scope)))
            target = target.obj
        if type(target) is not ast.Name:
            raise SynError("Invalid set target: it must start from a variable — "
                           "set x to …, set m[\"k\"] to …, set p.field to …", node.span)
        path.reverse()
        locate = self.locator(target.name, scope, node.span)
        span = node.span
        if len(path) == 1 and not path[0][0]:
            key_of = path[0][1]
            keyed_append = self._keyed_append(node, target.name, locate, key_of, scope)
            if keyed_append is not None:
                return keyed_append

            def set_key(f):
                """`set m[k] to v` on an unshared map: the word-count path."""
                v = value(f)
                k = key_of(f)
                holder, key = locate(f)
                c = holder[key]
                if c.__class__ is dict and k.__class__ is str and _refcount(c) <= 3:
                    c[k] = v
                    return v
                c = None
                try:
                    _store(holder, key, k, v)
                except SynError as e:
                    raise e.at(span)
                return v
            return set_key

        def run(f):
            v = value(f)
            keys = [k if is_attr else k(f) for is_attr, k in path]
            holder, key = locate(f)
            try:
                for k in keys[:-1]:
                    holder, key = _step_into(holder, key, k)
                _store(holder, key, keys[-1], v)
            except SynError as e:
                raise e.at(span)
            return v
        return run

    def protected(self, name: str, value, span):
        """`value`, refused when it is callable and `name` is protected (`let print be f()`):
        the load-time check sees only lambda literals, this one sees what was computed."""
        if name not in PROTECTED_NAMES:
            return value

        def checked(f):
            v = value(f)
            if isinstance(unwrap_label(v)[0], CALLABLE_TYPES):
                raise SynError(protected_binding(name), span)
            return v
        return checked

    def _set_name(self, name, scope, node):
        """`set name to …`; the value is compiled here, once, in the form the target needs."""
        candidates = scope.resolve(name)
        g = self.globals
        span = node.span
        append_fast = self._append_pattern(node, name, scope)
        if len(candidates) == 1 and candidates[0][0] == 0:
            slot = candidates[0][1]
            if append_fast is not None:
                return append_fast(slot)

            def _set_outer(f, v):
                if name in g:
                    g[name] = v
                else:
                    raise _not_declared(name, span)
            if name not in PROTECTED_NAMES:
                from synsema.runtime import fastpaths
                fused = self.stored(node.value, scope, fastpaths.Store(slot, _set_outer))
                if fused is not None:
                    return fused
            value = self.protected(name, self.expr(node.value, scope), span)

            def run_local(f):
                v = value(f)
                if f[slot] is UNBOUND:
                    _set_outer(f, v)
                else:
                    f[slot] = v
                return v
            shrink = self._shrink_pattern(node, name, scope)
            return run_local if shrink is None else shrink(slot, run_local)
        if append_fast is None:
            value = self.protected(name, self.expr(node.value, scope), span)
        if not candidates and append_fast is None:
            def run_global(f):
                v = value(f)
                if name in g:
                    g[name] = v
                    return v
                raise _not_declared(name, span)
            return run_global
        locate = self.locator(name, scope, span)
        if append_fast is not None:
            return append_fast(None, locate)

        def run(f):
            v = value(f)
            holder, key = locate(f)
            holder[key] = v
            return v
        return run

    def _append_pattern(self, node, name, scope):
        """`set xs to append(xs, item)`: append in place when nobody else sees the list.

        The language's order holds: `xs` is read before `item` runs, so an `item` that itself
        sets `xs` (or appends to it) does not change which list is extended. Holding that list
        in `xs` while `item` runs also keeps it visibly shared to any in-place change `item`
        would make, so such a change copies instead of writing into it.
        """
        if not _append_call(node, name):
            return None
        call = node.value
        item = self.expr(call.args[1], scope)
        fn = self.expr(call.func, scope)
        general = self.expr(call, scope)
        builtin_append = self.globals.get("append")
        g = self.globals
        # the callee read as a dictionary lookup when it is the global builtin (otherwise `fn`)
        callee = self._global_name(call.func, scope) if type(builtin_append) is Builtin else None

        def make(slot, locate=None):
            """For a local of this frame (`slot`), or wherever `locate` finds the variable."""
            if locate is None:
                def run(f):
                    xs = f[slot]
                    if xs.__class__ is list and (g.get(callee) if callee else fn(f)) is builtin_append:
                        v = item(f)
                        if f[slot] is not xs:
                            xs = xs + [v]   # `item` re-bound the variable: extend the list read
                        elif _refcount(xs) > 3:
                            xs = xs.copy()
                            xs.append(v)
                        else:
                            xs.append(v)
                        f[slot] = xs
                        return xs
                    xs = None
                    v = general(f)
                    f[slot] = v
                    return v
                return run

            def run_located(f):
                if fn(f) is builtin_append:
                    holder, key = locate(f)
                    xs = holder[key]
                    if xs.__class__ is list:
                        v = item(f)
                        if holder[key] is not xs:
                            xs = xs + [v]
                        elif _refcount(xs) > 3:
                            xs = xs.copy()
                            xs.append(v)
                        else:
                            xs.append(v)
                        holder[key] = xs
                        return xs
                    xs = None
                v = general(f)
                holder, key = locate(f)
                holder[key] = v
                return v
            return run_located
        return make

    def _shrink_pattern(self, node, name, scope):
        """`set xs to slice(xs, i, j)` (or `slice(xs, i)`) with integer literals, `i` ≥ 0 —
        popping a stack, dropping a head: cut a local list in place when nobody else sees it.

        `del xs[j:]` then `del xs[:i]` leaves exactly `xs[i:j]` for any `j` and any `i` ≥ 0
        (Python's clamping is the builtin's). Whenever the variable does not hold a list, the
        global `slice` is not the builtin, or the list is shared (`_own`'s refcount test), the
        general statement `general` runs instead, with its errors."""
        call = node.value
        if not (type(call) is ast.Call and type(call.func) is ast.Name and call.func.name == "slice"
                and not call.named and len(call.args) in (2, 3) and type(call.args[0]) is ast.Name
                and call.args[0].name == name and self._global_name(call.func, scope) is not None):
            return None
        start = _int_literal(call.args[1])
        end = _int_literal(call.args[2]) if len(call.args) == 3 else None
        builtin_slice = self.globals.get("slice")
        if (start is None or start < 0 or (len(call.args) == 3 and end is None)
                or type(builtin_slice) is not Builtin or builtin_slice.spec.name != "slice"):
            return None
        g = self.globals

        def make(slot, general):
            def shrink(f):
                xs = f[slot]
                if xs.__class__ is list and g.get("slice") is builtin_slice and _refcount(xs) <= 3:
                    if end is not None:
                        del xs[end:]
                    if start:
                        del xs[:start]
                    return xs
                xs = None
                return general(f)
            return shrink
        return make

    def _keyed_append(self, node, name, locate, key_of, scope):
        """`set m[k] to append(m[k], item)`, the grouping idiom: append in place to a list held
        by an unshared map, so building groups stays linear.

        Only for a key that is a name or a literal (reading it twice has no effect). The order
        of the general path holds: `m[k]` is read before `item` runs, the target key is read
        after it; if `item` changed the variable, the map or the key, the list read is
        extended into a new one and stored by the general route.
        """
        call = node.value
        key = node.target.index
        if not (type(call) is ast.Call and type(call.func) is ast.Name and call.func.name == "append"
                and not call.named and len(call.args) == 2 and type(call.args[0]) is ast.Index
                and type(call.args[0].obj) is ast.Name and call.args[0].obj.name == name
                and type(key) in (ast.Name, ast.Str, ast.Num) and call.args[0].index == key):
            return None
        item = self.expr(call.args[1], scope)
        fn = self.expr(call.func, scope)
        general = self.expr(call, scope)
        builtin_append = self.globals.get("append")
        span = node.span

        def run(f):
            v = UNBOUND
            if fn(f) is builtin_append:
                holder, slot = locate(f)
                c = holder[slot]
                k = key_of(f)
                if c.__class__ is dict and k.__class__ is str:
                    xs = c.get(k)
                    if xs.__class__ is list:
                        v = item(f)
                        if (holder[slot] is c and key_of(f) is k and c.get(k) is xs
                                and _refcount(c) <= 3 and _refcount(xs) <= 3):
                            xs.append(v)
                            return xs
                        v = xs + [v]
                xs = c = holder = None
            if v is UNBOUND:
                v = general(f)
            k = key_of(f)
            holder, slot = locate(f)
            try:
                _store(holder, slot, k, v)
            except SynError as e:
                raise e.at(span)
            return v
        return run

    def s_Give(self, node, scope, tail):
        if not scope.in_task() and not self._in_test(scope):
            from synsema.lang import hints
            raise SynError(hints.TOP_LEVEL_GIVE, node.span, hint=hints.TOP_LEVEL_GIVE_HINT)
        value = self.expr(node.value, scope) if node.value is not None else (lambda f: None)
        if tail:
            return value
        reg = REG

        def run(f):
            reg.value = value(f)
            return GIVE
        return run

    def _in_test(self, scope: Scope) -> bool:
        while scope is not None:
            if scope.kind == "test":
                return True
            scope = scope.parent
        return False

    def s_When(self, node, scope, tail):
        branches = [(self.expr(c, scope), self.block(b, scope, tail)) for c, b in node.branches]
        otherwise = self.block(node.otherwise, scope, tail) if node.otherwise is not None else None
        if len(branches) == 1:
            cond, body = branches[0]
            if otherwise is None:
                def when1(f):
                    if cond(f):
                        return body(f)
                    return None
                return when1

            def when2(f):
                if cond(f):
                    return body(f)
                return otherwise(f)
            return when2
        branches = tuple(branches)

        def run(f):
            for cond, body in branches:
                if cond(f):
                    return body(f)
            if otherwise is not None:
                return otherwise(f)
            return None
        return run

    def s_While(self, node, scope, tail):
        generated = _generated(self, "loop", node, scope)
        if generated is not None:
            return generated
        cond = self.expr(node.cond, scope)
        self.loops += 1
        body = self.block(node.body, scope, False)
        self.loops -= 1
        forever = type(node.cond) is ast.Bool and node.cond.value is True  # `while true`: no test to run

        def run(f):
            while forever or cond(f):
                try:
                    r = body(f)
                except StopLoop:
                    break
                if r is STOP:
                    break
                if r is GIVE:
                    return r
                r = None
            return None
        return run

    def lazy_iterable(self, node, scope):
        """`range(…)` as an `each` iterable walks its numbers without building the list."""
        iterable = self.expr(node, scope)
        if not (type(node) is ast.Call and type(node.func) is ast.Name and node.func.name == "range"
                and not node.named and 1 <= len(node.args) <= 3):
            return iterable
        from synsema.stdlib.collections import range_numbers
        func = self.expr(node.func, scope)
        bounds = [self.expr(a, scope) for a in node.args]
        span = node.span

        def run(f):
            fn = func(f)
            if type(fn) is not Builtin or fn.spec.name != "range":
                return iterable(f)  # `range` was rebound: an ordinary call
            if REG.depth >= RECURSION_LIMIT:  # the call of `range` it stands for takes a level
                raise SynError("maximum recursion depth exceeded").at(span)
            try:
                return self.numbers(range_numbers, [b(f) for b in bounds])
            except SynError as e:
                raise e.at(span)
        return run

    @staticmethod
    def numbers(range_numbers, bounds: list):
        """The lazy numbers of `each i in range(…)` (the labels compiler labels them)."""
        return range_numbers(*bounds)

    def s_Each(self, node, scope, tail):
        generated = _generated(self, "loop", node, scope)
        if generated is not None:
            return generated
        iterable = self.lazy_iterable(node.iterable, scope)
        self.loops += 1
        body, template = self.frame_block(node.body, scope, False, preset=[node.var])
        self.loops -= 1
        span = node.iterable.span

        def run(f):
            coll = iterable(f)
            t = type(coll)
            if t is dict:
                coll = list(coll)
            elif t is not list and t is not range and t is not str and t is not bytes:
                raise SynError(f"Cannot iterate over {type_name(coll)}", span, hint=ITERATE_HINT)
            for item in coll:
                frame = [f, item, *template] if template else [f, item]
                try:
                    r = body(frame)
                except StopLoop:
                    break
                if r is STOP:
                    break
                if r is GIVE:
                    return r
                r = frame = None
            return None
        return run

    def s_Stop(self, node, scope, tail):
        value = self.expr(node.value, scope) if node.value is not None else None
        span = node.span
        if self.loops == 0 and not scope.in_task():
            def outside(f):
                if value is not None:
                    value(f)
                raise SynError("stop used outside a loop", span)
            return outside
        reg = REG

        def run(f):
            if value is not None:
                value(f)
            reg.stop_span = span
            return STOP
        return run

    def decider(self, node, scope):
        """An expression whose value decides which arm of a `match` runs: its subject, a value a
        pattern compares with, a guard. (The labels compiler lets a private one raise the pc.)"""
        return self.expr(node, scope)

    def s_Match(self, node, scope, tail):
        """The statement is one generated function (runtime.patterns.Dispatcher). An arm whose
        frame nothing can capture (no lambda or task inside it) is folded into the enclosing
        frame: its test is written into that function, no frame is built per arm, and the
        enclosing names are read at depth 0."""
        from synsema.runtime.patterns import Dispatcher, compile_test   # loaded by the first `match`
        match = Dispatcher(self.decider(node.subject, scope))
        for arm in node.arms:
            folded = _foldable(arm, scope)
            inner = arm_scope(scope, arm, shared=folded)
            guard = self.decider(arm.guard, inner) if arm.guard is not None else None
            if folded:
                match.folded_test(arm.pattern, guard, inner, self, tuple(inner.slots.values()))
                match.folded_body(self.block(arm.body, inner, tail), tuple(inner.slots.values()))
                continue
            template = [UNBOUND] * (inner.size - 1)
            test = compile_test(arm.pattern, guard, inner, self, template)
            body = self.block(arm.body, inner, tail)
            template.extend([UNBOUND] * (inner.size - 1 - len(template)))  # the body's names join it
            match.framed(test, body)
        otherwise = None
        if node.otherwise is not None:
            if _foldable(node.otherwise, scope):
                inner = block_scope(scope, node.otherwise, shared=True)
                body = self.block(node.otherwise, inner, tail)
                otherwise = (body, None, tuple(inner.slots.values()))
            else:
                otherwise = (*self.frame_block(node.otherwise, scope, tail), ())
        return match.finish(otherwise)

    def s_TaskDef(self, node, scope, tail):
        if node.exported and not scope.is_global:
            raise SynError("export is only allowed at the top level of a module", node.span)
        body = list(node.body)
        requires = []
        while body and type(body[0]) is ast.Require:
            requires.extend(body.pop(0).caps)
        declared = [(c.name, self.expr(c.scope, scope) if c.scope is not None else None) for c in requires]
        for c in requires:
            self.rt.validate_cap(c.name, c.scope is not None, c.span)
        code, params = self.function(node.name, node.params, body, scope, False, node.span)
        store = self.binder(node.name, scope, node.span)
        name = node.name

        def run(f):
            caps = tuple((cap, _scope_text(s(f)) if s is not None else None) for cap, s in declared)
            store(f, Task(name, params, code, f, caps))
            return None
        return run

    def function(self, name, params, body, scope, is_lambda, span):
        """Compile a task or lambda body in a fresh task scope: (TaskCode, Param tuple)."""
        seen = set()
        for p in params:
            if p.name in seen:
                raise SynError(f"parameter '{p.name}' appears twice — give each parameter its own "
                               "name (a named argument could not say which one it sets)", p.span or span)
            if p.type is not None:
                # the types a parameter may declare (seed 000): the ones a tool schema can describe
                from synsema.lang.toolschema import JSON_TYPES
                if p.type not in JSON_TYPES:
                    raise SynError(f"unknown parameter type '{p.type}' — a parameter may be typed "
                                   f"{', '.join(JSON_TYPES)}", p.span or span)
            seen.add(p.name)
        inner = task_scope(scope, params, body)
        defaults = [self.expr(p.default, inner) if p.default is not None else None for p in params]
        saved_loops, self.loops = self.loops, 0
        direct = None
        if is_lambda:
            compiled, direct = _generated(self, "lambda", body, inner) or (self.expr(body, inner), None)
        else:
            compiled, direct = _generated(self, "task", body, inner) or (self.block(body, inner, True), None)
        self.loops = saved_loops
        code = TaskCode(name, is_lambda, tuple(p.name for p in params), defaults, compiled,
                        [UNBOUND] * (inner.size - 1 - len(params)))
        code.direct = direct
        infos = tuple(Param(p.name, p.type, p.default is not None, type(p.default) is ast.Nothing)
                      for p in params)
        return code, infos

    def s_Use(self, node, scope, tail):
        store = self.binder(node.alias, scope, node.span)
        rt = self.rt
        path = node.path
        origin = self.file
        span = node.span

        def run(f):
            store(f, rt.load_module(path, origin, span))
            return None
        return run

    # ------------------------------------------------------------------ expressions
    def expr(self, node, scope: Scope):
        method = self._expressions.get(node.__class__)
        if method is None:
            method = self._method(self._expressions, "e_", node)
        if self.watch is not None:
            return self.watch(node, method(node, scope))
        return method(node, scope)

    def e_Num(self, node, scope):
        v = node.value
        try:  # a literal like 1e3000000000d or a huge 0x… is refused at load, where it is written
            if type(v) is Decimal:
                check_decimal("a decimal literal", v)
            elif type(v) is int:
                check_int("a number literal", v)
        except SynError as error:
            raise error.at(node.span) from None
        return lambda f: v

    e_Str = e_Num
    e_Bool = e_Num

    def e_Nothing(self, node, scope):
        return lambda f: None

    def e_Template(self, node, scope):
        parts = [(p, None) if type(p) is str else (None, self.expr(p, scope)) for p in node.parts]
        span = node.span

        def run(f):
            out = []
            try:
                for text, hole in parts:
                    out.append(text if hole is None else display(hole(f)))
                return joined("a template", out)
            except SynError as e:
                raise e.at(span)
        return run

    def e_Name(self, node, scope):
        name = node.name
        candidates = scope.resolve(name)
        if candidates and candidates[0][0] == 0 and candidates[0][1] <= scope.params:
            param = candidates[0][1]  # a parameter of the innermost task: always bound
            return lambda f: f[param]
        span = node.span
        g = self.globals

        def read_global(f):
            try:
                return g[name]
            except KeyError:
                raise undefined(name, scope, g).at(span) from None

        if not candidates:
            return read_global

        def slow(f):
            for depth, slot in candidates:
                v = _walk(f, depth)[slot]
                if v is not UNBOUND:
                    return v
            return read_global(f)

        depth, slot = candidates[0]
        if depth == 0:
            def read_local(f):
                v = f[slot]
                if v is UNBOUND:
                    return slow(f)
                return v
            return read_local
        if depth == 1:
            def read_outer(f):
                v = f[0][slot]
                if v is UNBOUND:
                    return slow(f)
                return v
            return read_outer
        return slow

    def _global_name(self, node, scope) -> str | None:
        """The name, when `node` reads a variable no enclosing frame binds (a global)."""
        if type(node) is ast.Name and not scope.resolve(node.name):
            return node.name
        return None

    def e_ListLit(self, node, scope):
        items = [self.expr(i, scope) for i in node.items]
        return lambda f: [i(f) for i in items]

    def e_MapLit(self, node, scope):
        entries = [(self.expr(k, scope), self.expr(v, scope)) for k, v in node.entries]

        def run(f):
            out = {}
            for k, v in entries:
                key = k(f)
                out[key if type(key) is str else map_key(key)] = v(f)
            return out
        return run

    def e_Unary(self, node, scope):
        operand = self.expr(node.operand, scope)
        span = node.span
        if node.op == "not":
            return lambda f: not operand(f)
        if type(node.operand) is ast.Num and type(node.operand.value) in (int, float):
            negative = -node.operand.value  # `-1`: a constant, as the literal itself is
            return lambda f: negative

        from synsema.runtime.operators import negate

        def neg(f):
            v = operand(f)
            t = type(v)
            if t is int or t is float:
                return -v
            try:
                return negate(v)
            except SynError as e:
                raise e.at(span)
        return neg

    def operand(self, node, scope, texts: bool = False):
        """How the evaluator reads one operand of a hot operator (see runtime.fastpaths); a
        text literal is a constant too when `texts` (for `==`/`!=`, whose fast test checks both
        sides' classes; the ordering ones assume a constant is an int)."""
        from synsema.runtime.fastpaths import Operand
        reader = self.expr(node, scope)
        if self.watch is not None:  # an assert records every operand it reads (runtime.assertions)
            return Operand("expr", reader)
        if (type(node) is ast.Num and type(node.value) is int) or (texts and type(node) is ast.Str):
            return Operand("const", reader, value=node.value)
        if type(node) is ast.Name:
            candidates = scope.resolve(node.name)
            if not candidates:
                return Operand("global", reader, name=node.name)
            depth, slot = candidates[0]
            if depth == 0 and slot <= scope.params:  # a parameter of the innermost task
                return Operand("slot", reader, slot=slot)
            if depth == 0 and len(candidates) == 1:
                return Operand("local", reader, slot=slot)
        return Operand("expr", reader)

    def e_Binary(self, node, scope, store=None):
        from synsema.runtime import fastpaths
        from synsema.runtime.operators import BINARY
        op = node.op
        fn = BINARY[op]
        span = node.span
        left = self.operand(node.left, scope)
        right = self.operand(node.right, scope)
        if fastpaths.has_fast_path(op):
            return fastpaths.operator(op, left, right, fn, span, self.globals, store)
        first, second = left.reader, right.reader

        def general(f):
            a = first(f)
            b = second(f)
            try:
                return fn(a, b)
            except SynError as e:
                raise e.at(span)
            except MemoryError:
                raise host_failure(f"`{op}`", MemoryError()).at(span) from None
        return general

    def e_Compare(self, node, scope, store=None):
        from synsema.runtime import fastpaths
        span = node.span
        if len(node.ops) == 1 and fastpaths.has_fast_path(node.ops[0]):
            op = node.ops[0]
            texts = op == "==" or op == "!="
            return fastpaths.operator(op, self.operand(node.first, scope, texts),
                                      self.operand(node.rest[0], scope, texts), _comparison(op), span,
                                      self.globals, store)
        first = self.expr(node.first, scope)
        rest = [self.expr(r, scope) for r in node.rest]
        tests = [_comparison(op) for op in node.ops]
        if len(tests) == 1:
            test = tests[0]
            right = rest[0]

            def single(f):
                try:
                    return test(first(f), right(f))
                except SynError as e:
                    raise e.at(span)
            return single
        pairs = tuple(zip(tests, rest))

        def chain(f):
            a = first(f)
            try:
                for test, right in pairs:
                    b = right(f)
                    if not test(a, b):
                        return False
                    a = b
            except SynError as e:
                raise e.at(span)
            return True
        return chain

    def e_And(self, node, scope):
        left = self.truth(node.left, scope)
        right = self.truth(node.right, scope)
        return lambda f: left(f) and right(f)

    def e_Or(self, node, scope):
        left = self.truth(node.left, scope)
        right = self.truth(node.right, scope)
        return lambda f: left(f) or right(f)

    def truth(self, node, scope):
        """An operand of `and`/`or` as a bool: a comparison or another `and`/`or` already is one."""
        value = self.expr(node, scope)
        if type(node) in _BOOLEAN_NODES or (type(node) is ast.Compare and len(node.ops) == 1
                                            and node.ops[0] in _ORDERING):
            return value
        return lambda f: bool(value(f))

    def e_InlineWhen(self, node, scope):
        cond = self.expr(node.cond, scope)
        then = self.expr(node.then, scope)
        otherwise = self.expr(node.otherwise, scope) if node.otherwise is not None else (lambda f: None)
        return lambda f: then(f) if cond(f) else otherwise(f)

    def e_Index(self, node, scope, store=None):
        """`xs[i]`, `m[k]` with both operands read inline (runtime.fastpaths.index); an integer
        literal index (`stack[-1]`) is a constant, known when the program loads."""
        from synsema.runtime import fastpaths
        from synsema.runtime.fastpaths import Operand
        from synsema.runtime.operators import index
        position = _int_literal(node.index)
        if position is None:
            at = self.operand(node.index, scope)
        else:
            at = Operand("const", self.expr(node.index, scope), value=position)
        return fastpaths.index(self.operand(node.obj, scope), at, index, node.span, self.globals, store)

    def e_Attr(self, node, scope):
        obj = self.of_over_dot(node, self.expr(node.obj, scope))
        name = node.name
        span = node.span
        target = node.obj.name if type(node.obj) is ast.Name else None
        from synsema.runtime.operators import attribute

        def run(f):
            o = obj(f)
            if type(o) is dict:
                try:
                    return o[name]
                except KeyError:
                    pass
            try:
                return attribute(o, name, target)
            except SynError as e:
                raise e.at(span)
        return run

    @staticmethod
    def of_over_dot(node, obj):
        """`obj` as is, or, for `a of b.c` (the `of` form, its right side a dot read), reading
        it so that a missing `c` says `of` took the whole `b.c`: bind `a of b` first."""
        inner = node.obj
        if not (type(inner) is ast.Attr and node.span is not None and inner.span is not None
                and inner.obj.span is not None and (node.span.line, node.span.col) < (inner.span.line, inner.span.col)
                and (inner.span.line, inner.span.col) == (inner.obj.span.line, inner.obj.span.col)):
            return obj
        from synsema.lang import hints
        from synsema.lang.unparse import unparse
        hint = hints.of_over_dot(node.name, unparse(inner.obj), inner.name)
        missing = f"Map has no key '{inner.name}'"   # that key, not one read further in

        def read(f):
            try:
                return obj(f)
            except SynError as e:
                if e.message == missing and e.span is inner.span and e.catchable:
                    e.hint = f"{hint}; {e.hint}" if e.hint else hint
                raise
        return read

    def e_Lambda(self, node, scope):
        code, params = self.function("lambda", node.params, node.body, scope, True, node.span)
        return lambda f: Task("lambda", params, code, f, (), True)

    def e_Pipe(self, node, scope):
        step = node.step
        if type(step) is ast.Call:
            call = ast.Call(step.func, [node.value, *step.args], step.named, span=step.span)
        else:
            call = ast.Call(step, [node.value], [], span=node.span)
        return self.e_Call(call, scope)

    def e_Call(self, node, scope):
        if (self.watch is None and type(node.func) is ast.Name and node.func.name.startswith("assert")
                and _assertions().is_check(node, scope)):
            return _assertions().compile_check(self, node, scope, self.e_Call)
        span = node.span
        rt = self.rt
        func = self._callee(node.func, scope)
        args = [self.expr(a, scope) for a in node.args]
        named = [(k, self.expr(v, scope)) for k, v in node.named]
        if named:
            def call_named(f):
                fn = func(f)
                values = [a(f) for a in args]
                pairs = [(k, v(f)) for k, v in named]
                try:
                    return call_value(rt, fn, values, pairs, True, span)
                except SynError as e:
                    raise e.at(span)
            return call_named
        if len(args) == 1:
            only = args[0]
            callee = self._global_name(node.func, scope)
            if callee is not None:
                g = self.globals
                fspan = node.func.span

                def call_global1(f):
                    try:
                        fn = g[callee]
                    except KeyError:
                        raise undefined(callee, scope, g).at(fspan) from None
                    a = only(f)
                    try:
                        if type(fn) is Task:
                            code = fn.code  # invoke1, written out: the hottest call path
                            if len(code.names) != 1:
                                return invoke1(fn, a)
                            frame = [fn.env, a, *code.extra] if code.extra else [fn.env, a]
                            if reg.depth >= RECURSION_LIMIT:
                                raise SynError("maximum recursion depth exceeded")
                            reg.depth += 1
                            next(STEPS)
                            try:
                                result = code.body(frame)
                            finally:
                                reg.depth -= 1
                            if result is GIVE:
                                result = reg.value
                                reg.value = None
                            elif result is STOP:
                                raise StopLoop()
                            return result
                        if type(fn) is Builtin:
                            return call_builtin(rt, fn.spec, [a], None, span)
                        return call_value(rt, fn, [a])
                    except SynError as e:
                        raise e.at(span)
                reg = REG
                return call_global1

            def call1(f):
                fn = func(f)
                a = only(f)
                try:
                    if type(fn) is Task:
                        return invoke1(fn, a)
                    if type(fn) is Builtin:
                        return call_builtin(rt, fn.spec, [a], None, span)
                    return call_value(rt, fn, [a])
                except SynError as e:
                    raise e.at(span)
            return call1

        if len(args) == 2 or len(args) == 3:
            first_arg, second_arg, *third = args
            third_arg = third[0] if third else None

            def call2(f):
                """Two or three arguments: `slice(xs, 0, -1)`, `get(m, k, d)`."""
                fn = func(f)
                if third_arg is None:
                    values = [first_arg(f), second_arg(f)]
                else:
                    values = [first_arg(f), second_arg(f), third_arg(f)]
                try:
                    if type(fn) is Builtin:
                        return call_builtin(rt, fn.spec, values, None, span)
                    if type(fn) is Task:
                        return invoke(fn, values)
                    return call_value(rt, fn, values)
                except SynError as e:
                    raise e.at(span)
            return call2

        def call(f):
            fn = func(f)
            values = [a(f) for a in args]
            try:
                if type(fn) is Task:
                    return invoke(fn, values)
                if type(fn) is Builtin:
                    return call_builtin(rt, fn.spec, values, None, span)
                return call_value(rt, fn, values)
            except SynError as e:
                raise e.at(span)
        return call

    def _callee(self, node, scope):
        """The called value; `xs.append(1)` on a non-map explains that there are no methods."""
        if type(node) is not ast.Attr:
            return self.expr(node, scope)
        obj = self.expr(node.obj, scope)
        name = node.name
        span = node.span
        from synsema.runtime.operators import attribute
        target = node.obj.name if type(node.obj) is ast.Name else None

        def method(f):
            o = obj(f)
            if type(o) is dict or type(o) is ModuleValue or type(o) is EnumValue:
                try:
                    return attribute(o, name, target)
                except SynError as e:
                    raise e.at(span)
            raise no_methods(name, span, node.obj)
        return method

    def e_HumanExpr(self, node, scope):
        value = self.expr(node.value, scope)
        extra = self.expr(node.extra, scope) if node.extra is not None else None
        kind = node.kind
        rt = self.rt
        span = node.span

        def run(f):
            try:
                shown, given = value(f), extra(f) if extra else None
                rt.site = span  # the console and stdin checks name this line
                return rt.human(kind, shown, given)
            except SynError as e:
                raise e.at(span)
        return run


def _early_returns_as_branches(stmts: list) -> list:
    """In tail position, `when c` + a block ending in `give`, followed by more statements, is
    exactly `when c … otherwise <the rest>` (`when` opens no frame). Rewritten so, both branches
    are tail code whose `give` is a plain value instead of a sentinel travelling up."""
    for i, stmt in enumerate(stmts[:-1]):
        if (type(stmt) is ast.When and len(stmt.branches) == 1 and stmt.otherwise is None
                and stmt.branches[0][1] and type(stmt.branches[0][1][-1]) is ast.Give):
            return stmts[:i] + [ast.When(stmt.branches, stmts[i + 1:], span=stmt.span)]
    return stmts


def _comparison(op: str):
    if op == "==":
        return equal
    if op == "!=":
        return lambda a, b: not equal(a, b)
    if op == "in" or op == "not in":
        from synsema.runtime.operators import contains
        if op == "in":
            return lambda a, b: contains(b, a)
        return lambda a, b: not contains(b, a)
    return lambda a, b: compare(a, b, op)


def _scope_text(value) -> str:
    return value if type(value) is str else display(value)


def _step_into(holder, key, k):
    """Move one step down a `set` path, taking ownership of the container found there."""
    container = _own(holder, key) if type(holder[key]) in (list, dict) else holder[key]
    t = type(container)
    if t is dict:
        k = k if type(k) is str else map_key(k)
        if k not in container:
            raise SynError(f"Map has no key '{k}'")
        return container, k
    if t is list:
        return container, _list_position(container, k)
    if t is ModuleValue:
        if k not in container.exported:
            from synsema.runtime.operators import no_export
            raise no_export(container, k)
        return container.globals, k
    raise SynError(f"Cannot set a field or index inside {type_name(container)}")


def _list_position(xs: list, i) -> int:
    if type(i) is not int:
        if type(i) is float and i.is_integer():
            i = int(i)
        else:
            raise SynError(f"index must be an integer, got {display(i)}")
    j = i + len(xs) if i < 0 else i
    if not 0 <= j < len(xs):
        raise SynError(f"Index {i} out of range (list length {len(xs)})")
    return j


def _store(holder, key, k, value) -> None:
    """The last step of a `set` path: write `value` at `k` inside `holder[key]`."""
    t = type(holder[key])
    container = _own(holder, key) if t is list or t is dict else holder[key]
    t = type(container)
    if t is dict:
        container[k if type(k) is str else map_key(k)] = value
    elif t is list:
        container[_list_position(container, k)] = value
    elif t is ModuleValue:
        if k not in container.exported:
            from synsema.runtime.operators import no_export
            raise no_export(container, k)
        if type(container.globals[k]) in (Task, Constructor):
            raise SynError(f"cannot replace {container.name}.{k}: a module's tasks are fixed; "
                           "export a variable with `export let` to share a value")
        container.globals[k] = value
    else:
        raise SynError(f"Cannot set a field or index inside {type_name(container)}")

