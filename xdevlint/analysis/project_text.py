"""What module texts tell without parsing them: the project index's cheap filter.

The cheap scan's gates ask less than the analysis (``supplied.Supplied``): whether the
names a file uses from its project may be move or temp aliases or locations. They parse
nothing a module's text rules out. Every file asks of move and temp functions, whose
marks are rare (180 of the ecosystem corpus's 6,658 modules), so the names that may bind
one are worked out forwards from the marks, once per module for all its names
(``callee_names``); only files that move ask of locations, whose spellings are common,
and ``may_bind`` follows each name asked back through the module-level text of the
modules it may come from. A module is summarised (``project``) only when one of its names
may be such a binding.
"""

from __future__ import annotations

import hashlib
import re
import time
from bisect import bisect_right
from keyword import iskeyword
from types import MappingProxyType
from typing import (
    TYPE_CHECKING, Callable, Dict, FrozenSet, Iterable, Iterator, KeysView, List, Mapping, Match, NamedTuple, Optional, Pattern,
    Protocol, Sequence, Set, Tuple,
)

from xdevlint.analysis import names
from xdevlint.analysis.locations import Locations, literal_fragment
from xdevlint.analysis.project_files import absolute_module, forget_stamps, layout_changed, number, stamp_of
from xdevlint.model import Dependencies, Stamp

if TYPE_CHECKING:  # the index's ``Project``: where modules are, and what it has read
    from xdevlint.analysis.project import Project


#: The library functions whose aliases the scan's gates look for.
SCANNED_CALLEES = frozenset(names.MOVE_LIKE_FUNCTIONS | names.UNBOUND_MOVE_METHODS.keys() | names.TEMP_FACTORIES.keys())
#: Their last components: a module can bind an alias of one only by spelling it.
_CALLEE_WORDS = "|".join(sorted({re.escape(q.rsplit(".", 1)[1]) for q in SCANNED_CALLEES}, key=lambda w: (-len(w), w)))
#: ``os.replace`` read, not called (``swap = os.replace``): the one expression that makes
#: an alias of a library function (calls, operators and literals give none: ``_Evaluator``).
#: ``from pkg.link import Link`` names a module, not an alias.
_ALIAS_READ = re.compile(rf"\.\s*(?:{_CALLEE_WORDS})\b(?![ \t]*(?:[(.]|import\b))")
_CALLEE_LAST_NAMES = frozenset(q.rsplit(".", 1)[1] for q in SCANNED_CALLEES)
#: What a function's text spells when ``exports`` may find it renaming or returning a temp
#: (``Exported.scanned``): a call, an attribute or an import of a move or temp function's
#: name (not the word in prose: "rename the key"; a ``NamedTemporaryFile``'s ``.name`` is
#: a temp it may return), a rename by ``os``'s name (or an alias holding ``os``), a
#: ``Path`` method's one-argument call (positional or ``target=``: ``.replace(tzinfo=tz)``
#: is not one) or its unbound form (``Path.replace``, ``PosixPath.replace``; a ``path``
#: variable's ``replace`` is a call of one argument or a string's). Broader spellings only
#: cost time; ``str.replace(old, new)`` is what this keeps out.
_HELPER_WORDS = "renames?|hardlink_to|mkstemp|mkdtemp|mktemp|NamedTemporaryFile"


def _call_of(words: str) -> Pattern[str]:
    """The spellings above, of a call of one of ``words`` or of a rename by another name."""
    return re.compile(
        rf"\b(?:{words})\s*\("
        rf"|\.\s*(?:{words})\b"
        rf"|\bimport\b[^\n;]*\b(?:{words})\b"
        r"|os\w*\s*\.\s*(?:replace|link)\b"
        r"|\.\s*replace\s*\((?!\s*(?!target\b)\w+\s*=(?!=))(?:[^,()]|\([^()]*\))*\)"
        r"|Path\s*\.\s*replace\b"
    )


_HELPER_CALL = _call_of(_HELPER_WORDS)
#: The same, of a rename only: what a class's text spells when a method of it may move a
#: path its caller passes (``renaming_methods``).
_RENAME_CALL = _call_of("renames?|hardlink_to")
#: Words one of which a helper's text holds (``_HELPER_CALL`` looks closer): a substring
#: test is many times quicker than the regex, and most functions hold none.
_RENAME_HINTS = ("rename", "replace", "link")
_HELPER_HINTS = (*_RENAME_HINTS, "mkstemp", "mkdtemp", "mktemp", "NamedTemporaryFile")


def _may_help(body: str) -> bool:
    """Whether a top-level function's text may rename or make a temp (``_HELPER_CALL``),
    its strings blanked: ``s.replace("(", "")`` is no call of one argument."""
    return any(hint in body for hint in _HELPER_HINTS) and _HELPER_CALL.search(_looked_at(body)) is not None


def _may_rename(body: str) -> bool:
    """Whether a class's text may rename (``_RENAME_CALL``), as ``_may_help`` looks."""
    return any(hint in body for hint in _RENAME_HINTS) and _RENAME_CALL.search(_looked_at(body)) is not None


def _looked_at(body: str) -> str:
    """``body`` as ``_may_help`` looks at it: its strings blanked, and the ``def`` and bare
    calls of a function it defines under a helper's name taken out (``def rename(columns)``
    in a method that renames dict keys; ``rename(cols)`` calls it). A rename such a
    function makes is spelt in it (``os.rename(...)``), and that still counts."""
    body = _STRING.sub("''", body)
    local = _LOCAL_DEF.findall(body)
    if not local:
        return body
    return re.sub(rf"(\.\s*)?\b(?:{'|'.join(sorted(set(local)))})\s*\(", lambda m: m.group(0) if m.group(1) else "(", body)


#: A ``def`` under the name of a helper ``_HELPER_CALL`` looks for.
_LOCAL_DEF = re.compile(rf"\bdef[ \t]+({_HELPER_WORDS})\b")


def _may_help_any(defs: Dict[str, str]) -> bool:
    """Whether one of a module's top-level functions may (``_may_help``): most modules'
    functions spell no hint at all, and one look for each hint in their joined text is
    quicker than one in each function's."""
    joined = "\n".join(body for body in defs.values() if not _is_class(body))
    return any(hint in joined for hint in _HELPER_HINTS)


_TEMP_DIR_LAST_NAMES = frozenset(q.rsplit(".", 1)[1] for q in names.TEMP_DIR_ATTRIBUTES)
#: The library constants that are locations, as (module, name): what ``from
#: huggingface_hub.constants import HF_HOME`` binds is one (``names.LIBRARY_LOCATIONS``).
_LIBRARY_LOCATED = frozenset(tuple(q.rsplit(".", 1)) for q in names.LIBRARY_LOCATIONS)


def _known_by_module() -> Dict[str, FrozenSet[str]]:
    """The last components of the names the index knows, by module: what a star import of it binds."""
    found: Dict[str, Set[str]] = {}
    for qualified in names.KNOWN_NAMES:
        module, _, name = qualified.rpartition(".")
        found.setdefault(module, set()).add(name)
    return {module: frozenset(known) for module, known in found.items()}


_KNOWN_BY_MODULE = _known_by_module()
#: Import statements anywhere (``try: import x`` on one line too): what a text may import.
#: (No leading ``\b``: it would cost the regex engine its fast scan for the first
#: letters, and more matches only cost time.)
_TO_STATEMENT_END = r"[^\n\\;]*(?:\\.[^\n\\;]*)*"  # to the line's end or a ``;``, past a backslash's
_FROM_HEAD_TEXT = r"from[ \t]+(?P<module>\.*[\w.]*)[ \t]+"
_FROM_NAMES_TEXT = rf"import\b[ \t]*(?P<names>\([^)]*\)|{_TO_STATEMENT_END})"
_FROM_IMPORT = re.compile(_FROM_HEAD_TEXT + _FROM_NAMES_TEXT, re.S)
_IMPORT = re.compile(rf"import[ \t]+(?P<names>{_TO_STATEMENT_END})")
#: ``_FROM_IMPORT`` in its two parts, for ``_items``: what stands before an ``import`` on
#: its line, and what follows it.
_FROM_HEAD = re.compile(_FROM_HEAD_TEXT + r"\Z")
_FROM_NAMES = re.compile(_FROM_NAMES_TEXT, re.S)
_NAME = re.compile(r"[\w.*]+(?:\s+as\s+\w+)?")
WORD = re.compile(r"[^\W\d]\w*")  # identifiers
#: The first name of each call's dotted callee (``helpers`` of ``helpers.publish(...)``).
#: Each match starts where a word does and takes it whole, as ``_ASSIGNED``'s: tried at
#: every character and backtracking through every word, it cost a function's text
#: quadratic time in its words' lengths (4.5 times as much over the ecosystem corpus).
_CALLED = re.compile(r"(?<!\w)(?=([^\W\d]\w*))\1(?:\s*\.\s*[^\W\d]\w*)*\s*\(")
#: Each name called directly: ``_CALLED`` alone takes ``x.\n  publish(`` for a chain off
#: ``x`` when ``x.`` ends a comment's sentence on the line above.
_CALLED_DIRECTLY = re.compile(r"(?<!\w)(?=([^\W\d]\w*))\1\s*\(")
READ = re.compile(r"\.\s*([^\W\d]\w*)")  # attributes read

#: What an import brings: (module, the name imported from it or None for the module
#: itself, the local name; ``*`` for a star import).
Import = Tuple[str, Optional[str], str]


#: One imported name as a text spells it: (``from`` module as written, None for a plain
#: ``import``; the name or dotted module; the local name it binds, None for ``import a.b``).
_Item = Tuple[Optional[str], str, Optional[str]]


def _items(text: str) -> List[_Item]:
    """Every name the import statements of ``text`` may import: those of each ``from``
    statement, then those of each ``import`` statement (``_FROM_IMPORT``, ``_IMPORT``).
    Found from each word ``import`` (``str.find``: many times quicker than a regex's scan
    for the first letters of ``from`` and of ``import`` through the whole text)."""
    found: List[_Item] = []
    plain: List[_Item] = []
    at = text.find("import")
    while at != -1:
        line = text.rfind("\n", 0, at) + 1
        head = _FROM_HEAD.search(text, line, at)
        if head is not None:
            match = _FROM_NAMES.match(text, at)
            if match is not None:
                spec = head.group("module")
                for item in _NAME.findall(match.group("names")):
                    parts = item.split()
                    found.append((spec, parts[0], parts[-1]))
        else:
            match = _IMPORT.match(text, at)
            before = text[line:at].rstrip()
            # Not the ``import`` of ``from x import y`` (its names are the from-import's), nor prose.
            if match is not None and (not before or before[-1] in ";:"):
                for item in _NAME.findall(match.group("names")):
                    parts = item.split()
                    plain.append((None, parts[0], parts[-1] if len(parts) > 1 else None))
        at = text.find("import", at + 6)
    return found + plain


def imports_of(text: str, package: str, project: Project) -> List[Import]:
    """What ``text`` (a module of ``package``) may import from project modules. A
    module-level ``import a.b`` binds ``a``, whose attributes are names of ``a`` and of ``a.b``."""
    return _imports_in(_items(text), package, project)


def _imports_in(items: Sequence[_Item], package: str, project: Project) -> List[Import]:
    """``imports_of`` for the import items of a text. Each item is looked up by the
    absolute module it names: ``from ..utils import x`` of every package below one, and
    ``from pkg.utils import x``, ask once between them."""
    found: List[Import] = []
    memo = project.imported
    for spec, name, local in items:
        module = spec
        if spec is not None:
            module = _ABSOLUTE.get((package, spec)) if spec.startswith(".") else spec
            if module is None:
                dots = len(spec) - len(spec.lstrip("."))
                module = _ABSOLUTE[(package, spec)] = absolute_module(spec[dots:] or None, dots, package) or ""
            if not module:
                continue  # above the top package
        key = (module, name, local)
        brought = memo.get(key)
        if brought is None:
            brought = memo[key] = _brought(module, name, local, project)
        found.extend(brought)
    return found


#: The module a relative ``from`` names, by (the importing module's package, the dots
#: and name as written): "" above the top package.
_ABSOLUTE: Dict[Tuple[str, str], str] = {}


def _brought(module: Optional[str], name: str, local: Optional[str], project: Project) -> Tuple[Import, ...]:
    """What one import item brings from project modules: ``from module import name``, or
    (``module`` None) ``import name``."""
    found: List[Import] = []
    if module is not None:
        if name == "*":
            found.append((module, None, "*"))
        elif _may_be_package(project, module) and project.is_module(f"{module}.{name}"):
            found.append((f"{module}.{name}", None, local or name))
        else:
            found.append((module, name, local or name))
    elif local is not None:
        found.append((name, None, local))
    else:
        parts = name.split(".")
        found.extend((".".join(parts[: i + 1]), None, parts[0]) for i in range(len(parts)))
    return tuple(entry for entry in found if project.is_module(entry[0]))


def _may_be_package(project: Project, module: str) -> bool:
    """Whether ``module`` may hold submodules: a package of the project, or no module of
    it (a namespace package has no ``__init__.py``). A plain module holds none."""
    found = project.find(module)
    return found is None or found[1]


def without_imports(text: str) -> str:
    return _IMPORT.sub("", _FROM_IMPORT.sub("", text))


def spelt_past_imports(text: str) -> FrozenSet[str]:
    """The words ``text`` spells outside its import statements (``FileView.spelt``)."""
    return frozenset(WORD.findall(without_imports(text)))


class _Text:
    """What the cheap filter learnt of one module's text (by path, valid for ``stamp``).

    From one pass of the import regexes, when the text is first read: the project modules
    it imports (``imports``: ``named`` by local name, (module, name); ``stars``;
    ``modules``: local name -> the modules it binds, whose attributes ``reads`` finds) and
    the local names its imports bind (``imported``; ``aliases``: of a scanned function,
    ``located``: of the temp directory or a well-known constant that is a location, from
    a library (``_LIBRARY_LOCATED``); ``starred``: a library star
    import's). The marks of a scanned function (``callee_names`` starts from them): those
    aliases, a read of one (``alias_read``: ``swap = os.replace``), and the top-level
    functions (their text, ``defs``, is kept apart, with each class's ``class`` line) that
    name one (``helpers``: they may rename, or return a temp). Whether the text is *marked* for locations (``marked``:
    it spells one, by configuration), so that ``may_supply`` can rule out a whole import
    closure none of whose modules is marked without a look at any name.

    Only for a module that needs them, and only when first asked: where each statement
    that may assign a name starts (``assigned``, ``starts``), and their text. When the
    result cache kept the module's ``Facts`` (``use_store``), its text itself (``source``,
    ``defs``) is read only when one of those is asked: most modules' never is."""

    __slots__ = (
        "module", "path", "stamp", "_source", "_defs", "helpers", "_marks", "locations", "_starts", "statements", "imported",
        "aliases", "located", "starred", "named", "stars", "modules", "imports", "_reads", "seen", "bit", "_edges", "alias_read",
        "_spans", "_called",
    )

    def __init__(
        self, module: str, path: str, stamp: Stamp, facts: Facts, package: str, project: Project,
        texts: Optional[Tuple[str, Dict[str, str]]] = None,
    ) -> None:
        self.module = module
        self.path = path
        self.stamp = stamp
        #: What reading it is to ``Project.saw``: one object for every read, noted in O(1).
        self.seen: Dependencies = frozenset({(path, stamp)})
        self.bit = number(path, stamp)
        self._source: Optional[str] = texts[0] if texts is not None else None
        self._defs: Optional[Dict[str, str]] = texts[1] if texts is not None else None
        self.helpers = facts.helpers
        self._marks = facts.marks
        self.locations: Dict[Locations, bool] = {}
        self.statements: Dict[str, List[str]] = {}
        self._starts: Optional[Dict[str, Tuple[int, ...]]] = None
        items = facts.items
        self.imported = _frozen(local or name.split(".", 1)[0] for spec, name, local in items if name != "*")
        from_items = [(spec, name, local or name) for spec, name, local in items if spec is not None]
        self.aliases = _frozen(local for _, name, local in from_items if name in _CALLEE_LAST_NAMES)
        self.located = _frozen(
            local for spec, name, local in from_items if name in _TEMP_DIR_LAST_NAMES or (spec, name) in _LIBRARY_LOCATED
        )
        star_sources = {spec for spec, name, _ in from_items if name == "*"}
        self.starred = _frozen(n for spec in star_sources for n in _KNOWN_BY_MODULE.get(spec, ()))
        self.alias_read = facts.alias_read
        named: Dict[str, List[Tuple[str, Optional[str]]]] = {}
        stars: List[str] = []
        modules: Dict[str, List[str]] = {}  # local name -> the project modules it binds
        imports: Set[str] = set()
        for imported, name, local in _imports_in(items, package, project):
            imports.add(imported)
            if name is not None:
                named.setdefault(local, []).append((imported, name))
            elif local == "*":
                stars.append(imported)
            else:
                modules.setdefault(local, []).append(imported)
        self.named = {local: tuple(pairs) for local, pairs in named.items()}
        self.modules = {local: tuple(bound) for local, bound in modules.items()}
        self.stars = tuple(stars)
        self.imports = _frozen(imports)
        self._reads: Dict[str, List[Tuple[str, Optional[str]]]] = {}
        self._edges: Dict[str, List[Tuple[str, Optional[str]]]] = {}
        #: Each statement that may assign a name, by where it starts: (start, end, name),
        #: their starts, and the longest one's length (``binding_at``).
        self._spans: Optional[Tuple[List[Tuple[int, int, str]], List[int], int]] = None
        self._called: Dict[str, FrozenSet[str]] = {}

    @property
    def source(self) -> str:
        """The module-level text (``_module_text``)."""
        if self._source is None:
            self._load()
        return self._source  # type: ignore[return-value]

    @property
    def defs(self) -> Dict[str, str]:
        """The text of each top-level function, by name (``_module_text``)."""
        if self._defs is None:
            self._load()
        return self._defs  # type: ignore[return-value]

    def _load(self) -> None:
        """The text the kept facts were of; a text changed since starts a new generation
        at the next ``sweep``, as one changed after it was read does."""
        texts = _module_text(self.path)
        self._source, self._defs = texts if texts is not None else ("", {})

    def binding(self, pattern: Pattern[str]) -> Set[str]:
        """The names bound by the module-level statements in which ``pattern`` matches
        (each name a statement may assign: ``_ASSIGNED``)."""
        return self.binding_at(match.start() for match in pattern.finditer(self.source))

    def binding_at(self, positions: Iterable[int]) -> Set[str]:
        """The names bound by the module-level statements that hold one of ``positions``."""
        found: Set[str] = set()
        for at in positions:
            spans, starts, longest = self._statement_spans()
            # The statements that start at or before ``at``, back to the longest one's length.
            index = bisect_right(starts, at) - 1
            while index >= 0 and spans[index][0] >= at - longest:
                if spans[index][1] > at:
                    found.add(spans[index][2])
                index -= 1
        return found

    def _statement_spans(self) -> Tuple[List[Tuple[int, int, str]], List[int], int]:
        if self._spans is None:
            spans = sorted(
                (start, start + len(_statement(self.source, start)), name) for name, starts in self.starts.items() for start in starts
            )
            self._spans = (spans, [span[0] for span in spans], max((e - s for s, e, _ in spans), default=0))
        return self._spans

    def called(self, name: str) -> FrozenSet[str]:
        """The first name of each callee the top-level function ``name`` calls (``_CALLED``),
        and each name it calls directly (``_CALLED_DIRECTLY``)."""
        found = self._called.get(name)
        if found is None:
            body = self.defs[name]
            found = self._called[name] = frozenset(_CALLED.findall(body)) | frozenset(_CALLED_DIRECTLY.findall(body))
        return found

    def marked(self, locations: Locations) -> bool:
        """Whether the text may bind, by itself, one of ``locations``: false only if
        ``query`` can find no hit here."""
        spelled = self.locations.get(locations)
        if spelled is None:
            key = location_key(locations)
            spelled = self._marks.get(key)
            if spelled is None:
                spelled = _spells_location(self.source.lower(), locations) or any(
                    _spells_location(body.lower(), locations) for body in self.defs.values()
                )
                store = _STORE[0]
                if store is not None:
                    store.marked(self.path, self.stamp, key, spelled)
            self.locations[locations] = spelled
        return spelled or bool(self.located)

    @property
    def starts(self) -> Dict[str, Tuple[int, ...]]:
        """Where each statement that may assign a name starts, by the name."""
        if self._starts is None:
            starts: Dict[str, Set[int]] = {}
            for match in _assignments(self.source):
                starts.setdefault(match.group(1), set()).add(match.start())
            for match in _ANNOTATED.finditer("\n" + self.source):  # a newline before each line: a literal prefix
                if not iskeyword(match.group(1)):
                    starts.setdefault(match.group(1), set()).add(match.start(1) - 1)
            self._starts = {name: tuple(sorted(at)) for name, at in starts.items()}
        return self._starts

    @property
    def assigned(self) -> KeysView[str]:
        """The names the text may assign."""
        return self.starts.keys()

    def reads(self, local: str) -> List[Tuple[str, Optional[str]]]:
        """(module, attribute) for each attribute read off the project module(s) ``local`` binds."""
        found = self._reads.get(local)
        if found is None:
            found = self._reads[local] = [
                (module, attribute)
                for module in self.modules.get(local, ())
                for attribute in sorted(attributes_read(self.source, module, local))
            ]
        return found

    def statements_of(self, name: str) -> List[str]:
        """The text of each statement that may assign ``name``."""
        if name not in self.assigned:
            return []
        found = self.statements.get(name)
        if found is None:
            found = self.statements[name] = [_statement(self.source, start) for start in self.starts[name]]
        return found

    def query(self, name: Optional[str], locations: Locations) -> Tuple[bool, List[Tuple[str, Optional[str]]]]:
        """Whether ``name`` (None: any name) may be bound here to one of ``locations``,
        and if not, the (module, name) pairs its binding may come from (``edges``).

        An assigned name's value is spelt in its statement: it may be a location there, or
        come from the names the statement spells (imported, assigned in this module, or
        from a star import). A function's may come from its text: a location, or the names
        it spells (a helper it calls, a constant it returns). An imported name comes from
        its import (``from tempfile import gettempdir as tmp`` is one, and ``from
        huggingface_hub.constants import HF_HOME``); any other (a ``class``, or none) only
        from a star import."""
        if name is None:
            named = [edge for pairs in self.named.values() for edge in pairs]
            reads = [edge for local in self.modules for edge in self.reads(local)]
            stars: List[Tuple[str, Optional[str]]] = [(star, None) for star in self.stars]
            return self.marked(locations), [*named, *stars, *reads]
        hit = name in self.located
        body = self.defs.get(name)
        texts = self.statements_of(name) if body is None else [*self.statements_of(name), body]
        for statement in texts:
            if hit:
                break
            hit = _spells_location(statement.lower(), locations)
        return (True, []) if hit else (False, self.edges(name))

    def edges(self, name: str) -> List[Tuple[str, Optional[str]]]:
        """The (module, name) pairs the binding of ``name`` may come from (``query``),
        whatever is asked of it: worked out once."""
        edges = self._edges.get(name)
        if edges is not None:
            return edges
        edges = [(star, name) for star in self.stars]
        if name in self.imported:
            edges.extend(self.named.get(name, ()))
        texts = self.statements_of(name)
        body = self.defs.get(name)
        if body is not None:
            texts = [*texts, body]
        for statement in texts:
            for word in set(WORD.findall(statement)):
                if word != name:
                    edges.append((self.module, word))
                    edges.extend((star, word) for star in self.stars)
                if word in self.modules:
                    edges.extend(self.reads(word))
        self._edges[name] = edges
        return edges


#: The one empty set the facts share: a set is an object the garbage collector walks
#: (strings are not), and most facts of most modules are empty.
_EMPTY: FrozenSet[str] = frozenset()


def _frozen(names: Iterable[str]) -> FrozenSet[str]:
    found = frozenset(names)
    return found if found else _EMPTY


def _statement(source: str, start: int) -> str:
    """The text of the statement that starts at ``start``: to the end of its line, and on
    while a bracket is open (outside one-line string literals) or a line ends in ``\\``."""
    depth = 0
    position = start
    for _ in range(200):  # a guard: longer statements are cut, and keep less
        end = source.find("\n", position)
        if end == -1:
            return source[start:]
        line = _STRING.sub("", source[position:end])
        depth += sum(line.count(c) for c in "([{") - sum(line.count(c) for c in ")]}")
        position = end + 1
        if depth <= 0 and not line.rstrip().endswith("\\"):
            break
    return source[start:position]


_STRING = re.compile(r"'(?:[^'\\\n]|\\.)*'|\"(?:[^\"\\\n]|\\.)*\"")


#: A name an assignment may bind (keyword arguments and walrus targets match too: more
#: matches only cost time). ``(X) = 1`` binds ``X`` as well. A match starts only where a
#: word does, and takes the word whole (``(?=(...))\1``: a lookahead does not backtrack,
#: Python 3.9's stand-in for a possessive quantifier): tried at every character and
#: backtracking through every word, it cost a module's text quadratic time in its words.
_ASSIGNED = re.compile(r"(?<!\w)(?=([^\W\d]\w*))\1\)*(?:[ \t]|\\\r?\n)*(?::[^=\n]*)?=(?!=)")

#: An annotated name that starts a line (``X: Final[\n    str\n] = ...``): its ``=`` may
#: stand lines below, where ``_assignments`` does not look back from. (``X: int``
#: alone binds nothing: more names only cost time.)
_ANNOTATED = re.compile(r"\n[ \t]*([^\W\d]\w*)[ \t]*:(?!=)")


def _assignments(source: str) -> Iterator[Match[str]]:
    """``_ASSIGNED``'s matches in ``source``, from a search of each line that holds a ``=``
    (with the lines a backslash joins it to): the regex, tried at every character for its
    look-behind, costs twice as much through the whole text."""
    at = source.find("=")
    while at != -1:
        start = source.rfind("\n", 0, at) + 1
        while start and _continued(source, start - 1):
            start = source.rfind("\n", 0, start - 1) + 1
        end = source.find("\n", at)
        while end != -1 and _continued(source, end):
            end = source.find("\n", end + 1)
        if end == -1:
            end = len(source)
        yield from _ASSIGNED.finditer(source, start, end)
        at = source.find("=", end)


def _continued(source: str, newline: int) -> bool:
    """Whether a backslash joins the line that ends at ``newline`` to the next."""
    return source[newline - 1 : newline] == "\\" or source[newline - 2 : newline] == "\\\r"


def attributes_read(source: str, module: str, local: str) -> Set[str]:
    """The attributes ``source`` reads off the module ``module`` it binds to ``local``
    (``import a.b`` binds ``a``, read as ``a.b.Y``)."""
    return {
        m.group(1) for m in re.finditer(rf"{_chain(module, local)}\s*\.\s*(\w+)", source) if not word_at(source, m.start() - 1)
    }


def _chain(module: str, local: str) -> str:
    """A regex of how a text reads the module ``module`` it binds to ``local``: ``local``,
    or ``a`` then ``b`` around a dot for ``import a.b`` (``path_below``)."""
    return r"\s*\.\s*".join([re.escape(local), *map(re.escape, path_below(module, local))])


def path_below(module: str, local: str) -> List[str]:
    """The components between ``local`` and an attribute of ``module`` it reads: ``b`` of
    ``a.b.Y`` (``import a.b`` binds ``a``); none for ``import a.b as m``, ``from a import b``."""
    parts = module.split(".")
    return parts[1:] if local == parts[0] and len(parts) > 1 else []


def word_at(text: str, index: int) -> bool:
    """Whether ``text[index]`` is a character of a word (False outside the text)."""
    return 0 <= index < len(text) and (text[index].isalnum() or text[index] == "_")


_TEXTS: Dict[str, _Text] = {}
#: What ``may_bind`` answered, by (search roots, (module, name), kind): the answer, its
#: generation, and the module texts (path, stamp) it rests on (a result cache records them).
_MAY: Dict[Tuple[Tuple[str, ...], Tuple[str, Optional[str]], Locations], Tuple[bool, int, Dependencies]] = {}


def _text(project: Project, module: str, note: bool = True) -> Optional[Tuple[str, Stamp, _Text]]:
    """The filter's facts of project module ``module``'s text, read once per stamp; noted
    as read (``Project.saw``), or (``note`` false: ``callee_names``, which notes its
    closures its own way) only by a resolution under way."""
    found = project.find(module)
    if found is None:
        return None
    path = found[0]
    stamp = project.stamp(path)
    if stamp is None:
        return None
    known = _TEXTS.get(path)
    if known is not None and known.stamp != stamp:
        _GENERATION[0] += 1  # a changed module: what was answered from its old text is void
        known = None
    if known is None:
        store = _STORE[0]
        facts = store.facts(path, stamp) if store is not None else None
        texts = None
        if facts is None:
            data = _bytes_of(path)
            if data is None:
                return None
            texts = _split(data)
            facts = facts_of(*texts)
            if store is not None:
                store.learnt(path, stamp, data, facts)
        package = module if found[1] else module.rpartition(".")[0]
        known = _TEXTS[path] = _Text(module, path, stamp, facts, package, project, texts)
    if note:
        project.saw(known.seen)
    else:
        project.saw_in_resolution(known.seen)
    return path, stamp, known


class Facts(NamedTuple):
    """What the filter learns of a module's text with a full look at it (the rest of
    ``_Text``'s facts follow from these, or are worked out when asked): the names its
    import statements import (``_items``), its top-level functions that may rename or make
    a temp (``_may_help``), and whether it reads a move or temp function without calling
    it (``_ALIAS_READ``). What the result cache keeps of each module between runs."""

    items: Sequence[_Item]  # kept by the cache as lists
    helpers: FrozenSet[str]
    alias_read: bool
    #: ``_Text.marked``'s answers, by the locations' ``location_key``: a file that moves
    #: asks them of its whole import closure.
    marks: Mapping[str, bool] = MappingProxyType({})


def facts_of(source: str, defs: Dict[str, str]) -> Facts:
    """The ``Facts`` of a module whose module-level text is ``source`` and whose
    top-level functions' texts are ``defs`` (``_module_text``)."""
    helpers = _frozen(name for name, body in defs.items() if _may_help(body) and not _is_class(body)) if _may_help_any(defs) else _EMPTY
    return Facts(tuple(_items(source)), helpers, _ALIAS_READ.search(source) is not None)


class TextStore(Protocol):
    """Where module texts' ``Facts`` are kept between runs (the result cache's: ``cache_texts``)."""

    def facts(self, path: str, stamp: Stamp) -> Optional[Facts]:
        """The facts kept of module ``path``'s text while it has ``stamp`` (or the same bytes), else None."""

    def learnt(self, path: str, stamp: Stamp, data: bytes, facts: Facts) -> None:
        """The ``facts`` of ``data``, the bytes of ``path`` read with ``stamp``: to keep."""

    def marked(self, path: str, stamp: Stamp, key: str, marked: bool) -> None:
        """``_Text.marked``'s answer for locations ``key``, of ``path``'s text with ``stamp``: to keep with its facts."""


#: The store the facts of module texts are looked up in before a text is read, and
#: handed to once worked out (``use_store``).
_STORE: List[Optional[TextStore]] = [None]


def use_store(store: Optional[TextStore]) -> Optional[TextStore]:
    """Look up module texts' facts in ``store`` from now on (None: in none), and the
    store used until now. A pre-commit call reads the import closure of the files it
    checks: with the facts kept, only the modules changed since, and those whose text a
    question needs (``_Text.source``)."""
    previous, _STORE[0] = _STORE[0], store
    return previous


def names_of(project: Project, module: str) -> FrozenSet[str]:
    """Every name project module ``module`` may bind, as far as texts tell: those it may
    assign or import, those of the modules it star-imports, and those a star import of a
    library module brings that the index knows (``from os import *`` binds ``rename``)."""
    key = (project.roots, module)
    known = _NAMES.get(key)
    if known is not None and known[0] == _GENERATION[0]:
        project.saw(known[2])
        return known[1]
    generation = _GENERATION[0]
    project.start_reading()
    found: Set[str] = set()
    pending = [module]
    seen: Set[str] = set()
    while pending:
        current = pending.pop()
        if current in seen:
            continue
        seen.add(current)
        facts = _text(project, current)
        if facts is None:
            continue
        found |= facts[2].assigned | facts[2].imported | facts[2].starred | facts[2].defs.keys()
        pending.extend(facts[2].stars)
    names_found = frozenset(found)
    texts = project.stop_reading()
    if generation == _GENERATION[0]:
        _NAMES[key] = (generation, names_found, texts)
    return names_found


def may_alias(project: Project, module: str, name: str) -> bool:
    """Whether project module ``module`` may bind ``name`` otherwise than by ``def`` or
    ``class`` alone: by an assignment or an import, its own or a star import's."""
    read = _text(project, module)
    if read is None:
        return False
    facts = read[2]
    return name in facts.assigned or name in facts.imported or name in facts.starred or bool(facts.stars)


#: ``names_of``'s answers, by (search roots, module), with their generation and the texts read.
_NAMES: Dict[Tuple[Tuple[str, ...], str], Tuple[int, FrozenSet[str], Dependencies]] = {}


def may_supply(project: Project, module: str) -> bool:
    """Whether any module of project module ``module``'s import closure (as texts spell
    it) is marked for the project's locations (``_Text.marked``). If none is, no name of
    ``module`` may be a location: ``may_bind`` follows imports only, and finds a hit only
    in a marked text. One walk answers for every module it reaches when the answer is
    no (each one's closure is within the start's), and for the path to the mark when yes.
    Each answer keeps the module texts it rests on, which a memo hit notes as read."""
    kind = project.locations
    generation = _GENERATION[0]
    memo = _SUPPLY.get((project.roots, module, kind))
    if memo is not None and memo[1] == generation:  # asked before: by far the most common case
        project.saw(memo[2])
        return memo[0]
    parents: Dict[str, Optional[str]] = {module: None}
    stack = [module]
    visited: List[str] = []
    project.start_reading()
    while stack:
        current = stack.pop()
        memo = _SUPPLY.get((project.roots, current, kind))
        if memo is not None and memo[1] == generation:
            project.saw(memo[2])
            if not memo[0]:
                continue
        else:
            facts = _text(project, current)
            if facts is None:
                continue
            visited.append(current)
            if not facts[2].marked(kind):
                for imported in facts[2].imports:
                    if imported not in parents:
                        parents[imported] = current
                        stack.append(imported)
                continue
        texts = project.stop_reading()
        step: Optional[str] = current
        while step is not None and generation == _GENERATION[0]:
            _SUPPLY[(project.roots, step, kind)] = (True, generation, texts)
            step = parents[step]
        return True
    texts = project.stop_reading()
    if generation == _GENERATION[0]:  # no text changed meanwhile
        for current in visited:
            _SUPPLY[(project.roots, current, kind)] = (False, generation, texts)
    return False


#: What ``may_supply`` answered, by (search roots, module, kind): the answer, its
#: generation and the module texts (path, stamp) it rests on.
_SUPPLY: Dict[Tuple[Tuple[str, ...], str, Locations], Tuple[bool, int, Dependencies]] = {}


def may_bind(project: Project, module: str, name: Optional[str]) -> bool:
    """Whether project module ``module``'s ``name`` (None: any of its names) may be a
    location, as far as module texts tell (``_Text.query``): a module whose text spells
    such a binding and binds the name, or one whose binding of the name may come from a
    module that may. Sound: a location the index resolves is spelt so (``_spells_location``).
    (Scanned functions are found forwards instead, ``callee_names``: their marks are rare,
    and every file asks of them.)"""
    kind = project.locations
    generation = _GENERATION[0]
    start = (module, name)
    memo = _MAY.get((project.roots, start, kind))
    if memo is not None and memo[1] == generation:  # asked before: by far the most common case
        project.saw(memo[2])
        return memo[0]
    if not may_supply(project, module):
        return False
    parents: Dict[Tuple[str, Optional[str]], Optional[Tuple[str, Optional[str]]]] = {start: None}
    stack = [start]
    visited: List[Tuple[str, Optional[str]]] = []
    bound: Dict[str, FrozenSet[str]] = {}  # ``names_of`` each module the edges lead to
    project.start_reading()  # what this search reads, kept with its answers
    while stack:
        pair = stack.pop()
        memo = _MAY.get((project.roots, pair, kind))
        if memo is not None and memo[1] == generation:
            project.saw(memo[2])
            if memo[0]:
                return _found(project, kind, pair, parents)
            continue
        facts = _text(project, pair[0])
        if facts is None:
            continue
        visited.append(pair)
        hit, edges = facts[2].query(pair[1], kind)
        if hit:
            return _found(project, kind, pair, parents)
        for edge in edges:
            if edge in parents:
                continue
            if edge[1] is not None:
                spelled = bound.get(edge[0])
                if spelled is None:  # once a search: its texts are noted as read the first time
                    spelled = bound[edge[0]] = names_of(project, edge[0])
                if edge[1] not in spelled:
                    continue
            parents[edge] = pair
            stack.append(edge)
    texts = project.stop_reading()
    if generation == _GENERATION[0]:  # no text changed meanwhile
        for pair in visited:  # all that was looked at: none of it may bind
            _MAY[(project.roots, pair, kind)] = (False, generation, texts)
    return False


# -- which names may bind a scanned function: worked out forwards, once per module -------

def callee_names(project: Project, module: str) -> FrozenSet[str]:
    """The names project module ``module`` may bind to a scanned function (an alias of
    one, a function that may call one or return a temp), as far as module texts tell:
    the same question ``may_bind`` asks of one name for locations, answered for every
    name of a module at once.

    Forwards, from the marks: a module's names are worked out from the marks of its own
    text (``_Text.helpers``, ``aliases``, ``starred``, an alias read) and the names its
    imports bring that are already known to be such, spelt in its statements and
    functions (``_taint``). Modules are taken strongest component of imports first
    (Tarjan's order), a cycle's members until none changes. Real projects mark few
    modules, and a module with no mark and no such import is done with no look at its
    text past its imports: that is what makes asking every file's every import cheap."""
    generation = _GENERATION[0]
    key = (project.roots, module)
    memo = _CALLEE_NAMES.get(key)
    if memo is None or memo[0] != generation:
        _work_out_callee_names(project, module, generation)
        memo = _CALLEE_NAMES.get(key)
        if memo is None or memo[0] != generation:  # a text changed meanwhile, or it cannot be read
            project.saw_closure(0, module, _EMPTY)
            return _EMPTY
    project.saw_closure(memo[2], module, memo[1])
    return memo[1]


#: ``callee_names``' answers, by (search roots, module): the generation, the names, and
#: the module texts they rest on (the module's import closure) as bits (``_numbered``).
_CALLEE_NAMES: Dict[Tuple[Tuple[str, ...], str], Tuple[int, FrozenSet[str], int]] = {}


def _work_out_callee_names(project: Project, start: str, generation: int) -> None:
    """``callee_names`` for ``start`` and every module of its import closure not yet
    known: Tarjan's strongly connected components, without recursion (import chains run
    deep), each component done when it closes (its imports are done by then)."""
    roots = project.roots
    index: Dict[str, int] = {}
    low: Dict[str, int] = {}
    stack: List[str] = []
    on_stack: Set[str] = set()
    facts: Dict[str, _Text] = {}
    work: List[Tuple[str, Iterator[str]]] = []

    def known(module: str) -> bool:
        memo = _CALLEE_NAMES.get((roots, module))
        return memo is not None and memo[0] == generation

    def enter(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        read = _text(project, module, note=False)
        if read is not None:
            facts[module] = read[2]
        imports = facts[module].imports if module in facts else frozenset()
        work.append((module, iter(sorted(imports))))

    if known(start):
        return
    enter(start)
    while work:
        module, pending = work[-1]
        for imported in pending:
            if imported in index:
                if imported in on_stack:
                    low[module] = min(low[module], index[imported])
            elif not known(imported):
                enter(imported)
                break
        else:
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[module])
            if low[module] == index[module]:
                component: List[str] = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == module:
                        break
                _close(project, component, facts, generation)


def _close(project: Project, component: List[str], facts: Dict[str, _Text], generation: int) -> None:
    """Work out the callee names of one strongly connected component of modules, whose
    imports outside it are known: each member once, and again whenever a member it imports
    gains names (they only grow), then remember them with the texts they rest on."""
    roots = project.roots
    found: Dict[str, FrozenSet[str]] = {member: frozenset() for member in component}
    members = set(component)

    def names_of(module: str) -> FrozenSet[str]:
        if module in members:
            return found[module]
        memo = _CALLEE_NAMES.get((roots, module))
        return memo[1] if memo is not None else frozenset()

    importers: Dict[str, List[str]] = {}  # the members each member is imported by
    for member in component:
        if member in facts:
            for imported in facts[member].imports & members:
                importers.setdefault(imported, []).append(member)
    pending = list(component)
    queued = set(component)
    while pending:  # each member once, then again only when one it imports has grown
        member = pending.pop()
        queued.discard(member)
        if member not in facts:
            continue
        now = _taint(facts[member], names_of)
        if now != found[member]:
            found[member] = now
            for importer in importers.get(member, ()):
                if importer not in queued:
                    queued.add(importer)
                    pending.append(importer)
    if generation != _GENERATION[0]:
        return  # a text changed meanwhile: nothing is remembered
    outside = {module for member in component if member in facts for module in facts[member].imports} - members
    deps = 0
    for member in component:
        if member in facts:
            deps |= facts[member].bit
    for module in outside:
        memo = _CALLEE_NAMES.get((roots, module))
        if memo is not None:
            deps |= memo[2]
    for member in component:
        _CALLEE_NAMES[(roots, member)] = (generation, found[member], deps)


def _taint(text: _Text, names_of: Callable[[str], FrozenSet[str]]) -> FrozenSet[str]:
    """The names one module's text may bind to a scanned function, given what each module
    it imports may (``names_of``): those its own marks bind, those its imports bring, and,
    to a fixed point, the module-level statements that spell one of those (all of their
    names: ``_ASSIGNED``) and the functions that call one, or read one off an imported
    module (``_CALLED``, ``attributes_read``: as ``_Text.edges`` follows them)."""
    tainted: Set[str] = set(text.aliases) | set(text.starred) | set(text.helpers)
    for module in text.stars:
        tainted |= names_of(module)
    for local, pairs in text.named.items():
        if any(name in names_of(module) for module, name in pairs):
            tainted.add(local)
    chains = [
        (local, module, bound)
        for local, modules in text.modules.items()
        for module in modules
        for bound in [names_of(module)]
        if bound
    ]
    if not tainted and not chains and not text.alias_read:
        return frozenset()
    if text.alias_read:  # ``swap = os.replace``
        tainted |= text.binding(_ALIAS_READ)
    tainted |= _chained(text, chains)
    fresh = set(tainted)  # only a name tainted in the last round can taint more
    while fresh:
        grown = {  # a function that calls one spells it: most spell none (a quicker test than ``called``)
            name for name, body in text.defs.items()
            if name not in tainted and any(word in body for word in fresh) and not _is_class(body) and not text.called(name).isdisjoint(fresh)
        }
        grown |= text.binding_at(_spelt_at(text.source, fresh))
        fresh = grown - tainted
        tainted |= fresh
    return frozenset(tainted)


def _is_class(body: str) -> bool:
    """Whether a text of ``defs`` is a class's ``class`` line: a call of it makes an
    object, no helper's call. (What its methods do is the analysis's to find, in a file
    the scan keeps.)"""
    return body.startswith("class")


def _spelt_at(source: str, words: Iterable[str], attributes: bool = False) -> Iterator[int]:
    """Where ``source`` spells one of ``words`` whole; as an attribute too (``.word``)
    only with ``attributes``. (``str.find`` and a look at each end: many times quicker
    than a regex, whose look-behind costs it its fast scan for the first letters.)"""
    for word in words:
        at = source.find(word)
        while at != -1:
            if not word_at(source, at - 1) and not word_at(source, at + len(word)) and (attributes or source[at - 1 : at] != "."):
                yield at
            at = source.find(word, at + 1)


def spells(source: str, word: str) -> bool:
    """Whether ``source`` spells the identifier ``word`` (as ``WORD`` finds words)."""
    return next(_spelt_at(source, (word,), attributes=True), None) is not None


def _chained(text: _Text, chains: List[Tuple[str, str, FrozenSet[str]]]) -> Set[str]:
    """The names whose binding reads one of ``chains``' names off a module the text
    imports (``local.NAME``, ``a.b.NAME`` for ``import a.b``): a function anywhere in its
    body, a module-level name in its statement."""
    if not chains:
        return set()
    patterns = []
    for local, module, bound in chains:
        patterns.append(rf"(?<![\w.]){_chain(module, local)}\s*\.\s*(?:{'|'.join(map(re.escape, sorted(bound)))})\b")
    pattern = re.compile("|".join(patterns))
    found = {name for name, body in text.defs.items() if not _is_class(body) and pattern.search(body)}
    found |= text.binding(pattern)
    return found


def _found(
    project: Project,
    kind: Locations,
    pair: Optional[Tuple[str, Optional[str]]],
    parents: Dict[Tuple[str, Optional[str]], Optional[Tuple[str, Optional[str]]]],
) -> bool:
    """True, remembered for each pair on the way from the start to the one that may bind."""
    texts = project.stop_reading()
    while pair is not None:
        _MAY[(project.roots, pair, kind)] = (True, _GENERATION[0], texts)
        pair = parents[pair]
    return True


def sweep() -> None:
    """Look for module texts changed since they were read, and directories that gained or
    lost a file (``layout_changed``), at most every ``_SWEEP_SECONDS`` and never more than
    ``_SWEEP_SHARE`` of the time (a sweep stats every module read and directory listed:
    thousands in a big run): a change starts a new generation of the filter's answers.
    Within one run nothing changes; a long-running process (the server) sees an edited
    module within the interval."""
    now = time.monotonic()
    if now < _SWEPT[0]:
        return
    forget_stamps()
    if layout_changed():  # a module added or removed: what each text imports may differ
        _TEXTS.clear()
        _GENERATION[0] += 1
    elif any(stamp_of(path) != known.stamp for path, known in list(_TEXTS.items())):
        _GENERATION[0] += 1
    took = time.monotonic() - now
    _SWEPT[0] = now + max(_SWEEP_SECONDS, took / _SWEEP_SHARE)


_SWEEP_SECONDS = 1.0
_SWEEP_SHARE = 0.01
_SWEPT = [0.0]  # when the next sweep is due
#: Bumped whenever a module text is seen to have changed: ``_MAY``'s answers of an
#: older generation are not used.
_GENERATION = [0]


def _module_text(path: str) -> Optional[Tuple[str, Dict[str, str]]]:
    """``_split`` of module ``path``'s text, or None when it cannot be read."""
    data = _bytes_of(path)
    return None if data is None else _split(data)


def _bytes_of(path: str) -> Optional[bytes]:
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except OSError:
        return None


def _split(data: bytes) -> Tuple[str, Dict[str, str]]:
    """The text of a module (its bytes: ``data``) that can bind its module-level names: all
    of it but the bodies of its top-level functions and classes (and their decorators); and the text of
    each top-level function, by name (what it may do for callers, ``exports``), and the
    ``class`` line of each top-level class (a name the module binds). A body runs
    from a line starting (at column 0) with ``def``, ``async def``, ``class`` or ``@`` to
    the next line that starts at column 0 with anything but a closing bracket or a
    comment; a line of a multi-line string at column 0 ends one early, which keeps more
    module text (a function's text goes on past it: ``_past_strings``).
    A function defined in a module-level block (``if sys.platform == ...:``, ``try:``) is
    a top-level function too (``_add_nested_defs``); its text stays in the module's as well."""
    source = "\n" + data.decode("latin-1")  # every line starts after a newline: the regexes' literal prefix
    kept: List[str] = []
    defs: Dict[str, str] = {}
    start = 1
    while start < len(source):  # module-level text from ``start`` to the next body; then its bodies, one by one
        body = _BODY.search(source, start - 1)
        line = body.start() + 1 if body is not None else len(source)
        kept.append(source[start:line])
        while line < len(source):
            after = _TOP_LINE.search(source, line)
            end = after.start() + 1 if after is not None else len(source)
            if source.startswith(("def", "async"), line):
                _add_def(defs, source[line : _past_strings(source, line, end)])
            elif source.startswith("class", line):  # its name and header line only: ``names_of``
                newline = source.find("\n", line, end)
                _add_def(defs, source[line : newline if newline != -1 else end])
            line = end
            if after is None or after.group(1) is None:
                break
        start = line
    text = "".join(kept)
    _add_nested_defs(defs, text)
    return text, defs


def _past_strings(source: str, start: int, end: int) -> int:
    """``end``, or past it while the text from ``start`` opens a triple-quoted string it
    does not close: a line of a docstring at column 0 does not end a function. (What
    follows stays in the module's text too: a stray triple quote only makes both longer.)"""
    while end < len(source) and (source.count('"""', start, end) % 2 or source.count("'''", start, end) % 2):
        after = _TOP_LINE.search(source, end)
        end = after.start() + 1 if after is not None else len(source)
    return end


def _add_nested_defs(defs: Dict[str, str], text: str) -> None:
    """Add to ``defs`` the functions defined in the blocks of module-level ``text``: each
    ``def`` that starts an indented line (the bodies of top-level functions and
    classes are cut out of ``text`` already), to the next line indented no deeper. A
    ``def`` in a string, or a method of a class in a block, adds a name: more only costs
    time. (``str.find``: most module texts spell no ``def`` at all.)"""
    at = text.find("def")
    while at != -1:
        line = text.rfind("\n", 0, at) + 1
        head = text[line:at]
        keyword = head.lstrip(" \t")  # nothing, or ``async`` and blanks
        indent = len(head) - len(keyword)
        if indent and keyword.rstrip(" \t") in ("", "async") and _DEF_NAME.match(text, at):
            _add_def(defs, text[line + indent : _block_end(text, at, indent)])
        at = text.find("def", at + 3)


def _block_end(text: str, start: int, indent: int) -> int:
    """Where the block of a statement indented by ``indent`` that holds ``start`` ends: at
    the first line after it indented no deeper (blank lines and comments aside)."""
    end = text.find("\n", start)
    while end != -1:
        following = text.find("\n", end + 1)
        line = text[end + 1 : following if following != -1 else len(text)]
        stripped = line.lstrip(" \t")
        if stripped.strip() and not stripped.startswith("#") and len(line) - len(stripped) <= indent:
            return end + 1
        end = following
    return len(text)


def _add_def(defs: Dict[str, str], text: str) -> None:
    named = _DEF_OR_CLASS_NAME.match(text)
    if named is not None:
        defs[named.group(1)] = defs.get(named.group(1), "") + text


#: The newline before a line that starts a top-level statement; group 1: one that starts a
#: function or class. (A newline, not ``^`` with ``re.M``: a literal first character lets
#: the regex engine skip to candidates, three times faster over a module.)
_TOP_LINE = re.compile(r"\n(?:((?:async[ \t]+)?def\b|class\b|@)|[^\s#)\]}])")
_BODY = re.compile(r"\n(?:(?:async[ \t]+)?def\b|class\b|@)")  # group 1 of ``_TOP_LINE`` alone
_DEF_NAME = re.compile(r"(?:async[ \t]+)?def[ \t]+(\w+)")
_DEF_OR_CLASS_NAME = re.compile(r"(?:(?:async[ \t]+)?def|class)[ \t]+(\w+)")


_LOCATION_TOKENS: Dict[Locations, Tuple[Tuple[str, ...], Tuple[str, ...]]] = {}


def _spells_location(lowered: str, locations: Locations) -> bool:
    """Whether a module's lowered text may bind a location: it holds a name pattern's
    literal run anywhere (``*cache*`` matches ``lru_cache``), or, as a whole word, an
    environment variable, a configured call's last component, a path's last segment
    (``tmp``: a literal is ``/tmp`` or below it), a temp directory function's name or a
    temp factory's (what it makes is a temp)."""
    runs, words = _location_tokens(locations)
    if any(run in lowered for run in runs):
        return True
    for word in words:
        start = lowered.find(word)
        while start != -1:
            end = start + len(word)
            before = word_at(word, 0) and word_at(lowered, start - 1)
            after = word_at(word, len(word) - 1) and word_at(lowered, end)
            if not before and not after:
                return True
            start = lowered.find(word, start + 1)
    return False


def location_key(locations: Locations) -> str:
    """What ``_spells_location`` looks for with ``locations``, as a short digest: the key
    of ``Facts.marks``, the same in every process (configurations that differ only in
    what no text test sees share it)."""
    key = _LOCATION_KEYS.get(locations)
    if key is None:
        key = _LOCATION_KEYS[locations] = hashlib.blake2b(repr(_location_tokens(locations)).encode(), digest_size=8).hexdigest()
    return key


_LOCATION_KEYS: Dict[Locations, str] = {}


def _location_tokens(locations: Locations) -> Tuple[Tuple[str, ...], Tuple[str, ...]]:
    tokens = _LOCATION_TOKENS.get(locations)
    if tokens is None:
        runs: Set[str] = set()
        # A temp factory's result is a temp: a function that returns or moves one brings the location.
        words = {q.rsplit(".", 1)[-1].lower() for q in names.TEMP_DIR_ATTRIBUTES | names.TEMP_DIR_CALLS | names.TEMP_FACTORIES.keys()}
        for location in locations.locations:
            runs.update(literal_fragment(p) for p in location.names)
            words.update(v.lower() for v in location.env)
            words.update(c.rsplit(".", 1)[-1].lower() for c in location.calls)
            words.update(p.rstrip("/").rsplit("/", 1)[-1].lower() for p in location.paths)
        if "" in words:
            runs.add("")  # matches any text
        tokens = _LOCATION_TOKENS[locations] = (tuple(sorted(runs)), tuple(sorted(words)))
    return tokens


# -- which imported names may be classes that rename: asked of a file that makes a temp --

def renaming_methods(project: Project, module: str, name: str) -> FrozenSet[str]:
    """The methods that may rename, as far as texts tell, if name ``name`` of project
    module ``module`` is a class: those whose text may (``_may_rename``), its own and its
    bases'; through re-exports (``from .store import Store``) and star imports. None (an
    empty set) when it is no such class.

    A file that makes a temp may hand it to one of them (``store.put(tmp, dst)``). The
    scan's gates summarise no class (each method costs a summary, and most files that make
    a temp and use a project class hand it to none), so this look at texts is what keeps
    such a file for the move rules, when it reads one of those methods; the analysis then
    follows the method. (It follows no method's call of another of its class, so neither
    does this.)"""
    return _renaming(project, module, name, set())


def _renaming(project: Project, module: str, name: str, seen: Set[Tuple[str, str]]) -> FrozenSet[str]:
    if (module, name) in seen or len(seen) > _RENAMING_DEPTH:
        return _EMPTY
    seen.add((module, name))
    read = _text(project, module)
    if read is None:
        return _EMPTY
    text = read[2]
    body = text.defs.get(name)
    if body is not None and _is_class(body):
        methods, bases = _class_text(text, name)
        return methods.union(*(_renaming(project, m, n, seen) for m, n in _bases_bound(text, bases)))
    found = [_renaming(project, m, n, seen) for m, n in text.named.get(name, ()) if n is not None]
    found.extend(_renaming(project, star, name, seen) for star in text.stars)
    return _EMPTY.union(*found)


#: Longer chains of re-exports and bases are not followed (a guard, not a limit real code meets).
_RENAMING_DEPTH = 50


def _class_text(text: _Text, name: str) -> Tuple[FrozenSet[str], Tuple[str, ...]]:
    """The methods of the last top-level class ``name`` of module ``text`` that may
    rename, and the bases its header lists as written (``pkg.Base``); from the module's
    bytes, read again: ``_split`` keeps only each class's ``class`` line, and few classes
    are asked about. A method's text runs from its ``def`` (at the least indentation of
    any ``def`` in the class) to the next such ``def``."""
    key = (text.path, text.stamp, name)
    known = _CLASSES.get(key)
    if known is None:
        data = _bytes_of(text.path)
        source = "\n" + data.decode("latin-1") if data is not None else ""
        start = -1
        for found in re.finditer(rf"\nclass[ \t]+{re.escape(name)}\b", source):
            start = found.start() + 1
        if start == -1:
            known = (_EMPTY, ())
        else:
            after = _TOP_LINE.search(source, start)
            region = source[start : _past_strings(source, start, after.start() + 1 if after is not None else len(source))]
            header = _CLASS_BASES.match(region)
            known = (_methods_renaming(region), _bases_written(header.group(1)) if header is not None else ())
        _CLASSES[key] = known
    return known


def _methods_renaming(region: str) -> FrozenSet[str]:
    """The names of the methods in a class's text ``region`` whose text may rename."""
    if not any(hint in region for hint in _RENAME_HINTS):
        return _EMPTY
    defs = list(_METHOD_DEF.finditer(region))
    if not defs:
        return _EMPTY
    indent = min(len(match.group(1)) for match in defs)
    starts = [match for match in defs if len(match.group(1)) == indent]
    ends = [match.start() for match in starts[1:]] + [len(region)]
    return _frozen(match.group(2) for match, end in zip(starts, ends) if _may_rename(region[match.start() : end]))


#: ``_class_text``'s answers, by (path, stamp, class name).
_CLASSES: Dict[Tuple[str, Stamp, str], Tuple[FrozenSet[str], Tuple[str, ...]]] = {}
#: A method's ``def``: its indentation (group 1) and name (group 2).
_METHOD_DEF = re.compile(r"\n([ \t]+)(?:async[ \t]+)?def[ \t]+(\w+)")
#: A ``class`` line's bases, keywords and all (group 1), brackets nested once.
_CLASS_BASES = re.compile(r"class[ \t]+\w+[ \t]*\(((?:[^()]|\([^()]*\))*)\)")
_BRACKETED = re.compile(r"\[[^\[\]]*\]|\([^()]*\)")
_DOTTED = re.compile(r"[A-Za-z_][\w.]*")


def _bases_written(written: str) -> Tuple[str, ...]:
    """The dotted names a class header's bases are (``Generic[T]``: ``Generic``), keywords
    (``metaclass=ABCMeta``) and other expressions left out."""
    while True:
        shorter = _BRACKETED.sub("", written)
        if shorter == written:
            break
        written = shorter
    return tuple(part.strip() for part in written.split(",") if _DOTTED.fullmatch(part.strip()))


def _bases_bound(text: _Text, bases: Tuple[str, ...]) -> Iterator[Tuple[str, str]]:
    """(project module, name) of each base ``text``'s module binds: a class of its own, a
    name it imports, or an attribute of a module it imports (``store.Store``)."""
    for base in bases:
        local, _, rest = base.partition(".")
        if not rest:
            if local in text.defs:
                yield text.module, local
            yield from ((m, n) for m, n in text.named.get(local, ()) if n is not None)
            continue
        for module in text.modules.get(local, ()):
            parts = rest.split(".")
            below = path_below(module, local)
            if len(parts) == len(below) + 1 and parts[:-1] == below:
                yield module, parts[-1]


def forget() -> None:
    """Drop every text fact and answer this process remembers (for tests: a cold run)."""
    for memo in (_TEXTS, _MAY, _NAMES, _SUPPLY, _CALLEE_NAMES, _ABSOLUTE, _CLASSES):
        memo.clear()
