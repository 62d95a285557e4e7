"""The focus: libcst sees only the parts of a kept file that can hold or shape a finding,
and the findings are those of the whole file."""

from __future__ import annotations

import ast
import functools
import sys
import textwrap
from dataclasses import replace
from pathlib import Path
from typing import List, Optional

import pytest

from xdevlint import engine
from xdevlint.config import Config
from xdevlint.engine import lint_source
from xdevlint.model import Span
from xdevlint.stages.source import decode
from xdevlint.stages.focus import NOTHING_HIDDEN, Focus, Lines, Unfocused, focus, prefocus
from xdevlint.stages.scan import Scan
from xdevlint.stages.scan_lifetime import ModuleIndex
from tests.fixture_cases import FIXTURES, case_files, selection_for

CASES = case_files()


def focused(source: str, minimum: float = 0.0) -> Optional[Focus]:
    text = textwrap.dedent(source)
    scan = Scan(text)
    assert scan.index is not None
    return focus(text, scan.index, scan.move_nodes(), minimum)


def kept_lines(source: str) -> List[str]:
    """The non-blank lines the focus keeps."""
    result = focused(source)
    assert result is not None
    return [line.strip() for line in result.text.splitlines() if line.strip()]


def test_an_unrelated_function_is_cut_out_and_its_lines_map_back() -> None:
    source = textwrap.dedent(
        """\
        import os, tempfile

        def unrelated(a, b):
            return a.replace("x", "y") + b

        def publish(dst):
            tmp = tempfile.mkdtemp()
            os.rename(tmp, dst)
        """
    )
    result = focused(source)
    assert result is not None
    assert result.dropped == 2
    lines, original = result.text.splitlines(), source.splitlines()
    # The function and the blank line after it are gone; every kept line maps to its own.
    assert lines == [original[0], original[1], *original[5:]]
    assert result.lines.numbers == [1, 2, 6, 7, 8]
    assert all(original[result.lines.line(n) - 1] == line for n, line in enumerate(lines, 1))
    assert [s.lineno for s in result.tree.body] == [1, 6]  # the file's own lines
    assert result.hidden.bound == {"unrelated"}
    assert result.hidden.reads("a") and not result.hidden.reads("os")
    ast.parse(result.text)


def test_a_helper_a_relevant_function_calls_is_kept_and_so_are_its_callers() -> None:
    kept = kept_lines(
        """
        import os

        def destination(name):
            return os.path.join("/var/cache/app", name)

        def move(src, name):
            os.replace(src, destination(name))

        def caller(path):
            move(path, "x")

        def other():
            return 1
        """
    )
    assert "def destination(name):" in kept
    assert "def caller(path):" in kept
    assert "def other():" not in kept


def test_module_level_aliases_keep_what_they_name_only_once_a_kept_part_reads_them() -> None:
    """A module-level statement that only binds names (``upload = api.upload``) keeps
    what it names when a kept part reads a name it binds; other statements at once."""
    kept = kept_lines(
        """
        import os

        class Api:
            def upload(self, src):
                return self.send(src)

            def send(self, src):
                return src

            def publish(self, src, dst):
                os.replace(src, dst)

        def base():
            return "/var/cache/app"

        def registered(name):
            return name

        def listed():
            return []

        api = Api()
        upload = api.upload
        CACHE = base()
        NAMES = listed()
        registered("x")

        def move(src):
            os.replace(src, os.path.join(CACHE, "x"))
        """
    )
    assert "def upload(self, src):" not in kept and "def send(self, src):" not in kept
    assert "def listed():" not in kept  # ``NAMES`` is read by no kept part
    assert "def base():" in kept  # ``CACHE`` is: what ``base`` returns is part of ``move``'s analysis
    assert "def registered(name):" in kept  # a call at module level: followed at once
    assert "upload = api.upload" in kept and "NAMES = listed()" in kept  # module-level statements stay


def test_a_str_replace_or_dict_copy_is_no_move() -> None:
    kept = kept_lines(
        """
        import os, tempfile

        def text(s, d):
            d = d.copy()
            return s.replace("a", "b")

        def publish(dst):
            os.rename(tempfile.mkdtemp(), dst)
        """
    )
    assert "def text(s, d):" not in kept


def test_methods_that_release_or_set_what_a_relevant_method_holds_are_kept() -> None:
    kept = kept_lines(
        """
        import shutil, tempfile, unittest

        class T(unittest.TestCase):
            def make(self):
                self.tmp = tempfile.mkdtemp()
                self.target = self.base + "/x"

            def configure(self):
                self.base = "/var/cache"

            def release(self):
                shutil.rmtree(self.tmp)

            def test_unrelated(self):
                self.assertEqual(1, 1)

            def tearDown(self):
                pass
        """
    )
    assert "def release(self):" in kept
    assert "def configure(self):" in kept
    assert "def tearDown(self):" in kept  # unittest calls it though no code names it
    assert "def test_unrelated(self):" not in kept


def test_methods_that_release_an_attribute_whose_items_hold_the_temp_are_kept() -> None:
    """``self.pending[tmp] = None``, ``self.files[k] = tmp``, ``self.dirs.append(tmp)``: the
    attribute holds the temp through its items, so a method that names it may release it."""
    kept = kept_lines(
        """
        import os, tempfile

        class Registry:
            def by_key(self):
                fd, name = tempfile.mkstemp()
                self.pending[name] = None

            def by_value(self, key):
                self.files[key] = tempfile.mkdtemp()

            def by_append(self):
                path = tempfile.mkdtemp()
                self.dirs.append(path)

            def cleanup(self):
                for name in list(self.pending.keys()):
                    os.unlink(name)

            def close(self):
                for path in self.files.values():
                    os.rmdir(path)

            def drop(self):
                for path in self.dirs:
                    os.rmdir(path)

            def unrelated(self):
                return self.count + 1
        """
    )
    assert "def cleanup(self):" in kept
    assert "def close(self):" in kept
    assert "def drop(self):" in kept
    assert "def unrelated(self):" not in kept


def test_a_module_level_alias_of_a_move_or_factory_makes_its_users_relevant() -> None:
    kept = kept_lines(
        """
        from os import rename as mv
        from tempfile import mkdtemp as mk

        def uses_mv(a, b):
            mv(a, b)

        def uses_mk():
            return mk()

        def neither():
            return 2
        """
    )
    assert "def uses_mv(a, b):" in kept and "def uses_mk():" in kept
    assert "def neither():" not in kept


def test_a_class_of_methods_keeps_one_so_its_body_still_parses() -> None:
    result = focused(
        """
        import os

        class Holder:
            def a(self):
                return 1

            def b(self):
                return 2

        def move(src, dst):
            os.rename(src, Holder)
        """
    )
    assert result is not None and "def a(self):" in result.text and "def b(self):" not in result.text
    ast.parse(result.text)


def test_a_global_statement_keeps_its_function() -> None:
    kept = kept_lines(
        """
        import os
        CACHE = None

        def configure():
            global CACHE
            CACHE = "/var/cache"

        def move(src):
            os.rename(src, CACHE)

        def other():
            return 3
        """
    )
    assert "def configure():" in kept and "def other():" not in kept


def test_nothing_to_drop_or_too_little_gives_no_focus() -> None:
    assert focused("import os\nos.rename('/tmp/a', '/var/cache/a')\n") is None
    source = """
        import os

        def move(src, dst):
            os.rename(src, dst)
            os.rename(src, dst)
            os.rename(src, dst)

        def other():
            return 3
        """
    assert focused(source, minimum=0.5) is None
    assert focused(source, minimum=0.0) is not None


def test_crlf_line_endings_survive_the_cut() -> None:
    source = "import os\r\n\r\ndef other():\r\n    return 1\r\n\r\ndef move(a):\r\n    os.rename(a, '/var/cache/x')\r\n"
    scan = Scan(source)
    assert scan.index is not None
    result = focus(source, scan.index, scan.move_nodes(), 0.0)
    assert result is not None
    assert result.text == "import os\r\n\r\ndef move(a):\r\n    os.rename(a, '/var/cache/x')\r\n"
    assert result.lines.numbers == [1, 2, 6, 7]


def _whole(text: str, index: ModuleIndex, moves: object) -> None:
    return None


def _report(data: bytes, path: Path, config: Config, edits: bool) -> list:
    result = lint_source(data, str(path), config, edits=edits)
    return [(f.span, f.code, f.message, f.fix and (f.fix.applicability, f.fix.message, f.fix.edits, f.fix.header)) for f in result.findings]


@pytest.mark.parametrize("path", CASES, ids=[str(p.relative_to(FIXTURES)) for p in CASES])
def test_every_fixture_has_the_same_findings_and_fixes_cut_as_whole(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Forced to cut whatever they can, the prefocus (by text, before any parse: large
    files only) and the focus (by the AST): on every fixture, the same findings, and the
    same fixes to the byte (their textual edits, imports included), as the whole file
    (``bench/focus_audit.py`` does this on the ecosystem corpus and the stdlib)."""
    config = replace(Config(root=FIXTURES), select=selection_for(path))
    data = path.read_bytes()
    for edits in (False, True):
        monkeypatch.setattr(engine, "focus", functools.partial(focus, minimum=0.0))
        monkeypatch.setattr(engine, "LARGE", 0)
        cut = _report(data, path, config, edits)
        monkeypatch.setattr(engine, "focus", _whole)
        monkeypatch.setattr(engine, "LARGE", sys.maxsize)
        assert cut == _report(data, path, config, edits)


@pytest.mark.parametrize("path", CASES, ids=[str(p.relative_to(FIXTURES)) for p in CASES])
def test_the_prefocus_keeps_every_function_the_focus_keeps(path: Path) -> None:
    """What makes the prefocus sound: it parses (keeps) at least the top-level functions
    that the focus, with the whole file's AST, keeps."""
    text, _ = decode(path.read_bytes())
    scan = Scan(text)
    if scan.index is None:
        return  # not Python: neither cuts anything
    whole = focus(text, scan.index, scan.move_nodes(), 0.0)
    pre = prefocus(text)
    if whole is None or pre is None:
        assert pre is None or pre.dropped == 0 or whole is not None
        return
    def functions(tree: ast.Module) -> set:
        return {s.name for s in tree.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))}
    kept_by_focus = functions(whole.tree)
    assert kept_by_focus <= functions(ast.parse(pre.text))


def test_an_edit_over_a_cut_falls_back_to_the_whole_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A fix's edit whose span would hold lines the focus cut out is not mapped back
    (its text would replace them too): the file is analysed whole instead."""
    source = b"import os, tempfile\n\ndef move(dst):\n    tmp = tempfile.mkdtemp()\n    os.rename(tmp, dst)\n"

    def lying(text: str, index: ModuleIndex, moves: object) -> Optional[Focus]:
        found = focus(text, index, moves, 0.0)  # type: ignore[arg-type]
        if found is None:  # nothing to drop: claim a cut between the function's lines
            numbers = list(range(1, len(text.splitlines()) + 1))
            found = Focus(text, index.nodes[0], 1, Lines([*numbers[:4], *(n + 1 for n in numbers[4:])], len(numbers) + 1), NOTHING_HIDDEN)  # type: ignore[arg-type]
        return found

    monkeypatch.setattr(engine, "focus", _whole)
    whole = lint_source(source, str(tmp_path / "m.py"), Config(), edits=True)
    monkeypatch.setattr(engine, "focus", lying)
    found = lint_source(source, str(tmp_path / "m.py"), Config(), edits=True).findings
    assert found and [(f.span, f.fix and f.fix.all_edits) for f in found] == [(f.span, f.fix and f.fix.all_edits) for f in whole.findings]
    with pytest.raises(Unfocused):
        Lines([1, 2, 4], 4).span(Span(2, 1, 3, 1), edit=True)
    assert Lines([1, 2, 4], 4).span(Span(2, 1, 3, 1)) == Span(2, 1, 4, 1)


def test_the_check_and_the_edits_use_the_focus_and_fix_rewrites_the_whole_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The check and the fixes' textual edits are computed on the focus; ``--fix``, which
    rewrites the tree it analysed, on the whole file."""
    calls: List[bool] = []

    def spy(text: str, index: ModuleIndex, moves: object) -> Optional[Focus]:
        found = focus(text, index, moves, 0.0)  # type: ignore[arg-type]
        calls.append(found is not None)
        return found

    monkeypatch.setattr(engine, "focus", spy)
    source = b"import os, tempfile\n\ndef other():\n    return 1\n\ndef move(dst):\n    os.rename(tempfile.mkdtemp(), dst)\n"
    checked = lint_source(source, str(tmp_path / "m.py"), Config(), edits=False)
    assert calls == [True] and checked.findings
    with_edits = lint_source(source, str(tmp_path / "m.py"), Config(), edits=True)
    assert calls == [True, True]
    assert [(f.span, f.code) for f in with_edits.findings] == [(f.span, f.code) for f in checked.findings]
    fixed = engine.fix_source(source, str(tmp_path / "m.py"), Config(), unsafe=True)
    assert calls == [True, True]
    assert b"def other():\n    return 1\n" in fixed.fixed and fixed.fixed != source
