"""Imports a fix adds go where isort puts them, are never repeated, and the ones a fix
leaves unused go; the JSON/SARIF edits carry that change too.

The placement rules are checked on small modules; the whole of it on every fixture,
against ruff itself (I001 sorting, F401 unused, F811 redefined) and by applying the
reported edits as plain text, one fix at a time as an editor does.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import List, Tuple

import libcst as cst
import pytest

from xdevlint.config import Config
from xdevlint.engine import _lint_bytes, fix_source, lint_source
from xdevlint.fixes import apply as fixer
from xdevlint.fixes.imports import FIRST_PARTY, STDLIB, THIRD_PARTY, add_imports, header_edits, section_of
from xdevlint.model import Applicability, Edit, Import
from tests.fixture_cases import FIXTURES, case_files, expected_output, fixture_config


def _add(source: str, *imports: Import, path: str = "/nonexistent/mod.py") -> str:
    return add_imports(cst.parse_module(source), list(imports), path).code


# -- placement ------------------------------------------------------------------------


def test_joins_the_stdlib_block_in_sorted_position() -> None:
    source = "import os\nimport tempfile\n\nimport numpy\n\nx = 1\n"
    assert _add(source, Import("shutil")) == "import os\nimport shutil\nimport tempfile\n\nimport numpy\n\nx = 1\n"


def test_plain_imports_go_before_from_imports_of_the_section() -> None:
    source = "import tempfile\nfrom pathlib import Path\n"
    assert _add(source, Import("shutil")) == "import shutil\nimport tempfile\nfrom pathlib import Path\n"


def test_never_after_third_party_or_relative_imports() -> None:
    source = '"""Doc."""\n\nfrom __future__ import annotations\n\nimport numpy\nfrom . import sibling\n\nx = 1\n'
    expected = '"""Doc."""\n\nfrom __future__ import annotations\n\nimport shutil\n\nimport numpy\nfrom . import sibling\n\nx = 1\n'
    assert _add(source, Import("shutil")) == expected


def test_a_new_third_party_section_goes_between_stdlib_and_relative() -> None:
    source = "import os\n\nfrom .sibling import thing\n"
    expected = "import os\n\nfrom xdevlint.safemove import safe_move\n\nfrom .sibling import thing\n"
    assert _add(source, Import("xdevlint.safemove", "safe_move")) == expected


def test_an_unsorted_block_gets_the_import_at_its_end() -> None:
    source = "import tempfile\nimport os\n\nx = 1\n"
    assert _add(source, Import("shutil")) == "import tempfile\nimport os\nimport shutil\n\nx = 1\n"


def test_a_module_without_imports_gets_them_after_the_docstring() -> None:
    source = '"""Doc."""\n\ndef f():\n    pass\n'
    assert _add(source, Import("shutil")) == '"""Doc."""\n\nimport shutil\n\n\ndef f():\n    pass\n'


def test_a_leading_comment_stays_on_top() -> None:
    source = "#!/usr/bin/env python3\nx = 1\n"
    assert _add(source, Import("os")) == "#!/usr/bin/env python3\nimport os\n\nx = 1\n"


def test_a_from_import_of_the_same_module_is_extended() -> None:
    source = "from os import path, replace\n"
    assert _add(source, Import("os", "makedirs")) == "from os import makedirs, path, replace\n"


@pytest.mark.parametrize(
    "existing",
    ["import os.path\n", "import os\n", "if x:\n    pass\n\nimport os\n", "import sys, os\n"],
    ids=["os.path binds os", "plain", "after an if block", "in a list"],
)
def test_an_existing_binding_is_reused(existing: str) -> None:
    assert _add(existing, Import("os")) == existing


def test_an_import_under_a_condition_does_not_count() -> None:
    source = "try:\n    import os\nexcept ImportError:\n    pass\n"
    assert _add(source, Import("os")) == "import os\n\ntry:\n    import os\nexcept ImportError:\n    pass\n"


def test_nothing_is_imported_twice() -> None:
    assert _add("x = 1\n", Import("shutil"), Import("shutil")) == "import shutil\n\nx = 1\n"


def test_sections_follow_the_project_root(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'mine'\n")
    (tmp_path / "src" / "mine").mkdir(parents=True)
    inside = str(tmp_path / "src" / "mine" / "mod.py")
    from xdevlint.fixes.imports import project_root

    root = project_root(inside)
    assert root == str(tmp_path)
    assert section_of("mine.io", 0, root) == FIRST_PARTY
    assert section_of("numpy", 0, root) == THIRD_PARTY
    assert section_of("os.path", 0, root) == STDLIB


def test_header_edits_reproduce_the_change() -> None:
    before = cst.parse_module('"""Doc."""\nimport os\nimport tempfile\n\nx = 1\n')
    after = add_imports(before, [Import("shutil")], None)
    (edit,) = header_edits(before, after)
    assert _apply(before.code, (edit,)) == after.code
    assert edit.span.line == 3 and edit.span.line == edit.span.end_line  # an insertion, no more


# -- imports a fix leaves unused ---------------------------------------------------------

_UNUSED_OS = """\
import os
import tempfile

from storage.layout import shard_path


def commit_shard(shard_id, payload):
    with tempfile.NamedTemporaryFile(delete=False) as f:
        f.write(payload)
    os.replace(f.name, shard_path(shard_id))
"""
_CONFIG = replace(Config(), select=("XDV102",))


def test_an_import_the_fix_left_unused_is_removed(tmp_path: Path) -> None:
    fixed = fix_source(_UNUSED_OS.encode(), str(tmp_path / "mod.py"), _CONFIG, unsafe=True)
    assert "shutil.move(" in fixed.fixed.decode()
    assert "import os\n" not in fixed.fixed.decode()
    assert fixed.fixed.decode().startswith("import shutil\nimport tempfile\n\nfrom storage.layout import shard_path\n")


def test_an_import_still_used_elsewhere_stays(tmp_path: Path) -> None:
    source = _UNUSED_OS + "\n\nSEP = os.sep\n"
    fixed = fix_source(source.encode(), str(tmp_path / "mod.py"), _CONFIG, unsafe=True)
    assert fixed.fixed.decode().startswith("import os\nimport shutil\nimport tempfile\n")


def test_a_package_init_keeps_its_imports(tmp_path: Path) -> None:
    """``__init__.py`` re-exports what it imports: an unused-looking import is an API."""
    path = tmp_path / "__init__.py"
    fixed = fix_source(_UNUSED_OS.encode(), str(path), _CONFIG, unsafe=True)
    assert "shutil.move(" in fixed.fixed.decode() and "import os\n" in fixed.fixed.decode()


# -- every fixture ------------------------------------------------------------------------

_FIXED = sorted(p for p in FIXTURES.rglob("*.fixed.py"))


def _ruff() -> str:
    found = shutil.which("ruff", path=os.path.dirname(sys.executable)) or shutil.which("ruff")
    assert found, "ruff is a test dependency (pyproject [test] extra)"
    return found


def _ruff_problems(directory: Path) -> List[str]:
    run = subprocess.run(
        [_ruff(), "check", "--isolated", "--no-cache", "--select", "I001,F401,F811", "--output-format", "concise", "."],
        cwd=directory,
        capture_output=True,
        text=True,
    )
    assert run.returncode in (0, 1), run.stderr
    return sorted(line for line in run.stdout.splitlines() if ": " in line and line.split(":")[0].endswith(".py"))


def test_fixed_fixtures_pass_isort_and_unused_import_checks(tmp_path: Path) -> None:
    """Copied out of the repository, so ruff classifies ``xdevlint`` as third-party as it
    would in a user's project; originals are checked too, so a fixture that was already
    unsorted could not hide behind its fix."""
    original, fixed = tmp_path / "original", tmp_path / "fixed"
    original.mkdir()
    fixed.mkdir()
    for path in _FIXED:
        name = "_".join(path.relative_to(FIXTURES).parts)
        source = Path(str(path).replace(".unsafe.fixed.py", ".py").replace(".fixed.py", ".py"))
        if b"coding: latin" in path.read_bytes()[:80]:
            continue  # ruff reads UTF-8 only
        shutil.copy(source, original / name)
        shutil.copy(path, fixed / name)
    assert len(list(fixed.iterdir())) >= 50
    assert _ruff_problems(original) == []
    assert _ruff_problems(fixed) == []


def _apply(text: str, edits: Tuple[Edit, ...]) -> str:
    """A plain text editor's routine: replace each span, last first."""
    lines = text.splitlines(keepends=True)

    def offset(line: int, column: int) -> int:
        return sum(len(t) for t in lines[: line - 1]) + column - 1

    for edit in sorted(edits, key=lambda e: (e.span.line, e.span.column), reverse=True):
        start, end = offset(edit.span.line, edit.span.column), offset(edit.span.end_line, edit.span.end_column)
        text = text[:start] + edit.content + text[end:]
    return text


_FIXABLE = [p for p in case_files() if any(expected_output(p, s).exists() for s in (".fixed.py", ".unsafe.fixed.py"))]


@pytest.mark.parametrize("path", _FIXABLE, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_reported_edits_are_the_whole_fix(path: Path) -> None:
    """Each fix's reported edits (imports included), applied as plain text, give exactly
    what the fixer makes of that fix alone; and where ``--fix`` applies one fix, they give
    ``--fix``'s bytes."""
    config = fixture_config(path)
    data = path.read_bytes()
    result, module = _lint_bytes(data, str(path), config, None, True, True, True, whole=True)
    assert module is not None
    fixes = [f.fix for f in result.findings if f.fix is not None and f.fix.edits]
    assert fixes
    for fix in fixes:
        # a fix made of text edits alone (XDV001's) the fixer applies as text, without the tree
        made = fixer.apply(module, [fix], str(path)) if fix.replacements else fixer.apply_text(data, fix.edits)
        assert _apply(module.code, fix.all_edits).encode(module.encoding) == made
    for unsafe, levels in ((False, {Applicability.SAFE}), (True, {Applicability.SAFE, Applicability.UNSAFE})):
        chosen = [fix for fix in fixes if fix.applicability in levels]
        fixed = fix_source(data, str(path), config, unsafe=unsafe)
        if len(chosen) == 1 and len(fixed.applied) == 1:
            assert _apply(module.code, chosen[0].all_edits).encode(module.encoding) == fixed.fixed


def test_edits_of_an_insertion_are_whole_lines() -> None:
    path = (FIXTURES / "XDV102" / "two_findings_one_line.py").resolve()
    findings = lint_source(path.read_bytes(), str(path), fixture_config(path)).findings
    fix = findings[0].fix
    assert fix is not None
    (header,) = fix.header
    assert header.content == "import shutil\n" and header.span.column == header.span.end_column == 1


def test_json_output_carries_the_import_edit(tmp_path: Path) -> None:
    """What an editor or a review bot reads: the edit that adds ``import shutil`` is there."""
    path = tmp_path / "mod.py"
    path.write_text(_UNUSED_OS)
    run = subprocess.run(
        [sys.executable, "-m", "xdevlint", "--select", "XDV102", "--format", "json", str(path)],
        capture_output=True,
        text=True,
    )
    (finding,) = json.loads(run.stdout)
    contents = [edit["content"] for edit in finding["fix"]["edits"]]
    assert "import shutil\n" in contents and "shutil.move" in contents
    # ``import os``, left unused by the rewrite, is replaced in the same line edit
    (imports,) = [edit for edit in finding["fix"]["edits"] if edit["content"] == "import shutil\n"]
    assert (imports["location"], imports["end_location"]) == ({"line": 1, "column": 1}, {"line": 2, "column": 1})
