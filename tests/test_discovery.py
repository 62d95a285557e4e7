"""Paths -> files: recursion, suffixes, excludes, explicit files, duplicates, stdin."""

from __future__ import annotations

import os
import subprocess
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


def test_directories_are_walked_for_py_only(tmp_path: Path, monkeypatch) -> None:
    """A stub (``.pyi``) never runs: no move or temp of it can happen."""
    touch(tmp_path, "a.py", "b.pyi", "c.txt", "d.pyc", "e.py.bak", "script", "pkg/f.py", "pkg/deep/g.pyi", "pkg/h.pyx")
    monkeypatch.chdir(tmp_path)
    assert names(found((".",))) == ["a.py", "pkg/f.py"]


@pytest.mark.parametrize("excluded", DEFAULT_EXCLUDE)
def test_default_excludes(tmp_path: Path, monkeypatch, excluded: str) -> None:
    touch(tmp_path, f"{excluded}/x.py", f"src/{excluded}/y.py", "src/kept.py")
    monkeypatch.chdir(tmp_path)
    assert names(found((".",))) == ["src/kept.py"]


def test_the_default_list_is_the_issues(tmp_path: Path) -> None:
    assert set(DEFAULT_EXCLUDE) == {
        ".git", ".hg", ".venv", "venv", ".tox", ".nox", "build", "dist", "__pycache__", "node_modules",
        "site-packages", ".eggs", ".direnv", ".mypy_cache", ".pytest_cache", ".ruff_cache",
    }


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


# -- what git ignores, virtualenvs, nothing found ---------------------------------------


def git_env(home: Path) -> dict:
    """A HOME of the test's own, so the user's global git configuration cannot leak in."""
    return {"HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"), "GIT_CONFIG_NOSYSTEM": "1"}


def git_init(root: Path, home: Path) -> None:
    env = {**os.environ, **git_env(home)}
    subprocess.run(["git", "init", "-q", str(root)], check=True, env=env)


def checked(completed: subprocess.CompletedProcess) -> List[str]:
    return sorted({item["path"] for item in findings(completed)})


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A git repository with ignored files at several levels, and a HOME beside it."""
    root = tmp_path / "repo"
    root.mkdir()
    git_init(root, tmp_path / "home")
    touch(root, "kept.py", "generated.py", "out/x.py", "pkg/kept.py", "pkg/local.py", "pkg/sub/keep_me.py", "pkg/sub/drop.py",
          "secret.py", "logs/a.py")
    (root / ".gitignore").write_text("generated.py\nout/\n# a comment\nlogs\n")
    (root / "pkg" / ".gitignore").write_text("local.py\nsub/*.py\n!sub/keep_me.py\n")
    (root / ".git" / "info" / "exclude").write_text("secret.py\n")
    return root


def test_gitignore_files_and_info_exclude_are_honoured(repo: Path) -> None:
    completed = run("--format", "json", "--select", "XDV101", ".", cwd=repo, env=git_env(repo.parent / "home"))
    assert checked(completed) == ["kept.py", "pkg/kept.py", "pkg/sub/keep_me.py"]


def test_gitignore_applies_below_a_subdirectory_named_on_the_command_line(repo: Path) -> None:
    completed = run("--format", "json", "--select", "XDV101", "pkg", cwd=repo, env=git_env(repo.parent / "home"))
    assert checked(completed) == ["pkg/kept.py", "pkg/sub/keep_me.py"]
    completed = run("--format", "json", "--select", "XDV101", ".", cwd=repo / "pkg", env=git_env(repo.parent / "home"))
    assert checked(completed) == ["kept.py", "sub/keep_me.py"]


def test_global_excludes_file(repo: Path) -> None:
    home = repo.parent / "home"
    (home / ".config" / "git").mkdir(parents=True)
    (home / ".config" / "git" / "ignore").write_text("kept.py\n")  # git's default place for it
    completed = run("--format", "json", "--select", "XDV101", ".", cwd=repo, env=git_env(home))
    assert checked(completed) == ["pkg/sub/keep_me.py"]
    # core.excludesFile, when set, replaces the default place
    (home / "mine").write_text("pkg/\n")
    (home / ".gitconfig").write_text("[core]\n\texcludesFile = ~/mine\n")
    completed = run("--format", "json", "--select", "XDV101", ".", cwd=repo, env=git_env(home))
    assert checked(completed) == ["kept.py"]


def test_respect_gitignore_can_be_turned_off(repo: Path) -> None:
    env = git_env(repo.parent / "home")
    every = ["generated.py", "kept.py", "logs/a.py", "out/x.py", "pkg/kept.py", "pkg/local.py", "pkg/sub/drop.py",
             "pkg/sub/keep_me.py", "secret.py"]
    assert checked(run("--format", "json", "--select", "XDV101", "--no-respect-gitignore", ".", cwd=repo, env=env)) == every
    (repo / "pyproject.toml").write_text("[tool.xdevlint]\nrespect-gitignore = false\n")
    assert checked(run("--format", "json", "--select", "XDV101", ".", cwd=repo, env=env)) == every
    assert checked(run("--format", "json", "--select", "XDV101", "--respect-gitignore", ".", cwd=repo, env=env)) == [
        "kept.py", "pkg/kept.py", "pkg/sub/keep_me.py"
    ]


def test_gitignore_outside_a_repository_means_nothing(tmp_path: Path) -> None:
    """git reads .gitignore only inside a repository; so does ruff, and so does xdevlint."""
    touch(tmp_path, "a.py", "b.py")
    (tmp_path / ".gitignore").write_text("a.py\n")
    assert checked(run("--format", "json", "--select", "XDV101", ".", cwd=tmp_path, env=git_env(tmp_path))) == ["a.py", "b.py"]


def test_a_file_named_explicitly_is_checked_unless_force_exclude(repo: Path) -> None:
    env = git_env(repo.parent / "home")
    assert checked(run("--format", "json", "--select", "XDV101", "generated.py", "pkg/local.py", cwd=repo, env=env)) == [
        "generated.py", "pkg/local.py"
    ]
    completed = run("--format", "json", "--force-exclude", "generated.py", "pkg/local.py", "pkg/kept.py", cwd=repo, env=env)
    assert checked(completed) == ["pkg/kept.py"]


def test_a_virtualenv_of_any_name_is_skipped(tmp_path: Path) -> None:
    touch(tmp_path, "app.py", "myenv/lib/python3.11/packages/mod.py", "tools/env2/bin/x.py")
    (tmp_path / "myenv" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    (tmp_path / "tools" / "env2" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    assert checked(run("--format", "json", "--select", "XDV101", ".", cwd=tmp_path)) == ["app.py"]
    # named on the command line, it is walked: the user asked for it
    assert checked(run("--format", "json", "--select", "XDV101", "myenv", cwd=tmp_path)) == [
        "myenv/lib/python3.11/packages/mod.py"
    ]


def test_no_python_files_is_a_warning(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "notes.txt").write_text("x")
    completed = run("empty", cwd=tmp_path)
    assert completed.returncode == 0
    assert completed.stderr == "warning: No Python files found under the given path(s)\n"
    touch(tmp_path, "empty/a.py")
    assert "warning" not in run("empty", cwd=tmp_path).stderr


# -- a directory named on the command line -----------------------------------------------


def test_a_directory_named_on_the_command_line_is_checked_whatever_its_name(tmp_path: Path) -> None:
    """As ruff: ``xdevlint check build/`` checks build/, a package named ``build`` and a
    ``venv/`` folder inside a project when named; what lies below them is still excluded
    by its own name; ``--force-exclude`` (or ``force-exclude = true``) applies the
    excludes to the named directories too, as the pre-commit hooks want."""
    touch(tmp_path, "build/x.py", "build/node_modules/dep.py", "src/app/build/gen.py", "src/app/build/dist/y.py",
          "proj/venv/tool.py", "proj/main.py")
    every = ["build/x.py", "proj/venv/tool.py", "src/app/build/gen.py"]
    for paths in (["build/"], ["build"], ["src/app/build"], ["proj/venv/"]):
        completed = run("--format", "json", "--select", "XDV101", *paths, cwd=tmp_path)
        assert completed.returncode == 1, completed.stderr
        assert "No Python files found" not in completed.stderr
        assert checked(completed) == [p for p in every if p.startswith(paths[0].rstrip("/"))]
    # walking the tree still skips them
    assert checked(run("--format", "json", "--select", "XDV101", ".", cwd=tmp_path)) == ["proj/main.py"]
    for forced in (("--force-exclude",), ("--config", "force-exclude = true")):
        completed = run("--format", "json", "--select", "XDV101", *forced, "build/", "src/app/build", "proj/venv", cwd=tmp_path)
        assert completed.returncode == 0 and findings(completed) == []
        assert "No Python files found" in completed.stderr
    (tmp_path / "pyproject.toml").write_text("[tool.xdevlint]\nforce-exclude = true\n")
    assert findings(run("--format", "json", "--select", "XDV101", "build/", cwd=tmp_path)) == []
    assert checked(run("--format", "json", "--select", "XDV101", "--no-force-exclude", "build/", cwd=tmp_path)) == ["build/x.py"]


def test_a_git_ignored_directory_named_on_the_command_line_is_checked(repo: Path) -> None:
    """``out/`` is git-ignored: named, it is walked (what else .gitignore says still
    holds inside it); with ``--force-exclude`` it is skipped."""
    env = git_env(repo.parent / "home")
    touch(repo, "out/gen_pb2.py", "out/deep/y.py")
    (repo / ".gitignore").write_text("generated.py\nout/\n# a comment\nlogs\n*_pb2.py\n")
    assert checked(run("--format", "json", "--select", "XDV101", "out", cwd=repo, env=env)) == ["out/deep/y.py", "out/x.py"]
    assert checked(run("--format", "json", "--select", "XDV101", "logs/", cwd=repo, env=env)) == ["logs/a.py"]
    completed = run("--format", "json", "--select", "XDV101", "--force-exclude", "out", "logs", "pkg", cwd=repo, env=env)
    assert checked(completed) == ["pkg/kept.py", "pkg/sub/keep_me.py"]
