"""Every fixable XDV101/XDV102 fixture has its exact `--fix` output beside it.

`case.fixed.py` is what `xdevlint --fix` makes of `case.py` (present only when that
changes the file); `case.unsafe.fixed.py` is what `--fix --unsafe-fixes` makes of it,
present only when that differs from `--fix`'s output. Both are compared byte for byte,
must compile, and must be a fixed point (fixing them again changes nothing). Set
`XDEVLINT_UPDATE_FIXED=1` to rewrite them from the current fixer, then review the diff.
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import Optional

import pytest

from xdevlint.config import Config
from xdevlint.engine import fix_source, lint_source
from tests.fixture_cases import FIXTURES, case_files, selection_for

MOVE_CASES = [p for p in case_files() if p.relative_to(FIXTURES).parts[0] in ("XDV101", "XDV102")]
UPDATE = os.environ.get("XDEVLINT_UPDATE_FIXED") == "1"


def _config(path: Path) -> Config:
    return replace(Config(root=FIXTURES), select=selection_for(path))


def _fixable(path: Path) -> bool:
    return any(f.fix is not None for f in lint_source(path.read_bytes(), str(path), _config(path)).findings)


FIXABLE = [p for p in MOVE_CASES if _fixable(p)]
IDS = [str(p.relative_to(FIXTURES)) for p in FIXABLE]


def _expected(path: Path, suffix: str) -> Path:
    return path.with_name(path.name[: -len(".py")] + suffix)


def _check(expected: Path, actual: Optional[bytes]) -> None:
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


@pytest.mark.parametrize("path", FIXABLE, ids=IDS)
def test_fixed_output_is_exact(path: Path) -> None:
    data = path.read_bytes()
    safe = fix_source(data, str(path), _config(path))
    unsafe = fix_source(data, str(path), _config(path), unsafe=True)
    assert safe.error is None and unsafe.error is None
    assert safe.changed or unsafe.changed, "a fixable case whose fixes change nothing"
    _check(_expected(path, ".fixed.py"), safe.fixed if safe.changed else None)
    _check(_expected(path, ".unsafe.fixed.py"), unsafe.fixed if unsafe.fixed != safe.fixed else None)


@pytest.mark.parametrize("path", FIXABLE, ids=IDS)
@pytest.mark.parametrize("unsafe", [False, True], ids=["safe", "unsafe"])
def test_fixed_output_compiles_and_is_a_fixed_point(path: Path, unsafe: bool) -> None:
    result = fix_source(path.read_bytes(), str(path), _config(path), unsafe=unsafe)
    compile(result.fixed, str(path), "exec", dont_inherit=True)
    again = fix_source(result.fixed, str(path), _config(path), unsafe=unsafe)
    assert again.fixed == result.fixed
    assert not again.applied


def test_fixed_files_are_not_lint_cases() -> None:
    assert not [p for p in case_files() if p.name.endswith(".fixed.py")]
    outputs = sorted(FIXTURES.glob("XDV10[12]/*.fixed.py"))
    assert outputs, "no .fixed.py files"
    for output in outputs:
        case = output.with_name(output.name.split(".", 1)[0] + ".py")
        assert case in FIXABLE, f"{output.name} has no fixable case {case.name}"


def test_cases_without_fixes_are_the_links() -> None:
    """Every flagged case gets a fix except links (os.link, Path.hardlink_to)."""
    for path in MOVE_CASES:
        for finding in lint_source(path.read_bytes(), str(path), _config(path)).findings:
            if finding.fix is None:
                assert "link" in finding.message or "hardlink" in finding.message, (path.name, finding.message)
