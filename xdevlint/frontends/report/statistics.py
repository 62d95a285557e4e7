"""``--statistics``: how many findings each code has, instead of the findings (as in ruff)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Dict, List, Sequence, TextIO

from xdevlint.model import Applicability, FileResult


@dataclass(frozen=True)
class Count:
    code: str
    name: str
    count: int
    fixable: bool  # some finding of this code has a safe fix, applied by `--fix`


def counts(results: Sequence[FileResult]) -> List[Count]:
    """One row per code, the most frequent first, ties by code."""
    totals: Dict[str, int] = {}
    names: Dict[str, str] = {}
    fixable: Dict[str, bool] = {}
    for result in results:
        for finding in result.findings:
            totals[finding.code] = totals.get(finding.code, 0) + 1
            names[finding.code] = finding.name
            safe = finding.fix is not None and finding.fix.applicability is Applicability.SAFE
            fixable[finding.code] = fixable.get(finding.code, False) or safe
    rows = [Count(code, names[code], total, fixable[code]) for code, total in totals.items()]
    return sorted(rows, key=lambda row: (-row.count, row.code))


def report(results: Sequence[FileResult], out: TextIO) -> None:
    rows = counts(results)
    if not rows:
        out.write("All checks passed.\n")
        return
    count_width = max(len(str(row.count)) for row in rows)
    code_width = max(len(row.code) for row in rows)
    for row in rows:
        mark = "[*]" if row.fixable else "[ ]"
        out.write(f"{row.count:>{count_width}}\t{row.code:<{code_width}}\t{mark} {row.name}\n")
    if any(row.fixable for row in rows):
        out.write("[*] fixable with `xdevlint --fix`\n")


def report_json(results: Sequence[FileResult], out: TextIO) -> None:
    rows = [{"code": r.code, "name": r.name, "count": r.count, "fixable": r.fixable} for r in counts(results)]
    json.dump(rows, out, indent=2)
    out.write("\n")
