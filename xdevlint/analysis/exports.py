"""What a project function does for its callers in other modules, from its ``ast``.

Real code keeps its move, temp and cleanup helpers in other modules: a ``utils.download()``
that returns a staged temp, a ``publish(src, dst)`` that renames, an ``rm_rf(path)``, a
``Store`` whose ``put(src, dst)`` renames. The project index summarises a top-level
function, or a top-level class's methods (``ExportedClass``), the first time another
module's name for it is asked for (``Project.resolve``), in one cheap pass over each
body: the stdlib ``ast``, flow-insensitive (what a name may hold anywhere in the body),
as the index is.

A summary (``Exported``) says what callers need and no more, in terms of the function's
parameters: the temp it returns (every ``return`` hands one back), the locations it
returns, the parameter it returns as it is, the renames whose source or destination is a
parameter (with the other side's locations when it is fixed), the parameters it moves
away or removes. Calls of other project functions count by their own summaries, so
chains of helpers resolve (``rm_rf`` calling ``_force_remove``); a cycle summarises to
what is known so far. The analysis then applies it at each call as it would a summary
of the same module's function.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, replace
from typing import Callable, Dict, FrozenSet, Iterable, Iterator, List, Optional, Tuple, TypeVar

from xdevlint.analysis import names
from xdevlint.analysis.locations import TEMP

#: What a temp is held as, as the lifetime analysis names it; and a path inside a new
#: temp directory (``os.path.join(mkdtemp(), name)``), whose directory is the temp.
FILE, DIRECTORY, INSIDE = "file", "directory", "inside"
#: Factories whose call, without ``dir=``, makes a temp in the temp location.
_MADE = {"tempfile.mkdtemp": DIRECTORY, "tempfile.mktemp": FILE}
_OBJECT = "tempfile.NamedTemporaryFile"
_CONSUMING_ONLY = names.CONSUMING_MOVES - set(names.MOVE_FUNCTIONS) - set(names.UNBOUND_MOVE_METHODS)
_IN_TEMP: FrozenSet[str] = frozenset({TEMP})


@dataclass(frozen=True)
class Side:
    """One end of a move, or what an expression in the body is: the parameter it is
    (``derived``: a path made from it, in its location, not itself), the temp it is, or
    the locations a module constant gives it."""

    param: Optional[str] = None
    derived: bool = False
    temp: Optional[str] = None  # FILE, DIRECTORY or INSIDE: a fresh temp the function made
    holder: bool = False  # a ``NamedTemporaryFile(delete=False)`` object: ``.name`` is a temp file
    locations: FrozenSet[str] = frozenset()
    path: bool = False  # a pathlib path: ``.rename`` on it moves a file

    def __or__(self, other: "Side") -> "Side":
        return Side(
            self.param if self.param == other.param else None,
            self.derived or other.derived,
            self.temp if self.temp == other.temp else None,
            self.holder and other.holder,
            self.locations | other.locations,
            self.path and other.path,
        )


_UNKNOWN = Side()
_A = TypeVar("_A")


@dataclass(frozen=True)
class ExportedMove:
    """A rename in the function (``function``: ``os.replace``) with a parameter at one end."""

    function: str
    source: Side
    destination: Side
    line: int


@dataclass(frozen=True)
class Exported:
    """A project function as its callers see it; ``path`` and ``line`` are where its
    ``def`` is (``pkg/mod.py``, below the project's search root)."""

    qualified: str
    path: str
    line: int
    positional: Tuple[str, ...]
    keyword_only: Tuple[str, ...]
    returns_temp: Optional[str] = None
    returns_locations: FrozenSet[str] = frozenset()
    returns_param: Optional[str] = None
    moves: Tuple[ExportedMove, ...] = ()
    moves_away: FrozenSet[str] = frozenset()  # parameters a consuming move takes away (``shutil.move``)
    removes: FrozenSet[str] = frozenset()
    raises: bool = False  # every call ends in an exception or an exit (``fail(msg)``)
    owner: Optional[str] = None  # a method's class

    @property
    def name(self) -> str:
        """As messages name it: ``publish``, ``Store.put``."""
        name = self.qualified.rpartition(".")[2]
        return f"{self.owner}.{name}" if self.owner is not None else name

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}"

    @property
    def empty(self) -> bool:
        """Nothing a caller needs: the index treats the function as unknown."""
        return not (
            self.returns_temp or self.returns_locations or self.returns_param or self.moves or self.moves_away or self.removes
            or self.raises
        )

    @property
    def scanned(self) -> FrozenSet[str]:
        """The library functions a call of it stands for, to the scan's gates."""
        found = {f"pathlib.{m.function}" if m.function.startswith("Path.") else m.function for m in self.moves}
        if self.returns_temp:
            found.add("tempfile.mkstemp" if self.returns_temp == FILE else "tempfile.mkdtemp")
        return frozenset(found)

    @property
    def locations(self) -> FrozenSet[str]:
        """The locations a call of it may bring (its result, the fixed ends of its renames)."""
        found = set(self.returns_locations)
        for move in self.moves:
            found |= move.source.locations | move.destination.locations
        return frozenset(found)

    def bind(self, arguments: Iterable[Tuple[Optional[str], bool, _A]]) -> Dict[str, _A]:
        """Each parameter a call's arguments bind, to its argument: ``arguments`` are
        (keyword or None, starred, argument) in order. After ``*args`` or ``**kwargs``
        positions are unknown: only keywords bind then (as ``FunctionSummary.bindings``)."""
        bound: Dict[str, _A] = {}
        position = 0
        starred = False
        for keyword, star, argument in arguments:
            if star:
                starred = True
            elif keyword is not None:
                if keyword in self.positional or keyword in self.keyword_only:
                    bound[keyword] = argument
            elif not starred:
                if position < len(self.positional):
                    bound[self.positional[position]] = argument
                position += 1
        return bound


#: How a method is read: called on an object (``self`` first), on the class (``cls``) or
#: as a plain function; read as a property; or awaited (not followed).
INSTANCE, CLASS, STATIC, PROPERTY, ASYNC = "instance", "class", "static", "property", "async"


@dataclass(frozen=True)
class ExportedClass:
    """A project class as other modules' code sees it: the methods it defines (``methods``:
    name, how it is called, the line of its ``def``) and its bases that are project
    classes, first base first. A method's summary is worked out when a caller first
    reads it (``Project.method``): most classes have many methods and their users call
    few. ``instance``: the value is an object of the class, not the class itself."""

    qualified: str
    path: str
    line: int
    methods: Tuple[Tuple[str, str, int], ...] = ()
    bases: Tuple["ExportedClass", ...] = ()
    instance: bool = False

    @property
    def name(self) -> str:
        return self.qualified.rpartition(".")[2]

    def defining(self, name: str) -> Optional[Tuple["ExportedClass", str, int]]:
        """The class that defines method ``name`` for this one (itself, or the first base
        that does, depth first as Python's order is for single inheritance), with the
        method's kind and line; None when none does."""
        for method, kind, line in reversed(self.methods):  # the last ``def`` of a name is the method
            if method == name:
                return self, kind, line
        for base in self.bases:
            found = base.defining(name)
            if found is not None:
                return found
        return None

    def instantiated(self) -> "ExportedClass":
        return replace(self, instance=True)


class Context:
    """What summarising needs from the index: the absolute name a dotted expression of
    the module names, the locations a module-level expression has, and the summary of
    another project function (by absolute name)."""

    def __init__(
        self,
        qualified: Callable[[ast.expr], Optional[str]],
        locations: Callable[[ast.expr], FrozenSet[str]],
        function: Callable[[str], Optional[Exported]],
    ) -> None:
        self.qualified = qualified
        self.locations = locations
        self.function = function


def summarise(
    node: ast.FunctionDef, qualified: str, path: str, context: Context, may_yield: bool = True, bound: bool = False,
    owner: Optional[str] = None,
) -> Exported:
    """The summary of the top-level function ``node`` (``may_yield``: whether its text
    spells ``yield``, when that is known); of a method of class ``owner`` as its callers
    on an instance or the class see it (``bound``): without its first parameter, ``self`` or ``cls``, which
    is nothing a caller passes (what the body does to it is no caller's path)."""
    args = node.args
    positional = tuple(a.arg for a in (*args.posonlyargs, *args.args))
    keyword_only = tuple(a.arg for a in args.kwonlyargs)
    paths = {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs) if a.annotation is not None and "Path" in ast.dump(a.annotation)}
    passed = set(positional) | set(keyword_only)
    if bound and positional:
        passed.discard(positional[0])
        positional = positional[1:]
    body = _Body(passed, paths, context)
    shape = _Shape(node, may_yield)
    if shape.loops:
        for statement in node.body:  # a loop may use a name before the statement that binds it
            body.statement(statement)
    body.recording = True  # the last pass, with every name known, notes the effects
    for statement in node.body:
        body.statement(statement)
    returned = [body.ev(r.value) if r.value is not None else _UNKNOWN for r in shape.returns]
    temps = {s.temp for s in returned}
    returns_temp = temps.pop() if returned and len(temps) == 1 and None not in temps else None
    params = {s.param for s in returned}
    returns_param = params.pop() if returned and len(params) == 1 and not any(s.derived for s in returned) else None
    return Exported(
        qualified,
        path,
        node.lineno,
        positional,
        keyword_only,
        returns_temp=returns_temp,
        returns_locations=frozenset().union(*(s.locations for s in returned)) if returned else frozenset(),
        returns_param=returns_param,
        moves=tuple(body.moves),
        moves_away=frozenset(body.moved),
        removes=frozenset(body.removed),
        raises=_always_raises(node, shape, context),
        owner=owner,
    )


class _Shape:
    """What a walk of a function's own statements tells: whether it loops, and its
    ``return`` statements (none for a generator: its caller gets an iterator, not the
    value), and whether it may return at all. Only a function whose text spells
    ``yield`` (``may_yield``) has its expressions walked too, for one."""

    def __init__(self, node: ast.FunctionDef, may_yield: bool = True) -> None:
        self.loops = False
        self.returns: List[ast.Return] = []
        pending: List[ast.stmt] = list(node.body)
        while pending:
            statement = pending.pop()
            kind = type(statement)
            if kind is ast.Return:
                self.returns.append(statement)  # type: ignore[arg-type]
                continue
            if kind is ast.FunctionDef or kind is ast.AsyncFunctionDef or kind is ast.ClassDef:
                continue  # nested: their own business
            if kind is ast.For or kind is ast.AsyncFor or kind is ast.While:
                self.loops = True
            for field in ("body", "orelse", "finalbody"):
                pending.extend(getattr(statement, field, ()))
            for inner in (*getattr(statement, "handlers", ()), *getattr(statement, "cases", ())):
                pending.extend(inner.body)
        generator = may_yield and any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in _own_nodes(node))
        self.returning = generator or bool(self.returns)
        if generator:
            self.returns = []


def _always_raises(node: ast.FunctionDef, shape: _Shape, context: Context) -> bool:
    """Whether every call of ``node`` ends in an exception or an exit: it says so
    (``-> NoReturn``), or it never returns and its body raises on every path."""
    returns = node.returns
    if returns is not None and ast.unparse(returns).rsplit(".", 1)[-1].strip("'\"") in ("NoReturn", "Never"):
        return True
    if shape.returning:
        return False
    return _block_raises(node.body, context)


def _block_raises(statements: List[ast.stmt], context: Context) -> bool:
    for statement in statements:
        if isinstance(statement, ast.Raise):
            return True
        if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
            callee = context.qualified(statement.value.func)
            if callee in names.EXIT_FUNCTIONS:
                return True
            exported = context.function(callee) if callee is not None else None
            if exported is not None and exported.raises:
                return True
        if isinstance(statement, ast.If) and statement.orelse:
            if _block_raises(statement.body, context) and _block_raises(statement.orelse, context):
                return True
        if isinstance(statement, (ast.With, ast.AsyncWith)) and _block_raises(statement.body, context):
            return True
        if isinstance(statement, ast.Try):
            if _block_raises(statement.finalbody, context):
                return True
            if _block_raises(statement.body, context) and all(_block_raises(h.body, context) for h in statement.handlers):
                return True
    return False


def _own_nodes(node: ast.FunctionDef) -> Iterator[ast.AST]:
    """The nodes of ``node``'s body, not of functions or classes nested in it."""
    stack: List[ast.AST] = list(node.body)
    while stack:
        current = stack.pop()
        if not isinstance(current, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            yield current
            stack.extend(ast.iter_child_nodes(current))


class _Body:
    """Walks one function body, flow-insensitively: a local name is what any of its
    assignments may give it."""

    def __init__(self, params: "set[str]", paths: "set[str]", context: Context) -> None:
        self.params = params
        self.paths = paths  # parameters annotated as pathlib paths
        self.context = context
        self.env: Dict[str, Side] = {}
        self.assigned: "set[str]" = set()
        self.moves: List[ExportedMove] = []
        self.recording = False  # whether calls' effects are noted (the last pass only)
        self.moved: "set[str]" = set()
        self.removed: "set[str]" = set()

    def statement(self, node: ast.stmt) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            return  # nested: their own business (a closure's moves are not followed)
        if isinstance(node, ast.Assign):
            value = self.ev(node.value)
            for target in node.targets:
                self.bind(target, node.value, value)
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            self.bind(node.target, node.value, self.ev(node.value))
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            for item in node.items:
                value = self.ev(item.context_expr)
                if item.optional_vars is not None:
                    self.bind(item.optional_vars, item.context_expr, value)
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.stmt):
                self.statement(child)
            elif isinstance(child, ast.expr) and self.recording:
                self.calls(child)
            elif isinstance(child, ast.ExceptHandler):
                for inner in child.body:
                    self.statement(inner)

    def bind(self, target: ast.expr, source: ast.expr, value: Side) -> None:
        if isinstance(target, ast.Name):
            name = target.id
            if name in self.params:
                self.params.discard(name)  # reassigned: no longer what the caller passed
            old = self.env.get(name)
            self.env[name] = value if old is None or name not in self.assigned else old | value
            self.assigned.add(name)
        elif isinstance(target, (ast.Tuple, ast.List)) and isinstance(source, ast.Call):
            # ``fd, path = mkstemp()``: the path is the second element.
            if self.context.qualified(source.func) == "tempfile.mkstemp" and len(target.elts) == 2 and not _has_dir(source):
                self.bind(target.elts[0], source, _UNKNOWN)
                self.bind(target.elts[1], source, _temp(FILE))
                return
            for element in target.elts:
                self.bind(element, source, _UNKNOWN)
        elif isinstance(target, (ast.Tuple, ast.List)):
            for element in target.elts:
                self.bind(element, source, _UNKNOWN)

    def calls(self, node: ast.expr) -> None:
        """Note the moves and removals of the calls in ``node``."""
        for inner in ast.walk(node):
            if isinstance(inner, ast.Call):
                self.effects(inner)

    def effects(self, call: ast.Call) -> None:
        callee = self.context.qualified(call.func)
        args = [a for a in call.args if not isinstance(a, ast.Starred)]
        if callee in names.MOVE_FUNCTIONS or callee in names.UNBOUND_MOVE_METHODS:
            if len(args) >= 2:
                self.move(callee, self.ev(args[0]), self.ev(args[1]), call.lineno)
            return
        if callee in _CONSUMING_ONLY and args:
            self.take(self.ev(args[0]), self.moved)
            return
        if callee in names.CLEANUP_FUNCTIONS and args:
            self.take(self.ev(args[0]), self.removed)
            return
        if callee is None and isinstance(call.func, ast.Attribute):
            receiver = self.ev(call.func.value)
            method = call.func.attr
            if method in names.MOVE_METHODS and len(args) == 1 and receiver.path:
                source, destination = receiver, self.ev(args[0])
                if not names.MOVE_METHODS[method]:
                    source, destination = destination, source
                self.move(f"Path.{method}", source, destination, call.lineno)
            elif method in names.CLEANUP_METHODS:
                self.take(receiver, self.removed)
            return
        if callee is None or not any(self.ev(a).param is not None for a in (*args, *(k.value for k in call.keywords))):
            return  # a helper it calls can move or remove nothing of its callers' then
        exported = self.context.function(callee)
        if exported is None:
            return
        bound = self.arguments(exported, call)
        for move in exported.moves:
            self.move(move.function, self.through(move.source, bound), self.through(move.destination, bound), call.lineno)
        for param, value in bound.items():
            if param in exported.removes:
                self.take(value, self.removed)
            if param in exported.moves_away:
                self.take(value, self.moved)

    def arguments(self, exported: Exported, call: ast.Call) -> Dict[str, Side]:
        """What this body passes ``exported``'s parameters at ``call``."""
        bound = exported.bind([
            *((None, isinstance(a, ast.Starred), a) for a in call.args),
            *((k.arg, k.arg is None, k.value) for k in call.keywords),
        ])
        return {param: self.ev(argument) for param, argument in bound.items()}

    @staticmethod
    def through(side: Side, bound: Dict[str, Side]) -> Side:
        """A callee's move end as seen here: its parameter replaced by what this body passes."""
        if side.param is None:
            return side
        passed = bound.get(side.param, _UNKNOWN)
        if side.derived:
            return Side(passed.param, passed.param is not None, None, False, passed.locations | side.locations)
        return passed | Side(locations=side.locations) if side.locations else passed

    def move(self, function: str, source: Side, destination: Side, line: int) -> None:
        """A rename (``function`` as users know it: ``os.replace``, ``Path.rename``)."""
        if function in names.UNBOUND_MOVE_METHODS:
            function = f"Path.{names.UNBOUND_MOVE_METHODS[function]}"
        if source.param is not None or destination.param is not None:
            self.moves.append(ExportedMove(function, source, destination, line))
        if function != "os.link" and function != "Path.hardlink_to":
            self.take(source, self.moved)

    def take(self, value: Side, into: "set[str]") -> None:
        if value.param is not None and not value.derived:
            into.add(value.param)

    # -- values

    def ev(self, node: Optional[ast.expr]) -> Side:
        if node is None:
            return _UNKNOWN
        if isinstance(node, ast.Name):
            if node.id in self.env:
                return self.env[node.id]
            if node.id in self.params:
                return Side(param=node.id, path=node.id in self.paths)
            return Side(locations=self.context.locations(node))
        if isinstance(node, ast.Attribute):
            receiver = self.ev(node.value) if not self.context.qualified(node) else _UNKNOWN
            if node.attr == "name" and receiver.holder:
                return _temp(FILE)
            if node.attr in names.PATH_DERIVING_ATTRIBUTES:
                return _derived(receiver)
            if self.context.qualified(node):
                return Side(locations=self.context.locations(node))
            return _UNKNOWN
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            return replace(_inside(self.ev(node.left)), path=True)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            return _derived(self.ev(node.left))
        if isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.FormattedValue):
            return _derived(self.ev(node.values[0].value))
        if isinstance(node, ast.IfExp):
            return self.ev(node.body) | self.ev(node.orelse)
        if isinstance(node, ast.BoolOp):
            found = self.ev(node.values[0])
            for value in node.values[1:]:
                found = found | self.ev(value)
            return found
        if isinstance(node, ast.Call):
            return self.call(node)
        if isinstance(node, ast.Constant):
            return Side(locations=self.context.locations(node))
        return _UNKNOWN

    def call(self, node: ast.Call) -> Side:
        callee = self.context.qualified(node.func)
        args = [a for a in node.args if not isinstance(a, ast.Starred)]
        first = self.ev(args[0]) if args else _UNKNOWN
        if callee is None:
            if isinstance(node.func, ast.Attribute):
                receiver = self.ev(node.func.value)
                if node.func.attr in names.PATH_DERIVING_METHODS:
                    kept = receiver if node.func.attr in ("resolve", "absolute", "expanduser") else _derived(receiver)
                    return replace(kept, path=receiver.path)
            return _UNKNOWN
        if callee in _MADE:
            return _temp(_MADE[callee]) if not _has_dir(node) else _UNKNOWN
        if callee == _OBJECT:
            delete = next((k.value for k in node.keywords if k.arg == "delete"), None)
            keeps = isinstance(delete, ast.Constant) and delete.value is False
            return Side(holder=keeps and not _has_dir(node))
        if callee in names.PASS_THROUGH_CALLS and not callee.endswith(".dirname"):
            return first
        if callee in names.PATH_CLASSES:
            return replace(first if len(args) == 1 else _inside(first), path=True)
        if callee in names.JOIN_CALLS:
            return _inside(first) if args else _UNKNOWN
        exported = self.context.function(callee)
        if exported is not None:
            if exported.returns_temp:
                return _temp(exported.returns_temp)
            if exported.returns_param is not None:
                return self.arguments(exported, node).get(exported.returns_param, _UNKNOWN)
            return Side(locations=exported.returns_locations)
        return Side(locations=self.context.locations(node))


def _temp(kind: str) -> Side:
    return Side(temp=kind, locations=_IN_TEMP)


def _derived(side: Side) -> Side:
    """A path made from ``side``'s (a join, a parent, a suffix): in its location, not itself."""
    if side.param is not None:
        return Side(param=side.param, derived=True, locations=side.locations, path=side.path)
    return Side(locations=side.locations, path=side.path)


def _inside(side: Side) -> Side:
    """A path joined below ``side``'s: inside the new temp directory ``side`` may be."""
    joined = _derived(side)
    return replace(joined, temp=INSIDE) if side.temp in (DIRECTORY, INSIDE) else joined


def _has_dir(call: ast.Call) -> bool:
    """Whether a ``tempfile`` call may say where (``dir=``, or arguments we cannot see)."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return True
    directory = next((k.value for k in call.keywords if k.arg == "dir"), None)
    if directory is None and len(call.args) > 2:
        directory = call.args[2]
    return directory is not None and not (isinstance(directory, ast.Constant) and directory.value is None)
