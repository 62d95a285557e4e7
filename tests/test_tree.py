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
