"""``--fix`` / ``--diff`` over many files: fix each, then write it, diff it, or print it.

The CLI stays a thin shell: it hands every file's bytes to ``FixRun.process`` instead
of ``lint_source`` and reports the ``FileResult`` it gets back (the findings that
remain, and in ``fixed`` those that were fixed); this module does the rest.
"""

from __future__ import annotations

import difflib
import os
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import List, Optional, TextIO

from xdevlint import registry
from xdevlint.config import Config
from xdevlint.engine import fix_source
from xdevlint.model import FileResult, FixResult, analysis_error
from xdevlint.stages.source import DecodeError, decode
from xdevlint.fixes.writer import WriteError, write_fixed


# Lines as Python counts them (``str.splitlines`` would also break at form feeds).
_LINES = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")


@dataclass
class FixRun:
    """One run's settings and what it did: ``diff`` writes nothing, ``stdin`` output is
    the fixed source itself."""

    unsafe: bool = False
    diff: bool = False
    results: List[FixResult] = field(default_factory=list)
    stdin_output: Optional[bytes] = None

    def process(self, data: bytes, path: str, config: Config, *, from_stdin: bool = False) -> FileResult:
        """Fix one file (and write it, unless ``diff`` or ``from_stdin``) and record it."""
        return self.record(fix_file(data, path, config, self.unsafe, write=not (self.diff or from_stdin)), from_stdin=from_stdin)

    def record(self, fixed: FixResult, *, from_stdin: bool = False) -> FileResult:
        """Keep what ``fix_file`` did to one file (in this process or a worker), for the
        diff, the summary and ``--show-fixes``; return what remains to report."""
        if from_stdin:
            self.stdin_output = fixed.fixed
        self.results.append(fixed)
        return FileResult(fixed.path, fixed.result.findings, fixed.fixed, fixed.applied)

    def record_unfixable(self, result: FileResult, data: bytes) -> FileResult:
        """A file the cache says has nothing to fix: recorded as fixed to itself."""
        return self.record(FixResult(result.path, data, data, (), result, result))

    @property
    def changed(self) -> bool:
        return any(r.changed for r in self.results)

    @property
    def fixed_count(self) -> int:
        return sum(len(r.applied) for r in self.results)

    def write_diff(self, out: TextIO) -> None:
        for result in self.results:
            if result.changed:
                out.write(unified_diff(result.path, result.source, result.fixed))

    def write_fixes(self, out: TextIO) -> None:
        """``--show-fixes``: per file, how many findings of each code were fixed."""
        done = [r for r in self.results if r.applied]
        if not done:
            out.write("No findings were fixed.\n" if not self.diff else "No findings would be fixed.\n")
            return
        count = self.fixed_count
        verb = "Would fix" if self.diff else "Fixed"
        out.write(f"{verb} {count} finding{'s' if count != 1 else ''}:\n")
        for result in done:
            out.write(f"- {result.path}:\n")
            for code, number in sorted(Counter(f.code for f in result.applied).items()):
                spec = registry.spec_for(code)
                name = f" ({spec.name})" if spec is not None else ""
                out.write(f"    {number} \N{MULTIPLICATION SIGN} {code}{name}\n")

    def summary(self) -> str:
        fixed = self.fixed_count
        remaining = sum(len(r.result.findings) for r in self.results)
        if self.diff:
            return f"Would fix {fixed} finding{'s' if fixed != 1 else ''} ({remaining} remaining).\n"
        return f"Fixed {fixed} finding{'s' if fixed != 1 else ''} ({remaining} remaining).\n"


def fix_file(data: bytes, path: str, config: Config, unsafe: bool, *, write: bool) -> FixResult:
    """Fix one file's bytes and, with ``write``, replace the file atomically.

    When writing fails, nothing was written: the result reports what checking the file
    finds, and why the fixes are not in it.
    """
    fixed = fix_source(data, path, config, unsafe=unsafe)
    if write and fixed.changed:
        try:
            write_fixed(path, fixed.source, fixed.fixed)
        except WriteError as error:
            before = fixed.before
            problem = analysis_error(path, f"fixes not written: {error}")
            fixed = FixResult(path, data, data, (), FileResult(path, (*before.findings, problem), data), before, str(error))
    return fixed


def unified_diff(path: str, before: bytes, after: bytes) -> str:
    """A ``diff -u`` of two versions of a file, text decoded as Python would decode it.

    Line endings are kept, so a CRLF file diffs as CRLF; a last line without a newline
    is marked as ``diff`` and ``git`` do. A relative path gets git's ``a/``, ``b/``
    prefixes (``git apply``, ``patch -p1``); an absolute one is named as it is (``patch -p0``).
    """
    old, new = _text(before), _text(after)
    lines: List[str] = []
    absolute = os.path.isabs(path)
    for line in difflib.unified_diff(
        _LINES.findall(old), _LINES.findall(new), path if absolute else f"a/{path}", path if absolute else f"b/{path}"
    ):
        if line.endswith("\n"):
            lines.append(line)
        else:
            lines.append(line + "\n\\ No newline at end of file\n")
    return "".join(lines)


def _text(data: bytes) -> str:
    try:
        return decode(data)[0]
    except DecodeError:
        return data.decode("utf-8", "replace")
