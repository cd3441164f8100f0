"""`synsema lsp`: the language server editors start (VS Code through editors/vscode, and any
other LSP client), on stdio, built on pygls with lsprotocol's types.

Each open file is re-read on every change (`lang.navigation.Document`: the parser and the one
resolver) and answers:

* diagnostics: parse errors and load-time checks, and the linter of `synsema check`;
* hover: a builtin's reference entry, a task's signature and doc comment, what a name is, what a
  capability in `require` allows;
* completion: names in scope, builtins with their signatures, keywords, the keys of a literal
  map (`m.` and `m["`), a used module's exports (`mod.`);
* go to definition and find references, across `use`;
* document symbols (tasks, tests, types, enums, top-level `let`s) and formatting (`synsema fmt`).

LSP positions are 0-based lines and UTF-16 columns; Synsema's spans are 1-based lines and code
point columns, converted here with pygls's position codec.
"""

from __future__ import annotations

import os
import re

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from synsema.lang.lexer import AFTER_WORDS, CLAUSE_WORDS, HARD_KEYWORDS, STATEMENT_WORDS
from synsema.lang.navigation import Document, Occurrence, Target
from synsema.runtime.interp import builtin_globals

# What each capability lets a program do (LANGUAGE.md §8), shown on hover over `require`.
CAPABILITIES = {
    "net": "send requests to the network: `net(\"host\")`, `net(\"*.domain\")`, `net(\"host:port\")`; bare `net` is any host",
    "file": "read and write files under a path: `file(\"/data/*\")` (`..` resolved, matched by path components)",
    "file.read": "read files under a path, never write them",
    "file.write": "write (and delete) files under a path, never read them",
    "exec": "run an external program: `exec(\"git\")`",
    "env": "read environment variables: `env(\"NAME\")` or a `PREFIX*`",
    "secret": "read a secret by name as a secret value that never prints",
    "reveal": "turn a secret back into plain text",
    "time": "read the clock and sleep",
    "random": "draw random numbers",
    "stdout": "print to standard output (a real capability under a host ceiling)",
    "stdin": "read standard input",
    "llm": "ask a language model (`llm_step`, `reason`, `decide`, …)",
}
_TYPES = ("number", "text", "bool", "list", "map")
_SEVERITY = {"error": lsp.DiagnosticSeverity.Error, "warning": lsp.DiagnosticSeverity.Warning}


class SynsemaServer(LanguageServer):
    def __init__(self):
        super().__init__("synsema", "0.1.0")
        self.builtins = builtin_globals()
        self.documents: dict[str, Document] = {}

    def document(self, uri: str) -> Document:
        text_document = self.workspace.get_text_document(uri)
        current = self.documents.get(uri)
        if current is None or current.source != text_document.source:
            path = to_fs_path(uri) or uri
            current = self.documents[uri] = Document(text_document.source, path, self.builtins)
        return current

    # ------------------------------------------------------------ positions
    def _codec_position(self, lines, line: int, char: int) -> lsp.Position:
        codec = self.workspace.position_codec
        return codec.position_to_client_units(lines, lsp.Position(line=max(line, 0), character=max(char, 0)))

    def range_of(self, occurrence: Occurrence) -> lsp.Range:
        lines = _file_lines(occurrence.path, self)
        start = self._codec_position(lines, occurrence.line - 1, occurrence.col - 1)
        end = self._codec_position(lines, occurrence.line - 1, occurrence.col - 1 + occurrence.length)
        return lsp.Range(start=start, end=end)

    def location(self, occurrence: Occurrence) -> lsp.Location:
        return lsp.Location(uri=from_fs_path(occurrence.path) or occurrence.path, range=self.range_of(occurrence))

    def cursor(self, uri: str, position: lsp.Position) -> tuple[int, int]:
        """The 1-based (line, column) of an LSP position."""
        document = self.workspace.get_text_document(uri)
        server = self.workspace.position_codec.position_from_client_units(document.lines, position)
        return server.line + 1, server.character + 1

    # ------------------------------------------------------------ features
    def diagnostics(self, uri: str) -> list[lsp.Diagnostic]:
        document = self.document(uri)
        found = []
        if document.error is not None:
            span = document.error.span
            line = span.line if span is not None else 1
            col = span.col if span is not None else 1
            text = document.lines[line - 1] if 0 < line <= len(document.lines) else ""
            word = re.match(r"\w+|\S?", text[col - 1:]).group()
            found.append(self._diagnostic(uri, line, col, max(len(word), 1), "error",
                                          document.error.message, document.error.phase.lower()))
            return found
        for problem in lint(document):
            found.append(self._diagnostic(uri, *problem))
        return found

    def _diagnostic(self, uri, line, col, length, severity, message, code) -> lsp.Diagnostic:
        occurrence = Occurrence(to_fs_path(uri) or uri, line, col, length)
        return lsp.Diagnostic(range=self.range_of(occurrence), message=message, source="synsema",
                              severity=_SEVERITY[severity], code=code)

    def hover(self, uri: str, line: int, col: int) -> str | None:
        document = self.document(uri)
        capability = _capability_at(document, line, col)
        if capability is not None:
            meaning = CAPABILITIES.get(capability, "a capability of upstream Synsema's wider runtime")
            return f"**capability `{capability}`**: {meaning}"
        found = document.target_at(line, col)
        if found is None:
            return None
        _site, target = found
        if target.kind == "predeclared":
            return _builtin_text(target.name)
        if target.kind == "member":
            used = document.used_module(target.binding)
            member = used.top_level(target.name) if used is not None else None
            if member is None:
                return f"`{target.binding.name}.{target.name}`: not defined in {target.binding.node.path}"
            return _fenced(used.signature(member) or f"{member.kind} {member.name}", used.path)
        if target.kind == "undefined":
            return f"`{target.name}` is not defined here"
        return _fenced(document.signature(target.binding) or f"{target.binding.kind} {target.name}", None)

    def completions(self, uri: str, line: int, col: int) -> list[lsp.CompletionItem]:
        document = self._completion_document(uri, line)
        before = self.workspace.get_text_document(uri).lines[line - 1][:col - 1] \
            if line - 1 < len(self.workspace.get_text_document(uri).lines) else ""
        member = re.search(r"([^\W\d]\w*)\s*\.\s*(\w*)$", before)
        keyed = re.search(r"([^\W\d]\w*)\s*\[\s*[\"']([^\"']*)$", before)
        if member or keyed:
            name = (member or keyed).group(1)
            return self._members(document, name, line)
        items = []
        for name, kind in document.visible_names(line):
            items.append(lsp.CompletionItem(label=name, kind=_ITEM_KIND.get(kind, lsp.CompletionItemKind.Variable),
                                            detail=kind))
        local = {item.label for item in items}
        for name in sorted(self.builtins):
            if name in local:
                continue
            signature = _builtin_signature(name)
            items.append(lsp.CompletionItem(label=name, kind=lsp.CompletionItemKind.Function,
                                            detail=signature, documentation=_builtin_text(name)))
        for word in sorted({*HARD_KEYWORDS, *STATEMENT_WORDS, *AFTER_WORDS, *CLAUSE_WORDS}):
            items.append(lsp.CompletionItem(label=word, kind=lsp.CompletionItemKind.Keyword))
        return items

    def _completion_document(self, uri: str, line: int) -> Document:
        """The document to complete in: while the line being typed does not parse, the last
        version that did, or the file without that line."""
        document = self.document(uri)
        if document.resolution is not None:
            return document
        lines = self.workspace.get_text_document(uri).lines
        trimmed = "".join(text if number != line - 1 else "\n" for number, text in enumerate(lines))
        fallback = Document(trimmed, document.path, self.builtins)
        return fallback if fallback.resolution is not None else document

    def _members(self, document: Document, name: str, line: int) -> list[lsp.CompletionItem]:
        binding = None
        if document.resolution is not None:
            scope = document.resolution.scope_at(line)
            kinds = {b.name: b for b in document.resolution.bindings
                     if b.scope is document.resolution.globals or b.scope is scope}
            binding = kinds.get(name)
        if binding is not None and binding.kind == "use":
            used = document.used_module(binding)
            exports = used.exports() if used is not None else []
            return [lsp.CompletionItem(label=n, kind=_ITEM_KIND.get(k, lsp.CompletionItemKind.Variable),
                                       detail=f"{k} from {binding.node.path}") for n, k in exports]
        keys = document.literal_map_keys(name, line)
        if keys:
            return [lsp.CompletionItem(label=k, kind=lsp.CompletionItemKind.Field, detail=f"key of {name}")
                    for k in keys]
        value = self.builtins.get(name)
        members = getattr(value, "members", None)
        if isinstance(members, dict):
            return [lsp.CompletionItem(label=k, kind=lsp.CompletionItemKind.Method, detail=f"{name}.{k}")
                    for k in sorted(members)]
        return []


_ITEM_KIND = {"task": lsp.CompletionItemKind.Function, "type": lsp.CompletionItemKind.Struct,
              "enum": lsp.CompletionItemKind.Enum, "use": lsp.CompletionItemKind.Module,
              "parameter": lsp.CompletionItemKind.Variable, "variable": lsp.CompletionItemKind.Variable}
_SYMBOL_KIND = {"task": lsp.SymbolKind.Function, "test": lsp.SymbolKind.Method, "type": lsp.SymbolKind.Struct,
                "enum": lsp.SymbolKind.Enum, "field": lsp.SymbolKind.Field,
                "variant": lsp.SymbolKind.EnumMember, "variable": lsp.SymbolKind.Variable}


def _file_lines(path: str, server: SynsemaServer) -> list[str]:
    uri = from_fs_path(path) or path
    if uri in server.documents:
        return server.workspace.get_text_document(uri).lines
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read().splitlines(True)
    except (OSError, UnicodeDecodeError):
        return []


def _fenced(text: str, path: str | None) -> str:
    code, _, doc = text.partition("\n\n")
    shown = f"```synsema\n{code}\n```"
    if path:
        shown += f"\n\nfrom `{os.path.basename(path)}`"
    return shown + (f"\n\n{doc}" if doc else "")


def _builtin_signature(name: str) -> str:
    from synsema.stdlib.reference import describe
    doc = describe(name)
    return doc.signature() if doc is not None else name


def _builtin_text(name: str) -> str:
    from synsema.stdlib.reference import describe, render_entry
    doc = describe(name)
    if doc is None:
        return f"`{name}`: a constant of the language"
    return f"```\n{render_entry(doc).rstrip()}\n```"


def _capability_at(document: Document, line: int, col: int) -> str | None:
    """The capability name under the cursor on a `require` or `sandbox under` line."""
    if not 0 < line <= len(document.lines):
        return None
    text = document.lines[line - 1]
    if not re.match(r"\s*(require\b|sandbox\s+under\b)", text):
        return None
    for m in re.finditer(r"[a-z_]+(?:\.[a-z_]+)?", text):
        if m.start() < col <= m.end() + 1 and m.group() in CAPABILITIES:
            return m.group()
    return None


def lint(document: Document) -> list[tuple[int, int, int, str, str, str]]:
    """(line, col, length, severity, message, code) of what `synsema check` reports for a file
    that parses: the findings of its linter (`lang.lint`), each with its hint."""
    from synsema.lang.diagnostics import extent
    from synsema.lang.lint import lint as findings
    from synsema.runtime.capabilities import RUN_MODE_AUTO_GRANTS
    from synsema.stdlib.registry import load_all
    found = []
    for finding in findings(document.module, load_all(), document.predeclared, RUN_MODE_AUTO_GRANTS):
        line, col = (finding.span.line, finding.span.col) if finding.span is not None else (1, 1)
        text = document.lines[line - 1] if 0 < line <= len(document.lines) else ""
        message = finding.message + (f"\nhint: {finding.hint}" if finding.hint else "")
        found.append((line, col, max(1, extent(text, col) - col), finding.severity, message, finding.code))
    return found


def build_server() -> SynsemaServer:
    server = SynsemaServer()

    def publish(uri: str) -> None:
        server.text_document_publish_diagnostics(
            lsp.PublishDiagnosticsParams(uri=uri, diagnostics=server.diagnostics(uri)))

    def refresh(params) -> None:
        publish(params.text_document.uri)

    for event in (lsp.TEXT_DOCUMENT_DID_OPEN, lsp.TEXT_DOCUMENT_DID_CHANGE, lsp.TEXT_DOCUMENT_DID_SAVE):
        server.feature(event)(refresh)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(params: lsp.DidCloseTextDocumentParams):
        server.documents.pop(params.text_document.uri, None)
        server.text_document_publish_diagnostics(
            lsp.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[]))

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    def hover(params: lsp.HoverParams):
        uri = params.text_document.uri
        text = server.hover(uri, *server.cursor(uri, params.position))
        if text is None:
            return None
        return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=text))

    @server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=[".", "[", '"']))
    def completion(params: lsp.CompletionParams):
        uri = params.text_document.uri
        return lsp.CompletionList(is_incomplete=False,
                                  items=server.completions(uri, *server.cursor(uri, params.position)))

    @server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
    def definition(params: lsp.DefinitionParams):
        uri = params.text_document.uri
        document = server.document(uri)
        found = document.target_at(*server.cursor(uri, params.position))
        if found is None:
            return None
        return [server.location(o) for o in document.definition(found[1])] or None

    @server.feature(lsp.TEXT_DOCUMENT_REFERENCES)
    def references(params: lsp.ReferenceParams):
        uri = params.text_document.uri
        document = server.document(uri)
        found = document.target_at(*server.cursor(uri, params.position))
        if found is None:
            return None
        target: Target = found[1]
        return [server.location(o) for o in
                document.references(target, params.context.include_declaration)] or None

    @server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def document_symbol(params: lsp.DocumentSymbolParams):
        document = server.document(params.text_document.uri)

        def convert(symbol) -> lsp.DocumentSymbol:
            whole = Occurrence(document.path, symbol.line, 1,
                               len(document.lines[symbol.end_line - 1]) if symbol.end_line <= len(document.lines) else 0)
            start = server.range_of(Occurrence(document.path, symbol.line, 1, 0)).start
            end = server.range_of(Occurrence(document.path, symbol.end_line, 1, whole.length)).end
            return lsp.DocumentSymbol(name=symbol.name, kind=_SYMBOL_KIND[symbol.kind],
                                      range=lsp.Range(start=start, end=end),
                                      selection_range=server.range_of(symbol.selection),
                                      children=[convert(c) for c in symbol.children])
        return [convert(s) for s in document.symbols()]

    @server.feature(lsp.TEXT_DOCUMENT_FORMATTING)
    def formatting(params: lsp.DocumentFormattingParams):
        from synsema.lang.errors import SynError
        from synsema.lang.format import format_source
        text_document = server.workspace.get_text_document(params.text_document.uri)
        try:
            formatted = format_source(text_document.source, text_document.path or "<editor>")
        except SynError:
            return None   # a file that does not parse is left as it is; its diagnostic says why
        if formatted == text_document.source:
            return []
        lines = text_document.lines
        end = lsp.Position(line=len(lines), character=0)
        return [lsp.TextEdit(range=lsp.Range(start=lsp.Position(line=0, character=0), end=end),
                             new_text=formatted)]

    return server


def main() -> int:
    build_server().start_io()
    return 0
