"""XDV202 swallowed-move-error."""

from __future__ import annotations

from typing import Callable, Dict, FrozenSet, Iterator, List, Optional, Sequence, Set, Union

import libcst as cst

from xdevlint.analysis import names
from xdevlint.analysis.lifetime import calls_in
from xdevlint.analysis.locations import Locations
from xdevlint.analysis.moves import copies_by_hand, move_of, staging
from xdevlint.analysis.tree import children
from xdevlint.analysis.values import Token, Value
from xdevlint.rules.rule import Rule, snippet
from xdevlint.stages.scan import Scan

Handler = Union[cst.ExceptHandler, cst.ExceptStarHandler]
Function = Union[cst.FunctionDef, cst.Lambda]

#: Classes whose handler can receive a rename's ``EXDEV``: ``OSError``, its aliases, and the
#: broad ones (``shutil.Error`` is raised by ``shutil``'s copies, never by a rename).
EXDEV_CLASSES: FrozenSet[str] = names.OS_ERROR_CLASSES | names.BROAD_EXCEPTIONS
#: Catching one of these catches every ``OSError``: later clauses of the ``try`` never see ``EXDEV``.
_ALL_OS_ERRORS: FrozenSet[str] = names.OS_ERROR_CLASSES | names.BROAD_EXCEPTIONS

#: A copy, move or link in a handler: a fallback that can cross filesystems (or a second
#: attempt, whose own failure is not caught). ``os.symlink`` links across filesystems.
_FALLBACK_FUNCTIONS: FrozenSet[str] = names.MOVE_LIKE_FUNCTIONS | {"os.symlink", "shutil.copyfileobj"}
#: Parts of a function's name (split at ``_``) that mark a copy or a move: ``_copy_tree(src, dst)``,
#: ``fs.mv(a, b)``, ``utils.cp(src_file, dst_file)``. ``unlink`` and ``remove`` are no such part.
_FALLBACK_WORDS: FrozenSet[str] = frozenset(
    {"copy", "copy2", "copyfile", "copytree", "copyfileobj", "cp", "move", "mv", "rename", "renames", "link", "hardlink", "symlink"}
)
#: Calls that open a path (their first argument), and path methods that read the path they are called on.
_OPENS: FrozenSet[str] = frozenset({"builtins.open", "io.open", "os.open"})
_READ_METHODS: FrozenSet[str] = frozenset({"open", "read_bytes", "read_text"})
#: Modules whose functions of those names copy objects, not files.
_NOT_FILE_COPIES: FrozenSet[str] = frozenset({"copy.copy", "copy.deepcopy"})

#: Methods that end the test (``self.fail``), as ``names.EXIT_FUNCTIONS`` end the program:
#: whoever runs it sees that it stopped.
_EXIT_METHODS: FrozenSet[str] = frozenset({"fail", "skipTest"})

#: Logging methods below ``info``: what they say is off in production, so nobody learns from it.
_QUIET_LOG_METHODS: FrozenSet[str] = frozenset({"debug", "trace", "verbose", "spam"})
_QUIET_LEVELS: FrozenSet[str] = frozenset({"DEBUG", "NOTSET", "TRACE", "VERBOSE", "SPAM"})
#: Calls that write the exception being handled without being given it.
_PRINTS_CURRENT: FrozenSet[str] = frozenset({"traceback.print_exc", "traceback.print_exception", "traceback.print_last"})
#: Expressions that are the exception being handled, under no name.
_CURRENT_EXCEPTION: FrozenSet[str] = frozenset(
    {"sys.exc_info", "sys.exception", "traceback.format_exc", "traceback.format_exception", "traceback.format_exception_only"}
)
#: Calls that only compute from the exception (``str(e)``, ``e.errno`` tests, formatting):
#: giving them the exception passes it on to nobody; what happens to their result decides.
_PURE_FUNCTIONS: FrozenSet[str] = frozenset(
    f"builtins.{name}"
    for name in ("str", "repr", "format", "isinstance", "issubclass", "getattr", "hasattr", "type", "len", "bool", "int", "id", "hash", "vars", "dir", "any", "all")
) | {"os.strerror"}
_PURE_METHODS: FrozenSet[str] = frozenset(
    {"format", "join", "lower", "upper", "strip", "lstrip", "rstrip", "startswith", "endswith", "split", "splitlines", "partition", "encode", "decode"}
)

_SCOPES = (cst.FunctionDef, cst.Lambda, cst.ClassDef)
_CONTEXT_MANAGER_DECORATORS: FrozenSet[str] = frozenset({"contextlib.contextmanager", "contextlib.asynccontextmanager"})


class SwallowedMoveError(Rule):
    """
    ## What it does
    Flags an `except` clause that can catch `EXDEV` (bare, `BaseException`, `Exception`,
    `OSError`, `IOError`, `EnvironmentError`, `os.error`, or a tuple with one) around a
    rename, replace or link (`os.rename`, `os.replace`, `os.renames`, `os.link`,
    `Path.rename`, `Path.replace`, `Path.hardlink_to`, however imported or handed on) of
    a staged file (a temp, a file the function wrote, a name that says staged, or what a
    helper's callers pass, or hand to a worker with it) or between two known locations,
    whose two sides are not proven to stay on one filesystem (XDV102's proof, which a link
    whose failure the code goes on without needs too), when no path through the clause
    lets anyone learn why the call failed: it has no `raise` anywhere (a conditional
    re-raise counts: the author looked at the error), no fallback that copies or moves
    the data, no exit (`sys.exit`, `os._exit`, a same-module function that always
    raises), and it neither stores, returns, passes on nor logs the exception at `info`
    or above (`logger.exception(...)`, `exc_info=True`, `traceback.print_exc()` count;
    `log.debug` does not). The same holds for `with contextlib.suppress(OSError):` (or a
    broader class) around such a move, and for `with quiet():` where `quiet` is a
    same-module `@contextmanager` whose `yield` sits in such a clause; the finding is
    then on the `with`.

    Returning `None` or `False`, a message that leaves the exception out, counting
    failures and removing the staged file do not make the cause visible. Only a move
    that can fail with `EXDEV` counts: a rename between sibling names (`x` to
    `x + ".bak"`, a temp made beside its destination) cannot, and `shutil.move` and the
    `shutil` copies handle `EXDEV` themselves. A rename of files that stay where the
    project keeps them (a config directory migrated within the home directory, a file
    claimed from a directory scan) is not flagged either: nothing says it crosses
    mounts, and on real code such clauses are deliberate. Clauses that catch only
    classes that never carry `EXDEV` (`FileExistsError`, `FileNotFoundError`,
    `PermissionError`, `IsADirectoryError`, `NotADirectoryError`, `shutil.Error`,
    `shutil.SameFileError`) are never flagged, nor is `os.symlink`, which is no move. A
    link counts the same way: linking a file that stays where it is into an optional
    place loses nothing when it fails. Code after the clause that makes the file another
    way (a copy, or a download written in place) is a fallback, unless a clause of its
    own swallows its failure in turn. A clause that tests `err.errno == errno.EXDEV` and
    copies in that branch handles the case by name, and is not flagged whatever it does
    with other errnos. A staged file left behind is XDV201's finding, not this rule's.

    ## Why is this bad?
    `rename(2)` fails with `EXDEV` as soon as the source and the destination are on
    different filesystems, and it fails that way on every call. A clause that turns
    the error into `return False` or a debug line tells the caller *that* the move
    failed, never *why*: nobody learns that the code needs a copy fallback, and it
    fails the same way forever. In the Xet migration the workers skipped every shard
    quietly until their disks filled; another tool printed "already installed" for
    every `EXDEV`.

    ## Example
    ```python
    import logging
    import os

    log = logging.getLogger(__name__)

    def publish(tmp, dst):
        try:
            os.rename(tmp, dst)
        except OSError:
            log.debug("could not publish %s", dst)
            return False
        return True
    ```

    ## Use instead
    Let the error reach the caller, or keep the exception where someone will see it,
    or move with `xdevlint.safemove.safe_move`, which copies across filesystems:
    ```python
    import logging
    import os

    log = logging.getLogger(__name__)

    def publish(tmp, dst):
        try:
            os.rename(tmp, dst)
        except OSError as exc:
            log.warning("could not publish %s: %s", dst, exc)
            return False
        return True
    ```

    ## Fix safety
    No automatic fix: whether the caller should see the error, or the code should fall
    back to a copy, is a decision about the program. XDV201 offers the cleanup of the
    staged file, which this rule does not ask for.

    ## Options
    None.
    """

    CODE = "XDV202"
    NAME = "swallowed-move-error"
    MESSAGE = "`{clause}` loses why `{move}` failed (`EXDEV` or another error): {how}"
    #: ``how`` for an ``except`` clause, and for ``contextlib.suppress``.
    HANDLER = "no raise, no copy fallback, no exit, and the exception is not kept, returned, passed on or logged at `info` or above"
    SUPPRESS = "the suppressed exception is seen by nobody"

    def __init__(self, context: object) -> None:
        super().__init__(context)  # type: ignore[arg-type]
        self.functions: List[Optional[Function]] = [None]
        self.module: Optional[cst.Module] = None
        #: Same-module functions already judged: does calling one end the program / fall back?
        self._raises: Dict[cst.FunctionDef, bool] = {}
        self._falls_back: Dict[cst.FunctionDef, bool] = {}
        #: Same-module context managers already judged: the clause around their ``yield`` that swallows.
        self._swallowers: Dict[cst.FunctionDef, Optional[Handler]] = {}
        self._by_name: Optional[Dict[str, List[cst.FunctionDef]]] = None

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
        self.functions.append(node)

    def leave_Lambda(self, original_node: cst.Lambda) -> None:
        self.functions.pop()

    def visit_Try(self, node: cst.Try) -> None:
        self.check_try(node)

    def visit_TryStar(self, node: cst.TryStar) -> None:
        self.check_try(node)

    def visit_With(self, node: cst.With) -> None:
        move = self.first_move(node.body)
        if move is None:
            return
        for item in node.items:
            how = self.suppressor(item.item)
            if how is not None:
                if not self.falls_back_after(node, self.functions[-1], move=move):
                    self.report(node, self.MESSAGE.format(clause=self.code(node), move=self.code(move), how=how))
                return

    # -- try/except

    def check_try(self, node: Union[cst.Try, cst.TryStar]) -> None:
        move = self.first_move(node.body)
        if move is None:
            return
        for handler in node.handlers:
            if self.catches_exdev(handler.type) and self.swallows(handler, self.functions[-1]):
                if not self.copies_on_exdev(handler, move) and not self.falls_back_after(handler, self.functions[-1], node, move):
                    self.report(handler, self.MESSAGE.format(clause=self.code(handler), move=self.code(move), how=self.HANDLER))
            if handler.type is None or self.catches(handler.type, _ALL_OS_ERRORS):
                return  # every later clause is too late for an OSError

    def catches_exdev(self, expression: Optional[cst.BaseExpression]) -> bool:
        return expression is None or self.catches(expression, EXDEV_CLASSES)

    def catches(self, expression: cst.BaseExpression, classes: FrozenSet[str]) -> bool:
        """Whether the ``except`` type ``expression`` names one of ``classes`` (a tuple,
        or a name bound to one, may hold it)."""
        if isinstance(expression, cst.Tuple):
            return any(self.catches(e.value, classes) for e in expression.elements)
        return _names_class(self.value_of(expression), classes)

    def swallows(self, handler: Handler, function: Optional[Function]) -> bool:
        """Whether no path through ``handler`` lets anyone learn the exception it caught."""
        tainted: Set[str] = set()
        if handler.name is not None and isinstance(handler.name.name, cst.Name):
            tainted.add(handler.name.name.value)
        body = handler.body
        # ``msg = f"...{e}"`` makes ``msg`` the exception too, as long as it stays in the clause;
        # anything else that takes it (``self.error = e``, a name read after the clause) keeps it.
        changed = True
        while changed:
            changed = False
            for target in self.assigned_from(body, tainted):
                if isinstance(target, cst.Name) and self.local_to(target.value, handler, function):
                    if target.value not in tainted:
                        tainted.add(target.value)
                        changed = True
                else:
                    return False
        return not self.reveals(body, frozenset(tainted))

    def assigned_from(self, node: cst.CSTNode, tainted: Set[str]) -> Iterator[cst.BaseExpression]:
        """Targets of assignments in ``node`` whose value holds the exception."""
        for current in _walk(node):
            if isinstance(current, cst.Assign):
                if self.mentions(current.value, tainted):
                    yield from (t.target for t in current.targets)
            elif isinstance(current, (cst.AugAssign, cst.AnnAssign, cst.NamedExpr)):
                if current.value is not None and self.mentions(current.value, tainted):
                    yield current.target

    def local_to(self, name: str, handler: Handler, function: Optional[Function]) -> bool:
        """Whether ``name`` is a local variable that nothing outside ``handler`` reads."""
        if function is None or not isinstance(function, cst.FunctionDef):
            return False  # a module's or a class's variable: others can read it
        stack: List[cst.CSTNode] = [function.body]
        while stack:
            current = stack.pop()
            if isinstance(current, (cst.Global, cst.Nonlocal)) and any(n.name.value == name for n in current.names):
                return False
            if isinstance(current, cst.Name) and current.value == name:
                return False
            stack.extend(c for c in children(current) if c is not handler)
        return True

    def reveals(self, node: cst.CSTNode, tainted: FrozenSet[str]) -> bool:
        """Whether ``node`` raises, falls back, exits, or hands on the exception."""
        if isinstance(node, cst.Raise):
            return True
        if isinstance(node, _SCOPES):
            return self.mentions(node, tainted)  # a closure that keeps the exception
        if isinstance(node, (cst.Return, cst.Yield)) and node.value is not None:
            value = node.value
            if isinstance(value, cst.From):
                value = value.item
            if self.mentions(value, tainted):
                return True
        if isinstance(node, cst.Call):
            verdict = self.call_reveals(node, tainted)
            if verdict is not None:
                return verdict
        return any(self.reveals(child, tainted) for child in children(node))

    def call_reveals(self, call: cst.Call, tainted: FrozenSet[str]) -> Optional[bool]:
        """True when ``call`` makes the error visible, False when nothing below it can,
        None when its arguments decide."""
        callees = self.value_of(call.func).callees
        name = _call_name(call)
        if self.is_fallback(call, callees, name) or callees & names.EXIT_FUNCTIONS or callees & _PRINTS_CURRENT:
            return True
        if isinstance(call.func, cst.Attribute) and name in _EXIT_METHODS:
            return True
        definitions = self.definitions(call)
        if definitions and (all(self.always_raises(d) for d in definitions) or any(self.falls_back(d) for d in definitions)):
            return True
        if name in _QUIET_LOG_METHODS:
            return False  # whatever it is given, it goes nowhere anyone reads
        if name == "log" and call.args and _quiet_level(call.args[0].value):
            return False
        if name in names.LOGGING_METHODS or name == "log":
            if name == "exception" or any(
                a.keyword is not None and a.keyword.value == "exc_info" and not _falsy(a.value) for a in call.args
            ):
                return True
            return any(self.mentions(a.value, tainted) for a in call.args)
        if callees & _PURE_FUNCTIONS or callees & _CURRENT_EXCEPTION or (
            isinstance(call.func, cst.Attribute) and name in _PURE_METHODS
        ):
            return None
        if any(self.mentions(a.value, tainted) for a in call.args):
            return True  # passed on: ``errors.append(e)``, ``callback(e)``, ``print(e)``
        return None

    def is_fallback(self, call: cst.Call, callees: FrozenSet[str], name: Optional[str]) -> bool:
        """A copy, move or link: by qualified name, as a path method, spelled out
        (``f.write(f2.read())``), or by its name's words."""
        if callees & _FALLBACK_FUNCTIONS or move_of(call, self.value_of) is not None or copies_by_hand(call):
            return True
        if callees & _NOT_FILE_COPIES or not call.args or name is None:
            return False
        return any(word in _FALLBACK_WORDS for word in name.lower().split("_"))

    def mentions(self, node: cst.CSTNode, tainted: Union[Set[str], FrozenSet[str]]) -> bool:
        """Whether ``node`` holds the exception: one of its names, or ``sys.exc_info()``."""
        for current in _walk(node, into_scopes=True):
            if isinstance(current, cst.Name) and current.value in tainted:
                return True
            if isinstance(current, cst.Call) and self.value_of(current.func).callees & _CURRENT_EXCEPTION:
                return True
        return False

    # -- same-module helpers

    def definitions(self, call: cst.Call) -> List[cst.FunctionDef]:
        """The same-module functions ``call`` may call: what provenance resolves, else, for
        a method of an object it cannot type (``manager.extraction_error()``), every
        function or method of the module with that name."""
        found = [d for d in self.value_of(call.func).defs if isinstance(d, cst.FunctionDef)]
        if found or not isinstance(call.func, cst.Attribute):
            return found
        if self._by_name is None:
            assert self.module is not None
            self._by_name = {}
            for node in _walk(self.module, into_scopes=True):
                if isinstance(node, cst.FunctionDef):
                    self._by_name.setdefault(node.name.value, []).append(node)
        return self._by_name.get(call.func.attr.value, [])

    def always_raises(self, function: cst.FunctionDef) -> bool:
        """Whether every call of ``function`` ends in an exception or an exit: it says so
        (``-> NoReturn``), or it has no ``return`` and its body raises on every path."""
        known = self._raises.get(function)
        if known is None:
            self._raises[function] = False  # recursion: assume it returns
            returns = function.returns
            if returns is not None and _last_name(returns.annotation) in ("NoReturn", "Never"):
                known = True
            else:
                statements = list(_statements(function.body))
                leaves = any(isinstance(n, (cst.Return, cst.Yield)) for s in statements for n in _walk(s))
                known = not leaves and self.block_raises(statements)
            self._raises[function] = known
        return known

    def block_raises(self, statements: Sequence[cst.CSTNode]) -> bool:
        return any(self.statement_raises(s) for s in statements)

    def statement_raises(self, statement: cst.CSTNode) -> bool:
        if isinstance(statement, cst.SimpleStatementLine):
            return any(self.statement_raises(s) for s in statement.body)
        if isinstance(statement, cst.Raise):
            return True
        if isinstance(statement, cst.Expr) and isinstance(statement.value, cst.Call):
            call = statement.value
            if self.value_of(call.func).callees & names.EXIT_FUNCTIONS:
                return True
            definitions = self.definitions(call)
            return bool(definitions) and all(self.always_raises(d) for d in definitions)
        if isinstance(statement, cst.If):
            other = statement.orelse
            if other is None:
                return False
            branch = [other] if isinstance(other, cst.If) else list(_statements(other.body))
            return self.block_raises(list(_statements(statement.body))) and self.block_raises(branch)
        if isinstance(statement, cst.With):
            return self.block_raises(list(_statements(statement.body)))
        if isinstance(statement, cst.Try):
            if statement.finalbody is not None and self.block_raises(list(_statements(statement.finalbody.body))):
                return True
            return self.block_raises(list(_statements(statement.body))) and all(
                self.block_raises(list(_statements(h.body))) for h in statement.handlers
            )
        return False

    def falls_back(self, function: cst.FunctionDef) -> bool:
        """Whether ``function`` copies or moves something itself: calling it is a fallback."""
        known = self._falls_back.get(function)
        if known is None:
            self._falls_back[function] = False  # recursion
            known = any(
                self.is_fallback(call, self.value_of(call.func).callees, _call_name(call)) for call in calls_in(function.body)
            )
            self._falls_back[function] = known
        return known

    # -- with contextlib.suppress(...) / a suppressing @contextmanager

    def suppressor(self, expression: cst.BaseExpression) -> Optional[str]:
        """For a ``with`` item that swallows ``EXDEV``, how it does (for the message);
        None when it lets the error through."""
        if not isinstance(expression, cst.Call):
            return None
        value = self.value_of(expression.func)
        if "contextlib.suppress" in value.callees:
            if any(not a.star and a.keyword is None and self.catches_exdev(a.value) for a in expression.args):
                return self.SUPPRESS
            return None
        found = sorted(
            f"`{definition.name.value}` swallows it in `{self.code(handler)}` around its `yield`"
            for definition in value.defs
            if isinstance(definition, cst.FunctionDef) and self.is_context_manager(definition)
            for handler in [self.swallower(definition)]
            if handler is not None
        )
        return found[0] if found else None

    def is_context_manager(self, function: cst.FunctionDef) -> bool:
        return any(self.value_of(d.decorator).callees & _CONTEXT_MANAGER_DECORATORS for d in function.decorators)

    def swallower(self, function: cst.FunctionDef) -> Optional[Handler]:
        """The clause of ``function`` that catches an exception thrown at its ``yield``
        and swallows it, if any."""
        if function in self._swallowers:
            return self._swallowers[function]
        found: Optional[Handler] = None
        for node in _walk(function.body):
            if not isinstance(node, (cst.Try, cst.TryStar)):
                continue
            if not any(isinstance(n, cst.Yield) for n in _walk(node.body)):
                continue
            for handler in node.handlers:
                if self.catches_exdev(handler.type) and self.swallows(handler, function):
                    found = handler
                    break
                if handler.type is None or self.catches(handler.type, _ALL_OS_ERRORS):
                    break
            if found is not None:
                break
        self._swallowers[function] = found
        return found

    def copies_on_exdev(self, handler: Handler, move: cst.Call) -> bool:
        """Whether ``handler`` tests its exception's errno for ``EXDEV`` and copies in that branch
        (``if err.errno == errno.EXDEV: dst.write_bytes(src.read_bytes())``): the case this rule
        is about is handled by name. What becomes of the copy's own failure, or of the other
        errnos of a best-effort write, is another matter."""
        if handler.name is None or not isinstance(handler.name.name, cst.Name):
            return False
        caught = handler.name.name.value
        found = move_of(move, self.value_of)
        source = self.value_of(found.source).idents if found is not None and not found.passed else frozenset()
        for node in _walk(handler.body):
            if isinstance(node, cst.If) and _tests_exdev(node.test, caught):
                for call in calls_in(node.body):
                    if self.is_fallback(call, self.value_of(call.func).callees, _call_name(call)) or source and self.reads(call, source):
                        return True
        return False

    # -- the code after the clause

    def falls_back_after(
        self, node: cst.CSTNode, function: Optional[Function], statement: Optional[cst.CSTNode] = None, move: Optional[cst.Call] = None
    ) -> bool:
        """Whether, when ``node`` (a clause, or a suppressing ``with``) lets the program go on,
        the code after it copies or moves: ``try: os.link(a, b); return / except OSError:
        pass / shutil.copy2(a, b)``, or opens the ``move``'s source to copy it by hand
        (``with open(src, "rb") as f: ...``). A move guarded by a ``try`` of its own that
        swallows its failure in turn is no fallback."""
        body = _statements(node.body) if isinstance(node, (cst.ExceptHandler, cst.ExceptStarHandler)) else []
        last = body[-1] if body else None
        if isinstance(last, cst.SimpleStatementLine) and last.body and isinstance(last.body[-1], cst.Return):
            return False
        leaves_loop = isinstance(last, cst.SimpleStatementLine) and bool(last.body) and isinstance(last.body[-1], (cst.Continue, cst.Break))
        root: Optional[cst.CSTNode] = function.body if isinstance(function, cst.FunctionDef) else self.module
        if root is None:
            return False
        blocks = _following(root, statement if statement is not None else node, leaves_loop)
        if isinstance(statement, (cst.Try, cst.TryStar)) and statement.finalbody is not None:
            blocks.insert(0, statement.finalbody)
        found = move_of(move, self.value_of) if move is not None else None
        source = self.value_of(found.source).idents if found is not None and not found.passed else frozenset()
        for block in blocks:
            for call in calls_in(block):
                if _guarded(block, call, lambda h: self.catches_exdev(h.type) and self.swallows(h, function)):
                    continue
                if self.is_fallback(call, self.value_of(call.func).callees, _call_name(call)) or source and self.reads(call, source):
                    return True
        return False

    def reads(self, call: cst.Call, source: FrozenSet[Token]) -> bool:
        """Whether ``call`` opens or reads a path named by ``source`` (an ident of the move's source)."""
        func = call.func
        if self.value_of(func).callees & _OPENS:
            target: Optional[cst.BaseExpression] = call.args[0].value if call.args and not call.args[0].star else None
        elif isinstance(func, cst.Attribute) and func.attr.value in _READ_METHODS:
            target = func.value
        else:
            return False
        return target is not None and bool(self.value_of(target).idents & source)

    # -- helpers

    def first_move(self, body: cst.CSTNode) -> Optional[cst.Call]:
        """The first rename, replace or link ``body`` runs (in its own scope) that may fail
        with ``EXDEV`` and leave it, or a call it hands one to (``asyncio.to_thread(os.replace,
        a, b)``). A move inside an inner ``try`` whose clause takes every ``OSError`` and
        never raises fails into that clause, not out of ``body``."""
        stack: List[cst.CSTNode] = [body]
        while stack:
            node = stack.pop()
            if isinstance(node, cst.Call) and self.unproven_move(node):
                return node
            inner = children(node)
            if isinstance(node, (cst.Try, cst.TryStar)) and any(self.absorbs(h) for h in node.handlers):
                inner = [c for c in inner if c is not node.body]
            stack.extend(c for c in reversed(inner) if not isinstance(c, _SCOPES))
        return None

    def unproven_move(self, call: cst.Call) -> bool:
        """Whether ``call`` renames, replaces or links (itself, or a move function it is
        handed) a file where an ``EXDEV`` is to be expected: its sides are not proven to
        stay on one filesystem, and it moves a staged file (a temp, a file the function
        wrote, a name that says so) or may cross mounts on the evidence XDV101 and XDV102
        go by (two locations; a staged file as a helper's callers pass it). A rename of
        files that stay where the project keeps them (a config directory migrated within
        the home directory, a lock's siblings found by a directory scan) is only not
        proven. ``shutil.move`` and the copies handle ``EXDEV`` themselves."""
        return any(e.judged and not e.proven and (e.exdev or bool(staging(e.source))) for e in self.value_of(call).moves)

    def absorbs(self, handler: Handler) -> bool:
        """Whether ``handler`` takes every ``OSError`` and lets none out again."""
        takes_all = handler.type is None or self.catches(handler.type, _ALL_OS_ERRORS)
        return takes_all and not any(isinstance(n, cst.Raise) for n in _walk(handler.body))

    def code(self, node: cst.CSTNode) -> str:
        assert self.module is not None
        return snippet(self.module.code_for_node(node))


def _names_class(value: Value, classes: FrozenSet[str]) -> bool:
    if value.callees & classes:
        return True
    return value.elements is not None and any(_names_class(e, classes) for e in value.elements)


def _call_name(call: cst.Call) -> Optional[str]:
    func = call.func
    if isinstance(func, cst.Attribute):
        return func.attr.value
    if isinstance(func, cst.Name):
        return func.value
    return None


def _tests_exdev(test: cst.BaseExpression, caught: str) -> bool:
    """Whether ``test`` holds ``caught.errno == errno.EXDEV`` (or ``in (errno.EXDEV, ...)``)."""
    for node in _walk(test):
        if not isinstance(node, cst.Comparison):
            continue
        operands = [node.left, *(c.comparator for c in node.comparisons)]
        positive = all(isinstance(c.operator, (cst.Equal, cst.In, cst.Is)) for c in node.comparisons)
        reads_errno = any(
            isinstance(o, cst.Attribute) and o.attr.value == "errno" and isinstance(o.value, cst.Name) and o.value.value == caught
            for o in operands
        )
        names_exdev = any(_last_name(n) == "EXDEV" for o in operands for n in _walk(o) if isinstance(n, (cst.Name, cst.Attribute)))
        if positive and reads_errno and names_exdev:
            return True
    return False


def _last_name(expression: cst.BaseExpression) -> Optional[str]:
    """``NoReturn`` of ``NoReturn``, ``typing.NoReturn`` or ``"NoReturn"``."""
    if isinstance(expression, cst.Attribute):
        return expression.attr.value
    if isinstance(expression, cst.Name):
        return expression.value
    if isinstance(expression, cst.SimpleString):
        text = expression.evaluated_value
        return text.rsplit(".", 1)[-1] if isinstance(text, str) else None
    return None


def _quiet_level(level: cst.BaseExpression) -> bool:
    """``logging.DEBUG``, ``DEBUG``, or a number below ``logging.INFO`` (20)."""
    if isinstance(level, cst.Attribute):
        return level.attr.value in _QUIET_LEVELS
    if isinstance(level, cst.Name):
        return level.value in _QUIET_LEVELS
    return isinstance(level, cst.Integer) and int(level.value, 0) < 20


def _falsy(value: cst.BaseExpression) -> bool:
    return isinstance(value, cst.Name) and value.value in ("False", "None") or isinstance(value, cst.Integer) and value.value == "0"


def _walk(node: cst.CSTNode, into_scopes: bool = False) -> Iterator[cst.CSTNode]:
    """``node`` and everything below it, not entering nested functions and classes
    unless ``into_scopes``."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        for child in reversed(children(current)):
            if into_scopes or not isinstance(child, _SCOPES):
                stack.append(child)


def _inside(node: cst.CSTNode, outer: cst.CSTNode) -> bool:
    return any(n is node for n in _walk(outer, into_scopes=True))


def _statements(suite: cst.CSTNode) -> Sequence[cst.CSTNode]:
    """The statements of a suite or module (``body`` is typed per node class)."""
    body: Sequence[cst.CSTNode] = getattr(suite, "body")
    return body


def _following(root: cst.CSTNode, node: cst.CSTNode, leaves_loop: bool) -> List[cst.CSTNode]:
    """What runs after ``node`` (a statement, or a clause of one) completes: the statements
    after it in each enclosing block of ``root``, the ``finally`` of a ``try`` it is in,
    a loop's ``else``. With ``leaves_loop`` (it ends in ``continue``/``break``), the rest of the
    innermost loop's body is skipped."""
    levels: List[List[cst.CSTNode]] = []
    loop_depth = 0
    current = root
    while current is not node:
        child = next((c for c in children(current) if c is node or _inside(node, c)), None)
        if child is None or isinstance(child, _SCOPES):
            break
        if isinstance(current, (cst.Module, cst.IndentedBlock)):
            statements = list(_statements(current))
            levels.append(statements[statements.index(child) + 1:])
        elif isinstance(current, (cst.For, cst.While)):
            if current.orelse is not None:
                levels.append([current.orelse])
            loop_depth = len(levels)
        elif isinstance(current, (cst.Try, cst.TryStar)) and current.finalbody is not None and child is not current.finalbody:
            levels.append([current.finalbody])
        current = child
    if leaves_loop and loop_depth:
        levels = levels[:loop_depth]
    return [statement for level in levels for statement in level]


def _guarded(root: cst.CSTNode, call: cst.Call, swallows: Callable[[Handler], bool]) -> bool:
    """Whether ``call`` sits in the body of a ``try`` (below ``root``) with a clause that
    ``swallows`` its failure: one that only takes a client's errors lets it through, and
    one that logs or raises it makes the fallback's own failure seen."""
    for node in _walk(root):
        if isinstance(node, (cst.Try, cst.TryStar)) and _inside(call, node.body) and any(swallows(h) for h in node.handlers):
            return True
    return False
