"""Fixes preserve meaning outside what they touch, on fixtures and on generated code.

1. For every fix of every fixture, applied alone: the ``ast.dump`` of the fixed module
   equals the original's except in statements that the fix's edits touch (black's AST
   check, but local: a fix that also changed an unrelated statement fails).
2. Property tests: programs from ``hypothesmith`` (random grammar and random CST) and
   programs composed from the fixtures' building blocks (temp creations, path arithmetic,
   moves, try/except shapes). Checking never raises or reports an internal error; and
   ``--fix --unsafe-fixes`` output parses, compiles, is a fixed point, and holds no
   finding the original did not (per code, a sub-multiset).

The suite runs a bounded profile (300 grammar programs, 150 composed, 50 random CSTs);
``XDEVLINT_PROPERTY_EXAMPLES=5000 pytest tests/test_fix_properties.py`` runs a larger one.
"""

from __future__ import annotations

import ast
import difflib
import os
import warnings
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import List, Sequence, Tuple

import hypothesmith
import libcst as cst
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from xdevlint.config import Config
from xdevlint.engine import _lint_bytes, fix_source, lint_source
from xdevlint.fixes import apply as fixer
from xdevlint.model import ANALYSIS_ERROR_CODE, Edit, Span
from tests.fixture_cases import FIXTURES, case_files, fixture_config

#: The bounded profile: examples per property test, scaled by XDEVLINT_PROPERTY_EXAMPLES
#: (300 is the default scale; a larger one, e.g. 5000, is the documented long run). Random
#: CST programs are the slowest to generate and rarely reach a rule, so they get a sixth;
#: composed programs reach every rule and cost most to fix, so they get half.
SCALE = int(os.environ.get("XDEVLINT_PROPERTY_EXAMPLES", "300"))


def _settings(examples: int) -> settings:
    return settings(
        max_examples=max(1, examples),
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
    )

_ALL = replace(Config(), select=("XDV",))

Lines = List[Tuple[int, int]]


# -- 1. the AST check, per fix, on every fixture ---------------------------------------------


def _new_ranges(edits: Sequence[Edit]) -> Lines:
    """The line ranges the edits' contents occupy in the edited text."""
    ranges, delta = [], 0
    for edit in sorted(edits, key=lambda e: (e.span.line, e.span.column)):
        added = edit.content.count("\n")
        start = edit.span.line + delta
        whole_lines = edit.content.endswith("\n") and edit.span.column == 1
        ranges.append((start, max(start, start + added - (1 if whole_lines else 0))))
        delta += added - (edit.span.end_line - edit.span.line)
    return ranges


def _old_ranges(edits: Sequence[Edit]) -> Lines:
    """The lines each edit replaces; an end at column 1 stops before that line."""
    return [(e.span.line, max(e.span.line, e.span.end_line - (e.span.end_column == 1))) for e in edits]


def _touches(node: ast.stmt, ranges: Lines) -> bool:
    end = node.end_lineno or node.lineno
    start = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
    return any(first <= end and start <= last for first, last in ranges)


_BODIES = ("body", "orelse", "finalbody", "handlers")


def _differences(old: Sequence[ast.AST], new: Sequence[ast.AST], old_ranges: Lines, new_ranges: Lines) -> List[str]:
    """Statements that differ although no edit touches them."""
    problems: List[str] = []
    dumps_old, dumps_new = [ast.dump(n) for n in old], [ast.dump(n) for n in new]
    matcher = difflib.SequenceMatcher(a=dumps_old, b=dumps_new, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        pairs = list(zip(old[i1:i2], new[j1:j2])) if tag == "replace" and i2 - i1 == j2 - j1 else []
        if pairs and all(type(a) is type(b) for a, b in pairs):
            for a, b in pairs:
                problems.extend(_compare_compound(a, b, old_ranges, new_ranges))
            continue
        for node in old[i1:i2]:
            if isinstance(node, ast.stmt) and not _touches(node, old_ranges):
                problems.append(f"original line {node.lineno} changed: {ast.unparse(node)[:60]}")
        for node in new[j1:j2]:
            if isinstance(node, ast.stmt) and not _touches(node, new_ranges):
                problems.append(f"fixed line {node.lineno} appeared: {ast.unparse(node)[:60]}")
    return problems


def _compare_compound(a: ast.AST, b: ast.AST, old_ranges: Lines, new_ranges: Lines) -> List[str]:
    """Two statements of one kind: equal apart from their bodies, whose statements recurse."""
    heads_equal = all(
        ast.dump(getattr(a, name)) == ast.dump(getattr(b, name))
        if isinstance(getattr(a, name), ast.AST)
        else [ast.dump(x) if isinstance(x, ast.AST) else x for x in getattr(a, name)]
        == [ast.dump(x) if isinstance(x, ast.AST) else x for x in getattr(b, name)]
        if isinstance(getattr(a, name), list)
        else getattr(a, name) == getattr(b, name)
        for name in a._fields
        if name not in _BODIES
    )
    if not heads_equal:
        touched = isinstance(a, ast.stmt) and _touches(a, old_ranges) and isinstance(b, ast.stmt) and _touches(b, new_ranges)
        if isinstance(a, ast.ExceptHandler):
            touched = any(f <= (a.end_lineno or a.lineno) and a.lineno <= l for f, l in old_ranges)
        return [] if touched else [f"line {getattr(a, 'lineno', '?')} changed outside the fix: {ast.dump(a)[:80]}"]
    problems: List[str] = []
    for name in _BODIES:
        if hasattr(a, name):
            problems.extend(_differences(getattr(a, name), getattr(b, name), old_ranges, new_ranges))
    return problems


_FIXABLE = [p for p in case_files() if any(f.fix is not None for f in lint_source(p.read_bytes(), str(p), fixture_config(p)).findings)]


@pytest.mark.parametrize("path", _FIXABLE, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_each_fix_changes_only_what_it_touches(path: Path) -> None:
    data = path.read_bytes()
    result, module = _lint_bytes(data, str(path), fixture_config(path), None, True, True, True, whole=True)
    assert module is not None
    original = ast.parse(data)
    for finding in result.findings:
        if finding.fix is None or not finding.fix.edits:
            continue
        fixed = ast.parse(fixer.apply(module, [finding.fix], str(path)))
        edits = finding.fix.all_edits
        problems = _differences(original.body, fixed.body, _old_ranges(edits), _new_ranges(edits))
        assert problems == [], f"{finding.code} at line {finding.line}: {problems}"


def _original_lines(before: bytes, after: bytes) -> List[Tuple[int, int]]:
    """For each line of ``after`` (1-based, index 0 unused), the range of lines of
    ``before`` it comes from: itself where the fix left it, the lines a changed run
    replaced (or the lines beside an insertion) otherwise."""
    old, new = before.decode("utf-8", "replace").splitlines(), after.decode("utf-8", "replace").splitlines()
    ranges: List[Tuple[int, int]] = [(0, 0)] * (len(new) + 1)
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        for j in range(j1, j2):
            if tag == "equal":
                ranges[j + 1] = (i1 + (j - j1) + 1,) * 2
            elif i2 > i1:  # replaced: the lines it replaced
                ranges[j + 1] = (i1 + 1, i2)
            else:  # inserted: the lines on either side
                ranges[j + 1] = (max(i1, 1), i1 + 1)
    return ranges


@pytest.mark.parametrize("path", _FIXABLE, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_fixing_a_fixture_creates_no_finding(path: Path) -> None:
    """After ``--fix --unsafe-fixes`` with every rule on, re-checking finds a subset of the
    original findings, per code and line (a line the fix changed or moved is traced back
    to the lines it came from): one rule's fix must not trip another, nor leave a finding
    somewhere new."""
    config = replace(fixture_config(path), select=("XDV",))
    data = path.read_bytes()
    before = Counter((f.code, f.line) for f in lint_source(data, str(path), config).findings)
    fixed = fix_source(data, str(path), config, unsafe=True)
    origin = _original_lines(data, fixed.fixed)
    created = []
    for finding in sorted(lint_source(fixed.fixed, str(path), config).findings):
        low, high = origin[finding.line]
        match = next(((code, line) for code, line in sorted(before) if code == finding.code and low <= line <= high and before[(code, line)]), None)
        if match is None:
            created.append(f"{finding.code} at fixed line {finding.line} (original lines {low}-{high})")
        else:
            before[match] -= 1
    assert not created, f"fixing created {created}"


def test_the_no_new_finding_check_covers_the_new_shapes() -> None:
    """The fixtures of the destination named once and of the extended ``try`` are checked."""
    names = {p.name for p in _FIXABLE}
    assert {"dir_destination_named_once.py", "existing_try_is_extended.py"} <= names


def test_the_line_tracing_follows_moved_and_changed_lines() -> None:
    before = b"a\nb\nc\n"
    after = b"x\na\nb2\nc\n"
    assert _original_lines(before, after)[1:] == [(1, 1), (1, 1), (2, 2), (3, 3)]
    assert _original_lines(b"a\nb\n", b"a\nnew\nb\n")[1:] == [(1, 1), (1, 2), (2, 2)]


def test_the_ast_check_catches_an_unrelated_change() -> None:
    """The check itself: a change no edit covers is reported."""
    old = ast.parse("import os\n\nx = 1\ny = 2\n")
    new = ast.parse("import os\n\nx = 1\ny = 3\n")
    edits = (Edit(Span(3, 1, 4, 1), "x = 1\n"),)
    assert _differences(old.body, new.body, _old_ranges(edits), _new_ranges(edits))
    assert not _differences(old.body, new.body, [(4, 4)], [(4, 4)])


# -- 2. properties -------------------------------------------------------------------------


def _check_properties(source: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)  # generated code is odd, not wrong
        _check(source)


def _check(source: str) -> None:
    data = source.encode("utf-8")
    before = lint_source(data, "generated.py", _ALL)
    internal = [f for f in before.findings if f.code == ANALYSIS_ERROR_CODE and "internal error" in f.message]
    assert internal == [], internal
    result = fix_source(data, "generated.py", _ALL, unsafe=True)
    assert result.error is None, result.error
    if not result.changed:
        return
    compile(result.fixed, "generated.py", "exec", dont_inherit=True)
    cst.parse_module(result.fixed)
    again = fix_source(result.fixed, "generated.py", _ALL, unsafe=True)
    assert again.fixed == result.fixed, "fixing the fixed code changed it again"
    after = lint_source(result.fixed, "generated.py", _ALL)
    old_codes = Counter(f.code for f in before.findings)
    new_codes = Counter(f.code for f in after.findings)
    assert not new_codes - old_codes, f"the fix created {dict(new_codes - old_codes)}:\n{result.fixed.decode()}"


def _compiles(source: str) -> bool:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)
        try:
            compile(source, "generated.py", "exec", dont_inherit=True)
        except (SyntaxError, ValueError):
            return False
    return True


@pytest.mark.filterwarnings("ignore::SyntaxWarning")  # hypothesmith compiles its candidates ("<string>"): not our warnings
@_settings(SCALE)
@given(hypothesmith.from_grammar().filter(_compiles))
def test_random_grammar_programs(source: str) -> None:
    _check_properties(source)


@pytest.mark.filterwarnings("ignore::SyntaxWarning")  # hypothesmith compiles its candidates ("<string>"): not our warnings
@_settings(SCALE // 6)
@given(hypothesmith.from_node())
def test_random_cst_programs(source: str) -> None:
    if _compiles(source):
        _check_properties(source)


_CREATIONS = [
    ("fd, {t} = tempfile.mkstemp()", "os.close(fd)"),
    ("{t} = tempfile.mkdtemp()", None),
    ("{t} = tempfile.mktemp()", None),
    ("{t} = tempfile.NamedTemporaryFile(delete=False).name", None),
    ("{t} = os.path.join(tempfile.gettempdir(), name)", None),
    ("{t} = Path(tempfile.mkdtemp()) / name", None),
    ('{t} = f"/tmp/{{name}}"', None),
    ("fd, {t} = tempfile.mkstemp(dir=cache_dir)", "os.close(fd)"),
]
_DESTINATIONS = [
    "os.path.join(cache_dir, name)",
    'os.path.join(os.environ["HF_HOME"], name)',
    "dst",
    'Path(cache_dir) / "x"',
    'os.path.join(os.path.expanduser("~/.cache/app"), name)',
    "{t} + '.done'",
]
_MOVES = ["os.rename({s}, {d})", "os.replace({s}, {d})", "shutil.move({s}, {d})", "Path({s}).rename({d})", "os.renames({s}, {d})"]
_SHAPES = [
    "{create}\n{use}\n{move}\n",
    "{create}\ntry:\n    {use}\n    {move}\nexcept OSError:\n    pass\n",
    "{create}\ntry:\n    {use}\n    {move}\nexcept OSError:\n    log.debug('failed')\n    return False\n",
    "{create}\ntry:\n    {use}\n    {move}\nfinally:\n    if os.path.exists({t}):\n        os.remove({t})\n",
    "{create}\ntry:\n    {use}\n    {move}\nexcept Exception:\n    os.remove({t})\n    raise\n",
    "{create}\nfor i in range(3):\n    {use}\n    try:\n        {move}\n    except OSError:\n        continue\n",
    "with tempfile.TemporaryDirectory() as {t}:\n    {use}\n    {move}\n",
    "{create}\nif flag:\n    {move}\nelse:\n    {use}\n",
]


@st.composite
def _building_blocks(draw: st.DrawFn) -> str:
    functions = []
    for index in range(draw(st.integers(1, 3))):
        t = draw(st.sampled_from(["tmp", "staged", "path"]))
        create, close = draw(st.sampled_from(_CREATIONS))
        destination = draw(st.sampled_from(_DESTINATIONS)).format(t=t)
        move = draw(st.sampled_from(_MOVES)).format(s=t, d=destination)
        use = close or f"write({t})"
        shape = draw(st.sampled_from(_SHAPES))
        body = shape.format(create=create.format(t=t), use=use, move=move, t=t)
        if "with tempfile.TemporaryDirectory" in shape:
            body = shape.format(create="", use=f"write({t})", move=move, t=t)
        indented = "".join(f"    {line}\n" if line else "\n" for line in body.splitlines())
        decorator = draw(st.sampled_from(["", "@staticmethod\n"]))
        if decorator:
            functions.append(f"class Holder{index}:\n    @staticmethod\n    def f{index}(cache_dir, name, dst, flag):\n" + "".join(f"    {line}\n" for line in indented.splitlines()))
        else:
            functions.append(f"def f{index}(cache_dir, name, dst, flag):\n{indented}")
    header = draw(st.sampled_from(["", '"""A module."""\n', "from __future__ import annotations\n"]))
    imports = "import logging\nimport os\nimport shutil\nimport tempfile\nfrom pathlib import Path\n"
    return header + imports + "\nlog = logging.getLogger(__name__)\n\n\n" + "\n\n".join(functions)


@_settings(SCALE // 2)
@given(_building_blocks())
def test_composed_programs(source: str) -> None:
    assert _compiles(source), source
    _check_properties(source)
