"""``--format github``: GitHub Actions workflow commands, one ``::error`` per finding.

GitHub shows only the first annotations of a step (ten per step, fifty per job), so
the full text report follows them in the log.
"""

from __future__ import annotations

from typing import Sequence, TextIO

from xdevlint.model import FileResult, Finding
from xdevlint.frontends.report import text


def escape_data(value: str) -> str:
    """The message part: GitHub's toolkit escapes %, CR and LF (``escapeData``)."""
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(value: str) -> str:
    """A ``key=value`` property: also ':' and ',', which delimit them (``escapeProperty``)."""
    return escape_data(value).replace(":", "%3A").replace(",", "%2C")


def annotation(finding: Finding) -> str:
    span = finding.span
    properties = (
        ("title", f"xdevlint ({finding.code})"),
        ("file", finding.path),
        ("line", str(span.line)),
        ("col", str(span.column)),
        ("endLine", str(span.end_line)),
        ("endColumn", str(span.end_column)),
    )
    joined = ",".join(f"{key}={escape_property(value)}" for key, value in properties)
    return f"::error {joined}::{escape_data(finding.message)}\n"


def write_annotations(results: Sequence[FileResult], out: TextIO) -> None:
    for result in results:
        for finding in result.findings:
            out.write(annotation(finding))


def report(results: Sequence[FileResult], out: TextIO) -> None:
    write_annotations(results, out)
    text.report(results, out)
