"""Reporters: every output format takes the same results."""

from __future__ import annotations

from typing import Callable, Dict, Sequence, TextIO

from xdevlint.model import FileResult

Reporter = Callable[[Sequence[FileResult], TextIO], None]


def reporters() -> Dict[str, Reporter]:
    from xdevlint.report import json, text

    return {"text": text.report, "json": json.report}
