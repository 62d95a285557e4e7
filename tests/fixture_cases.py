"""Reading fixture expectations: trailing ``# expect: XDV101`` or ``XDV101@col`` markers.

Markers are read as text with a regex (never evaluated); a code without ``@col``
expects the finding at the line's first non-blank column.
"""

from __future__ import annotations

import os
import re
import textwrap
from dataclasses import replace
from pathlib import Path
from typing import List, Optional, Set, Tuple

from xdevlint import registry
from xdevlint.config import Config

from xdevlint.stages.suppress import split_lines

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
_MARKER = re.compile(r"#\s*expect:\s*(?P<codes>XDV\d{3}(?:@\d+)?(?:\s*,\s*XDV\d{3}(?:@\d+)?)*)\s*$")

Expected = Set[Tuple[int, int, str]]


def case_files() -> List[Path]:
    """The fixtures (each is checked alone, as the engine does)."""
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
    """Rules a fixture is checked with: its family (XDV1.., XDV2..), or all for the incident
    and for the engine's codes (XDV001 judges the noqa comments of the rules that ran)."""
    family = path.relative_to(FIXTURES).parts[0]
    if re.fullmatch(r"XDV[1-9]\d{2}", family):
        spec = registry.spec_for(family)
        # An opt-in rule runs only when its own code is named (``registry.RuleSpec.opt_in``).
        return (family[:4], family) if spec is not None and spec.opt_in else (family[:4],)
    return ("ALL",)


def fixture_config(path: Path) -> Config:
    """Default settings rooted at fixtures/, with the fixture's rule family selected."""
    return replace(Config(root=FIXTURES), select=selection_for(path))


#: ``XDEVLINT_UPDATE_FIXED=1`` rewrites the expected ``.fixed.py`` outputs (then review the diff).
UPDATE = os.environ.get("XDEVLINT_UPDATE_FIXED") == "1"


def expected_output(path: Path, suffix: str) -> Path:
    """``case.py`` -> ``case.fixed.py`` / ``case.unsafe.fixed.py``."""
    return path.with_name(path.name[: -len(".py")] + suffix)


def check_output(expected: Path, actual: Optional[bytes]) -> None:
    """``actual`` (None: fixing changed nothing) must be byte for byte ``expected``."""
    if UPDATE:
        if actual is None:
            expected.unlink(missing_ok=True)
        else:
            expected.write_bytes(actual)
        return
    if actual is None:
        assert not expected.exists(), f"{expected.name} exists but fixing changes nothing at that level"
    else:
        assert expected.exists(), f"missing {expected.name}"
        assert expected.read_bytes() == actual


#: XDV101 only (the temp is removed on error), with a safe fix: `dir=` on mkstemp.
ONLY_XDV101_SAFE_FIX = textwrap.dedent(
    """\
    import os
    import tempfile


    def store(data, cache_dir, name):
        fd, tmp = tempfile.mkstemp()
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
            os.replace(tmp, os.path.join(cache_dir, name))
        except BaseException:
            os.unlink(tmp)
            raise
    """
)
