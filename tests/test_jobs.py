"""--jobs: worker processes give the same report as one process, in the same order, and a
worker that dies or hangs costs only the file it was on (reported as XDV000)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any, Dict, List

import pytest

from tests.process import run
from tests.test_cache import BAD, CLEAN, SWALLOW
from xdevlint import batch
from xdevlint.pool import Failure, Pool, chunk_size

#: Workers from the second file on (batch.POOL_AFTER_HOOK), for trees of more than
#: batch.POOL_MIN_FILES files.
AT_ONCE = {batch.POOL_AFTER_HOOK: "0"}
PADDING = "# " + "x" * 78 + "\n" * 40


def tree(root: Path, count: int = 40) -> Path:
    padding = PADDING
    for index in range(count):
        folder = root / f"d{index % 3}"
        folder.mkdir(parents=True, exist_ok=True)
        body = (BAD, SWALLOW, CLEAN, CLEAN)[index % 4]
        (folder / f"m{index:02}.py").write_text(body + padding)
    return root


def report(*args: str, cwd: Path, env: Dict[str, str]) -> List[Dict[str, Any]]:
    done = run("--format", "json", "--no-cache", *args, cwd=cwd, env={**AT_ONCE, **env})
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    findings: List[Dict[str, Any]] = json.loads(done.stdout)
    return findings


@pytest.fixture
def files(tmp_path: Path) -> Path:
    return tree(tmp_path / "t")


def test_jobs_give_the_same_report_in_the_same_order(files: Path) -> None:
    # Each process under its own hash seed: nothing in a report may hang on set order.
    one = report("--jobs", "1", ".", cwd=files, env={"PYTHONHASHSEED": "1"})
    two = report("--jobs", "2", ".", cwd=files, env={"PYTHONHASHSEED": "2"})
    three = report("--jobs", "3", ".", cwd=files, env={"PYTHONHASHSEED": "3"})
    assert one == two == three
    assert len(one) == 30  # 10 files x (XDV101 + XDV201) + 10 x XDV202
    assert [(f["path"], f["line"]) for f in one] == sorted((f["path"], f["line"]) for f in one)


def test_a_worker_killed_on_one_file_costs_that_file_only(files: Path) -> None:
    healthy = report("--jobs", "2", ".", cwd=files, env={})
    hurt = report("--jobs", "2", ".", cwd=files, env={batch.DIE_HOOK: "m05.py"})
    victim = [f for f in hurt if f["path"].endswith("m05.py")]
    assert [(f["code"], f["line"]) for f in victim] == [("XDV000", 1)]
    assert "died (killed by signal 9, SIGKILL: the system may have run out of memory)" in victim[0]["message"]
    assert [f for f in hurt if f not in victim] == [f for f in healthy if not f["path"].endswith("m05.py")]


def test_a_worker_that_aborts_on_one_file_costs_that_file_only(files: Path) -> None:
    """``abort()`` (SIGABRT: a native library's failed allocation, a fatal error) is
    reported as that file's XDV000, as a kill is, and the run goes on."""
    healthy = report("--jobs", "2", ".", cwd=files, env={})
    hurt = report("--jobs", "2", ".", cwd=files, env={batch.ABORT_HOOK: "m09.py"})
    victim = [f for f in hurt if f["path"].endswith("m09.py")]
    assert [(f["code"], f["line"]) for f in victim] == [("XDV000", 1)]
    assert "died (killed by signal 6, SIGABRT: it aborted" in victim[0]["message"]
    assert [f for f in hurt if f not in victim] == [f for f in healthy if not f["path"].endswith("m09.py")]


def test_every_file_a_worker_dies_on_is_reported(files: Path) -> None:
    """The hook fires on each of several files; each costs a fresh worker, and the run ends."""
    hurt = report("--jobs", "2", ".", cwd=files, env={batch.DIE_HOOK: "d1"})
    dead = sorted({f["path"] for f in hurt if f["code"] == "XDV000"})
    assert dead == sorted(str(p.relative_to(files)) for p in (files / "d1").glob("*.py"))
    assert {f["code"] for f in hurt if not f["path"].startswith("d1")} == {"XDV101", "XDV201", "XDV202"}


def test_a_worker_that_hangs_is_stopped_after_the_timeout(files: Path) -> None:
    healthy = report("--jobs", "2", ".", cwd=files, env={})
    # 10 s: ample for any of these files even on a loaded machine, short for a test
    hurt = report("--jobs", "2", "--timeout", "10", ".", cwd=files, env={batch.HANG_HOOK: "m06.py"})
    victim = [f for f in hurt if f["path"].endswith("m06.py")]
    assert [f["code"] for f in victim] == ["XDV000"]
    assert "longer than 10 s" in victim[0]["message"]
    assert [f for f in hurt if f not in victim] == [f for f in healthy if not f["path"].endswith("m06.py")]


def test_no_workers_for_a_handful_of_files(tmp_path: Path) -> None:
    """Below the threshold the files are checked in-process: the hook never fires."""
    root = tree(tmp_path / "few", count=batch.POOL_MIN_FILES - 1)
    found = report("--jobs", "2", ".", cwd=root, env={batch.DIE_HOOK: "m00.py"})
    assert "XDV000" not in {f["code"] for f in found}


def test_no_workers_for_a_quick_run(tmp_path: Path) -> None:
    """Many files, but checked in less than POOL_AFTER (here an hour): no workers."""
    root = tree(tmp_path / "quick", count=40)
    found = report("--jobs", "2", ".", cwd=root, env={batch.DIE_HOOK: "m00.py", batch.POOL_AFTER_HOOK: "3600"})
    assert "XDV000" not in {f["code"] for f in found}
    assert len(found) == 30


def test_workers_take_over_a_long_run(tmp_path: Path) -> None:
    """After POOL_AFTER seconds in-process, the rest goes to workers: the hook fires on
    a file near the end, not on the first ones, which were checked here."""
    root = tree(tmp_path / "long", count=40)
    found = report("--jobs", "2", ".", cwd=root, env={batch.DIE_HOOK: "d0/m", batch.POOL_AFTER_HOOK: "0.000001"})
    dead = sorted(f["path"] for f in found if f["code"] == "XDV000")
    first, *rest = sorted(str(p.relative_to(root)) for p in (root / "d0").glob("*.py"))
    assert first == "d0/m00.py" and dead == rest  # the first file was checked before the clock ran out


def test_fix_with_jobs_writes_the_same_files(tmp_path: Path, files: Path) -> None:
    serial, parallel = tmp_path / "serial", tmp_path / "parallel"
    shutil.copytree(files, serial)
    shutil.copytree(files, parallel)
    first = run("--fix", "--unsafe-fixes", "--no-cache", "--jobs", "1", ".", cwd=serial)
    second = run("--fix", "--unsafe-fixes", "--no-cache", "--jobs", "2", ".", cwd=parallel, env={"PYTHONHASHSEED": "1", **AT_ONCE})
    assert first.returncode == second.returncode == 1, (first.stderr, second.stderr)
    assert first.stdout == second.stdout
    changed = 0
    for path in sorted(serial.rglob("*.py")):
        twin = parallel / path.relative_to(serial)
        assert path.read_bytes() == twin.read_bytes(), path
        changed += path.read_bytes() != (files / path.relative_to(serial)).read_bytes()
    assert changed == 10  # every BAD file, and nothing else
    assert not [p for p in parallel.rglob("*") if p.name.endswith(".xdevlint") or ".tmp" in p.name]


def test_a_failing_task_in_a_worker_is_that_task_s_failure() -> None:
    """An exception in the worker's function is reported for its task; the worker goes on."""
    with Pool("tests.test_jobs:_explode_on_three", jobs=2) as pool:
        results = dict(pool.map([(i, i) for i in range(6)], size=2))
    assert sorted(results) == list(range(6))
    assert isinstance(results[3], Failure) and "ValueError: three" in results[3].reason
    assert [results[i] for i in (0, 1, 2, 4, 5)] == [0, 10, 20, 40, 50]


def _explode_on_three(task: int) -> int:
    if task == 3:
        raise ValueError("three")
    return task * 10


def test_chunks_keep_every_worker_busy() -> None:
    assert chunk_size(10, 2) == 1
    assert chunk_size(1790, 2) == 32
    assert chunk_size(200, 2) == 12
