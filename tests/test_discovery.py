"""Paths -> files: recursion, suffixes, excludes, explicit files, duplicates, stdin."""

from __future__ import annotations

import os
from pathlib import Path
from typing import List, Optional, Tuple

import pytest

from tests.process import findings, run
from xdevlint.config import DEFAULT_EXCLUDE, Config
from xdevlint.discovery import Candidate, discover

MOVE = 'import os, tempfile\nos.rename(tempfile.mktemp(), "/var/cache/x")\n'


def touch(root: Path, *names: str) -> None:
    for name in names:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(MOVE)


def found(paths: Tuple[str, ...], config: Optional[Config] = None, force_exclude: bool = False) -> List[Candidate]:
    settings = config or Config(root=Path.cwd())
    return list(discover(paths, lambda _: settings, force_exclude=force_exclude))


def names(candidates: List[Candidate]) -> List[str]:
    return [c.path for c in candidates]


def test_directories_are_walked_for_py_and_pyi_only(tmp_path: Path, monkeypatch) -> None:
    touch(tmp_path, "a.py", "b.pyi", "c.txt", "d.pyc", "e.py.bak", "script", "pkg/f.py", "pkg/deep/g.pyi", "pkg/h.pyx")
    monkeypatch.chdir(tmp_path)
    assert names(found((".",))) == ["a.py", "b.pyi", "pkg/deep/g.pyi", "pkg/f.py"]


@pytest.mark.parametrize("excluded", DEFAULT_EXCLUDE)
def test_default_excludes(tmp_path: Path, monkeypatch, excluded: str) -> None:
    touch(tmp_path, f"{excluded}/x.py", f"src/{excluded}/y.py", "src/kept.py")
    monkeypatch.chdir(tmp_path)
    assert names(found((".",))) == ["src/kept.py"]


def test_the_default_list_is_the_issues(tmp_path: Path) -> None:
    assert set(DEFAULT_EXCLUDE) == {".git", ".hg", ".venv", "venv", ".tox", ".nox", "build", "dist", "__pycache__", "node_modules"}


def test_exclude_by_name_and_path_globs(tmp_path: Path, monkeypatch) -> None:
    touch(tmp_path, "gen_a.py", "src/gen_b.py", "src/migrations/0001.py", "other/migrations/0002.py", "src/ok.py", "build/x.py")
    monkeypatch.chdir(tmp_path)
    config = Config(root=tmp_path, extend_exclude=("gen_*.py", "src/migrations"))
    assert names(found((".",), config)) == ["other/migrations/0002.py", "src/ok.py"]
    # exclude replaces the defaults: build/ is back
    config = Config(root=tmp_path, exclude=("*/migrations",))
    assert names(found((".",), config)) == ["build/x.py", "gen_a.py", "src/gen_b.py", "src/ok.py"]


def test_explicit_files_are_checked_unless_force_exclude(tmp_path: Path, monkeypatch) -> None:
    touch(tmp_path, "build/x.py", "gen_a.py", "notes.txt")
    monkeypatch.chdir(tmp_path)
    config = Config(root=tmp_path, extend_exclude=("gen_*.py",))
    explicit = ("build/x.py", "gen_a.py", "notes.txt")  # named: checked whatever the name
    assert names(found(explicit, config)) == list(explicit)
    assert names(found(explicit, config, force_exclude=True)) == ["notes.txt"]


def test_a_path_given_twice_is_checked_once(tmp_path: Path, monkeypatch) -> None:
    touch(tmp_path, "a.py", "pkg/b.py")
    monkeypatch.chdir(tmp_path)
    assert names(found(("a.py", "a.py", ".", "pkg", "pkg/b.py"))) == ["a.py", "pkg/b.py"]


def test_missing_path_is_a_finding(tmp_path: Path) -> None:
    touch(tmp_path, "a.py")
    items = findings(run("--format", "json", "nope.py", "a.py", cwd=tmp_path))
    missing = [i for i in items if i["path"] == "nope.py"]
    assert [(i["code"], i["line"], i["column"]) for i in missing] == [("XDV000", 1, 1)]
    assert "no such file" in missing[0]["message"]
    assert any(i["path"] == "a.py" and i["code"] == "XDV101" for i in items)


def test_directory_symlink_loops_do_not_hang(tmp_path: Path) -> None:
    touch(tmp_path, "a/x.py", "b/y.py")
    os.symlink("../b", tmp_path / "a" / "to_b")
    os.symlink("../a", tmp_path / "b" / "to_a")
    os.symlink(".", tmp_path / "self")
    completed = run("--format", "json", "--select", "XDV101", ".", cwd=tmp_path, timeout=60)
    # each real file once, under whichever name the walk reached it first
    real = sorted(os.path.relpath(os.path.realpath(tmp_path / i["path"]), tmp_path) for i in findings(completed))
    assert real == ["a/x.py", "b/y.py"]


def test_stdin_with_a_filename(tmp_path: Path) -> None:
    completed = run("--format", "json", "--stdin-filename", "pkg/mod.py", "-", cwd=tmp_path, stdin=MOVE.encode())
    assert [(i["path"], i["code"], i["line"]) for i in findings(completed)] == [("pkg/mod.py", "XDV101", 2)]


def test_stdin_filename_alone_reads_stdin(tmp_path: Path) -> None:
    completed = run("--format", "json", "--stdin-filename", "mod.py", cwd=tmp_path, stdin=MOVE.encode())
    assert [(i["path"], i["code"]) for i in findings(completed)] == [("mod.py", "XDV101")]


def test_stdin_without_a_name_is_dash(tmp_path: Path) -> None:
    completed = run("--format", "json", "-", cwd=tmp_path, stdin=MOVE.encode())
    assert [(i["path"], i["code"]) for i in findings(completed)] == [("-", "XDV101")]
