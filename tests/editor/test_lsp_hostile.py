"""The language server against hostile requests (issue 25 item 9): every request is answered,
and no answer carries a Python traceback."""

from __future__ import annotations

import asyncio
import sys

import pytest
import pytest_lsp
from pygls.exceptions import JsonRpcInvalidParams
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from tests.conftest import synsema_env


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "synsema", "lsp"],
                                              server_env=synsema_env()))
async def client(lsp_client: LanguageClient, tmp_path_factory):
    folder = tmp_path_factory.mktemp("project")
    (folder / "main.syn").write_text("task f(x)\n    give x\nprint(f(1))\n")
    lsp_client.folder = folder
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"), root_uri=folder.as_uri()))
    yield
    await lsp_client.shutdown_session()


def _position(line: int, character: int) -> types.Position:
    """A position as a hostile client sends it: lsprotocol refuses to build a negative one,
    so its fields are set past the validators."""
    position = types.Position(line=0, character=0)
    object.__setattr__(position, "line", line)
    object.__setattr__(position, "character", character)
    return position


MISSING = "missing.syn"


def _requests(uri: str) -> dict:
    document = types.TextDocumentIdentifier(uri=uri)
    where = {"text_document": document, "position": types.Position(line=0, character=0)}
    return {
        "definition": lambda c: c.text_document_definition_async(types.DefinitionParams(**where)),
        "hover": lambda c: c.text_document_hover_async(types.HoverParams(**where)),
        "references": lambda c: c.text_document_references_async(types.ReferenceParams(
            **where, context=types.ReferenceContext(include_declaration=True))),
        "completion": lambda c: c.text_document_completion_async(types.CompletionParams(**where)),
        "symbols": lambda c: c.text_document_document_symbol_async(
            types.DocumentSymbolParams(text_document=document)),
        "formatting": lambda c: c.text_document_formatting_async(types.DocumentFormattingParams(
            text_document=document, options=types.FormattingOptions(tab_size=4, insert_spaces=True))),
        "highlight": lambda c: c.text_document_document_highlight_async(types.DocumentHighlightParams(**where)),
        "signature help": lambda c: c.text_document_signature_help_async(types.SignatureHelpParams(**where)),
        "folding": lambda c: c.text_document_folding_range_async(types.FoldingRangeParams(text_document=document)),
        "prepare rename": lambda c: c.text_document_prepare_rename_async(types.PrepareRenameParams(**where)),
    }


@pytest.mark.asyncio
@pytest.mark.parametrize("request_name", sorted(_requests("file:///x")))
async def test_requests_on_a_file_that_does_not_exist_answer_nothing(client, request_name):
    send = _requests((client.folder / MISSING).as_uri())[request_name]
    answer = await asyncio.wait_for(send(client), 10)
    assert answer is None or answer == [] or getattr(answer, "items", None) == []


@pytest.mark.asyncio
@pytest.mark.parametrize("line, character", [(-1, 0), (0, -5), (-3, -3), (99999, 99999)])
async def test_a_hover_anywhere_is_answered(client, line, character):
    """A position past the end answers nothing; a negative one, which the protocol's types
    cannot hold, the JSON-RPC error InvalidParams — never silence."""
    uri = (client.folder / "main.syn").as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
        uri=uri, language_id="synsema", version=1, text=(client.folder / "main.syn").read_text())))
    params = types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri),
                               position=_position(line, character))
    if line >= 0 and character >= 0:
        assert await asyncio.wait_for(client.text_document_hover_async(params), 10) is None
        return
    with pytest.raises(JsonRpcInvalidParams, match="the parameters are not valid"):
        await asyncio.wait_for(client.text_document_hover_async(params), 10)
    # and the server still answers what comes next
    ok = types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri),
                           position=types.Position(line=2, character=6))
    answer = await asyncio.wait_for(client.text_document_hover_async(ok), 10)
    assert answer is not None and "task f(x)" in answer.contents.value
