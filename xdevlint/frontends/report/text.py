"""``--output-format text``: ``path:line:col: CODE message``, an excerpt with a caret, a
summary; and ``concise``: one line per finding, then the summary."""

from __future__ import annotations

import os
from typing import Optional, Sequence, TextIO

from xdevlint.model import FileResult, Finding
from xdevlint.stages.source import DecodeError, decode
from xdevlint.stages.suppress import split_lines

_BOLD, _RED, _BLUE, _CYAN, _RESET = "\033[1m", "\033[31m", "\033[34m", "\033[36m", "\033[0m"


def use_colour(out: TextIO, choice: str = "auto") -> bool:
    """``--color``: ``always``, ``never``, or ``auto``: never when NO_COLOR is set and not
    empty (no-color.org), always when FORCE_COLOR is (force-color.org), else only on a
    terminal."""
    if choice != "auto":
        return choice == "always"
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    isatty = getattr(out, "isatty", None)
    return bool(isatty and isatty())


class _Painter:
    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled

    def __call__(self, text: str, *styles: str) -> str:
        return "".join(styles) + text + _RESET if self.enabled else text


def _lines(result: FileResult) -> Optional[Sequence[str]]:
    if result.source is None:
        return None
    try:
        text, _ = decode(result.source)
    except DecodeError:
        return None
    return split_lines(text)


def _excerpt(finding: Finding, lines: Sequence[str], paint: _Painter) -> str:
    number = finding.span.line
    if not 0 < number <= len(lines):
        return ""
    line = lines[number - 1].expandtabs(1)
    start = finding.span.column - 1
    end = finding.span.end_column - 1 if finding.span.end_line == number else len(line)
    width = max(1, min(end, len(line)) - start)
    gutter = " " * len(str(number))
    return (
        f"{gutter} {paint('|', _BLUE)}\n"
        f"{paint(str(number), _BLUE)} {paint('|', _BLUE)} {line}\n"
        f"{gutter} {paint('|', _BLUE)} {' ' * start}{paint('^' * width, _RED, _BOLD)}\n"
    )


def report(results: Sequence[FileResult], out: TextIO, colour: str = "auto", quiet: bool = False) -> None:
    """``quiet``: the findings only, without the summary (``--quiet``)."""
    paint = _Painter(use_colour(out, colour))
    for result in results:
        lines = _lines(result) if result.findings else None
        for finding in result.findings:
            location = f"{finding.path}:{finding.span.line}:{finding.span.column}:"
            out.write(f"{paint(location, _BOLD)} {paint(finding.code, _RED, _BOLD)} {finding.message}\n")
            if lines is not None:
                out.write(_excerpt(finding, lines, paint))
            for related in finding.related:
                out.write(f"  {paint('= note:', _CYAN)} line {related.span.line}: {related.message}\n")
            if finding.fix is not None:
                out.write(f"  {paint('= help:', _CYAN)} {finding.fix.message} ({finding.fix.applicability.value} fix)\n")
            out.write("\n")
    if not quiet:
        write_summary(results, out)


def report_concise(results: Sequence[FileResult], out: TextIO, colour: str = "auto", quiet: bool = False) -> None:
    """One line per finding, ``[*]`` marking those a safe fix can fix (as ruff's concise)."""
    paint = _Painter(use_colour(out, colour))
    for result in results:
        for finding in result.findings:
            location = f"{finding.path}:{finding.span.line}:{finding.span.column}:"
            mark = " [*]" if finding.fix is not None and finding.fix.applicability.value == "safe" else ""
            out.write(f"{paint(location, _BOLD)} {paint(finding.code, _RED, _BOLD)}{mark} {finding.message}\n")
    if not quiet:
        write_summary(results, out)


def write_summary(results: Sequence[FileResult], out: TextIO) -> None:
    """How many findings in how many files, how many fixed, how many fixable."""
    findings = [finding for result in results for finding in result.findings]
    count = len(findings)
    files = sum(1 for result in results if result.findings)
    fixable = sum(1 for f in findings if f.fix is not None and f.fix.applicability.value == "safe")
    unsafe = sum(1 for f in findings if f.fix is not None) - fixable
    fixed = sum(len(result.fixed) for result in results)
    if fixed:
        # After --fix, as ruff says it: everything found, what was fixed, what is left.
        total = count + fixed
        out.write(f"Found {total} finding{'s' if total != 1 else ''} ({fixed} fixed, {count} remaining).\n")
    elif count:
        noun = "finding" if count == 1 else "findings"
        out.write(f"Found {count} {noun} in {files} file{'s' if files != 1 else ''}.\n")
    else:
        out.write("All checks passed.\n")
    if fixable:
        out.write(f"{fixable} fixable with `xdevlint --fix`.\n")
    if unsafe:
        out.write(f"{unsafe} {'more ' if fixable else ''}fixable with `xdevlint --fix --unsafe-fixes`.\n")
