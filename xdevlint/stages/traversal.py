"""One read-only pass of the rules over a module: libcst's ``visit_batched`` without its cost.

libcst visits a node by rebuilding it from its visited children (validating each new
node) and offers every attribute of every node to every visitor. For rules, which
only look, that was most of what checking a large file cost once the analysis was
done. ``run_rules`` calls the same ``visit_<Node>`` and ``leave_<Node>`` methods on
the same nodes, parents before children and in source order, with the rules'
metadata resolved as ``MetadataWrapper.visit_batched`` resolves it. Attribute hooks
(``visit_<Node>_<attribute>``) are refused rather than silently skipped.
"""

from __future__ import annotations

from contextlib import ExitStack
from typing import Callable, Dict, List, Sequence, Tuple

import libcst as cst
from libcst.metadata import MetadataWrapper

from xdevlint.analysis.tree import children

Method = Callable[[cst.CSTNode], object]


def run_rules(wrapper: MetadataWrapper, visitors: Sequence[cst.BatchableCSTVisitor]) -> None:
    """Visit ``wrapper.module`` once with every visitor."""
    visits: Dict[str, List[Method]] = {}
    leaves: Dict[str, List[Method]] = {}
    for visitor in visitors:
        for name, method in visitor.get_visitors().items():
            kind, _, node_type = name.partition("_")
            if "_" in node_type:
                raise TypeError(f"{type(visitor).__name__}.{name}: attribute hooks are not supported")
            (visits if kind == "visit" else leaves).setdefault(node_type, []).append(method)
    with ExitStack() as stack:
        for visitor in visitors:
            stack.enter_context(visitor.resolve(wrapper))
        _walk(wrapper.module, visits, leaves)


def _walk(root: cst.CSTNode, visits: Dict[str, List[Method]], leaves: Dict[str, List[Method]]) -> None:
    stack: List[Tuple[cst.CSTNode, bool]] = [(root, False)]
    while stack:
        node, leaving = stack.pop()
        name = type(node).__name__
        if leaving:
            for method in leaves.get(name, ()):
                method(node)
            continue
        for method in visits.get(name, ()):
            method(node)
        if name in leaves:
            stack.append((node, True))
        stack.extend((child, False) for child in reversed(children(node)))
