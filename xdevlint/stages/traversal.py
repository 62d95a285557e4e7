"""One read-only pass of the rules over a module: libcst's ``visit_batched`` without its cost.

libcst visits a node by rebuilding it from its visited children (validating each new
node) and offers every attribute of every node to every visitor. For rules, which
only look, that was most of what checking a large file cost once the analysis was
done. ``run_rules`` calls the same ``visit_<Node>`` and ``leave_<Node>`` methods on
the same nodes, parents before children and in source order, with the rules'
metadata resolved as ``MetadataWrapper.visit_batched`` resolves it. Attribute hooks
(``visit_<Node>_<attribute>``) are refused rather than silently skipped.

The same walk serves libcst's batchable metadata providers (``stages.metadata``): they
do all their work in ``visit_Module``, after which libcst rebuilt the whole module
from its visited children for nothing.
"""

from __future__ import annotations

from contextlib import ExitStack
from typing import Callable, Dict, List, Optional, Sequence, Tuple

import libcst as cst
from libcst.metadata import MetadataWrapper

from xdevlint.analysis.tree import children

Method = Callable[[cst.CSTNode], object]


#: Per visitor class: the names of its ``visit_``/``leave_`` methods that are not libcst's
#: empty stubs. ``BatchableCSTVisitor.get_visitors`` finds them with ``inspect.getmembers``
#: on the instance, which binds every attribute of the class on every call: a quarter of
#: checking a small file, once per rule and provider.
_HOOK_NAMES: Dict[type, Tuple[str, ...]] = {}

Hooks = Tuple[Dict[str, List[Method]], Dict[str, List[Method]]]


def run_rules(wrapper: MetadataWrapper, visitors: Sequence[cst.BatchableCSTVisitor]) -> None:
    """Visit ``wrapper.module`` once with every visitor."""
    found = hooks(visitors)
    if found is None:
        refused = [f"{type(v).__name__}.{n}" for v in visitors for n in _hook_names(type(v)) if "_" in n.partition("_")[2]]
        raise TypeError(f"{', '.join(refused)}: attribute hooks are not supported")
    walk(wrapper, visitors, found)


def hooks(visitors: Sequence[cst.BatchableCSTVisitor]) -> Optional[Hooks]:
    """The visitors' methods by node type name, visits and leaves; ``None`` when one has an attribute hook."""
    visits: Dict[str, List[Method]] = {}
    leaves: Dict[str, List[Method]] = {}
    for visitor in visitors:
        for name in _hook_names(type(visitor)):
            kind, _, node_type = name.partition("_")
            if "_" in node_type:
                return None
            (visits if kind == "visit" else leaves).setdefault(node_type, []).append(getattr(visitor, name))
    return visits, leaves


def walk(wrapper: MetadataWrapper, visitors: Sequence[cst.BatchableCSTVisitor], found: Hooks) -> None:
    """Visit ``wrapper.module`` with ``visitors``, whose ``hooks`` are ``found``, their metadata resolved."""
    visits, leaves = found
    with ExitStack() as stack:
        for visitor in visitors:
            stack.enter_context(visitor.resolve(wrapper))
        if set(visits) | set(leaves) <= {"Module"}:  # the providers' shape: nothing below to visit
            for method in visits.get("Module", []) + leaves.get("Module", []):
                method(wrapper.module)
        else:
            _walk(wrapper.module, visits, leaves)


def _hook_names(kind: type) -> Tuple[str, ...]:
    names = _HOOK_NAMES.get(kind)
    if names is None:
        names = _HOOK_NAMES[kind] = tuple(
            name
            for name in dir(kind)
            if name.startswith(("visit_", "leave_"))
            and callable(getattr(kind, name))
            and not getattr(getattr(kind, name), "_is_no_op", False)
        )
    return names


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
