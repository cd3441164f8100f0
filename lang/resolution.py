"""Whole-module name resolution for the static tools: what every name refers to, where every
binding is.

`synsema check` (lint), the language server (navigation, completion) and `code caps` call
`resolve_module`, which walks a module with the frame rules of `lang.resolve` (the same
`Scope`s the compiler builds) and answers, for every name read or `set`, what it refers to
(`Reference`), and for every binding where it is (`Binding`). Running a program never loads
this module.
"""

from __future__ import annotations

from collections.abc import Iterable

from synsema.lang import ast
from synsema.lang.resolve import (Scope, arm_scope, block_scope, collect_declarations, pattern_binders, task_scope,
                                  test_scope)


class Binding:
    """One name bound in one frame: `kind` says by what ("let", "task", "type", "enum", "use",
    "parameter", "each", "pattern", "error", "predeclared"); `node` is the binding node (None
    for predeclared names); `scope` is the frame (the global Scope for module-level names);
    `assigned` is set when a `set` somewhere changes it."""

    __slots__ = ("name", "kind", "node", "scope", "assigned")

    def __init__(self, name: str, kind: str, node, scope: Scope | None):
        self.name = name
        self.kind = kind
        self.node = node
        self.scope = scope
        self.assigned = False

    def __repr__(self) -> str:
        return f"Binding({self.name!r}, {self.kind})"


class Reference:
    """One use of a name: a read (`node` an `ast.Name`) or a `set` (`node` the `ast.Set`).

    `where` is "local" (a frame slot: `slots` lists every (depth, slot) that may hold it,
    innermost first), "global" (bound at the module's top level), "predeclared" (a builtin or
    constant) or "undefined". `binding` is the innermost binding found, None when undefined.
    """

    __slots__ = ("name", "node", "scope", "where", "slots", "binding", "is_set")

    def __init__(self, name, node, scope, where, slots, binding, is_set):
        self.name = name
        self.node = node
        self.scope = scope
        self.where = where
        self.slots = slots
        self.binding = binding
        self.is_set = is_set

    @property
    def span(self):
        return self.node.span

    def __repr__(self) -> str:
        return f"Reference({self.name!r}, {self.where})"


class Resolution:
    """What `resolve_module` found: every reference and binding, in source order."""

    def __init__(self, module, globals_: Scope, predeclared: frozenset[str]):
        self.module = module
        self.globals = globals_
        self.predeclared = predeclared
        self.references: list[Reference] = []
        self.bindings: list[Binding] = []
        self._by_node: dict[int, Reference] = {}
        # (first line, the nodes whose last line ends it, frame): the last lines are measured at
        # the first `frames()` (an editor's question; `check` never asks)
        self._frames: list[tuple[int, list, Scope]] = []
        self._spans: list[tuple[int, int, Scope]] | None = None

    def undefined(self) -> list[Reference]:
        return [r for r in self.references if r.where == "undefined"]

    def reference_at(self, node) -> Reference | None:
        """The reference a given `ast.Name` (or `ast.Set`) node makes."""
        return self._by_node.get(id(node))

    def scope_at(self, line: int) -> Scope:
        """The innermost frame whose lines hold `line` (the globals outside every frame): what
        an editor completes from at a cursor."""
        best = self.globals
        best_size = None
        for first, last, scope in self.frames():
            if first <= line <= last and (best_size is None or last - first <= best_size):
                best, best_size = scope, last - first
        return best

    def frames(self) -> list[tuple[int, int, Scope]]:
        """(first line, last line, frame) of every frame, in the order the resolution met them."""
        if self._spans is None:
            last_line = _LastLines().of
            self._spans = []
            for first, nodes, scope in self._frames:
                lines = [line for line in map(last_line, nodes) if line is not None]
                self._spans.append((first, max(lines, default=first), scope))
        return self._spans

    def candidates(self, scope: Scope) -> list[str]:
        """The names visible from `scope`, innermost first: what a "did you mean" picks from."""
        return [*scope.visible(), *self.globals.slots, *sorted(self.predeclared)]


_BINDING_KINDS = {ast.Let: "let", ast.TaskDef: "task", ast.TypeDef: "type", ast.EnumDef: "enum",
                  ast.Use: "use"}


def resolve_module(module, predeclared: Iterable[str] = ()) -> Resolution:
    """Resolve every name in `module`. `predeclared` are the names that exist before the program
    runs (builtins, constants, an interactive session's earlier definitions)."""
    resolver = _Resolver(module, frozenset(predeclared))
    resolver.body(module.body, resolver.result.globals)
    return resolver.result


class _LastLines:
    """The last line of any node in a node (None if none has a span), for `Resolution.scope_at`.
    A statement's is kept, since the frames a task's body opens ask again; a task's comes from
    its statements'."""

    def __init__(self):
        self._last: dict[int, int | None] = {}    # id(node) -> its last line

    def of(self, node) -> int | None:
        key = id(node)
        if key in self._last:
            return self._last[key]
        if type(node) is ast.TaskDef:
            lines = [n.span.line for p in node.params for n in ast.walk(p) if n.span is not None]
            lines += [line for line in map(self.of, node.body) if line is not None]
            if node.span is not None:
                lines.append(node.span.line)
        else:
            lines = [n.span.line for n in ast.walk(node) if n.span is not None]
        line = self._last[key] = max(lines, default=None)
        return line


class _Resolver:
    """Walks a module with the frame rules above, recording bindings and references."""

    def __init__(self, module, predeclared: frozenset[str]):
        top = Scope(None, "global")
        collect_declarations(module.body, top)
        self.result = Resolution(module, top, predeclared)
        self._bound: dict[tuple[int, str], Binding] = {}

    # ------------------------------------------------------------ bindings
    def bind(self, name: str, kind: str, node, scope: Scope) -> None:
        key = (id(scope), name)
        if key not in self._bound:
            binding = Binding(name, kind, node, scope)
            self._bound[key] = binding
            self.result.bindings.append(binding)

    def bind_declared(self, body: list, scope: Scope) -> None:
        """Record the bindings `collect_declarations` found for `body` in `scope`."""
        for stmt in body:
            t = type(stmt)
            if t in _BINDING_KINDS:
                self.bind(stmt.alias if t is ast.Use else stmt.name, _BINDING_KINDS[t], stmt, scope)
            elif t is ast.When:
                for _, branch in stmt.branches:
                    self.bind_declared(branch, scope)
                self.bind_declared(stmt.otherwise or [], scope)
            elif t in (ast.While, ast.Marker, ast.Try):
                self.bind_declared(stmt.body, scope)

    def lookup(self, name: str, scope: Scope) -> tuple[str, list, Binding | None]:
        slots = scope.resolve(name)
        if slots:
            owner = scope
            for _ in range(slots[0][0]):
                owner = owner.parent
            return "local", slots, self._bound.get((id(owner), name))
        if name in self.result.globals.slots:
            return "global", [], self._bound.get((id(self.result.globals), name))
        if name in self.result.predeclared:
            return "predeclared", [], None
        return "undefined", [], None

    def refer(self, name: str, node, scope: Scope, is_set: bool = False) -> None:
        where, slots, binding = self.lookup(name, scope)
        if is_set and binding is not None:
            binding.assigned = True
        ref = Reference(name, node, scope, where, slots, binding, is_set)
        self.result.references.append(ref)
        self.result._by_node[id(node)] = ref

    # ------------------------------------------------------------ statements
    def body(self, stmts: list, scope: Scope) -> None:
        if scope.is_global:
            self.bind_declared(stmts, scope)
        for stmt in stmts:
            self.stmt(stmt, scope)

    def lines_of(self, inner: Scope, first: int, nodes: list) -> None:
        """Record that `inner` is the frame of the source lines from `first` to the last line of
        `nodes` (for `Resolution.scope_at`)."""
        self.result._frames.append((first, nodes, inner))

    def frame(self, stmts: list, inner: Scope) -> None:
        if stmts and stmts[0].span is not None:
            self.lines_of(inner, stmts[0].span.line, stmts)
        self.bind_declared(stmts, inner)
        for stmt in stmts:
            self.stmt(stmt, inner)

    def stmt(self, node, scope: Scope) -> None:
        t = type(node)
        if t is ast.Set:
            self.expr(node.value, scope)
            target = node.target
            while type(target) in (ast.Attr, ast.Index):
                if type(target) is ast.Index:
                    self.expr(target.index, scope)
                target = target.obj
            if type(target) is ast.Name:
                if target is node.target:
                    self.refer(target.name, node, scope, is_set=True)
                else:
                    self.refer(target.name, target, scope)
            else:
                self.expr(target, scope)
        elif t is ast.Each:
            self.expr(node.iterable, scope)
            inner = block_scope(scope, node.body, preset=[node.var])
            self.bind(node.var, "each", node, inner)
            self.frame(node.body, inner)
        elif t is ast.Match:
            self.expr(node.subject, scope)
            for arm in node.arms:
                inner = arm_scope(scope, arm)
                for name, where in pattern_binders(arm.pattern):
                    self.bind(name, "pattern", where, inner)
                self.pattern(arm.pattern, inner)
                if arm.guard is not None:
                    self.expr(arm.guard, inner)
                self.frame(arm.body, inner)
            if node.otherwise is not None:
                self.frame(node.otherwise, block_scope(scope, node.otherwise))
        elif t is ast.TaskDef:
            body = list(node.body)
            while body and type(body[0]) is ast.Require:  # a task's declared capabilities
                self.caps(body.pop(0).caps, scope)
            self.function(node.params, body, scope, node)
        elif t is ast.Try:
            for stmt in node.body:
                self.stmt(stmt, scope)
            name = node.err_name or "error"
            inner = block_scope(scope, node.recover, preset=[name])
            self.bind(name, "error", node, inner)
            self.frame(node.recover, inner)
        elif t is ast.Sandbox:
            self.caps(node.under, scope)
            self.frame(node.body, block_scope(scope, node.body))
        elif t is ast.TestBlock:
            self.frame(node.body, test_scope(scope, node.body))
        elif t in (ast.When, ast.While, ast.Marker):
            for child in ast.children(node):
                (self.stmt if isinstance(child, ast.Stmt) else self.expr)(child, scope)
        elif t is ast.Require:
            self.caps(node.caps, scope)
        else:
            for child in ast.children(node):
                (self.stmt if isinstance(child, ast.Stmt) else self.expr)(child, scope)

    def function(self, params: list, body, scope: Scope, node) -> None:
        inner = task_scope(scope, params, body)
        if node.span is not None:
            self.lines_of(inner, node.span.line, [node])
        for p in params:
            self.bind(p.name, "parameter", p, inner)
        for p in params:
            if p.default is not None:
                self.expr(p.default, inner)
        if type(body) is list:
            self.frame(body, inner)
        else:
            self.expr(body, inner)

    def caps(self, caps, scope: Scope) -> None:
        for cap in caps or ():
            if cap.scope is not None:
                self.expr(cap.scope, scope)

    def pattern(self, pattern, scope: Scope) -> None:
        t = type(pattern)
        if t is ast.PValue:
            self.expr(pattern.expr, scope)
        elif t is ast.PEnum:
            self.expr(pattern.variant, scope)
            for p in pattern.args:
                self.pattern(p, scope)
        elif t is ast.PList:
            for p in (*pattern.before, *pattern.after):
                self.pattern(p, scope)
        elif t is ast.PMap:
            for _, sub in pattern.entries:
                if sub is not None:
                    self.pattern(sub, scope)

    # ------------------------------------------------------------ expressions
    def expr(self, node, scope: Scope) -> None:
        t = type(node)
        if t is ast.Name:
            self.refer(node.name, node, scope)
        elif t is ast.Lambda:
            self.function(node.params, node.body, scope, node)
        elif t is ast.SandboxExpr:
            self.caps(node.under, scope)
            self.expr(node.body, scope)
        elif isinstance(node, ast.Node):
            for child in ast.children(node):
                self.expr(child, scope)
