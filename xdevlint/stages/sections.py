"""A module's top-level statements, found in its text without parsing it.

The stdlib parser needs about 200 bytes of memory per byte of source (a 10 MB generated
module: 2 GB, and 12 s), so a large file is first cut down by text alone
(``stages.focus.prefocus``), and that needs to know where each top-level statement
starts. A line at column 0 starts one unless it lies inside a string, a bracket or a
backslash continuation, or continues a compound statement (``else``, ``except``...); so
the lexer here follows only strings (the quote patterns are ``tokenize``'s own),
comments, brackets and backslashes. It gives up (None) on anything it cannot follow: an
unclosed string or bracket, a form feed, a lone ``\\r`` line ending, a decorator without
its definition. A wrong answer could only make the cut text fail to parse, which the
caller checks.
"""

from __future__ import annotations

import re
import tokenize
from typing import List, NamedTuple, Optional, Tuple

#: What can carry the lexer's state across a line end, or hide a bracket or quote; first
#: a bracketed run that closes on its line with no quote, comment or bracket inside,
#: which changes nothing (``(x)`` in ``def f(x):``), matched whole to save a step.
_TOKEN = re.compile(
    r"\([^()\[\]{}'\"#\\\r\n]*\)|\[[^()\[\]{}'\"#\\\r\n]*\]|\{[^()\[\]{}'\"#\\\r\n]*\}"
    r"|'''|\"\"\"|'|\"|#|[(\[{]|[)\]}]|\\(?:\r\n|\r|\n)?"
)
#: The rest of a string, after its opening quote: ``tokenize``'s patterns for the
#: triple-quoted ones; a single-quoted one ends on its line, unless a backslash continues it.
_TAILS = {
    "'''": re.compile(tokenize.Single3, re.S),
    '"""': re.compile(tokenize.Double3, re.S),
    "'": re.compile(r"[^\n'\\]*(?:\\(?:\r\n|[\s\S])[^\n'\\]*)*'"),
    '"': re.compile(r'[^\n"\\]*(?:\\(?:\r\n|[\s\S])[^\n"\\]*)*"'),
}
#: A text of more characters than this is cut down by text alone before it is parsed
#: (``stages.focus.prefocus``), and tokenized only where it says ``noqa`` (``stages.suppress``).
LARGE = 1_000_000

_LINE_START = re.compile(r"^[^\s#]", re.M)
_CLAUSE = re.compile(r"(?:else|elif|except|finally)\b")
_DEFINITION = re.compile(r"(?:async[ \t]+)?def[ \t]+(\w+)|class[ \t]+(\w+)")


class Statement(NamedTuple):
    """A top-level statement: its first offset and line (1-based), and for a definition
    (decorators included) its kind (``def`` or ``class``) and name."""

    offset: int
    line: int
    kind: str = ""
    name: str = ""


def statements(text: str) -> Optional[List[Statement]]:
    """The top-level statements of ``text`` in order (each runs to the next one's start),
    or None when the lexer cannot tell them apart."""
    if "\f" in text or "\r" in text and text.count("\r") != text.count("\r\n"):
        return None
    spans = _multiline_spans(text)
    if spans is None:
        return None
    found: List[Statement] = []
    pending: Optional[Tuple[int, int]] = None  # the first decorator of a definition to come
    line, counted = 1, 0
    index = 0  # into ``spans``
    for match in _LINE_START.finditer(text):
        offset = match.start()
        while index < len(spans) and spans[index][1] <= offset:
            index += 1
        if index < len(spans) and spans[index][0] < offset:
            continue  # inside a string, a bracket or a continued line
        line += text.count("\n", counted, offset)
        counted = offset
        if text[offset] in "ef" and _CLAUSE.match(text, offset):
            if pending is not None or not found:
                return None
            continue
        if text.startswith("@", offset):
            pending = pending or (offset, line)
            continue
        definition = _DEFINITION.match(text, offset)
        start = pending or (offset, line)
        pending = None
        if definition is not None:
            kind = "class" if definition.group(2) else "def"
            found.append(Statement(*start, kind, definition.group(1) or definition.group(2)))
        elif start[0] != offset:
            return None  # a decorator before something that is not a definition
        else:
            found.append(Statement(offset, line))
    return None if pending is not None else found


def _multiline_spans(text: str) -> Optional[List[Tuple[int, int]]]:
    """The ``(start, end)`` offsets, in order, of the strings, bracketed runs and
    backslash continuations that hold a line end (None: cannot follow the text)."""
    spans: List[Tuple[int, int]] = []
    depth = 0
    opened = 0
    position = 0
    search = _TOKEN.search
    while True:
        match = search(text, position)
        if match is None:
            return None if depth else spans
        token, start, position = match.group(), match.start(), match.end()
        first = token[0]
        if len(token) > 1 and first in "([{":
            continue  # a bracketed run closed on its line
        if first == "#":
            end = text.find("\n", position)
            position = len(text) if end < 0 else end
        elif first in "'\"":
            tail = _TAILS[token].match(text, position)
            if tail is None:
                return None  # an unclosed string
            position = tail.end()
            if depth == 0 and text.find("\n", start, position) >= 0:
                spans.append((start, position))
        elif first in "([{":
            if depth == 0:
                opened = start
            depth += 1
        elif first in ")]}":
            depth -= 1
            if depth < 0:
                return None
            if depth == 0 and text.find("\n", opened, position) >= 0:
                spans.append((opened, position))
        elif depth == 0:  # a backslash: a continued line, or (alone) not Python at all
            if len(token) == 1:
                return None
            spans.append((start, position + 1))  # the next line's first character is inside
