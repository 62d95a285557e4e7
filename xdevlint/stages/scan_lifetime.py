"""The temp rules' cheap scans (stdlib ``ast``): which temps the lifetime analysis could
find leaking on an error path (XDV201, ``temp_may_leak``) or never released (XDV203,
``temp_may_stay``).

Most temps in real code are safe by shape for XDV201: the statement right after the
creation registers the removal (``self.addCleanup(os.unlink, path)``), stores the path
where it outlives the call (``_registry.append(path)`` into a global), or opens a ``try``
whose ``finally`` starts by removing it. From the moment that statement starts, no
error path can leave the temp behind, because the lifetime analysis counts a removal or
hand-off as done even when the statement then raises. Others are never handed off at
all: no statement could remove, move, store or return them, nor any name bound from
them (``paths = [tmp]``, ``cmd = "rm " + tmp``), and the analysis leaves a temp alone
whose normal path keeps it. For XDV203 the opposite holds: a temp is safe when a
statement of its own scope surely removes, moves, returns or registers it, or (kept on
``self``) a method of its class surely removes it. Files whose every held temp is safe
never reach libcst.

Each shape is recognised only where ``analysis/lifetime.py`` is sure to see the same
effect, so the scans stay sound: names are resolved through imports only when bound
once and never assigned, arguments hold no calls (a nested call might be a move,
which does not count until it succeeds), a store covers only when it goes into a
parameter's or a module global's container (``self``'s needs its class to remove it,
the function's own only holds it, an import may be the standard library's state), a
helper that returns a temp keeps the file when the file names it elsewhere (its
callers' calls are creations the scan does not follow), and ``self.mkdtemp()`` is a
factory only when this file makes an attribute of that name one.
"""

from __future__ import annotations

import ast
from typing import Dict, FrozenSet, Iterator, List, Optional, Sequence, Set, Tuple

from xdevlint.analysis import names

#: The factories' own names (``tempfile.mkdtemp`` -> ``mkdtemp``).
FACTORY_NAMES = frozenset(q.rsplit(".", 1)[1] for q in names.TEMP_FACTORIES)
#: Those that make a file, which a path cannot lie inside.
_FILE_MAKERS = frozenset({"mkstemp", "mktemp", "NamedTemporaryFile"})
DOWNLOAD_NAMES = frozenset(q.rsplit(".", 1)[1] for q in names.DOWNLOAD_TEMPS)
UNIQUE_NAMES = frozenset(q.rsplit(".", 1)[1] for q in names.UNIQUE_NAME_CALLS)
_JOINING_NAMES = frozenset(q.rsplit(".", 1)[1] for q in names.JOIN_CALLS | names.PATH_CLASSES)
#: Calls whose result is their first argument's path, or one below it: a temp given to any
#: other call is held as that call's argument (``run(mkdtemp())``).
_PATH_NAMES = _JOINING_NAMES | frozenset(q.rsplit(".", 1)[1] for q in names.PASS_THROUGH_CALLS)
#: The statements a ``mktemp`` name may wait in before a use creates its file.
_SIMPLE = (ast.Expr, ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Pass)
_REMOVING_METHODS = frozenset({"unlink", "rmdir"})


class ModuleIndex:
    """What the checks need to know about the whole file: the nodes and their parents
    from one walk (shared by every AST tier of a ``Scan``); blocks, imports, bound names
    and the factories' aliases only when a temp needs them."""

    def __init__(self, tree: ast.AST) -> None:
        # ``ast.walk`` would cost twice as much: ``iter_child_nodes`` is a generator over
        # another (``iter_fields``) for every node. Breadth first; no caller needs an order.
        self.nodes: List[ast.AST] = [tree]
        self.parents: Dict[ast.AST, ast.AST] = {}
        parents, append = self.parents, self.nodes.append
        for node in self.nodes:
            for name in node._fields:
                value = getattr(node, name, None)
                if type(value) is list:
                    for item in value:
                        if isinstance(item, ast.AST):
                            parents[item] = node
                            append(item)
                elif isinstance(value, ast.AST):
                    parents[value] = node
                    append(value)
        self._aliases: Optional[Set[str]] = None
        self._bound_anywhere: Optional[Set[str]] = None
        self._siblings: Optional[Dict[ast.AST, Tuple[List[ast.stmt], int]]] = None
        self._imports: Optional[Dict[str, str]] = None
        self.bound: Set[str] = set()  # names assigned, defined or taken as parameters

    @property
    def siblings(self) -> Dict[ast.AST, Tuple[List[ast.stmt], int]]:
        """Each statement's block and its index there."""
        if self._siblings is None:
            self._siblings = {}
            for node in self.nodes:
                if isinstance(node, (ast.stmt, ast.Module, ast.ExceptHandler, ast.match_case)):
                    for field in ("body", "orelse", "finalbody"):
                        block = getattr(node, field, None)
                        if isinstance(block, list):
                            for index, statement in enumerate(block):
                                self._siblings[statement] = (block, index)
        return self._siblings

    @property
    def imports(self) -> Dict[str, str]:
        """Local name -> what it imports, for names imported once and never bound otherwise."""
        if self._imports is None:
            imports: Dict[str, Set[str]] = {}
            for node in self.nodes:
                if isinstance(node, ast.Import):
                    for alias in node.names:
                        local = alias.asname or alias.name.split(".", 1)[0]
                        imports.setdefault(local, set()).add(alias.name if alias.asname else local)
                elif isinstance(node, ast.ImportFrom):
                    for alias in node.names:
                        qualified = f"{node.module}.{alias.name}" if node.module and not node.level else ""
                        imports.setdefault(alias.asname or alias.name, set()).add(qualified)
                elif isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
                    self.bound.add(node.id)
                elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    self.bound.add(node.name)
                elif isinstance(node, ast.arg):
                    self.bound.add(node.arg)
                elif isinstance(node, ast.ExceptHandler) and node.name:
                    self.bound.add(node.name)
            self._imports = {local: next(iter(q)) for local, q in imports.items() if len(q) == 1 and "" not in q}
        return self._imports

    @property
    def bound_anywhere(self) -> Set[str]:
        """Every name the file binds or imports, and every attribute it assigns: what
        may hold another value than the name says (``Error = OSError``, ``self.error = OSError``)."""
        if self._bound_anywhere is None:
            found: Set[str] = set()
            for node in self.nodes:
                if isinstance(node, (ast.Name, ast.Attribute)) and not isinstance(node.ctx, ast.Load):
                    found.add(node.id if isinstance(node, ast.Name) else node.attr)
                elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    found.add(node.name)
                elif isinstance(node, ast.alias):
                    found.add(node.asname or node.name.split(".", 1)[0])
                    found.add(node.name.rsplit(".", 1)[-1])
                elif isinstance(node, ast.arg):
                    found.add(node.arg)
                elif isinstance(node, ast.ExceptHandler) and node.name:
                    found.add(node.name)
                elif isinstance(node, (ast.Global, ast.Nonlocal)):
                    found.update(node.names)
            self._bound_anywhere = found
        return self._bound_anywhere

    @property
    def aliases(self) -> Set[str]:
        """Other names for a temp factory (see ``_aliases``)."""
        if self._aliases is None:
            self._aliases = _aliases(self)
        return self._aliases

    def qualified(self, node: ast.AST) -> Optional[str]:
        """``os.unlink`` for ``os.unlink`` after ``import os``; None when unsure."""
        if isinstance(node, ast.Name):
            imports = self.imports  # fills ``bound`` as well
            return None if node.id in self.bound else imports.get(node.id)
        if isinstance(node, ast.Attribute):
            base = self.qualified(node.value)
            return f"{base}.{node.attr}" if base else None
        return None


#: A creation call's place as the stdlib AST gives it: its line and its UTF-8 byte column.
Site = Tuple[int, int]


def temp_may_leak(tree: Optional[ast.AST], module: Optional[ModuleIndex] = None) -> bool:
    """Whether some temp the file creates and holds may leak on an error path (sound:
    False only when every one is covered as the module docstring says). ``module``: the
    tree's index, when the caller has one."""
    if tree is None:
        return True
    module = module or ModuleIndex(tree)
    return any(_creation_may_leak(module, call) for call in _creations(module))


def temp_may_stay(tree: Optional[ast.AST], module: Optional[ModuleIndex] = None) -> bool:
    """Whether some temp the file creates and holds may never be removed (sound: False
    only when each one is surely removed, moved, returned or registered by a statement
    of its own scope, or is not a temp XDV203 reports). ``module`` as for ``temp_may_leak``."""
    if tree is None:
        return True
    module = module or ModuleIndex(tree)
    return any(_creation_may_stay(module, call) for call in _creations(module))


def cleared(module: ModuleIndex, stay: bool) -> FrozenSet[Site]:
    """The creations this scan judges safe, one by one: from XDV201's error paths
    (``stay`` False) or from XDV203's (``stay`` True). The rule never reports them,
    whatever else the file holds: a file is left unparsed exactly when every creation in
    it is cleared, so whether it is parsed (because another function of it makes a temp)
    cannot change the verdict on any one of them."""
    judge = _creation_may_stay if stay else _creation_may_leak
    return frozenset((call.lineno, call.col_offset) for call in _creations(module) if not judge(module, call))


def _creations(module: ModuleIndex) -> Iterator[ast.Call]:
    """The calls that may make a temp: a factory, an alias of one, a download without a
    filename, or a unique name joined to the temp directory."""
    aliases = module.aliases
    for node in module.nodes:
        if isinstance(node, ast.Call) and (_may_create(module, node.func, aliases) or _makes_otherwise(node)):
            yield node


def _makes_otherwise(call: ast.Call) -> bool:
    """``urlretrieve(url)``; ``os.path.join(tempfile.gettempdir(), f"x-{uuid4()}")`` (any
    call first, to stay sound: the analysis decides what it is). The held
    ones are "unknown" to ``_held`` (not a factory's name), so their files are kept."""
    name = _terminal(call.func)
    if name in DOWNLOAD_NAMES:
        return True
    if name not in _JOINING_NAMES or len(call.args) < 2 or not isinstance(call.args[0], ast.Call):
        return False
    return any(isinstance(n, ast.Call) and _terminal(n.func) in UNIQUE_NAMES for a in call.args[1:] for n in ast.walk(a))


def _aliases(module: ModuleIndex) -> Set[str]:
    """Other names for a factory: ``from tempfile import mkdtemp as md``, and targets
    of assignments that name one other than by calling it (``mk = tempfile.mkstemp``,
    ``self._mk = mk``, ``make = staticmethod(mkdtemp)``), two assignments deep."""
    aliases: Set[str] = set()
    named: List[ast.AST] = []
    for node in module.nodes:
        if isinstance(node, ast.ImportFrom):
            aliases.update(a.asname for a in node.names if a.name in FACTORY_NAMES and a.asname)
        elif isinstance(node, (ast.Name, ast.Attribute)):
            named.append(node)
    for _ in range(2):
        known = FACTORY_NAMES | aliases
        for node in named:
            if _terminal(node) not in known:
                continue
            parent = module.parents.get(node)
            if isinstance(parent, ast.Call) and parent.func is node:
                continue  # a call: a creation, not an alias
            child = node
            while parent is not None and not isinstance(parent, (ast.stmt, ast.NamedExpr)):
                child, parent = parent, module.parents.get(parent)
            if isinstance(parent, (ast.Assign, ast.AnnAssign, ast.NamedExpr)) and parent.value is child:
                for target in parent.targets if isinstance(parent, ast.Assign) else [parent.target]:
                    name = _terminal(target)
                    if name is not None:
                        aliases.add(name)
    return aliases


def _may_create(module: ModuleIndex, func: ast.expr, aliases: Set[str]) -> bool:
    """Whether calling ``func`` may make a temp: ``tempfile.mkdtemp``, an alias, or a
    factory's name on something that may be ``tempfile``, or a project's module
    (``pycompat.mkstemp()``). ``self.mkdtemp()`` is a
    method (a same-module one that returns a temp is caught by its own ``return``)."""
    name = _terminal(func)
    if name in aliases:
        return True
    if name not in FACTORY_NAMES:
        return False
    if isinstance(func, ast.Attribute):
        receiver = func.value
        if isinstance(receiver, ast.Name) and receiver.id in ("self", "cls"):
            return False
        known = module.qualified(receiver)
        return known is None or known == "tempfile" or names.tempfile_lookalike(f"{known}.{name}") is not None
    known = module.qualified(func)
    return known is None or known in names.TEMP_FACTORIES or names.tempfile_lookalike(known) is not None


def _held(module: ModuleIndex, call: ast.Call) -> Tuple[str, Optional[ast.AST], Optional[_Temp]]:
    """How the file holds what ``call`` makes, as the lifetime analysis may read it:
    "none" (it cannot be a tracked temp), "unknown" (returned by a helper, made by an
    alias, kept on an attribute: the analysis may track it in ways not followed here),
    or "held" with its statement and its names."""
    factory = _terminal(call.func)
    expression: ast.AST = call
    parent = module.parents.get(expression)
    indexed = False  # ``mkstemp()[1]``: the path itself, no tuple to unpack
    named = False  # ``NamedTemporaryFile().name``
    inside = False  # ``os.path.join(mkdtemp(), "x")``: only the directory's removal counts
    # Climb what the analysis climbs: ``[1]``, ``.name``, ``Path(...)``, ``os.path.join(...)``,
    # ``... / "x"``, ``out or ...``, ``... if c else ...``, ``f"{...}.ts"`` (any of their operands,
    # to stay sound).
    while True:
        if isinstance(parent, ast.Subscript) and parent.value is expression:
            indexed = True
        elif isinstance(parent, ast.Attribute) and parent.attr == "name":
            named = True
        elif isinstance(parent, ast.Call) and expression in parent.args and isinstance(parent.func, ast.Attribute) and parent.func.attr in names.STORE_METHODS:
            return "unknown", parent, None  # ``dirs.append(mkdtemp())``: held by a container
        elif isinstance(parent, ast.Call) and parent.args and parent.args[0] is expression:
            if _terminal(parent.func) not in _PATH_NAMES:
                break  # made in a call's argument
            inside = inside or len(parent.args) > 1 and _terminal(parent.func) in _JOINING_NAMES
        elif isinstance(parent, (ast.BinOp, ast.BoolOp, ast.IfExp, ast.FormattedValue, ast.JoinedStr)):
            # ``... / "x"``; ``mkdtemp() + "/x"`` and ``f"{mkdtemp()}/x"`` (for any factory
            # but the file makers, since an alias's kind is not known here)
            divided = isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Div)
            joined = isinstance(parent, ast.JoinedStr) or isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Add)
            inside = inside or divided or joined and factory not in _FILE_MAKERS
        else:
            break
        expression, parent = parent, module.parents.get(parent)
    if inside:
        return "unknown", parent, None  # only removing its directory lets go of it: not followed here
    if factory == "NamedTemporaryFile" and not _deletes_never(call) and not named:
        if _name_outlives_file(module, parent):
            return "unknown", parent, None  # a file may be made again at its name, or beside it
        return "none", None, None  # deleted on close: the object cleans up after itself
    if isinstance(parent, (ast.Call, ast.keyword)):
        return "unknown", parent, None  # ``run(mkdtemp())``: held as the call's argument
    if isinstance(parent, ast.Return):
        return "unknown", parent, None  # a helper: each caller's call is a creation
    if isinstance(parent, ast.withitem):
        if parent.optional_vars is None or factory == "TemporaryDirectory":
            return "none", None, None
        targets: List[ast.expr] = [parent.optional_vars]
        parent = module.parents.get(parent)
    elif isinstance(parent, (ast.Assign, ast.AnnAssign)) and parent.value is expression:
        targets = parent.targets if isinstance(parent, ast.Assign) else [parent.target]
    else:
        return "none", None, None  # not held: passed on, or unused
    attributes = [e for t in targets for e in (t.elts if isinstance(t, (ast.Tuple, ast.List)) else [t]) if isinstance(e, ast.Attribute)]
    if any(_on_self(module, a) for a in attributes):
        return "self", parent, None  # kept on ``self``: its class is the owner
    if any(isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) for t in targets):
        return "unknown", parent, None  # ``env["TMP"] = mkdtemp()``: held by a container
    if not any(isinstance(t, (ast.Name, ast.Tuple, ast.List)) for t in targets):
        return "none", None, None
    if factory not in FACTORY_NAMES:
        return "unknown", parent, None  # an alias of a factory: what it makes is not known here
    handle = _handle(targets, factory, indexed)
    if handle is None:
        return "none", None, None  # not one name: the lifetime analysis does not track it either
    scope = _scope(module, parent)  # type: ignore[arg-type]
    if scope is None or _returned(scope, handle) and _used_elsewhere(module, scope):
        return "unknown", parent, None
    return "held", parent, _Temp(factory, handle, scope)


def _name_outlives_file(module: ModuleIndex, holder: Optional[ast.AST]) -> bool:
    """Whether a deleting ``NamedTemporaryFile`` held in a name (``f = ...``, ``with ... as
    f``) may have a file made at its name after it is closed (``f.close()``, or a read of
    it or of a name bound from it outside its ``with``), or beside it (a sum, an f-string,
    ``with_suffix``), or is returned by a helper: the analysis follows those."""
    if isinstance(holder, ast.withitem):
        target, statement = holder.optional_vars, module.parents.get(holder)
    elif isinstance(holder, ast.Assign) and len(holder.targets) == 1:
        target, statement = holder.targets[0], holder
    else:
        return False  # not held in a name: the analysis does not follow it
    if not isinstance(target, ast.Name) or statement is None:
        return False
    scope = _scope(module, statement)
    if scope is None:
        return True
    held = {target.id}
    nodes = list(ast.walk(scope))
    for _ in range(len(nodes)):  # names bound from it, to a fixpoint
        before = len(held)
        for node in nodes:
            bound: List[Tuple[Optional[ast.AST], Optional[ast.AST]]] = []
            if isinstance(node, ast.Assign):
                bound = [(node.value, t) for t in node.targets]
            elif isinstance(node, (ast.AnnAssign, ast.NamedExpr, ast.For, ast.AsyncFor)):
                bound = [(node.iter if isinstance(node, (ast.For, ast.AsyncFor)) else node.value, node.target)]
            elif isinstance(node, ast.withitem):
                bound = [(node.context_expr, node.optional_vars)]
            for value, bound_to in bound:
                if value is not None and bound_to is not None and _mentions(value, held):
                    held.update(n.id for n in ast.walk(bound_to) if isinstance(n, ast.Name))
        if len(held) == before:
            break
    if any(_returned(scope, name) for name in held) and _used_elsewhere(module, scope):
        return True  # ``name = f.name`` ... ``return name``: each caller gets only the name
    for node in nodes:
        if isinstance(node, (ast.BinOp, ast.JoinedStr)) or isinstance(node, ast.Call) and _terminal(node.func) in names.BESIDE_METHODS:
            if _mentions(node, held):
                return True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "close" and _mentions(node.func.value, held):
            return True
    if isinstance(holder, ast.withitem):
        inside = {id(n) for n in ast.walk(statement)}
        return any(isinstance(n, ast.Name) and n.id in held and id(n) not in inside for n in nodes)
    return False


def _on_self(module: ModuleIndex, target: ast.Attribute) -> bool:
    """``self.attr`` in a method: the analysis tracks it as the class's temp."""
    function = module.parents.get(target)
    while function is not None and not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
        function = module.parents.get(function)
    if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)) or not isinstance(module.parents.get(function), ast.ClassDef):
        return False
    params = function.args.posonlyargs + function.args.args
    return bool(params) and isinstance(target.value, ast.Name) and target.value.id == params[0].arg


def _creation_may_leak(module: ModuleIndex, call: ast.Call) -> bool:
    how, statement, temp = _held(module, call)
    if how == "self":
        return _self_temp_may_leak(module, statement)  # type: ignore[arg-type]
    if how != "held":
        return how == "unknown"
    assert temp is not None and isinstance(statement, ast.stmt)
    return temp.may_be_handed_off(module) and not _covered(module, statement, temp)


def _self_temp_may_leak(module: ModuleIndex, statement: ast.stmt) -> bool:
    """A temp created into ``self.attr``: ``__enter__`` (and ``setUp``) hands it over only
    when it returns, so it may leak; another method owns it only when that method itself uses
    ``self.attr`` where a removal or hand-off could be (the analysis follows nothing
    else: the object has it, or XDV203 asks its class)."""
    function = _scope(module, statement)
    if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return True
    if function.name in names.ENTERING:
        return True
    if _class_removes(module, statement, besides=function):
        return False  # the object owns it from the start (another method removes it): nothing to follow
    attributes = _attributes_set(statement)
    return any(
        isinstance(node, ast.Attribute) and node.attr in attributes and isinstance(node.ctx, ast.Load) and _may_hand_off(module, node, function)
        for node in ast.walk(function)
    )


def _attributes_set(statement: ast.stmt) -> Set[str]:
    if isinstance(statement, (ast.With, ast.AsyncWith)):
        targets = [item.optional_vars for item in statement.items if item.optional_vars is not None]
    else:
        targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]  # type: ignore[attr-defined]
    return {e.attr for t in targets for e in (t.elts if isinstance(t, (ast.Tuple, ast.List)) else [t]) if isinstance(e, ast.Attribute)}


def _class_removes(module: ModuleIndex, statement: ast.stmt, besides: Optional[ast.AST] = None) -> bool:
    """Whether a method of the class (other than ``besides``, the one making the temp)
    surely removes what ``self.attr`` holds, as the analysis reads it:
    ``shutil.rmtree(self.attr)``, ``self.attr.cleanup()``, ``self.addCleanup(shutil.rmtree, self.attr)``."""
    function = _scope(module, statement)
    cls = module.parents.get(function or statement)
    if not isinstance(cls, ast.ClassDef):
        return False
    attributes = _attributes_set(statement)

    def held(node: ast.AST) -> bool:
        return isinstance(node, ast.Attribute) and node.attr in attributes

    nodes = [n for member in cls.body if member is not besides for n in ast.walk(member)]
    for node in nodes:
        if not isinstance(node, ast.Call):
            continue
        func, arguments = node.func, _arguments(node)
        first = node.args[0] if node.args else None
        if module.qualified(func) in names.CLEANUP_FUNCTIONS and first is not None and held(first):
            return True
        if isinstance(func, ast.Attribute) and func.attr in ("unlink", "rmdir", "cleanup") and held(func.value):
            return True
        if any(module.qualified(a) in names.CLEANUP_FUNCTIONS for a in arguments) and any(held(a) for a in arguments):
            return True
    return False


def _creation_may_stay(module: ModuleIndex, call: ast.Call) -> bool:
    """Whether no statement of the scope surely removes, moves or returns the temp."""
    how, statement, temp = _held(module, call)
    if how == "self":
        return not _class_removes(module, statement, besides=_scope(module, statement))  # type: ignore[arg-type]
    if how != "held":
        return how == "unknown"
    assert temp is not None
    if temp.factory == "TemporaryDirectory" and not temp.paths:
        return False  # its finalizer removes it: XDV203 leaves these out
    return not temp.surely_released(module)


def _deletes_never(call: ast.Call) -> bool:
    positional = call.args[7] if len(call.args) > 7 else None
    values = [k.value for k in call.keywords if k.arg == "delete"] + ([positional] if positional is not None else [])
    return any(isinstance(v, ast.Constant) and v.value is False for v in values)


def _handle(targets: Sequence[ast.expr], factory: str, indexed: bool) -> Optional[str]:
    """The one name the temp's path (or object) is bound to, as the lifetime analysis
    reads the target; None when it holds none (``fd, self.path = mkstemp()``)."""
    if len(targets) != 1:
        return None
    target = targets[0]
    if factory == "mkstemp" and not indexed:
        if not isinstance(target, (ast.Tuple, ast.List)) or len(target.elts) < 2:
            return None
        target = target.elts[1]
    return target.id if isinstance(target, ast.Name) else None


def _scope(module: ModuleIndex, statement: ast.AST) -> Optional[ast.AST]:
    scope = module.parents.get(statement)
    while scope is not None and not isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)):
        scope = module.parents.get(scope)
    return scope


def _returned(scope: ast.AST, handle: str) -> bool:
    """Whether the function returns a value naming ``handle``: a helper handing its temp
    to the caller, whose call the scan cannot follow."""
    return any(
        isinstance(node, ast.Return) and node.value is not None and _mentions(node.value, {handle})
        for node in ast.walk(scope)
    )


def _used_elsewhere(module: ModuleIndex, scope: ast.AST) -> bool:
    """Whether the file names the function anywhere but in its own ``def``: a call
    there (or through an alias) is a creation of its own for the analysis."""
    if not isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return True
    return any(
        isinstance(node, ast.Name) and node.id == scope.name or isinstance(node, ast.Attribute) and node.attr == scope.name
        for node in module.nodes
    )


class _Temp:
    """One held temp: its factory, and the names that hold its path or its object."""

    def __init__(self, factory: str, handle: str, scope: ast.AST) -> None:
        self.factory = factory
        is_object = factory in ("NamedTemporaryFile", "TemporaryDirectory")
        self.paths: Set[str] = set() if is_object else {handle}
        self.objects: Set[str] = {handle} if is_object else set()
        self.scope = scope
        # ``name = f.name``, ``p = tmp``: more names for the same path (two rounds).
        plain = [n for n in ast.walk(scope) if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name)]
        for _ in range(2):
            for node in plain:
                value = node.value
                if isinstance(value, ast.Name) and value.id in self.paths or (
                    isinstance(value, ast.Attribute) and value.attr == "name" and isinstance(value.value, ast.Name) and value.value.id in self.objects
                ):
                    self.paths.add(node.targets[0].id)  # type: ignore[attr-defined]
        # Every name bound from a value that mentions one of those (``paths = [tmp]``,
        # ``job = Job(tmp)``, ``cmd = "rm " + tmp``): the analysis may hold the temp in any.
        self.loose: Set[str] = set(self.names)
        binders = [n for n in ast.walk(scope) if isinstance(n, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.NamedExpr, ast.For, ast.AsyncFor))]
        changed = True
        while changed:
            changed = False
            for binder in binders:
                bound = binder.iter if isinstance(binder, (ast.For, ast.AsyncFor)) else binder.value
                if bound is None or not _mentions(bound, self.loose):
                    continue
                targets = binder.targets if isinstance(binder, ast.Assign) else [binder.target]
                for target in targets:
                    for inner in ast.walk(target):
                        if isinstance(inner, ast.Name) and inner.id not in self.loose:
                            self.loose.add(inner.id)
                            changed = True

    @property
    def names(self) -> Set[str]:
        return self.paths | self.objects

    def surely_released(self, module: ModuleIndex) -> bool:
        """Whether a statement of the scope itself, outside its ``except`` clauses, surely
        removes, moves or returns the temp, as the lifetime analysis reads it:
        ``os.unlink(p)``, a registration, ``os.rename(p, dst)``, ``p.rename(dst)`` (to a
        destination that does not name it), ``return p``."""
        stack = list(ast.iter_child_nodes(self.scope))
        while stack:
            node = stack.pop()
            if isinstance(node, (*_NESTED, ast.ExceptHandler)):
                continue  # a handler's removal is an error path's: XDV203 asks of the normal ones
            stack.extend(ast.iter_child_nodes(node))
            if isinstance(node, ast.Return) and node.value is not None:
                values = node.value.elts if isinstance(node.value, (ast.Tuple, ast.List)) else [node.value]
                if any(isinstance(v, ast.Name) and v.id in self.names for v in values):
                    return True
            elif isinstance(node, ast.Call):
                if _removes(module, node, self):
                    return True
                # A move releases it unless its destination may be beside it (``os.rename(p,
                # p + ".gz")`` keeps a temp in the temp directory): one naming the temp may.
                first = node.args[0] if node.args else None
                if module.qualified(node.func) in names.CONSUMING_MOVES and isinstance(first, ast.Name) and first.id in self.paths:
                    if not any(_mentions(a, self.names) for a in (*node.args[1:], *(k.value for k in node.keywords))):
                        return True
                func = node.func
                if isinstance(func, ast.Attribute) and func.attr in ("rename", "replace") and len(node.args) == 1 and not node.keywords:
                    if isinstance(func.value, ast.Name) and func.value.id in self.paths and not _mentions(node.args[0], self.names):
                        return True
        return False

    def may_be_handed_off(self, module: ModuleIndex) -> bool:
        """Whether any statement of the scope could remove, move, store, return or
        otherwise hand on the temp: a name of it in a call, a ``return``/``yield``,
        a ``with`` item, an assignment to something other than names, or a nested
        function (a closure may remove it). Without one the analysis flags nothing."""
        held = self.loose
        for node in ast.walk(self.scope):
            if isinstance(node, ast.Name) and node.id in held and isinstance(node.ctx, ast.Load) and _may_hand_off(module, node, self.scope):
                return True
        return False


_HANDING = (ast.Call, ast.Return, ast.Yield, ast.YieldFrom, ast.withitem, ast.Await)
_NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def _may_hand_off(module: ModuleIndex, name: ast.expr, scope: ast.AST) -> bool:
    """Whether this use of a temp's name is where a removal or hand-off could be."""
    statement: Optional[ast.AST] = None
    current: ast.AST = name
    while current is not scope:
        parent = module.parents.get(current)
        if parent is scope:
            break
        if parent is None or isinstance(parent, _NESTED):
            return True  # in a closure, which may remove it
        if statement is None:
            if isinstance(parent, _HANDING):
                return True
            if isinstance(parent, ast.stmt):
                statement = parent
                if isinstance(parent, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
                    targets = parent.targets if isinstance(parent, ast.Assign) else [parent.target]
                    if not all(_is_names(t) for t in targets):
                        return True  # ``self.tmp = tmp``
        current = parent
    return False


def _covered(module: ModuleIndex, statement: ast.stmt, temp: _Temp) -> bool:
    """Whether the statements after the creation, in its block, reach one that removes,
    stores or hands off the temp before any that may raise while it exists."""
    block, index = module.siblings.get(statement, (None, 0))
    if block is None:
        return False
    # ``with NamedTemporaryFile(delete=False) as f:``: its body runs first, with the temp made.
    body = statement.body if isinstance(statement, (ast.With, ast.AsyncWith)) else []
    waiting = temp.factory == "mktemp"  # only a name: the first statement using it creates the file
    for following in [*body, *block[index + 1:]]:
        if following.lineno == statement.end_lineno and following not in body:
            return False  # ``p = mkdtemp(); f(p)``: one statement line to libcst
        if _covers(module, following, temp):
            return True
        if waiting and isinstance(following, _SIMPLE):
            waiting = not _mentions(following, temp.names)
            continue
        if not _cannot_raise(module, following):
            return False
    return False


def _covers(module: ModuleIndex, statement: ast.stmt, temp: _Temp) -> bool:
    if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
        call = statement.value
        if _holds_call(call):
            return False  # a call in the arguments might be a move, done only once it returns
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr in names.STORE_METHODS and _away(module, func.value, temp.scope) and any(isinstance(a, ast.Name) and a.id in temp.names for a in _arguments(call)):
            return True  # ``registry.append(path)``: the registry's owner has it now
        if temp.factory == "TemporaryDirectory" and isinstance(func, ast.Attribute) and func.attr in _CONTEXT_TAKERS:
            if any(isinstance(a, ast.Name) and a.id in temp.objects for a in _arguments(call)):
                return True  # ``self.enterContext(d)``: given away, with its cleanup
        return _removes(module, call, temp)
    if isinstance(statement, (ast.Assign, ast.AnnAssign)) and isinstance(statement.value, ast.Name) and statement.value.id in temp.names:
        targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
        # ``registry[key] = tmp``, ``holder.path = tmp`` into what outlives the call.
        return any(not _is_names(t) and _away(module, t, temp.scope) for t in targets)
    if isinstance(statement, ast.Try) and statement.finalbody:
        return _starts_removing(module, statement.finalbody, temp)
    return False


_CONTEXT_TAKERS = frozenset({"enter_context", "enter_async_context", "enterContext", "enterClassContext", "push", "push_async_exit"})


def _away(module: ModuleIndex, receiver: ast.AST, scope: ast.AST) -> bool:
    """Whether a store into ``receiver`` surely puts the temp where it outlives the
    call, as the analysis reads it: a container named by a parameter or a module
    global, never bound in the function (not ``self``'s, whose class must remove it;
    not one the function made, which only holds it; not an import, which may be the
    standard library's own state, like ``sys.path``)."""
    while isinstance(receiver, (ast.Attribute, ast.Subscript)):
        receiver = receiver.value
    if not isinstance(receiver, ast.Name) or not isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    name = receiver.id
    params = scope.args.posonlyargs + scope.args.args
    if name in ("self", "cls") or params and params[0].arg == name or name in module.imports:
        return False
    for node in ast.walk(scope):
        if isinstance(node, ast.Name) and node.id == name and not isinstance(node.ctx, ast.Load):
            return False  # bound in the function: its own container
        if isinstance(node, (ast.Global, ast.Nonlocal)) and name in node.names:
            return False
    for node in module.nodes:
        if isinstance(node, ast.Assign) and isinstance(node.value, (ast.Name, ast.Attribute)):
            if any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
                return False  # ``registry = sys.path``: maybe the standard library's
    return True


def _starts_removing(module: ModuleIndex, statements: List[ast.stmt], temp: _Temp) -> bool:
    """Whether the first of ``statements`` that may raise removes the temp whatever
    happens next: ``os.unlink(p)``; ``try: os.unlink(p)`` with any handlers;
    ``if os.path.exists(p): os.unlink(p)`` (the analysis takes the test's other branch
    as removed too)."""
    first = next((s for s in statements if not _cannot_raise(module, s)), None)
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Call):
        return not _holds_call(first.value) and _removes(module, first.value, temp)
    if isinstance(first, ast.Try):
        return _starts_removing(module, first.body, temp)
    if isinstance(first, ast.If) and len(first.body) == 1 and not first.orelse:
        test = first.test
        return _mentions(test, temp.names) and _cannot_raise(module, ast.Expr(test)) and _starts_removing(module, first.body, temp)
    return False


def _removes(module: ModuleIndex, call: ast.Call, temp: _Temp) -> bool:
    """``os.unlink(p)``, ``p.unlink()``, ``d.cleanup()``, or registering the removal:
    ``self.addCleanup(os.unlink, p)``, ``atexit.register(shutil.rmtree, d)``."""
    func = call.func
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        if func.attr == "cleanup" and temp.factory == "TemporaryDirectory" and func.value.id in temp.objects:
            return True
        if func.attr in _REMOVING_METHODS and func.value.id in temp.paths:
            return True
    first = call.args[0] if call.args else None
    if module.qualified(func) in names.CLEANUP_FUNCTIONS and isinstance(first, ast.Name) and first.id in temp.paths:
        return True
    arguments = _arguments(call)
    if temp.factory == "TemporaryDirectory" and any(
        isinstance(a, ast.Attribute) and a.attr == "cleanup" and isinstance(a.value, ast.Name) and a.value.id in temp.objects
        for a in arguments
    ):
        return True
    return any(module.qualified(a) in names.CLEANUP_FUNCTIONS for a in arguments) and any(
        isinstance(a, ast.Name) and a.id in temp.paths for a in arguments
    )


def _cannot_raise(module: ModuleIndex, statement: ast.stmt) -> bool:
    """``pass``, ``os.close(fd)``, ``p = os.path.realpath(p)``, ``self.x = y``:
    statements the lifetime analysis takes as not raising (no calls but to
    ``NON_RAISING_CALLS``; no ``await``, ``yield`` or lambda)."""
    if isinstance(statement, ast.Pass):
        return True
    if not isinstance(statement, (ast.Expr, ast.Assign)):
        return False
    nodes = list(ast.walk(statement))
    return not any(isinstance(n, _RAISING) for n in nodes) and all(
        module.qualified(n.func) in names.NON_RAISING_CALLS for n in nodes if isinstance(n, ast.Call)
    )


_RAISING = (ast.Await, ast.Yield, ast.YieldFrom, ast.Lambda, ast.NamedExpr)


def _arguments(call: ast.Call) -> List[ast.expr]:
    """Positional and keyword values, with tuples and lists opened (``args=(rmtree, d)``)."""
    found: List[ast.expr] = []
    for value in [*call.args, *(k.value for k in call.keywords)]:
        found.extend(value.elts) if isinstance(value, (ast.Tuple, ast.List)) else found.append(value)
    return found


def _holds_call(node: ast.AST) -> bool:
    return any(isinstance(n, (ast.Call, ast.Lambda, ast.Await, ast.Yield, ast.YieldFrom)) for n in ast.walk(node) if n is not node)


def _mentions(node: ast.AST, held: Set[str]) -> bool:
    return any(isinstance(n, ast.Name) and n.id in held for n in ast.walk(node))


def _is_names(target: ast.AST) -> bool:
    if isinstance(target, (ast.Tuple, ast.List)):
        return all(_is_names(e) for e in target.elts)
    return isinstance(target, (ast.Name, ast.Starred))


def _terminal(node: ast.AST) -> Optional[str]:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None
