"""``# noqa`` per line, ``# xdevlint: noqa`` per file, and ``# xdevlint: noqa: CODES``
per file and code (ruff's ``# ruff: noqa: CODE``), through the real engine."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import List, Tuple

import pytest

from xdevlint.config import Config
from xdevlint.engine import lint_source
from tests.process import findings, run
from xdevlint.stages.suppress import comments

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
    def line_codes(line: str):
        found = comments(line + "\n").noqa
        return found[0].codes if found else None

    assert line_codes("x = 1") is None
    assert line_codes("x = 1  # noqa") == ()
    assert line_codes("x  # noqa:XDV101,XDV102") == ("XDV101", "XDV102")
    assert line_codes("x  # NOQA: xdv101") == ("XDV101",)
    assert comments("# xdevlint: noqa\n").file_suppressed
    assert not comments("# xdevlint: noqa: XDV101\n").file_suppressed
    assert comments("# xdevlint: noqa: XDV101, XDV102\n").file_codes == ("XDV101", "XDV102")
    # a code list ends with its line: a name on the next line is not a code
    assert comments("# xdevlint: noqa: XDV101\nX1 = 2\n").file_codes == ("XDV101",)
    assert comments("# xdevlint: noqa\n").file_codes == ()


# -- only real comments count -----------------------------------------------------------


@pytest.mark.parametrize(
    "header",
    [
        '"""A module that documents `# xdevlint: noqa`."""\n',
        "NOTE = '# xdevlint: noqa'\n",
        'HELP = """\n# xdevlint: noqa: XDV101\n"""\n',
    ],
)
def test_suppression_words_in_strings_suppress_nothing(header: str) -> None:
    assert lint(header=header) == BOTH


def test_noqa_words_in_a_string_on_the_line_suppress_nothing() -> None:
    source = 'import os, tempfile\nos.rename(tempfile.mktemp(), "/var/cache/x # noqa")\n'
    result = lint_source(source.encode(), "m.py", replace(Config(), select=("XDV1",)))
    assert [f.code for f in result.findings] == ["XDV101"]


MULTI = """\
import os
import tempfile

tmp = tempfile.mktemp()
os.rename({first}
    tmp,{middle}
    "/var/cache/blob",
){last}
os.rename(tmp, "/var/cache/other")
"""


@pytest.mark.parametrize("where", ["first", "middle", "last"])
def test_noqa_on_any_line_of_a_multi_line_statement(where: str) -> None:
    parts = {"first": "", "middle": "", "last": ""}
    parts[where] = "  # NOQA: xdv101"
    result = lint_source(MULTI.format(**parts).encode(), "m.py", replace(Config(), select=("XDV1",)))
    # the statement's own finding is suppressed, the next statement's is not
    assert [(f.code, f.line) for f in result.findings] == [("XDV101", 9)]


def test_noqa_covers_its_statement_only() -> None:
    """A compound statement's header is its own statement: a noqa there leaves the body alone."""
    source = 'import os, tempfile\nif True:  # noqa: XDV101\n    os.rename(tempfile.mktemp(), "/var/cache/x")\n'
    result = lint_source(source.encode(), "m.py", replace(Config(), select=("XDV1",)))
    assert [(f.code, f.line) for f in result.findings] == [("XDV101", 3)]


# -- XDV001: unused noqa ------------------------------------------------------------------


def codes_and_lines(source: str, select: Tuple[str, ...] = ("ALL",)) -> List[Tuple[str, int]]:
    result = lint_source(source.encode(), "m.py", replace(Config(), select=select))
    return [(f.code, f.line) for f in result.findings]


def test_unused_noqa_is_reported() -> None:
    assert codes_and_lines("import shutil\nshutil.move('a', 'b')  # noqa: XDV101\n") == [("XDV001", 2)]
    # in a file no rule's scan keeps as well as in one the rules analysed
    assert codes_and_lines("x = 1  # noqa: XDV203\n") == [("XDV001", 1)]
    assert codes_and_lines(MULTI.format(first="", middle="", last="  # noqa: XDV101, XDV102")) == [
        ("XDV001", 8), ("XDV101", 9)
    ]


@pytest.mark.parametrize(
    "comment",
    ["# noqa", "# noqa: E501", "# noqa: XDV1", "# noqa: XDV", "# noqa: F401, W291"],
)
def test_noqa_that_xdv001_cannot_judge_is_left_alone(comment: str) -> None:
    assert codes_and_lines(f"import shutil\nshutil.move('a', 'b')  {comment}\n") == []


def test_unused_noqa_only_for_rules_that_ran() -> None:
    source = "import shutil\nshutil.move('a', 'b')  # noqa: XDV101\n"
    assert codes_and_lines(source, select=("XDV001", "XDV2")) == []  # XDV101 did not run: no judgement
    assert codes_and_lines(source, select=("XDV001", "XDV101")) == [("XDV001", 2)]
    assert codes_and_lines(source, select=("XDV1",)) == []  # XDV001 not selected
    assert codes_and_lines("# xdevlint: noqa: XDV001\n" + source) == []
    # a file that could not be checked proves nothing unused
    assert codes_and_lines("import os\nos.rename(a, '/var/cache/x'  # noqa: XDV101\n") == [("XDV000", 2)]


def test_unused_noqa_from_the_command_line_and_its_fix(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text("import shutil\n\nshutil.move('a', 'b')  # noqa: XDV101, E501\nx = 1  # noqa: XDV203\n")
    items = findings(run("--format", "json", "m.py", cwd=tmp_path))
    assert [(i["code"], i["line"], i["column"], i["fix"]["applicability"]) for i in items] == [
        ("XDV001", 3, 24, "safe"), ("XDV001", 4, 8, "safe")
    ]
    assert run("--extend-ignore", "XDV001", "m.py", cwd=tmp_path).returncode == 0
    fixed = run("--fix", "m.py", cwd=tmp_path)
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    assert (tmp_path / "m.py").read_text() == "import shutil\n\nshutil.move('a', 'b')  # noqa: E501\nx = 1\n"


# -- --add-noqa ---------------------------------------------------------------------------

ADOPT = """\
import os
import tempfile

tmp = tempfile.mktemp()
os.rename(
    tmp, "/var/cache/blob"
)
os.replace(tmp, "/var/cache/index")  # noqa: E501
os.replace(tmp, "/var/cache/other")  # a note
print(tmp)  # noqa
"""


def test_add_noqa_then_the_run_is_clean(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(ADOPT)
    (tmp_path / "broken.py").write_text("import os\nos.rename(a, '/var/cache/x'\n")
    before = findings(run("--format", "json", "--no-cache", ".", cwd=tmp_path))
    assert {i["code"] for i in before if i["path"] == "m.py"} == {"XDV101"}
    added = run("--add-noqa", ".", cwd=tmp_path)
    assert added.returncode == 0, added.stderr
    assert added.stderr == "Added 3 noqa directives.\n"
    assert (tmp_path / "m.py").read_text() == ADOPT.replace(
        ')\nos.replace(tmp, "/var/cache/index")  # noqa: E501', ')  # noqa: XDV101\nos.replace(tmp, "/var/cache/index")  # noqa: E501, XDV101'
    ).replace("# a note", "# a note  # noqa: XDV101")
    after = findings(run("--format", "json", ".", cwd=tmp_path))
    assert [(i["path"], i["code"]) for i in after] == [("broken.py", "XDV000")]  # never given a noqa
    again = run("--add-noqa", ".", cwd=tmp_path)
    assert again.stderr == "Added 0 noqa directives.\n"
    assert run("--add-noqa", "--fix", ".", cwd=tmp_path).returncode == 2


def test_a_large_file_is_tokenized_only_where_it_says_noqa(monkeypatch: pytest.MonkeyPatch) -> None:
    """Above ``LARGE`` characters (here lowered to 1,000), each top-level statement that
    says noqa is tokenized alone: the same comments, statement ranges and file-level
    directives as tokenizing the whole file (noqa in strings and docstrings still count
    for nothing)."""
    from xdevlint.stages import suppress

    chunk = 'def f{0}(x):\n    """# noqa: XDV101 in a docstring"""\n    return (x +\n            1)  # noqa: E501\n\n'
    plain = "def g{0}(x):\n    return x\n\n"
    text = "".join((chunk if i % 3 == 0 else plain).format(i) for i in range(60))
    text += 's = """\n# noqa: XDV101 in a string\n"""\nos.rename(a,\n          b)  # noqa: XDV101\n# xdevlint: noqa: XDV203\n'
    monkeypatch.setattr(suppress, "LARGE", 1000)
    piecewise = suppress.comments(text)
    monkeypatch.setattr(suppress, "LARGE", len(text))
    assert piecewise == suppress.comments(text)
    assert len(piecewise.noqa) == 21 and piecewise.file_codes == ("XDV203",)
    assert (piecewise.noqa[-1].first, piecewise.noqa[-1].last) == (text.count("\n") - 2, text.count("\n") - 1)
