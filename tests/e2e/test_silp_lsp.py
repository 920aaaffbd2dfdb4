"""End to end: pytest-lsp (a real LSP client) starts the built `silp-lsp` binary over
stdio and checks diagnostics, a quick fix, hover and completion as an editor sees them.

Run through scripts/test-lsp-e2e.sh, which builds the binary and sets SILP_LSP.
"""

import asyncio
import os

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

SERVER = os.environ.get("SILP_LSP", "silp-lsp")

# Emoji (2 UTF-16 units) then two tag characters (2 units each) before `begn`.
EMOJI_LINE = "start(\U0001F600\U000E0041\U000E0042); begn(x)"
TEXT = EMOJI_LINE + "\r\nCancel(x)\nif !rain(t+1): start(hike)\n"
URI = "file:///e2e/prompts/travel.silp"


def utf16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[SERVER]))
async def client(lsp_client: LanguageClient):
    params = types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code")
    )
    result = await lsp_client.initialize_session(params)
    assert result.capabilities.position_encoding in (None, "utf-16")
    yield
    await lsp_client.shutdown_session()


async def open_and_wait(client: LanguageClient, uri: str, text: str, language="silp"):
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri, language_id=language, version=1, text=text
            )
        )
    )
    for _ in range(100):
        if uri in client.diagnostics:
            return client.diagnostics[uri]
        await asyncio.wait_for(
            client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), 10
        )
    raise AssertionError(f"no diagnostics for {uri}")


def find(diagnostics, code):
    found = [d for d in diagnostics if d.code == code]
    assert found, f"{code} not in {[d.code for d in diagnostics]}"
    return found[0]


@pytest.mark.asyncio
async def test_diagnostics_have_exact_utf16_ranges(client: LanguageClient):
    diagnostics = await open_and_wait(client, URI, TEXT)
    begn = find(diagnostics, "SL101")
    start = utf16(EMOJI_LINE[: EMOJI_LINE.index("begn")])
    assert start == 15
    assert begn.range == types.Range(
        start=types.Position(line=0, character=start),
        end=types.Position(line=0, character=start + 4),
    )
    assert begn.source == "silp-lint"
    # The two tag characters: after `start(` (6 units) and the emoji (2 units).
    tags = find(diagnostics, "SL204")
    assert tags.range == types.Range(
        start=types.Position(line=0, character=8),
        end=types.Position(line=0, character=12),
    )
    # Every diagnostic starts and ends on the line's character boundaries.
    boundaries = {utf16(EMOJI_LINE[:i]) for i in range(len(EMOJI_LINE) + 1)}
    for d in diagnostics:
        if d.range.start.line == 0:
            assert d.range.start.character in boundaries, d
            assert d.range.end.character in boundaries, d
    # The CRLF ends line 0: `Cancel` is on line 1.
    cancel = find(diagnostics, "SL104")
    assert cancel.range.start == types.Position(line=1, character=0)
    assert cancel.range.end == types.Position(line=1, character=6)


@pytest.mark.asyncio
async def test_quick_fix(client: LanguageClient):
    diagnostics = await open_and_wait(client, URI, TEXT)
    cancel = find(diagnostics, "SL104")
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=URI),
            range=cancel.range,
            context=types.CodeActionContext(diagnostics=[cancel]),
        )
    )
    fixes = [a for a in actions if a.kind == types.CodeActionKind.QuickFix]
    assert len(fixes) == 1
    fix = fixes[0]
    assert fix.is_preferred is True
    assert list(fix.edit.changes[URI]) == [
        types.TextEdit(range=cancel.range, new_text="cancel")
    ]


@pytest.mark.asyncio
async def test_hover_on_a_verb(client: LanguageClient):
    await open_and_wait(client, URI, TEXT)
    hover = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=URI),
            position=types.Position(line=2, character=17),
        )
    )
    assert hover is not None
    assert "`!START`" in hover.contents.value
    assert "whitelisted" in hover.contents.value
    assert hover.range == types.Range(
        start=types.Position(line=2, character=15),
        end=types.Position(line=2, character=20),
    )


@pytest.mark.asyncio
async def test_completion_of_verbs_and_anchors(client: LanguageClient):
    await open_and_wait(client, URI, "if !rain(t+1): st")
    items = await client.text_document_completion_async(
        types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=URI),
            position=types.Position(line=0, character=17),
        )
    )
    items = items.items if hasattr(items, "items") else items
    assert "start" in [i.label for i in items]
    slip = "file:///e2e/wire.slip"
    await open_and_wait(client, slip, "SLIP v1 planner executor Ask", "slip")
    items = await client.text_document_completion_async(
        types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=slip),
            position=types.Position(line=0, character=28),
        )
    )
    items = items.items if hasattr(items, "items") else items
    assert {"AskClarify", "AskStatus"} <= {i.label for i in items}
