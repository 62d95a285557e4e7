"""XDV202 swallowed-move-error."""

from __future__ import annotations

from typing import Dict, Iterator, List, Optional, Sequence, Set, Union

import libcst as cst

from xdevlint.analysis import names
from xdevlint.analysis.lifetime import calls_in, catch_class
from xdevlint.analysis.tree import children
from xdevlint.analysis.locations import Locations
from xdevlint.analysis.moves import move_of
from xdevlint.rules.rule import Rule, snippet
from xdevlint.stages.scan import Scan

Handler = Union[cst.ExceptHandler, cst.ExceptStarHandler]

#: Methods that only report: logging's, ``warnings.warn``'s and a stream's ``write``.
_REPORTING_METHODS = frozenset({"debug", "info", "warning", "warn", "error", "exception", "critical", "fatal", "log", "write", "print_exc"})
_REPORTING_FUNCTIONS = frozenset({"builtins.print", "warnings.warn", "traceback.print_exc", "traceback.print_exception"}) | {
    f"logging.{level}" for level in ("debug", "info", "warning", "warn", "error", "exception", "critical", "fatal", "log")
}
#: Calls that end the program or the test: the failure is visible.
_ENDING_FUNCTIONS = frozenset({"sys.exit", "os._exit", "os.abort", "builtins.exit", "builtins.quit", "pytest.fail", "pytest.skip", "pytest.exit"})
_ENDING_METHODS = frozenset({"fail", "skipTest", "exit"})


class SwallowedMoveError(Rule):
    """
    ## What it does
    Flags an `except` clause that catches the failure of a rename, replace, move,
    copy or link (`os.rename`, `os.replace`, `shutil.move`, `shutil.copy2`, `os.link`,
    `Path.rename`, ... however imported) and swallows it: it catches `OSError` (or
    one of its subclasses, a tuple with one, `Exception`, `BaseException`, or
    everything with a bare `except:`), and on some path through it neither re-raises,
    nor falls back to another move or copy, nor removes the file it was moving, nor
    returns or records a failure the caller can see. `pass`, `continue` and a log call
    are the usual shapes.

    A clause that catches only `FileNotFoundError` is not flagged: the source is
    already gone, so nothing is left behind (`except FileNotFoundError` around an
    `unlink` is the usual idiom). A clause counts as reporting the failure when it
    returns a value (`return False`; `return None` where the function otherwise
    returns something), stores or passes on the exception object (`errors.append(e)`,
    `self.error = e`, `future.set_exception(e)`), sets a flag to `False`, or ends the
    program or test (`sys.exit`, `self.fail`). Counting failures (`failed += 1`) and
    logging them are not enough: nobody acts on a counter, and the staged file stays.

    ## Why is this bad?
    `rename(2)` fails with `EXDEV` as soon as source and destination are on different
    filesystems. Swallowing that error means the data never arrives, the caller
    believes it did, and the staged file stays in `/tmp`. In the Xet migration the
    workers logged a warning for every shard and went on; the disks filled with
    orphaned shards until every write failed with `ENOSPC`.

    ## Example
    ```python
    import logging
    import os

    log = logging.getLogger(__name__)

    def publish(tmp, dst):
        try:
            os.rename(tmp, dst)
        except OSError as exc:
            log.warning("could not publish %s: %s", dst, exc)
    ```

    ## Use instead
    Let the error reach the caller after removing the staged file, or move with
    `xdevlint.safemove.safe_move`, which copies across filesystems atomically:
    ```python
    import contextlib
    import logging
    import os

    log = logging.getLogger(__name__)

    def publish(tmp, dst):
        try:
            os.rename(tmp, dst)
        except OSError:
            log.error("could not publish %s", dst)
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
            raise
    ```

    ## Fix safety
    No automatic fix: whether the caller should see the error, or the code should fall
    back to a copy, is a decision about the program. XDV201 offers the cleanup half.

    ## Options
    None.
    """

    CODE = "XDV202"
    NAME = "swallowed-move-error"
    MESSAGE = "`{clause}` swallows the failure of `{function}`: it neither re-raises, nor removes the source, nor reports the failure to the caller"

    def __init__(self, context: object) -> None:
        super().__init__(context)  # type: ignore[arg-type]
        self.functions: List[Optional[cst.FunctionDef]] = [None]
        self.module: Optional[cst.Module] = None
        self._returns_values: Dict[cst.FunctionDef, bool] = {}

    @classmethod
    def may_apply(cls, scan: Scan, locations: Locations) -> bool:
        return scan.has_guarded_move_call()

    def visit_Module(self, node: cst.Module) -> None:
        self.module = node

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.functions.append(node)

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self.functions.pop()

    def visit_Lambda(self, node: cst.Lambda) -> None:
        self.functions.append(None)

    def leave_Lambda(self, original_node: cst.Lambda) -> None:
        self.functions.pop()

    def visit_Try(self, node: cst.Try) -> None:
        self.check(node)

    def visit_TryStar(self, node: cst.TryStar) -> None:
        self.check(node)

    def check(self, node: Union[cst.Try, cst.TryStar]) -> None:
        moves = [call for call in calls_in(node.body) if self.move_source(call) is not None]
        if not moves:
            return
        sources: Set[str] = set()
        for call in moves:
            source = self.move_source(call)
            sources.update(n.value for n in _names(source) if isinstance(n, cst.Name))  # type: ignore[arg-type]
        sources -= {"self", "cls"}
        finalbody = getattr(node, "finalbody", None)
        if finalbody is not None and self.removes(_body(finalbody.body), sources):
            return
        for handler in node.handlers:
            if catch_class(handler, self.value_of) == "enoent":
                continue
            if catch_class(handler, self.value_of) == "some" and not self.catches_os_subclass(handler):
                continue
            body = list(_body(handler.body))
            if self.handles(body, sources, handler):
                continue
            if not _ends_in_jump(body) and self.used_after(node, sources):
                continue  # it falls through to code that goes on with the source: a fallback
            self.report(handler, self.MESSAGE.format(clause=self.code(handler), function=self.code(moves[0].func)))

    def catches_os_subclass(self, handler: Handler) -> bool:
        expression = handler.type
        if expression is None:
            return True
        types = [e.value for e in expression.elements] if isinstance(expression, cst.Tuple) else [expression]
        return any(self.value_of(t).callees & names.OS_ERROR_SUBCLASSES for t in types)

    def code(self, node: cst.CSTNode) -> str:
        assert self.module is not None
        return snippet(self.module.code_for_node(node))

    def move_source(self, call: cst.Call) -> Optional[cst.BaseExpression]:
        callees = self.value_of(call.func).callees
        for callee in callees:
            index = names.MOVE_LIKE_FUNCTIONS.get(callee)
            if index is not None:
                args = [a for a in call.args if a.keyword is None and not a.star]
                return args[index].value if len(args) > index else call
        move = move_of(call, self.value_of)
        if move is not None:
            return move.source
        return None

    # -- does the clause deal with the failure?

    def handles(self, statements: Sequence[cst.CSTNode], sources: Set[str], handler: Handler) -> bool:
        """Whether every way through ``statements`` deals with the failure."""
        for statement in statements:
            if self.deals(statement, sources, handler):
                return True
        return False

    def deals(self, node: cst.CSTNode, sources: Set[str], handler: Handler) -> bool:
        if isinstance(node, cst.SimpleStatementLine):
            return self.handles(node.body, sources, handler)
        if isinstance(node, cst.Raise):
            return True
        if isinstance(node, cst.Return):
            return self.visible_return(node)
        if isinstance(node, cst.If):
            other = node.orelse
            if other is None:
                return False
            branch = [other] if isinstance(other, cst.If) else list(_body(other.body))
            return self.handles(list(_body(node.body)), sources, handler) and self.handles(branch, sources, handler)
        if isinstance(node, (cst.With, cst.For, cst.While)):
            return self.handles(list(_body(node.body)), sources, handler)
        if isinstance(node, cst.Try):
            return self.handles(list(_body(node.body)), sources, handler) or (
                node.finalbody is not None and self.handles(list(_body(node.finalbody.body)), sources, handler)
            )
        if isinstance(node, (cst.Assign, cst.AugAssign, cst.AnnAssign)):
            value = node.value
            if value is not None and self.mentions_exception(value, handler):
                return True  # ``self.error = exc``
            if isinstance(value, cst.Name) and value.value == "False":
                return True  # ``ok = False``: a flag someone reads
        if isinstance(node, cst.BaseSmallStatement) or isinstance(node, cst.BaseExpression):
            return any(self.call_deals(call, sources, handler) for call in calls_in(node))
        return False

    def call_deals(self, call: cst.Call, sources: Set[str], handler: Handler) -> bool:
        callees = self.value_of(call.func).callees
        method = call.func.attr.value if isinstance(call.func, cst.Attribute) else None
        if self.move_source(call) is not None:
            return True  # a fallback copy or move
        if callees & names.CLEANUP_FUNCTIONS or method in ("unlink", "rmdir"):
            target: Optional[cst.BaseExpression] = None
            if isinstance(call.func, cst.Attribute) and method in ("unlink", "rmdir") and not callees & names.CLEANUP_FUNCTIONS:
                target = call.func.value
            elif call.args:
                target = call.args[0].value
            if target is not None and any(isinstance(n, cst.Name) and n.value in sources for n in _names(target)):
                return True  # removes what it was moving
        if callees & _ENDING_FUNCTIONS or method in _ENDING_METHODS:
            return True
        reporting = bool(callees & _REPORTING_FUNCTIONS) or method in _REPORTING_METHODS
        if not reporting and any(self.mentions_exception(arg.value, handler) for arg in call.args):
            return True  # hands the exception on: ``errors.append(exc)``, ``callback(exc)``
        if not reporting and any(n.value in sources for arg in call.args for n in _names(arg.value) if isinstance(n, cst.Name)):
            return True  # does something else with the source: ``copy_function(src, dst)``
        return False

    def used_after(self, node: cst.CSTNode, sources: Set[str]) -> bool:
        """Whether code after the ``try`` (in the enclosing blocks) reads the source."""
        function = self.functions[-1]
        root: Optional[cst.CSTNode] = function.body if function is not None else self.module
        assert root is not None
        found = False
        for block in _blocks_holding(root, node):
            statements = list(_body(block))
            index = next(i for i, s in enumerate(statements) if s is node or _contains(s, node))
            for statement in statements[index + 1:]:
                if any(isinstance(n, cst.Name) and n.value in sources for n in _names(statement)):
                    found = True
        return found

    def mentions_exception(self, node: cst.CSTNode, handler: Handler) -> bool:
        if handler.name is None or not isinstance(handler.name.name, cst.Name):
            return False
        name = handler.name.name.value
        return any(isinstance(n, cst.Name) and n.value == name for n in _names(node))

    def visible_return(self, node: cst.Return) -> bool:
        value = node.value
        if value is not None and not (isinstance(value, cst.Name) and value.value == "None"):
            return True
        function = self.functions[-1]
        if function is None:
            return False
        # ``return None`` tells the caller something when other returns give a value.
        found = self._returns_values.get(function)
        if found is None:
            found = any(
                isinstance(n, cst.Return) and n.value is not None and not (isinstance(n.value, cst.Name) and n.value.value == "None")
                for n in _names(function.body)
            )
            self._returns_values[function] = found
        return found

    def removes(self, statements: Sequence[cst.CSTNode], sources: Set[str]) -> bool:
        for statement in statements:
            for call in calls_in(statement):
                callees = self.value_of(call.func).callees
                method = call.func.attr.value if isinstance(call.func, cst.Attribute) else None
                if callees & names.CLEANUP_FUNCTIONS and call.args:
                    target: cst.CSTNode = call.args[0].value
                elif isinstance(call.func, cst.Attribute) and method in ("unlink", "rmdir"):
                    target = call.func.value
                else:
                    continue
                if any(isinstance(n, cst.Name) and n.value in sources for n in _names(target)):
                    return True
        return False


def _ends_in_jump(statements: Sequence[cst.CSTNode]) -> bool:
    last = statements[-1] if statements else None
    if isinstance(last, cst.SimpleStatementLine):
        last = last.body[-1] if last.body else None
    return isinstance(last, (cst.Continue, cst.Break, cst.Return, cst.Raise))


def _contains(outer: cst.CSTNode, inner: cst.CSTNode) -> bool:
    return any(n is inner for n in _names(outer))


def _blocks_holding(root: cst.CSTNode, node: cst.CSTNode) -> List[cst.CSTNode]:
    """The blocks (module, indented blocks) on the way from ``root`` down to ``node``."""
    found: List[cst.CSTNode] = []
    current = root
    while current is not node:
        if isinstance(current, (cst.Module, cst.IndentedBlock)):
            found.append(current)
        for child in children(current):
            if child is node or _contains(child, node):
                current = child
                break
        else:
            break
        if isinstance(current, (cst.FunctionDef, cst.ClassDef)) and current is not root:
            found = []
    return found


def _body(suite: cst.CSTNode) -> Sequence[cst.CSTNode]:
    """The statements of a suite or module (``body`` is typed per node class)."""
    body: Sequence[cst.CSTNode] = getattr(suite, "body")
    return body


def _names(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(children(current))
