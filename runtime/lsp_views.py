"""What the language server computes from one parsed file beyond navigation: semantic tokens,
folding ranges, parameter-name inlay hints, signature help, and the edits of a rename.

Everything here speaks Synsema positions (1-based lines, 1-based code-point columns, as in
`Span`); `runtime.lsp` converts them to LSP's 0-based UTF-16 ones. A file is a
`lang.navigation.Document`; what a builtin takes comes from the reference (`stdlib.reference`),
so an editor shows the same parameters, defaults and summary as `synsema doc`.
"""

from __future__ import annotations

import re
from typing import Iterator, NamedTuple

from synsema.lang import ast
from synsema.lang.errors import SynError
from synsema.lang.lexer import AFTER_WORDS, CLAUSE_WORDS, HARD_KEYWORDS, STATEMENT_WORDS, token_end, tokenize
from synsema.lang.navigation import Document, Occurrence, Target
from synsema.lang.outline import doc_comment
from synsema.lang.unparse import unparse
from synsema.runtime.values import Builtin

KEYWORDS = frozenset({*HARD_KEYWORDS, *STATEMENT_WORDS, *AFTER_WORDS, *CLAUSE_WORDS})
NAME = re.compile(r"[^\W\d]\w*\Z")

# ------------------------------------------------------------------ semantic tokens
# The legend: a token's type is its index here, its modifiers a bit set over MODIFIERS.
TOKEN_TYPES = ("keyword", "function", "variable", "parameter", "type", "enum", "enumMember",
               "namespace", "property", "string", "number", "comment", "operator")
MODIFIERS = ("declaration", "defaultLibrary", "readonly")
_KIND_TYPE = {"task": "function", "parameter": "parameter", "type": "type", "enum": "enum", "use": "namespace"}
_COMMENT = re.compile(r"--[^\n]*")


class Token(NamedTuple):
    line: int
    col: int
    length: int      # code points, on one line
    type: str
    modifiers: int


def semantic_tokens(document: Document, builtins) -> list[Token]:
    """Every token of the file with its kind, in order; names classified by the resolver
    (a task, a parameter, a type, a module, a builtin …). A file the lexer refuses has none."""
    try:
        tokens = tokenize(document.source, document.path)
    except SynError:
        return []
    found: list[Token] = []
    gap_start = 0
    lines_start = _line_starts(document.source)
    names = {(site.line, site.col): (site, target) for site, target in document.names()}
    for tok in tokens:
        if tok.type in ("_NL", "_INDENT", "_DEDENT") or not tok.value:
            continue
        end = token_end(tok, document.source)
        found.extend(_comments(document.source, gap_start, tok.start_pos, lines_start))
        gap_start = end
        if "\n" in document.source[tok.start_pos:end]:
            continue   # a token over several lines is left to the grammar's colouring
        kind, modifiers = _classify(tok, document, names, builtins)
        if kind is not None:
            found.append(Token(tok.line, tok.column, end - tok.start_pos, kind, modifiers))
    found.extend(_comments(document.source, gap_start, len(document.source), lines_start))
    return found


def _line_starts(source: str) -> list[int]:
    starts = [0]
    for m in re.finditer("\n", source):
        starts.append(m.end())
    return starts


def _comments(source: str, start: int, end: int, line_starts: list[int]) -> Iterator[Token]:
    import bisect
    for m in _COMMENT.finditer(source, start, end):
        line = bisect.bisect_right(line_starts, m.start())
        yield Token(line, m.start() - line_starts[line - 1] + 1, len(m.group()), "comment", 0)


def _classify(tok, document: Document, names: dict, builtins) -> tuple[str | None, int]:
    """(token type, modifier bits); `names` maps where a name starts to what it is."""
    kind = tok.type
    if kind == "NAME":
        found = names.get((tok.line, tok.column))
        if found is None:
            return "variable", 0
        site, target = found
        if target.kind == "predeclared":
            if type(builtins.get(target.name)) is Builtin:
                return "function", _bit("defaultLibrary")
            return "variable", _bit("defaultLibrary") | _bit("readonly")
        if target.kind == "member":
            return "property", 0
        if target.kind == "undefined":
            return "variable", 0
        binding = target.binding
        declared = _bit("declaration") if document.binding_site(binding) == site else 0
        if binding.kind == "let" and type(binding.node.value) is ast.Lambda:
            return "function", declared
        return _KIND_TYPE.get(binding.kind, "variable"), declared
    if kind in ("STRING", "TEMPLATE"):
        return "string", 0
    if kind in ("NUMBER", "DURATION"):
        return "number", 0
    if tok.value[:1].isalpha():
        return "keyword", 0
    return "operator", 0


def _bit(modifier: str) -> int:
    return 1 << MODIFIERS.index(modifier)


def encode(tokens: list[Token], convert) -> list[int]:
    """LSP's relative encoding; `convert(line, col)` gives a token's 0-based (line, character)."""
    data: list[int] = []
    last_line = last_char = 0
    for tok in tokens:
        line, char = convert(tok.line, tok.col)
        _, end = convert(tok.line, tok.col + tok.length)
        delta_char = char - last_char if line == last_line else char
        data += [line - last_line, delta_char, end - char, TOKEN_TYPES.index(tok.type), tok.modifiers]
        last_line, last_char = line, char
    return data


def delta(old: list[int], new: list[int]) -> tuple[int, int, list[int]]:
    """(start, delete count, inserted data): the one edit turning `old` into `new`."""
    limit = min(len(old), len(new))
    start = 0
    while start < limit and old[start] == new[start]:
        start += 1
    end = 0
    while end < limit - start and old[len(old) - 1 - end] == new[len(new) - 1 - end]:
        end += 1
    return start, len(old) - start - end, new[start:len(new) - end]


# ------------------------------------------------------------------ folding
class Fold(NamedTuple):
    first: int
    last: int
    kind: str          # "region" or "comment"


_BLOCKS = (ast.TaskDef, ast.When, ast.Each, ast.While, ast.Try, ast.Match, ast.TestBlock, ast.TypeDef,
           ast.EnumDef, ast.Sandbox, ast.Marker)


def folding_ranges(document: Document) -> list[Fold]:
    """Each block statement over more than one line (tasks, tests, `when`, loops, `try`,
    `match`, types, enums), each multi-line statement, and each run of two or more comment lines."""
    folds: list[Fold] = []
    if document.module is not None:
        for node in ast.walk(document.module):
            if isinstance(node, ast.Stmt) and node.span is not None:
                last = _last_line(document, node)
                if last > node.span.line and (type(node) in _BLOCKS or node in document.module.body):
                    folds.append(Fold(node.span.line, last, "region"))
    run_start = None
    for number, text in enumerate([*document.lines, ""], 1):
        if text.lstrip().startswith("--"):
            run_start = run_start or number
            continue
        if run_start is not None and number - 1 > run_start:
            folds.append(Fold(run_start, number - 1, "comment"))
        run_start = None
    return sorted(set(folds))


def _last_line(document: Document, node) -> int:
    """The last line a statement's text reaches: its last node's line, then any bracket it
    leaves open closed on the lines below."""
    last = max((n.span.line for n in ast.walk(node) if n.span is not None), default=node.span.line)
    depth = 0
    for number in range(node.span.line, len(document.lines) + 1):
        depth += sum(document.lines[number - 1].count(c) for c in "([{")
        depth -= sum(document.lines[number - 1].count(c) for c in ")]}")
        if number >= last and depth <= 0:
            return number
    return last


# ------------------------------------------------------------------ what a callee takes
class Parameter(NamedTuple):
    name: str
    label: str         # as shown in a signature: `scale: number = 1`, `sep = ","`
    repeated: bool


class Signature(NamedTuple):
    label: str         # `total(items: list, scale: number = 1)`
    parameters: list[Parameter]
    doc: str | None    # the one-line summary or the first line of the doc comment


def callee_signature(document: Document, func, builtins) -> Signature | None:
    """What the called expression `func` (a Name, or `module.name`) takes, when it is a
    builtin, a task or a lambda bound once, or a task of a used module."""
    if type(func) is ast.Name:
        ref = document.resolution.reference_at(func)
        if ref is None:
            return None
        if ref.where == "predeclared":
            return builtin_signature(func.name, builtins)
        return _binding_signature(document, ref.binding) if ref.binding is not None else None
    if type(func) is ast.Attr and type(func.obj) is ast.Name:
        ref = document.resolution.reference_at(func.obj)
        return _member_signature(document, ref.binding if ref is not None else None, func.name)
    return None


def _member_signature(document: Document, use, name: str) -> Signature | None:
    if use is None or use.kind != "use":
        return None
    used = document.used_module(use)
    member = used.top_level(name) if used is not None else None
    return _binding_signature(used, member) if member is not None else None


def builtin_signature(name: str, builtins) -> Signature | None:
    from synsema.stdlib.reference import describe
    spec = getattr(builtins.get(name), "spec", None)
    if spec is None or spec.unsupported:
        return None
    doc = describe(name)
    params = [Parameter(p.name, p.shown(), p.repeated) for p in doc.params]
    return Signature(doc.signature(), params, doc.summary or None)


def _binding_signature(document: Document, binding) -> Signature | None:
    node = binding.node
    if type(node) is ast.TaskDef:
        name, params = node.name, node.params
    elif type(node) is ast.Let and type(node.value) is ast.Lambda and not binding.assigned:
        name, params = node.name, node.value.params
    else:
        return None
    shown = [Parameter(p.name, _param_label(p), False) for p in params]
    doc = doc_comment(document.lines, node.span.line) if type(node) is ast.TaskDef else None
    return Signature(f"{name}({', '.join(p.label for p in shown)})", shown,
                     doc.splitlines()[0] if doc else None)


def _param_label(param) -> str:
    label = param.name + (f": {param.type}" if param.type else "")
    return label + (f" = {unparse(param.default)}" if param.default is not None else "")


# ------------------------------------------------------------------ signature help
def call_at(text: str, col: int) -> tuple[str, int] | None:
    """(the callee as written, index of the argument under the cursor) of the innermost call
    whose parenthesis is open before column `col` of the line `text` (which need not parse):
    brackets are matched and quoted text skipped, reading from the start of the line."""
    open_brackets: list[list] = []   # [bracket, callee or None, commas]
    quote = None
    position = 0
    text = text[:col - 1]
    while position < len(text):
        ch = text[position]
        if quote is not None:
            if ch == "\\":
                position += 1
            elif ch == quote:
                quote = None
        elif ch in "\"'`":
            quote = ch
        elif ch == "-" and text.startswith("--", position):
            break
        elif ch in "([{":
            callee = re.search(r"([^\W\d]\w*(?:\s*\.\s*[^\W\d]\w*)?)\s*$", text[:position]) if ch == "(" else None
            open_brackets.append([ch, callee.group(1) if callee else None, 0])
        elif ch in ")]}" and open_brackets:
            open_brackets.pop()
        elif ch == "," and open_brackets:
            open_brackets[-1][2] += 1
        position += 1
    for bracket, callee, commas in reversed(open_brackets):
        if bracket == "(":
            return (callee, commas) if callee else None
    return None


def signature_at(document: Document, text: str, line: int, col: int, builtins) -> tuple[Signature, int] | None:
    """The signature of the call the cursor (at `col` of line `line`, whose text is `text`) is
    in, and the active parameter. `document` may be a version without the line being typed (see
    `runtime.lsp`): the callee is found by name in the frames around `line`."""
    found = call_at(text, col)
    if found is None or document.resolution is None:
        return None
    written, index = found
    parts = [p.strip() for p in written.split(".")]
    binding = _binding_named(document, parts[0], line)
    if len(parts) == 2:
        signature = _member_signature(document, binding, parts[1])
    elif binding is not None:
        signature = _binding_signature(document, binding)
    elif parts[0] in document.predeclared:
        signature = builtin_signature(parts[0], builtins)
    else:
        signature = None
    if signature is None:
        return None
    if signature.parameters and signature.parameters[-1].repeated:
        index = min(index, len(signature.parameters) - 1)
    return signature, index


def _binding_named(document: Document, name: str, line: int):
    """The binding of `name` visible at `line`, innermost frame first."""
    resolution = document.resolution
    scope = resolution.scope_at(line)
    while scope is not None:
        for binding in resolution.bindings:
            if binding.scope is scope and binding.name == name:
                return binding
        scope = scope.parent
    return None


# ------------------------------------------------------------------ inlay hints
class Hint(NamedTuple):
    line: int
    col: int
    label: str


_LITERALS = (ast.Num, ast.Str, ast.Template, ast.Bool, ast.Nothing, ast.ListLit, ast.MapLit)


def parameter_hints(document: Document, builtins, first: int, last: int) -> list[Hint]:
    """`name:` before each literal argument of a call on lines first..last whose callee is
    known, unless the parameter takes any number of values."""
    if document.module is None:
        return []
    hints: list[Hint] = []
    piped: set[int] = set()
    for node in ast.walk(document.module):
        if type(node) is ast.Pipe:
            piped.add(id(node.step))
        if type(node) is not ast.Call or node.span is None or not (first <= node.span.line <= last):
            continue
        if not any(type(a) in _LITERALS for a in node.args):
            continue
        signature = callee_signature(document, node.func, builtins)
        if signature is None:
            continue
        offset = 1 if id(node) in piped else 0
        for position, arg in enumerate(node.args, offset):
            if position >= len(signature.parameters):
                break
            param = signature.parameters[position]
            if param.repeated:
                break
            if type(arg) in _LITERALS and arg.span is not None:
                hints.append(Hint(arg.span.line, arg.span.col, f"{param.name}:"))
    return sorted(hints)


# ------------------------------------------------------------------ rename
class RenameRefused(Exception):
    """Why the name under the cursor cannot take the new name (shown to the user)."""


def check_new_name(name: str, predeclared) -> None:
    """Refuse a new name that is no name, a keyword or a builtin (`predeclared`: the builtins
    a definition would hide; tier-C ones, which only refuse, are not among them)."""
    if not NAME.match(name):
        raise RenameRefused(f"'{name}' is not a name: a name is a letter or _ then letters, digits or _")
    if name in KEYWORDS:
        raise RenameRefused(f"'{name}' is a keyword of Synsema; choose another name")
    if name in predeclared:
        raise RenameRefused(f"'{name}' is a builtin; a definition of that name would hide it")


def renameable(target: Target) -> str | None:
    """Why `target` cannot be renamed, or None when it can."""
    if target.kind == "predeclared":
        return f"'{target.name}' is a builtin: it cannot be renamed"
    if target.kind == "undefined":
        return f"'{target.name}' is not defined here, so there is nothing to rename"
    return None


def rename_sites(document: Document, target: Target, users) -> list[Occurrence]:
    """Every place the name of `target` is written: in its own file, in the file it comes from
    (a member of a used module), and in `users`, the other files that `use` the defining file
    (the workspace's .syn files, as Documents)."""
    if target.kind == "member":
        home = document.used_module(target.binding)
        member = home.top_level(target.name) if home is not None else None
        if member is None:
            return document.references(target)
        return rename_sites(home, Target("binding", target.name, member), [*users, document])
    sites = set(document.references(target))
    binding = target.binding
    exported = binding.scope is document.resolution.globals and getattr(binding.node, "exported", False)
    if exported:
        import os
        home = os.path.realpath(document.path)
        for user in users:
            if user.resolution is None or os.path.realpath(user.path) == home:
                continue
            for use in user.resolution.bindings:
                if use.kind != "use":
                    continue
                used_path = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(user.path)), use.node.path))
                if used_path == home:
                    sites.update(o for o in user.references(Target("member", target.name, use))
                                 if os.path.realpath(o.path) == os.path.realpath(user.path))
    return sorted(sites)
