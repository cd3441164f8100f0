"""The compiler used under `--labels`: the same closures, made to carry and check labels.

`LabelCompiler` overrides exactly the constructs where labels flow or where control depends on
data: operators and accesses take the union of their operands' labels; `when`, `while`, `each`,
`match`, `and`/`or` and inline `when` raise the pc label for the code a private value decides; a
`let` under a private pc is born private and a `set` of a public variable there is refused
(no-sensitive-upgrade); builtins get their arguments without labels and give back a result
carrying all of them, unless they are sinks. A `give` or `stop` that a private branch may take
keeps the pc raised until the end of the task or loop, so what follows cannot reveal which way
the branch went. Errors raised under a private pc, or by an operation on private data, become
secret: uncatchable and shown without their message.

Every program run with `--labels` is compiled here, however it reaches `private` (by name, an
alias, a module, a builtin's callback): the label builtins are ordinary values, tracked on every
route. What keeps labels cheap is a run-time fact, never a reading of the source: while the run
has created no private value (`LabelState.touched` is empty) nothing can be labelled, so

* a builtin call skips stripping and checking its arguments (they are all public), yet still
  collects what its callbacks return, because a callback may create the run's first private
  value while the builtin runs;
* a task whose body is pure computation (`_public_body`) also has a second body compiled by
  `PublicCompiler`, without labels. A call from labelled code runs it only while nothing is
  private; it calls nothing but other such bodies, so no private value can come into being while
  it runs. When it meets anything else to call, it gives up before the call (`_LeavePublic`),
  having had no effect, and the labelled body runs the call again from its start.
"""

from __future__ import annotations

from synsema.lang import ast
from synsema.lang.errors import SynError
from synsema.lang.resolve import Scope, collect_declarations
from synsema.runtime import assertions, fastpaths
from synsema.runtime import operators as ops
from synsema.runtime.calls import GIVE, RECURSION_LIMIT, REG, STEPS, STOP, call_builtin, call_value, invoke
from synsema.runtime.compiler import Compiler, _comparison, _list_position, no_methods
from synsema.runtime.control import StopLoop
from synsema.runtime.labels import (EMPTY, Labeled, assignment_refusal, deep_labels, make_secret, shown, strip,
                                    unwrap, violation, wrap)
from synsema.runtime.limits import joined
from synsema.runtime.scope import UNBOUND
from synsema.runtime.values import Builtin, EnumValue, ModuleValue, Task, display, map_key, type_name


def _may_give(statements) -> bool:
    """Whether a `give` can leave these statements (nested tasks excluded)."""
    todo = list(statements)
    while todo:
        node = todo.pop()
        if type(node) is ast.Give:
            return True
        if type(node) in (ast.TaskDef, ast.Lambda):
            continue
        todo.extend(ast.children(node))
    return False


def _may_exit(branches) -> bool:
    """Whether a `give` or `stop` can leave these statements early (nested tasks excluded). A
    `stop` inside a loop of the statements only leaves that loop, so it does not count."""
    todo = [(node, False) for node in branches]
    while todo:
        node, in_loop = todo.pop()
        t = type(node)
        if t is ast.Give or (t is ast.Stop and not in_loop):
            return True
        if t in (ast.TaskDef, ast.Lambda):
            continue
        inner = in_loop or t in (ast.While, ast.Each)
        todo.extend((child, inner) for child in ast.children(node))
    return False


def _leaving(result, pc: frozenset):
    """THE RULE of this compiler: whatever leaves a block carries the pc the block had when it
    left. Called wherever the pc is lowered again (the end of a private `when`, `match` or loop,
    the return from a task or callback), so a value or `give` crossing there keeps the label
    of the control flow that chose it. STOP carries nothing (its pc is kept, see `_may_exit`)."""
    if result is GIVE:
        REG.value = wrap(REG.value, pc)
        return result
    if result is STOP:
        return result
    return wrap(result, pc)


# What a public body may contain: computation that neither calls out of the program nor changes
# anything outside its own frame, so running it and then abandoning it leaves no trace.
_PUBLIC_NODES = frozenset({
    ast.Num, ast.Str, ast.Template, ast.Bool, ast.Nothing, ast.Name, ast.ListLit, ast.MapLit,
    ast.Unary, ast.Binary, ast.Compare, ast.And, ast.Or, ast.Attr, ast.Index, ast.InlineWhen,
    ast.Call, ast.ExprStmt, ast.Let, ast.Give, ast.When,
})


def _public_body(body, params) -> bool:
    """Whether a task or lambda body may also be compiled without labels: only the nodes above,
    calls by name with positional arguments only (each checked when it runs), no defaults."""
    if any(p.default is not None for p in params):
        return False
    todo = list(body) if type(body) is list else [body]
    while todo:
        node = todo.pop()
        t = type(node)
        if t not in _PUBLIC_NODES:
            return False
        if t is ast.Call and (type(node.func) is not ast.Name or node.named):
            return False
        todo.extend(ast.children(node))
    return True


def _reads_only_parameters(body, params) -> bool:
    """Whether a public body reads no variable but its own parameters. A parameter is always
    bound in the body's own frame (a public body opens no other frame), so it is never looked up
    further out; the one other name it may read is a call's callee, whose value is checked when
    the call runs. Such a body sees nothing but its arguments and what it computes from them."""
    names = {p.name for p in params}
    todo = list(body) if type(body) is list else [body]
    while todo:
        node = todo.pop()
        t = type(node)
        if t is ast.Name:
            if node.name not in names:
                return False
        elif t is ast.Call:
            todo.extend(node.args)   # its callee is a Name (`_public_body`), checked at the call
        else:
            todo.extend(ast.children(node))
    return True


# Values that hold no other value, so a public one is public all through: with only these as
# arguments, under a public pc, a closed body computes exactly what its labelled body would.
_PUBLIC_SCALARS = frozenset({int, float, str, bool, type(None)})


class _LeavePublic(Exception):
    """A public body met a call it cannot make without labels; nothing has happened yet."""


class PublicCompiler(Compiler):
    """The plain closures, for bodies `_public_body` accepts, whose calls reach public bodies only.

    While nothing is private any public body may be called; once something is, only closed ones
    (`TaskCode.closed`, reading nothing but their parameters), since that is all a closed body
    that is running can reach: it was entered with public scalars under a public pc. A call whose
    callee has no such body (a builtin, a task with effects) first marks the calling body as not
    public for the rest of the run, then gives up: the labelled entry that started the public
    run catches `_LeavePublic`, restores the call counters and runs the labelled body instead.
    """

    generated_calls = False
    generated_public_calls = True   # runtime.codegen writes `e_Call` below inline

    def __init__(self, rt, globals_, file, owner):
        super().__init__(rt, globals_, file, False)
        self.owner = owner   # the TaskCode whose public body this is
        self.st = rt.labels

    def public_leave(self) -> "_LeavePublic":
        """Mark the owner as not public for the rest of the run; the exception that gives up."""
        self.owner.public = self.owner.closed = None
        return _LeavePublic()

    def e_Call(self, node, scope):
        args = tuple(self.expr(a, scope) for a in node.args)
        count = len(args)
        span = node.span
        owner = self.owner
        st = self.st
        reg = REG
        g = self.globals
        callee = self._global_name(node.func, scope)   # None unless a global: `None in g` is false
        func = self.expr(node.func, scope)              # what reads the callee otherwise, or fails

        leave = self.public_leave

        if count == 1:
            only = args[0]

            def call1(f):
                fn = g[callee] if callee in g else func(f)
                a = only(f)
                if type(fn) is Task:
                    code = fn.code
                    body = code.closed
                    if body is None and not st.touched:
                        body = code.public
                    if body is not None and len(code.names) == 1:
                        # `_run_public` written out, as the plain compiler writes out run_body in
                        # call_global1: this is the call of every recursive public task, and a
                        # helper here costs a Python call per call (fib under --labels: ~8%).
                        try:
                            if reg.depth >= RECURSION_LIMIT:
                                raise SynError("maximum recursion depth exceeded")
                            reg.depth += 1
                            next(STEPS)
                            try:
                                result = body([fn.env, a, *code.extra] if code.extra else [fn.env, a])
                            finally:
                                reg.depth -= 1
                        except SynError as error:
                            raise error.at(span)
                        if result is GIVE:
                            result = reg.value
                            reg.value = None
                        return result
                raise leave()
            return call1

        def call(f):
            fn = g[callee] if callee in g else func(f)
            values = [a(f) for a in args]
            if type(fn) is Task:
                code = fn.code
                body = code.closed
                if body is None and not st.touched:
                    body = code.public
                if body is not None and len(code.names) == count:
                    try:
                        return _run_public(body, [fn.env, *values, *code.extra])
                    except SynError as error:
                        raise error.at(span)
            raise leave()
        return call


def _run_public(body, frame: list):
    """Run a public body as `calls.run_body` runs a labelled one: the call depth exact on every
    exit, one step counted, a `give` taken from the register (a public body has no `stop`)."""
    reg = REG
    if reg.depth >= RECURSION_LIMIT:
        raise SynError("maximum recursion depth exceeded")
    reg.depth += 1
    next(STEPS)
    try:
        result = body(frame)
    finally:
        reg.depth -= 1
    if result is GIVE:
        result = reg.value
        reg.value = None
    return result


_NOT_RUN = object()


def _public_call(st, fn: Task, values: list):
    """Call `fn` without labels where that gives what its labelled body would: its public body
    while nothing is private, its closed body on public scalars under a public pc once
    something is. _NOT_RUN when neither applies, or when the body had to give up."""
    code = fn.code
    if not st.touched:
        body = code.public
    elif st.pc or not all(type(v) in _PUBLIC_SCALARS for v in values):
        return _NOT_RUN
    else:
        body = code.closed
    if body is None or len(values) != len(code.names):
        return _NOT_RUN
    reg = REG
    mark = STEPS.__length_hint__()   # what is left: Register.take_back
    try:
        return _run_public(body, [fn.env, *values, *code.extra])
    except _LeavePublic:
        reg.take_back(mark)   # the depth is back already; steps count as if not run
        reg.value = None
        return _NOT_RUN


class LabelCompiler(Compiler):
    """Compiles a module so that every closure respects the label rules of LANGUAGE.md §8."""

    plain_slots = False   # every `let` and `set` goes through the labelling stores
    # Task bodies, lambda bodies, `while` and `each` are generated by runtime.codegen_labels (the
    # constructs it writes inline; every other node is the closure below, on the same frame).
    labelled = True

    def __init__(self, rt, globals_, file, is_module=False):
        super().__init__(rt, globals_, file, is_module)
        self.st = rt.labels

    def function(self, name, params, body, scope, is_lambda, span):
        """The labelled body, and for pure computation also a public one (see the module doc)."""
        code, infos = super().function(name, params, body, scope, is_lambda, span)
        if _public_body(body, params):
            public, _ = PublicCompiler(self.rt, self.globals, self.file, code).function(
                name, params, body, scope, is_lambda, span)
            if len(public.extra) == len(code.extra):
                code.public, code.public_direct = public.body, public.direct
                if _reads_only_parameters(body, params):
                    code.closed, code.closed_direct = public.body, public.direct
        return code, infos

    # ------------------------------------------------------------------ helpers
    def _raised(self, labels: frozenset, fn, f, span):
        """Run `fn(f)` with the pc raised by `labels`; errors born there become secret."""
        st = self.st
        old = st.pc
        if not old:
            st.public_at = span
        st.pc = old | labels
        try:
            return fn(f)
        except SynError as error:
            raise make_secret(error, st.pc)
        finally:
            st.pc = old

    # ------------------------------------------------------------------ statements
    def binder(self, name, scope, span=None):
        """A `let` (or task, type, enum, use) under a private pc is born private, and may not
        replace a public binding of the same frame: that would reveal the branch."""
        plain = super().binder(name, scope)
        current = self._current(name, scope)
        st = self.st

        def private_store(f, v):
            existing = current(f)
            if existing is not UNBOUND:
                self._check_upgrade(name, existing, span)
            plain(f, wrap(v, st.pc))

        if scope.is_global:
            def store(f, v):
                if st.pc:
                    return private_store(f, v)
                plain(f, v)
            return store
        slot = scope.declare(name)

        def store_slot(f, v):
            if st.pc:
                return private_store(f, v)
            f[slot] = v
        return store_slot

    def _current(self, name, scope):
        """A reader of what `name` holds in the scope's own frame (UNBOUND when nothing)."""
        if scope.is_global:
            g = self.globals
            return lambda f: g.get(name, UNBOUND)
        slot = scope.declare(name)
        return lambda f: f[slot]

    def _hide_absence(self, bodies, scope):
        """Names a private branch might `let`: if the branch did not run they are bound to a
        private `nothing`, so whether they exist cannot be learned by reading them later."""
        probe = Scope(None, "block")
        for body in bodies:
            collect_declarations(body, probe)
        names = list(probe.slots)
        if not names:
            return None
        readers = [(self._current(n, scope), super(LabelCompiler, self).binder(n, scope)) for n in names]

        def hide(f, labels):
            for current, store in readers:
                if current(f) is UNBOUND:
                    store(f, Labeled(None, labels))
        return hide

    def _check_upgrade(self, name: str, current, span, declassified: bool = False) -> None:
        pc = self.st.pc
        held = unwrap(current)[1]
        if pc and not pc <= held:
            raise violation(assignment_refusal(name, held, pc, declassified), span)

    def s_Set(self, node, scope, tail):
        value = self.expr(node.value, scope)
        target = node.target
        path = []
        keys_src = []
        while type(target) in (ast.Attr, ast.Index):
            path.append((True, target.name) if type(target) is ast.Attr
                        else (False, self.expr(target.index, scope)))
            keys_src.append(None if type(target) is ast.Attr else target.index)
            target = target.obj
        if type(target) is not ast.Name:
            return super().s_Set(node, scope, tail)  # reports the invalid target
        path.reverse()
        keys_src.reverse()
        name = target.name
        if not path:
            value = self.protected(name, value, node.span)
        locate = self.locator(name, scope, node.span)
        span = node.span
        st = self.st
        plain = super().s_Set(node, scope, tail)
        declassified = (type(node.value) is ast.Call and type(node.value.func) is ast.Name
                        and node.value.func.name == "declassify")

        def labelled(f):
            v = value(f)
            keys = [k if is_attr else k(f) for is_attr, k in path]
            holder, key = locate(f)
            self._check_upgrade(name, holder[key], span, declassified)
            v = wrap(v, st.pc)
            if not keys:
                holder[key] = v
                return v
            try:
                holder[key] = _updated(holder[key], keys, v)
            except SynError as error:
                found = EMPTY
                for k in keys:
                    found = found | unwrap(k)[1]
                raise make_secret(error.at(span), found | unwrap(holder[key])[1])
            return v

        if not path:
            def assign(f):
                """`set x to v`: under a public pc the ordinary assignment, private `v` or not."""
                if not st.pc:
                    return plain(f)
                return labelled(f)
            return assign

        literal_keys = all(is_attr or type(k) in (ast.Str, ast.Num) for (is_attr, _), k in zip(path, keys_src))

        def assign_inside(f):
            if not st.touched:
                # Nothing private yet: the ordinary assignment. If the run's first private value
                # appears while it runs in a key, the whole variable becomes as private as
                # everything touched, since that key may have chosen the place (a private value
                # stored under literal keys keeps its own label where it is).
                try:
                    r = plain(f)
                except SynError as error:
                    raise make_secret(error, st.touched)
                if st.touched and not literal_keys:
                    taint(f)
                return r
            return labelled(f)
        taint = self.first_private_taint(locate)
        assign_inside.taint = None if literal_keys else taint   # for runtime.codegen_labels
        return assign_inside

    def first_private_taint(self, locate):
        """After a keyed `set` that ran while nothing was private, and during which the run's
        first private value appeared: the whole variable becomes as private as all touched."""
        st = self.st

        def taint(f):
            holder, key = locate(f)
            holder[key] = wrap(holder[key], st.touched)
        return taint

    def s_Give(self, node, scope, tail):
        plain = super().s_Give(node, scope, tail)  # a tail give compiles to its value
        st = self.st
        if tail:
            def give_tail(f):
                v = plain(f)
                return wrap(v, st.pc) if st.pc else v
            return give_tail
        reg = REG

        def run(f):
            plain(f)
            if st.pc:
                reg.value = wrap(reg.value, st.pc)
            return GIVE
        return run

    def s_When(self, node, scope, tail):
        branches = tuple((self.expr(c, scope), self.block(b, scope, tail)) for c, b in node.branches)
        otherwise = self.block(node.otherwise, scope, tail) if node.otherwise is not None else None
        bodies = [b for _, b in node.branches] + ([node.otherwise] if node.otherwise else [])
        keeps_pc = _may_exit([s for b in bodies for s in b])
        gives = _may_give([s for b in bodies for s in b])
        hide = self._hide_absence(bodies, scope)
        st = self.st
        span = node.span

        def private_from(f, position, c):
            """The rest of the `when` once a condition turned out private: under a raised pc."""
            old = st.pc
            try:
                for cond, body in branches[position:]:
                    if c is None:
                        c = cond(f)
                    if type(c) is Labeled:
                        if not st.pc:
                            st.public_at = span
                        st.pc = st.pc | c.labels
                        if gives:
                            st.give_taint = st.give_taint | c.labels
                        c = c.value
                    if c:
                        return _leaving(body(f), st.pc)
                    c = None
                return _leaving(otherwise(f) if otherwise is not None else None, st.pc)
            except SynError as error:
                raise make_secret(error, st.pc)
            finally:
                if hide is not None and st.pc != old:
                    hide(f, st.pc)
                if not keeps_pc:
                    st.pc = old

        if len(branches) == 1:
            (first, then), = branches

            def when1(f):
                """One condition (the common case, a task's base case): `run` without the loop."""
                c = first(f)
                if type(c) is Labeled:
                    return private_from(f, 0, c)
                if c:
                    return then(f)
                return otherwise(f) if otherwise is not None else None
            when1.private_from = private_from   # the generated `when` runs it (codegen_labels)
            return when1

        def run(f):
            position = 0
            for cond, body in branches:
                c = cond(f)
                if type(c) is Labeled:
                    return private_from(f, position, c)
                if c:
                    return body(f)
                position += 1
            return otherwise(f) if otherwise is not None else None
        run.private_from = private_from
        return run

    def s_While(self, node, scope, tail):
        from synsema.runtime import codegen   # loaded at the first body, as Compiler does
        generated = codegen.generate(self, "loop", node, scope, tail)
        if generated is not None:
            return generated
        cond = self.expr(node.cond, scope)
        self.loops += 1
        body = self.block(node.body, scope, False)
        self.loops -= 1
        hide = self._hide_absence([node.body], scope)
        gives = _may_give(node.body)
        st = self.st
        span = node.span

        def run(f):
            old = st.pc
            try:
                while True:
                    c = cond(f)
                    if type(c) is Labeled:
                        if not st.pc:
                            st.public_at = span
                        st.pc = st.pc | c.labels
                        if gives:
                            st.give_taint = st.give_taint | c.labels
                        if hide is not None:
                            hide(f, st.pc)
                        c = c.value
                    if not c:
                        break
                    try:
                        r = body(f)
                    except StopLoop:
                        break
                    if r is STOP:
                        break
                    if r is GIVE:
                        return _leaving(r, st.pc) if st.pc else r
                return _leaving(None, st.pc) if st.pc else None
            except SynError as error:
                raise make_secret(error, st.pc)
            finally:
                st.pc = old | st.give_taint  # a private `give` taints the task to its end
        return run

    def s_Each(self, node, scope, tail):
        from synsema.runtime import codegen   # loaded at the first body, as Compiler does
        generated = codegen.generate(self, "loop", node, scope, tail)
        if generated is not None:
            return generated
        iterable = self.lazy_iterable(node.iterable, scope)
        _may_give_each = _may_give(node.body)
        self.loops += 1
        body, template = self.frame_block(node.body, scope, False, preset=[node.var])
        self.loops -= 1
        span = node.iterable.span
        st = self.st

        def run(f):
            coll, labels = unwrap(iterable(f))
            t = type(coll)
            if t is dict:
                coll = list(coll)
            elif t is not list and t is not range and t is not str and t is not bytes:
                raise make_secret(not_iterable(coll, span), labels)
            old = st.pc
            if labels and not old:
                st.public_at = span
            st.pc = old | labels
            if labels and _may_give_each:
                st.give_taint = st.give_taint | labels
            try:
                for item in coll:
                    try:
                        r = body([f, wrap(item, labels), *template])
                    except StopLoop:
                        break
                    if r is STOP:
                        break
                    if r is GIVE:
                        return _leaving(r, st.pc) if st.pc else r
                return _leaving(None, st.pc) if st.pc else None
            except SynError as error:
                raise make_secret(error, st.pc)
            finally:
                st.pc = old | st.give_taint
        return run

    def s_Stop(self, node, scope, tail):
        plain = super().s_Stop(node, scope, tail)
        if self.loops or not scope.in_task():
            return plain
        st = self.st
        span = node.span

        def leaving(f):
            if st.pc:
                raise violation(f"stop would leave its task under private control flow "
                                f"(pc = {shown(st.pc)}): the caller's loop would learn the secret", span)
            return plain(f)
        return leaving

    def s_Match(self, node, scope, tail):
        inner = super().s_Match(node, scope, tail)  # its subject and patterns raise the pc
        keeps_pc = _may_exit([s for arm in node.arms for s in arm.body] + list(node.otherwise or ()))
        st = self.st

        def run(f):
            old = st.pc
            try:
                result = inner(f)
                return _leaving(result, st.pc) if st.pc is not old else result
            except SynError as error:
                raise make_secret(error, st.pc)
            finally:
                if not keeps_pc:
                    st.pc = old
        return run

    def decider(self, node, scope):
        """What decides a `match` arm (subject, pattern value, guard): used without its labels,
        which raise the pc for the rest of the `match` instead."""
        subject = self.expr(node, scope)
        st = self.st
        span = node.span

        def run(f):
            raw, labels = strip(subject(f))
            if labels:
                if not st.pc:
                    st.public_at = span
                st.pc = st.pc | labels
            return raw
        return run

    @staticmethod
    def numbers(range_numbers, bounds: list):
        """`each i in range(private n)`: the numbers, as private as the bounds."""
        labels = EMPTY
        clean = []
        for bound in bounds:
            raw, found = strip(bound)
            labels = labels | found
            clean.append(raw)
        try:
            return wrap(range_numbers(*clean), labels)
        except SynError as error:
            raise make_secret(error, labels)

    def s_Try(self, node, scope, tail):
        body = self.block(node.body, scope, tail)
        recover, template = self.frame_block(node.recover, scope, tail, preset=[node.err_name or "error"])
        reg = REG
        st = self.st

        def run(f):
            depth = reg.depth
            pc = st.pc
            try:
                return body(f)
            except SynError as error:
                if not error.catchable:
                    raise
                if st.pc is not pc and not st.pc <= pc:
                    # raised after a private `stop`/`give` kept the pc up: recovering here, at
                    # the lower pc, would tell which way that branch went
                    raise make_secret(error, st.pc)
                reg.depth = depth
                st.pc = pc
                # an error whose text came from outside (an MCP tool's) is caught with it private
                message = getattr(error, "private_message", None) or error.message
                return recover([f, message, *template])
            except RecursionError:
                reg.depth = depth
                st.pc = pc
                return recover([f, "maximum recursion depth exceeded", *template])
        return run

    def s_Raise(self, node, scope, tail):
        value = self.expr(node.value, scope)
        span = node.span
        st = self.st

        def run(f):
            raw, labels = strip(value(f))
            raise make_secret(SynError(display(raw), span), labels | st.pc)
        return run

    def s_Invariant(self, node, scope, tail):
        cond = self.expr(node.cond, scope)
        label = node.label
        span = node.span

        def run(f):
            c, labels = unwrap(cond(f))
            if not c:
                message = f"Invariant violation: {label}" if label else "Invariant violation"
                raise make_secret(SynError(message, span), labels)
            return None
        return run

    def s_Use(self, node, scope, tail):
        plain = super().s_Use(node, scope, tail)
        st = self.st
        span = node.span

        def run(f):
            if st.pc:
                raise violation(f"use under private control flow (pc = {shown(st.pc)}): whether the "
                                "module loads, and what it does, would depend on the secret; "
                                "move the use to the top level", span)
            return plain(f)
        return run

    def s_Log(self, node, scope, tail):
        value = self.expr(node.value, scope)
        rt = self.rt
        st = self.st

        span = node.span

        def run(f):
            try:
                st.stdout("log")
            except SynError as error:
                raise error.at(span)
            text = "[LOG] " + display(value(f)) + "\n"
            rt.site = span
            rt.stderr(text, "log")
            return None
        return run

    # ------------------------------------------------------------------ expressions
    def e_Template(self, node, scope):
        parts = [(p, None) if type(p) is str else (None, self.expr(p, scope)) for p in node.parts]

        def run(f):
            out = []
            labels = EMPTY
            for text, hole in parts:
                if hole is None:
                    out.append(text)
                else:
                    raw, found = strip(hole(f))
                    labels = labels | found
                    out.append(display(raw))
            try:
                return wrap(joined("a template", out), labels)
            except SynError as error:
                raise make_secret(error.at(node.span), labels)
        return run

    def e_MapLit(self, node, scope):
        entries = [(self.expr(k, scope), self.expr(v, scope)) for k, v in node.entries]

        def run(f):
            out = {}
            labels = EMPTY
            for k, v in entries:
                key, found = strip(k(f))
                labels = labels | found
                out[key if type(key) is str else map_key(key)] = v(f)
            return wrap(out, labels)
        return run

    def e_Unary(self, node, scope):
        if node.op != "not":
            return super().e_Unary(node, scope)  # minus: the operator handles labels
        operand = self.expr(node.operand, scope)

        def negation(f):
            v = operand(f)
            if type(v) is Labeled:
                return Labeled(not v.value, v.labels)
            return not v
        return negation

    def e_Compare(self, node, scope):
        if len(node.ops) == 1 and fastpaths.has_fast_path(node.ops[0]):
            return fastpaths.operator(node.ops[0], self.operand(node.first, scope),
                                      self.operand(node.rest[0], scope), labelled_comparison(node.ops[0]),
                                      node.span, self.globals)
        first = self.expr(node.first, scope)
        rest = [self.expr(r, scope) for r in node.rest]
        pairs = tuple(zip([_comparison(op) for op in node.ops], rest))
        chain = self._labelled_compare(pairs, node.span)
        # Always the labelled chain: an operand may create the run's first private value.
        return lambda f: chain(f, first(f))

    def _labelled_compare(self, pairs, span):
        """The rest of a comparison chain after its first value `a`, with labels: operands
        compared without them, the answer carrying them all, and an operand evaluated after a
        private comparison evaluated under a raised pc (the chain short-circuits on it)."""
        def chain(f, a):
            a, labels = strip(a)
            result = True
            try:
                for test, right in pairs:
                    b, found = strip(self._raised(labels, right, f, span) if labels else right(f))
                    labels = labels | found
                    if not test(a, b):
                        result = False
                        break
                    a = b
            except SynError as error:
                raise make_secret(error.at(span), labels)
            return wrap(result, labels)
        return chain

    def _logic(self, node, scope, is_and: bool):
        left = self.expr(node.left, scope)
        right = self.expr(node.right, scope)
        span = node.span

        def run(f):
            a, labels = unwrap(left(f))
            if bool(a) != is_and:
                return wrap(bool(a), labels)
            b = self._raised(labels, right, f, span) if labels else right(f)
            b, found = unwrap(b)
            return wrap(bool(b), labels | found)
        return run

    def e_And(self, node, scope):
        return self._logic(node, scope, True)

    def e_Or(self, node, scope):
        return self._logic(node, scope, False)

    def e_InlineWhen(self, node, scope):
        cond = self.expr(node.cond, scope)
        then = self.expr(node.then, scope)
        otherwise = self.expr(node.otherwise, scope) if node.otherwise is not None else (lambda f: None)
        span = node.span

        def run(f):
            c, labels = unwrap(cond(f))
            branch = then if c else otherwise
            if not labels:
                return branch(f)
            return wrap(self._raised(labels, branch, f, span), labels)
        return run

    def e_Index(self, node, scope):
        obj = self.expr(node.obj, scope)
        index = self.expr(node.index, scope)
        at = labelled_index(node.span)
        return lambda f: at(obj(f), index(f))

    def e_Attr(self, node, scope):
        obj = self.of_over_dot(node, self.expr(node.obj, scope))
        name = node.name
        span = node.span
        target = node.obj.name if type(node.obj) is ast.Name else None

        def run(f):
            o, labels = unwrap(obj(f))
            try:
                return wrap(ops.attribute(o, name, target), labels)
            except SynError as error:
                raise make_secret(error.at(span), labels)
        return run

    def _callee(self, node, scope):
        if type(node) is not ast.Attr:
            return self.expr(node, scope)
        obj = self.expr(node.obj, scope)
        name = node.name
        span = node.span
        target = node.obj.name if type(node.obj) is ast.Name else None

        def run(f):
            o, labels = unwrap(obj(f))
            if type(o) in (dict, ModuleValue, EnumValue):
                try:
                    return wrap(ops.attribute(o, name, target), labels)
                except SynError as error:
                    raise make_secret(error.at(span), labels)
            raise no_methods(name, span, node.obj)
        return run

    def e_Call(self, node, scope):
        if self.watch is None and assertions.is_check(node, scope):
            return assertions.compile_check(self, node, scope, self.e_Call)
        func = self._callee(node.func, scope)
        args = [self.expr(a, scope) for a in node.args]
        named = [(k, self.expr(v, scope)) for k, v in node.named]
        span = node.span
        rt = self.rt
        st = self.st
        if len(args) == 1 and not named:
            only = args[0]
            callee = self._global_name(node.func, scope)
            g = self.globals
            reg = REG

            def call1(f):
                """One positional argument: the common case, without building pairs."""
                fn = g[callee] if callee in g else func(f)   # `None in g` is false
                a = only(f)
                if type(fn) is Task and len(fn.code.names) == 1:
                    code = fn.code
                    public = code.public
                    if public is not None and st.touched:  # something is private: see _public_call
                        public = code.closed
                        if public is not None and (st.pc or type(a) not in _PUBLIC_SCALARS):
                            public = None
                    if public is not None:
                        # `_public_call`, written out: the entry of every public run, so of every
                        # recursive call made from labelled code (a helper costs a Python call).
                        mark = STEPS.__length_hint__()   # what is left: Register.take_back
                        try:
                            if reg.depth >= RECURSION_LIMIT:
                                raise SynError("maximum recursion depth exceeded")
                            reg.depth += 1
                            next(STEPS)
                            try:
                                result = public([fn.env, a, *code.extra] if code.extra else [fn.env, a])
                            finally:
                                reg.depth -= 1
                            if result is GIVE:
                                result = reg.value
                                reg.value = None
                            return result
                        except _LeavePublic:
                            reg.take_back(mark)
                            reg.value = None
                        except SynError as error:
                            raise error.at(span)
                    old = st.pc
                    taint = st.give_taint
                    st.give_taint = EMPTY
                    try:  # run_body, written out as in the plain compiler's global calls
                        if reg.depth >= RECURSION_LIMIT:
                            raise SynError("maximum recursion depth exceeded")
                        reg.depth += 1
                        next(STEPS)
                        try:
                            result = code.body([fn.env, a, *code.extra] if code.extra else [fn.env, a])
                        finally:
                            reg.depth -= 1
                        if result is GIVE:
                            result = reg.value
                            reg.value = None
                        elif result is STOP:
                            raise StopLoop()
                    except SynError as error:
                        raise make_secret(error.at(span), st.pc)
                    finally:
                        st.give_taint = taint
                    if st.pc:
                        result = wrap(result, st.pc)   # `_leaving`: the callee's pc at its end
                        st.pc = old
                    return result
                if type(fn) is Builtin and not st.touched:
                    return public_builtin(rt, fn.spec, [a], None, span)
                return general(f, fn, [a], ())
        else:
            call1 = None

        if not named and len(args) in (2, 3):
            first_arg, second_arg, *third = args
            third_arg = third[0] if third else None

            def run(f):
                """Two or three positional arguments (`get(m, k, d)`), as the plain call2."""
                fn = func(f)
                if third_arg is None:
                    values = [first_arg(f), second_arg(f)]
                else:
                    values = [first_arg(f), second_arg(f), third_arg(f)]
                if type(fn) is Builtin and not st.touched:
                    return public_builtin(rt, fn.spec, values, None, span)
                return general(f, fn, values, ())
        else:
            def run(f):
                fn = func(f)
                values = [a(f) for a in args]
                pairs = [(k, v(f)) for k, v in named] if named else ()
                if type(fn) is Builtin and not st.touched:
                    return public_builtin(rt, fn.spec, values, pairs, span)
                return general(f, fn, values, pairs)

        general = self.general_call(span)
        return call1 or run

    def general_call(self, span):
        """Every call `call1` and `run` do not finish themselves, as `general(f, fn, values,
        pairs)` (`f` unused): a labelled callee raises the pc, the result carries the callee's
        pc at its end. runtime.codegen_labels calls it for the same cases."""
        st = self.st
        rt = self.rt

        def general(f, fn, values, pairs):
            old = st.pc
            fn_labels = EMPTY
            if type(fn) is Labeled:
                fn_labels = fn.labels
                fn = fn.value
                if not old:
                    st.public_at = span
                st.pc = old | fn_labels
            taint = st.give_taint
            st.give_taint = EMPTY
            try:
                if type(fn) is Task and not pairs:
                    result = _public_call(st, fn, values) if fn.code.public is not None else _NOT_RUN
                    if result is _NOT_RUN:
                        result = invoke(fn, values)
                elif type(fn) is Builtin:
                    result = self._builtin(fn.spec, values, pairs, span)
                else:
                    result = call_value(rt, fn, values, pairs or None, True, span)
            except SynError as error:
                raise make_secret(error.at(span), st.pc)
            finally:
                st.give_taint = taint
            if st.pc:
                result = wrap(result, st.pc)   # `_leaving`: the callee's pc at its end (⊇ fn_labels)
                st.pc = old  # a callee's private `give` never taints its caller's control flow
            return result
        return general

    def _builtin(self, spec, values, pairs, span):
        return call_labelled_builtin(self.rt, spec, values, pairs, span)

    def e_LLMExpr(self, node, scope):
        parts = [self.expr(e, scope) if e is not None else None
                 for e in (node.subject, node.given, node.objective)]
        with_ = [(k, self.expr(v, scope)) for k, v in node.with_]
        kind = node.kind
        st = self.st
        rt = self.rt
        span = node.span

        def run(f):
            labels = st.pc
            subject, given, objective = [strip(p(f)) if p is not None else (None, EMPTY) for p in parts]
            extras = {k: strip(v(f)) for k, v in with_}
            for _, found in [subject, given, objective, *extras.values()]:
                labels = labels | found
            labels = labels | st.effect(kind, ("llm",), ("llm",), labels)
            if labels and not st.llm_allows(labels, hosts := rt.llm_host()):
                raise st.llm_refusal(kind, labels, hosts, _private_parts(
                    ("subject", "given", "objective", *extras),
                    [found for _, found in (subject, given, objective, *extras.values())], st.pc), span)
            try:
                answer = rt.llm_expression(kind, subject[0], given[0], objective[0],
                                           {k: v for k, (v, _) in extras.items()})
            except SynError as error:
                raise make_secret(error.at(span), labels)
            return wrap(answer, labels)
        return run

    def e_HumanExpr(self, node, scope):
        plain = super().e_HumanExpr(node, scope)
        st = self.st
        kind = node.kind

        span = node.span

        def run(f):
            try:
                st.stdout(kind)
            except SynError as error:
                raise error.at(span)
            return plain(f)
        return run



def labelled_comparison(op: str):
    """The general case of a comparison under labels: the operands compared without their
    labels, the answer (or the error) carrying them all."""
    test = _comparison(op)

    def labelled(a, b):
        a, labels = strip(a)
        b, found = strip(b)
        try:
            return wrap(test(a, b), labels | found)
        except SynError as error:
            raise make_secret(error, labels | found)
    return labelled


def not_iterable(coll, span) -> SynError:
    """What `each` over something it cannot walk raises under labels (made secret by the
    collection's label where it has one)."""
    return SynError(f"Cannot iterate over {type_name(coll)}", span)


def labelled_index(span):
    """`obj[index]` under labels: the item carries both operands' labels, and so does an error."""
    def at(obj, index):
        o, lo = unwrap(obj)
        i, li = unwrap(index)
        try:
            return wrap(ops.index(o, i), lo | li)
        except SynError as error:
            raise make_secret(error.at(span), lo | li)
    return at


def public_builtin(rt, spec, values: list, pairs, span):
    """A builtin call while nothing is private: the arguments are public, so there is nothing to
    strip or refuse, whatever its flow. But a callback may create the run's first private value
    while the builtin runs, and what the builtin then returns or raises depends on it.

    `callback_labels` is empty when this starts (no label exists while nothing is private, and
    every builtin call that began later restores it as it found it), so what it holds afterwards
    is what this builtin's callbacks returned; it is emptied again for the caller."""
    st = rt.labels
    try:
        result = call_builtin(rt, spec, values, pairs or None, span)
    except SynError as error:
        found = st.callback_labels
        st.callback_labels = EMPTY
        raise make_secret(error.at(span), found)
    found = st.callback_labels
    if found:
        st.callback_labels = EMPTY
        return wrap(result, found)
    return result


def labelled_callback(rt, fn: Task, arity: int):
    """`Runtime.call` of a task of exactly `arity` parameters, made once for a builtin that calls
    it per item (`where`, `apply`, `sort_by`): the same steps — the pc raised by the builtin's
    private arguments (`st.data`), no give taint inside, the body run as `run_body` runs it on
    the frame `bind` builds, an error secret under the pc it ends with, the answer stripped and
    its labels and that pc added to `callback_labels`, the label state put back — without the
    permissive binding, the argument list and the unwrapping of a task that is not labelled.
    When the run still has no private value as the body ends (`touched` empty) no label exists
    anywhere, so the answer is its own stripped value and there is nothing to add. A lambda body
    written with its labels in locals comes as one function (its `entry`, made by
    codegen_labels.callback_entry), which does these steps itself for a call that starts while
    nothing is private and hands any other call to the steps here. None for a task of another
    arity (Runtime.call's permissive binding applies), and with the generated evaluator off
    (`SYNSEMA_CLOSURES=1`: the differential tests' reference is Runtime.call)."""
    import synsema.runtime.codegen as codegen   # loaded with the first body (no `from`: no import machinery per call)
    code = fn.code
    if not codegen.ENABLED or len(code.names) != arity:
        return None
    st = rt.labels
    env, extra = fn.env, code.extra
    reg = REG

    def leave(result, error):
        """What `call` does after the body, for a call that started while nothing was private
        (codegen_labels.callback_entry) and whose body made the run's first private value: an
        error made secret, the answer stripped and labelled; the label state as it was (empty)."""
        try:
            if error is not None:
                return make_secret(error, st.pc)
            result, found = strip(result)
            found = found | st.pc
        finally:
            st.pc = st.give_taint = st.data = EMPTY
        st.callback_labels = st.callback_labels | found
        return result

    def call(*args):
        pc, taint, data = st.pc, st.give_taint, st.data
        st.pc = pc | data if data else pc
        st.give_taint = st.data = EMPTY
        try:
            if reg.depth >= RECURSION_LIMIT:   # run_body, written out
                raise SynError("maximum recursion depth exceeded")
            reg.depth += 1
            next(STEPS)
            try:
                result = code.body([env, *args, *extra] if extra else [env, *args])
            finally:
                reg.depth -= 1
            if result is GIVE:
                result = reg.value
                reg.value = None
            elif result is STOP:
                raise StopLoop()
            if not st.touched:
                return result
            result, found = strip(result)
            found = found | st.pc
        except SynError as error:
            raise make_secret(error, st.pc)
        finally:
            st.pc, st.give_taint, st.data = pc, taint, data
        st.callback_labels = st.callback_labels | found
        return result

    entry = getattr(code.body, "entry", None)   # a generated lambda body as one function (codegen_labels)
    if entry is not None and not extra:
        made = entry(env, call, leave)
        if made is not None:
            return made
    return call


def call_labelled_builtin(rt, spec, values: list, pairs: list, span):
    """Call a builtin under labels, however it was reached: by name, through a variable, or as
    the callback of another builtin (`reduce(write_file, …)` meets the same sink check)."""
    st = rt.labels
    flow = spec.flow
    if flow == "raw":
        return call_builtin(rt, spec, values, pairs or None, span)
    if not st.touched:
        return public_builtin(rt, spec, values, pairs, span)
    if flow == "sink":
        st.sink(f"{spec.name}()", values + [v for _, v in pairs])
        return call_builtin(rt, spec, values, pairs or None, span)
    labels = EMPTY
    clean = []
    for v in values:
        raw, found = strip(v)
        labels = labels | found
        clean.append(raw)
    clean_pairs = []
    for k, v in pairs:
        raw, found = strip(v)
        labels = labels | found
        clean_pairs.append((k, raw))
    if flow == "llm" and (labels or st.pc):
        if not st.llm_allows(labels | st.pc, hosts := rt.llm_host()):
            code = spec.implementation().__code__
            raise st.llm_refusal(f"{spec.name}()", labels | st.pc, hosts, _private_parts(
                code.co_varnames[1:code.co_argcount], [deep_labels(v) for v in values], st.pc))
        labels = labels | st.pc
    answer = EMPTY   # what the answer carries beyond the data: it decides no control flow
    if flow == "clock":
        answer = st.touched   # the time or work so far may depend on anything touched
    if spec.changes or spec.reads:
        answer = answer | st.effect(f"{spec.name}()", spec.changes, spec.reads, labels)
    data = st.data
    st.data = labels   # the callbacks it makes run under them (Runtime.call); the pc is the site's
    labels = labels | answer
    outer = st.callback_labels
    st.callback_labels = EMPTY
    try:
        result = call_builtin(rt, spec, clean, clean_pairs or None, span)
        return wrap(result, labels | st.callback_labels)
    except SynError as error:
        raise make_secret(error, labels | st.callback_labels)
    finally:
        st.callback_labels = outer
        st.data = data


def _private_parts(names, parts, pc) -> str:
    """Which of a model request's parts are private, for the refusal: `its prompt is private to
    customer`, or the private control flow it runs under. `parts` are the parts' labels."""
    said = [f"its {name} is private to {', '.join(sorted(found))}" for name, found in zip(names, parts) if found]
    if pc:
        said.append(f"it runs under control flow private to {', '.join(sorted(pc))}")
    return "; ".join(said) or "its arguments hold private values"


def _updated(container, keys: list, value):
    """A copy of `container` with `value` stored at the path `keys`, labels kept and joined."""
    c, labels = unwrap(container)
    key, key_labels = unwrap(keys[0])
    labels = labels | key_labels
    t = type(c)
    if t is ModuleValue:
        if len(keys) != 1 or key not in c.exported or type(c.globals[key]) is Task:
            raise SynError(f"cannot set {c.name}.{display(key)} here")
        c.globals[key] = value
        return container
    if t is dict:
        new = dict(c)
        k = key if type(key) is str else map_key(key)
        if len(keys) > 1:
            if k not in new:
                raise SynError(f"Map has no key '{k}'")
            value = _updated(new[k], keys[1:], value)
        new[k] = value
    elif t is list:
        new = list(c)
        position = _list_position(new, key)
        if len(keys) > 1:
            value = _updated(new[position], keys[1:], value)
        new[position] = value
    else:
        raise SynError(f"Cannot set a field or index inside {type_name(c)}")
    return wrap(new, labels)

