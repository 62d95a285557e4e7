"""Function summaries: what a same-module function does with its parameters, applied at its calls."""

from __future__ import annotations

import textwrap
from typing import Dict

import libcst as cst
import pytest

from xdevlint.analysis.moves import FunctionSummary, instantiate
from xdevlint.analysis.provenance import summaries
from xdevlint.analysis.values import Value
from tests.test_provenance import located, probe


def summary_of(source: str, name: str) -> FunctionSummary:
    found: Dict[str, FunctionSummary] = {s.name: s for s in summaries(cst.parse_module(textwrap.dedent(source))).values()}
    return found[name]


def test_a_move_records_the_parameters_it_moves_from_and_to() -> None:
    summary = summary_of(
        """
        import os
        def publish(src, name, root):
            os.rename(src, os.path.join(root, name))
        """,
        "publish",
    )
    (move,) = summary.moves
    assert move.move.function == "os.rename"
    assert {p.name for p in move.source.params} == {"src"}
    assert {p.name for p in move.destination.params} == {"root"}  # the first component decides
    assert [p.name for p in summary.positional] == ["src", "name", "root"]


def test_a_move_that_depends_on_no_parameter_is_not_in_the_summary() -> None:
    summary = summary_of(
        "import os, tempfile\ndef f():\n    os.rename(tempfile.mkdtemp(), os.environ['HF_HOME'])\n", "f"
    )
    assert summary.moves == ()


def test_moves_of_callees_and_closures_are_the_callers_too() -> None:
    source = """
        import os
        def _finish(tmp, dst):
            os.replace(tmp, dst)
        def write(src, dst):
            _finish(src, dst)
        def opener(path):
            def commit(tmp):
                os.replace(tmp, path)
            return commit
        """
    (through,) = summary_of(source, "write").moves
    assert through.via == ("_finish",)
    assert {p.name for p in through.destination.params} == {"dst"}
    (closure,) = summary_of(source, "opener").moves
    assert closure.via == ("commit",)
    assert {p.name for p in closure.destination.params} == {"path"}


def test_removed_parameters_directly_and_through_callees() -> None:
    source = """
        import os, shutil
        from pathlib import Path
        def drop(p):
            os.unlink(p)
        def drop_tree(root, keep):
            shutil.rmtree(root)
        def drop_through(q):
            drop(q)
        def drop_path(p: Path):
            p.unlink()
        def drop_below(d):
            os.unlink(os.path.join(d, "x"))
        """
    assert summary_of(source, "drop").removes == {"p"}
    assert summary_of(source, "drop_tree").removes == {"root"}
    assert summary_of(source, "drop_through").removes == {"q"}
    assert summary_of(source, "drop_path").removes == {"p"}
    assert summary_of(source, "drop_below").removes == frozenset()  # something in d, not d


def test_returned_location_is_applied_with_the_callers_values() -> None:
    helper = "import os, tempfile\ndef under(root, name):\n    return os.path.join(root, name)\n"
    assert located(helper + "probe(under(tempfile.mkdtemp(), 'x'))") == {"temp"}
    assert located(helper + "probe(under(os.environ['HF_HOME'], 'x'))") == {"cache"}
    assert located(helper + "probe(under(compute(), 'x'))") == set()
    # The callee's own guess holds when the caller says nothing better.
    guessed = "import os\ndef under(cache_dir, name):\n    return os.path.join(cache_dir, name)\n"
    assert located(guessed + "probe(under(compute(), 'x'))") == {"cache"}
    assert located(guessed + "import tempfile\nprobe(under(tempfile.mkdtemp(), 'x'))") == {"temp"}


@pytest.mark.parametrize(
    "call,expected",
    [
        ("Box().inside(tempfile.mkdtemp())", {"temp"}),  # self is bound by the call
        ("Box.static(tempfile.mkdtemp())", {"temp"}),
        ("Box().static(tempfile.mkdtemp())", {"temp"}),  # a staticmethod binds nothing
        ("Box.klass(tempfile.mkdtemp())", {"temp"}),
        ("Box.inside(Box(), tempfile.mkdtemp())", {"temp"}),  # unbound: self passed
        ("Box().keyword(name='x', root=tempfile.mkdtemp())", {"temp"}),
        ("Box().keyword(os.environ['HF_HOME'])", {"cache"}),  # name left to its default
    ],
)
def test_methods_bind_their_arguments_like_python(call: str, expected: set) -> None:
    source = f"""
import os, tempfile
class Box:
    def inside(self, root):
        return os.path.join(root, "x")
    @staticmethod
    def static(root):
        return os.path.join(root, "x")
    @classmethod
    def klass(cls, root):
        return os.path.join(root, "x")
    def keyword(self, root, name="n"):
        return os.path.join(root, name)
probe({call})
"""
    assert located(source) == expected


def test_staging_makes_a_temp_that_lies_in_its_directory() -> None:
    value = probe("import tempfile\ndef f(work):\n    fd, p = tempfile.mkstemp(dir=work)\n    probe(p)")
    assert value.staged and not value.locations
    assert any(getattr(t, "name", None) == "work" for t in value.within)


def test_instantiate_maps_what_lies_below_a_parameter_to_what_lies_below_the_argument() -> None:
    (move,) = summary_of("import os\ndef f(d, name):\n    os.rename(os.path.join(d, name), d + '.bak')\n", "f").moves
    d = move.source.within  # below the parameter d
    argument = Value(idents=frozenset({"ARG"}), within=frozenset({"ROOT"}))
    bindings = {p: argument for p in move.source.params}
    moved = instantiate(move.source, bindings)
    assert d and moved.within == {"ARG", "ROOT"}
