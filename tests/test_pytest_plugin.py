"""The ``cross_mount_tmp`` fixture, through a real pytest run of a sample project: its
naive move fails with the real EXDEV, ``safe_move`` passes, and without a second
filesystem the test is skipped with a reason."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from importlib.metadata import entry_points
from pathlib import Path
from typing import Dict, Optional

import pytest

from tests.process import REPO

SAMPLE = textwrap.dedent(
    '''\
    import os
    import tempfile

    from xdevlint.safemove import safe_move


    def publish_naive(data, dest):
        fd, tmp = tempfile.mkstemp()
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.rename(tmp, dest)


    def publish_safe(data, dest):
        fd, tmp = tempfile.mkstemp()
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        safe_move(tmp, dest)
    '''
)
TESTS = textwrap.dedent(
    '''\
    import os
    import tempfile

    import publish


    def test_naive(cross_mount_tmp, tmp_path):
        assert tempfile.gettempdir() == str(cross_mount_tmp)
        assert os.stat(cross_mount_tmp).st_dev != os.stat(os.getcwd()).st_dev
        publish.publish_naive(b"x", tmp_path / "out")


    def test_safe(cross_mount_tmp, tmp_path):
        publish.publish_safe(b"x", tmp_path / "out")
        assert (tmp_path / "out").read_bytes() == b"x"
        assert os.listdir(cross_mount_tmp) == []  # the temp is gone
    '''
)


def pytest_run(project: Path, env: Optional[Dict[str, str]] = None, *args: str) -> subprocess.CompletedProcess[str]:
    environment = dict(os.environ, PYTHONPATH=str(REPO), **(env or {}))
    environment.pop("PYTEST_ADDOPTS", None)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-rs", "-p", "no:cacheprovider", *args],
        cwd=project, env=environment, capture_output=True, text=True, timeout=300, check=False,
    )


@pytest.fixture
def sample(tmp_path: Path) -> Path:
    project = tmp_path / "sample"
    project.mkdir()
    (project / "publish.py").write_text(SAMPLE)
    (project / "test_publish.py").write_text(TESTS)
    return project


def test_the_entry_point_is_registered() -> None:
    found = [e for e in entry_points(group="pytest11") if e.name == "xdevlint"]
    assert [e.value for e in found] == ["xdevlint.frontends.pytest_plugin"]


def test_a_naive_move_meets_the_real_exdev(sample: Path) -> None:
    shm = Path("/dev/shm")
    if not (shm.is_dir() and os.access(shm, os.W_OK)) or os.stat(shm).st_dev == os.stat(sample).st_dev:
        pytest.skip("this machine has no /dev/shm on a filesystem of its own")
    done = pytest_run(sample, {"XDEVLINT_CROSS_MOUNT_DIRS": str(shm)})
    assert done.returncode == 1, done.stdout + done.stderr
    assert "1 failed, 1 passed" in done.stdout, done.stdout
    assert "Invalid cross-device link" in done.stdout and "test_naive" in done.stdout
    assert not [p for p in shm.iterdir() if p.name.startswith("xdevlint-cross-mount-")]  # cleaned up


def test_without_a_second_filesystem_it_skips_with_a_reason(sample: Path) -> None:
    same = sample / "same-disk"
    same.mkdir()
    done = pytest_run(sample, {"XDEVLINT_CROSS_MOUNT_DIRS": str(same)})
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 skipped" in done.stdout
    assert "no writable directory on another filesystem than the working directory" in done.stdout


def test_as_root_it_mounts_a_tmpfs_when_no_candidate_will_do(sample: Path) -> None:
    """The built-in list, with every candidate on the working directory's disk: root mounts a tmpfs."""
    if os.geteuid() != 0:
        pytest.skip("mounting needs root")
    probe = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "probe", str(sample)], capture_output=True, check=False)
    if probe.returncode != 0:
        pytest.skip("cannot mount a tmpfs here")
    subprocess.run(["umount", str(sample)], check=True)
    conftest = textwrap.dedent(
        '''\
        import xdevlint.frontends.pytest_plugin as plugin

        plugin.candidates = lambda: []  # as on a machine with one filesystem
        '''
    )
    (sample / "conftest.py").write_text(conftest)
    done = pytest_run(sample)
    assert "1 failed, 1 passed" in done.stdout, done.stdout + done.stderr
    assert "Invalid cross-device link" in done.stdout
    assert "xdevlint-cross-mount" not in subprocess.run(["mount"], capture_output=True, text=True).stdout  # unmounted
