"""`synsema check`'s linter: mistakes a program would make at run time, found without running it.

Built on the one resolver (`lang.resolve`), so "undefined" means exactly what the evaluator
would find undefined. Findings:

* errors — `undefined-name` (a read or `set` of a name no frame or global binds),
  `unsupported` (a call of a tier-C builtin, which always refuses),
  `arity` (a call of a builtin, or of a task or lambda the program never rebinds, with too many
  or too few arguments), `unknown-keyword` (a named argument the callee does not take),
  `missing-capability` (a capability-gated builtin called where no `require` grants it; the
  hint is the `require …` line to add), `no-methods` (`xs.append(3)` or `xs.length` on a name
  that certainly holds a list, text or number), `give-outside-task` (a `give` at program level);
* warnings — `unreachable` (statements after `give`, `stop` or `raise` in the same block),
  `shadowed-alias` (a local name that hides a `use … as alias`, so `alias.x` there reads the
  local value), `no-export` (`alias.x` where the module, when it can be read, does not export
  `x`; the hint is the nearest export, or how to export a name the module defines).

Every message and hint comes from `lang.hints`, as the evaluator's do, so `check`, `run` and
the language server word a mistake the same way; a finding whose rewrite is mechanical carries
it in `fixes` (a list of `lang.hints.Fix`).

Only what is certain is reported: a name a task rebinds with `set`, a callee reached through
a map or a module, or a call in a branch that may never run is still checked where the rule
holds for every run. `lang` imports nothing from the runtime, so the caller passes what
exists before a program starts: `builtins` maps each builtin name to its declaration (an
object with `min_args`, `max_args` (None: any), `named`, `cap` and `signature()`, as
`stdlib.registry.BuiltinSpec` has, and `unsupported` true for a tier-C one), `predeclared` lists
every global name (builtins, constants, `math`), `auto_granted` the capabilities a run grants
without `require`, and `tier_c` names the tier-C family of a name (None for other names).
"""

from __future__ import annotations

from typing import Callable, Iterable, Mapping

from synsema.lang import ast, hints
from synsema.lang import grants as narrowest
from synsema.lang.caps_outline import program_grants
from synsema.lang.errors import Span
from synsema.lang.resolution import Resolution, resolve_module
from synsema.lang.suggest import did_you_mean
from synsema.lang.unparse import unparse


class Finding:
    """One problem: `severity` is "error" or "warning"; `code` a stable name (see above)."""

    __slots__ = ("severity", "code", "message", "span", "hint", "fixes")

    def __init__(self, severity: str, code: str, message: str, span: Span | None, hint: str | None = None,
                 fixes: list | None = None):
        self.severity = severity
        self.code = code
        self.message = message
        self.span = span
        self.hint = hint
        self.fixes = fixes or []

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
    def __init__(self, module, builtins: Mapping, predeclared: Iterable[str], auto_granted: Iterable[str],
                 tier_c: Callable[[str], str | None], uses: Callable | None = None):
        self.module = module
        self.uses = uses
        self.builtins = builtins
        self.resolution: Resolution = resolve_module(module, predeclared)
        self.survey = Survey(module)
        self.findings: list[Finding] = []
        self.auto = tuple(auto_granted)
        self.tier_c = tier_c
        self.unsupported = frozenset(n for n, spec in builtins.items() if getattr(spec, "unsupported", False))

    def add(self, severity, code, message, span, hint=None, fixes=None) -> None:
        self.findings.append(Finding(severity, code, message, span, hint, fixes))

    # ------------------------------------------------------------ names
    def undefined_names(self) -> None:
        for ref in self.resolution.undefined():
            family = self.tier_c(ref.name)
            if family is not None and not ref.is_set:
                self.add("error", "unsupported", hints.unsupported(ref.name, family), ref.span)
                continue
            names = self.resolution.candidates(ref.scope)
            if ref.is_set:
                guess = did_you_mean(ref.name, (n for n in names if n not in self.unsupported))
                self.add("error", "undefined-name", f"cannot set undefined variable '{ref.name}'",
                         ref.span, f"did you mean '{guess}'?" if guess else f"declare it first: let {ref.name} be …")
                continue
            suffix, hint, fixes = hints.undefined_name(ref.name, ref.span, names, self.unsupported)
            self.add("error", "undefined-name", f"undefined name '{ref.name}'{suffix}", ref.span, hint, fixes)

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
            if type(node) is ast.Call and type(func) is ast.Attr:
                self.method_call(node, func)
            return
        kind, what = found
        span = func.span or node.span
        if kind == "builtin":
            self.builtin_call(what, given, named, span)
        else:
            self.task_call(what, given, named, span)

    def builtin_call(self, spec, given: int, named: list[str], span) -> None:
        if getattr(spec, "unsupported", False):
            family = self.tier_c(spec.name)
            self.add("error", "unsupported", hints.unsupported(spec.name, family or "unsupported"), span)
            return
        extra = [key for key in named if key not in spec.named]
        if extra:  # as the evaluator does: the first unknown name, before the count
            self.add("error", "unknown-keyword", hints.builtin_named(spec.name, extra[0], spec.named), span,
                     f"call it as {spec.signature()}")
            return
        low, high = spec.min_args, spec.max_args
        if given < low or (high is not None and given > high):
            self.add("error", "arity", hints.builtin_arity(spec.name, low, high, given), span,
                     f"call it as {spec.signature()}")

    def task_call(self, node, given: int, named: list[str], span) -> None:
        params = node.params
        names = [p.name for p in params]
        name = node.name if type(node) is ast.TaskDef else None
        label = hints.task_label(name)
        shown = hints.call_as(name, names)
        if given > len(params):
            self.add("error", "arity", hints.task_too_many(label, len(params), given), span, shown)
            return
        for key in named:
            if key not in names:
                self.add("error", "unknown-keyword", hints.unknown_parameter(label, key, names), span)
        for position, p in enumerate(params):
            if position >= given and p.default is None and p.name not in named:
                self.add("error", "arity", hints.task_missing(label, p.name), span, shown)
                break

    # ------------------------------------------------------------ methods and properties
    def plain_value(self, node) -> str | None:
        """The kind of value ("list", "text", "number") `node` certainly holds, when it is a
        literal or a name bound once by `let` to one and never `set`; else None."""
        kind = _LITERAL_KINDS.get(type(node))
        if kind is not None or type(node) is not ast.Name:
            return kind
        ref = self.resolution.reference_at(node)
        binding = ref.binding if ref is not None else None
        if binding is None or binding.assigned or binding.kind != "let":
            return None
        return _LITERAL_KINDS.get(type(binding.node.value))

    def method_call(self, node, func) -> None:
        """`xs.append(3)` on a list: the evaluator refuses every method call on a non-map."""
        if self.plain_value(func.obj) is None:
            return
        target = func.obj.name if type(func.obj) is ast.Name else None
        message, form = hints.no_methods(func.name, target)
        fixes = []
        if target is not None and form is not None and not node.named:
            old = unparse(node, width=10_000)
            args = ", ".join(unparse(a, width=10_000) for a in node.args)
            function = hints.METHODS[func.name]
            new = f"set {target} to append({target}, {args})" if function == "append" and \
                self.is_statement(node) else f"{function}({', '.join([target, *([args] if args else [])])})"
            fixes = [hints.replace(func.span, old, new)]
        self.add("error", "no-methods", message, func.span, None, fixes)

    def is_statement(self, node) -> bool:
        return id(node) in self.survey.statements

    def properties(self) -> None:
        """`xs.length` on a list or text: a map key read of a value that is not a map."""
        for node in self.survey.attrs:
            kind = self.plain_value(node.obj)
            if kind is None:
                continue
            target = node.obj.name if type(node.obj) is ast.Name else None
            form = hints.no_property(node.name, kind, target)
            if form is None:
                self.add("error", "no-methods", f"Cannot access property '{node.name}' of {kind}", node.span)
                continue
            fixes = [hints.replace(node.span, f"{target}.{node.name}", form)] if target else []
            self.add("error", "no-methods", f"Cannot access property '{node.name}' of {kind}", node.span,
                     f"write {form}", fixes)

    # ------------------------------------------------------------ modules
    def aliases(self) -> dict:
        """alias -> its `use` statement, for the `use` lines of this module."""
        return {b.name: b.node for b in self.resolution.bindings if b.kind == "use"}

    def shadowed_aliases(self) -> None:
        """A local name equal to a module alias: inside its frame, `alias.x` reads the local."""
        aliases = self.aliases()
        if not aliases:
            return
        found = {}
        for binding in self.resolution.bindings:
            if binding.kind not in ("use", "predeclared") and binding.name in aliases:
                found[id(binding.node), binding.name] = binding.node
        for node in ast.walk(self.module):   # a second binding in one frame is not a Binding
            if type(node) in (ast.Let, ast.TaskDef, ast.TypeDef, ast.EnumDef) and node.name in aliases:
                found[id(node), node.name] = node
        for (_, name), node in found.items():
            use = aliases[name]
            message, hint = hints.shadowed_alias(name, use.path, use.span.line if use.span else 0)
            self.add("warning", "shadowed-alias", message, node.span or use.span, hint)

    def missing_exports(self) -> None:
        """`alias.x` where the module `alias` names (read from disk by `uses`) exports no `x`."""
        if self.uses is None or not self.aliases():   # no `use` line: no `alias.x` to look at
            return
        modules = {}
        for node in ast.walk(self.module):
            if type(node) is not ast.Attr or type(node.obj) is not ast.Name:
                continue
            ref = self.resolution.reference_at(node.obj)
            binding = ref.binding if ref is not None else None
            if binding is None or binding.kind != "use" or binding.assigned:
                continue
            if id(binding.node) not in modules:
                modules[id(binding.node)] = self.uses(binding.node)
            used = modules[id(binding.node)]
            if used is None:
                continue
            exported, defined = _exports(used)
            if node.name not in exported:
                message, hint = hints.no_export(node.obj.name, node.name, exported, defined.get(node.name))
                self.add("warning", "no-export", message, node.span, hint)

    # ------------------------------------------------------------ give at program level
    def top_level_give(self) -> None:
        todo = list(self.module.body)
        while todo:
            stmt = todo.pop()
            t = type(stmt)
            if t is ast.Give:
                self.add("error", "give-outside-task", hints.TOP_LEVEL_GIVE, stmt.span, hints.TOP_LEVEL_GIVE_HINT)
            elif t is not ast.TaskDef and t is not ast.TestBlock:
                for body in _bodies(stmt):
                    todo.extend(body)

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
                line, at = f"require {site['grant']}", self.preamble_end()
                self.add("error", "missing-capability",
                         f"{site['builtin']}() needs the capability '{cap}', which no require grants",
                         site["span"], f"add `{line}` at the top of the program",
                         [hints.Fix(f"Add '{line}'", [hints.Edit(at, 1, at, 1, line + "\n")])])

    def preamble_end(self) -> int:
        """The line a new `require` goes on: after the program's leading `intent` and `require`
        lines, else before its first statement."""
        line = 1
        for stmt in self.module.body:
            if type(stmt) not in (ast.Require, ast.Intent):
                return line if line > 1 else (stmt.span.line if stmt.span else 1)
            line = _last_line(stmt) + 1
        return line


_DEFINES = {ast.Let: "let", ast.TaskDef: "task", ast.TypeDef: "type", ast.EnumDef: "enum", ast.Use: "use"}


def _exports(module) -> tuple[set[str], dict[str, str]]:
    """(the names `module` exports, each name its top level defines -> the word defining it)."""
    exported, defined = set(), {}
    for stmt in module.body:
        word = _DEFINES.get(type(stmt))
        if word is None:
            continue
        name = stmt.alias if word == "use" else stmt.name
        defined.setdefault(name, word)
        if getattr(stmt, "exported", False):
            exported.add(name)
    return exported, defined


def _last_line(stmt) -> int:
    return max((n.span.line for n in ast.walk(stmt) if n.span is not None), default=stmt.span.line)


_LITERAL_KINDS = {ast.ListLit: "list", ast.Str: "text", ast.Template: "text", ast.Num: "number",
                  ast.Bool: "bool"}

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
    `tasks`, every task definition; `blocks`, every node that holds statement lists;
    `attrs`, every `obj.name` that is not called; `statements`, the ids of calls that are a
    whole statement."""

    def __init__(self, module):
        self.calls: list = []
        self.sites: list[tuple] = []
        self.tasks: list = []
        self.blocks: list = []
        self.attrs: list = []
        self.statements: set[int] = set()
        steps: set[int] = set()   # a pipe's step comes after the pipe in walk order
        callees: set[int] = set()
        for node, task in ast.walk_in_tasks(module):
            t = type(node)
            if t is ast.Call:
                self.sites.append((node, task))
                callees.add(id(node.func))
                if id(node) not in steps:
                    self.calls.append(node)
            elif t is ast.Attr:
                if id(node) not in callees:
                    self.attrs.append(node)
            elif t is ast.ExprStmt:
                self.statements.add(id(node.expr))
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
                sites.append({"capability": cap, "builtin": func.name, "span": func.span, "task": task,
                              "grant": narrowest.grant(cap, narrowest.static_target(node))})
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


def lint(module, builtins: Mapping, predeclared: Iterable[str] = (), auto_granted: Iterable[str] = (),
         tier_c: Callable[[str], str | None] = lambda name: None, uses: Callable | None = None) -> list[Finding]:
    """Every finding for one parsed module, in source order. `uses` maps a `use` statement to
    the module it loads (None when it cannot be read); without it `no-export` is not checked."""
    linter = _Linter(module, builtins, set(predeclared) | set(builtins), auto_granted, tier_c, uses)
    linter.undefined_names()
    linter.shadowed_aliases()
    linter.missing_exports()
    linter.calls()
    linter.properties()
    linter.top_level_give()
    linter.unreachable()
    linter.capabilities()
    return sorted(linter.findings, key=lambda f: (f.span.line, f.span.col) if f.span else (0, 0))
