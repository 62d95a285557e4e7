"""Turning a file's bytes into text the way Python itself would (PEP 263)."""

from __future__ import annotations

import io
import re
import tokenize
from dataclasses import dataclass
from typing import List, Tuple


@dataclass(frozen=True)
class DecodeError(Exception):
    """Why the bytes are not Python source text, and where (1-based line and column)."""

    reason: str
    line: int = 1
    column: int = 1


def decode(data: bytes) -> Tuple[str, str]:
    """Return ``(text, encoding)``; BOM and coding cookie honoured, as the interpreter does."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as error:
        raise DecodeError(str(error), error.lineno or 1, 1) from None
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as error:
        before = data[: error.start]
        line = before.count(b"\n") + 1
        column = len(before) - (before.rfind(b"\n") + 1) + 1
        raise DecodeError(f"cannot decode byte 0x{data[error.start]:02x} as {encoding}", line, column) from None
    except LookupError:
        raise DecodeError(f"unknown encoding {encoding!r}") from None
    if text.startswith("\ufeff"):
        text = text[1:]
    return text, encoding


_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")


def lines_of(code: str) -> List[str]:
    """``code``'s lines with their endings, as libcst and CPython count lines (``\\n``,
    ``\\r\\n`` or ``\\r``; not the form feeds and separators ``str.splitlines`` breaks at)."""
    return _LINE.findall(code)
