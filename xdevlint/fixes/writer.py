"""Writing a fixed file without ever losing it: the fixer takes its own medicine.

``write_fixed`` writes only when the bytes changed; it stages the new bytes in a
hidden temp file in the same directory (``mkstemp(dir=...)``, so the final step is a
same-filesystem rename), ``fsync``s it, gives it the file's permission bits (and,
best effort, its owner), ``os.replace``s it over the file and ``fsync``s the
directory. A reader sees the old file or the new one, never a mix; a crash leaves
the old file and at most a stray ``.<name>.*.xdevlint`` temp.

Decisions, documented for users:

- **Symlinks**: a symlinked file is fixed where it points. The link target (resolved
  with ``os.path.realpath``) is replaced and the link itself is left alone, as an
  editor saving through the link would. Replacing the link with a regular file
  would silently fork the content.
- **Concurrent edits**: if the file's bytes changed since they were read (an editor
  saved meanwhile), nothing is written and ``WriteError`` says so.
- **Read-only files** are not written (``WriteError``): replacing them would bypass
  the permission that says "do not change me".
- **A full disk** (or any failure while staging) leaves the file as it was and no
  staged temp behind, and is reported as a ``WriteError``, never a traceback.
- Replacing gives the file a new inode, so other hard links to it keep the old content.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from typing import Optional, Tuple


class WriteError(Exception):
    """Why a fixed file was not written; the file on disk is untouched."""


def write_fixed(path: str, original: bytes, fixed: bytes) -> bool:
    """Replace ``path``'s content ``original`` with ``fixed``; False when they are equal."""
    if fixed == original:
        return False
    target = os.path.realpath(path)
    try:
        info = os.stat(target)
        with open(target, "rb") as handle:
            current = handle.read()
    except OSError as error:
        raise WriteError(f"cannot read {path} again before writing: {error.strerror or error}") from None
    if current != original:
        raise WriteError(f"{path} changed on disk while it was being fixed; not written")
    if not os.access(target, os.W_OK):
        raise WriteError(f"{path} is not writable; not written")
    try:
        write_atomic(target, fixed, stat.S_IMODE(info.st_mode), (info.st_uid, info.st_gid))
    except OSError as error:  # a full disk, a quota, a directory made read-only meanwhile
        raise WriteError(f"cannot write {path}: {error.strerror or error}; the file is unchanged") from None
    return True


def write_atomic(target: str, data: bytes, mode: int, owner: Optional[Tuple[int, int]] = None) -> None:
    """Stage ``data`` beside ``target`` and rename it into place with ``mode`` (and
    ``owner``, when the process may set it)."""
    directory, name = os.path.split(target)
    fd, staged = tempfile.mkstemp(dir=directory or ".", prefix=f".{name}.", suffix=".xdevlint")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(staged, stat.S_IMODE(mode))  # mkstemp made it 0600
        if owner is not None and hasattr(os, "chown") and owner != _owner(staged):
            with contextlib.suppress(OSError):  # only root may give a file away; the mode still holds
                os.chown(staged, *owner)
        os.replace(staged, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(staged)
        raise
    _fsync_directory(directory or ".")


def _owner(path: str) -> Tuple[int, int]:
    info = os.stat(path)
    return info.st_uid, info.st_gid


def _fsync_directory(directory: str) -> None:
    """Make the rename durable; some filesystems (and Windows) cannot, which is fine."""
    if os.name != "posix":
        return
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
