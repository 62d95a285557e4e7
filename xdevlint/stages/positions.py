"""Where reported nodes are, without rendering the whole module.

libcst's ``PositionProvider`` renders every line of the file to learn where each node
is: on a large file that costs more than the analysis that found the problem. The
statements of a module, a class body or a function body render the same whatever
their siblings are, so a statement rendered inside its own ``class``/``def`` headers
only, with every sibling left out, gives the file's columns and lines shifted by a
whole number. The stdlib AST, which the cheap scan has parsed already, says on which
line the statement starts, and the rendering is checked against the source there.
"""

from __future__ import annotations

import ast
from typing import Dict, List, Mapping, Optional, Sequence, Set, Tuple

import libcst as cst
from libcst.metadata import CodePosition, CodeRange, PositionProvider

from xdevlint.analysis.tree import children
from xdevlint.stages.metadata import Wrapper
from xdevlint.stages.source import lines_of

#: Statements whose body is descended into: what they hold renders apart from siblings.
_CONTAINERS = (cst.ClassDef, cst.FunctionDef)

Chain = Tuple[int, ...]  # body indices from the module down to the innermost statement


def positions_of(
    module: cst.Module, nodes: Sequence[cst.CSTNode], tree: Optional[ast.AST], text: str
) -> Optional[Dict[cst.CSTNode, CodeRange]]:
    """The ranges of ``nodes``, as the ``PositionProvider`` of the whole module would
    give them. ``tree`` and ``text`` are the stdlib AST and the source the module was
    parsed from. None when that cannot be done cheaply and safely: no AST, a node
    outside every statement, or a rendering that does not match the source."""
    if not isinstance(tree, ast.Module):
        return None
    chains = _chains(module, {id(node) for node in nodes})
    if chains is None:
        return None
    source = lines_of(text)
    found: Dict[cst.CSTNode, CodeRange] = {}
    for chain in sorted(set(chains.values())):
        placed = _place(module, tree, chain, source)
        if placed is None:
            return None
        local, shift = placed
        for node in nodes:
            if chains[id(node)] == chain:
                where = local[node]
                found[node] = CodeRange(
                    CodePosition(where.start.line + shift, where.start.column),
                    CodePosition(where.end.line + shift, where.end.column),
                )
    return found


def _chains(module: cst.Module, wanted: Set[int]) -> Optional[Dict[int, Chain]]:
    """For each wanted node (by id), the chain of body indices to the innermost
    statement holding it that is not a class or function (or is a one-line one)."""
    found: Dict[int, Chain] = {}
    # (node, its chain, whether it is the chain's last statement: only those are entered)
    stack: List[Tuple[cst.CSTNode, Chain, bool]] = [(s, (index,), True) for index, s in enumerate(module.body)]
    while stack and len(found) < len(wanted):
        node, chain, last = stack.pop()
        if id(node) in wanted:
            found[id(node)] = chain
        inner = _body(node) if last and isinstance(node, cst.BaseStatement) else ()
        if inner:
            stack.extend((statement, chain + (index,), True) for index, statement in enumerate(inner))
            kids = [c for c in children(node) if c is not node.body]  # type: ignore[attr-defined]
        else:
            kids = children(node)
        stack.extend((child, chain, False) for child in kids)
    return found if len(found) == len(wanted) else None


def _place(
    module: cst.Module, tree: ast.Module, chain: Chain, source: List[str]
) -> Optional[Tuple[Mapping[cst.CSTNode, CodeRange], int]]:
    """The innermost statement of ``chain`` rendered inside its headers only: its
    positions there, and the lines to add to get the file's."""
    statements = _statements(module, chain)
    ast_node: ast.AST = tree
    body: Sequence[cst.BaseStatement] = module.body
    for index, statement in zip(chain, statements):
        # A statement line of n small statements is n AST statements.
        position = sum(len(s.body) if isinstance(s, cst.SimpleStatementLine) else 1 for s in body[:index])
        ast_body = getattr(ast_node, "body", None)
        if not isinstance(ast_body, list) or position >= len(ast_body):
            return None
        ast_node = ast_body[position]
        body = _body(statement)
    innermost = statements[-1]
    alone, local = _alone(module, statements)
    decorators = getattr(innermost, "decorators", ())
    start = local[decorators[0] if decorators else innermost].start.line
    ast_decorators = getattr(ast_node, "decorator_list", None)
    first_line = min(d.lineno for d in ast_decorators) if ast_decorators else getattr(ast_node, "lineno", 0)
    shift = first_line - start
    rendered = lines_of(alone.code)
    for line in (start, local[innermost].end.line):
        if not 0 < line <= len(rendered) or not 0 < line + shift <= len(source):
            return None
        if rendered[line - 1].rstrip("\r\n") != source[line + shift - 1].rstrip("\r\n"):
            return None  # the AST and libcst disagree on where it is: let libcst say
    return local, shift


def statement_alone(module: cst.Module, node: cst.CSTNode) -> Optional[Tuple[cst.Module, Mapping[cst.CSTNode, CodeRange]]]:
    """The innermost statement holding ``node``, rendered inside its ``class``/``def``
    headers only, and the positions in that rendering (``node`` renders there as in
    the file). None when no statement holds ``node``."""
    chains = _chains(module, {id(node)})
    return None if chains is None else _alone(module, _statements(module, chains[id(node)]))


def _statements(module: cst.Module, chain: Chain) -> List[cst.BaseStatement]:
    """The statements ``chain`` goes through, from the module's down."""
    statements: List[cst.BaseStatement] = []
    body: Sequence[cst.BaseStatement] = module.body
    for index in chain:
        statements.append(body[index])
        body = _body(body[index])
    return statements


def _body(statement: cst.BaseStatement) -> Sequence[cst.BaseStatement]:
    """The statements a chain can go on into: a class's or function's indented body."""
    if isinstance(statement, _CONTAINERS) and isinstance(statement.body, cst.IndentedBlock):
        return statement.body.body
    return ()


def _alone(module: cst.Module, statements: Sequence[cst.BaseStatement]) -> Tuple[cst.Module, Mapping[cst.CSTNode, CodeRange]]:
    """The last of ``statements`` inside the headers of the others, as a module of its
    own, and its positions."""
    wrapped: cst.BaseStatement = statements[-1]
    for outer in reversed(statements[:-1]):
        wrapped = outer.with_changes(body=outer.body.with_changes(body=[wrapped]))  # type: ignore[attr-defined]
    alone = module.with_changes(body=[wrapped], header=[], footer=[], has_trailing_newline=True)
    return alone, Wrapper(alone, {}).resolve(PositionProvider)
