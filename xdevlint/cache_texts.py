"""The project index's facts of module texts, kept in the result cache between runs.

With the project index on, a file's scan reads the import closure of the project modules
it imports (``analysis.project_text``): 2,500 modules for a file of transformers. A
pre-commit call checks the files that changed, whose results the cache cannot serve, so
it read them all again each time. This keeps each module's ``Facts`` (its import items,
its helpers that may rename or make a temp, whether it reads an alias) in one file per
cache (``texts/facts.json``), by path with the stamp and a digest of the bytes they are of,
with whether the text may spell a location (``Facts.marks``, asked by files that move).
Facts hold while the module has the same stamp or, when only the stamp moved (a
``touch``, a ``git checkout``), the same bytes.

What the closure search then still reads is the text of the modules changed since, and
of those whose text a question needs (a module whose imports bring a helper). Anything
unexpected in the file is ignored and rewritten; it is written atomically, merged with
what another run wrote meanwhile.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Tuple

from xdevlint.cache_modules import content_digest, read_document
from xdevlint.model import Dependencies, Stamp

if TYPE_CHECKING:  # only the types: the cache is imported with the index off too
    from xdevlint.analysis.locations import Locations
    from xdevlint.analysis.project_text import Facts

FORMAT = 1


class TextFacts:
    """The kept facts in ``path``: read when first asked, this run's written by ``save``
    (a ``TextStore`` for ``project_text.use_store``)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._entries: Optional[Dict[str, Any]] = None
        self._held: Dict[str, Any] = {}
        self._read_at: Optional[Tuple[int, int, int]] = None  # the file's (inode, mtime, size) when read
        self._new: Dict[str, List[Any]] = {}
        self._new_held: Dict[str, Any] = {}

    def _load(self) -> Dict[str, Any]:
        if self._entries is None:
            self._read_at = _identity(self.path)
            self._entries, self._held = _read(self.path)
        return self._entries

    def facts(self, path: str, stamp: Stamp) -> Optional["Facts"]:
        entry = self._load().get(path)
        if not isinstance(entry, list) or len(entry) != 7:
            return None
        mtime, size, digest, items, helpers, alias_read, marks = entry
        if not (_items(items) and type(helpers) is list and all(type(h) is str for h in helpers) and _marks(marks)):
            return None
        if (mtime, size) != stamp:
            if size != stamp[1] or digest != _digest_of_file(path):
                return None
            self._new[path] = [stamp[0], *entry[1:]]  # the same bytes: kept with the new stamp
        from xdevlint.analysis.project_text import Facts

        return Facts(items, frozenset(helpers), alias_read is True, marks)  # items as lists: ``_Item``s all the same

    def learnt(self, path: str, stamp: Stamp, data: bytes, facts: "Facts") -> None:
        self._new[path] = [
            stamp[0], stamp[1], content_digest(data), [list(item) for item in facts.items], sorted(facts.helpers), facts.alias_read,
            dict(facts.marks),
        ]

    def marked(self, path: str, stamp: Stamp, key: str, marked: bool) -> None:
        entry = self._kept(path, stamp)
        if entry is not None and isinstance(entry[6], dict):
            self._new[path] = [*entry[:6], {**entry[6], key: marked}]

    def digest(self, path: str, stamp: Stamp) -> Optional[str]:
        """The digest of module ``path``'s bytes, if its facts are kept with ``stamp``."""
        entry = self._kept(path, stamp)
        return entry[2] if entry is not None and isinstance(entry[2], str) else None

    def _kept(self, path: str, stamp: Stamp) -> Optional[List[Any]]:
        """The entry of ``path``, learnt this run or read, if it is kept with ``stamp``."""
        entry = self._new.get(path)
        if entry is None and self._entries is not None:
            entry = self._entries.get(path)
        return entry if isinstance(entry, list) and len(entry) == 7 and (entry[0], entry[1]) == stamp else None

    def held(self, key: str) -> Any:
        """The record (``cache_modules``) of the texts against which the closure answers of
        ``key`` (``closure_key``) were last found to hold, or None."""
        self._load()
        return self._new_held.get(key) or self._held.get(key)

    def found_held(self, key: str, record: List[str]) -> None:
        """The closure answers of ``key`` hold against the texts ``record`` records: a later
        run that finds those texts unchanged need not ask again."""
        self._new_held[key] = record

    @property
    def changed(self) -> bool:
        """Whether ``save`` has facts to write."""
        return bool(self._new or self._new_held)

    def save(self, write: Callable[[Path, str], None]) -> None:
        """Write (with ``write``, atomic) the facts learnt this run, merged with the file as
        it is now. ``OSError`` is the caller's."""
        if not self._new and not self._new_held:
            return
        unchanged = self._entries is not None and self._read_at is not None and _identity(self.path) == self._read_at
        merged, held = (self._entries, self._held) if unchanged and self._entries is not None else _read(self.path)
        merged.update(self._new)
        for key, record in self._new_held.items():  # the newest last: what the bound keeps
            held.pop(key, None)
            held[key] = record
        if len(held) > _HELD_KEPT:
            held = dict(list(held.items())[-_HELD_KEPT:])
        self.path.parent.mkdir(parents=True, exist_ok=True)
        write(self.path, json.dumps({"format": FORMAT, "modules": merged, "held": held}, separators=(",", ":")))
        self._entries, self._held, self._read_at, self._new, self._new_held = merged, held, _identity(self.path), {}, {}


#: How many ``held`` records a cache keeps: one per checked file whose closure changed,
#: and a file checked again records another; the oldest go first.
_HELD_KEPT = 20_000


def closure_key(texts: Any, answers: Any) -> str:
    """The key of a closure record's texts and answers, as ``Cache.put`` wrote them."""
    return hashlib.blake2b(json.dumps([texts, answers], sort_keys=True).encode(), digest_size=16).hexdigest()


def answers_hold(roots: Any, answers: Any, store: TextFacts) -> Optional[Dependencies]:
    """The module texts the closures of ``answers``' modules rest on now, if the filter
    gives each of those modules the names it gave when they were recorded
    (``model.Closure``; the facts come from ``store`` where it has them); None if one
    differs, or if the record is not what ``Cache.put`` writes."""
    if not (type(roots) is list and roots and all(type(r) is str for r in roots) and type(answers) is dict):
        return None
    from xdevlint.analysis import project_text
    from xdevlint.analysis.locations import Locations
    from xdevlint.analysis.project import Project

    if not _ANY_LOCATIONS:
        _ANY_LOCATIONS.append(Locations())
    project = Project(tuple(roots), _ANY_LOCATIONS[0], scanned_only=True)  # the locations play no part
    previous = project_text.use_store(store)
    try:
        for module, names in answers.items():
            if type(names) is not list or project_text.callee_names(project, module) != frozenset(names):
                return None
    finally:
        project_text.use_store(previous)
    closure = project.closure()
    return closure.texts if closure is not None else frozenset()


#: The locations ``answers_hold``'s projects are made with (made once: it compiles patterns).
_ANY_LOCATIONS: List["Locations"] = []


def _items(value: Any) -> bool:
    """Whether ``value`` is a list of import items (``project_text._Item``, as lists)."""
    if type(value) is not list:
        return False
    for item in value:
        if type(item) is not list or len(item) != 3:
            return False
        spec, name, local = item
        if type(name) is not str or spec is not None and type(spec) is not str or local is not None and type(local) is not str:
            return False
    return True


def _marks(value: Any) -> bool:
    """Whether ``value`` is ``Facts.marks`` as kept: a dict of booleans."""
    return type(value) is dict and all(type(marked) is bool for marked in value.values())


def _read(path: Path) -> Tuple[Dict[str, Any], Dict[str, Any]]:
    """The kept facts by module path and the ``held`` records, or none when the file is
    missing or unexpected."""
    data = read_document(path, FORMAT)
    if data is None:
        return {}, {}
    modules, held = data.get("modules"), data.get("held")
    return modules if isinstance(modules, dict) else {}, held if isinstance(held, dict) else {}


def _identity(path: Path) -> Optional[Tuple[int, int, int]]:
    """What changes when a run writes the file (each write replaces it: a new inode)."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return (info.st_ino, info.st_mtime_ns, info.st_size)


def _digest_of_file(path: str) -> Optional[str]:
    try:
        with open(path, "rb") as handle:
            return content_digest(handle.read())
    except OSError:
        return None
