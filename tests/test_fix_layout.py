"""How `dir=` fixes are laid out: the destination is named once, and fixed lines keep
to the file's line length (its ruff or black `line-length`, else 88), wrapped as black
wraps a call."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from xdevlint.config import Config, line_length_for
from xdevlint.engine import fix_source

RUFF = Path(sys.executable).with_name("ruff")

LONG = '''import os
import tempfile


def save(cache_dir, payload):
    fd, tmp = tempfile.mkstemp(prefix="a-fairly-long-prefix-", suffix=".partial.download")
    try:
        os.write(fd, payload)
        os.close(fd)
        os.replace(tmp, os.path.join(cache_dir, "payload.bin"))
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
'''


@pytest.mark.parametrize(
    "files, expected",
    [
        ({}, 88),
        ({"pyproject.toml": "[tool.ruff]\nline-length = 100\n"}, 100),
        ({"pyproject.toml": "[tool.black]\nline-length = 79\n"}, 79),
        ({"pyproject.toml": "[tool.ruff]\nselect = ['E']\n[tool.black]\nline-length = 79\n"}, 88),
        ({"pyproject.toml": "[project]\nname = 'x'\n", "../pyproject.toml": "[tool.black]\nline-length = 70\n"}, 70),
        ({"ruff.toml": "line-length = 120\n", "pyproject.toml": "[tool.ruff]\nline-length = 100\n"}, 120),
        ({".ruff.toml": "line-length = 60\n", "ruff.toml": "line-length = 120\n"}, 60),
        ({"ruff.toml": "not toml [", "../ruff.toml": "line-length = 90\n"}, 90),
    ],
)
def test_line_length_comes_from_the_closest_formatter_config(tmp_path: Path, files: dict, expected: int) -> None:
    project = tmp_path / "outer" / "project"
    (project / "pkg").mkdir(parents=True)
    for name, text in files.items():
        (project / name).resolve().write_text(text)
    assert line_length_for(str(project / "pkg" / "module.py")) == expected


def _fixed(tmp_path: Path, source: str, config: str = "") -> str:
    (tmp_path / "pyproject.toml").write_text(config)
    path = tmp_path / "module.py"
    path.write_text(source)
    result = fix_source(source.encode(), str(path), Config(root=tmp_path, select=("XDV1",)))
    assert result.error is None and result.changed
    return result.fixed.decode()


def test_a_long_fixed_line_is_wrapped_as_black_wraps_it(tmp_path: Path) -> None:
    fixed = _fixed(tmp_path, LONG)
    assert max(len(line) for line in fixed.splitlines()) <= 88
    assert 'tempfile.mkstemp(\n        prefix="a-fairly-long-prefix-", suffix=".partial.download", dir=cache_dir\n    )' in fixed
    # black (here ruff's formatter, black-compatible) would change nothing.
    (tmp_path / "module.py").write_text(fixed)
    check = subprocess.run([str(RUFF), "format", "--check", "--isolated", str(tmp_path / "module.py")], capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr


def test_a_configured_line_length_is_kept(tmp_path: Path) -> None:
    fixed = _fixed(tmp_path, LONG, "[tool.ruff]\nline-length = 120\n")
    assert 'tempfile.mkstemp(prefix="a-fairly-long-prefix-", suffix=".partial.download", dir=cache_dir)\n' in fixed
    (tmp_path / "narrow").mkdir()  # line lengths are looked up once per directory
    narrow = _fixed(tmp_path / "narrow", LONG, "[tool.black]\nline-length = 60\n")
    assert 'mkstemp(\n        prefix="a-fairly-long-prefix-",\n        suffix=".partial.download",\n        dir=cache_dir,\n    )' in narrow


def test_the_destination_is_evaluated_once(tmp_path: Path) -> None:
    source = LONG.replace('os.path.join(cache_dir, "payload.bin")', 'os.path.join(cache_dir, "blobs", "payload.bin")')
    fixed = _fixed(tmp_path, source)
    assert fixed.count('os.path.join(cache_dir, "blobs", "payload.bin")') == 1
    assert '    destination = os.path.join(cache_dir, "blobs", "payload.bin")\n    fd, tmp = tempfile.mkstemp(' in fixed
    assert "dir=os.path.dirname(destination)" in fixed
    assert "os.replace(tmp, destination)" in fixed
