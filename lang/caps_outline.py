"""`synsema code caps`: what a program asks for, read from its syntax tree without running it.

A reviewer deciding whether to run a script (or which `--cap-set` to give it) needs three
lists: what the program grants itself (top-level `require`), what each task declares for
`call_tool` (the `require` lines at the top of its body), and which `require` lines can never
grant anything (inside a sandbox, an `each` body, a match arm, a `recover` block, a test, or a task
body below its leading lines) — those usually mean the author expected an effect they will not
get. `sandbox` blocks are listed with the capabilities they keep. A scope written as a text
literal is shown as written; any other expression is reported as dynamic (its value is only
known when the program runs). The rules for what is top level follow the evaluator: `when`,
`while`, the `try` body and `trace`/`measure` blocks open no frame, so a `require` there still
grants when it runs.
"""

from __future__ import annotations

import json
import sys

from synsema.lang import ast

# Statements that open a frame of their own: a `require` below them never grants.
_OPENS_FRAME = {
    ast.Each: "inside an each loop",
    ast.Match: "inside a match arm",
    ast.TestBlock: "inside a test block",
}


def _cap(req, line: int) -> dict:
    scope = req.scope
    if scope is None:
        text, dynamic = None, False
    elif type(scope) is ast.Str:
        text, dynamic = scope.value, False
    elif type(scope) is ast.Template and all(type(part) is str for part in scope.parts):
        text, dynamic = "".join(scope.parts), False
    else:
        text, dynamic = None, True
    return {"capability": req.name, "scope": text, "dynamic": dynamic,
            "line": req.span.line if req.span else line}


def _caps(node, reqs) -> list[dict]:
    line = node.span.line if node.span else 0
    return [_cap(req, line) for req in reqs]


class _Collector:
    def __init__(self, program_only: bool = False):
        self.program_only = program_only  # look only where a `require` can still grant
        self.program: list[dict] = []
        self.tasks: list[dict] = []
        self.sandboxes: list[dict] = []
        self.ignored: list[dict] = []

    def visit(self, node, why: str | None) -> None:
        """Record what is under `node`; `why` is None in the program's own frame, else the reason
        a `require` there cannot grant."""
        if self.program_only and (why is not None or isinstance(node, ast.Expr)):
            return   # a `require` is a statement: below an expression there is none in this frame
        kind = type(node)
        if kind is ast.Require:
            caps = _caps(node, node.caps)
            if why is None:
                self.program.extend(caps)
            else:
                self.ignored.extend({**cap, "why": why} for cap in caps)
            return
        if kind is ast.TaskDef:
            self.task(node)
            return
        if kind is ast.Try:  # the try body shares the frame; recover opens one
            for stmt in node.body:
                self.visit(stmt, why)
            for stmt in node.recover:
                self.visit(stmt, why or "inside a recover block")
            return
        if kind in (ast.Sandbox, ast.SandboxExpr):
            self.sandboxes.append({"line": node.span.line if node.span else 0,
                                   "under": None if node.under is None else _caps(node, node.under)})
            why = "inside a sandbox block"
        elif kind in _OPENS_FRAME:
            why = why or _OPENS_FRAME[kind]
        for child in ast.children(node):
            self.visit(child, why)

    def task(self, node) -> None:
        body = list(node.body)
        leading = []
        while body and type(body[0]) is ast.Require:
            leading.extend(body.pop(0).caps)
        self.tasks.append({"name": node.name, "line": node.span.line if node.span else 0,
                           "requires": _caps(node, leading)})
        for stmt in body:
            self.visit(stmt, f"inside task '{node.name}', below its leading require lines")


def caps_outline(module: ast.Module) -> dict:
    """`{file, program, tasks, sandboxes, ignored}`.

    `add_needs` adds `needed` and `missing` (lists of capability names) to the program and
    to each task. Each capability is `{capability, scope, dynamic, line}`: `scope` null means any scope unless
    `dynamic` is true (a computed scope). Tasks are `{name, line, requires}`, sandboxes
    `{line, under}` (`under` null for a bare sandbox), ignored entries add `why`.
    """
    collector = _Collector()
    for stmt in module.body:
        collector.visit(stmt, None)
    return {"file": module.file, "program": collector.program, "tasks": collector.tasks,
            "sandboxes": collector.sandboxes, "ignored": collector.ignored}


def program_grants(module: ast.Module) -> list[dict]:
    """`caps_outline(module)["program"]`, found without looking below anything that opens a
    frame (no `require` there grants)."""
    collector = _Collector(program_only=True)
    for stmt in module.body:
        collector.visit(stmt, None)
    return collector.program


def _shown(cap: dict) -> str:
    if cap["dynamic"]:
        return f"{cap['capability']}(<computed>)"
    if cap["scope"] is None:
        return cap["capability"]
    return f"{cap['capability']}({json.dumps(cap['scope'], ensure_ascii=False)})"


def _lines(caps: list[dict], extra=lambda cap: "") -> list[str]:
    return [f"    {_shown(cap):<40} line {cap['line']}{extra(cap)}" for cap in caps]


def _needs(who: str, entry: dict) -> str:
    needed = ", ".join(entry["needed"]) or "nothing"
    missing = ", ".join(entry["missing"])
    line = f"  {who} needs: {needed}"
    if missing:
        line += f" — missing: {missing} (add: require {missing})"
    return line


def render(outline: dict) -> str:
    """The human form: one section per list, capabilities written as a program would."""
    out = [outline["file"], "  program grants:" + ("" if outline["program"] else " nothing")]
    out += _lines(outline["program"])
    if "needed" in outline:
        out.append(_needs("program", outline))
    for task in outline["tasks"]:
        out.append(f"  task {task['name']} (line {task['line']}) declares:"
                   + ("" if task["requires"] else " nothing"))
        out += _lines(task["requires"])
        if "needed" in task:
            out.append("  " + _needs("it", task))
    for box in outline["sandboxes"]:
        kept = "nothing but stdout" if box["under"] is None else \
            ", ".join(_shown(cap) for cap in box["under"]) + " (and stdout)"
        out.append(f"  sandbox (line {box['line']}) keeps: {kept}")
    if outline["ignored"]:
        out.append("  never grant (a require there is a no-op):")
        out += _lines(outline["ignored"], lambda cap: f" — {cap['why']}")
    return "\n".join(out) + "\n"


def add_needs(outline: dict, module, builtins, predeclared, auto_granted) -> dict:
    """Add what the program and each task need (`needed`) and what no `require` grants
    (`missing`), from the gated builtins they call (`lang.lint.capability_report`)."""
    from synsema.lang.lint import capability_report
    from synsema.lang.resolution import resolve_module
    report = capability_report(module, builtins, resolve_module(module, predeclared), auto_granted)
    outline["needed"] = report["program"]["needed"]
    outline["missing"] = report["program"]["missing"]
    by_line = {(t["name"], t["line"]): t for t in report["tasks"]}
    for task in outline["tasks"]:
        found = by_line.get((task["name"], task["line"]), {"needed": [], "missing": []})
        task["needed"], task["missing"] = found["needed"], found["missing"]
    return outline


def run_code_caps(path: str, as_json: bool, builtins=None, predeclared=(), auto_granted=()) -> int:
    """`synsema code caps FILE [--json]`: 0 printed, 1 the file does not parse, 2 unreadable.
    With `builtins` (see `lang.lint`), what is needed and missing is reported too."""
    from synsema.lang.errors import SynError
    from synsema.lang.parser import parse
    try:
        with open(path, encoding="utf-8") as handle:
            source = handle.read()
    except (OSError, UnicodeDecodeError) as problem:
        sys.stderr.write(f"synsema: cannot read {path}: {getattr(problem, 'strerror', None) or problem}\n")
        return 2
    try:
        module = parse(source, path)
    except SynError as error:
        sys.stderr.write(error.report() + "\n")
        return 1
    outline = caps_outline(module)
    if builtins is not None:
        add_needs(outline, module, builtins, predeclared, auto_granted)
    sys.stdout.write(json.dumps(outline, ensure_ascii=False, indent=2) + "\n" if as_json else render(outline))
    return 0
