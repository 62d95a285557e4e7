"""Reporters: every output format takes the same results; as front ends, they may import the engine and below."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Callable, Sequence, TextIO

if TYPE_CHECKING:
    from xdevlint.model import FileResult

Reporter = Callable[[Sequence["FileResult"], TextIO], None]


#: The output formats; each reporter module is imported only when its format is asked for
#: (SARIF's brings every rule's documentation, and with it libcst).
FORMATS = ("concise", "github", "json", "sarif", "text")


def reporter(format: str) -> Reporter:
    import importlib

    if format not in FORMATS:
        raise ValueError(f"unknown format {format!r}")
    report: Reporter = importlib.import_module(f"xdevlint.frontends.report.{format}").report
    return report


def statistics_reporter(format: str) -> Reporter:
    """``--statistics`` replaces the findings with counts: JSON for ``json``, else a table.

    GitHub annotations stay in front of the table: they are what the step exists for.
    (``sarif`` is refused by the CLI: a log format cannot be swapped for a table.)
    """
    from xdevlint.frontends.report import github, statistics

    if format == "json":
        return statistics.report_json
    if format == "github":

        def annotated(results: Sequence[FileResult], out: TextIO) -> None:
            github.write_annotations(results, out)
            statistics.report(results, out)

        return annotated
    return statistics.report


def write_atomically(path: str, content: str) -> None:
    """Write ``content`` to ``path`` through a temp file beside it and ``os.replace``.

    A reader (a CI upload step) never sees half a report, and a failed run leaves the
    previous file whole. The file gets its old mode, or the umask's, not mkstemp's 0600.
    """
    import tempfile

    directory = os.path.dirname(os.path.abspath(path))
    try:
        mode = os.stat(path).st_mode & 0o7777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    fd, temp = tempfile.mkstemp(dir=directory, prefix=f".{os.path.basename(path)}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(content)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp, mode)
        os.replace(temp, path)
    except BaseException:
        try:
            os.unlink(temp)
        except FileNotFoundError:
            pass
        raise
