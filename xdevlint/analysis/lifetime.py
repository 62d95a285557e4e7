"""Temp lifetimes: whether a temp file or directory is removed on every error path.

For each temp a function creates and holds in a name (``fd, tmp = mkstemp()``,
``d = mkdtemp()``, ``f = NamedTemporaryFile(delete=False)``, ``d = TemporaryDirectory()``
outside ``with``, or a same-module helper that returns one of those), a small abstract
interpreter walks the function's statements with the temp's status on every path:
absent, live, removed, moved away, or handed off (returned, yielded, stored on an
object or in a container, registered for cleanup with ``atexit``/``addCleanup``/...).
A statement that can raise sends the statuses of that moment to the handlers that may
catch the exception, or out of the function; ``finally`` runs on every way out.

A temp *leaks on an error path* when some path that went through an exception leaves
the function, or starts the loop's next iteration, with the temp still live, while the
normal path does hand it off. A temp the normal path never hands off is left alone:
the code keeps it on purpose (or loses it on every path, which is another problem).
Ownership handed to the caller moves the obligation: the helper that returns a temp is
checked up to its ``return``, and each caller's call is a creation of its own.

The result is a ``Lifetime`` per creation call, with what a fix needs: the handlers
into which cleanup can be inserted safely, and the statements a ``try`` could wrap.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Dict, FrozenSet, Iterable, Iterator, List, Optional, Sequence, Set, Tuple, Union

import libcst as cst
from libcst.metadata import BaseMetadataProvider

from xdevlint.analysis import names
from xdevlint.analysis.provenance import ProvenanceProvider
from xdevlint.analysis.tree import children
from xdevlint.analysis.values import EMPTY, Value

#: What a temp is held as: a path to a file or a directory, or the object owning one.
FILE, DIRECTORY, FILE_OBJECT, DIRECTORY_OBJECT = "file", "directory", "file object", "directory object"
_OBJECTS = frozenset({FILE_OBJECT, DIRECTORY_OBJECT})
_FACTORY_KINDS = {
    "tempfile.mkstemp": FILE,
    "tempfile.mktemp": FILE,
    "tempfile.mkdtemp": DIRECTORY,
    "tempfile.NamedTemporaryFile": FILE_OBJECT,
    "tempfile.TemporaryDirectory": DIRECTORY_OBJECT,
}
#: Calls that keep their single argument's path (``Path(p)``, ``str(p)``, ``abspath(p)``).
_SAME_PATH_CALLS = (names.PASS_THROUGH_CALLS - {f"{m}.dirname" for m in ("os.path", "posixpath", "ntpath")}) | names.PATH_CLASSES
_SAME_PATH_METHODS = frozenset({"resolve", "absolute", "expanduser"})
_LOOPS = (cst.For, cst.While)
_SCOPES = (cst.FunctionDef, cst.Lambda, cst.ClassDef)
#: Most statuses of one temp kept at a program point; more only lengthen messages.
_MAX_STATUSES = 12

ValueOf = Callable[[cst.CSTNode], Value]
Node = cst.CSTNode
Status = Tuple[object, ...]
State = Dict[int, FrozenSet[Status]]
Outcome = Dict[str, State]

ABSENT: Status = ("absent",)
NAMED: Status = ("named",)  # ``mktemp``: a name, until a statement using it creates the file
LIVE: Status = ("live",)
REMOVED: Status = ("removed",)
MOVED: Status = ("moved",)
HANDED: Status = ("handed",)
_DONE = frozenset({REMOVED, MOVED, HANDED})


@dataclass(frozen=True)
class Temp:
    """One creation: the call, the statement holding it, and the names that hold it."""

    creation: cst.Call
    statement: Node
    factory: str
    kind: str
    handle: str  # the name the creation is bound to
    is_path: bool  # a pathlib value, so the fix can call ``.unlink(missing_ok=True)``
    handles: Dict[str, bool] = field(default_factory=dict, compare=False, hash=False)  # name -> holds the object


@dataclass(frozen=True)
class Leak:
    """An error path: the exception from ``origin`` reaches ``exit`` with the temp live;
    ``handler`` is the ``except`` clause that caught it, if one did."""

    origin: Node
    handler: Optional[cst.ExceptHandler]
    exit: str  # "propagates", "re-raises", "returns", "carries on", "continues the loop"


@dataclass(frozen=True)
class Lifetime:
    temp: Temp
    handed_off: bool  # some normal path moves, removes or hands the temp on
    leaks: Tuple[Leak, ...]
    #: handlers where inserting the removal at the top keeps everything else; with
    #: the ``Try`` and the block holding it when the temp may not exist yet there
    #: (its name is then bound to None before the ``try``, and the removal guarded).
    handler_fixes: Tuple[Tuple[cst.ExceptHandler, Optional[Tuple[cst.Try, cst.IndentedBlock]]], ...] = ()
    #: the block, and the range of its statements after the creation that a
    #: ``try/except BaseException`` would have to wrap, for the leaks no handler sees.
    wrap: Optional[Tuple[cst.IndentedBlock, int, int]] = None

    @property
    def leaking(self) -> bool:
        return self.handed_off and bool(self.leaks)


class LifetimeProvider(BaseMetadataProvider[Lifetime]):
    """Maps each temp creation call (or call of a helper returning a temp) to its ``Lifetime``."""

    METADATA_DEPENDENCIES = (ProvenanceProvider,)

    def _gen_impl(self, module: cst.Module) -> None:
        analysis = Analysis(module, lambda node: self.get_metadata(ProvenanceProvider, node, EMPTY))
        for lifetime in analysis.lifetimes():
            self.set_metadata(lifetime.temp.creation, lifetime)


# -- what calls do ---------------------------------------------------------------------


def catch_class(handler: Union[cst.ExceptHandler, cst.ExceptStarHandler], value_of: ValueOf) -> str:
    """What an ``except`` clause catches: "all" (bare, ``BaseException``, ``Exception``),
    "os" (``OSError`` and its aliases), "enoent" (only ``FileNotFoundError``), or "some"."""
    if handler.type is None:
        return "all"
    types = [e.value for e in handler.type.elements] if isinstance(handler.type, cst.Tuple) else [handler.type]
    callees: Set[str] = set()
    for expression in types:
        callees |= value_of(expression).callees
    if callees & names.BROAD_EXCEPTIONS:
        return "all"
    if callees & names.OS_ERROR_CLASSES:
        return "os"
    if callees == {"builtins.FileNotFoundError"}:
        return "enoent"
    return "some"


def calls_in(node: Node) -> Iterator[cst.Call]:
    """Calls below ``node``, not looking into nested functions, lambdas and classes."""
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, cst.Call):
            yield current
        for child in reversed(children(current)):
            if not isinstance(child, _SCOPES):
                stack.append(child)


def _argument(call: cst.Call, index: int, keyword: str) -> Optional[cst.BaseExpression]:
    positional = 0
    for arg in call.args:
        if arg.star:
            return None
        if arg.keyword is not None:
            if arg.keyword.value == keyword:
                return arg.value
        elif positional == index:
            return arg.value
        else:
            positional += 1
    return None


def _is_names(target: cst.BaseExpression) -> bool:
    if isinstance(target, (cst.Tuple, cst.List)):
        return all(_is_names(e.value) for e in target.elements)
    return isinstance(target, (cst.Name, cst.StarredElement))


def _is_false(node: Optional[cst.BaseExpression]) -> bool:
    return isinstance(node, cst.Name) and node.value == "False"


# -- the analysis of one module ------------------------------------------------------------


class Analysis:
    """Indexes a module once, then answers for each function what its temps do."""

    def __init__(self, module: cst.Module, value_of: ValueOf) -> None:
        self.module = module
        self.value_of = value_of
        self.parent: Dict[Node, Node] = {}
        self.order: Dict[Node, int] = {}
        self.end: Dict[Node, int] = {}
        self.calls: Dict[Node, List[cst.Call]] = {}  # scope -> calls in it
        self.scope_of: Dict[Node, Node] = {}
        self.kids: Dict[Node, List[Node]] = {}
        self._index(module)
        self._returns: Dict[Node, Optional[Tuple[str, str, Optional[int]]]] = {}
        self._cleaned: Dict[Node, FrozenSet[int]] = {}
        self._kept: Dict[Node, FrozenSet[int]] = {}
        self._raises: Dict[Node, Optional[str]] = {}
        self._temps: Dict[Node, List[Temp]] = {}
        self._busy: Set[Node] = set()

    def _index(self, module: cst.Module) -> None:
        counter = 0
        stack: List[Tuple[Node, Node, bool]] = [(module, module, False)]
        while stack:
            node, scope, done = stack.pop()
            if done:
                self.end[node] = counter
                continue
            counter += 1
            self.order[node] = counter
            self.scope_of[node] = scope
            if isinstance(node, cst.Call):
                self.calls.setdefault(scope, []).append(node)
            inner = node if isinstance(node, (cst.FunctionDef, cst.Lambda, cst.ClassDef)) else scope
            stack.append((node, scope, True))
            kids = children(node)
            self.kids[node] = kids
            for child in reversed(kids):
                self.parent[child] = node
                stack.append((child, inner, False))

    # -- temps and their names

    def creation_kind(self, call: cst.Call) -> Optional[Tuple[str, str, Optional[int]]]:
        """(kind, factory, tuple index of the path) when ``call`` creates a temp."""
        value = self.value_of(call.func)
        for callee in value.callees:
            kind = _FACTORY_KINDS.get(callee)
            if kind is None:
                continue
            if kind == FILE_OBJECT and not _is_false(_argument(call, 7, "delete")):
                return None  # deleted on close: the object cleans up after itself
            return kind, callee, (1 if callee == "tempfile.mkstemp" else None)
        for definition in value.defs:
            if isinstance(definition, cst.FunctionDef):
                returned = self.returns_temp(definition)
                if returned is not None:
                    return returned
        return None

    def returns_temp(self, function: cst.FunctionDef) -> Optional[Tuple[str, str, Optional[int]]]:
        """What a same-module function returns when it hands a temp to its caller."""
        if function in self._returns:
            return self._returns[function]
        if function in self._busy:
            return None
        self._busy.add(function)
        found: Optional[Tuple[str, str, Optional[int]]] = None
        temps = self.temps_of(function)
        for node in self._walk(function.body):
            if not isinstance(node, cst.Return) or node.value is None or self.scope_of.get(node) is not function:
                continue
            elements = node.value.elements if isinstance(node.value, cst.Tuple) else None
            for index, expression in enumerate([e.value for e in elements] if elements else [node.value]):
                where = index if elements else None
                if isinstance(expression, cst.Call):
                    made = self.creation_kind(expression)
                    if made is not None and (made[2] is None or where is None):
                        found = (made[0], made[1], where if made[2] is None else made[2])
                for temp in temps:
                    if self.refers(expression, temp) or self.holds_object(expression, temp):
                        found = (temp.kind, temp.factory, where)
            if found is not None:
                break
        self._busy.discard(function)
        self._returns[function] = found
        return found

    def temps_of(self, scope: Node) -> List[Temp]:
        found = self._temps.get(scope)
        if found is not None:
            return found
        temps: List[Temp] = []
        for call in self.calls.get(scope, ()):
            made = self.creation_kind(call)
            if made is not None:
                temp = self._held(call, *made)
                if temp is not None:
                    temps.append(temp)
        self._aliases(scope, temps)
        self._temps[scope] = temps
        return temps

    def _held(self, call: cst.Call, kind: str, factory: str, index: Optional[int]) -> Optional[Temp]:
        """The temp as held in a name, or None (stored on an object, returned, unused)."""
        expression: Node = call
        parent = self.parent.get(expression)
        if index is not None and isinstance(parent, cst.Subscript):
            (element,) = parent.slice if len(parent.slice) == 1 else (None,)
            if element is None or not isinstance(element.slice, cst.Index) or not isinstance(element.slice.value, cst.Integer):
                return None
            if int(element.slice.value.value) != index:
                return None
            expression, index = parent, None
            parent = self.parent.get(expression)
        while isinstance(parent, cst.Arg) and index is None and kind not in _OBJECTS:
            wrapper = self.parent.get(parent)
            if not isinstance(wrapper, cst.Call) or len(wrapper.args) != 1 or not self.value_of(wrapper.func).callees & _SAME_PATH_CALLS:
                break
            expression = wrapper
            parent = self.parent.get(expression)
        target: Optional[Node] = None
        statement: Optional[Node] = None
        if isinstance(parent, cst.Assign) and parent.value is expression and len(parent.targets) == 1:
            target, statement = parent.targets[0].target, self.parent.get(parent)
        elif isinstance(parent, cst.AnnAssign) and parent.value is expression:
            target, statement = parent.target, self.parent.get(parent)
        elif isinstance(parent, cst.WithItem) and parent.item is expression and parent.asname is not None:
            if kind == DIRECTORY_OBJECT:
                return None  # ``with TemporaryDirectory() as d``: the context manager cleans up
            target, statement = parent.asname.name, self.parent.get(parent)  # the With
        if index is not None:
            if not isinstance(target, (cst.Tuple, cst.List)) or index >= len(target.elements):
                return None
            target = target.elements[index].value
        if not isinstance(target, cst.Name) or statement is None or target.value in self._globals(call):
            return None
        is_path = self.value_of(expression).is_path
        temp = Temp(call, statement, factory, kind, target.value, is_path)
        temp.handles[target.value] = kind in _OBJECTS
        return temp

    def _globals(self, node: Node) -> Set[str]:
        """Names declared ``global``/``nonlocal`` in ``node``'s function: they outlive it."""
        scope = self.scope_of.get(node)
        declared: Set[str] = set()
        if isinstance(scope, cst.FunctionDef):
            for inner in self._walk(scope.body):
                if isinstance(inner, (cst.Global, cst.Nonlocal)):
                    declared.update(n.name.value for n in inner.names)
        return declared

    def _aliases(self, scope: Node, temps: List[Temp]) -> None:
        """``path = f.name``, ``p = Path(tmp)``: more names for the same temp."""
        if not temps:
            return
        assignments = [n for n in self._walk(scope) if isinstance(n, cst.Assign) and self.scope_of.get(n) is scope]
        for temp in temps:
            for assignment in assignments:
                for target in assignment.targets:
                    if isinstance(target.target, cst.Name) and target.target.value not in temp.handles:
                        if self.refers(assignment.value, temp):
                            temp.handles[target.target.value] = False

    def _walk(self, node: Node) -> Iterator[Node]:
        stack = [node]
        kids = self.kids
        while stack:
            current = stack.pop()
            yield current
            found = kids.get(current)
            stack.extend(reversed(found if found is not None else children(current)))

    # -- expressions and the temp

    def refers(self, expression: Node, temp: Temp) -> bool:
        """Whether ``expression`` is the temp's path (``tmp``, ``f.name``, ``Path(tmp)``)."""
        if isinstance(expression, cst.Name):
            return temp.handles.get(expression.value) is False
        if isinstance(expression, cst.Attribute):
            if expression.attr.value == "name":
                return self.holds_object(expression.value, temp)
            return False
        if isinstance(expression, cst.Call):
            func = expression.func
            if isinstance(func, cst.Attribute) and func.attr.value in _SAME_PATH_METHODS and not expression.args:
                return self.refers(func.value, temp)
            if len(expression.args) == 1 and self.value_of(func).callees & _SAME_PATH_CALLS:
                return self.refers(expression.args[0].value, temp)
        return False

    def holds_object(self, expression: Node, temp: Temp) -> bool:
        return isinstance(expression, cst.Name) and temp.handles.get(expression.value) is True

    def mentions(self, node: Node, temp: Temp) -> bool:
        return any(isinstance(n, cst.Name) and n.value in temp.handles for n in self._walk(node))

    def cleans(self, call: cst.Call, temp: Temp) -> bool:
        """Whether ``call`` removes the temp, now or by registering its removal."""
        func = call.func
        callees = self.value_of(func).callees
        first = _argument(call, 0, "path")
        if callees & names.CLEANUP_FUNCTIONS and first is not None and self.refers(first, temp):
            return True
        if isinstance(func, cst.Attribute) and func.attr.value in names.CLEANUP_METHODS:
            if func.attr.value == "cleanup":
                if temp.kind == DIRECTORY_OBJECT and self.holds_object(func.value, temp):
                    return True
            elif self.refers(func.value, temp):
                return True
        for definition in self.value_of(func).defs:
            if isinstance(definition, cst.FunctionDef):
                cleaned = self.cleaned_parameters(definition)
                for index, arg in enumerate(call.args):
                    if index in cleaned and arg.keyword is None and not arg.star and self.refers(arg.value, temp):
                        return True
        return self._registers_cleanup(call, temp)

    def _registers_cleanup(self, call: cst.Call, temp: Temp) -> bool:
        """``atexit.register(shutil.rmtree, d)``, ``self.addCleanup(os.unlink, p)``,
        ``stack.callback(d.cleanup)``, ``weakref.finalize(obj, lambda: rmtree(d))``."""
        arguments: List[cst.BaseExpression] = []
        for arg in call.args:  # ``Finalize(None, _remove, args=(rmtree, d))`` too
            given = arg.value
            if isinstance(given, (cst.Tuple, cst.List)):
                arguments.extend(e.value for e in given.elements)
            else:
                arguments.append(given)
        if not arguments:
            return False
        remover = False
        for expression in arguments:
            value = self.value_of(expression)
            if value.callees & names.CLEANUP_FUNCTIONS:
                remover = True
            elif isinstance(expression, cst.Attribute) and expression.attr.value == "cleanup" and self.holds_object(expression.value, temp):
                return True
            elif isinstance(expression, cst.Lambda) and any(self.cleans(c, temp) for c in calls_in(expression.body)):
                return True
            else:
                for definition in value.defs:
                    if isinstance(definition, cst.FunctionDef):
                        if self.cleaned_parameters(definition):
                            remover = True
                        elif self.parent_scope(definition) is self.scope_of.get(call) and any(
                            self.cleans(c, temp) for c in self.calls.get(definition, ())
                        ):
                            return True  # a closure that removes the temp
        return remover and any(self.refers(e, temp) for e in arguments)

    def parent_scope(self, function: cst.FunctionDef) -> Optional[Node]:
        return self.scope_of.get(function)

    def cleaned_parameters(self, function: cst.FunctionDef) -> FrozenSet[int]:
        """Positions of the parameters a same-module function removes (``def _rm(p): os.unlink(p)``)."""
        found = self._cleaned.get(function)
        if found is not None:
            return found
        self._cleaned[function] = frozenset()  # recursion answers "none" meanwhile
        params = [*function.params.posonly_params, *function.params.params]
        offset = 1 if params and params[0].name.value in ("self", "cls") else 0
        cleaned = set()
        for index, param in enumerate(params):
            probe = Temp(cst.Call(func=cst.Name("_")), function, "", FILE, param.name.value, False)
            probe.handles[param.name.value] = False
            if any(self.cleans(call, probe) for call in self.calls.get(function, ())):
                cleaned.add(index - offset)
        found = frozenset(cleaned)
        self._cleaned[function] = found
        return found

    def function_raises(self, call: cst.Call) -> Optional[str]:
        """"any" unless ``call`` can only be same-module functions whose bodies call
        nothing that raises (a thin logging wrapper); None then."""
        definitions = self.value_of(call.func).defs
        functions = [d for d in definitions if isinstance(d, cst.FunctionDef)]
        if not definitions or len(functions) != len(definitions):
            return "any"
        for definition in functions:
            if definition not in self._raises:
                self._raises[definition] = "any"  # recursion: assume the worst meanwhile
                self._raises[definition] = _Flow(self, definition, []).raise_class(definition.body)
            if self._raises[definition] is not None:
                return "any"
        return None

    def kept_parameters(self, function: cst.FunctionDef) -> FrozenSet[int]:
        """Positions of the parameters a same-module function keeps for later
        (``self.files.append(p)``, ``self.path = p``): a cleanup registry owns them."""
        found = self._kept.get(function)
        if found is not None:
            return found
        params = [*function.params.posonly_params, *function.params.params]
        offset = 1 if params and params[0].name.value in ("self", "cls") else 0
        kept = set()
        for index, param in enumerate(params[offset:], start=offset):
            name = param.name.value
            for node in self._walk(function.body):
                stored = isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value in names.STORE_METHODS and any(
                    isinstance(a.value, cst.Name) and a.value.value == name for a in node.args
                )
                stored = stored or isinstance(node, cst.Assign) and isinstance(node.value, cst.Name) and node.value.value == name and any(
                    isinstance(t.target, (cst.Attribute, cst.Subscript)) for t in node.targets
                )
                if stored:
                    kept.add(index - offset)
                    break
        found = frozenset(kept)
        self._kept[function] = found
        return found

    def moves(self, call: cst.Call, temp: Temp) -> bool:
        func = call.func
        if self.value_of(func).callees & names.CONSUMING_MOVES:
            source = _argument(call, 0, "src")
            return source is not None and self.refers(source, temp)
        if isinstance(func, cst.Attribute) and func.attr.value in ("rename", "replace") and len(call.args) == 1:
            return self.refers(func.value, temp)
        return False

    # -- driving

    def lifetimes(self) -> List[Lifetime]:
        found: List[Lifetime] = []
        for scope in list(self.calls):
            if isinstance(scope, (cst.Lambda, cst.ClassDef)):
                continue
            temps = self.temps_of(scope)
            if temps:
                if isinstance(scope, cst.FunctionDef):
                    found.extend(_Flow(self, scope, temps).run(scope.body))
                elif isinstance(scope, cst.Module):
                    found.extend(_Flow(self, scope, temps).run(scope))
        return found


# -- the flow of one function ----------------------------------------------------------------


def _join(states: Iterable[Optional[State]]) -> Optional[State]:
    merged: Optional[State] = None
    for state in states:
        if state is None:
            continue
        if merged is None:
            merged = dict(state)
            continue
        for key, statuses in state.items():
            old = merged.get(key)
            if old is not statuses:
                combined = statuses if old is None else old | statuses
                if len(combined) > _MAX_STATUSES:
                    combined = frozenset(sorted(combined, key=_status_key)[:_MAX_STATUSES])
                merged[key] = combined
    return merged


def _status_key(status: Status) -> Tuple[int, str]:
    return (0 if status[0] in ("absent", "live", "removed", "moved", "handed") else 1, repr(status[0]))


def _merge(into: Outcome, other: Outcome) -> None:
    for kind, state in other.items():
        joined = _join([into.get(kind), state])
        if joined is not None:
            into[kind] = joined


class _Flow:
    def __init__(self, analysis: Analysis, scope: Node, temps: List[Temp]) -> None:
        self.a = analysis
        self.scope = scope
        self.temps = temps
        self.created: Dict[Node, List[int]] = {}
        for index, temp in enumerate(temps):
            self.created.setdefault(temp.statement, []).append(index)
        self.leaks: Dict[int, Dict[Leak, None]] = {i: {} for i in range(len(temps))}
        self.handed: Set[int] = set()
        self.entries: Dict[Tuple[int, cst.ExceptHandler], Set[Status]] = {}
        self.falls_through: Set[cst.ExceptHandler] = set()
        self._effects: Dict[Node, Dict[int, Status]] = {}
        self._raises: Dict[Node, Optional[str]] = {}
        self._loop_temps: Dict[Node, FrozenSet[int]] = {}
        # A temp the function removes somewhere is its own: yielding it lends it out.
        self.owned = {i for i, t in enumerate(temps) if any(analysis.cleans(c, t) for c in analysis.calls.get(scope, ()))}

    def run(self, body: Union[cst.BaseSuite, cst.Module]) -> List[Lifetime]:
        start: State = {i: frozenset({ABSENT}) for i in range(len(self.temps))}
        out = self.block(body.body, start) if isinstance(body, (cst.Module, cst.IndentedBlock)) else self.smalls(body.body, start)
        for kind, label in (("next", "carries on"), ("return", "returns")):
            for index, statuses in out.get(kind, {}).items():
                for status in statuses:
                    if status[0] == "err":
                        self.leak(index, status[1], status[2], label)
        for index, statuses in out.get("raise", {}).items():
            for status in statuses:
                if status[0] == "raised":
                    self.leak(index, status[1], status[2], "re-raises" if status[2] is not None else "propagates")
        return [self.lifetime(i, t) for i, t in enumerate(self.temps)]

    def leak(self, index: int, origin: object, handler: object, exit: str) -> None:
        self.leaks[index][Leak(origin, handler, exit)] = None  # type: ignore[arg-type]

    # -- statements

    def block(self, statements: Sequence[Node], state: State) -> Outcome:
        out: Outcome = {}
        current: Optional[State] = state
        for statement in statements:
            if current is None:
                break
            result = self.statement(statement, current)
            current = result.pop("next", None)
            _merge(out, result)
        if current is not None:
            _merge(out, {"next": current})
        return out

    def suite(self, suite: cst.BaseSuite, state: State) -> Outcome:
        if isinstance(suite, cst.IndentedBlock):
            return self.block(suite.body, state)
        return self.smalls(suite.body, state)

    def smalls(self, statements: Sequence[Node], state: State) -> Outcome:
        return self.block(statements, state)

    def statement(self, node: Node, state: State) -> Outcome:
        if isinstance(node, cst.SimpleStatementLine):
            out = self.smalls(node.body, state)
            if node in self.created:
                out = self.create(node, out)
            return out
        if isinstance(node, cst.If):
            return self.if_statement(node, state)
        if isinstance(node, _LOOPS):
            return self.loop(node, state)
        if isinstance(node, (cst.Try, cst.TryStar)):
            return self.try_statement(node, state)
        if isinstance(node, cst.With):
            return self.with_statement(node, state)
        if isinstance(node, cst.Match):
            out = self.raising(node.subject, state)
            rest: List[Outcome] = [{"next": dict(state)}]
            for case in node.cases:
                rest.append(self.suite(case.body, state))
            for result in rest:
                _merge(out, result)
            return out
        if isinstance(node, (cst.FunctionDef, cst.ClassDef)):
            return {"next": state}
        return self.small(node, state)

    def create(self, node: Node, out: Outcome) -> Outcome:
        """After the creation statement completes, its temps are live."""
        following = out.get("next")
        if following is not None:
            following = dict(following)
            for index in self.created[node]:
                following[index] = frozenset({NAMED if self.temps[index].factory == "tempfile.mktemp" else LIVE})
            out["next"] = following
        return out

    def small(self, node: Node, state: State) -> Outcome:
        out: Outcome = {}
        effects = self.effects(node)
        if not isinstance(node, cst.Raise):
            cls = self.raise_class(node)
            if cls is not None:
                # A move that fails leaves the temp where it was; a removal or a
                # hand-off is done even if the statement raises afterwards.
                before = dict(state)
                for index, effect in effects.items():
                    if effect is not MOVED:
                        before[index] = frozenset({effect})
                out["raise"] = self.raised(before, node, cls)
        after = self.apply(state, effects)
        after = self.used(node, after)
        if isinstance(node, cst.Return):
            out["return"] = after
        elif isinstance(node, cst.Raise):
            out["raise"] = self.raised(after, node, "any", reraise=True)
        elif isinstance(node, cst.Continue):
            out["continue"] = after
        elif isinstance(node, cst.Break):
            out["break"] = after
        else:
            out["next"] = after
        return out

    def apply(self, state: State, effects: Dict[int, Status]) -> State:
        if not effects:
            return state
        after = dict(state)
        for index, effect in effects.items():
            if state.get(index, frozenset()) & {LIVE, NAMED}:
                self.handed.add(index)
            after[index] = frozenset({effect})
        return after

    def used(self, node: Node, state: State) -> State:
        """A ``mktemp`` name exists once a statement that uses it has completed."""
        after = state
        for index, statuses in state.items():
            if NAMED in statuses and self.a.mentions(node, self.temps[index]):
                after = dict(after) if after is state else after
                after[index] = (statuses - {NAMED}) | {LIVE}
        return after

    def raised(self, state: State, origin: Node, cls: str, reraise: bool = False) -> State:
        """The statuses an exception from ``origin`` carries.

        One exception is followed at a time: a statement that fails while an error is
        already being handled (a log call in the handler, a ``finally`` step) starts no
        error path of its own, so only live temps, and an explicit re-raise, count.
        """
        result: State = {}
        for index, statuses in state.items():
            converted: Set[Status] = set()
            for status in statuses:
                if status == LIVE:
                    converted.add(("raised", origin, None, cls))
                elif status[0] == "err" and reraise:
                    converted.add(("raised", status[1], status[2], cls))
                else:
                    converted.add(status)
            result[index] = frozenset(converted)
        return result

    def raising(self, node: Optional[Node], state: State) -> Outcome:
        if node is None:
            return {}
        cls = self.raise_class(node)
        return {"raise": self.raised(state, self.statement_of(node), cls)} if cls is not None else {}

    def statement_of(self, node: Node) -> Node:
        """The compound statement a header expression belongs to (for messages)."""
        parent = self.a.parent.get(node)
        while parent is not None and not isinstance(parent, (cst.BaseCompoundStatement, cst.SimpleStatementLine)):
            parent = self.a.parent.get(parent)
        return parent if parent is not None else node

    def if_statement(self, node: cst.If, state: State) -> Outcome:
        out = self.raising(node.test, state)
        then = self.suite(node.body, state)
        if isinstance(node.orelse, cst.If):
            other = self.if_statement(node.orelse, state)
        elif isinstance(node.orelse, cst.Else):
            other = self.suite(node.orelse.body, state)
        else:
            other = {"next": state}
        # ``if os.path.exists(tmp): os.unlink(tmp)``: a test of the temp whose branch
        # removes it covers the other branch too (the temp is not there, or is None).
        for index, temp in enumerate(self.temps):
            then_next = then.get("next")
            if then_next is not None and then_next.get(index) == frozenset({REMOVED}) and self.a.mentions(node.test, temp):
                if "next" in other:
                    other["next"] = {**other["next"], index: frozenset({REMOVED})}
        _merge(out, then)
        _merge(out, other)
        return out

    def loop(self, node: Union[cst.For, cst.While], state: State) -> Outcome:
        header = node.iter if isinstance(node, cst.For) else node.test
        out = self.raising(header, state)
        mine = self.loop_temps(node)
        entry = state
        exits: Outcome = {}
        for _ in range(3):
            body = self.suite(node.body, entry)
            back = _join([body.get("next"), body.get("continue")])
            for kind in ("return", "raise", "break"):
                if kind in body:
                    _merge(exits, {kind: body[kind]})
            if back is None:
                break
            back = dict(back)
            for index in mine:
                for status in back.get(index, ()):
                    if status[0] == "err":
                        self.leak(index, status[1], status[2], "continues the loop")
                back[index] = frozenset({ABSENT})
            merged = _join([entry, back])
            assert merged is not None
            if merged == entry:
                break
            entry = merged
            _merge(out, self.raising(header, entry))
        done: Outcome = {"next": entry}
        if node.orelse is not None:
            done = self.suite(node.orelse.body, entry)
        _merge(out, done)
        if "break" in exits:
            _merge(out, {"next": exits.pop("break")})
        _merge(out, exits)
        return out

    def loop_temps(self, node: Node) -> FrozenSet[int]:
        found = self._loop_temps.get(node)
        if found is None:
            start, end = self.a.order[node.body], self.a.end[node.body]  # type: ignore[attr-defined]
            found = frozenset(i for i, t in enumerate(self.temps) if start <= self.a.order[t.statement] <= end)
            self._loop_temps[node] = found
        return found

    def with_statement(self, node: cst.With, state: State) -> Outcome:
        out: Outcome = {}
        for item in node.items:
            _merge(out, self.raising(item.item, state))
        effects: Dict[int, Status] = {}
        for item in node.items:
            for index, temp in enumerate(self.temps):
                if temp.kind == DIRECTORY_OBJECT and self.a.holds_object(item.item, temp):
                    effects[index] = REMOVED  # ``with d:`` removes it on the way out
        state = self.apply(state, effects)
        for item in node.items:
            state = self.used(item.item, state)
        if node in self.created:
            state = dict(state)
            for index in self.created[node]:
                state[index] = frozenset({LIVE})
        _merge(out, self.suite(node.body, state))
        return out

    def try_statement(self, node: Union[cst.Try, cst.TryStar], state: State) -> Outcome:
        body = self.suite(node.body, state)
        raised = body.pop("raise", None)
        out: Outcome = {}
        if node.orelse is not None and "next" in body:
            following = self.suite(node.orelse.body, body.pop("next"))
            _merge(out, following)
        _merge(out, body)
        remaining = raised
        for handler in node.handlers:
            if remaining is None:
                break
            catches = catch_class(handler, self.a.value_of)
            entry: State = {}
            for index, statuses in remaining.items():
                self.entries.setdefault((index, handler), set()).update(statuses)  # type: ignore[arg-type]
                entry[index] = frozenset(
                    ("err", s[1], handler) if s[0] == "raised" else s for s in statuses
                )
            result = self.suite(handler.body, entry)
            if "next" in result:
                self.falls_through.add(handler)  # type: ignore[arg-type]
            _merge(out, result)
            if catches == "all":
                remaining = None
            elif catches == "os":
                remaining = {i: frozenset(s for s in ss if not (s[0] == "raised" and s[3] == "os")) for i, ss in remaining.items()}
        if remaining is not None:
            _merge(out, {"raise": remaining})
        if node.finalbody is not None:
            finished: Outcome = {}
            for kind, kind_state in out.items():
                result = self.suite(node.finalbody.body, kind_state)
                if "next" in result:
                    result[kind] = _join([result.get(kind), result.pop("next")])  # type: ignore[assignment]
                _merge(finished, result)
            out = finished
        return out

    # -- what one statement does

    def effects(self, node: Node) -> Dict[int, Status]:
        found = self._effects.get(node)
        if found is not None:
            return found
        found = {}
        a = self.a
        for index, temp in enumerate(self.temps):
            effect: Optional[Status] = None
            for call in calls_in(node):
                if a.cleans(call, temp):
                    effect = REMOVED
                    break
                if a.moves(call, temp):
                    effect = MOVED
                elif effect is None and self.stores(call, temp):
                    effect = HANDED
            if effect is None and self.hands_off(node, temp, index):
                effect = HANDED
            if effect is not None:
                found[index] = effect
        self._effects[node] = found
        return found

    def stores(self, call: cst.Call, temp: Temp) -> bool:
        func = call.func
        for definition in self.a.value_of(func).defs:
            if isinstance(definition, cst.FunctionDef):
                kept = self.a.kept_parameters(definition)
                if any(i in kept and a.keyword is None and self.a.mentions(a.value, temp) for i, a in enumerate(call.args)):
                    return True  # ``self.registerFileForCleanUp(path)``
        if isinstance(func, cst.Attribute) and func.attr.value in names.STORE_METHODS:
            if any(self.a.mentions(arg.value, temp) for arg in call.args):
                return True
        # A directory object given away takes its cleanup with it (``stack.enter_context(d)``).
        return temp.kind == DIRECTORY_OBJECT and any(self.a.holds_object(arg.value, temp) for arg in call.args)

    def hands_off(self, node: Node, temp: Temp, index: int) -> bool:
        a = self.a
        if isinstance(node, cst.Return):
            return node.value is not None and a.mentions(node.value, temp)
        if isinstance(node, (cst.Assign, cst.AnnAssign, cst.AugAssign)):
            targets = [t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target]
            value = node.value
            if value is not None and not all(_is_names(t) for t in targets) and a.mentions(value, temp):
                return True  # ``self.tmp = tmp``, ``paths[key] = tmp``
        if index not in self.owned:
            for inner in a._walk(node):
                if isinstance(inner, cst.Yield) and inner.value is not None and a.mentions(inner.value, temp):
                    return True
        return False

    def raise_class(self, node: Node) -> Optional[str]:
        """None when ``node`` cannot raise, "os" when only ``OSError``, else "any"."""
        if node in self._raises:
            return self._raises[node]
        found: Optional[str] = None
        stack = [node]
        while stack and found != "any":
            current = stack.pop()
            if isinstance(current, (cst.Await, cst.Yield, cst.Assert, cst.Raise)):
                found = "any"
            elif isinstance(current, cst.Call):
                callees = self.a.value_of(current.func).callees
                if callees and callees <= names.NON_RAISING_CALLS:
                    pass
                elif isinstance(current.func, cst.Attribute) and current.func.attr.value in names.LOGGING_METHODS:
                    pass  # logging handles its own errors (``Handler.handleError``)
                elif not callees and self.a.function_raises(current) is None:
                    pass  # a same-module function that cannot raise (``def info(msg): _log.info(msg)``)
                elif callees and all(c.startswith(names.OS_ERROR_MODULES) for c in callees):
                    found = "os"
                elif isinstance(current.func, cst.Attribute) and self.a.value_of(current.func.value).is_path:
                    found = "os"
                else:
                    found = "any"
            stack.extend(c for c in self.a.kids.get(current) or children(current) if not isinstance(c, _SCOPES))
        self._raises[node] = found
        return found

    # -- the result

    def lifetime(self, index: int, temp: Temp) -> Lifetime:
        leaks = tuple(sorted(self.leaks[index], key=lambda leak: self.leak_key(index, leak)))
        if not (leaks and index in self.handed):
            return Lifetime(temp, index in self.handed, leaks)
        fixes = []
        for handler in dict.fromkeys(l.handler for l in leaks if l.handler is not None):
            fix = self.handler_fix(index, temp, handler)
            if fix is not None:
                fixes.append(fix)
        unhandled = [l for l in leaks if l.handler is None]
        return Lifetime(temp, True, leaks, tuple(fixes), self.wrap(temp, unhandled) if unhandled else None)

    def leak_key(self, index: int, leak: Leak) -> Tuple[int, bool, int]:
        """Swallowing handlers first, and among them the failed move, which is what
        the incident was about; then source order."""
        rank = {"continues the loop": 0, "returns": 1, "carries on": 2, "re-raises": 3, "propagates": 4}[leak.exit]
        moving = self._effects.get(leak.origin, {}).get(index) is MOVED
        return rank, not moving, self.a.order.get(leak.origin, 0)

    def handler_fix(
        self, index: int, temp: Temp, handler: cst.ExceptHandler
    ) -> Optional[Tuple[cst.ExceptHandler, Optional[Tuple[cst.Try, cst.IndentedBlock]]]]:
        a = self.a
        if a.mentions(handler.body, temp):
            return None  # it does something with the temp already: not ours to reorder
        entry = self.entries.get((index, handler), set())
        if HANDED in entry or LIVE in entry:
            return None  # someone else may own it by then
        node = a.parent.get(handler)
        if not isinstance(node, cst.Try):
            return None
        if handler in self.falls_through:
            end = a.end[node]
            for name_node in a._walk(self.scope):
                if isinstance(name_node, cst.Name) and name_node.value in temp.handles and a.order[name_node] > end:
                    return None  # used after the try: removing it early would change that
        if ABSENT not in entry:
            return handler, None
        body, block = node.body, a.parent.get(node)
        inside = a.order[body] <= a.order[temp.statement] <= a.end[body]
        if not inside or not isinstance(block, cst.IndentedBlock):
            return None
        return handler, (node, block)

    def wrap(self, temp: Temp, leaks: List[Leak]) -> Optional[Tuple[cst.IndentedBlock, int, int]]:
        a = self.a
        block = a.parent.get(temp.statement)
        if not isinstance(block, cst.IndentedBlock) or not isinstance(temp.statement, cst.SimpleStatementLine):
            return None
        statements = list(block.body)
        first = statements.index(temp.statement) + 1
        last = -1
        for leak in leaks:
            position = a.order.get(leak.origin, 0)
            for number, statement in enumerate(statements[first:], start=first):
                if a.order[statement] <= position <= a.end[statement]:
                    last = max(last, number)
                    break
            else:
                return None  # raised outside this block (or by the creation itself)
        return (block, first, last) if last >= first else None
