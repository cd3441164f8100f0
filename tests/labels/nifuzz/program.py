"""A generated program as a tree of statements, so it can be printed and cut down.

A `Stmt` is one source line (`head`) with the block indented under it (`body`) and the clauses
that continue it at its own indentation (`clauses`: `otherwise`, `otherwise when …`, `recover e`),
each with its own block. The minimiser removes statements and clauses from this tree and prints
the rest; nothing else needs to know Synsema's syntax.
"""

from __future__ import annotations

from dataclasses import dataclass, field

INDENT = "    "
SECRET_LINE = 'let s be private(int(args()[0]), "bank")'
CONTROL_LINE = "let s be int(args()[0])"   # the same program with the secret unlabelled


@dataclass
class Stmt:
    head: str
    body: list["Stmt"] = field(default_factory=list)
    clauses: list[tuple[str, list["Stmt"]]] = field(default_factory=list)
    pinned: bool = False   # the minimiser keeps it (the line that reads the secret)

    def lines(self, depth: int = 0) -> list[str]:
        out = [INDENT * depth + self.head]
        for stmt in self.body:
            out += stmt.lines(depth + 1)
        for head, block in self.clauses:
            out.append(INDENT * depth + head)
            for stmt in block:
                out += stmt.lines(depth + 1)
        return out


@dataclass
class Program:
    stmts: list[Stmt]

    def source(self, control: bool = False) -> str:
        """The program text; `control` reads the secret without labelling it."""
        lines = [line for stmt in self.stmts for line in stmt.lines()]
        if control:
            lines = [CONTROL_LINE if line == SECRET_LINE else line for line in lines]
        return "\n".join(lines) + "\n"

    def statement_count(self) -> int:
        def count(stmts):
            return sum(1 + count(s.body) + sum(count(b) for _, b in s.clauses) for s in stmts)
        return count(self.stmts)
