"""``xdevlint server``: a Language Server (pygls) for editors.

* Diagnostics are published when a document is opened, changed and saved: the engine
  checks the editor's text (not the file on disk), with the settings that apply to the
  file's path (the closest ``.xdevlint.toml``/``xdevlint.toml``/``pyproject.toml``, as for
  the command), overridden by the client's settings (``initializationOptions`` or
  ``workspace/didChangeConfiguration``: ``{"xdevlint": {"select": [...], ...}}``, the keys of
  ``[tool.xdevlint]``). Saving a configuration file re-checks every open document.
* Code actions: one quick fix per finding that has a fix (unsafe ones say so in their
  title and are never preferred), and ``source.fixAll.xdevlint``: every safe fix, applied
  to a fixed point as ``xdevlint --fix`` would.
* Hover over a finding shows its code's documentation (``xdevlint rule CODE``).

Positions are converted between xdevlint's code points and the client's encoding
(UTF-16 unless it offers another) by pygls.
"""

from __future__ import annotations

import os
from typing import Any, Dict, List, Mapping, Optional, Tuple
from urllib.parse import unquote, urlparse

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.workspace import ServerTextPosition, ServerTextRange, TextDocument

from xdevlint import __version__
from xdevlint.config import Config, ConfigError, ConfigResolver, from_table
from xdevlint.engine import fix_source, lint_text
from xdevlint.model import Applicability, Edit, Finding

SOURCE = "xdevlint"
FIX_ALL = "source.fixAll.xdevlint"
CONFIG_FILES = ("pyproject.toml", "xdevlint.toml", ".xdevlint.toml")


class XdevlintServer(LanguageServer):
    """The server's state: the client's setting overrides, the resolver built from them,
    and the findings last published for each open document."""

    def __init__(self) -> None:
        super().__init__("xdevlint", __version__)
        self.overrides: Dict[str, Any] = {}
        self.resolver = ConfigResolver()
        self.findings: Dict[str, Tuple[Finding, ...]] = {}

    def configure(self, settings: Any) -> Optional[str]:
        """Take the client's settings (``{"xdevlint": {...}}`` or the table itself);
        the error, worded as the command words it, if they are invalid."""
        table = settings.get("xdevlint", settings) if isinstance(settings, Mapping) else {}
        try:
            validated = from_table(table, None)
        except ConfigError as error:
            return f"xdevlint settings: {error.key}: {error.message}"
        self.overrides = {key.replace("-", "_"): getattr(validated, key.replace("-", "_")) for key in table}
        self.reset()
        return None

    def reset(self) -> None:
        """Forget the configuration files read: one of them, or the overrides, changed."""
        self.resolver = ConfigResolver(overrides=self.overrides)

    def config_for(self, path: str) -> Config:
        return self.resolver.for_path(path)


def path_of(uri: str) -> str:
    parsed = urlparse(uri)
    return unquote(parsed.path) if parsed.scheme == "file" else os.path.join(os.getcwd(), "untitled.py")


def _range(document: TextDocument, line: int, column: int, end_line: int, end_column: int) -> types.Range:
    """xdevlint's 1-based, code point span -> the client's range."""
    server = ServerTextRange(ServerTextPosition(line - 1, column - 1), ServerTextPosition(end_line - 1, end_column - 1))
    return document.range_to_client_units(server)


def _edit(document: TextDocument, edit: Edit) -> types.TextEdit:
    span = edit.span
    return types.TextEdit(_range(document, span.line, span.column, span.end_line, span.end_column), edit.content)


def diagnostic(document: TextDocument, finding: Finding) -> types.Diagnostic:
    span = finding.span
    unsafe = finding.fix is not None and finding.fix.applicability is Applicability.UNSAFE
    return types.Diagnostic(
        range=_range(document, span.line, span.column, span.end_line, max(span.end_column, span.column)),
        message=finding.message,
        severity=types.DiagnosticSeverity.Error if finding.code == "XDV000" else types.DiagnosticSeverity.Warning,
        code=finding.code,
        source=SOURCE,
        data={"fix": None if finding.fix is None else ("unsafe" if unsafe else "safe")},
        related_information=[
            types.DiagnosticRelatedInformation(
                location=types.Location(
                    uri=document.uri,
                    range=_range(document, r.span.line, r.span.column, r.span.end_line, max(r.span.end_column, r.span.column)),
                ),
                message=r.message,
            )
            for r in finding.related
        ] or None,
    )


server = XdevlintServer()


def check(ls: XdevlintServer, uri: str) -> None:
    """Lint the document's current text and publish what was found."""
    document = ls.workspace.get_text_document(uri)
    path = path_of(uri)
    try:
        config = ls.config_for(path)
    except ConfigError as error:
        ls.window_show_message(types.ShowMessageParams(types.MessageType.Error, f"xdevlint: {error}"))
        return
    findings = lint_text(document.source, path, config, edits=True).findings
    ls.findings[uri] = findings
    diagnostics = [diagnostic(document, finding) for finding in findings]
    ls.text_document_publish_diagnostics(
        types.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics, version=document.version)
    )


@server.feature(types.INITIALIZE)
def initialize(ls: XdevlintServer, params: types.InitializeParams) -> None:
    if params.initialization_options:
        problem = ls.configure(params.initialization_options)
        if problem:
            ls.window_show_message(types.ShowMessageParams(types.MessageType.Error, problem))


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: XdevlintServer, params: types.DidOpenTextDocumentParams) -> None:
    check(ls, params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: XdevlintServer, params: types.DidChangeTextDocumentParams) -> None:
    check(ls, params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: XdevlintServer, params: types.DidSaveTextDocumentParams) -> None:
    if os.path.basename(path_of(params.text_document.uri)) in CONFIG_FILES:
        recheck_all(ls)
    else:
        check(ls, params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: XdevlintServer, params: types.DidCloseTextDocumentParams) -> None:
    ls.findings.pop(params.text_document.uri, None)
    ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[]))


@server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
def did_change_configuration(ls: XdevlintServer, params: types.DidChangeConfigurationParams) -> None:
    problem = ls.configure(params.settings or {})
    if problem:
        ls.window_show_message(types.ShowMessageParams(types.MessageType.Error, problem))
        return
    recheck_all(ls)


def recheck_all(ls: XdevlintServer) -> None:
    ls.reset()
    for uri in list(ls.findings):
        check(ls, uri)


@server.feature(
    types.TEXT_DOCUMENT_CODE_ACTION,
    types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL]),
)
def code_action(ls: XdevlintServer, params: types.CodeActionParams) -> List[types.CodeAction]:
    uri = params.text_document.uri
    document = ls.workspace.get_text_document(uri)
    wanted = params.context.only
    actions: List[types.CodeAction] = []
    if not wanted or types.CodeActionKind.QuickFix in wanted:
        for finding in ls.findings.get(uri, ()):
            if finding.fix is None or not finding.fix.all_edits:
                continue
            found = diagnostic(document, finding)
            if not _overlaps(found.range, params.range):
                continue
            unsafe = finding.fix.applicability is Applicability.UNSAFE
            title = f"{finding.code}: {finding.fix.message}" + (" (unsafe fix)" if unsafe else "")
            edits = [_edit(document, edit) for edit in finding.fix.all_edits]
            actions.append(
                types.CodeAction(
                    title=title,
                    kind=types.CodeActionKind.QuickFix,
                    diagnostics=[found],
                    edit=types.WorkspaceEdit(changes={uri: edits}),
                    is_preferred=not unsafe,
                )
            )
    if not wanted or any(kind in (types.CodeActionKind.Source, types.CodeActionKind.SourceFixAll, FIX_ALL) for kind in wanted):
        fixed = fix_all(ls, document)
        if fixed is not None:
            actions.append(
                types.CodeAction(
                    title="xdevlint: fix all safe fixes",
                    kind=FIX_ALL,
                    edit=types.WorkspaceEdit(changes={uri: [fixed]}),
                )
            )
    return actions


def fix_all(ls: XdevlintServer, document: TextDocument) -> Optional[types.TextEdit]:
    """The whole document, with every safe fix applied, as one edit; None if none applies."""
    path = path_of(document.uri)
    result = fix_source(document.source.encode("utf-8"), path, ls.config_for(path))
    if not result.changed or result.error is not None:
        return None
    whole = document.range_to_client_units(ServerTextRange(ServerTextPosition(0, 0), ServerTextPosition(len(document.lines), 0)))
    return types.TextEdit(whole, result.fixed.decode("utf-8"))


def _overlaps(a: types.Range, b: types.Range) -> bool:
    start_a, end_a = (a.start.line, a.start.character), (a.end.line, a.end.character)
    start_b, end_b = (b.start.line, b.start.character), (b.end.line, b.end.character)
    return start_a <= end_b and start_b <= end_a


@server.feature(types.TEXT_DOCUMENT_HOVER)
def hover(ls: XdevlintServer, params: types.HoverParams) -> Optional[types.Hover]:
    from xdevlint.registry import documentation_for
    from xdevlint.rules.documented import markdown

    uri = params.text_document.uri
    document = ls.workspace.get_text_document(uri)
    point = types.Range(params.position, params.position)
    pages = []
    for finding in ls.findings.get(uri, ()):
        if _overlaps(diagnostic(document, finding).range, point):
            documented = documentation_for(finding.code)
            if documented is not None:
                page = markdown(documented)
                if page not in pages:
                    pages.append(page)
    if not pages:
        return None
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value="\n---\n".join(pages)))


def serve() -> None:
    """Speak LSP on stdin and stdout until the client says exit."""
    server.start_io()
