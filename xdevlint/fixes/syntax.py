"""What fix builders need to know about a tree beyond a rule's visit.

``Region``: document order and parents of every node under a function (or the
module), so "bound before the creation", "between the creation and the move" and
"is this call's value used" are answered by index comparisons. ``Names``: how a
qualified name (``shutil.move``) is spelled at a given call, reusing an existing
import when one reaches it, else the import to add. Both are built only for files
that have a finding, so checking a clean file never pays for them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, FrozenSet, Iterator, List, Optional, Sequence, Tuple, Union

import libcst as cst
from libcst.metadata import (
    ImportAssignment,
    QualifiedNameSource,
    Scope,
    ScopeProvider,
)

from xdevlint.analysis.tree import children
from xdevlint.model import Import, Replacement
from xdevlint.stages.metadata import Wrapper


class Region:
    """Pre-order indices, subtree ends and parents of the nodes under ``root`` (layout
    left out: whitespace, blank lines, commas, parentheses, which no fix asks about, and
    which in a focused file are most of its nodes)."""

    def __init__(self, root: cst.CSTNode) -> None:
        self.root = root
        self.start: Dict[cst.CSTNode, int] = {}
        self.end: Dict[cst.CSTNode, int] = {}
        self.parent: Dict[cst.CSTNode, cst.CSTNode] = {}
        self.nodes: List[cst.CSTNode] = []
        stack: List[Tuple[cst.CSTNode, bool]] = [(root, False)]
        while stack:  # iterative: deeply nested expressions must not hit the recursion limit
            node, closing = stack.pop()
            if closing:
                self.end[node] = len(self.nodes) - 1
                continue
            self.start[node] = len(self.nodes)
            self.nodes.append(node)
            stack.append((node, True))
            for child in reversed(children(node)):
                self.parent[child] = node
                stack.append((child, False))

    def __contains__(self, node: cst.CSTNode) -> bool:
        return node in self.start

    def contains(self, outer: cst.CSTNode, inner: cst.CSTNode) -> bool:
        """Whether ``inner`` is ``outer`` or below it."""
        return self.start[outer] <= self.start[inner] <= self.end[outer]

    def ancestors(self, node: cst.CSTNode) -> Iterator[cst.CSTNode]:
        current = self.parent.get(node)
        while current is not None:
            yield current
            current = self.parent.get(current)

    def statement_of(self, node: cst.CSTNode) -> Optional[cst.CSTNode]:
        """The statement holding ``node``: a simple statement line or a compound statement."""
        for candidate in (node, *self.ancestors(node)):
            if isinstance(candidate, (cst.SimpleStatementLine, cst.BaseCompoundStatement)):
                return candidate
        return None

    def small_statement_of(self, node: cst.CSTNode) -> Optional[cst.CSTNode]:
        """The innermost statement holding ``node`` (``x = f()`` rather than its line)."""
        for candidate in (node, *self.ancestors(node)):
            if isinstance(candidate, (cst.BaseSmallStatement, cst.BaseCompoundStatement)):
                return candidate
        return None

    def between(self, first: int, last: int) -> Iterator[cst.CSTNode]:
        """Nodes whose pre-order index lies in ``[first, last)``."""
        return iter(self.nodes[first:last])

    def value_is_used(self, call: cst.Call) -> bool:
        """Whether anything reads the value of ``call``: only a bare expression statement
        (possibly through a conditional expression's branches) throws it away."""
        node: cst.CSTNode = call
        for parent in self.ancestors(call):
            if isinstance(parent, cst.Expr):
                return False
            if isinstance(parent, cst.IfExp) and node is not parent.test:
                node = parent
                continue
            return True
        return True


@dataclass(frozen=True)
class Reference:
    """How to call an object at one place: the code, and the import that makes it valid."""

    code: str
    imports: Tuple[Import, ...] = ()

    def expression(self, module: cst.Module) -> cst.BaseExpression:
        return cst.parse_expression(self.code, config=module.config_for_parsing)


class Names:
    """Scopes of a module, resolved once, on the first fix that needs them.

    A second ``Wrapper`` over the same module (never a copy) keeps
    node identity, so the nodes rules hold can be looked up here.
    """

    def __init__(self, module: cst.Module, bound: FrozenSet[str] = frozenset()) -> None:
        self.module = module
        #: Module-level names bound outside ``module``'s text (by the parts a focus left out).
        self.bound = bound
        #: By the index of a module-level statement: the scopes of the nodes under it.
        self._scopes: Dict[Tuple[int, ...], Dict[cst.CSTNode, Optional[Scope]]] = {}
        self._global_free: Optional[List[bool]] = None
        # Only unconditional module-level imports are reused: one under ``if
        # TYPE_CHECKING:`` or ``try:`` may not be bound when the fixed code runs.
        self._top_imports: Dict[cst.CSTNode, int] = {}
        for index, statement in enumerate(module.body):
            if isinstance(statement, cst.SimpleStatementLine):
                for small in statement.body:
                    if isinstance(small, (cst.Import, cst.ImportFrom)):
                        self._top_imports[small] = index

    def scope_of(self, node: cst.CSTNode) -> Optional[Scope]:
        """``node``'s scope, as libcst's ``ScopeProvider`` gives it for the whole module.

        The provider costs most of a fix in a large file, and a fix needs only the
        scopes around one statement: it runs on the module with every other function
        and class reduced to a stub that binds its name (``def f(...): pass``), which
        binds the same module-level names, unless one says ``global``. Within a class,
        a method sees neither its siblings nor the class's own names (Python skips the
        class scope), so a method's class keeps only that method.
        """
        index = self.statement_index(node)
        if index is None:
            return None
        body = self.module.body
        if self._global_free is None:
            self._global_free = [isinstance(s, _STUBBED) and not _says_global(s) for s in body]
        # The module-level statements share one variant (all stubbed), so that their
        # nodes share one ``GlobalScope``, as in the whole module.
        key: Tuple[int, ...] = (index,) if self._global_free[index] else (-1,)
        holder = body[index]
        if key[0] >= 0 and isinstance(holder, cst.ClassDef):
            method = _method_holding(holder, node)
            if method is not None:
                key = (index, method)
        scopes = self._scopes.get(key)
        if scopes is None:
            reduced = [_stub(s) if i != key[0] and self._global_free[i] else _bare(s) for i, s in enumerate(body)]
            if len(key) == 2 and isinstance(holder, cst.ClassDef):
                reduced[index] = _bare(_with_only(holder, key[1]))
            wrapper = Wrapper(self.module.with_changes(body=reduced), {})
            scopes = self._scopes[key] = dict(wrapper.resolve(ScopeProvider))
        return scopes.get(node)

    def statement_index(self, node: cst.CSTNode) -> Optional[int]:
        """The index in ``module.body`` of the statement holding ``node``."""
        for index, statement in enumerate(self.module.body):
            if _holds(statement, node):
                return index
        return None

    def reference(self, qualified: str, at: cst.CSTNode, statement: Optional[int] = None) -> Optional[Reference]:
        """``qualified`` spelled at ``at``: through an import that reaches it, else a new
        one (``import shutil`` for a top-level module, ``from a.b import c`` for a
        dotted one), or None when every spelling would clash with an existing name.

        ``statement`` is the index in ``module.body`` of the module-level statement
        holding ``at`` when ``at`` runs at import time: only imports before it count.
        """
        scope = self.scope_of(at)
        if scope is None:
            return None
        existing = self._through_imports(qualified, scope, statement)
        if existing is not None:
            return Reference(existing)
        module, _, obj = qualified.rpartition(".")
        if not module:
            return Reference(qualified) if self.is_free(qualified, scope) else None
        spellings: List[Tuple[str, Import, str]] = []
        if "." in module:
            spellings.append((obj, Import(module, obj), obj))
            spellings.append((qualified, Import(module), module.split(".")[0]))
        else:
            spellings.append((qualified, Import(module), module))
            spellings.append((obj, Import(module, obj), obj))
        for code, needed, head in spellings:
            if self.is_free(head, scope):
                return Reference(code, (needed,))
        return None

    def _through_imports(self, qualified: str, scope: Scope, statement: Optional[int]) -> Optional[str]:
        """The shortest spelling of ``qualified`` through a module-level import."""
        best: Optional[str] = None
        current = scope.globals
        for assignment in current.assignments:
            if not isinstance(assignment, ImportAssignment):
                continue
            index = self._top_imports.get(assignment.node)
            if index is None or statement is not None and index >= statement:
                continue
            name = assignment.name
            for found in current.get_qualified_names_for(name):
                if found.source is not QualifiedNameSource.IMPORT:
                    continue
                if qualified == found.name:
                    code = name
                elif qualified.startswith(found.name + "."):
                    code = name + qualified[len(found.name):]
                else:
                    continue
                if self._resolves(scope, name, found.name) and (best is None or len(code) < len(best)):
                    best = code
        return best

    def _resolves(self, scope: Scope, name: str, qualified: str) -> bool:
        """Whether ``name`` read in ``scope`` means only the import of ``qualified``."""
        if name in self.bound:  # a left-out function or class of that name rebinds it
            return False
        found = scope.get_qualified_names_for(name)
        return bool(found) and all(q.name == qualified and q.source is QualifiedNameSource.IMPORT for q in found)

    def is_free(self, name: str, scope: Scope) -> bool:
        """Whether a module-level import of ``name`` would clash with nothing: no
        binding of it where the fix is, nor anywhere at module level."""
        if name in scope or name in self.bound:
            return False
        return name not in scope.globals


_STUBBED = (cst.FunctionDef, cst.ClassDef)
_PASS = cst.IndentedBlock(body=[cst.SimpleStatementLine(body=[cst.Pass()])])


def _stub(statement: cst.BaseStatement) -> cst.BaseStatement:
    return statement.with_changes(body=_PASS, leading_lines=())


def _bare(statement: cst.BaseStatement) -> cst.BaseStatement:
    """``statement`` without the blank lines and comments before it, which scopes do not
    depend on (a focused file's blanked parts are blank lines: most of its nodes). The
    statement node itself is new; every node below it is the module's own."""
    return statement.with_changes(leading_lines=()) if getattr(statement, "leading_lines", ()) else statement


def _below(root: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """``root`` and every node under it, layout left out (iterative: no recursion limit)."""
    stack: List[cst.CSTNode] = [root]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(children(current))


def _holds(statement: cst.CSTNode, node: cst.CSTNode) -> bool:
    return any(current is node for current in _below(statement))


def _method_holding(cls: cst.ClassDef, node: cst.CSTNode) -> Optional[int]:
    """The index in the class's body of the method holding ``node``, if one does."""
    members = cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ()
    for index, member in enumerate(members):
        if isinstance(member, cst.FunctionDef) and member is not node and _holds(member, node):
            return index
    return None


def _with_only(cls: cst.ClassDef, method: int) -> cst.ClassDef:
    """``cls`` with only its ``method``-th statement, and those that say ``global``."""
    assert isinstance(cls.body, cst.IndentedBlock)
    kept = [_bare(s) for i, s in enumerate(cls.body.body) if i == method or _says_global(s)]
    return cls.with_changes(body=cls.body.with_changes(body=kept))


def _says_global(statement: cst.CSTNode) -> bool:
    return any(isinstance(current, cst.Global) for current in _below(statement))


def add_keyword(call: cst.Call, keyword: str, value: cst.BaseExpression) -> cst.Call:
    """``call`` with ``keyword=value`` appended, in the call's own comma style."""
    new = cst.Arg(
        value=value,
        keyword=cst.Name(keyword),
        equal=cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")),
    )
    args: List[cst.Arg] = list(call.args)
    if not args:
        return call.with_changes(args=[new])
    last = args[-1]
    if isinstance(last.comma, cst.Comma):
        # A trailing comma (usually one argument per line): the new argument takes over
        # the last one's comma, and the last one gets the separator its neighbours use.
        if len(args) > 1 and isinstance(args[-2].comma, cst.Comma):
            separator = args[-2].comma
        elif isinstance(call.whitespace_before_args, cst.ParenthesizedWhitespace):
            # ``f(\n    a,\n)``: the new line gets the first argument's indentation
            separator = cst.Comma(
                whitespace_after=call.whitespace_before_args.with_changes(first_line=cst.TrailingWhitespace(), empty_lines=[])
            )
        else:
            separator = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
        args[-1] = last.with_changes(comma=separator)
        new = new.with_changes(comma=last.comma)
    else:
        args[-1] = last.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
    return call.with_changes(args=[*args, new])


def positional(values: Sequence[cst.BaseExpression]) -> List[cst.Arg]:
    """Plain positional arguments ``a, b``."""
    args = [cst.Arg(value=v, comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))) for v in values]
    if args:
        args[-1] = args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    return args


def parenthesized(expression: cst.BaseExpression) -> cst.BaseExpression:
    """``expression`` safe to use as an operand or a receiver: atoms stay as they are."""
    if isinstance(expression, (cst.Name, cst.Attribute, cst.Call, cst.Subscript, cst.BaseString, cst.Integer)):
        return expression
    if expression.lpar:
        return expression
    return expression.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])


#: Stands for the call being measured while its line is rendered (``line_width``).
_MARK = "__xdevlint_call__"


class _Swap(cst.CSTTransformer):
    """Replaces one node, found by identity, with another."""

    def __init__(self, old: cst.CSTNode, new: cst.CSTNode) -> None:
        super().__init__()
        self.old, self.new = old, new

    def on_leave(self, original_node: cst.CSTNode, updated_node: cst.CSTNode) -> cst.CSTNode:  # type: ignore[override]
        return self.new if original_node is self.old else updated_node


def merged(first: Sequence[Replacement], second: Sequence[Replacement]) -> Optional[Tuple[Replacement, ...]]:
    """The replacements of ``second`` and ``first`` as one set that does both: one of
    ``first`` whose node lies in a new tree of ``second`` (which reuses the nodes it
    leaves as they were) is made there. None when they overlap otherwise."""
    result = list(second)
    for replacement in first:
        for index, other in enumerate(result):
            if _holds(other.new, replacement.node):
                result[index] = Replacement(other.node, swapped(other.new, replacement.node, replacement.new))
                break
        else:
            if any(_holds(other.node, replacement.node) or _holds(replacement.node, other.node) for other in result):
                return None
            result.append(replacement)
    return tuple(result)


def swapped(tree: cst.CSTNode, old: cst.CSTNode, new: cst.CSTNode) -> cst.CSTNode:
    """``tree`` with its node ``old`` (by identity) replaced by ``new``."""
    result = tree.visit(_Swap(old, new))
    assert isinstance(result, cst.CSTNode)
    return result


def fitted(
    module: cst.Module, statement: cst.BaseStatement, indent: str, call: cst.Call, new: cst.Call, limit: int
) -> cst.Call:
    """``new`` (the rewrite of ``call``, a node of ``statement``) as black would lay it
    out when its line would pass ``limit`` characters: the arguments on one line of
    their own inside the parentheses, or, when that line is still too long, one
    argument per line with a trailing comma. ``indent`` is the statement's own
    indentation. A call already spread over lines keeps its layout, and so does one
    that does not start on the statement's first line."""
    text = module.code_for_node(new)
    if "\n" in text or "\r" in text or any(arg.star for arg in new.args) or not new.args:
        return new
    alone = statement.with_changes(leading_lines=()) if hasattr(statement, "leading_lines") else statement
    rendered = module.code_for_node(swapped(alone, call, cst.Name(_MARK)))
    at = rendered.index(_MARK)
    if rendered.rfind("\n", 0, at) != -1:
        return new
    end = min((i for i in (rendered.find("\n", at), rendered.find("\r", at)) if i != -1), default=len(rendered))
    head, tail = indent + rendered[:at], rendered[at + len(_MARK) : end]
    if _width(head + text + tail) <= limit:
        return new
    step = module.default_indent
    arguments = [module.code_for_node(arg.with_changes(comma=cst.MaybeSentinel.DEFAULT)) for arg in new.args]
    one_line = _width(indent + step + ", ".join(arguments)) <= limit
    inner = cst.ParenthesizedWhitespace(indent=True, last_line=cst.SimpleWhitespace(step))
    closing = cst.ParenthesizedWhitespace(indent=True, last_line=cst.SimpleWhitespace(""))
    args: List[cst.Arg] = []
    for index, arg in enumerate(new.args):
        last = index == len(new.args) - 1
        if one_line:
            comma: Union[cst.Comma, cst.MaybeSentinel] = (
                cst.MaybeSentinel.DEFAULT if last else cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
            )
            args.append(arg.with_changes(comma=comma, whitespace_after_arg=closing if last else cst.SimpleWhitespace("")))
        else:
            args.append(arg.with_changes(comma=cst.Comma(whitespace_after=closing if last else inner), whitespace_after_arg=cst.SimpleWhitespace("")))
    return new.with_changes(args=args, whitespace_before_args=inner)


def _width(line: str) -> int:
    """A line's width as ruff's E501 counts it, with a tab four columns wide."""
    return len(line.expandtabs(4))
