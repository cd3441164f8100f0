"""`synsema code outline FILE [--json]`: every task of a file, read statically.

Per task: `name`, `line`, `end_line`, `parameters` (`name`, `type`, `default` as source text,
`optional`), `input_schema`, derived by `lang.toolschema` exactly as the LLM providers derive
the schema they send, so what a model sees and what `call_tool` checks never disagree, and
`doc`, the task's doc comment (what `synsema mcp serve` publishes as the tool's description).

A doc comment is the run of `--` comment lines directly above the `task` line, with no blank
line between; each line loses its `--` and one space, and the lines are joined with newlines.
"""

from __future__ import annotations

import json
import sys

from synsema.lang import ast
from synsema.lang.diagnostics import source_lines
from synsema.lang.errors import SynError
from synsema.lang.toolschema import input_schema


def _end_line(node) -> int:
    return max((n.span.line for n in ast.walk(node) if n.span is not None), default=node.span.line)


def _source_text(lines: list[str], span, stop: str = ",)") -> str:
    """The source of an expression starting at `span`, up to a top-level `,` or `)`."""
    text = lines[span.line - 1][span.col - 1:]
    for extra in lines[span.line:]:
        text += "\n" + extra
    depth = 0
    quote = None
    escaped = False
    for i, ch in enumerate(text):
        if quote:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == quote:
                quote = None
        elif ch in "\"'`":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            if depth == 0:
                return text[:i].strip()
            depth -= 1
        elif ch in stop and depth == 0:
            return text[:i].strip()
    return text.strip()


def doc_lines(source: str, file: str) -> list[str]:
    """The source's lines for `doc_comment`: a line that continues a multi-line template is
    blanked, so a template whose text looks like `-- …` is never taken for a comment."""
    from synsema.lang.lexer import tokenize
    lines = source_lines(source)
    for token in tokenize(source, file):
        if token.type == "TEMPLATE":
            for number in range(token.line, token.line + token.value.count("\n")):
                lines[number] = ""
    return lines


def doc_comment(lines: list[str], line: int) -> str | None:
    """The doc comment of the definition starting at 1-based `line`, or None when it has none."""
    found = []
    index = line - 2
    definition = lines[line - 1] if 0 < line <= len(lines) else ""
    indent = definition[:len(definition) - len(definition.lstrip())]
    # Only comments at the definition's own indentation: one indented deeper ends the block
    # above (synsema fmt keeps it there, apart from the definition).
    while index >= 0 and lines[index].startswith(indent + "--"):
        text = lines[index].lstrip()[2:]
        found.append(text[1:] if text.startswith(" ") else text)
        index -= 1
    return "\n".join(reversed(found)).strip() or None


def outline(module: ast.Module, source: str) -> list[dict]:
    """The task entries of a parsed module, nested tasks included, in source order."""
    lines = source_lines(source)
    docs = doc_lines(source, module.file)
    tasks = []
    for node in ast.walk(module):
        if type(node) is not ast.TaskDef:
            continue
        parameters = []
        for p in node.params:
            default = _source_text(lines, p.default.span) if p.default is not None else None
            parameters.append({"name": p.name, "type": p.type, "default": default,
                               "optional": p.default is not None})
        schema = input_schema((p["name"], p["type"], not p["optional"]) for p in parameters)
        tasks.append({"name": node.name, "line": node.span.line, "end_line": _end_line(node),
                      "parameters": parameters, "input_schema": schema,
                      "doc": doc_comment(docs, node.span.line)})
    return tasks


def run_outline(path: str, as_json: bool) -> int:
    from synsema.lang.parser import parse
    try:
        with open(path, encoding="utf-8") as handle:
            source = handle.read()
        tasks = outline(parse(source, path), source)
    except SynError as error:
        sys.stderr.write(error.report() + "\n")
        return 1
    if as_json:
        sys.stdout.write(json.dumps({"file": path, "tasks": tasks}, indent=2) + "\n")
        return 0
    for task in tasks:
        params = ", ".join(
            p["name"] + (f": {p['type']}" if p["type"] else "") + (f" = {p['default']}" if p["optional"] else "")
            for p in task["parameters"])
        sys.stdout.write(f"{task['line']:>5}-{task['end_line']:<5} task {task['name']}({params})\n")
    return 0
