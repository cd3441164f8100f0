"""What an editor asks of one source file: its symbols, what the name under the cursor is, where
it is defined and used (across `use`), and which names a cursor may complete.

Everything comes from the parser and the one resolver (`lang.resolve`); this module only maps
between source positions and the resolver's answers. Positions are 1-based lines and columns,
as in every `Span`. A name's span starts at the statement that binds it (`let`, `task`, …), so
the name itself is found by looking for the word from there.

`lang` knows nothing of the runtime, so the names that exist before a program runs (builtins,
constants, `math`) are passed in as `predeclared`, and the text shown for them comes from the
caller.
"""

from __future__ import annotations

import os
import re
from typing import Iterable, NamedTuple

from synsema.lang import ast
from synsema.lang.diagnostics import source_lines
from synsema.lang.errors import SynError
from synsema.lang.outline import outline
from synsema.lang.resolution import Binding, resolve_module


class Occurrence(NamedTuple):
    """A name written in a file: where it starts and how many characters it takes."""
    path: str
    line: int
    col: int
    length: int

    def holds(self, line: int, col: int) -> bool:
        return self.line == line and self.col <= col <= self.col + self.length


class Symbol(NamedTuple):
    """A definition for the document outline: `kind` is task, test, type, enum, field, variant
    or variable; `children` are its fields, variants or nested tasks."""
    name: str
    kind: str
    line: int
    end_line: int
    selection: Occurrence
    children: list


class Target(NamedTuple):
    """What a name under the cursor is: a `binding` of this file, a `member` of a used module
    (`binding` is the `use`), a `predeclared` name, or `undefined`."""
    kind: str
    name: str
    binding: Binding | None = None


_WORD = r"(?<![\w.]){}(?!\w)"


class Document:
    """One version of one file, parsed and resolved (or the error that stopped the parser)."""

    def __init__(self, source: str, path: str, predeclared: Iterable[str] = ()):
        from synsema.lang.parser import parse
        self.source = source
        self.path = path
        self.lines = source_lines(source)
        self.predeclared = frozenset(predeclared)
        self.error: SynError | None = None
        self.module = None
        self.resolution = None
        try:
            self.module = parse(source, path)
        except SynError as problem:
            self.error = problem
            return
        self.resolution = resolve_module(self.module, self.predeclared)
        self._index = self._build_index()

    # ---------------------------------------------------------------- positions
    def _find(self, name: str, line: int, col: int = 1, member: bool = False) -> Occurrence:
        """Where `name` is written at or after (line, col), looking a few lines on."""
        pattern = re.compile(r"\.\s*" + re.escape(name) + r"(?!\w)" if member else _WORD.format(re.escape(name)))
        for number in range(line, min(line + 4, len(self.lines) + 1)):
            text = self.lines[number - 1]
            m = pattern.search(text, col - 1 if number == line else 0)
            if m:
                start = m.end() - len(name)
                return Occurrence(self.path, number, start + 1, len(name))
        return Occurrence(self.path, line, col, len(name))

    def binding_site(self, binding: Binding) -> Occurrence | None:
        """Where a binding writes its name (None for predeclared names)."""
        node = binding.node
        if node is None or node.span is None:
            return None
        span = node.span
        if type(node) is ast.Use:
            line = self.lines[span.line - 1]
            m = re.search(r"\bas\s+" + re.escape(binding.name) + r"\b", line)
            if m:
                return Occurrence(self.path, span.line, m.end() - len(binding.name) + 1, len(binding.name))
        if type(node) is ast.Try:   # `recover err`: the recover line follows the body
            last = max(n.span.line for stmt in node.body for n in ast.walk(stmt) if n.span is not None)
            for number in range(last, len(self.lines) + 1):
                if re.match(r"\s*recover\b", self.lines[number - 1]):
                    return self._find(binding.name, number)
        skip = 1 if type(node) in (ast.Let, ast.TaskDef, ast.TypeDef, ast.EnumDef, ast.Each) else 0
        col = span.col
        if skip:   # past the keyword, so `let let_x` finds the name and not the keyword
            col = span.col + len(self.lines[span.line - 1][span.col - 1:].split(None, 1)[0])
        return self._find(binding.name, span.line, col)

    def _build_index(self) -> list[tuple[Occurrence, Target]]:
        """Every written name this file resolves, with what it is."""
        index: list[tuple[Occurrence, Target]] = []
        for binding in self.resolution.bindings:
            site = self.binding_site(binding)
            if site is not None:
                index.append((site, Target("binding", binding.name, binding)))
        for ref in self.resolution.references:
            if type(ref.node) is ast.Name:
                site = Occurrence(self.path, ref.span.line, ref.span.col, len(ref.name))
            else:   # `set name to …`: the reference node is the statement
                site = self._find(ref.name, ref.span.line, ref.span.col + 3)
            index.append((site, self._target(ref.name, ref.where, ref.binding)))
        for node in ast.walk(self.module):
            if type(node) is ast.Attr and type(node.obj) is ast.Name:
                ref = self.resolution.reference_at(node.obj)
                if ref is not None and ref.binding is not None and ref.binding.kind == "use":
                    site = self._find(node.name, node.obj.span.line, node.obj.span.col + len(node.obj.name),
                                      member=True)
                    index.append((site, Target("member", node.name, ref.binding)))
        return index

    @staticmethod
    def _target(name: str, where: str, binding) -> Target:
        if binding is not None:
            return Target("binding", name, binding)
        return Target("predeclared" if where == "predeclared" else "undefined", name)

    def names(self) -> list[tuple[Occurrence, Target]]:
        """Every written name the file resolves, with what it is (empty when it does not parse)."""
        return list(self._index) if self.resolution is not None else []

    def target_at(self, line: int, col: int) -> tuple[Occurrence, Target] | None:
        if self.resolution is None:
            return None
        for site, target in self._index:
            if site.holds(line, col):
                return site, target
        return None

    # ---------------------------------------------------------------- navigation
    def definition(self, target: Target) -> list[Occurrence]:
        if target.kind == "binding":
            site = self.binding_site(target.binding)
            return [site] if site is not None else []
        if target.kind == "member":
            used = self.used_module(target.binding)
            if used is not None:
                found = used.top_level(target.name)
                if found is not None:
                    site = used.binding_site(found)
                    return [site] if site is not None else []
        return []

    def references(self, target: Target, include_declaration: bool = True) -> list[Occurrence]:
        found = []
        for site, other in self._index:
            if other.kind != target.kind or other.name != target.name:
                continue
            if target.kind in ("binding", "member") and other.binding is not target.binding:
                continue
            if not include_declaration and target.kind == "binding" and site == self.binding_site(target.binding):
                continue
            found.append(site)
        if target.kind == "member":
            used = self.used_module(target.binding)
            member = used.top_level(target.name) if used is not None else None
            if member is not None:
                found = [*used.references(Target("binding", target.name, member), include_declaration),
                         *found]
        return sorted(set(found))

    def top_level(self, name: str) -> Binding | None:
        """The module-level binding of `name`, if this file has one."""
        if self.resolution is None:
            return None
        for binding in self.resolution.bindings:
            if binding.name == name and binding.scope is self.resolution.globals:
                return binding
        return None

    def used_module(self, use: Binding) -> "Document | None":
        """The file a `use` binding loads, parsed (None when it cannot be read or parsed)."""
        path = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(self.path)), use.node.path))
        try:
            with open(path, encoding="utf-8") as handle:
                source = handle.read()
        except (OSError, UnicodeDecodeError):
            return None
        document = Document(source, path, self.predeclared)
        return document if document.resolution is not None else None

    def exports(self) -> list[tuple[str, str]]:
        """(name, kind) of what this file exports to a `use`: the `export`ed definitions."""
        found = []
        for stmt in self.module.body if self.module is not None else ():
            if getattr(stmt, "exported", False):
                found.append((stmt.name, _KIND_OF[type(stmt)]))
        return found

    # ---------------------------------------------------------------- editor views
    def symbols(self) -> list[Symbol]:
        if self.module is None:
            return []
        return [s for s in (self._symbol(stmt) for stmt in self.module.body) if s is not None]

    def _symbol(self, node) -> Symbol | None:
        t = type(node)
        if t not in _KIND_OF and t is not ast.TestBlock:
            return None
        end = _end_line(node)
        if t is ast.TestBlock:
            at = Occurrence(self.path, node.span.line, node.span.col, len(self.lines[node.span.line - 1]))
            return Symbol(node.name, "test", node.span.line, end, at, [])
        site = self._find(node.name, node.span.line, node.span.col + len(_KEYWORD_OF[t]))
        children = []
        if t is ast.TaskDef:
            children = [s for s in (self._symbol(stmt) for stmt in node.body)
                        if s is not None and s.kind == "task"]
        elif t is ast.TypeDef:
            for number, (field, _type) in enumerate(node.fields, node.span.line + 1):
                spot = self._find(field, number)
                children.append(Symbol(field, "field", spot.line, spot.line, spot, []))
        elif t is ast.EnumDef:
            for number, (variant, _fields) in enumerate(node.variants, node.span.line + 1):
                spot = self._find(variant, number)
                children.append(Symbol(variant, "variant", spot.line, spot.line, spot, []))
        return Symbol(node.name, _KIND_OF[t], node.span.line, end, site, children)

    def signature(self, binding: Binding) -> str | None:
        """How a task reads in source (`task f(a: number, b = 1)`), its doc comment after it."""
        node = binding.node
        if type(node) is not ast.TaskDef:
            return None
        (entry,) = [e for e in outline(ast.Module(self.path, [node]), self.source)][:1] or [None]
        params = ", ".join(p["name"] + (f": {p['type']}" if p["type"] else "")
                           + (f" = {p['default']}" if p["default"] is not None else "")
                           for p in (entry["parameters"] if entry else []))
        text = f"task {node.name}({params})"
        doc = entry["doc"] if entry else None
        return text + ("\n\n" + doc if doc else "")

    def visible_names(self, line: int) -> list[tuple[str, str]]:
        """(name, kind) of every name a program may write at `line`, innermost first."""
        if self.resolution is None:
            return []
        scope = self.resolution.scope_at(line)
        kinds = {}
        for binding in self.resolution.bindings:
            kinds.setdefault((id(binding.scope), binding.name), binding.kind)
        found: dict[str, str] = {}
        current = scope
        while current is not None:
            for name in current.slots:
                found.setdefault(name, kinds.get((id(current), name), "let"))
            current = current.parent
        return list(found.items())

    def literal_map_keys(self, name: str, line: int) -> list[str]:
        """The keys of the literal map a visible `let name be {…}` holds."""
        if self.module is None:
            return []
        keys: list[str] = []
        for node in ast.walk(self.module):
            if type(node) is ast.Let and node.name == name and type(node.value) is ast.MapLit \
                    and node.span.line <= line:
                keys = [k.value for k, _ in node.value.entries if type(k) is ast.Str]
        return keys


_KIND_OF = {ast.TaskDef: "task", ast.TypeDef: "type", ast.EnumDef: "enum", ast.Let: "variable"}
_KEYWORD_OF = {ast.TaskDef: "task", ast.TypeDef: "type", ast.EnumDef: "enum", ast.Let: "let"}


def _end_line(node) -> int:
    return max((n.span.line for n in ast.walk(node) if n.span is not None), default=node.span.line)
