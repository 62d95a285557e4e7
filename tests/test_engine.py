"""``engine.lint_source``: one file's bytes in, its findings out, sorted and positioned."""

from __future__ import annotations

import ast
import json
from dataclasses import replace
from pathlib import Path

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, PositionProvider

from xdevlint.frontends import cli
from xdevlint.config import Config
from xdevlint.engine import lint_source, lint_text
from xdevlint.stages.positions import positions_of

CONFIG = replace(Config(), select=("XDV1",))

# Findings in an order a visitor would not produce sorted: two on line 9 (the inner
# call's column is larger, but it is visited after the outer), one before them on line 7.
SOURCE = """\
import os
import tempfile

def publish(dst, cache_dir):
    a = tempfile.mktemp()
    b = tempfile.mktemp()
    os.replace(b, dst)
    x = 1
    os.rename(a, cache_dir); os.rename(b, cache_dir)
"""


def test_findings_are_sorted_by_line_then_column() -> None:
    findings = lint_source(SOURCE.encode(), "m.py", CONFIG).findings
    positions = [(f.line, f.column, f.code) for f in findings]
    assert positions == [(7, 5, "XDV102"), (9, 5, "XDV101"), (9, 30, "XDV101")]
    assert list(findings) == sorted(findings)


def test_spans_are_one_based_and_cover_the_call() -> None:
    finding = lint_source(SOURCE.encode(), "m.py", CONFIG).findings[0]
    line = SOURCE.splitlines()[finding.span.line - 1]
    assert line[finding.span.column - 1 : finding.span.end_column - 1] == "os.replace(b, dst)"
    assert finding.span.end_line == finding.span.line


def test_the_path_is_the_one_given() -> None:
    assert {f.path for f in lint_source(SOURCE.encode(), "some/dir/m.py", CONFIG).findings} == {"some/dir/m.py"}


def test_result_keeps_the_bytes_for_excerpts() -> None:
    data = SOURCE.encode()
    assert lint_source(data, "m.py", CONFIG).source == data


def test_lint_text_matches_lint_source() -> None:
    assert lint_text(SOURCE, "m.py", CONFIG).findings == lint_source(SOURCE.encode(), "m.py", CONFIG).findings


def test_coding_cookie_and_bom_are_honoured() -> None:
    latin = ("# -*- coding: latin-1 -*-\n# café\n" + SOURCE).encode("latin-1")
    bom = b"\xef\xbb\xbf" + SOURCE.encode()
    plain = [(f.line, f.column, f.code) for f in lint_source(SOURCE.encode(), "m.py", CONFIG).findings]
    assert [(f.line - 2, f.column, f.code) for f in lint_source(latin, "m.py", CONFIG).findings] == plain
    assert [(f.line, f.column, f.code) for f in lint_source(bom, "m.py", CONFIG).findings] == plain


def test_the_prescan_changes_nothing_here() -> None:
    with_scan = lint_source(SOURCE.encode(), "m.py", CONFIG).findings
    assert with_scan == lint_source(SOURCE.encode(), "m.py", CONFIG, prescan=False).findings


def test_a_file_without_moves_yields_nothing() -> None:
    assert lint_source(b"import os\nprint(os.getcwd())\n", "m.py", Config()).findings == ()


def test_files_come_once_each_in_the_order_given(tmp_path: Path, monkeypatch, capsys) -> None:
    for name in ("b.py", "a.py", "sub/c.py"):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text(SOURCE)
    monkeypatch.chdir(tmp_path)
    assert cli.main(["--select", "XDV1", "--format", "json", "sub", "."]) == 1
    items = json.loads(capsys.readouterr().out)
    keys = [(i["path"], i["line"], i["column"]) for i in items]
    # sub/c.py is reached twice but checked once; a directory's files come sorted
    assert [p for p, _, _ in keys] == ["sub/c.py"] * 3 + ["a.py"] * 3 + ["b.py"] * 3
    assert keys[3:] == sorted(keys[3:])


POSITIONS_SOURCE = """\
import os, tempfile  # a comment
x = 1; y = 2


@decorator(
    "multi-line",
)
class Outer:
    '''Doc.'''

    # a comment before a method
    @staticmethod
    def first(cache_dir):
        os.rename("/tmp/a", cache_dir + "/a")

    class Inner:
        def second(self, cache_dir): os.rename("/tmp/b", cache_dir + "/b")

        def third(self, cache_dir):
            s = '''
a string over lines
'''
            if s:
                os.rename(
                    "/tmp/c",
                    cache_dir + "/c",
                )


def top(cache_dir): os.rename("/tmp/d", cache_dir + "/d")
os.rename("/tmp/e", CACHE_DIR + "/e")"""


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_positions_without_rendering_the_module_are_libcsts(newline: str) -> None:
    """The findings' spans, found from the statement alone, equal those libcst's
    PositionProvider gives for the whole module (which computing edits uses)."""
    text = POSITIONS_SOURCE.replace("\n", newline)
    module = cst.parse_module(text)
    calls: list = []

    class Calls(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            calls.append(node)

    module.visit(Calls())
    expected = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    found = positions_of(module, calls, ast.parse(text), text)
    assert found is not None and len(calls) == 6
    assert all(found[call] == expected[call] for call in calls)
    quick = lint_source(text.encode(), "m.py", CONFIG, edits=False).findings
    assert len(quick) == 5 and quick == lint_source(text.encode(), "m.py", CONFIG, edits=True).findings


def test_the_wrapper_resolves_as_libcst_does() -> None:
    """``Wrapper`` skips libcst's empty batch traversals, nothing else: same metadata
    for the providers the rules use, and batchable ones still work."""
    from libcst.metadata import ParentNodeProvider

    from xdevlint.analysis.lifetime import LifetimeProvider
    from xdevlint.analysis.provenance import ProvenanceProvider
    from xdevlint.stages.metadata import Wrapper

    module = cst.parse_module(SOURCE)
    cache = {ProvenanceProvider: CONFIG.locations}
    ours = Wrapper(module, cache)
    theirs = MetadataWrapper(module, unsafe_skip_copy=True, cache=cache)
    for provider in (ProvenanceProvider, LifetimeProvider, PositionProvider):
        assert dict(ours.resolve(provider)).keys() == dict(theirs.resolve(provider)).keys()
    assert dict(ours.resolve(PositionProvider)) == dict(theirs.resolve(PositionProvider))
    assert ours.resolve(ProvenanceProvider) is ours.resolve_many([ProvenanceProvider])[ProvenanceProvider]
    parents = ours.resolve(ParentNodeProvider)
    assert parents[module.body[0]] is module


def test_batchable_providers_run_without_rebuilding_the_module_and_give_libcsts_metadata() -> None:
    """The batchable providers run on ``stages.traversal``'s walk, not libcst's rebuilding
    one: the same parents, expression contexts, scopes and accesses, and no node of the
    module is replaced or validated again."""
    from libcst.metadata import ExpressionContextProvider, ParentNodeProvider, ScopeProvider

    from xdevlint.stages.metadata import Wrapper

    module = cst.parse_module(SOURCE)
    ours = Wrapper(module, {})
    theirs = MetadataWrapper(module, unsafe_skip_copy=True)
    for provider in (ParentNodeProvider, ExpressionContextProvider):
        assert dict(ours.resolve(provider)) == dict(theirs.resolve(provider))
    our_scopes, their_scopes = ours.resolve(ScopeProvider), theirs.resolve(ScopeProvider)
    assert our_scopes.keys() == their_scopes.keys()
    for node, scope in our_scopes.items():
        other = their_scopes[node]
        assert (scope is None) == (other is None)
        if scope is not None and other is not None:
            for ours_by_name, theirs_by_name in ((scope._assignments, other._assignments), (scope._accesses_by_name, other._accesses_by_name)):
                assert {k: len(v) for k, v in ours_by_name.items()} == {k: len(v) for k, v in theirs_by_name.items()}

    class Counting(cst.BatchableCSTVisitor):
        def __init__(self) -> None:
            super().__init__()
            self.seen: list = []

        def visit_Name(self, node: cst.Name) -> None:
            self.seen.append(node.value)

        def leave_Module(self, node: cst.Module) -> None:
            self.seen.append("<end>")

    counting = Counting()
    assert ours.visit_batched([counting]) is module
    expected = Counting()
    theirs.visit_batched([expected])
    assert counting.seen == expected.seen and counting.seen[-1] == "<end>" and len(counting.seen) > 5


def test_positions_of_a_function_under_an_if() -> None:
    """A ``def`` inside an ``if`` is not entered (only bodies of the chain's own
    statements are), so the ``if`` is rendered whole."""
    text = "import os, sys\nif sys.platform:\n    def f(cache_dir):\n        os.rename('/tmp/a', cache_dir + '/a')\n"
    quick = lint_source(text.encode(), "m.py", CONFIG, edits=False).findings
    assert [f.span.line for f in quick] == [4]
    assert quick == lint_source(text.encode(), "m.py", CONFIG, edits=True).findings


def test_a_rule_with_an_attribute_hook_is_refused_by_name() -> None:
    """The rules' walk calls node hooks only: an attribute hook would be skipped silently,
    so it is refused, naming the method; libcst's providers keep libcst's own walk for it."""
    from xdevlint.stages.metadata import Wrapper
    from xdevlint.stages.traversal import run_rules

    class Attributed(cst.BatchableCSTVisitor):
        def visit_Call_func(self, node: cst.Call) -> None:
            pass

    module = cst.parse_module("f(x)\n")
    with pytest.raises(TypeError, match=r"Attributed\.visit_Call_func: attribute hooks are not supported"):
        run_rules(Wrapper(module, {}), [Attributed()])
    seen: list = []

    class Fallback(cst.BatchableCSTVisitor):
        def visit_Call_func(self, node: cst.Call) -> None:
            seen.append(node)

    Wrapper(module, {}).visit_batched([Fallback()])
    assert len(seen) == 1
