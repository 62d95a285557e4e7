"""Tests of xdevlint.safemove on real filesystems.

``/dev/shm`` (tmpfs) and the working disk are different mounts, so ``os.replace``
between them raises a real ``EXDEV``; as root a tiny tmpfs makes ``ENOSPC`` real.
Nothing here mocks ``os.rename``/``os.replace``: the only patched function is the
copy primitive, to interrupt a copy half way.
"""

from __future__ import annotations

import ast
import contextlib
import errno
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from xdevlint import safemove
from xdevlint.safemove import SafeMoveWarning, safe_move

REPO_ROOT = Path(__file__).resolve().parent.parent
SHM = Path("/dev/shm")
MIB = 1024 * 1024
# Distinctive times in the past, with nanoseconds, so a copy that drops them shows.
ATIME_NS = 1_000_000_000_123_456_789
MTIME_NS = 1_100_000_000_987_654_321


# --- fixtures ---------------------------------------------------------------------


@pytest.fixture
def shm_dir() -> Iterator[Path]:
    """A fresh directory on /dev/shm (tmpfs)."""
    if not SHM.is_dir() or not os.access(SHM, os.W_OK):
        pytest.skip("/dev/shm (tmpfs) is not available or not writable")
    path = Path(tempfile.mkdtemp(dir=SHM, prefix="xdevlint-test-"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture
def disk_dir(tmp_path: Path, shm_dir: Path) -> Iterator[Path]:
    """A directory on the working disk, on another filesystem than shm_dir."""
    shm_dev = shm_dir.stat().st_dev
    owned = None
    path = tmp_path
    if path.stat().st_dev == shm_dev:
        # tmp_path may itself be on tmpfs; the repository is on the working disk.
        owned = path = Path(tempfile.mkdtemp(dir=REPO_ROOT / "tests", prefix=".xdevlint-test-"))
    try:
        if path.stat().st_dev == shm_dev:
            pytest.skip(f"{path} and {shm_dir} are on the same device: no cross-device pair")
        yield path
    finally:
        if owned is not None:
            shutil.rmtree(owned, ignore_errors=True)


def _assert_rename_raises_exdev(src_dir: Path, dst_dir: Path) -> None:
    probe = src_dir / "exdev-probe"
    probe.write_bytes(b"")
    try:
        with pytest.raises(OSError) as info:
            os.replace(probe, dst_dir / "exdev-probe")
        assert info.value.errno == errno.EXDEV
    finally:
        probe.unlink()


@pytest.fixture(params=["shm->disk", "disk->shm"])
def sides(request: pytest.FixtureRequest, shm_dir: Path, disk_dir: Path) -> tuple[Path, Path]:
    """(source directory, destination directory) on different filesystems."""
    pair = (shm_dir, disk_dir) if request.param == "shm->disk" else (disk_dir, shm_dir)
    _assert_rename_raises_exdev(*pair)
    return pair


@pytest.fixture
def mount_tmpfs() -> Iterator[Callable[[Path], Path]]:
    """Mount a tiny tmpfs on a directory; always unmounted at teardown."""
    mounted: list[Path] = []

    def mount(path: Path, size: str = "1m") -> Path:
        if getattr(os, "geteuid", lambda: -1)() != 0:
            pytest.skip("mounting tmpfs needs root/CAP_SYS_ADMIN: not running as root")
        if shutil.which("mount") is None:
            pytest.skip("mounting tmpfs needs root/CAP_SYS_ADMIN: no mount command")
        path.mkdir(exist_ok=True)
        proc = subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)],
            capture_output=True,
            text=True,
        )
        if proc.returncode != 0:
            pytest.skip(f"mounting tmpfs needs root/CAP_SYS_ADMIN: {proc.stderr.strip()}")
        mounted.append(path)
        return path

    yield mount
    for path in reversed(mounted):
        subprocess.run(["umount", str(path)], check=True)


@contextlib.contextmanager
def entries_undeletable(directory: Path) -> Iterator[None]:
    """Make unlinking entries of directory fail for real: chattr +i as root, else 0o555."""
    if getattr(os, "geteuid", lambda: -1)() == 0:
        # Permissions do not bind root; the immutable attribute does.
        proc = subprocess.run(["chattr", "+i", str(directory)], capture_output=True, text=True)
        if proc.returncode != 0:
            pytest.skip(f"cannot make a directory immutable here: {proc.stderr.strip()}")
        try:
            yield
        finally:
            subprocess.run(["chattr", "-i", str(directory)], check=True)
    else:
        directory.chmod(0o555)
        try:
            yield
        finally:
            directory.chmod(0o755)


# --- helpers ----------------------------------------------------------------------


def _write(path: Path, data: bytes, mode: int = 0o640) -> Path:
    path.write_bytes(data)
    path.chmod(mode)
    os.utime(path, ns=(ATIME_NS, MTIME_NS))
    return path


def _make_tree(root: Path) -> None:
    """Nested files, a relative and a dangling symlink, an empty directory."""
    (root / "a" / "b").mkdir(parents=True)
    _write(root / "a" / "b" / "deep.bin", os.urandom(200_000), 0o600)
    _write(root / "top.txt", b"top", 0o644)
    (root / "empty").mkdir()
    os.symlink(os.path.join("a", "b", "deep.bin"), root / "link")
    os.symlink("/nonexistent/xdevlint/target", root / "dangling")
    (root / "a").chmod(0o750)
    root.chmod(0o751)
    os.utime(root, ns=(ATIME_NS, MTIME_NS))


def _snapshot(root: Path) -> dict[str, tuple[str, object, int]]:
    """Relative path -> (kind, content or link target, permission bits)."""
    result: dict[str, tuple[str, object, int]] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            path = Path(dirpath, name)
            rel = str(path.relative_to(root))
            mode = stat.S_IMODE(path.lstat().st_mode)
            if path.is_symlink():
                result[rel] = ("link", os.readlink(path), 0)
            elif path.is_dir():
                result[rel] = ("dir", None, mode)
            else:
                result[rel] = ("file", path.read_bytes(), mode)
    return result


# --- import hygiene ---------------------------------------------------------------


def test_import_pulls_in_no_libcst_and_no_other_xdevlint_module() -> None:
    code = (
        "import sys, xdevlint.safemove\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] == 'libcst'"
        " or (m.split('.')[0] == 'xdevlint' and m not in ('xdevlint', 'xdevlint.safemove')))\n"
        "print(bad)\n"
    )
    pythonpath = os.pathsep.join([str(REPO_ROOT), os.environ.get("PYTHONPATH", "")])
    proc = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=pythonpath),
        check=True,
    )
    assert proc.stdout.strip() == "[]"


@pytest.mark.skipif(
    sys.version_info < (3, 10), reason="sys.stdlib_module_names needs Python 3.10+"
)
def test_source_imports_only_stdlib_and_nothing_relative() -> None:
    tree = ast.parse(Path(safemove.__file__).read_text(encoding="utf-8"))
    assert ast.get_docstring(tree) and "vendor" in ast.get_docstring(tree)
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, "a vendored copy cannot use relative imports"
            assert node.module is not None
            imported.add(node.module.split(".")[0])
    assert imported - sys.stdlib_module_names == set()


def test_vendored_copy_works_on_its_own(tmp_path: Path, shm_dir: Path) -> None:
    vendor_dir = tmp_path / "vendor"
    vendor_dir.mkdir()
    shutil.copyfile(safemove.__file__, vendor_dir / "vendored_safemove.py")
    src = _write(shm_dir / "shard.bin", b"payload")
    dst = tmp_path / "shard.bin"
    code = (
        "import sys, vendored_safemove\n"
        "vendored_safemove.safe_move(sys.argv[1], sys.argv[2])\n"
        "assert not [m for m in sys.modules if m.split('.')[0] in ('xdevlint', 'libcst')]\n"
    )
    # -E ignores PYTHONPATH, so only the copy in the working directory can be imported.
    subprocess.run(
        [sys.executable, "-E", "-c", code, str(src), str(dst)], cwd=vendor_dir, check=True
    )
    assert dst.read_bytes() == b"payload"
    assert not src.exists()


# --- cross-device moves -----------------------------------------------------------


def test_plain_replace_between_shm_and_disk_raises_exdev(shm_dir: Path, disk_dir: Path) -> None:
    _assert_rename_raises_exdev(shm_dir, disk_dir)
    _assert_rename_raises_exdev(disk_dir, shm_dir)


def test_cross_device_file_replaces_dst_atomically(sides: tuple[Path, Path]) -> None:
    src_dir, dst_dir = sides
    data = os.urandom(3 * MIB + 12345)  # several copy chunks and a partial one
    src = _write(src_dir / "shard.bin", data, 0o640)
    dst = dst_dir / "shard.bin"
    dst.write_bytes(b"old entry")
    old_inode = dst.stat().st_ino

    result = safe_move(src, dst)

    assert result is dst
    st = dst.stat()  # before reading: reading would update the atime
    assert stat.S_IMODE(st.st_mode) == 0o640
    assert st.st_mtime_ns == MTIME_NS
    assert st.st_atime_ns == ATIME_NS
    assert st.st_ino != old_inode
    assert dst.read_bytes() == data
    assert not src.exists()
    assert os.listdir(dst_dir) == ["shard.bin"]  # no staged .shard.bin.*.tmp left


@pytest.mark.parametrize("dst_exists", [False, True], ids=["dst-absent", "dst-empty-dir"])
def test_cross_device_directory(sides: tuple[Path, Path], dst_exists: bool) -> None:
    src_dir, dst_dir = sides
    src = src_dir / "tree"
    src.mkdir()
    _make_tree(src)
    expected = _snapshot(src)
    dst = dst_dir / "tree"
    if dst_exists:
        dst.mkdir()

    assert safe_move(src, dst) is dst

    st = dst.stat()
    assert stat.S_IMODE(st.st_mode) == 0o751
    assert st.st_mtime_ns == MTIME_NS
    assert (dst / "top.txt").stat().st_mtime_ns == MTIME_NS
    assert _snapshot(dst) == expected
    assert (dst / "link").is_symlink()
    assert (dst / "link").read_bytes() == (dst / "a" / "b" / "deep.bin").read_bytes()
    assert list((dst / "empty").iterdir()) == []
    assert not src.exists()
    assert os.listdir(dst_dir) == ["tree"]


def test_cross_device_directory_onto_nonempty_directory_fails_cleanly(
    sides: tuple[Path, Path],
) -> None:
    src_dir, dst_dir = sides
    src = src_dir / "tree"
    src.mkdir()
    _make_tree(src)
    before = _snapshot(src)
    dst = dst_dir / "tree"
    dst.mkdir()
    (dst / "keep.txt").write_bytes(b"keep")

    with pytest.raises(OSError) as info:
        safe_move(src, dst)

    assert info.value.errno in (errno.ENOTEMPTY, errno.EEXIST)
    assert _snapshot(src) == before
    assert _snapshot(dst) == {"keep.txt": ("file", b"keep", 0o644 & ~_umask())}
    assert os.listdir(dst_dir) == ["tree"]


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_cross_device_symlink_moves_the_link_itself(sides: tuple[Path, Path]) -> None:
    src_dir, dst_dir = sides
    target = src_dir / "target.bin"
    target.write_bytes(b"target")
    src = src_dir / "link"
    os.symlink(target, src)
    dst = dst_dir / "link"

    safe_move(src, dst)

    assert dst.is_symlink()
    assert os.readlink(dst) == str(target)
    assert not os.path.lexists(src)
    assert target.read_bytes() == b"target"
    assert os.listdir(dst_dir) == ["link"]


def test_cross_device_fifo_is_refused_with_the_rename_error(sides: tuple[Path, Path]) -> None:
    src_dir, dst_dir = sides
    src = src_dir / "pipe"
    os.mkfifo(src)
    with pytest.raises(OSError) as info:
        safe_move(src, dst_dir / "pipe")
    assert info.value.errno == errno.EXDEV
    assert stat.S_ISFIFO(src.lstat().st_mode)
    assert os.listdir(dst_dir) == []


def test_bytes_paths_are_accepted_and_dst_returned_as_given(shm_dir: Path, disk_dir: Path) -> None:
    src = _write(shm_dir / "shard.bin", b"bytes")
    dst = os.fsencode(disk_dir / "shard.bin")
    assert safe_move(os.fsencode(src), dst) is dst
    assert Path(os.fsdecode(dst)).read_bytes() == b"bytes"
    assert not src.exists()


# --- same filesystem, destination semantics --------------------------------------


def test_same_filesystem_file_move_is_a_rename(disk_dir: Path) -> None:
    src = _write(disk_dir / "src.bin", b"data")
    inode = src.stat().st_ino
    dst = disk_dir / "dst.bin"
    safe_move(src, dst)
    assert dst.stat().st_ino == inode
    assert not src.exists()


def test_same_filesystem_directory_move_is_a_rename(disk_dir: Path) -> None:
    src = disk_dir / "tree"
    src.mkdir()
    _make_tree(src)
    inode = src.stat().st_ino
    dst = disk_dir / "moved"
    safe_move(src, dst)
    assert dst.stat().st_ino == inode
    assert not src.exists()


@pytest.mark.parametrize("cross_device", [False, True], ids=["same-fs", "cross-device"])
def test_file_onto_existing_directory_raises_and_never_moves_into_it(
    shm_dir: Path, disk_dir: Path, cross_device: bool
) -> None:
    src = _write((shm_dir if cross_device else disk_dir) / "shard.bin", b"data")
    dst = disk_dir / "cache"
    dst.mkdir()
    with pytest.raises(IsADirectoryError):
        safe_move(src, dst)
    assert list(dst.iterdir()) == []
    assert src.read_bytes() == b"data"
    assert sorted(os.listdir(disk_dir)) == (["cache"] if cross_device else ["cache", "shard.bin"])


@pytest.mark.parametrize("cross_device", [False, True], ids=["same-fs", "cross-device"])
def test_dst_symlink_entry_is_replaced_not_written_through(
    shm_dir: Path, disk_dir: Path, cross_device: bool
) -> None:
    src = _write((shm_dir if cross_device else disk_dir) / "src.bin", b"new")
    target = disk_dir / "target.bin"
    target.write_bytes(b"old target")
    dst = disk_dir / "dst.bin"
    os.symlink(target, dst)

    safe_move(src, dst)

    assert not dst.is_symlink()
    assert dst.read_bytes() == b"new"
    assert target.read_bytes() == b"old target"
    assert sorted(os.listdir(disk_dir)) == ["dst.bin", "target.bin"]


# --- errors other than EXDEV propagate --------------------------------------------


@pytest.mark.parametrize("cross_device", [False, True], ids=["same-fs", "cross-device"])
def test_missing_src_raises_file_not_found(
    shm_dir: Path, disk_dir: Path, cross_device: bool
) -> None:
    src = (shm_dir if cross_device else disk_dir) / "missing.bin"
    with pytest.raises(FileNotFoundError):
        safe_move(src, disk_dir / "dst.bin")
    assert os.listdir(disk_dir) == []


@pytest.mark.parametrize("cross_device", [False, True], ids=["same-fs", "cross-device"])
def test_dst_in_missing_directory_raises_file_not_found(
    shm_dir: Path, disk_dir: Path, cross_device: bool
) -> None:
    src_dir = disk_dir / "src"
    src_dir.mkdir()
    src = _write(src_dir / "shard.bin", b"data")
    dst_root = shm_dir if cross_device else disk_dir
    with pytest.raises(FileNotFoundError):
        safe_move(src, dst_root / "missing" / "shard.bin")
    assert src.read_bytes() == b"data"
    assert sorted(os.listdir(dst_root)) == ([] if cross_device else ["src"])


def test_same_filesystem_directory_onto_nonempty_directory_propagates(disk_dir: Path) -> None:
    src = disk_dir / "tree"
    src.mkdir()
    (src / "f").write_bytes(b"f")
    dst = disk_dir / "full"
    dst.mkdir()
    (dst / "g").write_bytes(b"g")
    with pytest.raises(OSError) as info:
        safe_move(src, dst)
    assert info.value.errno in (errno.ENOTEMPTY, errno.EEXIST)
    assert (src / "f").read_bytes() == b"f"
    assert sorted(os.listdir(dst)) == ["g"]


def test_cross_device_directory_onto_file_raises_not_a_directory(
    shm_dir: Path, disk_dir: Path
) -> None:
    src = shm_dir / "tree"
    src.mkdir()
    (src / "f").write_bytes(b"f")
    dst = disk_dir / "file"
    dst.write_bytes(b"file")
    with pytest.raises(NotADirectoryError):
        safe_move(src, dst)
    assert dst.read_bytes() == b"file"
    assert (src / "f").read_bytes() == b"f"
    assert os.listdir(disk_dir) == ["file"]


def test_only_exdev_falls_back_to_copying(
    disk_dir: Path, mount_tmpfs: Callable[[Path], Path]
) -> None:
    # Renaming a mount point fails with a real EBUSY; copying it instead would "succeed".
    src = mount_tmpfs(disk_dir / "mnt")
    (src / "f").write_bytes(b"f")
    dst = disk_dir / "moved"
    with pytest.raises(OSError) as info:
        safe_move(src, dst)
    assert info.value.errno == errno.EBUSY
    assert not os.path.lexists(dst)
    assert sorted(os.listdir(disk_dir)) == ["mnt"]
    assert (src / "f").read_bytes() == b"f"


def test_doomed_cross_device_moves_fail_before_copying(
    shm_dir: Path, disk_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The final os.replace would refuse these too, but only after copying all of src.
    def copy_must_not_run(source: object, fd: int) -> None:
        raise AssertionError("copied data for a move that cannot succeed")

    monkeypatch.setattr(safemove, "_copy_data", copy_must_not_run)
    (disk_dir / "dir").mkdir()
    (disk_dir / "full").mkdir()
    (disk_dir / "full" / "g").write_bytes(b"g")
    tree = shm_dir / "tree"
    tree.mkdir()
    (tree / "f").write_bytes(b"f")
    with pytest.raises(IsADirectoryError):
        safe_move(_write(shm_dir / "file", b"data"), disk_dir / "dir")
    with pytest.raises(OSError) as info:
        safe_move(tree, disk_dir / "full")
    assert info.value.errno == errno.ENOTEMPTY
    assert sorted(os.listdir(disk_dir)) == ["dir", "full"]


# --- faults during the copy ---------------------------------------------------------


@pytest.mark.parametrize("kind", ["file", "directory"])
def test_enospc_fails_cleanly(
    disk_dir: Path, mount_tmpfs: Callable[[Path], Path], kind: str
) -> None:
    small = mount_tmpfs(disk_dir / "small")  # 1 MiB
    _assert_rename_raises_exdev(disk_dir, small)
    dst = small / "shard"
    if kind == "file":
        src = _write(disk_dir / "shard", os.urandom(4 * MIB))
        dst.write_bytes(b"old entry")
        expected_dst: object = b"old entry"
    else:
        src = disk_dir / "shard"
        src.mkdir()
        for i in range(4):
            _write(src / f"part{i}", os.urandom(MIB))
        expected_dst = {}
        dst.mkdir()
    before = _snapshot(disk_dir / "shard") if kind == "directory" else src.read_bytes()

    with pytest.raises(OSError) as info:
        safe_move(src, dst)

    assert info.value.errno == errno.ENOSPC
    assert info.value.__context__ is None  # the original error, not one from cleanup
    assert (_snapshot(src) if kind == "directory" else src.read_bytes()) == before
    assert (_snapshot(dst) if kind == "directory" else dst.read_bytes()) == expected_dst
    assert os.listdir(small) == ["shard"]  # the stage is gone
    assert shutil.disk_usage(small).used < MIB // 2


def test_directory_into_a_mount_inside_itself_is_refused(
    disk_dir: Path, mount_tmpfs: Callable[[Path], Path]
) -> None:
    src = disk_dir / "tree"
    src.mkdir()
    (src / "f").write_bytes(b"f")
    inner = mount_tmpfs(src / "mnt", "4m")
    with pytest.raises(OSError) as info:
        safe_move(src, inner / "copy")
    assert info.value.errno == errno.EINVAL
    assert os.listdir(inner) == []
    assert sorted(os.listdir(src)) == ["f", "mnt"]


@pytest.mark.parametrize("kind", ["file", "directory"])
def test_keyboard_interrupt_during_copy_leaves_src_and_dst(
    sides: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    src_dir, dst_dir = sides
    src = src_dir / "shard"
    dst = dst_dir / "shard"
    if kind == "file":
        _write(src, os.urandom(MIB))
        dst.write_bytes(b"old entry")
    else:
        src.mkdir()
        _make_tree(src)
        dst.mkdir()
    before = _snapshot(src_dir)
    dst_before = _snapshot(dst_dir)
    seen_during_copy: list[list[str]] = []

    def interrupted_copy(source: object, fd: int) -> None:
        os.write(fd, source.read(1000))  # type: ignore[attr-defined]
        seen_during_copy.append(sorted(os.listdir(dst_dir)))
        raise KeyboardInterrupt

    monkeypatch.setattr(safemove, "_copy_data", interrupted_copy)
    with pytest.raises(KeyboardInterrupt):
        safe_move(src, dst)

    # While copying, the work happened in a hidden sibling; dst was untouched.
    [during] = seen_during_copy
    assert during[0].startswith(".shard.") and during[0].endswith(".tmp")
    assert during[1:] == ["shard"]
    assert _snapshot(src_dir) == before
    assert _snapshot(dst_dir) == dst_before


@pytest.mark.parametrize("kind", ["file", "directory"])
def test_failed_source_removal_warns_and_keeps_both(
    disk_dir: Path, shm_dir: Path, kind: str
) -> None:
    # The source is on the working disk, where chattr works (tmpfs has no immutable flag).
    src_dir, dst_dir = disk_dir, shm_dir
    _assert_rename_raises_exdev(src_dir, dst_dir)
    locked = src_dir / "locked"
    locked.mkdir()
    if kind == "file":
        src = _write(locked / "shard.bin", b"data")
    else:
        src = src_dir / "tree"
        src.mkdir()
        _make_tree(src)
        locked = src / "a" / "b"
    expected = b"data" if kind == "file" else _snapshot(src)
    dst = dst_dir / "shard"

    with entries_undeletable(locked), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        safe_move(src, dst)

    assert [w.category for w in caught] == [SafeMoveWarning]
    assert caught[0].filename == __file__  # attributed to the caller of safe_move
    assert (dst.read_bytes() if kind == "file" else _snapshot(dst)) == expected
    assert src.exists()


# --- preserve -----------------------------------------------------------------------


def test_preserve_mode_keeps_mode_but_not_mtime(shm_dir: Path, disk_dir: Path) -> None:
    src = _write(shm_dir / "shard.bin", b"data", 0o604)
    dst = disk_dir / "shard.bin"
    safe_move(src, dst, preserve="mode")
    st = dst.stat()
    assert stat.S_IMODE(st.st_mode) == 0o604
    assert st.st_mtime_ns != MTIME_NS


def test_invalid_preserve_raises_value_error_before_moving(disk_dir: Path) -> None:
    src = _write(disk_dir / "src.bin", b"data")
    with pytest.raises(ValueError, match="preserve"):
        safe_move(src, disk_dir / "dst.bin", preserve="times")
    assert src.read_bytes() == b"data"
    assert os.listdir(disk_dir) == ["src.bin"]
