"""`synsema lsp`: the language server editors start (VS Code through editors/vscode, and any
other LSP client), on stdio, built on pygls with lsprotocol's types.

Each open file is re-read on every change (`lang.navigation.Document`: the parser and the one
resolver) and answers:

* diagnostics: parse errors and load-time checks, and the linter of `synsema check`, worded as
  `run` and `check` word them (`lang.hints`), each with its hint;
* code actions: a quick fix for every diagnostic whose rewrite is mechanical (the did-you-mean
  name, the narrowest `require`, the Synsema form of a Python or JavaScript habit);
* hover: a builtin's reference entry, a task's signature and doc comment, what a name is, what a
  capability in `require` allows;
* completion: names in scope (innermost first), builtins with their signatures (never a tier-C
  one), keywords, the keys of a literal map (`m.` and `m["`), a used module's exports (`mod.`);
* signature help (parameters with types and defaults, the summary line), parameter-name inlay
  hints at literal arguments (setting `synsema.inlayHints.parameterNames`, default on);
* go to definition, find references, document highlight and rename, across `use` (a builtin or
  a keyword is never renamed);
* document and workspace symbols, semantic tokens (full and delta), folding ranges, and
  formatting (`synsema fmt`).

LSP positions are 0-based lines and UTF-16 columns; Synsema's spans are 1-based lines and code
point columns, converted here with pygls's position codec.
"""

from __future__ import annotations

import os
import re

from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.uris import from_fs_path, to_fs_path

from synsema.lang.navigation import Document, Occurrence, Target
from synsema.runtime import lsp_views as views
from synsema.runtime.interp import builtin_globals
from synsema.runtime.values import Builtin

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


class RequestFailed(JsonRpcException):
    """LSP's RequestFailed: the request was valid but cannot be done (a rename of a builtin);
    the editor shows the message."""
    CODE = -32803
_SEVERITY = {"error": lsp.DiagnosticSeverity.Error, "warning": lsp.DiagnosticSeverity.Warning}


class _AnsweringProtocol(LanguageServerProtocol):
    """Every request gets an answer without a Python traceback in it. pygls drops a request
    whose parameters do not fit the protocol's types (a negative position, say) and the editor
    waits forever: it is answered with the JSON-RPC error InvalidParams. A request about a
    document the server cannot read (never opened, no such file) is answered with nothing
    instead of pygls's FileNotFoundError."""

    def _handle_request(self, msg_id, method_name: str, params) -> None:
        uri = getattr(getattr(params, "text_document", None), "uri", None)
        if uri is not None and not self._server.readable(uri):
            self._send_response(msg_id, None)
            return
        super()._handle_request(msg_id, method_name, params)

    def structure_message(self, data):
        try:
            return super().structure_message(data)
        except JsonRpcInvalidParams:
            if not ("id" in data and "method" in data):
                raise
            self._send_response(data["id"], error=lsp.ResponseError(
                code=JsonRpcInvalidParams.CODE,
                message=f"{data['method']}: the parameters are not valid (a position's line and "
                        "character are numbers from 0 up)"))
            return _ANSWERED


class _Answered:
    """What the reader hands on for a request answered while reading it: a message of another
    protocol version, which pygls then ignores."""
    jsonrpc = "answered"


_ANSWERED = _Answered()


class SynsemaServer(LanguageServer):
    def __init__(self):
        super().__init__("synsema", "0.1.0", protocol_cls=_AnsweringProtocol)
        self.builtins = builtin_globals()
        self.documents: dict[str, Document] = {}
        self.tokens: dict[str, tuple[str, list[int]]] = {}   # uri -> (result id, data) last sent
        self.parameter_hints = True

    def readable(self, uri: str) -> bool:
        """Whether `uri` can be read: open in the editor, or a UTF-8 file on disk. A request
        about any other is answered with nothing (never with pygls's FileNotFoundError)."""
        try:
            self.workspace.get_text_document(uri).source
        except (OSError, UnicodeDecodeError, ValueError):
            return False
        return True

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

    def target(self, params) -> tuple[Document, tuple[Occurrence, Target] | None]:
        """The file of a position request, and the name under its cursor (None: not a name)."""
        uri = params.text_document.uri
        document = self.document(uri)
        return document, document.target_at(*self.cursor(uri, params.position))

    def cursor(self, uri: str, position: lsp.Position) -> tuple[int, int]:
        """The 1-based (line, column) of an LSP position."""
        document = self.workspace.get_text_document(uri)
        server = self.workspace.position_codec.position_from_client_units(document.lines, position)
        return server.line + 1, server.character + 1

    # ------------------------------------------------------------ features
    def diagnostics(self, uri: str) -> list[lsp.Diagnostic]:
        return [diagnostic for diagnostic, _fixes in self.problems(uri)]

    def problems(self, uri: str) -> list[tuple[lsp.Diagnostic, list]]:
        """Each diagnostic of the file with the fixes (`lang.hints.Fix`) that apply to its text."""
        document = self.document(uri)
        found = []
        if document.error is not None:
            error = document.error
            span = error.span
            line = span.line if span is not None else 1
            col = span.col if span is not None else 1
            text = document.lines[line - 1] if 0 < line <= len(document.lines) else ""
            word = re.match(r"\w+|\S?", text[col - 1:]).group()
            message = error.message + (f"\nhint: {error.hint}" if error.hint else "")
            found.append((self._diagnostic(uri, line, col, max(len(word), 1), "error", message,
                                           error.phase.lower()), error.fixes))
        else:
            for *problem, fixes in lint(document):
                found.append((self._diagnostic(uri, *problem), fixes))
        lines = document.lines
        return [(diagnostic, [f for f in fixes if f.applies(lines)]) for diagnostic, fixes in found]

    def _diagnostic(self, uri, line, col, length, severity, message, code) -> lsp.Diagnostic:
        occurrence = Occurrence(to_fs_path(uri) or uri, line, col, length)
        return lsp.Diagnostic(range=self.range_of(occurrence), message=message, source="synsema",
                              severity=_SEVERITY[severity], code=code)

    def code_actions(self, uri: str, wanted: lsp.Range) -> list[lsp.CodeAction]:
        """The quick fixes of the diagnostics that touch `wanted`."""
        actions = []
        for diagnostic, fixes in self.problems(uri):
            if not _overlaps(diagnostic.range, wanted):
                continue
            for fix in fixes:
                edits = [lsp.TextEdit(range=self.edit_range(uri, e), new_text=e.text) for e in fix.edits]
                actions.append(lsp.CodeAction(title=fix.title, kind=lsp.CodeActionKind.QuickFix,
                                              diagnostics=[diagnostic], is_preferred=len(fixes) == 1,
                                              edit=lsp.WorkspaceEdit(changes={uri: edits})))
        return actions

    def edit_range(self, uri: str, edit) -> lsp.Range:
        lines = self.workspace.get_text_document(uri).lines
        return lsp.Range(start=self._codec_position(lines, edit.line - 1, edit.col - 1),
                         end=self._codec_position(lines, edit.end_line - 1, edit.end_col - 1))

    def convert(self, uri: str):
        """(line, col) -> 0-based (line, UTF-16 character) in the open file `uri`."""
        lines = self.workspace.get_text_document(uri).lines

        def to_client(line: int, col: int) -> tuple[int, int]:
            position = self._codec_position(lines, line - 1, col - 1)
            return position.line, position.character
        return to_client

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
        # Ranked by scope: the innermost frame's names first, then the program's globals, the
        # builtins, the keywords (sort_text orders them; the client filters by what is typed).
        items = []
        for rank, (name, kind) in enumerate(document.visible_names(line)):
            items.append(lsp.CompletionItem(label=name, kind=_ITEM_KIND.get(kind, lsp.CompletionItemKind.Variable),
                                            detail=kind, sort_text=f"0{rank:05d}"))
        local = {item.label for item in items}
        for name in sorted(self.builtins):
            if name in local or _refuses(self.builtins[name]):
                continue   # tier-C builtins exist only to refuse: never offered
            signature = _builtin_signature(name)
            items.append(lsp.CompletionItem(label=name, kind=lsp.CompletionItemKind.Function,
                                            detail=signature, documentation=_builtin_text(name),
                                            sort_text=f"1{name}"))
        for word in sorted(views.KEYWORDS):
            items.append(lsp.CompletionItem(label=word, kind=lsp.CompletionItemKind.Keyword, sort_text=f"2{word}"))
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


# Bounds of the workspace walk behind rename and workspace symbols: a folder opened by mistake
# (a home directory) costs a bounded time, and a huge file is skipped.
MAX_WORKSPACE_FILES = 2000
MAX_WORKSPACE_FILE_BYTES = 1 << 20
_SKIPPED_FOLDERS = frozenset({".git", ".venv", "venv", "node_modules", "__pycache__", ".tox"})


def workspace_paths(server: SynsemaServer) -> list[str]:
    """The .syn files under the workspace folders (at most MAX_WORKSPACE_FILES)."""
    roots = [to_fs_path(f.uri) for f in server.workspace.folders.values()] or \
        ([server.workspace.root_path] if server.workspace.root_path else [])
    found: list[str] = []
    for root in roots:
        for folder, subfolders, files in os.walk(root):
            subfolders[:] = sorted(d for d in subfolders if d not in _SKIPPED_FOLDERS and not d.startswith("."))
            for name in sorted(files):
                if name.endswith(".syn"):
                    found.append(os.path.join(folder, name))
                    if len(found) >= MAX_WORKSPACE_FILES:
                        return found
    return found


def document_at(server: SynsemaServer, path: str) -> Document | None:
    """The file at `path` as the editor has it open, else as it is on disk (None: unreadable)."""
    uri = from_fs_path(path) or path
    if uri in server.workspace.text_documents:
        return server.document(uri)
    try:
        if os.path.getsize(path) > MAX_WORKSPACE_FILE_BYTES:
            return None
        with open(path, encoding="utf-8") as handle:
            return Document(handle.read(), path, server.builtins)
    except (OSError, UnicodeDecodeError):
        return None


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


def lint(document: Document) -> list[tuple[int, int, int, str, str, str, list]]:
    """(line, col, length, severity, message, code, fixes) of what `synsema check` reports for a
    file that parses: the findings of its linter (`lang.lint`), each with its hint and fixes."""
    from synsema.lang.check import module_loader
    from synsema.lang.diagnostics import extent
    from synsema.lang.lint import lint as findings
    from synsema.runtime.capabilities import RUN_MODE_AUTO_GRANTS
    from synsema.stdlib.registry import declared
    from synsema.stdlib.unsupported import tier_c_family
    found = []
    uses = module_loader(document.path)
    for finding in findings(document.module, declared(), document.predeclared, RUN_MODE_AUTO_GRANTS, tier_c_family,
                            uses):
        line, col = (finding.span.line, finding.span.col) if finding.span is not None else (1, 1)
        text = document.lines[line - 1] if 0 < line <= len(document.lines) else ""
        message = finding.message + (f"\nhint: {finding.hint}" if finding.hint else "")
        found.append((line, col, max(1, extent(text, col) - col), finding.severity, message, finding.code,
                      finding.fixes))
    return found


def _overlaps(a: lsp.Range, b: lsp.Range) -> bool:
    def key(p: lsp.Position) -> tuple[int, int]:
        return p.line, p.character
    return key(a.start) <= key(b.end) and key(b.start) <= key(a.end)


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
        document, found = server.target(params)
        if found is None:
            return None
        return [server.location(o) for o in document.definition(found[1])] or None

    @server.feature(lsp.TEXT_DOCUMENT_REFERENCES)
    def references(params: lsp.ReferenceParams):
        document, found = server.target(params)
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

    @server.feature(lsp.TEXT_DOCUMENT_CODE_ACTION,
                    lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix]))
    def code_action(params: lsp.CodeActionParams):
        return server.code_actions(params.text_document.uri, params.range) or None

    @server.feature(lsp.TEXT_DOCUMENT_PREPARE_RENAME)
    def prepare_rename(params: lsp.PrepareRenameParams):
        _, found = server.target(params)
        if found is None or views.renameable(found[1]) is not None:
            return None
        return server.range_of(found[0])

    @server.feature(lsp.TEXT_DOCUMENT_RENAME, lsp.RenameOptions(prepare_provider=True))
    def rename(params: lsp.RenameParams):
        document, found = server.target(params)
        if found is None:
            raise RequestFailed("there is no name to rename here (a keyword or a literal)")
        why = views.renameable(found[1])
        try:
            if why is not None:
                raise views.RenameRefused(why)
            views.check_new_name(params.new_name, [n for n in document.predeclared if not _refuses(server.builtins[n])])
        except views.RenameRefused as refused:
            raise RequestFailed(str(refused)) from None
        users = [d for d in (document_at(server, p) for p in workspace_paths(server)) if d is not None]
        changes: dict[str, list[lsp.TextEdit]] = {}
        for site in views.rename_sites(document, found[1], users):
            changes.setdefault(from_fs_path(site.path) or site.path, []).append(
                lsp.TextEdit(range=server.range_of(site), new_text=params.new_name))
        return lsp.WorkspaceEdit(changes=changes)

    @server.feature(lsp.TEXT_DOCUMENT_SIGNATURE_HELP,
                    lsp.SignatureHelpOptions(trigger_characters=["(", ","], retrigger_characters=[","]))
    def signature_help(params: lsp.SignatureHelpParams):
        uri = params.text_document.uri
        line, col = server.cursor(uri, params.position)
        lines = server.workspace.get_text_document(uri).lines
        text = lines[line - 1] if 0 < line <= len(lines) else ""
        found = views.signature_at(server._completion_document(uri, line), text, line, col, server.builtins)
        if found is None:
            return None
        signature, active = found
        parameters = [lsp.ParameterInformation(label=p.label) for p in signature.parameters]
        information = lsp.SignatureInformation(
            label=signature.label, parameters=parameters, active_parameter=active,
            documentation=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=signature.doc)
            if signature.doc else None)
        return lsp.SignatureHelp(signatures=[information], active_signature=0, active_parameter=active)

    @server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_HIGHLIGHT)
    def document_highlight(params: lsp.DocumentHighlightParams):
        document, found = server.target(params)
        if found is None:
            return None
        target = found[1]
        declared = document.binding_site(target.binding) if target.kind == "binding" else None
        here = os.path.realpath(document.path)
        return [lsp.DocumentHighlight(range=server.range_of(o),
                                      kind=lsp.DocumentHighlightKind.Write if o == declared
                                      else lsp.DocumentHighlightKind.Read)
                for o in document.references(target) if os.path.realpath(o.path) == here] or None

    @server.feature(lsp.WORKSPACE_SYMBOL)
    def workspace_symbol(params: lsp.WorkspaceSymbolParams):
        query = params.query.lower()
        found = []
        for path in workspace_paths(server):
            document = document_at(server, path)
            if document is None:
                continue
            todo = [(symbol, None) for symbol in document.symbols()]
            while todo:
                symbol, container = todo.pop(0)
                if _subsequence(query, symbol.name.lower()):
                    found.append(lsp.WorkspaceSymbol(
                        name=symbol.name, kind=_SYMBOL_KIND[symbol.kind], container_name=container,
                        location=server.location(symbol.selection)))
                todo.extend((child, symbol.name) for child in symbol.children)
        return found

    legend = lsp.SemanticTokensLegend(token_types=list(views.TOKEN_TYPES), token_modifiers=list(views.MODIFIERS))

    def tokens_of(uri: str) -> tuple[str, list[int]]:
        data = views.encode(views.semantic_tokens(server.document(uri), server.builtins), server.convert(uri))
        previous = server.tokens.get(uri)
        result_id = str(int(previous[0]) + 1) if previous else "1"
        server.tokens[uri] = (result_id, data)
        return result_id, data, previous

    @server.feature(lsp.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL,
                    lsp.SemanticTokensRegistrationOptions(legend=legend, full=lsp.SemanticTokensFullDelta(delta=True),
                                                          document_selector=[{"language": "synsema"}]))
    def semantic_tokens_full(params: lsp.SemanticTokensParams):
        result_id, data, _ = tokens_of(params.text_document.uri)
        return lsp.SemanticTokens(data=data, result_id=result_id)

    @server.feature(lsp.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL_DELTA)
    def semantic_tokens_delta(params: lsp.SemanticTokensDeltaParams):
        result_id, data, previous = tokens_of(params.text_document.uri)
        if previous is None or previous[0] != params.previous_result_id:
            return lsp.SemanticTokens(data=data, result_id=result_id)
        start, deleted, inserted = views.delta(previous[1], data)
        edits = [lsp.SemanticTokensEdit(start=start, delete_count=deleted, data=inserted)] \
            if deleted or inserted else []
        return lsp.SemanticTokensDelta(edits=edits, result_id=result_id)

    @server.feature(lsp.TEXT_DOCUMENT_FOLDING_RANGE)
    def folding_range(params: lsp.FoldingRangeParams):
        document = server.document(params.text_document.uri)
        return [lsp.FoldingRange(start_line=f.first - 1, end_line=f.last - 1,
                                 kind=lsp.FoldingRangeKind.Comment if f.kind == "comment"
                                 else lsp.FoldingRangeKind.Region)
                for f in views.folding_ranges(document)]

    @server.feature(lsp.TEXT_DOCUMENT_INLAY_HINT, lsp.InlayHintOptions(resolve_provider=False))
    def inlay_hint(params: lsp.InlayHintParams):
        if not server.parameter_hints:
            return []
        uri = params.text_document.uri
        document = server.document(uri)
        first, _ = server.cursor(uri, params.range.start)
        last, _ = server.cursor(uri, params.range.end)
        to_client = server.convert(uri)
        hints = []
        for hint in views.parameter_hints(document, server.builtins, first, last):
            line, char = to_client(hint.line, hint.col)
            hints.append(lsp.InlayHint(position=lsp.Position(line=line, character=char), label=hint.label,
                                       kind=lsp.InlayHintKind.Parameter, padding_right=True))
        return hints

    @server.feature(lsp.INITIALIZE)
    def initialize(params: lsp.InitializeParams):
        settings(params.initialization_options)

    @server.feature(lsp.WORKSPACE_DID_CHANGE_CONFIGURATION)
    def did_change_configuration(params: lsp.DidChangeConfigurationParams):
        settings(params.settings)

    def settings(options) -> None:
        """`{"synsema": {"inlayHints": {"parameterNames": false}}}` (or without the outer key, as
        initialization options) turns the parameter-name hints off."""
        if not isinstance(options, dict):
            return
        options = options.get("synsema", options)
        hints = options.get("inlayHints") if isinstance(options, dict) else None
        if isinstance(hints, dict) and isinstance(hints.get("parameterNames"), bool):
            server.parameter_hints = hints["parameterNames"]

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


def _refuses(value) -> bool:
    """A tier-C builtin: present only so that a call explains itself, never offered."""
    return type(value) is Builtin and value.spec.unsupported


def _subsequence(query: str, name: str) -> bool:
    """Whether the letters of `query` appear in `name` in order (how editors filter symbols)."""
    letters = iter(name)
    return all(ch in letters for ch in query)


def main() -> int:
    build_server().start_io()
    return 0
