"""Compile-time scopes: which names live in which frame slot.

Synsema opens a new frame only for a task or lambda call, each `each` iteration, each `match`
arm, a `recover` block, a `sandbox` block and a `test` block; `when`, `while` and a `try` body
bind into the frame around them. A frame at run time is a Python list: slot 0 links to the
frame it was opened in (None when that is the program's global dictionary), the rest hold the
frame's names. Names a scope binds are collected before its statements compile, so a closure
can refer to a `let` that comes later in the same frame.

A slot whose `let` has not run yet holds UNBOUND; reading it falls back to the next frame out
that binds the name, then to the globals, as a dynamically scoped lookup would.
"""

from __future__ import annotations

from lang import ast


class _Unbound:
    __slots__ = ()

    def __repr__(self) -> str:
        return "UNBOUND"


UNBOUND = _Unbound()


class Scope:
    """One frame's names. `parent` is the enclosing Scope, None for the global scope."""

    def __init__(self, parent: "Scope | None", kind: str):
        self.parent = parent
        self.kind = kind            # "global", "task", "block" (each/match/recover/sandbox/test)
        self.slots: dict[str, int] = {}
        self.size = 1               # slot 0 is the parent link
        self.params = 0

    @property
    def is_global(self) -> bool:
        return self.parent is None

    def declare(self, name: str) -> int:
        slot = self.slots.get(name)
        if slot is None:
            slot = self.slots[name] = self.size
            self.size += 1
        return slot

    def resolve(self, name: str) -> list[tuple[int, int]]:
        """(depth, slot) of every enclosing frame that binds `name`, innermost first."""
        found = []
        depth = 0
        scope = self
        while scope is not None and not scope.is_global:
            slot = scope.slots.get(name)
            if slot is not None:
                found.append((depth, slot))
            scope = scope.parent
            depth += 1
        return found

    def in_task(self) -> bool:
        """Whether code here runs inside a task or lambda body (not at program level)."""
        scope = self
        while scope is not None:
            if scope.kind == "task":
                return True
            scope = scope.parent
        return False


def collect_declarations(body: list, scope: Scope) -> None:
    """Declare every name `body` binds in `scope` itself (not in frames it opens)."""
    for stmt in body:
        t = type(stmt)
        if t is ast.Let:
            scope.declare(stmt.name)
        elif t in (ast.TaskDef, ast.TypeDef, ast.EnumDef):
            scope.declare(stmt.name)
        elif t is ast.Use:
            scope.declare(stmt.alias)
        elif t is ast.When:
            for _, branch in stmt.branches:
                collect_declarations(branch, scope)
            if stmt.otherwise:
                collect_declarations(stmt.otherwise, scope)
        elif t is ast.While or t is ast.Marker:
            collect_declarations(stmt.body, scope)
        elif t is ast.Try:
            collect_declarations(stmt.body, scope)
