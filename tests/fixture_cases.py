"""Reading fixture expectations: trailing ``# expect: XDV101`` or ``XDV101@col`` markers.

Markers are read as text with a regex (never evaluated); a code without ``@col``
expects the finding at the line's first non-blank column.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import List, Set, Tuple

from xdevlint.suppress import split_lines

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
_MARKER = re.compile(r"#\s*expect:\s*(?P<codes>XDV\d{3}(?:@\d+)?(?:\s*,\s*XDV\d{3}(?:@\d+)?)*)\s*$")

Expected = Set[Tuple[int, int, str]]


def case_files() -> List[Path]:
    return sorted(p for p in FIXTURES.rglob("*.py") if not p.name.endswith(".fixed.py"))


def expected_findings(path: Path) -> Expected:
    text = path.read_bytes().decode("latin-1")  # markers are ASCII; any encoding reads them
    found: Expected = set()
    for number, line in enumerate(split_lines(text), start=1):
        match = _MARKER.search(line)
        if not match:
            continue
        indent = len(line) - len(line.lstrip())
        for item in re.split(r"\s*,\s*", match.group("codes")):
            code, _, column = item.partition("@")
            found.add((number, int(column) if column else indent + 1, code))
    return found


def selection_for(path: Path) -> Tuple[str, ...]:
    """Rules a fixture is checked with: its family (XDV1.., XDV2..), or all for the incident."""
    family = path.relative_to(FIXTURES).parts[0]
    if re.fullmatch(r"XDV\d{3}", family):
        return (family[:4],)
    return ("ALL",)
