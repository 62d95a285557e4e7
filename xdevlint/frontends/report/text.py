"""``--format text``: ``path:line:col: CODE message``, an excerpt with a caret, a summary."""

from __future__ import annotations

import os
from typing import Optional, Sequence, TextIO

from xdevlint.model import FileResult, Finding
from xdevlint.stages.source import DecodeError, decode
from xdevlint.stages.suppress import split_lines

_BOLD, _RED, _BLUE, _CYAN, _RESET = "\033[1m", "\033[31m", "\033[34m", "\033[36m", "\033[0m"


def use_colour(out: TextIO) -> bool:
    """Colour only on a terminal, and never when NO_COLOR is set (no-color.org)."""
    if "NO_COLOR" in os.environ:
        return False
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


def report(results: Sequence[FileResult], out: TextIO) -> None:
    paint = _Painter(use_colour(out))
    count = 0
    files = 0
    fixable = 0
    unsafe = 0
    for result in results:
        if not result.findings:
            continue
        files += 1
        lines = _lines(result)
        for finding in result.findings:
            count += 1
            location = f"{finding.path}:{finding.span.line}:{finding.span.column}:"
            out.write(f"{paint(location, _BOLD)} {paint(finding.code, _RED, _BOLD)} {finding.message}\n")
            if lines is not None:
                out.write(_excerpt(finding, lines, paint))
            if finding.fix is not None:
                if finding.fix.applicability.value == "safe":
                    fixable += 1
                else:
                    unsafe += 1
                out.write(f"  {paint('= help:', _CYAN)} {finding.fix.message} ({finding.fix.applicability.value} fix)\n")
            out.write("\n")
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
