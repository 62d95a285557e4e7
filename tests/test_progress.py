"""The progress line: on a terminal for long runs only; never in pipes, CI, --quiet or machine formats."""

from __future__ import annotations

import io
from pathlib import Path
from typing import List

import pytest

from tests.test_cache import BAD, CLEAN
from xdevlint.frontends import cli, progress


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    for index in range(12):
        (tmp_path / f"m{index}.py").write_text(BAD if index % 4 == 0 else CLEAN)
    return tmp_path


def stderr_of(args: List[str], monkeypatch: pytest.MonkeyPatch, stream: io.StringIO) -> str:
    monkeypatch.setattr(progress, "DELAY", 0.0)
    monkeypatch.setattr(cli.sys, "stderr", stream)
    cli.main(["--jobs", "1", "--no-cache", *args], stdout=io.StringIO())
    return stream.getvalue()


def test_a_terminal_sees_files_done_and_findings(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    shown = stderr_of([str(tree)], monkeypatch, Terminal())
    assert "/12" in shown and "file" in shown
    assert "findings" in shown


@pytest.mark.parametrize(
    "args, env, stream",
    [
        ([], {}, io.StringIO()),  # a pipe or a file
        ([], {"CI": "true"}, Terminal()),
        (["--quiet"], {}, Terminal()),
        (["--format", "json"], {}, Terminal()),
        (["--format", "github"], {}, Terminal()),
        (["--format", "sarif"], {}, Terminal()),
    ],
    ids=["pipe", "ci", "quiet", "json", "github", "sarif"],
)
def test_no_progress_where_nobody_watches(
    tree: Path, monkeypatch: pytest.MonkeyPatch, args: List[str], env: dict, stream: io.StringIO
) -> None:
    monkeypatch.delenv("CI", raising=False)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    assert stderr_of([*args, str(tree)], monkeypatch, stream) == ""


def test_a_short_run_shows_nothing(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setattr(cli.sys, "stderr", Terminal())
    cli.main(["--jobs", "1", "--no-cache", str(tree)], stdout=io.StringIO())  # DELAY stays 2 s
    assert cli.sys.stderr.getvalue() == ""


@pytest.mark.parametrize("value, shown", [("", True), ("0", True), ("false", True), ("true", False), ("1", False), ("yes", False)])
def test_wanted(monkeypatch: pytest.MonkeyPatch, value: str, shown: bool) -> None:
    monkeypatch.setenv("CI", value)
    assert progress.wanted(Terminal(), quiet=False, output_format="text") is shown
    assert not progress.wanted(io.StringIO(), quiet=False, output_format="text")
    assert not progress.wanted(Terminal(), quiet=True, output_format="text")
