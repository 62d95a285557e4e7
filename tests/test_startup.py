"""Start-up: what a run imports. libcst (0.3 s of imports) only for files a rule's scan keeps;
the fixer only when fixing; a reporter only for its format; tqdm only for a long run."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import List

import pytest

from tests.process import REPO
from tests.test_cache import BAD, CLEAN

PROBE = """
import json, sys
from xdevlint.frontends.cli import main
try:
    code = main(sys.argv[1:])
except SystemExit as exit:
    code = exit.code
heavy = ("libcst", "xdevlint.analyser", "xdevlint.fixes.apply", "xdevlint.frontends.report.sarif",
         "xdevlint.frontends.report.json", "tqdm", "multiprocessing", "xdevlint.rules.rule")
print(json.dumps({"code": code, "loaded": sorted(m for m in heavy if m in sys.modules)}), file=sys.stderr)
"""


def loaded(*args: str, cwd: Path) -> List[str]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *args], cwd=cwd, capture_output=True, text=True, env={"PYTHONPATH": str(REPO), "PATH": ""}
    )
    last = done.stderr.strip().splitlines()[-1]
    modules: List[str] = json.loads(last)["loaded"]
    return modules


@pytest.fixture
def clean(tmp_path: Path) -> Path:
    """Five files that no rule's scan keeps, though they spell rename, replace and tempfile."""
    texts = [
        CLEAN,
        "import tempfile\n\nwith tempfile.TemporaryDirectory() as d:\n    print(d)\n",
        "def rename(self, old, new):\n    self.names[new] = self.names.pop(old)\n",
        "import os\n\nos.makedirs('x', exist_ok=True)\n",
        "text = 'a'.replace('a', 'b')\n",
    ]
    for index, text in enumerate(texts):
        (tmp_path / f"c{index}.py").write_text(text)
    return tmp_path


def test_version_imports_nothing_heavy(tmp_path: Path) -> None:
    assert loaded("--version", cwd=tmp_path) == []


def test_clean_files_import_no_libcst(clean: Path) -> None:
    assert loaded("--no-cache", "c0.py", "c1.py", "c2.py", "c3.py", "c4.py", cwd=clean) == []
    assert loaded("--no-cache", "--format", "json", ".", cwd=clean) == ["xdevlint.frontends.report.json"]
    assert loaded("--no-cache", "--fix", ".", cwd=clean) == []


def test_a_file_the_scan_keeps_imports_libcst(clean: Path) -> None:
    """The other side of the two tests above: they can fail."""
    (clean / "bad.py").write_text(BAD)
    found = loaded("--no-cache", ".", cwd=clean)
    assert {"libcst", "xdevlint.analyser", "xdevlint.rules.rule"} <= set(found)
    assert "xdevlint.fixes.apply" not in found  # text output shows a fix's title, not its edits


def test_a_warm_cache_imports_no_libcst(clean: Path) -> None:
    (clean / "bad.py").write_text(BAD)
    assert "libcst" in loaded(".", cwd=clean)
    assert loaded(".", cwd=clean) == []


def test_rule_doc_imports_only_its_rule(tmp_path: Path) -> None:
    probe = (
        "import sys; from xdevlint.frontends.cli import main; main(['rule', 'XDV202']);"
        "print(sorted(m for m in sys.modules if m.startswith('xdevlint.rules.xdv')), file=sys.stderr)"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=tmp_path, capture_output=True, text=True, env={"PYTHONPATH": str(REPO), "PATH": ""}
    )
    assert done.stdout.startswith("# swallowed-move-error (XDV202)")
    assert done.stderr.strip().splitlines()[-1] == "['xdevlint.rules.xdv202_swallowed_move_error']"
