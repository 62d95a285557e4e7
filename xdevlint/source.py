"""Turning a file's bytes into text the way Python itself would (PEP 263)."""

from __future__ import annotations

import io
import tokenize
from dataclasses import dataclass
from typing import Tuple


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
