"""XDV001: a ``# noqa: XDV...`` that suppresses nothing. The engine finds these after it
applies line suppressions (``stages/suppress.py``); this module documents the code and
words its findings and their fix (a text edit: no libcst needed)."""

from __future__ import annotations

from typing import List, Sequence, Tuple

from xdevlint.model import Applicability, Edit, Finding, Fix, Span
from xdevlint.rules.documented import Documented
from xdevlint.stages.suppress import Noqa, split_lines


class UnusedNoqa(Documented):
    """
    ## What it does
    Flags a `# noqa: XDV…` comment that names an xdevlint code which reports nothing on
    that statement.

    ## Why is this bad?
    A suppression outlives the code it was written for: once the move is fixed, the
    comment stays and would silently hide the next real finding on that line.

    Only codes of rules that ran on the file are judged: a bare `# noqa`, a prefix such
    as `XDV1`, another tool's code (`E501`) and a code not selected are left alone.
    Under flake8, which applies `noqa` itself, use flake8-noqa instead.

    ## Example
    ```python
    import shutil
    shutil.move("a.txt", "b.txt")  # noqa: XDV101
    ```

    ## Use instead
    ```python
    import shutil
    shutil.move("a.txt", "b.txt")
    ```

    ## Fix safety
    Safe: the fix removes the unused codes, and the comment when none is left (other
    tools' codes stay). Comments are not code.

    ## Options
    Select or ignore `XDV001` as any code (`--extend-ignore XDV001`).
    """

    CODE = "XDV001"
    NAME = "unused-noqa"
    MESSAGE = "Unused `noqa` directive (unused: {codes})"
    FIX_TITLE = "Remove unused `noqa` directive"


def report_unused(path: str, text: str, unused: Sequence[Tuple[Noqa, Tuple[str, ...]]]) -> List[Finding]:
    """An XDV001 finding, with its fix, for each noqa comment and its unused codes."""
    lines = split_lines(text)
    findings = []
    for directive, codes in unused:
        span = Span(directive.line, directive.start + 1, directive.line, directive.end + 1)
        kept = [code for code in directive.written if code not in codes]
        message = UnusedNoqa.MESSAGE.format(codes=", ".join(f"`{code}`" for code in codes))
        if kept:
            edit = Edit(span, "# noqa: " + ", ".join(kept))
            title = "Remove unused codes from the `noqa` directive"
        else:
            edit = _removal(directive, lines[directive.line - 1])
            title = UnusedNoqa.FIX_TITLE
        fix = Fix(Applicability.SAFE, title, edits=(edit,))
        findings.append(Finding(path, span, UnusedNoqa.CODE, UnusedNoqa.NAME, message, fix))
    return findings


def _removal(directive: Noqa, line: str) -> Edit:
    """The edit that removes the directive: with the spaces before it when it ends its
    line, the whole line when it is the line, leaving ``#`` when a comment follows it."""
    number = directive.line
    rest = line[directive.end : directive.comment_end]
    if rest.lstrip().startswith("#"):  # "# noqa: XDV101  # type: ignore": the next comment stays
        following = directive.end + len(rest) - len(rest.lstrip())
        return Edit(Span(number, directive.start + 1, number, following + 1), "")
    if rest.strip():  # "# noqa: XDV101 -- why": the words after it stay a comment
        return Edit(Span(number, directive.start + 1, number, directive.end + 1), "#")
    start = len(line[: directive.start].rstrip())
    if start == 0:
        return Edit(Span(number, 1, number + 1, 1), "")
    return Edit(Span(number, start + 1, number, directive.comment_end + 1), "")
