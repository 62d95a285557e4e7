"""Every fixable XDV001/XDV101/XDV102 fixture has its exact `--fix` output beside it.

`case.fixed.py` is what `xdevlint --fix` makes of `case.py` (present only when that
changes the file); `case.unsafe.fixed.py` is what `--fix --unsafe-fixes` makes of it,
present only when that differs from `--fix`'s output. Both are compared byte for byte,
must compile, and must be a fixed point (fixing them again changes nothing). Set
`XDEVLINT_UPDATE_FIXED=1` to rewrite them from the current fixer, then review the diff.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Sequence, Tuple

import pytest

from xdevlint.config import Config
from xdevlint.engine import fix_source, lint_source
from xdevlint.model import Applicability, Finding
from tests.fixture_cases import FIXTURES, case_files, check_output, expected_output, fixture_config

MOVE_CASES = [p for p in case_files() if p.relative_to(FIXTURES).parts[0] in ("XDV001", "XDV101", "XDV102")]


def _fixable(path: Path) -> bool:
    return any(f.fix is not None for f in lint_source(path.read_bytes(), str(path), fixture_config(path)).findings)


FIXABLE = [p for p in MOVE_CASES if _fixable(p)]
IDS = [str(p.relative_to(FIXTURES)) for p in FIXABLE]


@pytest.mark.parametrize("path", FIXABLE, ids=IDS)
def test_fixed_output_is_exact(path: Path) -> None:
    data = path.read_bytes()
    safe = fix_source(data, str(path), fixture_config(path))
    unsafe = fix_source(data, str(path), fixture_config(path), unsafe=True)
    assert safe.error is None and unsafe.error is None
    assert safe.changed or unsafe.changed, "a fixable case whose fixes change nothing"
    check_output(expected_output(path, ".fixed.py"), safe.fixed if safe.changed else None)
    check_output(expected_output(path, ".unsafe.fixed.py"), unsafe.fixed if unsafe.fixed != safe.fixed else None)


@pytest.mark.parametrize("path", FIXABLE, ids=IDS)
@pytest.mark.parametrize("unsafe", [False, True], ids=["safe", "unsafe"])
def test_fixed_output_compiles_and_is_a_fixed_point(path: Path, unsafe: bool) -> None:
    result = fix_source(path.read_bytes(), str(path), fixture_config(path), unsafe=unsafe)
    compile(result.fixed, str(path), "exec", dont_inherit=True)
    again = fix_source(result.fixed, str(path), fixture_config(path), unsafe=unsafe)
    assert again.fixed == result.fixed
    assert not again.applied


def test_fixed_files_are_not_lint_cases() -> None:
    assert not [p for p in case_files() if p.name.endswith(".fixed.py")]
    outputs = sorted([*FIXTURES.glob("XDV001/*.fixed.py"), *FIXTURES.glob("XDV10[12]/*.fixed.py")])
    assert outputs, "no .fixed.py files"
    for output in outputs:
        case = output.with_name(output.name.split(".", 1)[0] + ".py")
        assert case in FIXABLE, f"{output.name} has no fixable case {case.name}"


def test_cases_without_fixes_are_the_links() -> None:
    """Every flagged case gets a fix except links (os.link, Path.hardlink_to), another
    module's rename reported at its call (fixed there, or not at all), a move function
    handed to another call (``run_in_executor(None, os.rename, a, b)``: no call to
    rewrite), the project's own move function (``from .posixemulation import rename``: it
    may do more than ``os``'s), a rename relative to directory descriptors (a move function takes none),
    and, with the default `shutil.move`, a move onto a directory `mkdtemp()` made
    (shutil.move would move into it): an atomic move function replaces it as the rename did."""
    for path in MOVE_CASES:
        text = path.read_text(encoding="latin-1").splitlines()
        for finding in lint_source(path.read_bytes(), str(path), fixture_config(path)).findings:
            if finding.fix is not None or "link" in finding.message:
                continue
            line = text[finding.span.line - 1]
            handed = any(f"({w}" in line or f", {w}" in line for w in ("os.rename", "os.replace"))
            own = not finding.message.split("`")[1].startswith(("os.", "Path."))
            if "calls `" in finding.message or handed or own or "dir_fd=" in line:
                continue
            assert "onto a new temp path" in finding.message, (path.name, finding.message)
            config = replace(fixture_config(path), move_function="xdevlint.safemove.safe_move")
            again = lint_source(path.read_bytes(), str(path), config).findings
            assert any(f.span == finding.span and f.fix is not None for f in again), (path.name, finding.message)


def _everything(path: Path) -> Config:
    return replace(fixture_config(path), select=("ALL",))


#: The incident's shape: a temp staged in the temp location, moved across filesystems,
#: and left behind on an error path: XDV101 or XDV102 and XDV201 on one temp, whose fix
#: stages it beside the destination and removes it on the error paths, together.
STAGED_AND_REMOVED = [
    p for p in [*MOVE_CASES, FIXTURES / "incident" / "migrate_worker.py"]
    if any(f.fix and f.fix.message.endswith("and remove it on the error path") for f in lint_source(p.read_bytes(), str(p), _everything(p)).findings)
]


@pytest.mark.parametrize("path", STAGED_AND_REMOVED, ids=[str(p.relative_to(FIXTURES)) for p in STAGED_AND_REMOVED])
def test_the_incident_shape_is_fixed_by_plain_fix(path: Path) -> None:
    """Plain ``--fix`` (safe fixes only) fixes both findings of each such temp at once:
    the fixed file compiles, and for each such fix one move finding and one XDV201 are
    gone; nothing new appears."""
    data = path.read_bytes()
    before = lint_source(data, str(path), _everything(path)).findings
    together = [f for f in before if f.fix and f.fix.message.endswith("and remove it on the error path")]
    assert all(f.fix is not None and f.fix.applicability is Applicability.SAFE for f in together)
    result = fix_source(data, str(path), _everything(path))
    assert result.error is None
    compile(result.fixed, str(path), "exec", dont_inherit=True)
    after = lint_source(result.fixed, str(path), _everything(path)).findings

    def count(findings: Sequence[Finding], codes: Tuple[str, ...]) -> int:
        return sum(f.code in codes for f in findings)

    assert count(after, ("XDV101", "XDV102")) <= count(before, ("XDV101", "XDV102")) - len(together)
    assert count(after, ("XDV201",)) <= count(before, ("XDV201",)) - len(together)
    assert {f.code for f in after} <= {f.code for f in before}
    if path.parent.name == "incident":  # the worker: staged beside the cache, its rename can no longer fail with EXDEV
        assert [f.code for f in after] == []
