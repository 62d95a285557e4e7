"""The parts of a kept file the rules can concern, so libcst parses only those.

A file the cheap scan keeps is often a large test module whose temps and moves sit in
a few of its methods; libcst's parse and the analysis cost grow with the whole file
(its parse alone is 40 % of a kept file's cost, and sets the run's peak memory). So the
top-level functions, and the methods of top-level classes, that can neither hold a
finding nor shape one are cut out, whole lines at a time: every kept line keeps its
columns, and ``Focus.lines`` gives its number in the file, so the findings' positions
are the whole file's. (Blank lines in their place would keep the numbers, but libcst
pays for every line: a 10 MB generated module of which one function matters would
still parse 800,000 of them.)

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
  one a relevant part stores (``rmtree(self.tmp)`` in ``tearDown``), or one a method a
  relevant part calls on a base (``super().__init__(d)``, or ``Base.__init__(self, d)``
  naming both) stores from its parameters (``self._dir = d``): a temp held by an object is
  released by any method of its class family;
- it is a dunder or a ``setUp``/``tearDown`` method of a kept class, which no code names
  but Python or ``unittest`` calls.

A fix's textual edits (JSON, SARIF, the server) are computed on the focus too, and are
the whole file's: the dropped parts bind at module level only their own names
(``Focus.bound``: a fix's new import must not clash with one) and read names
(``Focus.named``: an import a fix stops using may still be theirs); an edit whose span
would straddle a cut raises ``Unfocused``, and the file is analysed whole. ``--fix``
rewrites the tree it analysed, so it always analyses the whole file.
``bench/focus_audit.py`` checks on real code that the focus never changes a finding.
"""

from __future__ import annotations

import ast
import bisect
import copy
import re
import unicodedata
from dataclasses import dataclass, replace
from typing import Callable, Dict, FrozenSet, List, Optional, Set, Tuple

from xdevlint.analysis import names
from xdevlint.model import Finding, Span
from xdevlint.stages.scan import MOVE_WORDS, Scan
from xdevlint.stages.scan_lifetime import ModuleIndex
from xdevlint.stages.sections import Statement, statements
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


class Unfocused(Exception):
    """A fix's edit spans lines the focus cut out: the file must be analysed whole."""


class Lines:
    """Which lines of a file a text cut from it keeps: ``numbers[n - 1]`` is the file's
    number of the text's line ``n``; ``total`` the file's count of lines."""

    def __init__(self, numbers: List[int], total: int) -> None:
        self.numbers = numbers
        self.total = total

    def line(self, number: int) -> int:
        """The file's number of the text's line ``number`` (past the end: the file's end)."""
        if number <= len(self.numbers):
            return self.numbers[number - 1]
        return self.total + number - len(self.numbers)

    def span(self, span: Span, edit: bool = False) -> Span:
        """``span``, a range in the text, in the file's lines. An ``edit``'s span must not
        hold a cut: its text would replace the dropped lines too (``Unfocused``)."""
        start, end = self.line(span.line), self.line(span.end_line)
        if edit and end - start != span.end_line - span.line:
            raise Unfocused(f"an edit over lines {start}-{end} spans dropped lines")
        return Span(start, span.column, end, span.end_column)

    def finding(self, finding: Finding) -> Finding:
        """``finding`` of the text, with its span and its fix's edits in the file's lines."""
        fix = finding.fix
        if fix is not None and (fix.edits or fix.header):
            fix = replace(
                fix,
                edits=tuple(replace(e, span=self.span(e.span, edit=True)) for e in fix.edits),
                header=tuple(replace(e, span=self.span(e.span, edit=True)) for e in fix.header),
            )
        related = tuple(replace(r, span=self.span(r.span)) for r in finding.related)
        return replace(finding, span=self.span(finding.span), fix=fix, related=related)


def _reads_nothing(name: str) -> bool:
    return False


@dataclass(frozen=True)
class Hidden:
    """What the parts of a file the analysis does not see do at module level: the names
    they bind (a fix's new import must not clash with one), and whether they read a name
    (an import a fix stops using may still be theirs). They bind nothing else there:
    what says ``global`` is always kept."""

    bound: FrozenSet[str] = frozenset()
    reads: Callable[[str], bool] = _reads_nothing

    def __or__(self, other: "Hidden") -> "Hidden":
        return Hidden(self.bound | other.bound, lambda name: self.reads(name) or other.reads(name))


NOTHING_HIDDEN = Hidden()


class Focus:
    """The file as the rules should see it: ``text`` without the dropped lines (``lines``
    maps them back), ``tree`` the kept statements of the file's own stdlib AST (their line
    numbers are the file's), and what the dropped parts do (``hidden``)."""

    def __init__(self, text: str, tree: ast.Module, dropped: int, lines: Lines, hidden: Hidden) -> None:
        self.text = text
        self.tree = tree
        self.dropped = dropped
        self.lines = lines
        self.hidden = hidden


class _Part:
    """A top-level statement, a class's header (its bases and decorators) or one of its
    statements, or a function or method: its lines and the names it uses, binds and (as
    attributes) stores. A function binds only its own name: its locals are nobody
    else's; a class header only the class's."""

    __slots__ = (
        "name", "owner", "members", "statements", "start", "end", "exported", "binding_only", "uses", "named",
        "inherited", "binds", "stores", "bindings", "triggered", "params",
    )

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
        self.named: Set[str] = set()  # the plain names it reads (no attributes)
        self.inherited: Set[str] = set()  # ``super().name``: a base's method, not one named so here
        self.binds: Set[str] = {self.name} if self.name else set()
        self.stores: Set[str] = set()
        self.bindings: List[ast.AST] = []  # assignments, `for` targets, and stores into containers
        self.triggered = False
        arguments = statement.args if isinstance(statement, _FUNCTIONS) else None
        self.params: Set[str] = {a.arg for a in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs)} if arguments else set()

    def read(self, node: ast.AST) -> None:
        """Take in one node of this part (each node is read once, by its part)."""
        kind = type(node)
        if kind is ast.Name:
            self.uses.add(node.id)  # type: ignore[attr-defined]
            if type(node.ctx) is ast.Load:  # type: ignore[attr-defined]
                self.named.add(node.id)  # type: ignore[attr-defined]
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
            self.bindings.append(node)
        elif kind is ast.Call:
            func = node.func  # type: ignore[attr-defined]
            if type(func) is ast.Attribute and func.attr in names.STORE_METHODS:
                self.bindings.append(node)  # ``self.files.append(tmp)``: a store into an attribute

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
            for node in self.bindings:
                if isinstance(node, ast.Call):
                    if any(_is_hot(arg, hot) for arg in node.args):
                        found.update(_item_holder(node.func.value))  # type: ignore[attr-defined]
                    continue
                targets, value = _targets_and_value(node)
                hot_value = value is not None and _is_hot(value, hot)
                for target in targets:
                    # ``self.files[k] = tmp``, ``self.pending[tmp] = None``: the attribute's item holds it.
                    if isinstance(target, ast.Subscript) and (hot_value or _is_hot(target.slice, hot)):
                        found.update(_item_holder(target))
                    if not hot_value:
                        continue
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


class _TextPart(_Part):
    """A top-level function ``prefocus`` has not parsed: every identifier in its text
    (more than its AST would say it uses), and whether that text may hold a move, a temp
    factory or a ``global``. It binds only its name, as every function does."""

    __slots__ = ()

    def __init__(self, name: str, uses: Set[str]) -> None:  # no AST to read: ``_Part``'s fields, set here
        self.name, self.owner, self.start, self.end = name, None, 0, 0
        self.members = self.statements = _NO_PARTS
        self.exported = self.binding_only = self.triggered = False
        self.uses, self.binds = uses, {name}
        self.named = self.inherited = self.stores = _NO_NAMES
        self.bindings = _NO_NODES


#: Shared by every ``_TextPart``, which never adds to them.
_NO_PARTS: List[_Part] = []
_NO_NAMES: Set[str] = set()
_NO_NODES: List[ast.AST] = []


def focus(text: str, index: ModuleIndex, moves: Set[int], minimum: float = MINIMUM_DROPPED) -> Optional[Focus]:
    """The focus of the file ``text`` (whose AST ``index`` holds), or None when it would
    drop less than ``minimum`` of the lines. ``moves``: the ids of the nodes that may
    move (``Scan.move_nodes``)."""
    tree = index.nodes[0]
    if not isinstance(tree, ast.Module):
        return None
    if not any(isinstance(s, (*_FUNCTIONS, ast.ClassDef)) for s in tree.body):
        return None
    always, droppable = _parts(tree, index, moves)
    if not droppable:
        return None
    kept = _kept(always, list(droppable.values()))
    lines = lines_of(text)
    # A dropped class's methods go with it.
    dropped = [p for p in droppable.values() if p not in kept and (p.owner is None or p.owner in kept)]
    dropped_lines = sum(part.end - part.start + 1 for part in dropped)
    if not dropped_lines or dropped_lines < minimum * max(len(lines), 1):
        return None
    cut = [False] * len(lines)
    for part in dropped:
        end = min(part.end, len(lines))
        # The blank and comment lines after it go too: between statements, they are
        # layout, and a generated module has one for each function it drops.
        while end < len(lines) and (not lines[end].strip() or lines[end].lstrip().startswith("#")):
            end += 1
        cut[part.start - 1 : end] = [True] * (end - part.start + 1)
    numbers = [number for number, gone in enumerate(cut, 1) if not gone]
    named = frozenset(name for part in dropped for name in part.named)
    hidden = Hidden(frozenset(part.name for part in dropped if part.owner is None), named.__contains__)
    text = "".join(lines[number - 1] for number in numbers)
    return Focus(text, _tree(tree, droppable, kept), dropped_lines, Lines(numbers, len(lines)), hidden)


def _parts(tree: ast.Module, index: ModuleIndex, moves: Set[int]) -> Tuple[List[_Part], Dict[int, _Part]]:
    """The module's parts that are always kept, and those that may be dropped (by the
    id of their node: functions, classes, methods), each having read its nodes."""
    always: List[_Part] = []  # module-level statements; a kept class's other statements
    droppable: Dict[int, _Part] = {}
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
    return always, droppable


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
    # A base's method a relevant part calls (``super().__init__(d)``, ``Base.__init__(self, d)``:
    # the class and the method both named) may keep what it is given on ``self``: its
    # parameters are hot there.
    inherited = {name for part in relevant for name in part.inherited}
    for part in droppable:
        if part.owner is None or not part.params:
            continue
        if part.name in inherited or any(part.name in r.uses and part.owner.name in r.uses for r in relevant):
            hot_stores |= part.held(words | part.params)
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


def _item_holder(target: ast.expr) -> Set[str]:
    """The attribute whose item or element a store reaches (``self.files`` of
    ``self.files[k]`` or of ``self.files.append``), if any."""
    while isinstance(target, ast.Subscript):
        target = target.value
    return {target.attr} if isinstance(target, ast.Attribute) else set()


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


#: What makes a top-level function's text one ``prefocus`` must parse: a move word, a
#: temp factory's, ``global`` (in any case: the AST's tests lower identifiers).
_TRIGGER = re.compile("|".join(sorted({*(w.lower() for w in MOVE_WORDS), *FACTORY_WORDS, "global"}, key=lambda w: (-len(w), w))))
_IDENTIFIER = re.compile(r"[^\W\d]\w*")


class Prefocus:
    """A large file cut down by text alone: ``text`` holds the module's own statements,
    its classes and the top-level functions that may matter, each whole; ``scan`` is its
    scan, ``lines`` maps its lines to the file's, ``hidden`` says what the functions cut
    out do, and ``dropped`` counts them."""

    def __init__(self, text: str, scan: Scan, lines: Lines, hidden: Hidden, dropped: int) -> None:
        self.text = text
        self.scan = scan
        self.lines = lines
        self.hidden = hidden
        self.dropped = dropped


def prefocus(text: str) -> Optional[Prefocus]:
    """``text`` without the top-level functions the focus would drop, found without
    parsing them: the stdlib parser needs about 200 bytes of memory per byte of source,
    so a 10 MB generated module of small functions would take 2 GB before ``focus``
    could drop a line of it.

    A function the text cannot rule out is parsed (a move word, a temp factory's or
    ``global`` in it, or an identifier the parsed code binds to a move function); then
    ``focus``'s own closure runs over the parsed parts and, for each other function,
    every identifier in its text (more than it uses, so the closure keeps at least what
    it would keep of the whole file). Functions it keeps are parsed and the closure runs
    again, until it keeps none of those left unparsed: they are cut out. Classes are
    always kept (their methods share attributes in ways only their AST shows). None when
    the statements cannot be told apart (``stages.sections``) or the cut text does not
    parse: the whole file then speaks for itself.
    """
    found = statements(text)
    if found is None:
        return None
    offsets = [statement.offset for statement in found]
    functions = [i for i, statement in enumerate(found) if statement.kind == "def"]
    lowered = text.lower()
    if len(lowered) != len(text):  # a character whose lower case is longer: offsets would shift
        lowered, trigger = text, re.compile(_TRIGGER.pattern, re.I)
    else:
        trigger = _TRIGGER
    parsed = {bisect.bisect_right(offsets, m.start()) - 1 for m in trigger.finditer(lowered)}
    del lowered
    normal = text.isascii()  # the parser's identifiers are NFKC-normalised
    waiting: Dict[int, _TextPart] = {}
    for i in functions:
        if i not in parsed:
            end = offsets[i + 1] if i + 1 < len(offsets) else len(text)
            spelt = _IDENTIFIER.findall(text, offsets[i], end)
            waiting[i] = _TextPart(found[i].name, set(spelt) if normal else {unicodedata.normalize("NFKC", w) for w in spelt})
    while True:
        kept = [i for i in range(len(found)) if i not in waiting]
        cut, lines = _cut(text, found, kept)
        scan = Scan(cut)
        index = scan.index
        if index is None or not isinstance(index.nodes[0], ast.Module):
            return None
        always, droppable = _parts(index.nodes[0], index, scan.move_nodes())
        words = scan.move_words()
        for part in waiting.values():
            part.triggered = bool(part.uses & words)
        keeping = _kept(always, [*droppable.values(), *waiting.values()])
        more = [i for i, part in waiting.items() if part in keeping]
        if not more:
            break
        for i in more:
            del waiting[i]
    spans = sorted((offsets[i], offsets[i + 1] if i + 1 < len(offsets) else len(text)) for i in waiting)

    def reads(name: str) -> bool:
        """Whether a function cut out spells ``name`` (more than reading it: a superset)."""
        for match in re.finditer(r"(?<!\w)" + re.escape(name) + r"(?!\w)", text):
            at = bisect.bisect_right(spans, (match.start(), len(text) + 1)) - 1
            if at >= 0 and spans[at][0] <= match.start() < spans[at][1]:
                return True
        return False

    hidden = Hidden(frozenset(part.name for part in waiting.values()), reads)
    return Prefocus(cut, scan, lines, hidden, len(waiting))


def _cut(text: str, found: List[Statement], kept: List[int]) -> Tuple[str, Lines]:
    """``text`` with only the ``kept`` statements (and what comes before the first),
    and where its lines are in ``text``."""
    total = text.count("\n") + (0 if text.endswith("\n") else 1)
    pieces = [text[: found[0].offset]] if found else [text]
    numbers = list(range(1, found[0].line)) if found else list(range(1, total + 1))
    for i in kept:
        last = i + 1 == len(found)
        pieces.append(text[found[i].offset : len(text) if last else found[i + 1].offset])
        numbers.extend(range(found[i].line, total + 1 if last else found[i + 1].line))
    return "".join(pieces), Lines(numbers, total)
