"""``# noqa`` comments: per statement (bare or with codes), ``# xdevlint: noqa`` per file,
and ``# xdevlint: noqa: CODES`` per file and code.

Only real comments count: the file's comment tokens (``tokenize``), so the words inside
a string or a docstring never suppress anything. A ``# noqa`` on any line of a
statement that spans several lines covers every line of it (as flake8 reads it). Codes
are matched whatever their case (``# NOQA: xdv101``).
"""

from __future__ import annotations

import io
import re
import tokenize
from dataclasses import dataclass
from typing import Dict, Iterable, List, Optional, Sequence, Set, Tuple

from xdevlint.model import Finding
from xdevlint.stages.sections import LARGE, statements as top_level

# flake8's syntax: "# noqa", "# noqa: XDV101", "# noqa:XDV101,XDV102"; a code list
# must follow the colon directly (one optional space), else it is a bare noqa.
_LINE_NOQA = re.compile(
    r"#\s*noqa"
    r"(?::[\s]?(?P<codes>[A-Z]+[0-9]+(?:[,\s]+[A-Z]+[0-9]+)*))?",
    re.IGNORECASE,
)
_FILE_NOQA = re.compile(r"#\s*xdevlint\s*:\s*noqa\b(?!\s*:)", re.IGNORECASE)
# ruff's "# ruff: noqa: F401": these codes, in the whole file.
_FILE_NOQA_CODES = re.compile(
    r"#\s*xdevlint\s*:\s*noqa\s*:[ \t]*(?P<codes>[A-Z]+[0-9]+(?:[ \t]*,[ \t]*[A-Z]+[0-9]+|[ \t]+[A-Z]+[0-9]+)*)",
    re.IGNORECASE,
)

#: Universal newlines, as Python's tokenizer counts lines (form feeds are not breaks).
LINE_BREAK = re.compile(r"\r\n|\r|\n")


@dataclass(frozen=True)
class Noqa:
    """One ``# noqa`` comment: where it is, the codes as written (() for a bare one), and
    the lines of the statement it covers. Columns are 0-based, in characters."""

    line: int
    start: int  # of the ``#`` that begins the directive
    end: int  # the directive's end (its codes'); the comment may go on after it
    comment_start: int  # of the whole comment token
    comment_end: int
    written: Tuple[str, ...]
    first: int
    last: int

    @property
    def codes(self) -> Tuple[str, ...]:
        return tuple(code.upper() for code in self.written)

    def covers(self, finding: Finding) -> bool:
        """Whether this comment suppresses ``finding`` (its codes in any case)."""
        return not self.codes or finding.code.startswith(self.codes)


@dataclass(frozen=True)
class Comments:
    """The suppression comments of one file."""

    file_suppressed: bool
    file_codes: Tuple[str, ...]
    noqa: Tuple[Noqa, ...]

    def for_line(self, line: int) -> List[Noqa]:
        return [directive for directive in self.noqa if directive.first <= line <= directive.last]


#: A file without suppression comments.
NO_COMMENTS = Comments(False, (), ())


def comments(text: str) -> Comments:
    """Read the file's comment tokens. A file the tokenizer stops on (an unclosed
    bracket) keeps the comments before that point; the rest count as nothing."""
    if "noqa" not in text.lower():
        return NO_COMMENTS
    found, ranges = _noqa_tokens(text)
    file_suppressed = False
    file_codes: List[str] = []
    directives: List[Noqa] = []
    for line, start, end, comment in found:
        if _FILE_NOQA.search(comment):
            file_suppressed = True
        for match in _FILE_NOQA_CODES.finditer(comment):
            file_codes.extend(code.upper() for code in re.split(r"[,\s]+", match.group("codes")) if code)
        for match in _LINE_NOQA.finditer(comment):  # "# xdevlint: noqa" never matches: "#" must precede "noqa"
            written = tuple(c for c in re.split(r"[,\s]+", match.group("codes") or "") if c)
            first, last = next(((a, b) for a, b in ranges if a <= line <= b), (line, line))
            directives.append(Noqa(line, start + match.start(), start + match.end(), start, end, written, first, last))
            break
    return Comments(file_suppressed, tuple(dict.fromkeys(file_codes)), tuple(directives))


def statements(text: str) -> List[Tuple[int, int]]:
    """The first and last line of each statement (logical line) the tokenizer reads."""
    return _tokens(text)[1]


def _noqa_tokens(text: str) -> Tuple[List[Tuple[int, int, int, str]], List[Tuple[int, int]]]:
    """``_tokens`` of the parts of ``text`` that say ``noqa``. Python's tokenizer takes
    about 2 s a megabyte: a large file is tokenized one top-level statement at a time
    (each tokenizes alone as it does in the file), and only the statements that say
    ``noqa``, which is where every suppression comment is."""
    found = top_level(text) if len(text) > LARGE else None
    if found is None:
        return _tokens(text)
    comments: List[Tuple[int, int, int, str]] = []
    ranges: List[Tuple[int, int]] = []
    pieces = [(0, 1), *((s.offset, s.line) for s in found), (len(text), 0)]
    for (start, line), (end, _) in zip(pieces, pieces[1:]):
        piece = text[start:end]
        if "noqa" in piece.lower():
            more, spans = _tokens(piece, line - 1)
            comments.extend(more)
            ranges.extend(spans)
    return comments, ranges


def _tokens(text: str, shift: int = 0) -> Tuple[List[Tuple[int, int, int, str]], List[Tuple[int, int]]]:
    """The comments (line, start, end, text) and the statements' line ranges; ``shift``
    is added to every line."""
    found: List[Tuple[int, int, int, str]] = []
    ranges: List[Tuple[int, int]] = []
    opened: Optional[int] = None
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            kind = token.type
            if kind == tokenize.COMMENT:
                found.append((token.start[0] + shift, token.start[1], token.end[1], token.string))
            elif kind in (tokenize.NEWLINE, tokenize.ENDMARKER):
                if opened is not None:
                    ranges.append((opened, token.start[0] + shift))
                opened = None
            elif kind not in (tokenize.NL, tokenize.INDENT, tokenize.DEDENT) and opened is None:
                opened = token.start[0] + shift
    except (tokenize.TokenError, SyntaxError):
        pass
    return found, ranges


def split_lines(text: str) -> List[str]:
    return LINE_BREAK.split(text)


def unsuppressed(findings: Iterable[Finding], found: Comments) -> Tuple[List[Finding], Set[Tuple[int, str]]]:
    """The findings no ``# noqa`` covers, and which (comment line, code written) each
    suppression used (a bare noqa as code ``""``)."""
    kept: List[Finding] = []
    used: Set[Tuple[int, str]] = set()
    by_line: Dict[int, List[Noqa]] = {}
    for finding in findings:
        line = finding.span.line
        if line not in by_line:
            by_line[line] = found.for_line(line)
        covering = [d for d in by_line[line] if d.covers(finding)]
        if not covering:
            kept.append(finding)
        for directive in covering:
            if not directive.written:
                used.add((directive.line, ""))
            for code in directive.written:
                if finding.code.startswith(code.upper()):
                    used.add((directive.line, code))
    return kept, used


def written_in_another_case(finding: Finding, found: Comments) -> bool:
    """Whether a ``# noqa`` names ``finding``'s code only in another case (``xdv101``),
    which flake8, comparing codes as written, would not honour."""
    for directive in found.for_line(finding.span.line):
        if directive.written and directive.covers(finding):
            return not finding.code.startswith(directive.written)
    return False


def unused_codes(found: Comments, used: Set[Tuple[int, str]], judged: Sequence[str]) -> List[Tuple[Noqa, Tuple[str, ...]]]:
    """Each ``# noqa`` with the codes it names that suppressed nothing, among ``judged``:
    the codes whose rules ran on the file. A prefix (``XDV1``), a code of another tool
    (``E501``) or of a rule that did not run is never judged."""
    unused: List[Tuple[Noqa, Tuple[str, ...]]] = []
    for directive in found.noqa:
        idle = tuple(code for code in directive.written if (directive.line, code) not in used and code.upper() in judged)
        if idle:
            unused.append((directive, idle))
    return unused
