"""XDV201/XDV202/XDV203 as rules: their documentation examples, registration and the cheap scan."""

from __future__ import annotations

from dataclasses import replace

import pytest

from xdevlint import registry
from xdevlint.config import Config
from xdevlint.engine import lint_source
from xdevlint.rules.rule import code_blocks
from xdevlint.rules.xdv201_temp_not_cleaned_on_error import TempNotCleanedOnError
from xdevlint.rules.xdv202_swallowed_move_error import SwallowedMoveError
from xdevlint.rules.xdv203_temp_never_removed import TempNeverRemoved
from xdevlint.stages.scan import Scan

RULES = (TempNotCleanedOnError, SwallowedMoveError, TempNeverRemoved)


def codes(source: str, rule: type) -> list:
    config = replace(Config(root="/"), select=(rule.CODE,))
    return [f.code for f in lint_source(source.encode(), "example.py", config).findings]


@pytest.mark.parametrize("rule", RULES, ids=[r.CODE for r in RULES])
def test_documentation(rule: type) -> None:
    doc = rule.documentation()
    assert list(doc) == ["What it does", "Why is this bad?", "Example", "Use instead", "Fix safety", "Options"]
    (example,) = code_blocks(doc["Example"])
    assert codes(example, rule) == [rule.CODE]
    for block in code_blocks(doc["Use instead"]):
        assert codes(block, rule) == []


def test_registered() -> None:
    assert registry.by_code("XDV201") is TempNotCleanedOnError
    assert registry.by_code("XDV202") is SwallowedMoveError
    assert registry.by_code("XDV203") is TempNeverRemoved
    assert set(registry.select(["XDV2"], [])) == set(RULES)


def test_cheap_scan_rules_out_unrelated_files() -> None:
    from xdevlint.analysis.locations import DEFAULT

    plain = Scan("def f(s):\n    try:\n        return s.replace('a', 'b')\n    except ValueError:\n        pass\n")
    assert not TempNotCleanedOnError.may_apply(plain, DEFAULT)
    assert not SwallowedMoveError.may_apply(plain, DEFAULT)
    aliased = Scan("import shutil as sh\ntry:\n    sh.copy2(a, b)\nexcept OSError:\n    pass\n")
    assert SwallowedMoveError.may_apply(aliased, DEFAULT)
    assert TempNotCleanedOnError.may_apply(Scan("from tempfile import mkdtemp as md\nd = md()\n"), DEFAULT)
    # Stored on the object, or cleaned by its context manager: nothing to track.
    stored = "import tempfile\nself.tmp = tempfile.mkdtemp()\nwith tempfile.TemporaryDirectory() as d:\n    pass\n"
    assert not TempNotCleanedOnError.may_apply(Scan(stored), DEFAULT)
    assert not TempNeverRemoved.may_apply(Scan(stored), DEFAULT)
    # Removed by the function itself, or deleted on close: never kept.
    removed = "import os, tempfile\ndef f():\n    fd, p = tempfile.mkstemp()\n    os.unlink(p)\n    g = tempfile.NamedTemporaryFile()\n"
    assert not TempNeverRemoved.may_apply(Scan(removed), DEFAULT)
    assert TempNeverRemoved.may_apply(Scan("import tempfile\ndef f():\n    d = tempfile.mkdtemp()\n    print(d)\n"), DEFAULT)


def test_per_file_ignores_silence_tests() -> None:
    source = "import os, tempfile\ndef test_x(dst):\n    fd, t = tempfile.mkstemp()\n    os.write(fd, b'x')\n    os.replace(t, dst)\n"
    config = replace(Config(root="/proj"), select=("XDV2",), per_file_ignores=(("tests/*", ("XDV201",)),))
    assert lint_source(source.encode(), "/proj/src/app.py", config).findings
    assert not lint_source(source.encode(), "/proj/tests/test_x.py", config).findings


def test_fixture_balance() -> None:
    from tests.fixture_cases import FIXTURES, case_files, expected_findings

    cases = [p for p in case_files() if p.relative_to(FIXTURES).parts[0] in ("XDV201", "XDV202")]
    flagged = [p for p in cases if expected_findings(p)]
    assert len(cases) >= 40
    assert len(cases) - len(flagged) >= len(flagged)


@pytest.mark.parametrize("code", ["XDV201", "XDV203"])
def test_fixture_balance_per_rule(code: str) -> None:
    """Each temp rule's own fixtures: at least as many must-not-flag as must-flag."""
    from tests.fixture_cases import FIXTURES, case_files, expected_findings

    cases = [p for p in case_files() if p.relative_to(FIXTURES).parts[0] == code]
    flagged = [p for p in cases if any(c == code for _, _, c in expected_findings(p))]
    assert len(flagged) >= 10
    assert len(cases) - len(flagged) >= len(flagged)
