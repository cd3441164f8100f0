"""Noninterference as a test: run a program with two secrets and decide whether it leaked.

A violation is two runs under `--labels` that both end normally or with an ordinary (public)
error — neither stopped by a `label_violation` or a secret error — and yet differ in stdout,
stderr, exit code, the files written or the audit records. A run that ends at a violation or
a secret error tells one bit by ending (termination-insensitive noninterference, README.md), so
such a pair is not compared. Decision: a pair where one run ends normally and the other with an
ordinary error counts too — an ordinary error is public output (its message and position go to
stderr), so the labels must not let the secret decide it.

The control runs the same program with the secret unlabelled (`let s be int(args()[0])`): the
same two secrets must then make a difference in a good share of the programs, or the generator
would not be testing anything.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from .harness import Observation, run_in_process
from .program import Program, Stmt

COMPARABLE = ("ok", "error")


@dataclass
class Pair:
    first: Observation
    second: Observation

    @property
    def comparable(self) -> bool:
        return self.first.outcome in COMPARABLE and self.second.outcome in COMPARABLE

    @property
    def differs(self) -> list[str]:
        return self.first.channels(self.second)

    @property
    def leaked(self) -> list[str]:
        """The channels a violation shows (empty when the pair is not one)."""
        return self.differs if self.comparable else []


def run_pair(source: str, secrets: tuple[int, int], runner=run_in_process) -> Pair:
    return Pair(runner(source, secrets[0]), runner(source, secrets[1]))


@dataclass
class Verdict:
    seed: int
    secrets: tuple[int, int]
    labelled: Pair
    control: Pair | None      # None when the campaign skipped the control for this program
    outcomes: tuple[str, str] = field(init=False)

    def __post_init__(self):
        self.outcomes = (self.labelled.first.outcome, self.labelled.second.outcome)

    @property
    def runs(self) -> tuple[Observation, ...]:
        pairs = (self.labelled,) if self.control is None else (self.labelled, self.control)
        return tuple(run for pair in pairs for run in (pair.first, pair.second))

    @property
    def ran(self) -> bool:
        """Parsed and ran to an end the language defines, in every run."""
        return all(r.outcome not in ("parse", "crash") for r in self.runs)

    @property
    def crashed(self) -> bool:
        return any(r.outcome == "crash" for r in self.runs)


def judge(program: Program, seed: int, secrets: tuple[int, int], control: bool = True) -> Verdict:
    return Verdict(seed, secrets, run_pair(program.source(), secrets),
                   run_pair(program.source(control=True), secrets) if control else None)


# ---------------------------------------------------------------------- minimising
def _blocks(stmts: list[Stmt]):
    """Every statement list in the tree (the top level, each body, each clause's block)."""
    yield stmts
    for stmt in stmts:
        yield from _blocks(stmt.body)
        for _, block in stmt.clauses:
            yield from _blocks(block)


def _candidates(program: Program):
    """Smaller programs, biggest cuts first: drop a statement; put a compound statement's
    block (or one clause's block) in its place; drop a clause."""
    blocks = list(_blocks(program.stmts))
    for b, block in enumerate(blocks):
        for i, stmt in enumerate(block):
            if stmt.pinned:
                continue
            yield ("drop", b, i, None)
    for b, block in enumerate(blocks):
        for i, stmt in enumerate(block):
            if stmt.body and not stmt.head.startswith(("task ", "enum ", "match ")):
                yield ("hoist", b, i, -1)
            for c in range(len(stmt.clauses)):
                yield ("unclause", b, i, c)
                if not stmt.head.startswith("try"):
                    yield ("hoist", b, i, c)


def _apply(program: Program, edit) -> Program:
    kind, b, i, c = edit
    new = copy.deepcopy(program)
    block = list(_blocks(new.stmts))[b]
    stmt = block[i]
    if kind == "drop":
        del block[i]
    elif kind == "unclause":
        del stmt.clauses[c]
    else:
        block[i:i + 1] = stmt.body if c == -1 else stmt.clauses[c][1]
    return new


def minimise(program: Program, secrets: tuple[int, int], channels: list[str], budget: int = 300,
             runner=run_in_process) -> Program:
    """Delta debugging over statements: keep every cut after which the two secrets still show
    a violation on one of the same channels; stop when no single cut works (or after `budget`
    trial runs)."""
    wanted = set(channels)

    def still_leaks(candidate: Program) -> bool:
        return bool(wanted & set(run_pair(candidate.source(), secrets, runner).leaked))

    trials = 0
    changed = True
    while changed and trials < budget:   # passes until one changes nothing
        changed = False
        position = 0
        edits = list(_candidates(program))
        while position < len(edits) and trials < budget:
            candidate = _apply(program, edits[position])
            trials += 1
            if still_leaks(candidate):
                program = candidate
                changed = True
                edits = list(_candidates(program))   # the cuts before `position` failed already
            else:
                position += 1
    return program
