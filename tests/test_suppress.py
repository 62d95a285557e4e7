"""``# noqa`` per line, ``# xdevlint: noqa`` per file, and ``# xdevlint: noqa: CODES``
per file and code (ruff's ``# ruff: noqa: CODE``), through the real engine."""

from __future__ import annotations

from dataclasses import replace
from typing import List, Tuple

import pytest

from xdevlint.config import Config
from xdevlint.engine import lint_source
from xdevlint.stages.suppress import file_ignored_codes, file_is_suppressed, line_codes

# Line 6 is an XDV101 (temp -> cache), line 7 an XDV102 (temp -> unknown).
SOURCE = """\
import os
import tempfile

def publish(dst):
    tmp = tempfile.mktemp()
    os.rename(tmp, "/var/cache/blob"){first}
    os.rename(tmp, dst){second}
"""
BOTH = [("XDV101", 6, 5), ("XDV102", 7, 5)]


def lint(first: str = "", second: str = "", header: str = "", noqa: bool = True) -> List[Tuple[str, int, int]]:
    text = header + SOURCE.format(first=first, second=second)
    shift = header.count("\n")
    config = replace(Config(), select=("XDV1",))
    result = lint_source(text.encode(), "m.py", config, noqa=noqa)
    return [(f.code, f.line - shift, f.column) for f in result.findings]


def test_without_comments_both_are_found() -> None:
    assert lint() == BOTH


@pytest.mark.parametrize(
    "comment",
    ["  # noqa: XDV101", "  # noqa:XDV101", "  # noqa:XDV101,XDV102", "  # noqa: XDV101, XDV102",
     "  # noqa", "  # NOQA", "  #noqa", "  # noqa: xdv101", "  # noqa: XDV1"],
)
def test_line_noqa_suppresses_the_finding_on_its_line(comment: str) -> None:
    assert lint(first=comment) == [("XDV102", 7, 5)]


@pytest.mark.parametrize("comment", ["  # noqa: XDV102", "  # noqa: E501", "  # noqa:XDV2", "  # no qa"])
def test_noqa_for_another_code_keeps_the_finding(comment: str) -> None:
    assert ("XDV101", 6, 5) in lint(first=comment)


def test_noqa_applies_only_to_its_own_line() -> None:
    assert lint(second="  # noqa: XDV101") == BOTH


def test_flake8_front_end_keeps_noqa_lines() -> None:
    """flake8 applies ``# noqa`` itself: with ``noqa=False`` the engine keeps those findings."""
    assert lint(first="  # noqa", noqa=False) == BOTH


@pytest.mark.parametrize("header", ["# xdevlint: noqa\n", "#xdevlint:NOQA\n", "x = 1  # xdevlint: noqa\n"])
def test_file_level_noqa_suppresses_everything(header: str) -> None:
    assert lint(header=header) == []


def test_file_level_noqa_anywhere_in_the_file() -> None:
    assert lint(second="\n# xdevlint: noqa") == []


def test_file_level_noqa_also_silences_unparsable_files() -> None:
    config = Config()
    assert lint_source(b"# xdevlint: noqa\nprint 'x'\nos.rename(a, cache)\n", "m.py", config).findings == ()
    assert [f.code for f in lint_source(b"print 'x'\nos.rename(a, cache)\n", "m.py", config).findings] == ["XDV000"]


@pytest.mark.parametrize(
    "header, kept",
    [
        ("# xdevlint: noqa: XDV101\n", [("XDV102", 7, 5)]),
        ("# xdevlint: noqa: XDV102\n", [("XDV101", 6, 5)]),
        ("# xdevlint: noqa:XDV101,XDV102\n", []),
        ("# xdevlint: noqa: XDV101 XDV102\n", []),
        ("# XDEVLINT: NOQA: xdv1\n", []),
        ("# xdevlint: noqa: E501\n", BOTH),
    ],
)
def test_file_level_noqa_with_codes_suppresses_those_codes(header: str, kept) -> None:
    assert lint(header=header) == kept


def test_file_level_codes_hold_for_the_flake8_front_end_too() -> None:
    """flake8 knows nothing of ``# xdevlint: noqa: CODE``; the engine applies it always."""
    assert lint(header="# xdevlint: noqa: XDV101\n", noqa=False) == [("XDV102", 7, 5)]


def test_parsing_helpers() -> None:
    assert line_codes("x = 1") is None
    assert line_codes("x = 1  # noqa") == ()
    assert line_codes("x  # noqa:XDV101,XDV102") == ("XDV101", "XDV102")
    assert file_is_suppressed("# xdevlint: noqa\n")
    assert not file_is_suppressed("# xdevlint: noqa: XDV101\n")
    assert file_ignored_codes("# xdevlint: noqa: XDV101, XDV102\n") == ("XDV101", "XDV102")
    # a code list ends with its line: a name on the next line is not a code
    assert file_ignored_codes("# xdevlint: noqa: XDV101\nX1 = 2\n") == ("XDV101",)
    assert file_ignored_codes("# xdevlint: noqa\n") == ()
