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
    for memo in (_PACKAGES, _ROOTS, _ROOT_OF, _NUMBERS, _SETS):
        memo.clear()
    _NUMBERED.clear()
