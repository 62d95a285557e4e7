"""Where a project's modules are, and how what was read of them is noted.

The project index (``project``) and its text filter (``project_text``) share these: the
search roots of a file (the directory above its top package, the project root), a
module's absolute name for a relative import, a file's stamp (what decides whether what
was read of it still holds), and the numbering that lets a set of module texts travel
as an int's bits.
"""

from __future__ import annotations

import os
import sys
from typing import Dict, FrozenSet, List, Optional, Tuple

from xdevlint.model import Stamp

#: Files whose presence marks a project root.
ROOT_MARKERS = ("pyproject.toml", "setup.cfg", ".git")
#: Directories that hold installed code: the index never looks for modules in them.
_INSTALLED = frozenset({"site-packages", "dist-packages"})
STDLIB: FrozenSet[str] = frozenset(getattr(sys, "stdlib_module_names", ())) | {"builtins", "os", "posixpath", "ntpath"}


def absolute_module(module: Optional[str], level: int, package: str) -> Optional[str]:
    """The absolute name ``from <level dots><module> import`` means in ``package``."""
    if not level:
        return module
    parts = package.split(".") if package else []
    if level - 1 > len(parts) or level - 1 == len(parts) and not module:
        return None  # beyond the top package
    base = parts[: len(parts) - (level - 1)]
    if module:
        base.append(module)
    return ".".join(base) or None


def top_package(path: str) -> Tuple[str, str, bool]:
    """``(search root, dotted module name, is a package)`` of the file ``path``: the
    directory above its top package (walking up while ``__init__.py`` exists)."""
    directory, base = os.path.split(os.path.abspath(path))
    stem = base[:-3] if base.endswith(".py") else base
    is_package = stem == "__init__"
    search, package = _package_of(directory)
    return search, ".".join(filter(None, [package, "" if is_package else stem])), is_package


def module_file(root: str, parts: List[str]) -> Optional[Tuple[str, bool]]:
    """The file of the module whose dotted name is ``parts`` below search root ``root``
    (its ``__init__.py`` for a package), and whether it is a package; None when there is
    none. From each directory's listing, read once a process: a big project's imports
    ask of tens of thousands of names, most of them not its own (``torch``, a function
    imported from a package, which may have been a submodule), and a listing answers
    them all for one look at the disk."""
    directory = root
    for part in parts[:-1]:
        if _listing(directory).get(part) is not True:
            return None
        directory = os.path.join(directory, part)
    entries, last = _listing(directory), parts[-1]
    if entries.get(last) is True and _listing(os.path.join(directory, last)).get("__init__.py") is False:
        return os.path.join(directory, last, "__init__.py"), True
    if entries.get(last + ".py") is False:
        return os.path.join(directory, last + ".py"), False
    return None


def _listing(directory: str) -> Dict[str, bool]:
    """``_entries`` of ``directory``, read once until ``layout_changed`` sees it change."""
    known = _LISTINGS.get(directory)
    if known is not None:
        return known[1]
    stamp = stamp_of(directory)
    found = _LISTINGS[directory] = (stamp, _entries(directory))
    return found[1]


def _entries(directory: str) -> Dict[str, bool]:
    """The directories (True) and files (False) in ``directory``, symbolic links followed
    (a broken one is neither); none when it cannot be listed."""
    found: Dict[str, bool] = {}
    try:
        with os.scandir(directory) as entries:
            for entry in entries:
                try:
                    if entry.is_dir():
                        found[entry.name] = True
                    elif entry.is_file():
                        found[entry.name] = False
                except OSError:
                    continue
    except OSError:
        pass
    return found


#: Each directory listed, with its stamp when it was: a file added, removed or renamed
#: in it changes the directory's mtime (``layout_changed``).
_LISTINGS: Dict[str, Tuple[Optional[Stamp], Dict[str, bool]]] = {}


def layout_changed() -> bool:
    """Whether a directory listed since the last call has gained or lost a module or a
    package (a directory): a long-running process (the server) asks now and then, as it
    looks for changed module texts; where modules are, and every answer resting on that,
    may have changed then. A directory whose stamp moved is listed again, and only a
    change of what may be a module counts: ``--fix`` writes each file through a temporary
    one beside it, which leaves the modules as they were."""
    changed = False
    for directory, (stamp, entries) in list(_LISTINGS.items()):
        now = stamp_of(directory)
        if now != stamp:
            fresh = _entries(directory)
            changed = changed or _modules(fresh) != _modules(entries)
            _LISTINGS[directory] = (now, fresh)
    if changed:
        _LAYOUT[0] += 1
        _PACKAGES.clear()  # an ``__init__.py`` added or removed makes or unmakes a package
    return changed


def _modules(entries: Dict[str, bool]) -> Dict[str, bool]:
    """The entries of a listing that may be a module (``name.py``) or a package (a directory)."""
    return {name: kind for name, kind in entries.items() if kind or name.endswith(".py")}


def layout() -> int:
    """The number of changes ``layout_changed`` has seen: what was found of where modules
    are holds while it stays the same."""
    return _LAYOUT[0]


_LAYOUT = [0]


def _package_of(directory: str) -> Tuple[str, str]:
    """(the directory above the top package holding ``directory``, the dotted package
    ``directory`` is, "" when none): once per directory a process sees (every file of
    it asks)."""
    found = _PACKAGES.get(directory)
    if found is None:
        parts: List[str] = []
        above = directory
        while os.path.isfile(os.path.join(above, "__init__.py")):
            above, name = os.path.split(above)
            parts.insert(0, name)
            if not name:
                break
        found = _PACKAGES[directory] = (above, ".".join(parts))
    return found


_PACKAGES: Dict[str, Tuple[str, str]] = {}


def project_root(path: str) -> Optional[str]:
    """The closest directory above ``path`` holding a ``pyproject.toml``, ``setup.cfg`` or ``.git``."""
    start = os.path.dirname(os.path.abspath(path))
    if start in _ROOT_OF:
        return _ROOT_OF[start]
    directory = start
    root: Optional[str] = None
    while True:
        found = _ROOTS.get(directory)
        if found is None:
            found = any(os.path.exists(os.path.join(directory, m)) for m in ROOT_MARKERS)
            _ROOTS[directory] = found
        if found:
            root = directory
            break
        parent = os.path.dirname(directory)
        if parent == directory:
            break
        directory = parent
    _ROOT_OF[start] = root
    return root


_ROOTS: Dict[str, bool] = {}  # whether a directory holds a marker
_ROOT_OF: Dict[str, Optional[str]] = {}  # the answer for a file of a directory


def installed(directory: str) -> bool:
    return any(part in _INSTALLED for part in directory.split(os.sep))


def stamp_of(path: str) -> Optional[Stamp]:
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return (stat.st_mtime_ns, stat.st_size)


def stamp_seen(path: str) -> Optional[Stamp]:
    """The file's stamp, read once until ``forget_stamps``: each file's check asks it of
    every module it reads, and a sweep (``project_text.sweep``) looks for changes between
    checks (then forgets them)."""
    if path not in _STAMPS:
        _STAMPS[path] = stamp_of(path)
    return _STAMPS[path]


def forget_stamps() -> None:
    _STAMPS.clear()


_STAMPS: Dict[str, Optional[Stamp]] = {}


#: Every module text (path, stamp) the filter has read, numbered, so that a set of them
#: (an import closure: thousands, for every module of a big project) is an int's bits:
#: small, quick to join, and nothing for the garbage collector to walk. Only a result
#: cache needs the set itself (``Project.dependencies``).
_NUMBERS: Dict[Tuple[str, Stamp], int] = {}
_NUMBERED: List[Tuple[str, Stamp]] = []


def number(path: str, stamp: Stamp) -> int:
    """The bit of module text (path, stamp)."""
    number = _NUMBERS.get((path, stamp))
    if number is None:
        number = _NUMBERS[(path, stamp)] = len(_NUMBERED)
        _NUMBERED.append((path, stamp))
    return 1 << number


def numbered_texts(bits: int) -> FrozenSet[Tuple[str, Stamp]]:
    """The module texts (path, stamp) whose bits are set: one object for the same bits
    (files that import the same modules share their closures; the result cache records
    each such set once, by it)."""
    known = _SETS.get(bits)
    if known is None:
        digits = bin(bits)[:1:-1]  # the lowest bit first
        found = []
        index = digits.find("1")
        while index != -1:
            found.append(_NUMBERED[index])
            index = digits.find("1", index + 1)
        if len(_SETS) >= _SETS_KEPT:
            _SETS.clear()  # a run's files come a directory at a time: the recent ones are what repeat
        known = _SETS[bits] = frozenset(found)
    return known


_SETS: Dict[int, FrozenSet[Tuple[str, Stamp]]] = {}
_SETS_KEPT = 256


def forget() -> None:
    """Drop what this process remembers of where modules are (for tests: a cold run)."""
    for memo in (_PACKAGES, _ROOTS, _ROOT_OF, _NUMBERS, _SETS, _LISTINGS, _STAMPS):
        memo.clear()
    _NUMBERED.clear()
