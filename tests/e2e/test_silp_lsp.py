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


def kind_of(action) -> str:
    return getattr(action.kind, "value", action.kind)


@pytest.mark.asyncio
async def test_fix_all_is_computed_when_chosen_and_at_once_on_save(client: LanguageClient):
    uri = "file:///e2e/prompts/fix_all.silp"
    await open_and_wait(client, uri, "Cancel(x)\nStart(y)\n")
    document = types.TextDocumentIdentifier(uri=uri)
    whole = types.Range(
        start=types.Position(line=0, character=0), end=types.Position(line=2, character=0)
    )
    # The light bulb: offered without its edit.
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=document,
            range=whole,
            context=types.CodeActionContext(diagnostics=[]),
        )
    )
    offered = [a for a in actions if kind_of(a) == "source.fixAll.silp-lint"]
    assert len(offered) == 1 and offered[0].edit is None, actions
    # Chosen: resolved to what `check --fix` writes.
    resolved = await client.code_action_resolve_async(offered[0])
    assert [e.new_text for e in resolved.edit.changes[uri]] == ["cancel", "start"]
    # On save (`editor.codeActionsOnSave`): asked for by kind, it comes whole.
    on_save = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=document,
            range=whole,
            context=types.CodeActionContext(diagnostics=[], only=["source.fixAll"]),
        )
    )
    assert len(on_save) == 1, on_save
    assert on_save[0].edit.changes[uri] == resolved.edit.changes[uri]


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


def absolute_tokens(data):
    """Semantic tokens as (line, character, length, type index)."""
    tokens, line, character = [], 0, 0
    for i in range(0, len(data), 5):
        delta_line, delta_start, length, kind = data[i : i + 4]
        line += delta_line
        character = character + delta_start if delta_line == 0 else delta_start
        tokens.append((line, character, length, kind))
    return tokens


FUNCTION, ENUM_MEMBER = 1, 8

# A payload in a block quote's fence (after `> `), a SLIP fence, and prose that
# mentions a verb but is no payload.
PAGE = (
    "# Plans \U0001F600\n\n"
    "If it rains: start(cards).\n\n"
    "> ```silp\n> if !rain(t+1): start(hike)\n> ```\n\n"
    "```slip\nSLIP v1 a b ObserveState\n```\n"
)

MESSAGE = (
    '{"format":"text","subformat":"silp","content":"cancel(flight)",\n'
    ' "submessages":[{"format":"text","content":"SLIP v1 planner booker Accept"}]}\n'
)


async def tokens_and_symbols(client: LanguageClient, uri: str):
    tokens = await client.text_document_semantic_tokens_full_async(
        types.SemanticTokensParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    symbols = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    return absolute_tokens(tokens.data), [s.name for s in symbols]


async def hover_text(client: LanguageClient, uri: str, line: int, character: int):
    hover = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            position=types.Position(line=line, character=character),
        )
    )
    return None if hover is None else hover.contents.value


@pytest.mark.asyncio
async def test_markdown_fences_are_highlighted_outlined_and_hovered(client: LanguageClient):
    uri = "file:///e2e/docs/plans.md"
    await open_and_wait(client, uri, PAGE, "markdown")
    tokens, symbols = await tokens_and_symbols(client, uri)
    assert (5, 17, 5, FUNCTION) in tokens, tokens
    assert (9, 12, 12, ENUM_MEMBER) in tokens, tokens
    assert all(line >= 5 for line, *_ in tokens), "nothing in the prose"
    assert symbols == ["if !rain(t+1): start(hike)", "ObserveState"]
    assert "whitelisted" in await hover_text(client, uri, 5, 19)
    assert await hover_text(client, uri, 2, 15) is None


@pytest.mark.asyncio
async def test_nlip_payloads_are_highlighted_outlined_and_hovered(client: LanguageClient):
    uri = "file:///e2e/messages/booking.nlip.json"
    await open_and_wait(client, uri, MESSAGE, "json")
    tokens, symbols = await tokens_and_symbols(client, uri)
    cancel = MESSAGE.index("cancel")
    accept = MESSAGE.split("\n")[1].index("Accept")
    assert (0, cancel, 6, FUNCTION) in tokens, tokens
    assert (1, accept, 6, ENUM_MEMBER) in tokens, tokens
    assert symbols == ["cancel(flight)", "Accept"]
    assert "UCR v1.0 core anchor" in await hover_text(client, uri, 1, accept + 1)


@pytest.mark.asyncio
async def test_a_changed_configuration_file_is_read_again(client: LanguageClient, tmp_path):
    config = tmp_path / "silp-lint.toml"
    config.write_text('ignore = ["SL101"]\n')
    payload = tmp_path / "a.silp"
    uri = payload.as_uri()
    diagnostics = await open_and_wait(client, uri, "begin(hike)\nCancel(x)\n")
    assert [d.code for d in diagnostics] == ["SL104"]
    config.write_text('ignore = ["SL104"]\n')
    del client.diagnostics[uri]
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[
                types.FileEvent(uri=config.as_uri(), type=types.FileChangeType.Changed)
            ]
        )
    )
    for _ in range(100):
        if uri in client.diagnostics:
            break
        await asyncio.wait_for(
            client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), 10
        )
    assert [d.code for d in client.diagnostics[uri]] == ["SL101"]
    logged = [m.message for m in client.log_messages]
    assert not [m for m in logged if "does not handle" in m], logged


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[SERVER]))
async def pulling_client(lsp_client: LanguageClient):
    """VS Code's capabilities with pull diagnostics declared, as VS Code 1.74+ sends."""
    capabilities = client_capabilities("visual-studio-code")
    capabilities.text_document.diagnostic = types.DiagnosticClientCapabilities(
        dynamic_registration=True, related_document_support=False
    )
    capabilities.workspace.diagnostics = types.DiagnosticWorkspaceClientCapabilities(
        refresh_support=True
    )
    result = await lsp_client.initialize_session(
        types.InitializeParams(capabilities=capabilities)
    )
    assert result.capabilities.diagnostic_provider.inter_file_dependencies is True
    yield
    await lsp_client.shutdown_session()


async def pull(client: LanguageClient, uri: str, previous=None):
    return await client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            previous_result_id=previous,
        )
    )


@pytest.mark.asyncio
async def test_pulled_diagnostics_are_exact_and_unchanged_until_they_change(
    pulling_client: LanguageClient,
):
    client = pulling_client
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=URI, language_id="silp", version=1, text=TEXT
            )
        )
    )
    report = await pull(client, URI)
    assert report.kind == "full"
    begn = find(report.items, "SL101")
    assert begn.range.start == types.Position(line=0, character=15)
    # A comment added at the end leaves every diagnostic where it was.
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=URI, version=2),
            content_changes=[
                types.TextDocumentContentChangePartial(
                    range=types.Range(
                        start=types.Position(line=3, character=0),
                        end=types.Position(line=3, character=0),
                    ),
                    text="# plans\n",
                )
            ],
        )
    )
    same = await pull(client, URI, report.result_id)
    assert same.kind == "unchanged"
    assert same.result_id == report.result_id
    # Nothing is pushed to a client that pulls.
    assert URI not in client.diagnostics
