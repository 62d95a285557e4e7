"""One file through the pipeline: bytes -> text -> cheap scan -> libcst -> findings.

The CLI calls ``lint_source``, the flake8 plugin ``lint_text`` (flake8 has decoded the
file already), ``--fix`` ``fix_source``; nothing here prints.
"""

from __future__ import annotations

import ast
import warnings
from dataclasses import replace
from typing import List, Mapping, Optional, Sequence, Tuple, Type, Union

import libcst as cst
from libcst.metadata import CodeRange, PositionProvider

from xdevlint.analysis.provenance import ProvenanceProvider
from xdevlint.config import Config, line_length_for
from xdevlint.stages.metadata import Wrapper
from xdevlint.fixes import apply as fixer
from xdevlint.model import FileResult, Finding, Fix, Span, analysis_error
from xdevlint.stages.positions import positions_of
from xdevlint.stages.traversal import run_rules
from xdevlint.rules.rule import Rule, RuleContext
from xdevlint.stages.scan import Scan
from xdevlint.stages.source import DecodeError, decode
from xdevlint.stages.suppress import file_ignored_codes, file_is_suppressed, split_lines, unsuppressed


def lint_source(
    data: bytes,
    path: str,
    config: Config,
    rules: Optional[Sequence[Type[Rule]]] = None,
    *,
    prescan: bool = True,
    noqa: bool = True,
    edits: bool = True,
) -> FileResult:
    """Findings for one file's bytes, sorted and with suppressions applied.

    ``prescan=False`` skips the cheap scan, so tests can prove it never drops a finding.
    ``noqa=False`` keeps findings on ``# noqa`` lines, for front ends (flake8) that
    apply line suppressions themselves; ``# xdevlint: noqa`` still skips the file.
    ``edits=False`` leaves fixes without their textual view (``Fix.edits``), which only
    JSON and SARIF print and which costs a rendering of the code around each fix.
    """
    return _lint_bytes(data, path, config, rules, prescan, noqa, edits)[0]


def fix_source(
    data: bytes, path: str, config: Config, unsafe: bool = False, rules: Optional[Sequence[Type[Rule]]] = None
) -> fixer.FixResult:
    """Lint and fix one file's bytes to a fixed point; ``unsafe`` adds unsafe fixes.

    A file with nothing to fix costs one lint: the first pass is ``lint_source``'s.
    """
    return fixer.fix(data, path, lambda source: _lint_bytes(source, path, config, rules, True, True, True), unsafe=unsafe)


def _lint_bytes(
    data: bytes,
    path: str,
    config: Config,
    rules: Optional[Sequence[Type[Rule]]],
    prescan: bool,
    noqa: bool,
    edits: bool,
) -> Tuple[FileResult, Optional[cst.Module]]:
    """The file's result, and its tree when it was analysed (the fixer rewrites it)."""
    try:
        text, _ = decode(data)
    except DecodeError as error:
        return FileResult(path, (analysis_error(path, error.reason, error.line, error.column),), data), None
    findings, module = _lint(data, text, path, config, rules, prescan, noqa, edits)
    return FileResult(path, findings, data), module


def lint_text(
    text: str,
    path: str,
    config: Config,
    rules: Optional[Sequence[Type[Rule]]] = None,
    *,
    prescan: bool = True,
    noqa: bool = True,
    edits: bool = True,
    tree: Optional[ast.AST] = None,
) -> FileResult:
    """``lint_source`` for source already decoded (flake8 hands its plugins text lines,
    and the stdlib AST of them as ``tree``, which spares parsing them again).

    Re-encoding would be wrong: the bytes' coding cookie may name another codec.
    """
    return FileResult(path, _lint(text, text, path, config, rules, prescan, noqa, edits, tree)[0])


def _lint(
    source: Union[bytes, str],
    text: str,
    path: str,
    config: Config,
    rules: Optional[Sequence[Type[Rule]]],
    prescan: bool,
    noqa: bool,
    edits: bool,
    tree: Optional[ast.AST] = None,
) -> Tuple[Tuple[Finding, ...], Optional[cst.Module]]:
    if file_is_suppressed(text):
        return (), None
    selected = config.rules_for(path) if rules is None else tuple(rules)
    ignored = file_ignored_codes(text)
    if ignored:  # ``# xdevlint: noqa: XDV101``: as a per-file-ignore, whatever the front end
        selected = tuple(rule for rule in selected if not rule.CODE.startswith(ignored))
    scan = Scan(text, tree)
    candidates = [rule for rule in selected if not prescan or rule.may_apply(scan, config.locations)]
    if not candidates:
        return (), None
    refused = _python_refuses(scan)
    if refused is not None and refused[3]:
        return (analysis_error(path, *refused[:3]),), None
    findings, module = _analyse(source, text, scan.tree, path, config, candidates, refused, edits)
    return tuple(sorted(unsuppressed(findings, split_lines(text)) if noqa else findings)), module


#: CPython's own limits: 200 open brackets, 100 indentation levels, its parser's stack.
#: Past them no CPython can compile the file, and libcst's native parser overflows the C
#: stack (a segfault, which no ``except`` catches) or runs for minutes.
_NESTING_LIMITS = ("too many nested parentheses", "too many levels of indentation", "too complex")


def _python_refuses(scan: Scan) -> Optional[Tuple[str, int, int, bool]]:
    """Why CPython cannot parse the file, if it cannot: ``(reason, line, column, too_deep)``.

    Only files the stdlib parser rejects are parsed again, to learn why.
    """
    if scan.tree is not None:
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(scan.text)
    except (RecursionError, MemoryError):
        # The AST is deeper than CPython's recursion limit, so libcst's recursive
        # visitors would exhaust theirs long before.
        return "too deeply nested to analyse (Python cannot compile it either)", 1, 1, True
    except SyntaxError as error:
        message = error.msg or "invalid syntax"
        too_deep = any(limit in message for limit in _NESTING_LIMITS)
        reason = f"too deeply nested to analyse: {message}" if too_deep else f"cannot parse: {message}"
        return reason, error.lineno or 1, max(error.offset or 1, 1), too_deep
    except ValueError as error:  # e.g. a null byte
        return f"cannot parse: {error}", 1, 1, False
    return None


def _analyse(
    data: Union[bytes, str],
    text: str,
    tree: Optional[ast.AST],
    path: str,
    config: Config,
    rules: Sequence[Type[Rule]],
    refused: Optional[Tuple[str, int, int, bool]],
    edits: bool,
) -> Tuple[List[Finding], Optional[cst.Module]]:
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
        path, config.locations, config.move_function, config.move_function_atomic, line_length_for(path)
    )
    visitors = [rule(context) for rule in rules]
    try:
        wrapper = Wrapper(module, {ProvenanceProvider: config.locations})
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
    # Fix edits need the positions of nodes all over the file; the findings alone, only
    # those of the reported nodes, which ``positions_of`` finds without rendering it all.
    placed = None if edits else positions_of(module, [report.node for report in reports], tree, text)
    positions: Mapping[cst.CSTNode, CodeRange] = wrapper.resolve(PositionProvider) if placed is None else placed
    findings = []
    for report in reports:
        fix = _with_edits(report.fix, positions, module, path) if edits else report.fix
        findings.append(Finding(path, _span(positions[report.node]), report.code, report.name, report.message, fix))
    return findings, module


def _span(where: CodeRange) -> Span:
    return Span(where.start.line, where.start.column + 1, where.end.line, where.end.column + 1)


def _with_edits(fix: Optional[Fix], positions: Mapping[cst.CSTNode, CodeRange], module: cst.Module, path: str) -> Optional[Fix]:
    """``fix`` with its textual view: each replaced node's span and the new node's code,
    and the change to the imports."""
    if fix is None or fix.edits or not fix.replacements:
        return fix
    edits = tuple(fixer.textual_edit(module, r, _span(positions[r.node])) for r in fix.replacements)
    return replace(fix, edits=edits, header=fixer.import_edits(module, fix, path))


def _describe(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0]}" if text else type(error).__name__
