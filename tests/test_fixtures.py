"""Every fixture yields exactly its marked findings (code, line, column)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from xdevlint.config import Config
from xdevlint.engine import lint_source
from tests.fixture_cases import FIXTURES, case_files, expected_findings, selection_for

CASES = case_files()


def _lint(path: Path, prescan: bool = True, edits: bool = True):
    config = replace(Config(root=FIXTURES), select=selection_for(path))
    return lint_source(path.read_bytes(), str(path), config, prescan=prescan, edits=edits)


@pytest.mark.parametrize("path", CASES, ids=[str(p.relative_to(FIXTURES)) for p in CASES])
def test_fixture_findings(path: Path) -> None:
    result = _lint(path)
    actual = {(f.span.line, f.span.column, f.code) for f in result.findings}
    assert actual == expected_findings(path)


@pytest.mark.parametrize("path", CASES, ids=[str(p.relative_to(FIXTURES)) for p in CASES])
def test_prescan_never_drops_a_finding(path: Path) -> None:
    """The cheap scan may keep files without findings, never drop one with them."""
    with_scan = _lint(path).findings
    without_scan = _lint(path, prescan=False).findings
    assert with_scan == without_scan


@pytest.mark.parametrize("path", CASES, ids=[str(p.relative_to(FIXTURES)) for p in CASES])
def test_findings_are_placed_alike_with_and_without_edits(path: Path) -> None:
    """Without edits, spans come from the reported statements alone (positions_of);
    with them, from libcst rendering the whole module."""
    quick = [(f.span, f.code, f.message) for f in _lint(path, edits=False).findings]
    assert quick == [(f.span, f.code, f.message) for f in _lint(path).findings]


def test_fixture_balance() -> None:
    """At least 50 move-rule cases, and at least as many must-not-flag as must-flag."""
    move_cases = [p for p in CASES if p.relative_to(FIXTURES).parts[0] in ("XDV101", "XDV102", "XDV103")]
    flagged = [p for p in move_cases if expected_findings(p)]
    assert len(move_cases) >= 50
    assert len(move_cases) - len(flagged) >= len(flagged)


def test_incident_is_flagged() -> None:
    worker = FIXTURES / "incident" / "migrate_worker.py"
    codes = {f.code for f in _lint(worker).findings}
    assert {"XDV101", "XDV201", "XDV202"} <= codes
