"""The incident, reproduced and fixed for real.

`fixtures/incident/migrate_worker.py` stages shards with `mkstemp()` in `$TMPDIR` and
`os.rename`s them into the cache. Here `$TMPDIR` is its own 4 MiB tmpfs and the cache
is on the working disk, as on the Xet migration pods: before the fix every rename fails
with EXDEV, silently, and the shards stay orphaned in staging until it is full (ENOSPC). After
a plain `xdevlint --fix` (the temp staged beside the cache, and removed on the error
paths) the same run moves every shard into the cache and leaves nothing in staging.

Needs root to mount the tmpfs; skipped with the reason elsewhere. Run with `-s` to see
the before/after figures.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Callable, Dict

import pytest

from tests.conftest import FIXTURES

WORKER = FIXTURES / "incident" / "migrate_worker.py"
SHARDS = 8
SHARD_SIZE = 1 << 20  # 8 x 1 MiB into a 4 MiB staging filesystem
RECOMMENDED_CONFIG = '[tool.xdevlint]\nmove-function = "xdevlint.safemove.safe_move"\n'


@pytest.fixture
def staging(tmp_path: Path, mount_tmpfs: Callable[[Path, str], Path]) -> Path:
    return mount_tmpfs(tmp_path / "staging", "4m")


def _run_worker(script: Path, staging: Path, cache: Path) -> Dict[str, object]:
    env = {**os.environ, "TMPDIR": str(staging)}
    before = shutil.disk_usage(staging).free
    proc = subprocess.run(
        [sys.executable, str(script), "--shards", str(SHARDS), "--shard-size", str(SHARD_SIZE), "--cache-dir", str(cache)],
        env=env, capture_output=True, text=True, check=False, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout.strip().splitlines()[-1])
    return {
        "moved": summary["moved"],
        "failed": summary["failed"],
        "left_in_staging": sorted(p.name for p in staging.iterdir()),
        "in_cache": sorted(p.name for p in cache.iterdir()),
        "staging_free_before": before,
        "staging_free_after": shutil.disk_usage(staging).free,
        "stderr": proc.stderr,
    }


def _figures(label: str, run: Dict[str, object]) -> str:
    return (
        f"{label}: shards moved {run['moved']}/{SHARDS}, failed {run['failed']}, "
        f"files left in staging {len(run['left_in_staging'])}, files in cache {len(run['in_cache'])}, "
        f"staging free {run['staging_free_before'] // 1024} KiB -> {run['staging_free_after'] // 1024} KiB"
    )


def _expected_shard(index: int) -> str:
    digest = hashlib.sha256(b"lfs-object-%d" % index).hexdigest()
    return digest + ".shard"


def test_incident_before_and_after_fix(tmp_path: Path, staging: Path) -> None:
    assert os.stat(staging).st_dev != os.stat(tmp_path).st_dev, "staging must be its own filesystem"

    # Before: the worker as shipped.
    before_dir = tmp_path / "before"
    before_dir.mkdir()
    shutil.copy(WORKER, before_dir / "migrate_worker.py")
    before = _run_worker(before_dir / "migrate_worker.py", staging, tmp_path / "cache-before")
    print("\n" + _figures("before --fix", before))
    assert before["moved"] == 0 and before["failed"] == SHARDS
    # The move fails silently (XDV202): its cause goes to a debug line, so neither the
    # EXDEV of the first shards nor the ENOSPC of the later ones reaches the operator.
    assert "Invalid cross-device link" not in str(before["stderr"])
    assert "No space left on device" not in str(before["stderr"])
    assert len(before["left_in_staging"]) >= 3  # orphaned shards  # type: ignore[arg-type]
    assert before["staging_free_after"] < SHARD_SIZE  # type: ignore[operator]  # staging filled up
    assert before["in_cache"] == []
    for leftover in staging.iterdir():  # an operator cleaning up the pod
        leftover.unlink()

    # After: a plain `xdevlint --fix` on a copy (no configuration; the README's recommended
    # one makes the same rewrite: staging beside the destination comes first).
    after_dir = tmp_path / "after"
    after_dir.mkdir()
    worker = after_dir / "migrate_worker.py"
    shutil.copy(WORKER, worker)
    fixed = subprocess.run(
        [sys.executable, "-m", "xdevlint", "--fix", "--show-fixes", str(worker)],
        cwd=after_dir, capture_output=True, text=True, check=False,
    )
    print(fixed.stdout)
    # Nothing remains: staged beside the cache, the rename cannot fail with EXDEV, so the
    # handler that swallows its errors (XDV202) no longer hides one.
    assert fixed.returncode == 0, fixed.stderr
    assert "1 × XDV101" in fixed.stdout and "1 × XDV201" in fixed.stdout
    source = worker.read_text()
    # The temp is made beside the cache, so the rename stays on one filesystem, and it is
    # removed on every error path, so a failed shard no longer stays behind anywhere.
    assert 'tempfile.mkstemp(\n            suffix=".shard", dir=cache_dir\n        )' in source
    assert source.count("with contextlib.suppress(FileNotFoundError):\n                os.unlink(tmp_path)") == 2
    assert "os.rename(tmp_path, final_path)" in source
    compile(source, str(worker), "exec")
    recommended = after_dir / "recommended"
    recommended.mkdir()
    shutil.copy(WORKER, recommended / "migrate_worker.py")
    (recommended / "pyproject.toml").write_text(RECOMMENDED_CONFIG)
    subprocess.run([sys.executable, "-m", "xdevlint", "--fix", "migrate_worker.py"], cwd=recommended, capture_output=True, check=False)
    assert (recommended / "migrate_worker.py").read_text() == source

    after = _run_worker(worker, staging, tmp_path / "cache-after")
    print(_figures("after --fix ", after))
    assert after["moved"] == SHARDS and after["failed"] == 0
    assert after["left_in_staging"] == []
    assert after["staging_free_after"] == after["staging_free_before"]
    assert after["in_cache"] == sorted(_expected_shard(i) for i in range(SHARDS))
    for name in after["in_cache"]:  # type: ignore[union-attr]
        assert (tmp_path / "cache-after" / name).stat().st_size == SHARD_SIZE
