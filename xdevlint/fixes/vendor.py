"""``xdevlint --vendor-safemove PATH``: copy ``xdevlint.safemove`` into a user's package.

Fixed code then calls the package's own copy, so it needs no run-time dependency on
xdevlint. ``PATH`` is a directory (the module is written as ``PATH/_safemove.py``) or
a file name ending in ``.py``. An existing file is replaced only if it is an earlier
vendored copy (it starts with the marker line below): nothing else is overwritten.
The copy is the module's source verbatim, after a header naming its origin.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Optional

from xdevlint import __version__, safemove
from xdevlint.fixes.writer import write_atomic

DEFAULT_NAME = "_safemove.py"
MARKER = "# Vendored from xdevlint.safemove by `xdevlint --vendor-safemove`"


class VendorError(Exception):
    """Why nothing was written."""


@dataclass(frozen=True)
class Vendored:
    path: str
    module: Optional[str]  # its dotted name, when its directory is a package
    changed: bool

    @property
    def move_function(self) -> Optional[str]:
        return f"{self.module}.safe_move" if self.module else None


def vendored_source() -> str:
    with open(safemove.__file__, encoding="utf-8") as handle:
        source = handle.read()
    header = (
        f"{MARKER} (xdevlint {__version__}).\n"
        "# Do not edit: re-run the command to update it. Standard library only.\n"
    )
    return header + source


def vendor(path: str) -> Vendored:
    target = os.path.join(path, DEFAULT_NAME) if os.path.isdir(path) else path
    if not target.endswith(".py"):
        raise VendorError(f"{path}: expected a directory or a file name ending in .py")
    directory = os.path.dirname(os.path.abspath(target))
    if not os.path.isdir(directory):
        raise VendorError(f"{directory}: no such directory")
    content = vendored_source().encode("utf-8")
    try:
        with open(target, "rb") as handle:
            existing: Optional[bytes] = handle.read()
    except FileNotFoundError:
        existing = None
    except OSError as error:
        raise VendorError(f"{target}: cannot read: {error.strerror or error}") from None
    if existing is not None and not existing.startswith(MARKER.encode()):
        raise VendorError(f"{target} exists and is not a vendored safemove; not overwritten")
    module = _dotted_name(target)
    if existing == content:
        return Vendored(target, module, changed=False)
    try:
        if existing is not None:
            mode = os.stat(target).st_mode
        else:
            umask = os.umask(0)  # a new file gets what open() would give it, not mkstemp's 0600
            os.umask(umask)
            mode = 0o666 & ~umask
        write_atomic(os.path.realpath(target), content, mode)
    except OSError as error:
        raise VendorError(f"{target}: cannot write: {error.strerror or error}") from None
    return Vendored(target, module, changed=True)


def _dotted_name(target: str) -> Optional[str]:
    """``pkg.sub._safemove`` when ``target``'s directory is a package (has ``__init__.py``)."""
    directory, name = os.path.split(os.path.abspath(target))
    parts = [name[: -len(".py")]]
    if not parts[0].isidentifier():
        return None
    while os.path.isfile(os.path.join(directory, "__init__.py")):
        directory, package = os.path.split(directory)
        if not package.isidentifier():
            return None
        parts.insert(0, package)
    return ".".join(parts) if len(parts) > 1 else None
