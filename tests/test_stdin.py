"""Editors pipe the buffer in: ``--stdin-filename`` gets the settings of the file it names."""

from __future__ import annotations

import io
import json
import textwrap
from pathlib import Path
from typing import List, Sequence, Tuple

import pytest

from xdevlint.frontends.cli import main

BAD = textwrap.dedent(
    """\
    import os
    import tempfile


    def publish(cache_dir, target):
        tmp = tempfile.mkstemp()[1]
        os.rename(tmp, os.path.join(cache_dir, "blob"))
        other = tempfile.mkstemp()[1]
        os.replace(other, target)
    """
)
CONFIG = textwrap.dedent(
    """\
    [tool.xdevlint]
    extend-exclude = ["vendored"]
    per-file-ignores = { "tests/*" = ["XDV102"] }
    """
)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "pyproject.toml").write_text(CONFIG)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def lint_stdin(args: Sequence[str], source: str = BAD) -> Tuple[int, List[Tuple[str, int, str]]]:
    """The CLI on ``source`` piped in, with the XDV1 rules (other families may flag BAD too)."""
    out = io.StringIO()
    stdin = io.TextIOWrapper(io.BytesIO(source.encode()), encoding="utf-8")
    code = main(["--select", "XDV1", "--format", "json", *args], stdout=out, stdin=stdin)
    return code, [(item["path"], item["line"], item["code"]) for item in json.loads(out.getvalue())]


def test_reports_under_the_given_name(project: Path) -> None:
    assert lint_stdin(["--stdin-filename", "src/app.py", "-"]) == (
        1,
        [("src/app.py", 7, "XDV101"), ("src/app.py", 9, "XDV102")],
    )
    # No path at all means stdin when a name is given, as in ruff.
    assert lint_stdin(["--stdin-filename", "src/app.py"])[1] == [("src/app.py", 7, "XDV101"), ("src/app.py", 9, "XDV102")]


def test_excluded_name_with_force_exclude_is_skipped(project: Path) -> None:
    assert lint_stdin(["--force-exclude", "--stdin-filename", "vendored/lib.py", "-"]) == (0, [])
    assert lint_stdin(["--force-exclude", "--stdin-filename", str(project / "vendored" / "lib.py"), "-"]) == (0, [])


def test_excluded_name_without_force_exclude_is_checked(project: Path) -> None:
    """As for a file named on the command line: excludes prune directory walks only."""
    code, found = lint_stdin(["--stdin-filename", "vendored/lib.py", "-"])
    assert code == 1 and [c for _, _, c in found] == ["XDV101", "XDV102"]


def test_per_file_ignores_apply_to_the_name(project: Path) -> None:
    assert lint_stdin(["--stdin-filename", "tests/test_app.py", "-"]) == (1, [("tests/test_app.py", 7, "XDV101")])
    assert lint_stdin(["--force-exclude", "--stdin-filename", "tests/test_app.py", "-"])[1] == [
        ("tests/test_app.py", 7, "XDV101")
    ]


def test_settings_come_from_the_names_directory(project: Path) -> None:
    """The closest pyproject.toml to the named file, not to the working directory."""
    (project / "sub").mkdir()
    (project / "sub" / "pyproject.toml").write_text('[tool.xdevlint]\nignore = ["XDV101"]\n')
    assert lint_stdin(["--stdin-filename", "sub/tool.py", "-"])[1] == [("sub/tool.py", 9, "XDV102")]
    assert lint_stdin(["--stdin-filename", "tool.py", "-"])[1] == [("tool.py", 7, "XDV101"), ("tool.py", 9, "XDV102")]
