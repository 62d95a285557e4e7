"""The fixer under pressure: concurrent runs, a full disk, files changing underneath.

Real filesystems and real processes: two ``xdevlint --fix`` processes over one tree, a
tmpfs that really fills (as root; skipped with the reason elsewhere), a file rewritten
between analysis and write.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from typing import Callable, Dict

import pytest

from tests.conftest import FIXTURES
from xdevlint.config import Config
from xdevlint.engine import fix_source
from xdevlint.fixing import FixRun

FIX = [sys.executable, "-m", "xdevlint", "--fix", "--unsafe-fixes", "--select", "XDV"]


def _tree(root: Path) -> Dict[str, bytes]:
    """A copy of the fixture cases (inputs only) under ``root``, and their bytes."""
    for case in sorted(FIXTURES.glob("XDV*/*.py")):
        if case.name.endswith(".fixed.py"):
            continue
        target = root / case.parent.name / case.name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(case, target)
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*.py"))}


def _contents(root: Path) -> Dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*.py"))}


def test_two_fix_runs_at_once_leave_every_file_correctly_fixed(tmp_path: Path) -> None:
    alone, shared = tmp_path / "alone", tmp_path / "shared"
    original = _tree(alone)
    _tree(shared)
    subprocess.run([*FIX, str(alone)], capture_output=True, check=False, cwd=tmp_path)
    expected = _contents(alone)
    assert sum(expected[name] != original[name] for name in original) >= 50
    runs = [subprocess.Popen([*FIX, str(shared)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path) for _ in range(2)]
    outputs = [run.communicate(timeout=600) for run in runs]
    for run, (_, err) in zip(runs, outputs):
        assert run.returncode in (0, 1), err.decode()
        assert b"Traceback" not in err
    assert _contents(shared) == expected
    assert not [p for p in shared.rglob("*") if p.name.endswith(".xdevlint")], "a staged temp was left behind"


_NEEDS_FIX = b"""\
import os
import tempfile


def publish(data, cache_dir):
    fd, tmp = tempfile.mkstemp()
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    os.rename(tmp, os.path.join(cache_dir, "x"))
"""


def test_a_full_disk_leaves_the_original_intact(tmp_path: Path, mount_tmpfs: Callable[[Path, str], Path]) -> None:
    disk = mount_tmpfs(tmp_path / "disk", "64k")
    target = disk / "mod.py"
    padding = b"#" * 30_000 + b"\n"
    target.write_bytes(_NEEDS_FIX + padding)
    filler = disk / "filler"
    with open(filler, "wb", buffering=0) as handle:  # fill the disk to the last block
        with pytest.raises(OSError):
            while True:
                handle.write(b"\0" * 4096)
    before = target.read_bytes()
    run = subprocess.run([*FIX, str(target)], capture_output=True, text=True, check=False, cwd=tmp_path)
    assert b"Traceback" not in run.stderr.encode() and "Traceback" not in run.stdout
    assert target.read_bytes() == before
    assert "XDV000" in run.stdout and "not written" in run.stdout
    assert sorted(p.name for p in disk.iterdir()) == ["filler", "mod.py"], "a staged temp was left behind"


def test_a_file_changed_after_analysis_is_not_overwritten(tmp_path: Path) -> None:
    """The bytes analysed are compared with the file just before the rename: an editor
    that saved in between wins, and the run says so."""
    target = tmp_path / "mod.py"
    target.write_bytes(_NEEDS_FIX)
    run = FixRun(unsafe=True)
    config = Config()
    stale = target.read_bytes()
    target.write_bytes(_NEEDS_FIX + b"# saved by an editor meanwhile\n")
    saved = target.read_bytes()
    result = run.process(stale, str(target), config)
    assert target.read_bytes() == saved
    assert any(f.code == "XDV000" and "changed on disk" in f.message for f in result.findings)
    assert fix_source(stale, str(target), config, unsafe=True).changed  # there was something to write


def test_a_bad_configuration_found_midway_writes_nothing(tmp_path: Path) -> None:
    """A subdirectory's broken ``pyproject.toml`` is found before any file is written."""
    good, bad = tmp_path / "a_good", tmp_path / "z_bad"
    good.mkdir()
    bad.mkdir()
    (good / "mod.py").write_bytes(_NEEDS_FIX)
    (bad / "mod.py").write_bytes(_NEEDS_FIX)
    (bad / "pyproject.toml").write_text("[tool.xdevlint]\nselect = 5\n")
    run = subprocess.run([*FIX, str(tmp_path)], capture_output=True, text=True, check=False, cwd=tmp_path)
    assert run.returncode == 2, run.stdout + run.stderr
    assert "z_bad" in run.stderr and "select" in run.stderr
    assert (good / "mod.py").read_bytes() == _NEEDS_FIX
    assert (bad / "mod.py").read_bytes() == _NEEDS_FIX
