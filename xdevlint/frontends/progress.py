"""A progress line on stderr for long runs at a terminal: files done of total, findings so far.

Shown only when a person is watching: stderr is a terminal, ``CI`` is not set (CI logs
are files, and some CIs fake a terminal), no ``--quiet``, and the output is for people
(``text``). It appears once a run has taken ``DELAY`` seconds, so a quick run prints
nothing; ``tqdm`` is imported then, not before.
"""

from __future__ import annotations

import os
import time
from typing import Any, Optional, TextIO

#: Seconds before the line appears.
DELAY = 2.0


def wanted(stream: TextIO, quiet: bool, output_format: str) -> bool:
    """Whether a progress line may be drawn on ``stream``."""
    if quiet or output_format != "text":
        return False
    if os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no"):
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


class Progress:
    """Called after each file with files done and findings so far (``batch.Progress``)."""

    def __init__(self, total: int, stream: TextIO, delay: Optional[float] = None) -> None:
        self.total = total
        self.stream = stream
        self.delay = DELAY if delay is None else delay
        self.started = time.monotonic()
        self._bar: Optional[Any] = None

    def __call__(self, done: int, findings: int) -> None:
        found = f"{findings} finding{'s' if findings != 1 else ''}"
        if self._bar is None:
            if time.monotonic() - self.started < self.delay or done >= self.total:
                return
            from tqdm import tqdm  # type: ignore[import-untyped]

            self._bar = tqdm(
                total=self.total, initial=done, file=self.stream, unit="file", leave=False, dynamic_ncols=True,
                mininterval=0.2, postfix=found,
            )
            return
        self._bar.set_postfix_str(found, refresh=False)
        self._bar.update(done - self._bar.n)

    def close(self) -> None:
        """Erase the line (``leave=False``), so the report starts on a clean line."""
        if self._bar is not None:
            self._bar.close()
            self._bar = None
