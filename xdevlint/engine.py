"""One file through the pipeline: bytes -> text -> cheap scan -> libcst -> findings.

The CLI calls ``lint_source``, the flake8 plugin ``lint_text`` (flake8 has decoded the
file already), ``--fix`` ``fix_source``; nothing here prints.

Nothing here imports libcst: the rules' gates (``registry``) run on the stdlib-only
``Scan``, and only a file that passes one imports ``analyser`` (libcst, the rules) and,
for ``--fix``, the fixer.
"""

from __future__ import annotations

import ast
import warnings
from typing import TYPE_CHECKING, Dict, FrozenSet, List, Optional, Sequence, Tuple, Type, Union

from xdevlint.config import Config, describe_size
from xdevlint.model import ANALYSIS_ERROR_CODE, Applicability, FileResult, Finding, FixResult, analysis_error
from xdevlint.registry import UNUSED_NOQA_CODE, RuleSpec
from xdevlint.stages.focus import NOTHING_HIDDEN, Unfocused, focus, prefocus
from xdevlint.stages.sections import LARGE
from xdevlint.stages.scan import Scan
from xdevlint.stages.source import DecodeError, decode
from xdevlint.stages.suppress import NO_COMMENTS, Comments, comments, unsuppressed, unused_codes

if TYPE_CHECKING:
    import libcst as cst

    from xdevlint.rules.rule import Rule

#: Rules to run: classes (already imported), or the registry's specs (imported only
#: when their gate passes).
Rules = Sequence[Union[Type["Rule"], RuleSpec]]


def lint_source(
    data: bytes,
    path: str,
    config: Config,
    rules: Optional[Rules] = None,
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
    data: bytes, path: str, config: Config, unsafe: bool = False, rules: Optional[Rules] = None
) -> FixResult:
    """Lint and fix one file's bytes to a fixed point; ``unsafe`` adds unsafe fixes.

    A file with nothing to fix costs one lint, and no fixer: the fixer's first pass is
    that lint.
    """
    if len(data) > LARGE:
        return _fix_large(data, path, config, unsafe, rules)
    first = _lint_bytes(data, path, config, rules, True, True, True, whole=True)
    if not any(f.fix is not None and (unsafe or f.fix.applicability is Applicability.SAFE) for f in first[0].findings):
        return FixResult(path, data, data, (), first[0], first[0])
    from xdevlint.fixes import apply as fixer

    def analyse(source: bytes) -> Tuple[FileResult, Optional["cst.Module"]]:
        return first if source is data else _lint_bytes(source, path, config, rules, True, True, True, whole=True)

    return fixer.fix(data, path, analyse, unsafe=unsafe)


def _fix_large(data: bytes, path: str, config: Config, unsafe: bool, rules: Optional[Rules]) -> FixResult:
    """``fix_source`` for a file over ``LARGE``: its tree whole would cost gigabytes, so
    each pass is analysed cut down (``stages.focus``) and its fixes applied as their own
    textual edits; what is verified is the cut of the fixed text (the functions cut out
    are as they were)."""
    from xdevlint.fixes import apply as fixer

    first = _lint_bytes(data, path, config, rules, True, True, True)[0]
    if not any(f.fix is not None and (unsafe or f.fix.applicability is Applicability.SAFE) for f in first.findings):
        return FixResult(path, data, data, (), first, first)

    def lint(source: bytes) -> FileResult:
        return first if source is data else _lint_bytes(source, path, config, rules, True, True, True)[0]

    def cut(source: bytes) -> Optional[bytes]:
        text, encoding = decode(source)
        found = prefocus(text)
        return None if found is None else found.text.encode(encoding)

    def check(new: bytes, old: bytes) -> Optional[str]:
        fixed = cut(new)
        if fixed is None:  # the cut text must parse: the whole file speaks, then
            return fixer.verify(new, old, path)
        problem = fixer.verify(fixed, b"", path)
        if problem is None or not problem.startswith("does not compile"):
            return problem
        was = cut(old)  # code that did not compile before may still not
        return fixer.verify(fixed, was if was is not None else old, path)

    return fixer.fix_by_edits(data, path, lint, check, unsafe=unsafe)


def _lint_bytes(
    data: bytes,
    path: str,
    config: Config,
    rules: Optional[Rules],
    prescan: bool,
    noqa: bool,
    edits: bool,
    whole: bool = False,
) -> Tuple[FileResult, Optional["cst.Module"]]:
    """The file's result, and its tree when it was analysed (``whole``: the whole file's,
    which the fixer rewrites)."""
    too_large = _too_large(len(data), path, config)
    if too_large is not None:
        return FileResult(path, (too_large,), data), None
    try:
        text, _ = decode(data)
    except DecodeError as error:
        return FileResult(path, (analysis_error(path, error.reason, error.line, error.column),), data), None
    findings, module = _lint(data, text, path, config, rules, prescan, noqa, edits, None, whole)
    return FileResult(path, findings, data), module


def lint_text(
    text: str,
    path: str,
    config: Config,
    rules: Optional[Rules] = None,
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
    too_large = _too_large(len(text.encode("utf-8", "surrogatepass")), path, config)
    if too_large is not None:
        return FileResult(path, (too_large,))
    findings, _ = _lint(text, text, path, config, rules, prescan, noqa, edits, tree)
    return FileResult(path, findings)


def _too_large(size: int, path: str, config: Config) -> Optional[Finding]:
    """The XDV000 of a file over ``max-file-size``, which is not checked."""
    limit = config.max_file_size
    if not limit or size <= limit:
        return None
    reason = f"not checked: the file is {describe_size(size)}, over max-file-size ({describe_size(limit)})"
    return analysis_error(path, reason)


def _lint(
    source: Union[bytes, str],
    text: str,
    path: str,
    config: Config,
    rules: Optional[Rules],
    prescan: bool,
    noqa: bool,
    edits: bool,
    tree: Optional[ast.AST] = None,
    whole: bool = False,
) -> Tuple[Tuple[Finding, ...], Optional["cst.Module"]]:
    """The findings, and the tree when one was analysed. ``whole``: the tree must be
    the whole file's (no focus), for the fixer to rewrite."""
    # Tokenizing for comments costs more than the cheap scan: at first only when a
    # comment may concern xdevlint itself (a file-level noqa, an XDV code); a bare or
    # other tool's noqa only matters once there are findings to suppress.
    lowered = text.lower()
    may_noqa = "noqa" in lowered
    early = may_noqa and ("xdevlint" in lowered or "xdv" in lowered)
    found = comments(text) if early else NO_COMMENTS
    if found.file_suppressed or path.endswith(".pyi"):  # a stub never runs: no move or temp of it happens
        return (), None
    selected: Rules = config.specs_for(path) if rules is None else rules
    ignored = found.file_codes
    if ignored:  # ``# xdevlint: noqa: XDV101``: as a per-file-ignore, whatever the front end
        selected = [rule for rule in selected if not _code(rule).startswith(ignored)]
    # XDV001 judges the noqa comments of the rules that ran, after line suppressions;
    # a front end that applies them itself (flake8) reports unused ones itself.
    judge = noqa and bool(found.noqa) and config.reports(UNUSED_NOQA_CODE, path) and not UNUSED_NOQA_CODE.startswith(ignored)
    judged = [_code(rule) for rule in selected] if judge else []
    # A large file is first cut down by text alone, unless the tree must be whole
    # (``--fix``) or the caller parsed it already (flake8): ``stages.focus.prefocus``.
    cut = prefocus(text) if tree is None and not whole and len(text) > LARGE else None
    while True:
        work = cut.text if cut is not None else text
        scan = cut.scan if cut is not None else Scan(text, tree)
        candidates = [rule for rule in selected if not prescan or _may_apply(rule, scan, config)]
        if not candidates:
            return _unused_noqa(path, text, found, [], judged), None
        refused = _python_refuses(scan)
        if refused is not None and refused[3]:
            return (analysis_error(path, *refused[:3]),), None
        from xdevlint.analyser import analyse  # libcst: only for a file some rule's scan keeps

        classes = [rule.rule if isinstance(rule, RuleSpec) else rule for rule in candidates]
        # ``--fix`` rewrites the tree it is given: the whole file's (``stages.focus``).
        focused = focus(work, scan.index, scan.move_nodes()) if not whole and scan.index is not None else None
        hidden = cut.hidden if cut is not None else NOTHING_HIDDEN
        parsed = work if cut is not None else source
        try:
            findings, module = analyse(
                parsed, work, scan.tree, path, config, classes, refused, edits, focused,
                hidden | focused.hidden if focused is not None else hidden,
            )
        except Unfocused:  # a fix's edit would straddle lines the focus cut out
            findings, module = analyse(parsed, work, scan.tree, path, config, classes, refused, edits, None, hidden)
        if prescan:  # in the lines of ``work``, as ``scan`` has them
            findings = _uncleared(findings, candidates, scan)
        if cut is None:
            break
        try:
            findings = [cut.lines.finding(finding) for finding in findings]
            break
        except Unfocused:  # an edit would straddle functions the cut left out: the whole file, then
            cut = None
    if not noqa:
        return tuple(sorted(findings)), module
    if findings and may_noqa and not early:
        found = comments(text)
    if any(f.code == ANALYSIS_ERROR_CODE for f in findings):
        judged = []  # a file that was not checked proves no noqa unused
    return _unused_noqa(path, text, found, findings, judged), module


def _uncleared(findings: Sequence[Finding], rules: Sequence[Union[Type["Rule"], RuleSpec]], scan: Scan) -> List[Finding]:
    """The findings at no place the cheap scan cleared for their rule (``Rule.cleared``):
    a file no rule's gate keeps is not parsed, so a finding there must not depend on
    whether something else in the file had it parsed."""
    by_code = {_code(rule): rule for rule in rules}
    cleared: Dict[str, FrozenSet[Tuple[int, int]]] = {}
    kept: List[Finding] = []
    for finding in findings:
        rule = by_code.get(finding.code)
        if rule is not None:
            sites = cleared.get(finding.code)
            if sites is None:
                sites = cleared[finding.code] = rule.cleared(scan)
            if (finding.span.line, finding.span.column) in sites:
                continue
        kept.append(finding)
    return kept


def _unused_noqa(path: str, text: str, found: Comments, findings: Sequence[Finding], judged: Sequence[str]) -> Tuple[Finding, ...]:
    """The findings no noqa covers, and an XDV001 for each noqa code that covered none."""
    kept, used = unsuppressed(findings, found)
    if judged:
        from xdevlint.rules.xdv001_unused_noqa import report_unused

        kept.extend(report_unused(path, text, unused_codes(found, used, judged)))
    return tuple(sorted(kept))


def _code(rule: Union[Type["Rule"], RuleSpec]) -> str:
    return rule.code if isinstance(rule, RuleSpec) else rule.CODE


def _may_apply(rule: Union[Type["Rule"], RuleSpec], scan: Scan, config: Config) -> bool:
    if isinstance(rule, RuleSpec):
        return rule.gate(scan, config.locations)
    return rule.may_apply(scan, config.locations)


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


