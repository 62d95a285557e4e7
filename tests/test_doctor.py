"""``xdevlint doctor`` on real mounts: what it says about a pair of locations is what a
real ``os.rename`` between them does on this machine."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import uuid
from pathlib import Path
from typing import Any, Dict, Iterator, List

import pytest

from tests.process import run
from xdevlint.frontends.doctor import Mount, mount_of, read_mounts


def doctor(tmp_path: Path, env: Dict[str, str]) -> Dict[str, Any]:
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    base = {"HOME": str(home), "TMPDIR": "", "TEMP": "", "TMP": "", "XDG_CACHE_HOME": "", "HF_HOME": "", "HF_HUB_CACHE": "",
            "HF_XET_CACHE": "", "HUGGINGFACE_HUB_CACHE": "", "TRANSFORMERS_CACHE": "", "HF_DATASETS_CACHE": "", "TORCH_HOME": ""}
    completed = run("doctor", "--isolated", "--output-format", "json", cwd=tmp_path, env={**base, **env})
    assert completed.returncode == 0, completed.stderr
    report: Dict[str, Any] = json.loads(completed.stdout)
    return report


def renames_across(first: Path, second: Path) -> bool:
    """Whether a real rename from ``first`` to ``second`` fails with EXDEV."""
    probe = first / f"probe-{uuid.uuid4().hex}"
    probe.write_text("x")
    try:
        os.rename(probe, second / probe.name)
    except OSError as error:
        probe.unlink()
        assert error.errno == errno.EXDEV, error
        return True
    (second / probe.name).unlink()
    return False


def pair(report: Dict[str, Any], temp: Path, cache: Path) -> Dict[str, Any]:
    wanted = {("temp", os.path.realpath(temp)), ("cache", os.path.realpath(cache))}
    for entry in report["pairs"]:
        if {(entry["first"]["location"], entry["first"]["path"]), (entry["second"]["location"], entry["second"]["path"])} == wanted:
            return dict(entry)
    raise AssertionError(f"no pair {wanted} in {report['pairs']}")


@pytest.fixture
def shm_dir() -> Iterator[Path]:
    shm = Path("/dev/shm")
    if not shm.is_dir() or not os.access(shm, os.W_OK) or os.stat(shm).st_dev == os.stat(Path.cwd()).st_dev:
        pytest.skip("no writable /dev/shm on a filesystem of its own here")
    directory = shm / f"xdevlint-doctor-{uuid.uuid4().hex}"
    directory.mkdir()
    yield directory
    for child in directory.iterdir():
        child.unlink()
    directory.rmdir()


def test_dev_shm_against_the_disk(tmp_path: Path, shm_dir: Path) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    report = doctor(tmp_path, {"TMPDIR": str(shm_dir), "XDG_CACHE_HOME": str(cache)})
    found = pair(report, shm_dir, cache)
    assert found["exdev"] is True and "different filesystems" in found["reason"]
    assert renames_across(shm_dir, cache)  # and so it is
    places = {(p["location"], p["path"]): p for p in report["places"]}
    shm = places[("temp", os.path.realpath(shm_dir))]
    assert shm["fs_type"] == "tmpfs" and shm["sources"][:2] == ["tempfile.gettempdir()", "$TMPDIR"]
    # the same cache against a temp on the same disk: no EXDEV, in the report as in fact
    local_tmp = tmp_path / "tmp"
    local_tmp.mkdir()
    report = doctor(tmp_path, {"TMPDIR": str(local_tmp), "XDG_CACHE_HOME": str(cache)})
    assert pair(report, local_tmp, cache)["exdev"] is False
    assert not renames_across(local_tmp, cache)


def test_text_report_names_the_failing_pair(tmp_path: Path, shm_dir: Path) -> None:
    cache = tmp_path / "cache"
    completed = run("doctor", "--isolated", cwd=tmp_path, env={"TMPDIR": str(shm_dir), "HF_HOME": str(cache), "HOME": str(tmp_path)})
    assert completed.returncode == 0
    assert f"cache  {os.path.realpath(cache)} (does not exist yet)  [$HF_HOME]" in completed.stdout
    assert "fails with EXDEV here" in completed.stdout
    assert f"temp {os.path.realpath(shm_dir)}  <->  cache {os.path.realpath(cache)}" in completed.stdout


def _mount(*args: str) -> bool:
    done = subprocess.run(["mount", *args], capture_output=True, check=False)
    return done.returncode == 0


@pytest.fixture
def mounted(tmp_path: Path) -> Iterator[List[Path]]:
    """Mount points this test made (root only), unmounted afterwards."""
    if os.geteuid() != 0:
        pytest.skip("mounting needs root")
    made: List[Path] = []
    yield made
    for point in reversed(made):
        subprocess.run(["umount", str(point)], check=False)


def test_a_tmpfs_mounted_for_the_cache(tmp_path: Path, mounted: List[Path]) -> None:
    point = tmp_path / "mnt"
    point.mkdir()
    if not _mount("-t", "tmpfs", "-o", "size=1m", "xdevlint-test", str(point)):
        pytest.skip("cannot mount a tmpfs here (no CAP_SYS_ADMIN)")
    mounted.append(point)
    temp, cache = tmp_path / "tmp", point / "cache"
    temp.mkdir()
    cache.mkdir()
    report = doctor(tmp_path, {"TMPDIR": str(temp), "XDG_CACHE_HOME": str(cache)})
    found = pair(report, temp, cache)
    assert found["exdev"] is True
    assert renames_across(temp, cache)
    place = next(p for p in report["places"] if p["path"] == os.path.realpath(cache))
    assert (place["mount_point"], place["fs_type"], place["mount_source"]) == (str(point), "tmpfs", "xdevlint-test")


def test_a_bind_mount_of_the_same_filesystem_still_fails(tmp_path: Path, mounted: List[Path]) -> None:
    """One device, two mounts: Linux refuses the rename, and doctor says so."""
    source, point = tmp_path / "real", tmp_path / "bound"
    source.mkdir()
    point.mkdir()
    if not _mount("--bind", str(source), str(point)):
        pytest.skip("cannot bind-mount here")
    mounted.append(point)
    temp = tmp_path / "tmp"
    temp.mkdir()
    report = doctor(tmp_path, {"TMPDIR": str(temp), "XDG_CACHE_HOME": str(point)})
    found = pair(report, temp, point)
    assert found["exdev"] is True and "two mounts" in found["reason"]
    assert renames_across(temp, point)


def test_mountinfo_parsing(tmp_path: Path) -> None:
    info = tmp_path / "mountinfo"
    info.write_text(
        "27 1 254:0 / / rw,relatime - ext4 /dev/vda rw\n"
        "25 27 0:23 / /dev/shm rw,relatime - tmpfs tmpfs rw\n"
        "30 27 0:27 / /dev/shm rw,relatime shared:5 - tmpfs tmpfs rw\n"
        "31 27 0:28 / /mnt/my\\040disk rw - xfs /dev/sdb1 rw\n"
    )
    mounts = read_mounts(str(info))
    assert mounts[-1] == Mount(31, "/mnt/my disk", "xfs", "/dev/sdb1")
    assert mount_of("/dev/shm/x", mounts) == mounts[2]  # the later of two mounts on one point
    assert mount_of("/mnt/my disk/cache", mounts) == mounts[3]
    assert mount_of("/mnt/my diskette", mounts) == mounts[0]
    assert read_mounts(str(tmp_path / "missing")) == []
