"""Fixes for rename-like calls (XDV101, XDV102), in DESIGN's order of preference.

1. **At the source** (safe): the temp is created in the same function as the move,
   only this move takes it away, the destination's directory can be computed at the
   creation from names bound before it and not rebound in between, and nothing
   creates a directory in between. Then the creation gets ``dir=<that directory>``
   and the rename stays inside one directory.
2. **The configured move function** (``move-function``): ``os.rename(a, b)`` becomes
   ``shutil.move(a, b)`` (or ``safe_move(a, b)``...). Safe only when the function is
   atomic (``xdevlint.safemove.safe_move``, or ``move-function-atomic = true``) and the
   call's value is unused; ``os.renames`` stays unsafe, since a move function neither
   creates the destination's parents nor prunes the emptied source directories.

``os.link`` and ``Path.hardlink_to`` get no fix: a link has no copying equivalent
that keeps both names pointing at one file.
"""

from __future__ import annotations

import os.path
from typing import Callable, Dict, FrozenSet, List, Optional, Sequence, Tuple

import libcst as cst
from libcst.metadata import Assignment, FunctionScope, GlobalScope, Scope

from xdevlint.analysis import names
from xdevlint.analysis.moves import Move, move_of
from xdevlint.analysis.lifetime import Lifetime
from xdevlint.analysis.values import Fresh, Partial, Value
from xdevlint.fixes.cleanup import Cleanups
from xdevlint.fixes.syntax import Names, Reference, Region, add_keyword, fitted, merged, parenthesized, positional, swapped
from xdevlint.model import Applicability, Fix, Import, Replacement

ValueOf = Callable[[cst.CSTNode], Value]

SAFE_MOVE = "xdevlint.safemove.safe_move"
NO_FIX = frozenset({"os.link", "Path.hardlink_to"})

_PATH_MODULES = ("os.path", "posixpath", "ntpath")
_DIRNAME = frozenset(f"{m}.dirname" for m in _PATH_MODULES)
_BASENAME = frozenset(f"{m}.basename" for m in _PATH_MODULES)
_NORMALIZERS = frozenset(f"{m}.{f}" for m in _PATH_MODULES for f in ("normpath", "abspath"))
_WRAPPERS = frozenset({"os.fspath", "builtins.str", *names.PATH_CLASSES})

#: Calls whose result depends only on their arguments (and the environment, which
#: code between a creation and its move does not change in practice): a destination
#: built from them can be evaluated early, at the creation.
_PURE_CALLS: FrozenSet[str] = frozenset(
    {f"{m}.{f}" for m in _PATH_MODULES for f in ("join", "dirname", "basename", "normpath", "abspath", "expanduser")}
    | {"os.fspath", "os.getenv", "os.environ.get", "builtins.str", *names.PATH_CLASSES}
)
_PURE_METHODS = frozenset({"absolute", "resolve", "expanduser", "with_name", "with_suffix", "with_stem", "joinpath", "format"})

#: Derivations that stay inside the temp (or beside it, in its directory): moving the
#: temp next to the destination moves them there too.
_INSIDE_CALLS: FrozenSet[str] = frozenset(
    {f"{m}.{f}" for m in _PATH_MODULES for f in ("join", "abspath", "normpath", "realpath")}
    | {"os.fspath", "builtins.str", *names.PATH_CLASSES}
)
_INSIDE_METHODS = frozenset({"resolve", "absolute", "with_name", "with_suffix", "with_stem", "joinpath"})

#: Temp factories whose path is a directory that exists once they return.
_DIRECTORY_FACTORIES = frozenset({"tempfile.mkdtemp", "tempfile.TemporaryDirectory"})

#: Calls that may create the destination's directory between the creation and the move.
_MKDIR_CALLS = frozenset({"os.makedirs", "os.mkdir"})

_MAX_DEPTH = 8

# How a name is bound (``_AtSource.binding``).
_VALUE, _MKSTEMP_PATH, _WITH = "value", "mkstemp-path", "with"


class MoveFixes:
    """Builds fixes for the moves one rule reports in one module."""

    def __init__(
        self,
        module: cst.Module,
        value_of: ValueOf,
        move_function: str,
        atomic: bool,
        line_length: int = 88,
        leaking: Callable[[cst.Call], bool] = lambda creation: False,
        bound: FrozenSet[str] = frozenset(),
        lifetime_of: Callable[[cst.Call], Optional[Lifetime]] = lambda creation: None,
    ) -> None:
        self.module = module
        self.line_length = line_length
        #: Whether the temp a creation makes leaks on some path (XDV201, XDV203): staging
        #: it in the destination's directory would move that leak into a persistent place.
        self.leaking = leaking
        #: The lifetime of the temp a creation makes (``analysis.lifetime``): how to remove
        #: it on the paths that leak it, which makes staging it beside the destination safe.
        self.lifetime_of = lifetime_of
        self._cleanups: Optional[Cleanups] = None
        self.value_of = value_of
        self.move_function = move_function
        self.atomic = atomic or move_function == SAFE_MOVE
        self.names = Names(module, bound)  # ``bound``: see ``Names``
        self._regions: Dict[cst.CSTNode, Region] = {}
        self._moves: Dict[cst.CSTNode, List[Move]] = {}

    def fix_for(self, move: Move) -> Optional[Fix]:
        if move.function in NO_FIX or move.own:
            return None
        scope = self.names.scope_of(move.call)
        if not isinstance(scope, (FunctionScope, GlobalScope)):
            return None  # a class body or a comprehension: the analysis below assumes neither
        region = self._region(scope)
        if move.call not in region:
            return None
        at_source = _AtSource(self, move, scope, region).fix()
        if at_source is not None and at_source.applicability is Applicability.SAFE:
            return at_source
        # A leaking temp staged in the destination's directory would leak there: a safe
        # move-function call, which leaves the temp where it is, goes first.
        call = self._move_call(move, region)
        if at_source is None or call is not None and call.applicability is Applicability.SAFE:
            return call
        return at_source

    def cleanups(self) -> Cleanups:
        if self._cleanups is None:
            self._cleanups = Cleanups(self.module, self.names)
        return self._cleanups

    def _region(self, scope: Scope) -> Region:
        root: cst.CSTNode = self.module if isinstance(scope, GlobalScope) else scope.node  # type: ignore[attr-defined]
        region = self._regions.get(root)
        if region is None:
            region = self._regions[root] = Region(root)
        return region

    def moves_in(self, region: Region) -> List[Move]:
        found = self._moves.get(region.root)
        if found is None:
            found = [m for m in (move_of(n, self.value_of) for n in region.nodes if isinstance(n, cst.Call)) if m]
            self._moves[region.root] = found
        return found

    def callees(self, node: cst.CSTNode) -> FrozenSet[str]:
        return self.value_of(node).callees

    def statement_index(self, region: Region, node: cst.CSTNode) -> Optional[int]:
        """The index in ``module.body`` of the statement holding ``node`` at module level."""
        if not isinstance(region.root, cst.Module):
            return None
        top = node
        for ancestor in region.ancestors(node):
            if ancestor is region.root:
                break
            top = ancestor
        body = list(region.root.body)
        return next((i for i, s in enumerate(body) if s is top), None)

    def reference(self, qualified: str, region: Region, at: cst.CSTNode) -> Optional[Reference]:
        return self.names.reference(qualified, at, self.statement_index(region, at))

    # -- 2. the configured move function ------------------------------------------------

    def _move_call(self, move: Move, region: Region) -> Optional[Fix]:
        call = move.call
        if any(arg.star for arg in call.args):
            return None
        expected = 1 if move.method else 2
        if len(call.args) != expected:
            return None  # ``src_dir_fd=``/``dst_dir_fd=``: no move function takes those
        if not self.atomic and self._existing_directory(move.destination):
            return None  # ``shutil.move`` would move into it, where the rename replaced it
        mover = self.reference(self.move_function, region, call)
        if mover is None:
            return None
        imports = mover.imports
        used = region.value_is_used(call)
        func = mover.expression(self.module)
        keywords = any(arg.keyword is not None for arg in call.args)
        if move.method:
            # ``p.rename(t)`` -> ``move(p, t)``: the receiver is evaluated first either way.
            assert isinstance(call.func, cst.Attribute)
            target = call.args[0]
            if target.keyword is not None and target.keyword.value != "target":
                return None
            arguments = [
                cst.Arg(value=call.func.value, comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))),
                target.with_changes(keyword=None, equal=cst.MaybeSentinel.DEFAULT),
            ]
            new: cst.BaseExpression = call.with_changes(func=func, args=arguments)
        elif keywords:
            # ``os.rename(dst=b, src=a)`` -> ``move(a, b)``: a user's move function may name
            # its parameters differently, so pass them by position, but only when that
            # cannot change the order in which side effects happen.
            ordered = [arg.value for arg in call.args]
            if ordered != [move.source, move.destination] and not all(_side_effect_free(v, self.callees) for v in ordered):
                return None
            new = call.with_changes(func=func, args=positional([move.source, move.destination]))
        else:
            new = call.with_changes(func=func)
        if used and move.function.startswith("Path."):
            # ``Path.rename`` returns the new path; a move function returns what it was given.
            path = self.reference("pathlib.Path", region, call)
            if path is None:
                return None
            imports += path.imports
            new = cst.Call(func=path.expression(self.module), args=[cst.Arg(value=new)])
        target_node: cst.CSTNode = call
        replacement: cst.CSTNode = new
        if isinstance(new, cst.Call) and new.args is call.args and not new.lpar:
            target_node, replacement = call.func, func  # only the callee changes: the smallest edit
        safe = self.atomic and not used and move.function != "os.renames"
        reasons = []
        if not self.atomic:
            reasons.append(f"`{self.move_function}` is not atomic")
        if used:
            reasons.append("the call's value is used")
        if move.function == "os.renames":
            reasons.append("it does not create the destination's parent directories")
        message = f"Replace `{move.function}` with `{self.move_function}`"
        if reasons:
            message += ": " + "; ".join(reasons)  # why it is unsafe; the reporter names the level
        return Fix(
            Applicability.SAFE if safe else Applicability.UNSAFE,
            message,
            (Replacement(target_node, replacement),),
            _unique(imports),
        )


    def _existing_directory(self, destination: cst.BaseExpression) -> bool:
        """Whether ``destination`` is a directory ``tempfile`` made (``mkdtemp()``)."""
        for ident in self.value_of(destination).idents:
            if isinstance(ident, Fresh) and self.callees(ident.call.func) & _DIRECTORY_FACTORIES:
                return True
        return False


class _AtSource:
    """Fix kind 1 for one move: add ``dir=`` to the creation of its temp."""

    def __init__(self, fixes: MoveFixes, move: Move, scope: Scope, region: Region) -> None:
        self.fixes = fixes
        self.move = move
        self.scope = scope
        self.region = region
        self.imports: Tuple[Import, ...] = ()
        #: Whether ``early`` wrote a name assigned between the creation and the move as its value.
        self.substituted = False

    def fix(self) -> Optional[Fix]:
        move, region = self.move, self.region
        if move.function in ("os.renames",):
            return None  # it creates the destination's directories, so they may not exist yet
        creation = self.origin(move.source, 0)
        if creation is None or creation not in region or self.fixes.names.scope_of(creation) is not self.scope:
            return None
        if any(self.origin(other.source, 0) is creation for other in self.fixes.moves_in(region) if other.call is not move.call):
            return None  # the temp may go to another destination too
        statement = region.small_statement_of(creation)
        if statement is None or isinstance(statement, cst.BaseCompoundStatement) and not isinstance(statement, cst.With):
            return None  # ``for x in [mkdtemp()]``, ``if mkdtemp():``: not worth the reasoning
        if not self.dominates(statement, move.call):
            return None
        first, last = region.start[statement], region.start[move.call]
        for node in region.between(first, last):
            if isinstance(node, cst.Call) and self.creates_directory(node):
                return None
        self.substituted = False
        destination = self.early(move.destination, first, last, 0)
        if destination is None or _has_bytes(destination) or "\n" in self.fixes.module.code_for_node(destination):
            return None
        directory = self.directory_of(destination, move.destination)
        if directory is None:
            return None
        line = self.region.parent.get(statement) if isinstance(statement, cst.BaseSmallStatement) else statement
        if not isinstance(line, (cst.SimpleStatementLine, cst.BaseCompoundStatement)):
            return None
        if not _named(directory, self.fixes.callees):
            # Written out again at the creation, the directory would be evaluated twice:
            # the destination gets a name of its own instead.
            return self.bound(creation, line, first)
        new = self.with_dir(creation, directory)
        if new is None:
            return None
        new = self.fitted(line, creation, new)
        code = self.fixes.module.code_for_node(directory)
        return self.staged(creation, f"Create the temporary path in the destination's directory (`dir={code}`)", (Replacement(creation, new),))

    def staged(self, creation: cst.Call, title: str, replacements: Tuple[Replacement, ...]) -> Fix:
        """The fix that stages the temp beside the destination. Where the temp leaks, it is
        unsafe alone (a leftover would stay in the destination's directory, which nothing
        cleans): then, when the temp can be removed on every path that leaves it behind,
        that removal (XDV201's) comes with it, and the pair is safe: the program does what
        it did, except that the rename no longer crosses filesystems and nothing is left
        behind when it fails."""
        if self.fixes.leaking(creation):
            lifetime = self.fixes.lifetime_of(creation)
            cleanup = self.fixes.cleanups().complete(lifetime) if lifetime is not None else None
            together = merged(replacements, cleanup[0]) if cleanup is not None else None
            if cleanup is not None and together is not None:
                imports = _unique((*self.imports, *cleanup[1]))
                return Fix(Applicability.SAFE, f"{title}, and remove it on the error path", together, imports)
        return Fix(self.applicability(creation), title + self.caveat(creation), replacements, _unique(self.imports))

    def applicability(self, creation: cst.Call) -> Applicability:
        """Unsafe for a temp that leaks: its leftovers would land in the destination's
        directory, a persistent place nothing cleans, instead of the temp directory."""
        return Applicability.UNSAFE if self.fixes.leaking(creation) else Applicability.SAFE

    def caveat(self, creation: cst.Call) -> str:
        if not self.fixes.leaking(creation):
            return ""
        return ": the temp is not removed on every path, so a leftover would stay in the destination's directory"

    # -- a name for the destination ------------------------------------------------------

    def bound(self, creation: cst.Call, line: cst.BaseStatement, first: int) -> Optional[Fix]:
        """The fix when the directory is an expression: the destination is bound to a name
        once, before the creation (a new assignment, or the code's own assignment moved
        up), and the creation takes that name's directory."""
        block = self.region.parent.get(line)
        if not isinstance(block, cst.IndentedBlock) or not isinstance(self.scope, FunctionScope):
            return None
        destination = self.move.destination
        body = list(block.body)
        if not self.substituted:
            name = self.fresh_name()
            if name is None:
                return None
            assigned: cst.BaseStatement = cst.SimpleStatementLine(
                body=[cst.Assign(targets=[cst.AssignTarget(cst.Name(name))], value=destination)],
                leading_lines=getattr(line, "leading_lines"),
            )
            swaps: List[Tuple[cst.CSTNode, cst.CSTNode]] = [(destination, cst.Name(name))]
            removed: Optional[cst.BaseStatement] = None
        else:
            hoisted = self.hoistable(line, body, first)
            if hoisted is None:
                return None
            removed, name = hoisted
            assert isinstance(removed, cst.SimpleStatementLine)
            _, comments = _split(removed.leading_lines)
            assigned = removed.with_changes(leading_lines=[*getattr(line, "leading_lines"), *comments])
            swaps = []
        directory = self.directory_of(cst.Name(name), destination)
        if directory is None:
            return None
        new = self.with_dir(creation, directory)
        if new is None:
            return None
        new = self.fitted(line, creation, new)
        statements: List[cst.BaseStatement] = []
        carried: List[cst.EmptyLine] = []
        for statement in body:
            if statement is removed:
                assert isinstance(removed, cst.SimpleStatementLine)
                carried, _ = _split(removed.leading_lines)
                continue
            changed: cst.CSTNode = statement
            if statement is line:
                statements.append(assigned)
                changed = swapped(statement.with_changes(leading_lines=()), creation, new)
            for old, replacement in swaps:
                changed = swapped(changed, old, replacement)
            assert isinstance(changed, cst.BaseStatement)
            if carried:
                own, rest = _split(getattr(changed, "leading_lines"))
                changed = changed.with_changes(leading_lines=[*(own or carried), *rest])
                carried = []
            statements.append(changed)
        code = self.fixes.module.code_for_node(directory)
        title = f"Create the temporary path in the destination's directory (`{name}` bound first, `dir={code}`)"
        return self.staged(creation, title, (Replacement(block, block.with_changes(body=statements)),))

    def hoistable(self, line: cst.BaseStatement, body: List[cst.BaseStatement], first: int) -> Optional[Tuple[cst.BaseStatement, str]]:
        """The code's own ``name = value`` for the move's destination, when it can move up
        above the creation unchanged: it is the only statement on its line, in the
        creation's block, its value can be evaluated at the creation as it stands, and
        nothing in between reads the name."""
        destination = self.move.destination
        if not isinstance(destination, cst.Name):
            return None
        bound = self.binding(destination)
        if bound is None or bound[1] != _VALUE:
            return None
        assign = self.region.parent.get(bound[0])
        holder = self.region.parent.get(assign) if assign is not None else None
        if not isinstance(assign, cst.Assign) or not isinstance(holder, cst.SimpleStatementLine) or len(holder.body) != 1:
            return None
        if not any(statement is holder for statement in body) or self.region.start[holder] < self.region.start[line]:
            return None
        self.substituted = False
        value = self.early(assign.value, first, self.region.start[holder], 0)
        if value is None or self.substituted:
            return None
        between = self.region.between(self.region.start[line], self.region.start[holder])
        if any(isinstance(node, cst.Name) and node.value == destination.value for node in between):
            return None
        return holder, destination.value

    def fresh_name(self) -> Optional[str]:
        """A name nothing in the function (nor the module) uses, for the destination."""
        used = {node.value for node in self.region.nodes if isinstance(node, cst.Name)}
        for candidate in ("destination", "destination_path", "target_path"):
            if candidate not in used and self.fixes.names.is_free(candidate, self.scope):
                return candidate
        return None

    def fitted(self, line: cst.BaseStatement, creation: cst.Call, new: cst.Call) -> cst.Call:
        """``new`` wrapped as black would when its line passes the file's line length."""
        indent = ""
        for ancestor in self.region.ancestors(line):
            if isinstance(ancestor, cst.IndentedBlock):
                indent = (self.fixes.module.default_indent if ancestor.indent is None else ancestor.indent) + indent
        return fitted(self.fixes.module, line, indent, creation, new, self.fixes.line_length)

    # -- where the temp comes from ---------------------------------------------------

    def origin(self, expression: cst.BaseExpression, depth: int) -> Optional[cst.Call]:
        """The temp-creating call ``expression`` is (or lies inside, or beside), if any."""
        if depth > _MAX_DEPTH:
            return None
        callees = self.fixes.callees
        if isinstance(expression, cst.Call):
            factory = callees(expression.func) & names.TEMP_FACTORIES.keys()
            if factory:
                return expression if factory & {"tempfile.mkdtemp", "tempfile.mktemp"} else None
            called = callees(expression.func)
            if called & _INSIDE_CALLS and expression.args and not expression.args[0].star:
                return self.origin(expression.args[0].value, depth + 1)
            func = expression.func
            if isinstance(func, cst.Attribute) and func.attr.value in _INSIDE_METHODS and self.fixes.value_of(func.value).is_path:
                return self.origin(func.value, depth + 1)
            return None
        if isinstance(expression, cst.Subscript):
            # ``mkstemp()[1]``
            value = expression.value
            if (
                isinstance(value, cst.Call)
                and "tempfile.mkstemp" in callees(value.func)
                and len(expression.slice) == 1
                and isinstance(expression.slice[0].slice, cst.Index)
                and isinstance(expression.slice[0].slice.value, cst.Integer)
                and expression.slice[0].slice.value.value == "1"
            ):
                return value
            return None
        if isinstance(expression, cst.BinaryOperation) and isinstance(expression.operator, cst.Divide):
            return self.origin(expression.left, depth + 1)
        if isinstance(expression, cst.FormattedString):
            # f"{workdir}/name": inside the temp directory
            parts = expression.parts
            if (
                len(parts) >= 2
                and isinstance(parts[0], cst.FormattedStringExpression)
                and isinstance(parts[1], cst.FormattedStringText)
                and parts[1].value.startswith("/")
                and parts[0].conversion is None
                and parts[0].format_spec is None
            ):
                return self.origin(parts[0].expression, depth + 1)
            return None
        if isinstance(expression, cst.Attribute) and expression.attr.value == "name":
            # ``f.name`` of ``f = NamedTemporaryFile(...)`` or ``with NamedTemporaryFile(...) as f``
            bound = self.binding(expression.value)
            if bound is not None and isinstance(bound[0], cst.Call):
                factory = callees(bound[0].func)
                if "tempfile.NamedTemporaryFile" in factory or "tempfile.TemporaryDirectory" in factory and bound[1] == _VALUE:
                    return bound[0]
            return None
        if isinstance(expression, cst.Name):
            bound = self.binding(expression)
            if bound is None:
                return None
            value, how = bound
            if how == _MKSTEMP_PATH:
                return value  # type: ignore[return-value]
            if how == _WITH:
                # ``with TemporaryDirectory() as out``: ``out`` is the directory's path
                if isinstance(value, cst.Call) and "tempfile.TemporaryDirectory" in callees(value.func):
                    return value
                return None
            return self.origin(value, depth + 1)
        return None

    def binding(self, name: cst.BaseExpression) -> Optional[Tuple[cst.BaseExpression, str]]:
        """What the assignment that reaches this read of ``name`` binds it to, and how:
        ``x = V`` gives ``(V, _VALUE)``, ``fd, tmp = mkstemp()`` gives the call and
        ``_MKSTEMP_PATH``, ``with X as f`` gives ``(X, _WITH)``.

        That assignment is the last one before the read; it must run whenever the read
        does, and no other assignment may follow it in its block (which would reach the
        read along a loop). Earlier ones, like a ``tmp = None`` before a ``try``, are
        overwritten by it and do not matter.
        """
        region = self.region
        if not isinstance(name, cst.Name) or name not in region:
            return None
        assignments = [a for a in self.scope.assignments[name.value] if isinstance(a, Assignment) and a.scope is self.scope]
        if not assignments or any(a.node not in region for a in assignments):
            return None
        before = [a for a in assignments if region.start[a.node] < region.start[name]]
        if not before:
            return None
        reaching = max(before, key=lambda a: region.start[a.node])
        if not isinstance(reaching, Assignment):
            return None
        statement = region.small_statement_of(reaching.node)
        if statement is None or not self.dominates(statement, name):
            return None
        block = self.block_of(statement)
        if block is None:
            return None
        for other in assignments:
            if other is not reaching and region.start[statement] <= region.start[other.node] <= region.end[block]:
                return None
        target = reaching.node
        parent = region.parent.get(target)
        if isinstance(parent, cst.AssignTarget):
            assign = region.parent.get(parent)
            if isinstance(assign, cst.Assign) and len(assign.targets) == 1:
                return assign.value, _VALUE
            return None
        if isinstance(parent, cst.Element):
            pair = region.parent.get(parent)
            holder = region.parent.get(pair) if pair is not None else None
            assign = region.parent.get(holder) if holder is not None else None
            if (
                isinstance(pair, cst.Tuple)
                and isinstance(holder, cst.AssignTarget)
                and isinstance(assign, cst.Assign)
                and len(assign.targets) == 1
                and len(pair.elements) == 2
                and pair.elements[1] is parent
                and isinstance(assign.value, cst.Call)
                and "tempfile.mkstemp" in self.fixes.callees(assign.value.func)
            ):
                return assign.value, _MKSTEMP_PATH
            return None
        if isinstance(parent, cst.AsName):
            item = region.parent.get(parent)
            if isinstance(item, cst.WithItem):
                return item.item, _WITH
        return None

    # -- when the destination is known ----------------------------------------------

    def block_of(self, statement: cst.CSTNode) -> Optional[cst.CSTNode]:
        """The block (module, indented block, one-line suite) ``statement`` is in."""
        holder = self.region.parent.get(statement)
        if isinstance(holder, cst.SimpleStatementLine):
            holder = self.region.parent.get(holder)
        return holder

    def dominates(self, statement: cst.CSTNode, call: cst.CSTNode) -> bool:
        """Whether ``statement`` has run whenever ``call`` runs: it comes first in a
        block that holds ``call``, or it is the ``with`` around it."""
        region = self.region
        if isinstance(statement, cst.With):
            if region.contains(statement.body, call):
                return True
        holder = self.block_of(statement)
        if holder is None or not region.contains(holder, call):
            return False
        # ``_mv(mkdtemp(), dst)`` creates inside the move itself: that also comes first.
        return region.start[statement] <= region.start[call]

    def creates_directory(self, call: cst.Call) -> bool:
        if self.fixes.callees(call.func) & _MKDIR_CALLS:
            return True
        return isinstance(call.func, cst.Attribute) and call.func.attr.value in ("mkdir", "makedirs")

    def early(self, expression: cst.BaseExpression, first: int, last: int, depth: int) -> Optional[cst.BaseExpression]:
        """``expression`` as it can be written at the creation (index ``first``) with the
        same value it has at the move (index ``last``), or None. A name assigned once in
        between, by a plain ``x = value`` on the way to the move, is replaced by its value."""
        if depth > _MAX_DEPTH:
            return None
        if isinstance(expression, (cst.SimpleString, cst.Integer)):
            return expression
        if isinstance(expression, cst.ConcatenatedString):
            left = self.early(expression.left, first, last, depth + 1)
            right = self.early(expression.right, first, last, depth + 1)
            if left is None or right is None:
                return None
            return expression.with_changes(left=left, right=right)
        if isinstance(expression, cst.Name):
            return self._early_name(expression, first, last, depth)
        if isinstance(expression, cst.Attribute):
            base = self.early(expression.value, first, last, depth + 1)
            if base is None or self._attribute_assigned(expression.attr.value, first, last):
                return None
            return expression.with_changes(value=base) if base is not expression.value else expression
        if isinstance(expression, cst.Call):
            if any(arg.star for arg in expression.args):
                return None
            func = expression.func
            if self.fixes.callees(func) & _PURE_CALLS:
                new_func: cst.BaseExpression = func
            elif isinstance(func, cst.Attribute) and func.attr.value in _PURE_METHODS and (
                self.fixes.value_of(func.value).is_path or isinstance(func.value, cst.SimpleString)
            ):
                receiver = self.early(func.value, first, last, depth + 1)
                if receiver is None:
                    return None
                new_func = func.with_changes(value=receiver)
            else:
                return None
            args = []
            for arg in expression.args:
                value = self.early(arg.value, first, last, depth + 1)
                if value is None:
                    return None
                args.append(arg.with_changes(value=value) if value is not arg.value else arg)
            return expression.with_changes(func=new_func, args=args)
        if isinstance(expression, cst.BinaryOperation) and isinstance(expression.operator, (cst.Add, cst.Divide, cst.Modulo)):
            left = self.early(expression.left, first, last, depth + 1)
            right = self.early(expression.right, first, last, depth + 1)
            if left is None or right is None:
                return None
            return expression.with_changes(left=left, right=right)
        if isinstance(expression, cst.Subscript):
            # ``os.environ["HF_HOME"]``
            if not self.fixes.callees(expression.value) & names.ENV_MAPPINGS:
                return None
            index = expression.slice[0].slice if len(expression.slice) == 1 else None
            if isinstance(index, cst.Index) and isinstance(index.value, cst.SimpleString):
                return expression
            return None
        if isinstance(expression, cst.FormattedString):
            parts: List[cst.BaseFormattedStringContent] = []
            for part in expression.parts:
                if isinstance(part, cst.FormattedStringExpression):
                    if part.format_spec is not None:
                        return None
                    value = self.early(part.expression, first, last, depth + 1)
                    if value is None:
                        return None
                    part = part.with_changes(expression=value)
                parts.append(part)
            return expression.with_changes(parts=parts)
        if isinstance(expression, cst.Tuple):
            # the arguments of ``"%s/%s" % (root, name)``
            elements: List[cst.BaseElement] = []
            for element in expression.elements:
                if not isinstance(element, cst.Element):
                    return None
                value = self.early(element.value, first, last, depth + 1)
                if value is None:
                    return None
                elements.append(element.with_changes(value=value))
            return expression.with_changes(elements=elements)
        return None

    def _early_name(self, name: cst.Name, first: int, last: int, depth: int) -> Optional[cst.BaseExpression]:
        if name.value in ("None", "True", "False"):
            return name
        local = [a for a in self.scope.assignments[name.value] if isinstance(a, Assignment) and a.scope is self.scope]
        if not local:
            return name  # a global, a name of an enclosing function, or a builtin
        inside = []
        before = False
        for assignment in local:
            index = self.region.start.get(assignment.node)
            if index is None:
                return None
            if isinstance(assignment.node, cst.Param) or index < first:
                before = True
            elif index < last:
                inside.append(assignment)
        if not inside:
            return name if before else None
        if len(inside) != 1:
            return None
        target = inside[0].node
        parent = self.region.parent.get(target)
        assign = self.region.parent.get(parent) if isinstance(parent, cst.AssignTarget) else None
        if not isinstance(assign, cst.Assign) or len(assign.targets) != 1:
            return None
        if not self.dominates(assign, self.move.call):
            return None
        value = self.early(assign.value, first, self.region.start[assign], depth + 1)
        self.substituted = True
        return parenthesized(value) if value is not None else None

    def _attribute_assigned(self, attr: str, first: int, last: int) -> bool:
        for node in self.region.between(first, last):
            if isinstance(node, (cst.AssignTarget, cst.AugAssign, cst.AnnAssign)):
                target = node.target
                if isinstance(target, cst.Attribute) and target.attr.value == attr:
                    return True
        return False

    # -- the directory, and the new creation call ----------------------------------------

    def directory_of(self, destination: cst.BaseExpression, original: cst.BaseExpression) -> Optional[cst.BaseExpression]:
        """An expression for the directory ``destination`` names an entry of: the join
        without its last component when that is one plain name, else ``dirname()`` or
        ``.parent``."""
        callees = self.fixes.callees
        while (  # normpath/abspath of a join of plain parts names the same directory's entry
            isinstance(destination, cst.Call)
            and callees(destination.func) & _NORMALIZERS
            and len(destination.args) == 1
            and not destination.args[0].star
            and destination.args[0].keyword is None
        ):
            destination = destination.args[0].value
        if isinstance(destination, cst.SimpleString):
            text = destination.evaluated_value
            if not isinstance(text, str):
                return None
            parent = os.path.dirname(text) or "."
            return cst.SimpleString(destination.prefix + destination.quote + parent + destination.quote) if _plain(parent) else None
        if isinstance(destination, cst.Call) and callees(destination.func) & {f"{m}.join" for m in _PATH_MODULES}:
            args = destination.args
            if len(args) >= 2 and all(a.keyword is None and not a.star for a in args) and self._single_component(args[-1].value):
                if len(args) == 2:
                    return _unwrapped(args[0].value, callees)
                head = list(args[:-1])
                head[-1] = head[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
                return destination.with_changes(args=head)
        if (
            isinstance(destination, cst.BinaryOperation)
            and isinstance(destination.operator, cst.Divide)
            and self._single_component(destination.right)
        ):
            return _unwrapped(destination.left, callees)
        if self.fixes.value_of(original).is_path:
            return cst.Attribute(value=parenthesized(destination), attr=cst.Name("parent"))
        dirname = self.fixes.reference("os.path.dirname", self.region, self.move.call)
        if dirname is None:
            return None
        self.imports += dirname.imports
        return cst.Call(func=dirname.expression(self.fixes.module), args=[cst.Arg(value=destination)])

    def _single_component(self, node: cst.BaseExpression) -> bool:
        """Whether ``node`` names the entry, so the rest is the directory as the code names
        it (``join(cache_dir, name)`` -> ``cache_dir``): a plain literal, a basename, a
        name, an attribute or an f-string without a separator. A name that holds
        ``"a/b"`` puts the temp one level up, inside the same tree: the same filesystem,
        which is all ``dir=`` is for."""
        if isinstance(node, cst.SimpleString):
            text = node.evaluated_value
            return isinstance(text, str) and _plain(text) and text not in ("", ".", "..")
        if isinstance(node, cst.Call):
            return bool(self.fixes.callees(node.func) & _BASENAME)
        if isinstance(node, (cst.Name, cst.Attribute)):
            return True
        if isinstance(node, cst.FormattedString):
            return all(
                _plain(part.value) for part in node.parts if isinstance(part, cst.FormattedStringText)
            ) and any(isinstance(part, cst.FormattedStringText) for part in node.parts)
        return False

    def with_dir(self, creation: cst.Call, directory: cst.BaseExpression) -> Optional[cst.Call]:
        """``creation`` with ``dir=directory``: added, or replacing ``None``/``gettempdir()``."""
        callees = self.fixes.callees(creation.func)
        factory = next(iter(callees & names.TEMP_FACTORIES.keys()))
        dir_index, _ = names.TEMP_FACTORIES[factory]
        if any(arg.star for arg in creation.args):
            return None
        for token in self.fixes.value_of(creation.func).idents:
            # A ``functools.partial`` factory: what it binds counts as passed here.
            if isinstance(token, Partial) and any(
                a.star or a.keyword is None or a.keyword.value == "dir" for a in token.call.args[1:]
            ):
                return None
        positional_count = sum(1 for arg in creation.args if arg.keyword is None)
        if positional_count > dir_index:
            return None
        if any(isinstance(arg.value, cst.SimpleString) and "b" in arg.value.prefix.lower() for arg in creation.args):
            return None  # bytes prefix/suffix: ``dir`` would have to be bytes too
        for index, arg in enumerate(creation.args):
            if arg.keyword is not None and arg.keyword.value == "dir":
                value = arg.value
                default = isinstance(value, cst.Name) and value.value == "None" or (
                    isinstance(value, cst.Call) and self.fixes.callees(value.func) & names.TEMP_DIR_CALLS and not value.args
                )
                if not default:
                    return None  # an explicit directory is the author's choice
                args = list(creation.args)
                args[index] = arg.with_changes(value=directory)
                return creation.with_changes(args=args)
        return add_keyword(creation, "dir", directory)


def _named(node: cst.BaseExpression, callees: Callable[[cst.CSTNode], FrozenSet[str]]) -> bool:
    """Whether ``node`` is a directory as the code already names it: a literal, a name or
    attribute (``cache_dir``, ``self.root``), its ``.parent`` or ``dirname()``, or an
    environment variable (``os.environ["HF_HOME"]``). Anything else would be computed
    a second time at the creation."""
    if isinstance(node, cst.SimpleString):
        return True
    if isinstance(node, cst.Call):
        func = node.func
        spelled = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else ""
        return spelled == "dirname" and len(node.args) == 1 and _dotted_name(node.args[0].value)
    if isinstance(node, cst.Subscript):
        index = node.slice[0].slice if len(node.slice) == 1 else None
        return bool(callees(node.value) & names.ENV_MAPPINGS) and isinstance(index, cst.Index) and isinstance(index.value, cst.SimpleString)
    return _dotted_name(node)


def _dotted_name(node: cst.BaseExpression) -> bool:
    """``a``, ``a.b.c``: read, not computed."""
    while isinstance(node, cst.Attribute):
        node = node.value
    return isinstance(node, cst.Name) and not node.lpar


def _split(lines: Sequence[cst.EmptyLine]) -> Tuple[List[cst.EmptyLine], List[cst.EmptyLine]]:
    """A statement's leading lines as (the blank lines before its comments, the rest)."""
    index = 0
    while index < len(lines) and lines[index].comment is None:
        index += 1
    return list(lines[:index]), list(lines[index:])


def _has_bytes(node: cst.CSTNode) -> bool:
    if isinstance(node, cst.SimpleString) and "b" in node.prefix.lower():
        return True
    return any(_has_bytes(child) for child in node.children)


def _plain(text: str) -> bool:
    return "/" not in text and "\\" not in text and "\n" not in text and "'" not in text and '"' not in text


def _unwrapped(node: cst.BaseExpression, callees: Callable[[cst.CSTNode], FrozenSet[str]]) -> cst.BaseExpression:
    """``Path(d)``, ``str(d)``, ``os.fspath(d)`` -> ``d``: ``dir=`` takes a str or a path."""
    while (
        isinstance(node, cst.Call)
        and len(node.args) == 1
        and node.args[0].keyword is None
        and not node.args[0].star
        and callees(node.func) & _WRAPPERS
    ):
        node = node.args[0].value
    return node


def _side_effect_free(node: cst.CSTNode, callees: Callable[[cst.CSTNode], FrozenSet[str]]) -> bool:
    """Names, attributes, literals and pure calls of them: evaluating them in another
    order changes nothing."""
    if isinstance(node, (cst.Name, cst.SimpleString, cst.Integer)):
        return True
    if isinstance(node, cst.Attribute):
        return _side_effect_free(node.value, callees)
    if isinstance(node, cst.BinaryOperation):
        return _side_effect_free(node.left, callees) and _side_effect_free(node.right, callees)
    if isinstance(node, cst.Call) and callees(node.func) & _PURE_CALLS:
        return all(not arg.star and _side_effect_free(arg.value, callees) for arg in node.args)
    return False


def _unique(imports: Tuple[Import, ...]) -> Tuple[Import, ...]:
    return tuple(dict.fromkeys(imports))
