"""`xdevlint --vendor-safemove PATH`: the helper copied into a user's package, standalone."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import List, Tuple

import pytest

import xdevlint.safemove
from xdevlint.fixes.vendor import MARKER


def _run(argv: List[str], cwd: Path) -> Tuple[int, str, str]:
    proc = subprocess.run([sys.executable, "-m", "xdevlint", *argv], cwd=cwd, capture_output=True, text=True, check=False)
    return proc.returncode, proc.stdout, proc.stderr


@pytest.fixture
def package(tmp_path: Path) -> Path:
    pkg = tmp_path / "src" / "myproj" / "io"
    pkg.mkdir(parents=True)
    (pkg.parent / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    return pkg


def test_vendor_into_a_package_directory(package: Path, tmp_path: Path) -> None:
    code, out, err = _run(["--vendor-safemove", str(package)], tmp_path)
    assert code == 0, err
    target = package / "_safemove.py"
    text = target.read_text(encoding="utf-8")
    assert text.startswith(MARKER)
    assert text.endswith(Path(xdevlint.safemove.__file__).read_text(encoding="utf-8"))
    assert f"Wrote {target}" in out
    assert 'move-function = "myproj.io._safemove.safe_move"' in out and "move-function-atomic = true" in out
    assert oct(os.stat(target).st_mode & 0o777) != oct(0o600)  # not mkstemp's mode
    # Again: nothing to do.
    code, out, _ = _run(["--vendor-safemove", str(package)], tmp_path)
    assert code == 0 and "Up to date" in out


def test_vendored_copy_imports_nothing_of_xdevlint_and_moves_across_filesystems(package: Path, tmp_path: Path) -> None:
    assert _run(["--vendor-safemove", str(package)], tmp_path)[0] == 0
    if not os.path.isdir("/dev/shm"):
        pytest.skip("needs /dev/shm (tmpfs) for a real cross-filesystem move")
    script = textwrap.dedent(
        """\
        import os, sys, tempfile
        sys.path.insert(0, sys.argv[1])
        from myproj.io._safemove import safe_move
        assert not [m for m in sys.modules if m == "xdevlint" or m.startswith(("xdevlint.", "libcst"))], sorted(sys.modules)
        fd, src = tempfile.mkstemp(dir="/dev/shm")
        os.write(fd, b"shard")
        os.close(fd)
        dst = os.path.join(sys.argv[2], "shard.bin")
        try:
            os.replace(src, dst)
        except OSError as error:
            assert error.errno == 18, error  # EXDEV: the case safe_move exists for
        else:
            raise SystemExit("/dev/shm and the working disk are one filesystem here")
        safe_move(src, dst)
        assert open(dst, "rb").read() == b"shard" and not os.path.exists(src)
        print("ok")
        """
    )
    dest = tmp_path / "cache"
    dest.mkdir()
    proc = subprocess.run([sys.executable, "-c", script, str(tmp_path / "src"), str(dest)], capture_output=True, text=True, check=False)
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stderr


def test_vendor_to_a_file_name(tmp_path: Path) -> None:
    target = tmp_path / "atomic_move.py"
    code, out, _ = _run(["--vendor-safemove", str(target)], tmp_path)
    assert code == 0 and target.read_text(encoding="utf-8").startswith(MARKER)
    assert "<module>.safe_move" in out  # not in a package: the user names it


def test_vendor_never_overwrites_a_file_of_its_own(tmp_path: Path) -> None:
    target = tmp_path / "_safemove.py"
    target.write_text("# mine\n")
    code, _, err = _run(["--vendor-safemove", str(target)], tmp_path)
    assert code == 2 and "not overwritten" in err
    assert target.read_text() == "# mine\n"


@pytest.mark.parametrize("path", ["no/such/dir/x.py", "not-python.txt"])
def test_vendor_bad_paths_exit_2(tmp_path: Path, path: str) -> None:
    code, _, err = _run(["--vendor-safemove", path], tmp_path)
    assert code == 2 and "xdevlint: error:" in err
