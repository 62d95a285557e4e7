"""Shared helpers for the test suite."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Callable, Iterator, List

import pytest

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "fixtures"


@pytest.fixture
def repo() -> Path:
    return REPO


@pytest.fixture
def mount_tmpfs() -> Iterator[Callable[[Path, str], Path]]:
    """Mounts a tmpfs of the given size on a directory (unmounted after the test), so a
    disk that really fills can be had; skips with the reason where mounting is refused."""
    mounted: List[Path] = []

    def mount(directory: Path, size: str) -> Path:
        if os.name != "posix" or not shutil.which("mount"):
            pytest.skip("needs mount(8) to make a small tmpfs")
        directory.mkdir(parents=True, exist_ok=True)
        result = subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(directory)], capture_output=True, text=True, check=False
        )
        if result.returncode != 0:
            pytest.skip(f"cannot mount a tmpfs here (needs root): {result.stderr.strip() or result.returncode}")
        mounted.append(directory)
        return directory

    try:
        yield mount
    finally:
        for directory in reversed(mounted):
            subprocess.run(["umount", str(directory)], check=False)
@pytest.fixture(autouse=True)
def _own_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test gets an empty result cache of its own (and the checkout gets none)."""
    monkeypatch.setenv("XDEVLINT_CACHE_DIR", str(tmp_path_factory.mktemp("xdevlint-cache")))
