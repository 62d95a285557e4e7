"""Applying fixes: non-overlapping CST replacements -> imports -> verify -> repeat.

Each pass lints the current bytes, takes the fixes the run allows (safe, or safe and
unsafe) in source order, skips any whose edits overlap one already taken (it waits
for the next pass, where it is recomputed on the rewritten code), replaces the nodes
(by identity, in the tree the rules saw), adds the declared imports where isort would
and drops those the fixes left unused (``fixes/imports.py``), and verifies the result parses and compiles. Passes repeat
until no fix applies, bounded by ``MAX_PASSES``. If any pass produces code that does
not verify, every change to the file is dropped and the failure is reported: a fixer
must never make a file worse.
"""

from __future__ import annotations

import warnings
from typing import Callable, Dict, FrozenSet, List, Optional, Sequence, Set, Tuple

import libcst as cst
from libcst.metadata import CodePosition, PositionProvider

from xdevlint.fixes.imports import add_imports, header_edits, made_unused, remove_imports
from xdevlint.model import Applicability, Edit, FileResult, Finding, Fix, FixResult, Replacement, Span, analysis_error
from xdevlint.stages.metadata import Wrapper
from xdevlint.stages.positions import statement_alone
from xdevlint.stages.source import decode, lines_of

#: Enough for every chain of overlapping fixes the rules make (two or three in
#: practice); a bound, so that two fixes undoing each other cannot loop forever.
MAX_PASSES = 10

Analyse = Callable[[bytes], Tuple[FileResult, Optional[cst.Module]]]

def allowed(unsafe: bool) -> FrozenSet[Applicability]:
    return frozenset({Applicability.SAFE, Applicability.UNSAFE}) if unsafe else frozenset({Applicability.SAFE})


def fix(data: bytes, path: str, analyse: Analyse, *, unsafe: bool = False, max_passes: int = MAX_PASSES) -> FixResult:
    """Fix ``data`` to a fixed point; ``analyse`` lints bytes and returns the tree it used."""
    levels = allowed(unsafe)
    current = data
    applied: List[Finding] = []
    first: Optional[FileResult] = None
    for _ in range(max_passes):
        result, module = analyse(current)
        if first is None:
            first = result
        textual = select_textual(result.findings, levels)
        if textual:  # text edits (XDV001's) first, alone: the next pass sees their result
            new = apply_text(current, [edit for finding in textual if finding.fix for edit in finding.fix.edits])
            problem = verify(new, current, path)
            if problem is not None:
                return _rolled_back(path, data, first, textual[0], problem)
            applied.extend(textual)
            current = new
            continue
        chosen, duplicates = select(result.findings, levels)
        if not chosen or module is None:
            return FixResult(path, data, current, tuple(applied), result, first)
        try:
            new = apply(module, [finding.fix for finding in chosen if finding.fix is not None], path)
            problem = verify(new, current, path)
        except UnicodeEncodeError as error:
            problem = f"cannot be encoded as {module.encoding}: {error.reason}"
        if problem is not None:
            return _rolled_back(path, data, first, chosen[0], problem)
        if new == current:
            return FixResult(path, data, current, tuple(applied), result, first)
        applied.extend(sorted([*chosen, *duplicates]))
        current = new
    result, _ = analyse(current)
    assert first is not None
    return FixResult(path, data, current, tuple(applied), result, first)


def fix_by_edits(
    data: bytes,
    path: str,
    lint: Callable[[bytes], FileResult],
    check: Callable[[bytes, bytes], Optional[str]],
    *,
    unsafe: bool = False,
    max_passes: int = MAX_PASSES,
) -> FixResult:
    """``fix`` for a file too large to rewrite as one tree (``engine.fix_source``): each
    pass applies, as text, the fixes' own textual edits (``Fix.all_edits``, which the
    tests hold to the tree's rewrite), those that touch no edit another fix of the pass
    took, imports included; ``lint`` gives each pass's findings with those edits, and
    ``check(new, old)`` says why new bytes are not acceptable, as ``verify`` does."""
    levels = allowed(unsafe)
    current = data
    applied: List[Finding] = []
    first: Optional[FileResult] = None
    for _ in range(max_passes):
        result = lint(current)
        if first is None:
            first = result
        chosen, duplicates = _select_by_edits(result.findings, levels)
        if not chosen:
            return FixResult(path, data, current, tuple(applied), result, first)
        new = apply_text(current, [edit for finding in chosen if finding.fix is not None for edit in finding.fix.all_edits])
        problem = check(new, current)
        if problem is not None:
            return _rolled_back(path, data, first, chosen[0], problem)
        applied.extend(sorted([*chosen, *duplicates]))
        current = new
    result = lint(current)
    assert first is not None
    return FixResult(path, data, current, tuple(applied), result, first)


def _select_by_edits(findings: Sequence[Finding], levels: FrozenSet[Applicability]) -> Tuple[List[Finding], List[Finding]]:
    """``select`` by the fixes' whole textual view: two fixes that both add an import at
    one place overlap, so the second waits for the next pass, which sees the import."""
    chosen: List[Finding] = []
    duplicates: List[Finding] = []
    taken: List[Span] = []
    seen: Set[Tuple[Edit, ...]] = set()
    for finding in findings:
        fix = finding.fix
        if fix is None or fix.applicability not in levels or not fix.all_edits:
            continue
        if fix.all_edits in seen:
            duplicates.append(finding)
            continue
        spans = [edit.span for edit in fix.all_edits]
        if any(_overlap(span, other) for span in spans for other in taken):
            continue
        chosen.append(finding)
        taken.extend(spans)
        seen.add(fix.all_edits)
    return chosen, duplicates


def select(findings: Sequence[Finding], levels: FrozenSet[Applicability]) -> Tuple[List[Finding], List[Finding]]:
    """The findings whose fixes one pass applies, in source order, and those whose fix
    is the very same rewrite as a chosen one (fixed by it, counted, applied once)."""
    chosen: List[Finding] = []
    duplicates: List[Finding] = []
    taken: List[Span] = []
    seen: Dict[Tuple[object, ...], bool] = {}
    for finding in findings:
        fix = finding.fix
        if fix is None or fix.applicability not in levels or not fix.replacements:
            continue
        key = (fix.edits, fix.imports)
        if fix.edits and key in seen:
            duplicates.append(finding)
            continue
        spans = [edit.span for edit in fix.edits]
        if not spans or any(_overlap(span, other) for span in spans for other in taken):
            continue  # waits for the next pass, where it is recomputed on the new code
        chosen.append(finding)
        taken.extend(spans)
        seen[key] = True
    return chosen, duplicates


def select_textual(findings: Sequence[Finding], levels: FrozenSet[Applicability]) -> List[Finding]:
    """The findings whose fixes are text edits alone (no tree rewrite), that one pass
    applies: in source order, none overlapping another."""
    chosen: List[Finding] = []
    taken: List[Span] = []
    for finding in findings:
        fix = finding.fix
        if fix is None or fix.applicability not in levels or fix.replacements or not fix.edits:
            continue
        spans = [edit.span for edit in fix.edits]
        if any(_overlap(span, other) for span in spans for other in taken):
            continue
        chosen.append(finding)
        taken.extend(spans)
    return chosen


def apply_text(data: bytes, edits: Sequence[Edit]) -> bytes:
    """``data`` with non-overlapping text edits made, in its own encoding."""
    text, encoding = decode(data)
    lines = lines_of(text)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))

    def offset(line: int, column: int) -> int:
        if line > len(lines):
            return len(text)
        return starts[line - 1] + column - 1

    for edit in sorted(edits, key=lambda e: (e.span.line, e.span.column), reverse=True):
        begin, end = offset(edit.span.line, edit.span.column), offset(edit.span.end_line, edit.span.end_column)
        text = text[:begin] + edit.content + text[end:]
    return text.encode(encoding)  # "utf-8-sig" puts back the BOM that decoding took off


def _overlap(a: Span, b: Span) -> bool:
    a_start, a_end = (a.line, a.column), (a.end_line, a.end_column)
    b_start, b_end = (b.line, b.column), (b.end_line, b.end_column)
    if a_start == a_end or b_start == b_end:  # an insertion touching the other is ambiguous
        return a_start <= b_end and b_start <= a_end
    return a_start < b_end and b_start < a_end


class _Replace(cst.CSTTransformer):
    """Swaps nodes by identity: ``original_node is target``, never by equality."""

    def __init__(self, replacements: Sequence[Tuple[cst.CSTNode, cst.CSTNode]]) -> None:
        super().__init__()
        self.table = {id(node): (node, new) for node, new in replacements}

    def on_leave(self, original_node: cst.CSTNode, updated_node: cst.CSTNode) -> cst.CSTNode:  # type: ignore[override]
        hit = self.table.get(id(original_node))
        if hit is not None and hit[0] is original_node:
            return hit[1]
        return updated_node


def apply(module: cst.Module, fixes: Sequence[Fix], path: Optional[str] = None) -> bytes:
    """``module`` with the fixes' replacements made, their imports added and the imports
    they left unused removed, as bytes in the module's own encoding (BOM, newlines and
    final newline as they were). ``path`` places new imports (its project's packages
    are first-party)."""
    pairs = [(r.node, r.new) for f in fixes for r in f.replacements]
    updated = _imports(module.visit(_Replace(pairs)), module, fixes, path)
    return updated.bytes


def _imports(
    updated: cst.Module, original: cst.Module, fixes: Sequence[Fix], path: Optional[str],
    reads: Callable[[str], bool] = lambda name: False,
) -> cst.Module:
    replacements = [r for f in fixes for r in f.replacements]
    unused = made_unused(original, [r.node for r in replacements], [r.new for r in replacements], path)
    with_imports = add_imports(updated, [i for f in fixes for i in f.imports], path)
    return remove_imports(with_imports, {name for name in unused if not reads(name)})


def import_edits(
    module: cst.Module, fix: Fix, path: Optional[str], reads: Callable[[str], bool] = lambda name: False
) -> Tuple[Edit, ...]:
    """The textual view of ``fix``'s change to the imports, over ``module``'s text;
    ``reads(name)``: whether code outside ``module`` (the parts a focus left out) reads
    ``name``, whose import then stays."""
    return header_edits(module, _imports(module, module, [fix], path, reads))


def textual_edit(module: cst.Module, replacement: Replacement, span: Span) -> Edit:
    """The text ``replacement`` puts over ``span``, as it appears in the fixed file.

    ``code_for_node`` renders a detached node without its block's indentation, which
    is exact for one line only. A multi-line replacement is rendered in place, in the
    statement that holds it rendered alone inside its headers (``statement_alone``):
    exact, and a fraction of rendering the module.
    """
    content = module.code_for_node(replacement.new)
    if "\n" not in content and "\r" not in content:
        return Edit(span, content)
    isolated = statement_alone(module, replacement.node)
    around, positions = isolated if isolated is not None else (module, Wrapper(module, {}).resolve(PositionProvider))
    where, code = positions[replacement.node], around.code
    lines = lines_of(code)
    start, end = _offset(lines, where.start), _offset(lines, where.end)
    new = around.visit(_Replace([(replacement.node, replacement.new)])).code
    # What follows the node reads the same after the rewrite, unless the new node took in
    # text its span leaves out (a block's last line's comment, now inside a ``try``): then
    # the edit reaches as far as the two texts differ.
    same = _common_suffix(code, new, len(code) - end)
    if same < len(code) - end:
        moved = code[end : len(code) - same]
        breaks = lines_of(moved)
        if len(breaks) > 1 or moved.endswith(("\n", "\r")):
            last = breaks[-1] if not moved.endswith(("\n", "\r")) else ""
            span = Span(span.line, span.column, span.end_line + len(breaks) - (0 if last == "" else 1), len(last) + 1)
        else:
            span = Span(span.line, span.column, span.end_line, span.end_column + len(moved))
    return Edit(span, new[start : len(new) - same])


def _common_suffix(a: str, b: str, limit: int) -> int:
    """The length of the longest common end of ``a`` and ``b``, at most ``limit``."""
    low, high = 0, min(limit, len(a), len(b))
    while low < high:  # a common end of n characters holds all shorter ones: bisect
        middle = (low + high + 1) // 2
        if a[len(a) - middle :] == b[len(b) - middle :]:
            low = middle
        else:
            high = middle - 1
    return low


def _offset(lines: Sequence[str], where: CodePosition) -> int:
    """The index in the code made of ``lines`` of a libcst position (1-based line, 0-based column)."""
    return sum(len(text) for text in lines[: where.line - 1]) + where.column


def verify(new: bytes, old: bytes, path: str) -> Optional[str]:
    """Why ``new`` is not acceptable, or None: it must parse, and compile if ``old`` did
    (so a file using syntax newer than this interpreter can still be fixed)."""
    try:
        cst.parse_module(new)
    except cst.ParserSyntaxError as error:
        return f"does not parse: {error.message} (line {error.raw_line})"
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as error:  # the native parser panics with a BaseException
        return f"does not parse: {type(error).__name__}"
    problem = _compile_error(new, path)
    if problem is not None and _compile_error(old, path) is None:
        return f"does not compile: {problem}"
    return None


def _compile_error(data: bytes, path: str) -> Optional[str]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # invalid escapes and the like are not the fix's doing
        try:
            compile(data, path, "exec", dont_inherit=True)
        except (SyntaxError, ValueError) as error:
            return str(error)
    return None


def _rolled_back(path: str, data: bytes, first: FileResult, culprit: Finding, problem: str) -> FixResult:
    span = culprit.span
    message = (
        f"fixing {culprit.code} at {span.line}:{span.column} made code that {problem}; "
        "the file was left unchanged (please report this)"
    )
    error = analysis_error(path, message, span.line, span.column)
    remaining = FileResult(path, tuple(sorted((*first.findings, error))), data)
    return FixResult(path, data, data, (), remaining, first, message)
