"""The parts of a kept file the rules can concern, so libcst parses only those.

A file the cheap scan keeps is often a large test module whose temps and moves sit in
a few of its methods; libcst's parse and the analysis cost grow with the whole file
(its parse alone is 40 % of a kept file's cost, and sets the run's peak memory). So the
top-level functions, and the methods of top-level classes, that can neither hold a
finding nor shape one are blanked out, line for line: every kept line keeps its number
and columns, so the findings' positions are the whole file's.

The module's own statements, and each kept class's header and non-method statements,
are always kept. A function or method is kept when

- it can hold a finding (it is *relevant*): it holds a call the scan says may move,
  copy or link (``Scan.move_nodes``, aliases included), names a temp factory (any
  identifier containing ``mkstemp``, ``NamedTemporaryFile``, …), a module-level name
  bound from one (``TMP = mkdtemp()``, ``mk = mkdtemp``), or a relevant function,
  method or class (a helper that moves or returns a temp); or it says ``global`` (it
  may rebind what other code reads);
- a kept part names it: what it returns, removes or raises is part of their analysis
  (a module-level import or assignment to names that is not relevant itself names
  nothing until a kept part reads a name it binds: ``upload = api.upload``);
- it stores an attribute a kept part reads (``self.path = ...`` in ``setUp``), or names
  one a relevant part stores (``rmtree(self.tmp)`` in ``tearDown``): a temp held by an
  object is released by any method of its class family;
- it is a dunder or a ``setUp``/``tearDown`` method of a kept class, which no code names
  but Python or ``unittest`` calls.

Only the check uses a focus; a fix edits the whole file (its imports, its other uses of
a name), so ``--fix`` and the fixes' textual edits are computed on the file as written.
``bench/focus_audit.py`` checks on real code that the focus never changes a finding.
"""

from __future__ import annotations

import ast
import copy
from typing import Dict, List, Optional, Set, Tuple

from xdevlint.analysis import names
from xdevlint.stages.scan_lifetime import ModuleIndex
from xdevlint.stages.source import lines_of

#: Parts of identifiers that name a temp factory (lower case), as the scan's words do:
#: ``tempfile``'s, ``urlretrieve``, and ``gettempdir`` (a unique name joined to it).
FACTORY_WORDS: Tuple[str, ...] = tuple(sorted(
    {q.rsplit(".", 1)[1].lower() for q in (*names.TEMP_FACTORIES, *names.DOWNLOAD_TEMPS)} | {"gettempdir"}
))

#: Below this share of the file's lines dropped, parsing the whole file costs less
#: than building and checking the focus is worth.
MINIMUM_DROPPED = 0.2

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_UNITS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
#: Methods that run though no code names them.
_IMPLICIT_PREFIXES = ("setUp", "tearDown", "asyncSetUp", "asyncTearDown")


class Focus:
    """The file as the rules should see it: ``text`` with the dropped lines blank, and
    ``tree`` its stdlib AST (the kept statements of the original tree)."""

    def __init__(self, text: str, tree: ast.Module, dropped: int) -> None:
        self.text = text
        self.tree = tree
        self.dropped = dropped


class _Part:
    """A top-level statement, a class's header (its bases and decorators) or one of its
    statements, or a function or method: its lines and the names it uses, binds and (as
    attributes) stores. A function binds only its own name: its locals are nobody
    else's; a class header only the class's."""

    def __init__(self, statement: ast.stmt, owner: Optional["_Part"] = None) -> None:
        self.name = statement.name if isinstance(statement, _UNITS) else ""
        self.owner = owner  # a method's or class statement's class header
        self.members: List[_Part] = []  # a class header's methods
        self.statements: List[_Part] = []  # a class header's other statements
        decorators = getattr(statement, "decorator_list", [])
        self.start = min([statement.lineno, *(d.lineno for d in decorators)])
        self.end = statement.end_lineno or statement.lineno
        self.exported = not isinstance(statement, _UNITS)
        #: An import, or an assignment to names only: it acts on nothing but what it binds.
        self.binding_only = isinstance(statement, (ast.Import, ast.ImportFrom)) or (
            isinstance(statement, (ast.Assign, ast.AnnAssign))
            and all(_names_only(t) for t in (statement.targets if isinstance(statement, ast.Assign) else [statement.target]))
        )
        self.uses: Set[str] = set()
        self.inherited: Set[str] = set()  # ``super().name``: a base's method, not one named so here
        self.binds: Set[str] = {self.name} if self.name else set()
        self.stores: Set[str] = set()
        self.assignments: List[ast.AST] = []
        self.triggered = False

    def read(self, node: ast.AST) -> None:
        """Take in one node of this part (each node is read once, by its part)."""
        kind = type(node)
        if kind is ast.Name:
            self.uses.add(node.id)  # type: ignore[attr-defined]
            if self.exported and type(node.ctx) is ast.Store:  # type: ignore[attr-defined]
                self.binds.add(node.id)  # type: ignore[attr-defined]
        elif kind is ast.Attribute:
            attribute: ast.Attribute = node  # type: ignore[assignment]
            if _on_super(attribute):
                self.inherited.add(attribute.attr)
                return
            self.uses.add(attribute.attr)
            if type(attribute.ctx) is not ast.Load:
                self.stores.add(attribute.attr)
                if self.exported:  # ``mv = os.rename`` at class level, read as ``self.mv``
                    self.binds.add(attribute.attr)
        elif kind is ast.alias:
            alias: ast.alias = node  # type: ignore[assignment]
            self.uses.add(alias.name.rsplit(".", 1)[-1])
            if alias.asname:
                self.uses.add(alias.asname)
            if self.exported:
                self.binds.add((alias.asname or alias.name).split(".", 1)[0])
        elif kind in _UNITS:
            self.uses.add(node.name)  # type: ignore[attr-defined]
            if self.exported:
                self.binds.add(node.name)  # type: ignore[attr-defined]
        elif kind is ast.Global:
            self.triggered = True
        elif kind in _ASSIGNMENTS:
            self.assignments.append(node)

    def close(self, moves: bool) -> None:
        """``moves``: whether one of this part's nodes may move."""
        self.triggered = self.triggered or moves or any(word in used.lower() for used in self.uses for word in FACTORY_WORDS)

    def held(self, words: Set[str]) -> Set[str]:
        """The attributes this part stores something relevant in (``self.tmp =
        mkdtemp()``, ``self.d = d`` after ``d = make_temp()``): what a method that
        names one may release."""
        hot = set(words)
        found: Set[str] = set()
        for _ in range(2):  # a local bound from a local bound from a factory
            for node in self.assignments:
                targets, value = _targets_and_value(node)
                if value is None or not _is_hot(value, hot):
                    continue
                for target in targets:
                    for leaf in ast.walk(target):
                        if isinstance(leaf, ast.Name):
                            hot.add(leaf.id)
                        elif isinstance(leaf, ast.Attribute) and isinstance(leaf.ctx, ast.Store):
                            found.add(leaf.attr)
        return found

    @property
    def implicit(self) -> bool:
        return self.owner is not None and (
            self.name.startswith("__") and self.name.endswith("__") or self.name.startswith(_IMPLICIT_PREFIXES)
        )


def focus(text: str, index: ModuleIndex, moves: Set[int], minimum: float = MINIMUM_DROPPED) -> Optional[Focus]:
    """The focus of the file ``text`` (whose AST ``index`` holds), or None when it would
    drop less than ``minimum`` of the lines. ``moves``: the ids of the nodes that may
    move (``Scan.move_nodes``)."""
    tree = index.nodes[0]
    if not isinstance(tree, ast.Module):
        return None
    always: List[_Part] = []  # module-level statements; a kept class's other statements
    droppable: Dict[int, _Part] = {}  # by the id of their node: functions, classes, methods
    roots: Dict[int, _Part] = {}
    for statement in tree.body:
        if isinstance(statement, _FUNCTIONS):
            roots[id(statement)] = droppable[id(statement)] = _Part(statement)
        elif isinstance(statement, ast.ClassDef) and statement.body[0].lineno > statement.lineno:
            header = roots[id(statement)] = droppable[id(statement)] = _Part(statement)
            for member in statement.body:
                if isinstance(member, _FUNCTIONS):
                    part = roots[id(member)] = droppable[id(member)] = _Part(member, header)
                    header.members.append(part)
                else:
                    part = roots[id(member)] = _Part(member, header)
                    header.statements.append(part)
        else:
            part = roots[id(statement)] = _Part(statement)
            always.append(part)
    if not droppable:
        return None
    # One pass over the nodes, in the index's order (parents first): each node is read
    # by the part of its nearest root.
    part_of: Dict[int, _Part] = {}
    moving: Set[_Part] = set()
    parents = index.parents
    for node in index.nodes[1:]:
        key = id(node)
        found = roots.get(key) or part_of.get(id(parents[node]))
        if found is None:
            continue  # the module's type ignores
        part = part_of[key] = found
        part.read(node)
        if key in moves:
            moving.add(part)
    for part in roots.values():
        part.close(part in moving)
    kept = _kept(always, list(droppable.values()))
    lines = lines_of(text)
    # A dropped class's methods go with it.
    dropped = [p for p in droppable.values() if p not in kept and (p.owner is None or p.owner in kept)]
    dropped_lines = sum(part.end - part.start + 1 for part in dropped)
    if not dropped_lines or dropped_lines < minimum * max(len(lines), 1):
        return None
    for part in dropped:
        for number in range(part.start - 1, min(part.end, len(lines))):
            lines[number] = _ending(lines[number])
    return Focus("".join(lines), _tree(tree, droppable, kept), dropped_lines)


def _kept(always: List[_Part], droppable: List[_Part]) -> Set[_Part]:
    """What to keep, to a fixed point (see the module's docstring)."""
    parts = [*always, *droppable, *(s for part in droppable for s in part.statements)]
    words: Set[str] = set()
    relevant: Set[_Part] = set()
    changed = True
    while changed:
        changed = False
        for part in parts:
            if part not in relevant and (part.triggered or part.uses & words):
                relevant.add(part)
                words |= part.binds
                changed = True
    by_name: Dict[str, List[_Part]] = {}
    for part in droppable:
        by_name.setdefault(part.name, []).append(part)
    hot_stores = {attribute for part in relevant for attribute in part.held(words)}
    kept: Set[_Part] = set()
    reads: Set[str] = set()
    # A module-level statement that only binds names and is not relevant is kept, but
    # what it names matters only once a kept part reads a name it binds: a hundred
    # ``upload_file = api.upload_file`` at the end of a client module would otherwise keep
    # every method. Any other statement may act on what kept parts read: followed at once.
    dormant = [part for part in always if part.binding_only and part not in relevant]
    pending: List[_Part] = [*(part for part in always if part not in dormant), *relevant]
    while pending:
        while pending:
            part = pending.pop()
            if part in kept:
                continue
            kept.add(part)
            if part.owner is not None:
                pending.append(part.owner)
            pending.extend(part.statements)
            pending.extend(member for member in part.members if member.implicit)
            reads |= part.uses
            for name in (*part.uses, *part.inherited):
                pending.extend(by_name.get(name, ()))
        for part in droppable:  # an attribute a kept part reads, or a relevant one stores
            if part not in kept and part.owner is not None and (part.stores & reads or part.uses & hot_stores):
                pending.append(part)
        woken = [part for part in dormant if part.binds & reads]
        if woken:
            dormant = [part for part in dormant if part not in woken]
            pending.extend(woken)
        for part in droppable:  # a class of methods only keeps one: its body cannot be empty
            if part in kept and part.members and not part.statements and not any(m in kept for m in part.members):
                pending.append(part.members[0])
    return kept | set(always)


_ASSIGNMENTS = (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.NamedExpr, ast.withitem, ast.For, ast.AsyncFor)


def _targets_and_value(node: ast.AST) -> Tuple[List[ast.expr], Optional[ast.expr]]:
    if isinstance(node, ast.Assign):
        return node.targets, node.value
    if isinstance(node, (ast.AnnAssign, ast.AugAssign, ast.NamedExpr)):
        return [node.target], node.value
    if isinstance(node, ast.withitem):
        return ([node.optional_vars] if node.optional_vars is not None else []), node.context_expr
    assert isinstance(node, (ast.For, ast.AsyncFor))
    return [node.target], node.iter


def _is_hot(value: ast.expr, hot: Set[str]) -> bool:
    for node in ast.walk(value):
        identifier = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None
        if identifier is not None and (identifier in hot or any(w in identifier.lower() for w in FACTORY_WORDS)):
            return True
    return False


def _names_only(target: ast.expr) -> bool:
    """Whether an assignment target binds names and stores nowhere else (``a``, ``a, b``)."""
    if isinstance(target, (ast.Tuple, ast.List)):
        return all(_names_only(element) for element in target.elts)
    return isinstance(target, ast.Name)


def _on_super(node: ast.Attribute) -> bool:
    call = node.value
    return isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "super"


def _tree(tree: ast.Module, droppable: Dict[int, _Part], kept: Set[_Part]) -> ast.Module:
    """``tree`` without the dropped statements, as libcst will see the focused text."""
    body: List[ast.stmt] = []
    for statement in tree.body:
        part = droppable.get(id(statement))
        if part is not None and part not in kept:
            continue
        if isinstance(statement, ast.ClassDef) and part is not None:
            members = [s for s in statement.body if id(s) not in droppable or droppable[id(s)] in kept]
            if len(members) != len(statement.body):
                statement = copy.copy(statement)
                statement.body = members
        body.append(statement)
    return ast.Module(body=body, type_ignores=tree.type_ignores)


def _ending(line: str) -> str:
    if line.endswith("\r\n"):
        return "\r\n"
    if line.endswith(("\n", "\r")):
        return line[-1]
    return ""
