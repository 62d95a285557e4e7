"""What the names a file imports from its project may bring it: the scan's question.

A gate asks whether a file with no move, temp or location of its own may still hold a
finding through its imports (``Supplied``): a move alias, a helper that moves or makes a
temp, a location constant. The answers come from module texts first (``project_text``),
and from the project index's summaries (``project``) only for the names the texts leave
open.
"""

from __future__ import annotations

import re
from typing import Callable, Dict, FrozenSet, Iterator, Optional, Sequence, Set, Tuple

from xdevlint.analysis.locations import Locations
from xdevlint.analysis.project import FileView, Project, Resolved, view_for
from xdevlint.analysis.project_text import (
    READ,
    SCANNED_CALLEES,
    WORD,
    Import,
    attributes_read,
    callee_names,
    imports_of,
    may_bind,
    may_supply,
    names_of,
    path_below,
    renaming_methods,
    spells,
    without_imports,
    word_at,
)
from xdevlint.model import Closure, Dependencies


class Supplied:
    """What the names a file imports from project modules may bring it, for the scan's
    gates: library functions (``callees``: a move alias, a temp factory), locations, and
    how the file spells what brings a callee (``spellings``: ``publish``, ``helpers.publish``).

    Each is worked out when first asked, and only from the names the file uses: those it
    imports by name, and, of a module it imports, the names of it that the file's text
    spells. A gate asks for callees first; locations only matter to a file that moves."""

    def __init__(self, view: Optional[FileView] = None, text: str = "", imports: Sequence[Import] = ()) -> None:
        self._view = view
        self._text = text
        self._imports = imports
        self._words: Optional[Set[str]] = None  # the words of the text without its imports
        self._used: Dict[str, bool] = {}  # whether the text spells a name past its imports
        self._reads: Optional[Set[str]] = None  # the attributes the text reads (``.Y``)
        self._bare: Optional[str] = None  # the text without its import statements
        self._found: Dict[bool, FrozenSet[str]] = {}
        self._spellings: Dict[str, Set[str]] = {}  # each of ``spellings``: the callees it brings
        self._aliases: Dict[str, Set[str]] = {}  # those of them that are aliases: the callees they stand for
        #: The project as the callees' question sees it (``Project.scanned_only``).
        self._scanning: Optional[Project] = None
        self._movers: Optional[bool] = None
        self._escaping: Dict[str, bool] = {}  # ``_escapes``' answers

    @property
    def dependencies(self) -> Dependencies:
        """The modules (path, stamp) the answers given so far rest on."""
        if self._view is None:
            return frozenset()
        read = self._view.project.dependencies()
        return read if self._scanning is None else read | self._scanning.dependencies(closures=False)

    @property
    def closure(self) -> Optional[Closure]:
        """What the answers given so far rest on through import closures (``callees``)."""
        return self._scanning.closure() if self._scanning is not None else None

    @property
    def possible(self) -> bool:
        """Whether the project may supply anything: the index is on and the file imports
        from a module of its project."""
        return self._view is not None and bool(self._imports)

    @property
    def callees(self) -> FrozenSet[str]:
        return self._gather(True)

    @property
    def locations(self) -> FrozenSet[str]:
        return self._gather(False)

    @property
    def movers(self) -> bool:
        """Whether the file reads a method that may rename (``.put``) of a class it imports
        from its project (``renaming_methods``): a file that makes a temp may hand it to
        one (``store.put(tmp, dst)``)."""
        if self._movers is None:
            methods: Set[str] = set()
            if self._view is not None:
                project = self._view.project
                for module, name, local in self._imports:
                    if name is not None:
                        if self._uses(local):
                            methods |= renaming_methods(project, module, name)
                        continue
                    for attribute in sorted(self._used_of(project, module, local, names_of(project, module))):
                        methods |= renaming_methods(project, module, attribute)
            self._movers = bool(methods) and not methods.isdisjoint(self._attributes())
        return self._movers

    @property
    def spellings(self) -> FrozenSet[str]:
        """How the text spells what brings a callee (a move alias, a helper that moves or
        makes a temp): a name it imports (``publish``), or an attribute read off a module
        it imports (``helpers.publish``, ``a.b.publish``); a module's name alone when the
        text uses the module as a value. (What brings a location is no callee: the focus
        keeps the parts that use one as it keeps those that use a location of the file's
        own, when a kept part names them.)"""
        return self.spellings_of(SCANNED_CALLEES)

    def spellings_of(self, callees: FrozenSet[str], aliases: bool = False) -> FrozenSet[str]:
        """The ``spellings`` of what brings one of ``callees``; with ``aliases``, only of
        what is an alias of one (``swap = os.replace``), not a helper that calls one."""
        self._gather(True)
        spellings = self._aliases if aliases else self._spellings
        return frozenset(spelt for spelt, hits in spellings.items() if not hits.isdisjoint(callees))

    def _gather(self, callees: bool) -> FrozenSet[str]:
        known = self._found.get(callees)
        if known is not None:
            return known
        found: Set[str] = set()
        view = self._view
        if view is not None:
            for module, name, local in self._imports:
                for spelt, resolved in self._bound(view, module, name, local, callees):
                    function = resolved.function
                    if callees:
                        hit = (resolved.callees | (function.scanned if function else frozenset())) & SCANNED_CALLEES
                        if hit:
                            self._spellings.setdefault(spelt, set()).update(hit)
                        if resolved.callees & SCANNED_CALLEES:
                            self._aliases.setdefault(spelt, set()).update(resolved.callees & SCANNED_CALLEES)
                    else:
                        hit = resolved.locations | (function.locations if function else frozenset())
                    found |= hit
        self._found[callees] = frozenset(found)
        return self._found[callees]

    def _bound(
        self, view: FileView, module: str, name: Optional[str], local: str, callees: bool
    ) -> Iterator[Tuple[str, Resolved]]:
        """(its spelling, what it resolves to) for what one import brings that the file
        uses past its import statements (a re-export alone holds no finding) and the
        module's text may bind (``callee_names``, ``may_bind``)."""
        project = view.project
        if callees:
            if self._scanning is None:
                self._scanning = Project(project.roots, project.locations, scanned_only=True)
            project = self._scanning
            tainted = callee_names(project, module)
            if not tainted:
                return
            binds: Callable[[str], bool] = tainted.__contains__
        elif not may_supply(project, module):
            return  # nothing its import closure spells can bind what is asked
        else:
            binds = lambda attribute: may_bind(project, module, attribute)  # noqa: E731
        if name is not None:
            if binds(name) and self._uses(local):
                resolved = project.resolve(f"{module}.{name}")
                if resolved is not None:
                    yield local, resolved
            return
        used = self._used_of(project, module, local, tainted if callees else names_of(project, module))
        # how the text reads an attribute off the module: ``local.Y``
        chain = None if local == "*" or self._escapes(local) else ".".join([local, *path_below(module, local)])
        for attribute in sorted(used):
            if binds(attribute):
                resolved = project.resolve(f"{module}.{attribute}")
                if resolved is not None:
                    yield attribute if local == "*" else local if chain is None else f"{chain}.{attribute}", resolved

    def _used_of(self, project: Project, module: str, local: str, starred: FrozenSet[str]) -> Set[str]:
        """The names of ``module``, bound whole to ``local`` (``*``: star-imported), that
        the text may use: of a star import, the public names of ``starred`` it spells; of a
        module used as a value, any attribute the text reads that the module may bind;
        else the attributes it reads off it (``local.Y``)."""
        if local == "*":
            return {u for u in self._spelt() & starred if not u.startswith("_")}
        if self._escapes(local):
            return self._attributes() & names_of(project, module)
        return attributes_read(self._text, module, local)

    def _attributes(self) -> Set[str]:
        """The attributes the text reads (``.Y``)."""
        if self._reads is None:
            self._reads = set(READ.findall(self._text))
        return self._reads

    def _without_imports(self) -> str:
        if self._bare is None:
            self._bare = without_imports(self._text)
        return self._bare

    def _uses(self, local: str) -> bool:
        """Whether the text spells ``local`` past its import statements."""
        used = self._used.get(local)
        if used is None:
            used = self._used[local] = local in self._words if self._words is not None else spells(self._without_imports(), local)
        return used

    def _spelt(self) -> Set[str]:
        """The words of the text past its import statements."""
        if self._words is None:
            self._words = set(WORD.findall(self._without_imports()))
        return self._words

    def _escapes(self, local: str) -> bool:
        """Whether the file may use the module it binds to ``local`` other than by reading
        an attribute off it (``m = paths``, ``f(paths)``): then any of its names may be used."""
        escapes = self._escaping.get(local)
        if escapes is None:
            bare = self._without_imports()
            escapes = any(not word_at(bare, m.start() - 1) for m in re.finditer(rf"{re.escape(local)}\b(?!\s*\.)", bare))
            self._escaping[local] = escapes
        return escapes


NONE_SUPPLIED = Supplied()


def supplied_to(text: str, path: str, locations: Locations, configured: bool = False) -> Supplied:
    """What the names ``text`` (the file ``path``) imports from project modules may be,
    as far as the scan cares (see ``Supplied``). Cheap first: a project module is
    summarised only when its text, or that of a project module it imports, may bind a
    scanned function or a location (``may_bind``)."""
    if "import" not in text:
        return NONE_SUPPLIED
    view = view_for(path, locations, configured)
    if view is None:
        return NONE_SUPPLIED
    imports = imports_of(text, view.package, view.project)
    return Supplied(view, text, imports) if imports else NONE_SUPPLIED
