"""Paths on the command line -> the Python files to check.

Directories are walked recursively for ``*.py`` and ``*.pyi``; excluded names are
pruned as the walk goes; a directory reached twice (a symlink loop) is skipped.
Files named explicitly are checked whatever their name, unless ``force_exclude``.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from typing import Callable, Iterator, Optional, Set, Tuple

from xdevlint.config import Config

PYTHON_SUFFIXES = (".py", ".pyi")
STDIN = "-"


@dataclass(frozen=True)
class Candidate:
    """A file to check; ``problem`` says why it cannot be opened, if we know already."""

    path: str
    problem: Optional[str] = None


def discover(paths: Tuple[str, ...], config_for: Callable[[str], Config], force_exclude: bool = False) -> Iterator[Candidate]:
    seen_files: Set[str] = set()
    seen_dirs: Set[Tuple[int, int]] = set()
    for path in paths:
        if path == STDIN:
            yield Candidate(STDIN)
            continue
        if os.path.isdir(path):
            for found in _walk(path, config_for, seen_dirs):
                if found.path not in seen_files:
                    seen_files.add(found.path)
                    yield found
            continue
        if force_exclude and config_for(path).is_excluded(path):
            continue
        if path in seen_files:
            continue
        seen_files.add(path)
        yield Candidate(path, _problem(path))


def _walk(top: str, config_for: Callable[[str], Config], seen: Set[Tuple[int, int]]) -> Iterator[Candidate]:
    try:
        info = os.stat(top)
    except OSError as error:
        yield Candidate(top, f"cannot read directory: {error.strerror}")
        return
    key = (info.st_dev, info.st_ino)
    if key in seen:
        return
    seen.add(key)
    try:
        with os.scandir(top) as listing:
            entries = sorted(listing, key=lambda e: e.name)
    except OSError as error:
        yield Candidate(top, f"cannot read directory: {error.strerror}")
        return
    for entry in entries:
        path = os.path.join(top, entry.name) if top != "." else entry.name
        try:
            is_dir = entry.is_dir()
            is_file = entry.is_file()
        except OSError:
            is_dir = is_file = False
        if config_for(path).is_excluded(path):
            continue
        if is_dir:
            yield from _walk(path, config_for, seen)
        elif entry.name.endswith(PYTHON_SUFFIXES):
            if is_file:
                yield Candidate(path)
            else:  # a dangling symlink, a symlink loop, a FIFO: say so, never open it
                yield Candidate(path, _problem(path))


def _problem(path: str) -> Optional[str]:
    """Why ``path`` cannot be read as a file, or None. A FIFO nobody writes to would
    block the run forever when opened, so only regular files are read."""
    try:
        info = os.stat(path)
    except OSError as error:
        reason = (error.strerror or str(error)).lower()
        return f"broken symbolic link ({reason})" if os.path.islink(path) else reason
    if not stat.S_ISREG(info.st_mode):
        return "not a regular file"
    return None
