"""`synsema check`'s linter: mistakes a program would make at run time, found without running it.

Built on the one resolver (`lang.resolve`), so "undefined" means exactly what the evaluator
would find undefined. Findings:

* errors — `undefined-name` (a read or `set` of a name no frame or global binds),
  `arity` (a call of a builtin, or of a task or lambda the program never rebinds, with too many
  or too few arguments), `unknown-keyword` (a named argument the callee does not take),
  `missing-capability` (a capability-gated builtin called where no `require` grants it; the
  hint is the `require …` line to add);
* warnings — `unreachable` (statements after `give`, `stop` or `raise` in the same block).

Only what is certain is reported: a name a task rebinds with `set`, a callee reached through
a map or a module, or a call in a branch that may never run is still checked where the rule
holds for every run. `lang` imports nothing from the runtime, so the caller passes what
exists before a program starts: `builtins` maps each builtin name to its declaration (an
object with `min_args`, `max_args` (None: any), `named`, `cap` and `signature()`, as
`stdlib.registry.BuiltinSpec` has), `predeclared` lists every global name (builtins,
constants, `math`), and `auto_granted` the capabilities a run grants without `require`.
"""

from __future__ import annotations

from typing import Iterable, Mapping

from synsema.lang import ast
from synsema.lang.caps_outline import program_grants
from synsema.lang.errors import Span
from synsema.lang.resolve import Resolution, resolve_module
from synsema.lang.suggest import did_you_mean


class Finding:
    """One problem: `severity` is "error" or "warning"; `code` a stable name (see above)."""

    __slots__ = ("severity", "code", "message", "span", "hint")

    def __init__(self, severity: str, code: str, message: str, span: Span | None, hint: str | None = None):
        self.severity = severity
        self.code = code
        self.message = message
        self.span = span
        self.hint = hint

    def headline(self) -> str:
        where = f"{self.span}: " if self.span is not None else ""
        return f"{where}{self.severity}: {self.message} [{self.code}]"

    def __repr__(self) -> str:
        return f"Finding({self.headline()!r})"


def _covers(granted: str, needed: str) -> bool:
    """`file` grants `file.read` and `file.write`; a name grants itself."""
    return granted == needed or needed.startswith(granted + ".")


def call_parts(node) -> tuple[object, int, list[str]]:
    """(callee node, positional count, named argument names) of a Call or a Pipe into a call."""
    if type(node) is ast.Pipe:
        step = node.step
        if type(step) is ast.Call:
            return step.func, len(step.args) + 1, [k for k, _ in step.named]
        return step, 1, []
    return node.func, len(node.args), [k for k, _ in node.named]


class _Linter:
    def __init__(self, module, builtins: Mapping, predeclared: Iterable[str], auto_granted: Iterable[str]):
        self.module = module
        self.builtins = builtins
        self.resolution: Resolution = resolve_module(module, predeclared)
        self.survey = Survey(module)
        self.findings: list[Finding] = []
        self.auto = tuple(auto_granted)

    def add(self, severity, code, message, span, hint=None) -> None:
        self.findings.append(Finding(severity, code, message, span, hint))

    # ------------------------------------------------------------ names
    def undefined_names(self) -> None:
        for ref in self.resolution.undefined():
            names = self.resolution.candidates(ref.scope)
            guess = did_you_mean(ref.name, names)
            hint = f"did you mean '{guess}'?" if guess else None
            if ref.is_set:
                self.add("error", "undefined-name", f"cannot set undefined variable '{ref.name}'",
                         ref.span, hint or f"declare it first: let {ref.name} be …")
            else:
                self.add("error", "undefined-name", f"undefined name '{ref.name}'", ref.span, hint)

    # ------------------------------------------------------------ calls
    def callee(self, func) -> tuple[str, object] | None:
        """("builtin", declaration) or ("task", params) when the callee is certain."""
        if type(func) is ast.Attr and type(func.obj) is ast.Name:
            ref = self.resolution.reference_at(func.obj)
            dotted = f"{func.obj.name}.{func.name}"
            if ref is not None and ref.where == "predeclared" and dotted in self.builtins:
                return "builtin", self.builtins[dotted]
            return None
        if type(func) is not ast.Name:
            return None
        ref = self.resolution.reference_at(func)
        if ref is None:
            return None
        if ref.where == "predeclared" and func.name in self.builtins:
            return "builtin", self.builtins[func.name]
        binding = ref.binding
        if binding is None or binding.assigned:
            return None
        if binding.kind == "task":
            return "task", binding.node
        if binding.kind == "let" and type(binding.node.value) is ast.Lambda:
            return "task", binding.node.value
        return None

    def calls(self) -> None:
        for node in self.survey.calls:
            self.call(node)

    def call(self, node) -> None:
        func, given, named = call_parts(node)
        found = self.callee(func)
        if found is None:
            return
        kind, what = found
        span = func.span or node.span
        if kind == "builtin":
            self.builtin_call(what, given, named, span)
        else:
            self.task_call(what, given, named, span)

    def builtin_call(self, spec, given: int, named: list[str], span) -> None:
        low, high = spec.min_args, spec.max_args
        if given < low or (high is not None and given > high):
            if high is not None and given > high:  # worded as the run-time error is
                takes = f"at most {high}"
            elif low == high:
                takes = str(low)
            else:
                takes = f"at least {low}"
            self.add("error", "arity", f"{spec.name}() takes {takes} argument{'s' if takes != '1' else ''}, "
                     f"got {given}", span, f"call it as {spec.signature()}")
        for key in named:
            if key not in spec.named:
                accepted = ", ".join(spec.named)
                guess = did_you_mean(key, spec.named)
                self.add("error", "unknown-keyword", f"{spec.name}() has no named argument '{key}'", span,
                         f"did you mean '{guess}'?" if guess else
                         (f"it accepts: {accepted}" if accepted else f"pass it by position: {spec.signature()}"))

    def task_call(self, node, given: int, named: list[str], span) -> None:
        params = node.params
        names = [p.name for p in params]
        label = f"task '{node.name}'" if type(node) is ast.TaskDef else "the lambda"
        shown = f"{node.name if type(node) is ast.TaskDef else 'lambda'}({', '.join(names)})"
        if given > len(params):
            self.add("error", "arity", f"{label} takes {len(params)} argument{'s' if len(params) != 1 else ''}, "
                     f"got {given}", span, f"call it as {shown}")
            return
        for key in named:
            if key not in names:
                guess = did_you_mean(key, names)
                self.add("error", "unknown-keyword", f"{label} has no parameter '{key}'", span,
                         f"did you mean '{guess}'?" if guess else f"call it as {shown}")
        for position, p in enumerate(params):
            if position >= given and p.default is None and p.name not in named:
                self.add("error", "arity", f"{label} is missing argument '{p.name}'", span,
                         f"call it as {shown}, or give the parameter a default")
                break

    # ------------------------------------------------------------ unreachable
    def unreachable(self) -> None:
        for node in self.survey.blocks:
            for body in _bodies(node):
                for i, stmt in enumerate(body[:-1]):
                    if type(stmt) in (ast.Give, ast.Stop, ast.Raise):
                        word = {ast.Give: "give", ast.Stop: "stop", ast.Raise: "raise"}[type(stmt)]
                        line = stmt.span.line if stmt.span else "?"
                        self.add("warning", "unreachable", f"unreachable code: it comes after the "
                                 f"{word} on line {line}", body[i + 1].span,
                                 f"remove it, or move it above the {word}")
                        break

    # ------------------------------------------------------------ capabilities
    def capabilities(self) -> None:
        report = capability_report(self.module, self.builtins, self.resolution, self.auto, self.survey)
        for site in report["sites"]:
            if site["missing"]:
                cap = site["capability"]
                self.add("error", "missing-capability",
                         f"{site['builtin']}() needs the capability '{cap}', which no require grants",
                         site["span"], f"add `require {cap}` at the top of the program")


_ONE_BODY = (ast.Module, ast.TaskDef, ast.Each, ast.While, ast.Sandbox, ast.TestBlock, ast.Marker)
_HOLDS_BODIES = frozenset({*_ONE_BODY, ast.When, ast.Try, ast.Match})


def _bodies(node) -> list[list]:
    """The statement lists directly inside `node`."""
    t = type(node)
    if t in _ONE_BODY:
        return [node.body]
    if t is ast.When:
        return [b for _, b in node.branches] + ([node.otherwise] if node.otherwise else [])
    if t is ast.Try:
        return [node.body, node.recover]
    if t is ast.Match:
        return [a.body for a in node.arms] + ([node.otherwise] if node.otherwise else [])
    return []


class Survey:
    """What the rules need from one walk of a module, each list in walk order (`ast.walk`):
    `calls`, every call to check (a Call, except the step of a pipe, and every Pipe);
    `sites`, every Call and Pipe with the innermost task holding it (None at program level);
    `tasks`, every task definition; `blocks`, every node that holds statement lists."""

    def __init__(self, module):
        self.calls: list = []
        self.sites: list[tuple] = []
        self.tasks: list = []
        self.blocks: list = []
        steps: set[int] = set()   # a pipe's step comes after the pipe in walk order
        for node, task in ast.walk_in_tasks(module):
            t = type(node)
            if t is ast.Call:
                self.sites.append((node, task))
                if id(node) not in steps:
                    self.calls.append(node)
            elif t is ast.Pipe:
                self.sites.append((node, task))
                self.calls.append(node)
                steps.add(id(node.step))
            elif t in _HOLDS_BODIES:
                self.blocks.append(node)
                if t is ast.TaskDef:
                    self.tasks.append(node)


def task_requires(task) -> list[str]:
    """The capabilities of the `require` lines at the top of a task's body."""
    names = []
    for stmt in task.body:
        if type(stmt) is not ast.Require:
            break
        names.extend(c.name for c in stmt.caps)
    return names


def capability_report(module, builtins: Mapping, resolution: Resolution, auto_granted: Iterable[str],
                      survey: Survey | None = None) -> dict:
    """What each task and the program need, and what no `require` grants.

    A task needs the capabilities of the gated builtins it calls by name and, transitively, of
    the tasks it calls; the program needs what its top level and the tasks it calls need.
    Granted to a task: the program's top-level `require` lines, the task's own leading ones
    and `auto_granted`. Returns `{program: {needed, missing}, tasks: [{name, line, needed,
    missing}], sites: [{capability, builtin, span, task, missing}]}` (sites: every call).
    `survey` is the module's `Survey` when the caller has one.
    """
    auto = tuple(auto_granted)
    survey = survey or Survey(module)
    grants = [c["capability"] for c in program_grants(module)]
    tasks = survey.tasks
    direct: dict[int, set[str]] = {id(module): set()}   # id(task or module) -> capabilities of its own calls
    callees: dict[int, set[int]] = {id(module): set()}  # id(task or module) -> ids of tasks it calls
    for task in tasks:
        direct[id(task)] = set()
        callees[id(task)] = set()
    sites = []
    for node, task in survey.sites:
        owner = id(task if task is not None else module)
        func, _, _ = call_parts(node)
        ref = resolution.reference_at(func) if type(func) is ast.Name else None
        if ref is not None and ref.where == "predeclared" and func.name in builtins:
            cap = builtins[func.name].cap
            if cap:
                direct[owner].add(cap)
                sites.append({"capability": cap, "builtin": func.name, "span": func.span, "task": task})
        elif ref is not None and ref.binding is not None and ref.binding.kind == "task":
            callees[owner].add(id(ref.binding.node))

    def needed(key: int) -> set[str]:
        seen, todo, caps = set(), [key], set()
        while todo:
            current = todo.pop()
            if current in seen:
                continue
            seen.add(current)
            caps |= direct.get(current, set())
            todo.extend(callees.get(current, ()))
        return caps

    def missing(caps: set[str], task) -> list[str]:
        granted = [*grants, *auto, *(task_requires(task) if task is not None else ())]
        return sorted(c for c in caps if not any(_covers(g, c) for g in granted))

    for site in sites:
        site["missing"] = bool(missing({site["capability"]}, site["task"]))
    program_needed = needed(id(module))
    return {
        "program": {"needed": sorted(program_needed), "missing": missing(program_needed, None)},
        "tasks": [{"name": t.name, "line": t.span.line if t.span else 0, "needed": sorted(needed(id(t))),
                   "missing": missing(needed(id(t)), t)} for t in tasks],
        "sites": sites,
    }


def lint(module, builtins: Mapping, predeclared: Iterable[str] = (), auto_granted: Iterable[str] = ()) -> list[Finding]:
    """Every finding for one parsed module, in source order."""
    linter = _Linter(module, builtins, set(predeclared) | set(builtins), auto_granted)
    linter.undefined_names()
    linter.calls()
    linter.unreachable()
    linter.capabilities()
    return sorted(linter.findings, key=lambda f: (f.span.line, f.span.col) if f.span else (0, 0))
