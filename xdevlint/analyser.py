"""One file through libcst: parse, resolve metadata, run the rules, place the findings.

Split from ``engine`` so that importing the engine costs no libcst: only a file that
passes a rule's cheap scan brings this module (and libcst) in.
"""

from __future__ import annotations

import ast
from dataclasses import replace
from typing import List, Mapping, Optional, Sequence, Tuple, Type, Union

import libcst as cst
from libcst.metadata import CodeRange, PositionProvider

from xdevlint.analysis.lifetime import LifetimeProvider
from xdevlint.analysis.provenance import ProvenanceProvider
from xdevlint.analysis.tree import remembering
from xdevlint.config import Config, line_length_for
from xdevlint.model import Finding, Fix, Related, Span, analysis_error
from xdevlint.rules.rule import Rule, RuleContext
from xdevlint.stages.focus import NOTHING_HIDDEN, Focus, Hidden, Lines
from xdevlint.stages.metadata import Wrapper
from xdevlint.stages.package import package_of
from xdevlint.stages.positions import positions_of
from xdevlint.stages.traversal import run_rules


def analyse(
    data: Union[bytes, str],
    text: str,
    tree: Optional[ast.AST],
    path: str,
    config: Config,
    rules: Sequence[Type[Rule]],
    refused: Optional[Tuple[str, int, int, bool]],
    edits: bool,
    focused: Optional[Focus] = None,
    hidden: Hidden = NOTHING_HIDDEN,
) -> Tuple[List[Finding], Optional[cst.Module]]:
    """The file's findings, and its tree.

    With ``focused``, libcst sees only the focus's text (``stages.focus``), and the
    positions are mapped back to the file's (``text``, ``tree``); an edit that would
    straddle a cut raises ``Unfocused``. ``hidden``: what the parts of the file the
    analysis does not see do (the focus's, and any cut before it).
    """
    if focused is not None:
        data, tree = focused.text, focused.tree
    try:
        module = cst.parse_module(data)
    except cst.ParserSyntaxError as error:
        if refused is not None:  # CPython's message and position are the precise ones
            return [analysis_error(path, *refused[:3])], None
        return [analysis_error(path, f"cannot parse: {error.message}", error.raw_line, error.raw_column + 1)], None
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as error:  # the native parser panics with a BaseException
        return [analysis_error(path, f"cannot parse: {_describe(error)}")], None
    context = RuleContext(
        path, config.locations, config.move_function, config.move_function_atomic, line_length_for(path),
        hidden.bound, package_of(path),
    )
    visitors = [rule(context) for rule in rules]
    try:
        with remembering():  # the providers and the rules walk the same tree
            wrapper = Wrapper(module, {ProvenanceProvider: config.locations, LifetimeProvider: context.package})
            run_rules(wrapper, visitors)
    except RecursionError:
        return [analysis_error(path, "too deeply nested to analyse (recursion limit reached)")], None
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as error:
        return [analysis_error(path, f"internal error while analysing: {_describe(error)}; please report it")], None
    reports = [report for visitor in visitors for report in visitor.reports]
    if not reports:
        return [], module
    # Fix edits need the positions of nodes all over the module; the findings alone, only
    # those of the reported nodes, which ``positions_of`` finds without rendering it all,
    # in the file's own lines (``tree`` and ``text`` are the file's).
    nodes = [report.node for report in reports] + [node for report in reports for node, _ in report.related]
    placed = None if edits else positions_of(module, nodes, tree, text)
    positions: Mapping[cst.CSTNode, CodeRange] = wrapper.resolve(PositionProvider) if placed is None else placed
    # The PositionProvider's lines are the focus's: mapped to the file's.
    lines = focused.lines if focused is not None and placed is None else None
    findings = []
    for report in reports:
        fix = _with_edits(report.fix, positions, module, path, lines, hidden) if edits else report.fix
        span = _span(positions[report.node])
        related = tuple(
            Related(path, _span(positions[node]) if lines is None else lines.span(_span(positions[node])), message)
            for node, message in report.related
        )
        findings.append(Finding(path, span if lines is None else lines.span(span), report.code, report.name, report.message, fix, related))
    return findings, module


def _span(where: CodeRange) -> Span:
    return Span(where.start.line, where.start.column + 1, where.end.line, where.end.column + 1)


def _with_edits(
    fix: Optional[Fix], positions: Mapping[cst.CSTNode, CodeRange], module: cst.Module, path: str,
    lines: Optional[Lines], hidden: Hidden,
) -> Optional[Fix]:
    """``fix`` with its textual view: each replaced node's span and the new node's code,
    and the change to the imports, in the file's lines (``lines``: the module's are a
    focus's)."""
    if fix is None or fix.edits or not fix.replacements:
        return fix
    from xdevlint.fixes import apply as fixer  # libcst's codemod machinery: only when a fix is shown

    edits = tuple(fixer.textual_edit(module, r, _span(positions[r.node])) for r in fix.replacements)
    header = fixer.import_edits(module, fix, path, hidden.reads)
    if lines is not None:
        edits = tuple(replace(edit, span=lines.span(edit.span, edit=True)) for edit in edits)
        header = tuple(replace(edit, span=lines.span(edit.span, edit=True)) for edit in header)
    return replace(fix, edits=edits, header=header)


def _describe(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0]}" if text else type(error).__name__
