"""Name resolution: which binding each name in a program refers to, and which frame slot holds it.

This is the one place that knows Synsema's scoping rules (LANGUAGE.md §2, "Scoping"): a new frame
opens only for a task or lambda call, each `each` iteration, each `match` arm, a `recover` block, a
`sandbox` block and a `test` block; `when`, `while`, a `try` body and `trace`/`measure` bind into
the frame around them. Names a frame binds are collected before its statements run, so a closure
can refer to a `let` that comes later in the same frame. The program's own frame is the global
dictionary, so global names have no slot.

Two clients build on it, as starlark-go's `resolve` sits between `syntax` and `eval`:

* the compiler (`runtime.compiler`) asks for each frame's `Scope` through `task_scope`,
  `block_scope`, `arm_scope` and `test_scope` while it compiles, and turns `Scope.resolve`
  answers into slot reads;
* the static tools (`synsema check`, the language server) call `lang.resolution.resolve_module`,
  which walks a whole module with the same four rules and answers, for every name read or `set`,
  what it refers to (`Reference`), and for every binding where it is (`Binding`). It is a module
  of its own because running a program never needs it (start-up without .pyc, issue 31).

`lang` imports nothing from the runtime, so the names that exist before a program starts (the
builtins, constants, the `math` module) are passed in by the caller as `predeclared`.
"""

from __future__ import annotations

from collections.abc import Iterable

from synsema.lang import ast


class Scope:
    """One frame's names. `parent` is the enclosing Scope, None for the global scope.

    Slot 0 of a frame at run time links to the frame it was opened in; `slots` maps each name the
    frame binds to its index, in the order they were declared. `params` counts the leading slots
    that hold a task's parameters (always bound when the body runs).
    """

    opens_frame = True              # False for a SharedScope, whose slots are in its parent's frame

    def __init__(self, parent: "Scope | None", kind: str):
        self.parent = parent
        self.kind = kind            # "global", "task", "block" (each/match/recover/sandbox), "test"
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
            if scope.opens_frame:
                depth += 1
            scope = scope.parent
        return found

    def in_task(self) -> bool:
        """Whether code here runs inside a task or lambda body (not at program level)."""
        scope = self
        while scope is not None:
            if scope.kind == "task":
                return True
            scope = scope.parent
        return False

    def visible(self) -> list[str]:
        """Every name a frame between here and the globals binds, innermost first."""
        names: list[str] = []
        scope = self
        while scope is not None and not scope.is_global:
            names.extend(n for n in scope.slots if n not in names)
            scope = scope.parent
        return names


class SharedScope(Scope):
    """A frame the compiler folds into the enclosing one: a `match` arm or `otherwise` whose
    frame nothing can capture. Its names keep their own scope (only its code resolves them, and
    they shadow outer ones) but get fresh slots in the frame of the nearest scope that opens
    one, so running the arm builds no frame and reaches the enclosing names at depth 0. The
    compiler resets those slots to UNBOUND when the arm ends, which makes the fold unobservable.
    """

    opens_frame = False

    def __init__(self, parent: Scope):
        super().__init__(parent, "block")
        self.owner = parent.owner if type(parent) is SharedScope else parent
        self.params = self.owner.params

    def declare(self, name: str) -> int:
        slot = self.slots.get(name)
        if slot is None:
            slot = self.slots[name] = self.owner.size
            self.owner.size += 1
        return slot


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


# ---------------------------------------------------------------- the four frame rules
def task_scope(parent: Scope, params: list, body) -> Scope:
    """The frame of one task or lambda call: its parameters first, then the body's names (a
    lambda's body is one expression and binds nothing)."""
    inner = Scope(parent, "task")
    for p in params:
        inner.declare(p.name)
    inner.params = len(params)
    if type(body) is list:
        collect_declarations(body, inner)
    return inner


def block_scope(parent: Scope, body: list, preset: Iterable[str] = (), shared: bool = False) -> Scope:
    """The frame of an `each` iteration (preset: the loop variable), a `recover` block (preset:
    the error's name), a `sandbox` block or a `match`'s `otherwise` (`shared`: see SharedScope)."""
    inner = SharedScope(parent) if shared else Scope(parent, "block")
    for name in preset:
        inner.declare(name)
    collect_declarations(body, inner)
    return inner


def arm_scope(parent: Scope, arm, shared: bool = False) -> Scope:
    """The frame of one `match` arm: the pattern's binders, then the arm body's names
    (`shared`: folded into the parent's frame, see SharedScope)."""
    inner = SharedScope(parent) if shared else Scope(parent, "block")
    for name, _ in pattern_binders(arm.pattern):
        inner.declare(name)
    collect_declarations(arm.body, inner)
    return inner


def test_scope(parent: Scope, body: list) -> Scope:
    inner = Scope(parent, "test")
    collect_declarations(body, inner)
    return inner


def pattern_binders(pattern) -> list[tuple[str, object]]:
    """(name, pattern node) for each name a `match` pattern binds, in the order it binds them."""
    t = type(pattern)
    if t is ast.PBind:
        return [(pattern.name, pattern)]
    if t is ast.PList:
        found = [b for p in pattern.before for b in pattern_binders(p)]
        if pattern.rest:
            found.append((pattern.rest, pattern))
        return found + [b for p in pattern.after for b in pattern_binders(p)]
    if t is ast.PMap:
        return [b for key, sub in pattern.entries
                for b in ([(key, pattern)] if sub is None else pattern_binders(sub))]
    if t is ast.PEnum:
        return [b for p in pattern.args for b in pattern_binders(p)]
    return []
