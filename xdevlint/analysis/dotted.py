"""Dotted names in the standard library's ``ast``, as the text spells them.

The project index (a module's ``pkg.paths.CACHE``) and the cheap scan (a file's
``constants.HF_HUB_CACHE``) both read a name or a chain of attributes off one.
"""

from __future__ import annotations

import ast
from typing import List, Optional


def dotted(node: ast.AST) -> Optional[List[str]]:
    """The components of a name or of a chain of attributes off one (``["a", "b", "c"]``
    for ``a.b.c``); None for any other expression (a call's result, a subscript)."""
    parts: List[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    parts.reverse()
    return parts
