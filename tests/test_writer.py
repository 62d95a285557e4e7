"""writer.write_fixed: atomic, mode-keeping, only on change, never through a link elsewhere."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from xdevlint.fixes import writer
from xdevlint.fixes.writer import WriteError, write_fixed


def _leftovers(directory: Path) -> list:
    return sorted(p.name for p in directory.iterdir() if p.name.endswith(".xdevlint"))


def test_unchanged_bytes_are_not_written(tmp_path: Path) -> None:
    target = tmp_path / "a.py"
    target.write_bytes(b"x = 1\n")
    before = os.stat(target)
    assert write_fixed(str(target), b"x = 1\n", b"x = 1\n") is False
    after = os.stat(target)
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)


def test_changed_bytes_replace_the_file_and_keep_its_mode(tmp_path: Path) -> None:
    target = tmp_path / "tool.py"
    target.write_bytes(b"old\n")
    os.chmod(target, 0o754)
    inode = os.stat(target).st_ino
    assert write_fixed(str(target), b"old\n", b"new\r\n") is True
    assert target.read_bytes() == b"new\r\n"
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o754
    assert os.stat(target).st_ino != inode  # a rename, not an in-place rewrite
    assert _leftovers(tmp_path) == []


def test_a_symlink_is_fixed_where_it_points_and_stays_a_link(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    target = real / "mod.py"
    target.write_bytes(b"old\n")
    link = tmp_path / "link.py"
    link.symlink_to(target)
    assert write_fixed(str(link), b"old\n", b"new\n")
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_bytes() == b"new\n"
    assert _leftovers(real) == [] and _leftovers(tmp_path) == []


def test_a_file_changed_meanwhile_is_not_overwritten(tmp_path: Path) -> None:
    target = tmp_path / "a.py"
    target.write_bytes(b"edited in the editor\n")
    with pytest.raises(WriteError, match="changed on disk"):
        write_fixed(str(target), b"what we read\n", b"fixed\n")
    assert target.read_bytes() == b"edited in the editor\n"


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write any file, so read-only cannot be observed")
def test_a_read_only_file_is_not_written(tmp_path: Path) -> None:
    target = tmp_path / "a.py"
    target.write_bytes(b"old\n")
    os.chmod(target, 0o444)
    with pytest.raises(WriteError, match="not writable"):
        write_fixed(str(target), b"old\n", b"new\n")
    assert target.read_bytes() == b"old\n"


def test_a_read_only_file_is_not_written_even_by_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "a.py"
    target.write_bytes(b"old\n")
    monkeypatch.setattr(writer.os, "access", lambda path, mode: False)
    with pytest.raises(WriteError, match="not writable"):
        write_fixed(str(target), b"old\n", b"new\n")
    assert target.read_bytes() == b"old\n"


def test_the_temp_is_staged_in_the_same_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "a.py"
    target.write_bytes(b"old\n")
    seen = []
    real_replace = os.replace

    def spying_replace(src: str, dst: str) -> None:
        seen.append((os.path.dirname(src), os.path.basename(src)))
        real_replace(src, dst)

    monkeypatch.setattr(writer.os, "replace", spying_replace)
    write_fixed(str(target), b"old\n", b"new\n")
    assert seen and seen[0][0] == str(tmp_path) and seen[0][1].startswith(".a.py.")
