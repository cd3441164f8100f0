"""`synsema check` and `synsema code check`: load-time verification without running anything.

`check` parses each file and the local modules it `use`s and lints it (`lang.lint`): findings
are printed with a caret (or as JSON with `--format json`), a clean file as
`OK: N statements parsed.`; exit 0 clean, 1 errors, 3 warnings only.
`code check` does the same for one file and also lists every `declassify` site, in it and in the
modules it uses — file, line, the literal reason (or null), the target principals, whether the
published value is a constant and whether the site is a direct call (`direct` false: the name
used as a value, through which any call publishes) — so a reviewer can audit every place
private data can be made public.
"""

from __future__ import annotations

import json
import os
import sys

from synsema.lang import ast
from synsema.lang.errors import SynError

_LITERALS = (ast.Num, ast.Str, ast.Bool, ast.Nothing)


def _parse_file(path: str):
    from synsema.lang.parser import parse
    try:
        with open(path, encoding="utf-8") as handle:
            source = handle.read()
    except (OSError, UnicodeDecodeError) as problem:
        raise SynError(f"cannot read {path}: {getattr(problem, 'strerror', None) or problem}") from None
    return parse(source, path)


def load_with_modules(path: str) -> tuple[ast.Module, int]:
    """Parse `path` and, transitively, the modules it uses: (the module, modules checked)."""
    modules = _load_all(path)
    return modules[0], len(modules) - 1


def _load_all(path: str) -> list[ast.Module]:
    """`path` parsed, then every module it uses, transitively, each once."""
    seen: set[str] = set()
    todo = [path]
    modules = []
    while todo:
        current = todo.pop()
        if os.path.abspath(current) in seen:
            continue
        seen.add(os.path.abspath(current))
        module = _parse_file(current)
        modules.append(module)
        for node in ast.walk(module):
            if type(node) is ast.Use:
                todo.append(os.path.normpath(os.path.join(os.path.dirname(current), node.path)))
    return modules


def module_loader(importer: str):
    """A `use` statement of the file `importer` -> the module it loads, parsed (None when it
    cannot be read or parsed: running it reports that), each file read once. What the linter's
    `no-export` rule reads."""
    base = os.path.dirname(importer)
    cache: dict[str, ast.Module | None] = {}

    def load(use):
        path = os.path.normpath(os.path.join(base, use.path))
        if path not in cache:
            try:
                cache[path] = _parse_file(path)
            except SynError:
                cache[path] = None
        return cache[path]
    return load


def declared_principals(module: ast.Module) -> set[str]:
    """The principals a program declares: the literal principal of every `private(v, "p")` call
    in its source and in every module it can load (`use` paths are literals, followed here).

    Read before the program runs, so the redacted text `private(<principals>)` is fixed for the
    whole run. A module that cannot be read or parsed declares nothing: its `use` fails when it
    runs, and a `private` call naming an undeclared principal is refused at run time.
    """
    principals: set[str] = set()
    seen: set[str] = set()
    todo = [(module, module.file)]
    while todo:
        current, file = todo.pop()
        for node in ast.walk(current):
            if (type(node) is ast.Call and type(node.func) is ast.Name and node.func.name == "private"
                    and len(node.args) == 2 and type(node.args[1]) is ast.Str):
                principals.add(node.args[1].value)
            elif type(node) is ast.Use:
                base = os.path.dirname(os.path.abspath(file)) if file not in ("-", "<repl>") else os.getcwd()
                path = os.path.realpath(os.path.join(base, node.path))
                if path in seen:
                    continue
                seen.add(path)
                try:
                    todo.append((_parse_file(path), path))
                except SynError:
                    continue
    return principals


# Exit codes of `synsema check`: clean, an error (or a file that does not parse), warnings only.
CLEAN, ERRORS, WARNINGS_ONLY = 0, 1, 3


def check_files(paths: list[str], out, err, *, builtins=None, predeclared=(), auto_granted=(),
                tier_c=lambda name: None, as_json: bool = False) -> int:
    """Parse each file (and the modules it uses) and lint it (`lang.lint`): findings, with a
    caret, on `err`, or one JSON report on `out` (each diagnostic with its `fixes`, the
    mechanical rewrites of `lang.hints`). `builtins` None parses only."""
    from synsema.lang.diagnostics import Sources, as_json as error_json, position, render
    from synsema.lang.gcpause import collector_paused
    from synsema.lang.lint import lint
    sources = Sources()
    diagnostics: list[dict] = []
    errors = warnings = 0
    for path in paths:
        try:
            with collector_paused():  # large trees, no reference cycles (see lang.gcpause)
                module, modules = load_with_modules(path)
        except SynError as error:
            errors += 1
            diagnostics.append({**error_json(error, sources), "severity": "error",
                                "fixes": [f.as_dict() for f in error.fixes]})
            if not as_json:
                from synsema.lang.diagnostics import human
                err(human(error, sources) + "\n")
            continue
        with collector_paused():
            findings = (lint(module, builtins, predeclared, auto_granted, tier_c, module_loader(path))
                        if builtins is not None else [])
        for finding in findings:
            diagnostics.append({**position(finding.span, sources), "code": finding.code,
                                "message": finding.message, "hint": finding.hint,
                                "severity": finding.severity, "fixes": [f.as_dict() for f in finding.fixes]})
            if not as_json:
                err(render(finding.headline(), finding.span, finding.hint, sources) + "\n")
        found_errors = sum(1 for f in findings if f.severity == "error")
        errors += found_errors
        warnings += len(findings) - found_errors
        if as_json:
            continue
        if findings:
            out(f"{path}: {_count(found_errors, 'error')}, {_count(len(findings) - found_errors, 'warning')}\n")
        else:
            suffix = f" ({modules} module{'s' if modules != 1 else ''} checked)" if modules else ""
            out(f"OK: {len(module.body)} statements parsed.{suffix}\n")
    code = ERRORS if errors else WARNINGS_ONLY if warnings else CLEAN
    if as_json:
        out(json.dumps({"ok": code == CLEAN, "exit": code, "errors": errors, "warnings": warnings,
                        "diagnostics": diagnostics}, ensure_ascii=False) + "\n")
    return code


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


def _is_constant(node) -> bool:
    """Written out in full in the source: literals, and lists and maps made only of them."""
    return all(type(n) in _CONSTANT_NODES for n in ast.walk(node))


_CONSTANT_NODES = (*_LITERALS, ast.ListLit, ast.MapLit)


def _literal_text(node):
    return node.value if type(node) is ast.Str else None


def _principals(node):
    if node is None:
        return []
    if type(node) is ast.Str:
        return [node.value]
    if type(node) is ast.ListLit and all(type(i) is ast.Str for i in node.items):
        return [i.value for i in node.items]
    return None


def declassify_sites(module: ast.Module) -> list[dict]:
    """Every place in `module` that can publish a value: each direct `declassify(…)` call, and
    each other use of the name `declassify` (an alias, an argument to `reduce`, a module export),
    since every call through such a value publishes too. Those have `direct` false and unknown
    reason and principals (null)."""
    sites = []
    callees = set()
    for node in ast.walk(module):
        if type(node) is ast.Call and type(node.func) is ast.Name and node.func.name == "declassify":
            callees.add(id(node.func))
            args = node.args
            value = args[0] if args else None
            sites.append({
                "file": module.file, "line": node.span.line,
                "reason": _literal_text(args[1]) if len(args) > 1 else None,
                "to": _principals(args[2] if len(args) > 2 else None),
                "constant": value is not None and _is_constant(value),
                "direct": True,
            })
        elif type(node) is ast.Name and node.name == "declassify" and id(node) not in callees:
            sites.append({"file": module.file, "line": node.span.line, "reason": None, "to": None,
                          "constant": False, "direct": False})
    return sites


def run_code_check(path: str, as_json: bool) -> int:
    try:
        modules = _load_all(path)
    except SynError as error:
        if as_json:
            sys.stdout.write(json.dumps({"file": path, "ok": False, "errors": [error.report()],
                                         "declassify": []}, indent=2) + "\n")
        else:
            sys.stderr.write(error.report() + "\n")
        return 1
    sites = [site for module in modules for site in declassify_sites(module)]
    if as_json:
        sys.stdout.write(json.dumps({"file": path, "ok": True, "errors": [], "declassify": sites},
                                    indent=2) + "\n")
    else:
        sys.stdout.write(f"OK: {path}\n")
        for site in sites:
            if not site["direct"]:
                sys.stdout.write(f"  declassify at {site['file']}:{site['line']}: (used as a value: "
                                 "every call through it can publish)\n")
                continue
            reason = site["reason"] if site["reason"] is not None else "(reason not a literal)"
            sys.stdout.write(f"  declassify at {site['file']}:{site['line']}: {reason}\n")
    return 0
