"""`synsema lsp` end to end, the features beyond navigation: rename across `use`, quick fixes,
signature help, document highlight, workspace symbols, semantic tokens (full and delta),
folding ranges, inlay hints and completion ranked by scope. pytest-lsp starts the real server
(`python -m synsema lsp`) and speaks to it as an editor would."""

from __future__ import annotations

import pytest
from lsprotocol import types

from tests.editor.test_lsp import MAIN, SHAPES, at, change, client, open_file, pos_of, uri_of  # noqa: F401


def doc(uri: str) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=uri)


def apply(text: str, edits: list[types.TextEdit]) -> str:
    """`text` with LSP edits applied (ASCII text: characters are code points)."""
    lines = text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)

    def index(p: types.Position) -> int:
        return min(offsets[p.line] + p.character, len(text)) if p.line < len(offsets) else len(text)
    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        text = text[:index(edit.range.start)] + edit.new_text + text[index(edit.range.end):]
    return text


@pytest.mark.asyncio
async def test_initialize_advertises_every_feature(client):
    server = client.server_capabilities
    assert server.rename_provider and server.rename_provider.prepare_provider
    assert list(server.code_action_provider.code_action_kinds) == [types.CodeActionKind.QuickFix]
    assert list(server.signature_help_provider.trigger_characters) == ["(", ","]
    assert server.document_highlight_provider and server.workspace_symbol_provider
    assert server.semantic_tokens_provider.full.delta is True
    assert server.folding_range_provider and server.inlay_hint_provider
    assert server.completion_provider and server.hover_provider and server.definition_provider
    assert server.references_provider and server.document_symbol_provider
    assert server.document_formatting_provider


@pytest.mark.asyncio
async def test_rename_follows_a_task_across_use(client):
    main = await open_file(client, "main.syn")
    result = await client.text_document_rename_async(types.RenameParams(
        text_document=doc(main), position=pos_of(MAIN, "shapes.area", offset=8), new_name="surface"))
    shapes = uri_of(client, "shapes.syn")
    assert set(result.changes) == {main, shapes}
    assert "shapes.surface(item)" in apply(MAIN, result.changes[main])
    renamed = apply(SHAPES, result.changes[shapes])
    assert "export task surface(side)" in renamed and "give surface(2)" in renamed
    # From the defining file, the users of the module are found in the workspace.
    home = await open_file(client, "shapes.syn")
    back = await client.text_document_rename_async(types.RenameParams(
        text_document=doc(home), position=pos_of(SHAPES, "area(side)"), new_name="size"))
    assert set(back.changes) == {main, home}
    assert "shapes.size(item)" in apply(MAIN, back.changes[main])


@pytest.mark.asyncio
async def test_rename_of_a_local_stays_in_its_task(client):
    main = await open_file(client, "main.syn")
    result = await client.text_document_rename_async(types.RenameParams(
        text_document=doc(main), position=pos_of(MAIN, "sum be"), new_name="acc"))
    renamed = apply(MAIN, result.changes[main])
    assert "let acc be 0" in renamed and "set acc to acc + " in renamed and "give acc" in renamed
    assert list(result.changes) == [main]


@pytest.mark.asyncio
async def test_rename_refuses_builtins_keywords_and_bad_names(client):
    main = await open_file(client, "main.syn")
    builtin = pos_of(MAIN, "length(config)", offset=1)
    assert await client.text_document_prepare_rename_async(types.PrepareRenameParams(
        text_document=doc(main), position=builtin)) is None
    with pytest.raises(Exception, match="is a builtin: it cannot be renamed"):
        await client.text_document_rename_async(types.RenameParams(
            text_document=doc(main), position=builtin, new_name="size"))
    keyword = pos_of(MAIN, "each item", offset=1)
    assert await client.text_document_prepare_rename_async(types.PrepareRenameParams(
        text_document=doc(main), position=keyword)) is None
    with pytest.raises(Exception, match="no name to rename here"):
        await client.text_document_rename_async(types.RenameParams(
            text_document=doc(main), position=keyword, new_name="x"))
    task = pos_of(MAIN, "total(items")
    ready = await client.text_document_prepare_rename_async(types.PrepareRenameParams(
        text_document=doc(main), position=task))
    assert ready.start == task and ready.end.character - task.character == len("total")
    for bad, why in (("when", "is a keyword"), ("print", "is a builtin"), ("2x", "is not a name")):
        with pytest.raises(Exception, match=why):
            await client.text_document_rename_async(types.RenameParams(
                text_document=doc(main), position=task, new_name=bad))


async def quick_fixes(client, uri: str, text: str) -> dict[str, list[types.TextEdit]]:
    """title -> edits of every quick fix the server offers for the whole file."""
    end = at(text.count("\n") + 1, 0)
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=doc(uri), range=types.Range(start=at(0, 0), end=end),
        context=types.CodeActionContext(diagnostics=list(client.diagnostics[uri]))))
    assert all(a.kind == types.CodeActionKind.QuickFix and a.diagnostics for a in actions or [])
    return {a.title: a.edit.changes[uri] for a in actions or []}


@pytest.mark.asyncio
async def test_code_actions_apply_the_suggestion_and_rewrite_reflexes(client):
    text = "let total be 3\nprint(totl)\nprint(null)\nlet xs be [1]\nprint(xs.length)\n"
    uri = await open_file(client, "fixes.syn", text)
    fixes = await quick_fixes(client, uri, text)
    assert set(fixes) == {"Change 'totl' to 'total'", "Replace 'null' with 'nothing'",
                          "Replace 'xs.length' with 'length(xs)'"}
    fixed = text
    for edits in fixes.values():
        fixed = apply(fixed, edits)
    assert fixed == "let total be 3\nprint(total)\nprint(nothing)\nlet xs be [1]\nprint(length(xs))\n"
    await change(client, uri, fixed, 2)
    assert list(client.diagnostics[uri]) == []


@pytest.mark.asyncio
async def test_a_parse_error_offers_its_rewrite(client):
    text = "let n be 1\nwhen n = 1\n    print(n)\n"
    uri = await open_file(client, "when.syn", text)
    (problem,) = client.diagnostics[uri]
    assert "compare with `==`" in problem.message
    (edits,) = (await quick_fixes(client, uri, text)).values()
    assert apply(text, edits) == "let n be 1\nwhen n == 1\n    print(n)\n"


@pytest.mark.asyncio
async def test_signature_help_shows_parameters_types_defaults_and_the_doc_line(client):
    typing = MAIN + "print(total([1], \n"
    uri = await open_file(client, "main.syn")
    await change(client, uri, typing, 2)
    help_ = await client.text_document_signature_help_async(types.SignatureHelpParams(
        text_document=doc(uri), position=pos_of(typing, "total([1], ", offset=len("total([1], "))))
    (signature,) = help_.signatures
    assert signature.label == "total(items: list, scale: number = 1)"
    assert [p.label for p in signature.parameters] == ["items: list", "scale: number = 1"]
    assert help_.active_parameter == 1 and signature.documentation.value == "The total area of some shapes."
    builtin = MAIN + 'print(split("a,b", '
    await change(client, uri, builtin, 3)
    help_ = await client.text_document_signature_help_async(types.SignatureHelpParams(
        text_document=doc(uri), position=pos_of(builtin, 'split("a,b", ', offset=len('split("a,b", '))))
    (signature,) = help_.signatures
    assert signature.label.startswith("split(") and help_.active_parameter == 1
    assert signature.documentation.value.endswith(".")
    member = MAIN + "print(shapes.area("
    await change(client, uri, member, 4)
    help_ = await client.text_document_signature_help_async(types.SignatureHelpParams(
        text_document=doc(uri), position=pos_of(member, "shapes.area(", nth=1, offset=len("shapes.area("))))
    assert help_.signatures[0].label == "area(side)" and help_.active_parameter == 0


@pytest.mark.asyncio
async def test_document_highlight_marks_the_definition_and_its_uses(client):
    uri = await open_file(client, "main.syn")
    marks = await client.text_document_document_highlight_async(types.DocumentHighlightParams(
        text_document=doc(uri), position=pos_of(MAIN, "sum + ")))
    found = {(m.range.start.line, m.range.start.character, m.kind) for m in marks}
    written = pos_of(MAIN, "sum be")
    assert (written.line, written.character, types.DocumentHighlightKind.Write) in found
    assert len(found) == 4   # let, set, the read in the set, give


@pytest.mark.asyncio
async def test_workspace_symbols_search_every_file(client):
    await open_file(client, "main.syn")
    found = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="ar"))
    names = {(s.name, s.location.uri.rsplit("/", 1)[1]) for s in found}
    assert ("area", "shapes.syn") in names
    assert all("a" in n.lower() and "r" in n.lower() for n, _ in names)
    point = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="x"))
    assert ("x", "Point") in {(s.name, s.container_name) for s in point}


def decode(data: list[int], legend: types.SemanticTokensLegend, text: str) -> list[tuple[str, str]]:
    lines = text.split("\n")
    out, line, char = [], 0, 0
    for i in range(0, len(data), 5):
        d_line, d_char, length, kind, _mods = data[i:i + 5]
        line += d_line
        char = char + d_char if d_line == 0 else d_char
        out.append((lines[line][char:char + length], legend.token_types[kind]))
    return out


@pytest.mark.asyncio
async def test_semantic_tokens_full_then_delta(client):
    uri = await open_file(client, "main.syn")
    legend = client.server_capabilities.semantic_tokens_provider.legend
    full = await client.text_document_semantic_tokens_full_async(types.SemanticTokensParams(text_document=doc(uri)))
    tokens = decode(full.data, legend, MAIN)
    assert ("task", "keyword") in tokens and ("total", "function") in tokens
    assert ("items", "parameter") in tokens and ("shapes", "namespace") in tokens
    assert ("length", "function") in tokens and ('"demo"', "string") in tokens
    assert ("-- The total area of some shapes.", "comment") in tokens and ("3", "number") in tokens
    edited = MAIN.replace("let sum be 0", "let sum be 10")
    await change(client, uri, edited, 2)
    delta = await client.text_document_semantic_tokens_full_delta_async(types.SemanticTokensDeltaParams(
        text_document=doc(uri), previous_result_id=full.result_id))
    assert isinstance(delta, types.SemanticTokensDelta) and delta.result_id != full.result_id
    (edit,) = delta.edits
    old = list(full.data)
    patched = old[:edit.start] + list(edit.data or []) + old[edit.start + edit.delete_count:]
    again = await client.text_document_semantic_tokens_full_async(types.SemanticTokensParams(text_document=doc(uri)))
    assert patched == list(again.data) and len(edit.data) < len(again.data)


@pytest.mark.asyncio
async def test_folding_ranges_cover_blocks_and_comment_runs(client):
    text = "-- one\n-- two\ntask f(x)\n    when x > 1\n        give 1\n    give 2\n\nlet m be {\n    a: 1,\n}\n"
    uri = await open_file(client, "fold.syn", text)
    ranges = await client.text_document_folding_range_async(types.FoldingRangeParams(text_document=doc(uri)))
    found = {(r.start_line, r.end_line, r.kind) for r in ranges}
    assert found == {(0, 1, types.FoldingRangeKind.Comment), (2, 5, types.FoldingRangeKind.Region),
                     (3, 4, types.FoldingRangeKind.Region), (7, 9, types.FoldingRangeKind.Region)}


@pytest.mark.asyncio
async def test_inlay_hints_name_literal_arguments_and_can_be_turned_off(client):
    text = 'task area(w, h)\n    give w * h\nlet side be 2\nprint(area(3, side))\nprint(split("a,b", ","))\n'
    uri = await open_file(client, "hints.syn", text)
    whole = types.Range(start=at(0, 0), end=at(6, 0))
    hints = await client.text_document_inlay_hint_async(types.InlayHintParams(text_document=doc(uri), range=whole))
    shown = [(h.position.line, h.position.character, h.label) for h in hints]
    assert (3, 11, "w:") in shown and not any(label == "h:" for *_, label in shown)
    assert [label for line, _, label in shown if line == 4] == ["t:", "sep:"]
    assert all(h.kind == types.InlayHintKind.Parameter for h in hints)
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"synsema": {"inlayHints": {"parameterNames": False}}}))
    off = await client.text_document_inlay_hint_async(types.InlayHintParams(text_document=doc(uri), range=whole))
    assert not off


@pytest.mark.asyncio
async def test_completion_hides_tier_c_and_ranks_by_scope(client):
    inside = MAIN.replace("        give sum\n", "        give s\n")
    uri = await open_file(client, "main.syn")
    await change(client, uri, inside, 2)
    result = await client.text_document_completion_async(types.CompletionParams(
        text_document=doc(uri), position=pos_of(inside, "give s", offset=6)))
    items = {item.label: item for item in result.items}
    assert not {"full", "serve", "http_get", "db_open", "render"} & set(items)
    ranked = sorted(result.items, key=lambda item: item.sort_text)
    order = [item.label for item in ranked]
    assert order.index("sum") < order.index("total") < order.index("split") < order.index("when")
    assert order.index("scale") < order.index("config")
    assert len(items) < 300
