"""The package type-checks under ``mypy --strict`` (docs/STYLE.md habit 10), in CI as on a desk."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def test_mypy_strict_is_clean(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(tmp_path / "cache"), "xdevlint"],
        cwd=REPO, capture_output=True, text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
