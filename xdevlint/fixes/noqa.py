"""``--add-noqa``: a ``# noqa: CODE`` for each finding, so that a project can adopt
xdevlint today and fix its findings one by one (ruff's ``--add-noqa``).

The comment goes on the last line of the finding's statement (a comment there covers
every line of it, and the line cannot be inside a string); an existing ``# noqa: ...``
there gains the codes, a bare ``# noqa`` already covers them. Text edits only: no tree.
"""

from __future__ import annotations

from typing import Dict, List, Sequence, Tuple

from xdevlint.model import Edit, Finding, Span
from xdevlint.stages.source import decode
from xdevlint.stages.suppress import comments, split_lines, statements

#: Codes never given a noqa: a file that was not checked, a noqa that is unused.
NOT_SUPPRESSED = ("XDV000", "XDV001")


def noqa_edits(data: bytes, findings: Sequence[Finding]) -> Tuple[Tuple[Edit, ...], int]:
    """The edits that add the comments, and how many lines get one."""
    text, _ = decode(data)
    lines = split_lines(text)
    ranges = statements(text)
    wanted: Dict[int, List[str]] = {}
    for finding in findings:
        if finding.code in NOT_SUPPRESSED:
            continue
        line = finding.span.line
        last = next((end for start, end in ranges if start <= line <= end), line)
        codes = wanted.setdefault(last, [])
        if finding.code not in codes:
            codes.append(finding.code)
    existing = {directive.line: directive for directive in comments(text).noqa}
    edits: List[Edit] = []
    for line, codes in sorted(wanted.items()):
        directive = existing.get(line)
        if directive is not None:
            if not directive.written:
                continue  # a bare noqa covers every code
            missing = [code for code in codes if not code.startswith(directive.codes)]
            if missing:
                listed = ", ".join((*directive.written, *missing))
                span = Span(line, directive.start + 1, line, directive.end + 1)
                edits.append(Edit(span, f"# noqa: {listed}"))
            continue
        source = lines[line - 1]
        end = len(source.rstrip())
        edits.append(Edit(Span(line, end + 1, line, len(source) + 1), f"  # noqa: {', '.join(codes)}"))
    return tuple(edits), len(edits)
