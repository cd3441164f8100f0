"""`synsema lsp` end to end: pytest-lsp starts the real server (`python -m synsema lsp`) over
stdio and speaks LSP to it as an editor would — diagnostics while typing, hover, completion,
definitions and references across `use`, document symbols and formatting."""

from __future__ import annotations

import sys
import textwrap

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from tests.conftest import ROOT, synsema_env

MAIN = textwrap.dedent('''\
    use "./shapes.syn" as shapes

    -- The total area of some shapes.
    task total(items: list, scale: number = 1)
        let sum be 0
        each item in items
            set sum to sum + shapes.area(item) * scale
        give sum

    let config be {"limit": 3, "name": "demo"}
    require net("api.example.com")
    print(total([2, 3]), length(config), shapes.unit)

    test "totals add up"
        assert_eq(total([1]), 1)
''')

SHAPES = textwrap.dedent('''\
    -- The area of a square of side `side`.
    export task area(side)
        give side * side

    export let unit be "cm"

    task helper()
        give area(2)

    type Point
        x: number
        y: number

    enum Shape
        circle(r)
        rect(w, h)
''')


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "synsema", "lsp"],
                                              server_env=synsema_env()))
async def client(lsp_client: LanguageClient, tmp_path_factory):
    folder = tmp_path_factory.mktemp("project")
    (folder / "main.syn").write_text(MAIN)
    (folder / "shapes.syn").write_text(SHAPES)
    lsp_client.folder = folder
    result = await lsp_client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"), root_uri=folder.as_uri(),
        workspace_folders=[types.WorkspaceFolder(uri=folder.as_uri(), name="project")]))
    lsp_client.server_capabilities = result.capabilities   # what initialize advertised
    yield
    await lsp_client.shutdown_session()


def uri_of(client, name: str) -> str:
    return (client.folder / name).as_uri()


async def open_file(client, name: str, text: str | None = None) -> str:
    uri = uri_of(client, name)
    text = (client.folder / name).read_text() if text is None else text
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="synsema", version=1, text=text)))
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    return uri


async def change(client, uri: str, text: str, version: int) -> None:
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)


def at(line: int, character: int) -> types.Position:
    return types.Position(line=line, character=character)


def pos_of(text: str, needle: str, nth: int = 0, offset: int = 0) -> types.Position:
    """The 0-based position of the nth occurrence of `needle` in `text` (plus `offset` chars)."""
    index = -1
    for _ in range(nth + 1):
        index = text.index(needle, index + 1)
    index += offset
    line = text.count("\n", 0, index)
    return at(line, index - (text.rfind("\n", 0, index) + 1))


@pytest.mark.asyncio
async def test_diagnostics_follow_the_text_as_it_is_typed(client):
    uri = await open_file(client, "main.syn")
    assert list(client.diagnostics[uri]) == []
    await change(client, uri, MAIN.replace("length(config)", "lenght(config)"), 2)
    (problem,) = client.diagnostics[uri]
    assert "undefined name 'lenght'" in problem.message and "did you mean 'length'?" in problem.message
    assert problem.range.start == pos_of(MAIN, "length(config)")
    assert problem.range.end.character - problem.range.start.character == len("lenght")
    assert problem.severity == types.DiagnosticSeverity.Error
    await change(client, uri, MAIN + "print(1 +\n", 3)
    (broken,) = client.diagnostics[uri]
    assert broken.range.start.line >= MAIN.count("\n") and broken.code in ("parse", "lexer")
    await change(client, uri, MAIN, 4)
    assert list(client.diagnostics[uri]) == []


@pytest.mark.asyncio
async def test_hover_shows_builtins_tasks_module_members_and_capabilities(client):
    uri = await open_file(client, "main.syn")

    async def hover(position) -> str:
        result = await client.text_document_hover_async(types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=position))
        assert result is not None
        return result.contents.value

    assert "length(" in await hover(pos_of(MAIN, "length(config)", offset=2))
    task = await hover(pos_of(MAIN, "total([2, 3])", offset=1))
    assert "task total(items: list, scale: number = 1)" in task and "The total area of some shapes." in task
    member = await hover(pos_of(MAIN, "shapes.area", offset=8))
    assert "task area(side)" in member and "The area of a square" in member and "shapes.syn" in member
    assert "network" in await hover(pos_of(MAIN, 'net("api', offset=1))


@pytest.mark.asyncio
async def test_completion_offers_scope_builtins_keywords_keys_and_exports(client):
    uri = await open_file(client, "main.syn")

    async def labels(text: str, position) -> dict[str, types.CompletionItem]:
        await change(client, uri, text, 10 + len(text))
        result = await client.text_document_completion_async(types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=position))
        return {item.label: item for item in result.items}

    inside = MAIN.replace("        give sum\n", "        give s\n")
    found = await labels(inside, pos_of(inside, "give s", offset=6))
    assert {"sum", "items", "scale", "total", "config", "shapes"} <= set(found)
    assert "item" not in found   # the loop variable is not visible after the loop's body
    assert "split" in found and "split(" in (found["split"].detail or "")
    assert {"when", "each", "give", "test"} <= set(found)
    typing = MAIN + "print(shapes.)\n"
    exports = await labels(typing, pos_of(typing, "shapes.)", offset=7))
    assert set(exports) == {"area", "unit"}
    keys = MAIN + "print(config.)\n"
    assert set(await labels(keys, pos_of(keys, "config.)", offset=7))) == {"limit", "name"}
    quoted = MAIN + 'print(config["'
    assert set(await labels(quoted, pos_of(quoted, 'config["', offset=8))) == {"limit", "name"}


@pytest.mark.asyncio
async def test_definition_and_references_across_use(client):
    uri = await open_file(client, "main.syn")
    document = types.TextDocumentIdentifier(uri=uri)
    local = await client.text_document_definition_async(types.DefinitionParams(
        text_document=document, position=pos_of(MAIN, "sum + ")))
    assert [(d.uri, d.range.start) for d in local] == [(uri, pos_of(MAIN, "sum be"))]
    member = await client.text_document_definition_async(types.DefinitionParams(
        text_document=document, position=pos_of(MAIN, "shapes.area", offset=8)))
    shapes_uri = uri_of(client, "shapes.syn")
    assert [(d.uri, d.range.start) for d in member] == [(shapes_uri, pos_of(SHAPES, "area(side)"))]
    used = await client.text_document_references_async(types.ReferenceParams(
        text_document=document, position=pos_of(MAIN, "total([2", offset=1),
        context=types.ReferenceContext(include_declaration=True)))
    assert sorted((r.range.start.line, r.range.start.character) for r in used) == sorted(
        (p.line, p.character) for p in (pos_of(MAIN, "total(items"), pos_of(MAIN, "total([2"),
                                        pos_of(MAIN, "total([1")))
    across = await client.text_document_references_async(types.ReferenceParams(
        text_document=document, position=pos_of(MAIN, "shapes.area", offset=8),
        context=types.ReferenceContext(include_declaration=True)))
    places = {(r.uri, r.range.start.line) for r in across}
    assert places == {(uri, pos_of(MAIN, "shapes.area").line), (shapes_uri, pos_of(SHAPES, "area(side)").line),
                      (shapes_uri, pos_of(SHAPES, "area(2)").line)}


@pytest.mark.asyncio
async def test_document_symbols_list_tasks_tests_types_and_enums(client):
    uri = await open_file(client, "shapes.syn")
    symbols = await client.text_document_document_symbol_async(types.DocumentSymbolParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))
    outline = [(s.name, s.kind, [c.name for c in s.children or []]) for s in symbols]
    assert outline == [("area", types.SymbolKind.Function, []), ("unit", types.SymbolKind.Variable, []),
                       ("helper", types.SymbolKind.Function, []),
                       ("Point", types.SymbolKind.Struct, ["x", "y"]),
                       ("Shape", types.SymbolKind.Enum, ["circle", "rect"])]
    area = symbols[0]
    assert area.selection_range.start == pos_of(SHAPES, "area(side)")
    assert area.range.end.line == pos_of(SHAPES, "give side").line
    main = await open_file(client, "main.syn")
    tests = await client.text_document_document_symbol_async(types.DocumentSymbolParams(
        text_document=types.TextDocumentIdentifier(uri=main)))
    assert ("totals add up", types.SymbolKind.Method) in [(s.name, s.kind) for s in tests]


@pytest.mark.asyncio
async def test_formatting_is_synsema_fmt(client):
    messy = "let   x be [1,2]\nwhen x[0]>0\n  print( x )\n"
    uri = await open_file(client, "messy.syn", messy)
    edits = await client.text_document_formatting_async(types.DocumentFormattingParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        options=types.FormattingOptions(tab_size=4, insert_spaces=True)))
    (edit,) = edits
    assert edit.new_text == "let x be [1, 2]\nwhen x[0] > 0\n    print(x)\n"
    assert edit.range.start == at(0, 0)
    broken = await open_file(client, "broken.syn", "print(1 +\n")
    assert await client.text_document_formatting_async(types.DocumentFormattingParams(
        text_document=types.TextDocumentIdentifier(uri=broken),
        options=types.FormattingOptions(tab_size=4, insert_spaces=True))) is None


@pytest.mark.asyncio
async def test_diagnostics_carry_the_linter_of_synsema_check(client):
    text = 'task f(a)\n    give a\n    print("never")\n\nprint(f(1, 2))\nprint(read_file("x.txt"))\n'
    uri = await open_file(client, "lint.syn", text)
    by_code = {d.code: d for d in client.diagnostics[uri]}
    assert {"unreachable", "arity", "missing-capability"} <= set(by_code), by_code
    assert by_code["unreachable"].severity == types.DiagnosticSeverity.Warning
    assert by_code["unreachable"].range.start == pos_of(text, 'print("never")')
    assert by_code["arity"].severity == types.DiagnosticSeverity.Error
    assert by_code["arity"].range.start.line == 4
    assert "require" in by_code["missing-capability"].message


@pytest.mark.asyncio
async def test_diagnostics_warn_of_a_shadowed_alias_and_a_name_the_module_does_not_export(client):
    text = 'use "./shapes.syn" as shapes\nprint(shapes.aera(2))\nprint(shapes.helper())\n' \
           'task draw(shapes)\n    give shapes\n'
    uri = await open_file(client, "uses.syn", text)
    found = sorted((d.code, d.range.start.line, d.message) for d in client.diagnostics[uri])
    assert [(code, line) for code, line, _ in found] == [("no-export", 1), ("no-export", 2), ("shadowed-alias", 3)]
    assert "module 'shapes' has no export 'aera'\nhint: did you mean 'shapes.area'?" in found[0][2]
    assert "write `export task helper` there" in found[1][2]
    assert all(d.severity == types.DiagnosticSeverity.Warning for d in client.diagnostics[uri])
