"""A verdict depends only on what reaches the function: every fixture, wrapped in
unrelated imports, classes and functions (before and after it, one of which makes and
removes a temp, one hands a temp back, one moves a file beside its destination), yields
the same findings as alone, at the same places relative to its own lines.

The wrapping code is chosen to wake every rule's cheap scan (a temp the scan cannot
judge, a move), so a file the scan skipped alone is parsed wrapped; and to be long
enough that the focus (``stages/focus.py``) drops some of it. Its names are its own
(``_locality_*``), so nothing in a fixture can mean them, but for the locals of one
function, which spell the fixtures' own partial factories (``make_staged``): a name
bound in another function is not the one a call sees.
"""

from __future__ import annotations

import ast
import tokenize
from dataclasses import replace
from io import BytesIO
from pathlib import Path
from typing import List, Set, Tuple

import pytest

from xdevlint.config import Config
from xdevlint.engine import lint_source
from tests.fixture_cases import FIXTURES, case_files, expected_findings, selection_for

CASES = case_files()

BEFORE = '''
import itertools
import json
import logging
import os as _locality_os
import shutil as _locality_shutil
import tempfile as _locality_tempfile
from collections import OrderedDict as _LocalityOrderedDict
from functools import partial as _locality_partial

_locality_log = logging.getLogger(__name__)
_LOCALITY_SPOOL = _locality_partial(_locality_tempfile.NamedTemporaryFile, delete=False)


class _LocalityRecord:
    """A record with a name, a cache and a scratch file of its own."""

    def __init__(self, name):
        self.name = name
        self.cache = _LocalityOrderedDict()
        self.tmp = _locality_tempfile.mkdtemp()

    def dump(self):
        return json.dumps({"name": self.name, "size": len(self.cache)})

    def close(self):
        _locality_shutil.rmtree(self.tmp, ignore_errors=True)


def _locality_scratch(data):
    fd, scratch = _locality_tempfile.mkstemp()
    try:
        with _locality_os.fdopen(fd, "wb") as handle:
            handle.write(data)
        return len(data)
    finally:
        _locality_os.unlink(scratch)


def _locality_local_factories(data):
    # The names the fixtures give their own partial factories, bound here to others.
    make_staged = _locality_partial(_locality_tempfile.mkstemp, suffix=".spool")
    staged_file = _locality_partial(_locality_tempfile.mkdtemp, suffix=".unused")
    fd, name = make_staged()
    try:
        return _locality_os.write(fd, data) + len(staged_file.args)
    finally:
        _locality_os.close(fd)
        _locality_os.unlink(name)


def _locality_spooled(data):
    f = _LOCALITY_SPOOL()
    name = f.name
    try:
        f.write(data)
        f.close()
        return _locality_os.path.getsize(name)
    finally:
        _locality_os.remove(name)

'''

AFTER = '''


def _locality_workdir():
    return _locality_tempfile.mkdtemp()


def _locality_tidy(path):
    _locality_shutil.rmtree(path, ignore_errors=True)


def _locality_save(text, cache_dir, name):
    destination = _locality_os.path.join(cache_dir, name)
    staged = destination + ".part"
    with open(staged, "w") as handle:
        handle.write(text)
    try:
        _locality_os.replace(staged, destination)
    except OSError as error:
        _locality_log.warning("could not save %s: %s", destination, error)
        _locality_os.unlink(staged)
        return False
    return True


def _locality_report(items):
    lines = []
    for first, second in itertools.pairwise(sorted(items)):
        if not first or not second:
            continue
        lines.append("%s -> %s: %d" % (first, second, len(second) - len(first)))
    lines.sort()
    return "\\n".join(lines)
'''


def _insertion_line(data: bytes) -> int:
    """The number of leading lines that must stay first: a shebang or coding cookie,
    the module docstring and ``from __future__`` imports."""
    encoding, _ = tokenize.detect_encoding(BytesIO(data).readline)
    text = data.decode(encoding)
    lines = text.splitlines(keepends=True)
    after = 0
    for number, line in enumerate(lines[:2]):
        if not line.startswith("#"):
            break
        after = number + 1
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return after
    for position, statement in enumerate(tree.body):
        docstring = position == 0 and isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant)
        if not docstring and not (isinstance(statement, ast.ImportFrom) and statement.module == "__future__"):
            break
        after = max(after, statement.end_lineno or after)
    return after


def wrapped(data: bytes) -> Tuple[bytes, int, int]:
    """``data`` with the unrelated code around it (in its own line endings), the line
    after which the code before it went in, and how many lines that is."""
    newline = b"\r\n" if b"\r\n" in data else b"\n"
    at = _insertion_line(data)
    lines = data.splitlines(keepends=True)
    before = BEFORE.encode().replace(b"\n", newline)
    body = b"".join(lines[at:])
    if body and not body.endswith((b"\n", b"\r")):
        body += newline
    return b"".join(lines[:at]) + before + body + AFTER.encode().replace(b"\n", newline), at, before.count(newline)


def _findings(data: bytes, path: Path, edits: bool) -> Set[Tuple[int, int, str]]:
    config = replace(Config(root=FIXTURES), select=selection_for(path))
    return {(f.span.line, f.span.column, f.code) for f in lint_source(data, str(path), config, edits=edits).findings}


def test_the_wrapping_code_reports_nothing_and_wakes_every_scan(tmp_path: Path) -> None:
    """The unrelated code flags nothing itself, under every rule, with or without the scan;
    and it keeps a file for every rule's scan, so the fixtures it wraps are all analysed."""
    path = tmp_path / "unrelated.py"
    source = (BEFORE + AFTER).encode()
    config = replace(Config(root=tmp_path), select=("ALL",))
    for prescan in (True, False):
        assert lint_source(source, str(path), config, prescan=prescan).findings == ()
    from xdevlint.registry import SPECS
    from xdevlint.stages.scan import Scan

    scan = Scan(source.decode())
    assert all(spec.gate(scan, config.locations) for spec in SPECS)


@pytest.mark.parametrize("edits", [False, True], ids=["check", "edits"])
@pytest.mark.parametrize("path", CASES, ids=[str(p.relative_to(FIXTURES)) for p in CASES])
def test_unrelated_code_changes_no_finding(path: Path, edits: bool) -> None:
    data, at, shift = wrapped(path.read_bytes())
    found: List[Tuple[int, int, str]] = []
    for line, column, code in _findings(data, path, edits):
        if at < line <= at + shift or line > at + shift + len(path.read_bytes().splitlines()):
            pytest.fail(f"the unrelated code got a finding: {code} at {line}:{column}")
        found.append((line - shift if line > at else line, column, code))
    assert sorted(found) == sorted(expected_findings(path))
