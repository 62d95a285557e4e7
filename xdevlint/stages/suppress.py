"""``# noqa`` comments: per line (bare or with codes), ``# xdevlint: noqa`` per file, and
``# xdevlint: noqa: CODES`` per file and code."""

from __future__ import annotations

import re
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

from xdevlint.model import Finding

# flake8's syntax: "# noqa", "# noqa: XDV101", "# noqa:XDV101,XDV102"; a code list
# must follow the colon directly (one optional space), else it is a bare noqa.
_LINE_NOQA = re.compile(
    r"#\s*noqa"
    r"(?::[\s]?(?P<codes>[A-Z]+[0-9]*(?:[,\s]+[A-Z]+[0-9]*)*))?",
    re.IGNORECASE,
)
_FILE_NOQA = re.compile(r"#\s*xdevlint\s*:\s*noqa\b(?!\s*:)", re.IGNORECASE)
# ruff's "# ruff: noqa: F401": these codes, in the whole file. The list ends with its
# line ([ \t], not \s), so a name on the next line is never read as a code.
_FILE_NOQA_CODES = re.compile(
    r"#\s*xdevlint\s*:\s*noqa\s*:[ \t]*(?P<codes>[A-Z]+[0-9]+(?:[ \t]*,[ \t]*[A-Z]+[0-9]+|[ \t]+[A-Z]+[0-9]+)*)",
    re.IGNORECASE,
)

#: Universal newlines, as Python's tokenizer counts lines (form feeds are not breaks).
LINE_BREAK = re.compile(r"\r\n|\r|\n")


def file_is_suppressed(text: str) -> bool:
    return _FILE_NOQA.search(text) is not None


def file_ignored_codes(text: str) -> Tuple[str, ...]:
    """The codes (or prefixes) that ``# xdevlint: noqa: CODES`` comments turn off for the file."""
    codes = (c.upper() for m in _FILE_NOQA_CODES.finditer(text) for c in re.split(r"[,\s]+", m.group("codes")))
    return tuple(dict.fromkeys(codes))


def split_lines(text: str) -> List[str]:
    return LINE_BREAK.split(text)


def line_codes(line: str) -> Optional[Tuple[str, ...]]:
    """The codes a line's noqa covers: None for no noqa, () for a bare one."""
    match = _LINE_NOQA.search(line)
    if match is None:
        return None
    codes = match.group("codes")
    return tuple(c.upper() for c in re.split(r"[,\s]+", codes) if c) if codes else ()


def unsuppressed(findings: Iterable[Finding], lines: Sequence[str]) -> List[Finding]:
    cache: Dict[int, Optional[Tuple[str, ...]]] = {}
    kept = []
    for finding in findings:
        number = finding.span.line
        if number not in cache:
            cache[number] = line_codes(lines[number - 1]) if 0 < number <= len(lines) else None
        codes = cache[number]
        if codes is None or codes and not finding.code.startswith(codes):
            kept.append(finding)
    return kept
