"""The project modules cached results rest on, in tables the entries share.

With the project index on, a file's result rests on other modules of its project, at
times thousands of them (a module of a package whose ``__init__`` imports all the
others). Listed in each entry, they made a warm run over the ecosystem corpus read
600 MB of packs and compare 3.4 million records. So each run that records results
writes one *table* of every module they rest on, a row each: path, mtime (ns), size
and a digest of the bytes; an entry holds the table's id and the set of its rows as a
bit set (hex). A lookup checks each row of a table once per run, and an entry with one
AND of two integers.

A row holds while the module has the same stamp, or, when only the stamp moved (a
``touch``, a ``git checkout``), the same digest; the row then takes the new stamp (the
bytes are the ones it recorded, so every entry that uses it keeps its meaning) and the
table is written again. Tables are never otherwise changed: a run adds a table of its
own with a fresh id, so runs sharing a cache never renumber each other's rows. A table
that is missing or malformed leaves the entries that use it unused, to be checked and
recorded again.
"""

from __future__ import annotations

import hashlib
import json
import os
import uuid
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Set

from xdevlint.model import Dependencies, Stamp

FORMAT = 1


def read_document(path: Path, version: int) -> Optional[Dict[str, Any]]:
    """The JSON object a cache file holds, if its ``format`` is ``version`` (each kind of
    cache file has its own); None when the file is missing or unreadable, or holds anything
    else: a cache that cannot tell serves nothing."""
    try:
        with open(path, "rb") as handle:
            data = json.loads(handle.read())
    except (OSError, ValueError, RecursionError):
        return None
    return data if isinstance(data, dict) and data.get("format") == version else None


def content_digest(data: bytes) -> str:
    """The digest a row records of a module's bytes (``cache_texts`` records the same, and
    hands it over: the two must agree)."""
    return hashlib.blake2b(data, digest_size=16).hexdigest()


class _Table:
    """One table's rows, and which of them no longer hold (worked out once per run)."""

    def __init__(self, rows: List[List[Any]]) -> None:
        self.rows = rows
        self.stale: Optional[int] = None  # a bit per row that does not hold


_UNREAD: Any = object()  # a table not looked for yet


class Tables:
    """The tables in ``directory``: read as entries ask, the run's own written by ``save``."""

    def __init__(self, directory: Path, known: Callable[[str, Stamp], Optional[str]] = lambda path, stamp: None) -> None:
        self.directory = directory
        #: The digest of a module's bytes at a stamp, when another part of the cache has it
        #: (``cache_texts``): recording a result of a big import closure then reads no module.
        self._known = known
        self._tables: Dict[str, Optional[_Table]] = {}
        self._refreshed: Set[str] = set()
        self._stamps: Dict[str, Optional[Stamp]] = {}
        self._digests: Dict[str, Optional[str]] = {}
        self._id: Optional[str] = None
        self._rows: List[List[Any]] = []
        self._row_of: Dict[str, int] = {}
        #: ``record_set``'s answers, by the set: files that import the same modules share it.
        self._sets: Dict[Dependencies, Optional[List[str]]] = {}

    # -- lookups --------------------------------------------------------------------

    def hold(self, value: Any) -> bool:
        """Whether every module an entry's ``deps`` value names still holds its bytes
        (False for a value of any unexpected shape). Called for every entry of a warm
        run: kept to a few operations."""
        if not value:
            return isinstance(value, list)  # []: it rests on no other module
        try:
            name, rows = value
            bits = int(rows, 16)
        except (TypeError, ValueError):
            return False
        table = self._tables.get(name, _UNREAD) if type(name) is str else None
        if table is _UNREAD:
            table = self._tables[name] = _read_table(self.directory / f"{name}.json") if name.isalnum() else None
        if table is None or bits <= 0 or bits >> len(table.rows):
            return False
        stale = table.stale if table.stale is not None else self._stale(name, table)
        return not bits & stale

    def _stale(self, name: str, table: _Table) -> int:
        """A bit for each row of ``table`` that no longer holds (each file looked at once per run)."""
        stale = 0
        stamps = self._stamps
        for number, row in enumerate(table.rows):
            path, mtime, size, digest = row
            stamp = stamps[path] if path in stamps else self._stamp(path)
            if stamp == (mtime, size):
                continue
            if stamp is not None and stamp[1] == size and self._digest(path, stamp) == digest:
                row[1] = stamp[0]  # the same bytes: recorded with the new stamp
                self._refreshed.add(name)
            else:
                stale |= 1 << number
        table.stale = stale
        return stale

    def _stamp(self, path: str) -> Optional[Stamp]:
        if path not in self._stamps:
            try:
                info = os.stat(path)
            except OSError:
                self._stamps[path] = None
            else:
                self._stamps[path] = (info.st_mtime_ns, info.st_size)
        return self._stamps[path]

    def _digest(self, path: str, stamp: Stamp) -> Optional[str]:
        """The digest of the file's bytes if it still has ``stamp`` once read (else it is
        changing under us, and None says nothing can be trusted of it)."""
        if path not in self._digests:
            digest: Optional[str] = None
            try:
                with open(path, "rb") as handle:
                    data = handle.read()
                    info = os.fstat(handle.fileno())
            except OSError:
                pass
            else:
                if (info.st_mtime_ns, info.st_size) == stamp:
                    digest = content_digest(data)
            self._digests[path] = digest
        return self._digests[path]

    # -- recording ------------------------------------------------------------------

    def record(self, dependencies: Dependencies, itself: str) -> Optional[List[str]]:
        """The ``deps`` value of an entry whose result rests on ``dependencies`` (but the
        file ``itself``, which its key covers), or None when one of them no longer has
        the stamp it was read with (the result may be of its old bytes)."""
        numbers: List[int] = []
        for path, stamp in dependencies:
            if path == itself:
                continue
            number = self._row_of.get(path)
            if number is None:
                digest = self._known(path, stamp) or (self._digest(path, stamp) if self._stamp(path) == stamp else None)
                if digest is None:
                    return None
                number = self._row_of[path] = len(self._rows)
                self._rows.append([path, stamp[0], stamp[1], digest])
            elif (self._rows[number][1], self._rows[number][2]) != stamp:
                return None
            numbers.append(number)
        if not numbers:
            return []
        bits = 0
        for number in numbers:
            bits |= 1 << number
        if self._id is None:
            self._id = uuid.uuid4().hex
        return [self._id, format(bits, "x")]

    def record_set(self, texts: Dependencies) -> Optional[List[str]]:
        """``record`` for the module texts of import closures (``model.Closure``), which
        may hold the file itself (its key covers it, so its row only repeats that): the
        same set is recorded once per run."""
        if texts not in self._sets:
            self._sets[texts] = self.record(texts, "")
        return self._sets[texts]

    @property
    def changed(self) -> bool:
        """Whether ``save`` has a table to write."""
        return bool(self._refreshed) or bool(self._rows)

    def save(self, write: Callable[[Path, str], None]) -> None:
        """Write (with ``write``, atomic) this run's table and the tables whose rows took
        new stamps, before the packs whose entries use them. ``OSError`` is the caller's."""
        writes = [(name, self._tables[name]) for name in sorted(self._refreshed)]
        if self._id is not None and self._rows:
            writes.append((self._id, _Table(self._rows)))
        if not writes:
            return
        self.directory.mkdir(parents=True, exist_ok=True)
        for name, table in writes:
            if table is not None:
                write(self.directory / f"{name}.json", json.dumps({"format": FORMAT, "rows": table.rows}))
        self._refreshed.clear()
        if self._id is not None:
            self._tables[self._id] = _Table(self._rows)
            self._id, self._rows, self._row_of, self._sets = None, [], {}, {}


def _read_table(path: Path) -> Optional[_Table]:
    """A table's rows, or None when it is missing or anything about it is unexpected."""
    data = read_document(path, FORMAT)
    rows = data.get("rows") if data is not None else None
    if not isinstance(rows, list):
        return None
    for row in rows:
        if not (
            isinstance(row, list) and len(row) == 4 and isinstance(row[0], str) and type(row[1]) is int
            and type(row[2]) is int and isinstance(row[3], str)
        ):
            return None
    return _Table(rows)
