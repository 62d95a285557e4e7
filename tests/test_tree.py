"""The fast child walk, and its memory while one module is analysed."""

from __future__ import annotations

import libcst as cst

from xdevlint.analysis.tree import children, remembering


def test_children_are_the_nodes_below_without_layout_in_source_order() -> None:
    call = cst.parse_expression("f(a, b)")
    assert isinstance(call, cst.Call)
    assert children(call) == [call.func, *call.args]


def test_children_are_computed_once_while_remembering_and_forgotten_after() -> None:
    module = cst.parse_module("x = f(a)\n")
    statement = module.body[0]
    assert children(statement) is not children(statement)
    with remembering():
        first = children(statement)
        assert children(statement) is first
        with remembering():  # nested: the same memory
            assert children(statement) is first
    assert children(statement) is not first


def test_a_tree_dropped_while_remembering_never_lends_its_children_to_a_new_one() -> None:
    """A fix builds trees, walks them and drops them while the module is analysed: a new
    node may then be given a dropped one's ``id``, and must still get its own children
    (the stale list made a fixture's fix differ one run in a hundred)."""
    with remembering():
        for number in range(2000):
            call = cst.Call(func=cst.Name(f"f{number}"), args=[cst.Arg(cst.Name(f"a{number}"))])
            assert children(call) == [call.func, *call.args]
