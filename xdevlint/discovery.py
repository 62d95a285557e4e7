"""Paths on the command line -> the Python files to check.

Directories are walked recursively for ``*.py`` (a stub, ``*.pyi``, never runs, so no move
or temp of it can happen: one named on the command line is read and has no findings); excluded names are
pruned as the walk goes; a directory reached twice (a symlink loop) is skipped, and so
is a virtualenv (a directory holding ``pyvenv.cfg``, whatever its name). Inside a git
repository the walk skips what git ignores, as ruff does: ``.gitignore`` files (a
deeper one wins), ``.git/info/exclude`` and git's global excludes file, matched by
``pathspec``'s gitwildmatch (``respect-gitignore = false`` turns this off).
Paths named on the command line are checked whatever their name, as ruff does: a file,
and a directory (``xdevlint check build/``, a package named ``build``, a ``venv`` folder
in a project), whose contents are then excluded by what lies below it only; unless
``force-exclude`` (``--force-exclude``, which the pre-commit hooks pass), which applies
the excludes and git's ignores to named paths too.
"""

from __future__ import annotations

import functools
import os
import stat
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, FrozenSet, Iterator, Optional, Set, Tuple

from xdevlint.config import Config

if TYPE_CHECKING:
    from pathspec import GitIgnoreSpec

PYTHON_SUFFIXES = (".py",)
STDIN = "-"
VENV_MARKER = "pyvenv.cfg"


@dataclass(frozen=True)
class Candidate:
    """A file to check; ``problem`` says why it cannot be opened, if we know already."""

    path: str
    problem: Optional[str] = None


#: The ignore files that apply in a directory, least to most specific: each is the
#: absolute directory its patterns are relative to, and the patterns.
Ignores = Tuple[Tuple[str, "GitIgnoreSpec"], ...]
#: One pattern of one ignore file: the file's patterns (by identity: they are made once
#: per file, ``_spec_of``) and its index there.
Pattern = Tuple[int, int]


def discover(paths: Tuple[str, ...], config_for: Callable[[str], Config], force_exclude: bool = False) -> Iterator[Candidate]:
    """The files to check under ``paths``; ``force_exclude`` (or ``force-exclude`` in the
    configuration of a path) applies the excludes to the named paths themselves."""
    seen_files: Set[str] = set()
    seen_dirs: Set[Tuple[int, int]] = set()
    for path in paths:
        if path == STDIN:
            yield Candidate(STDIN)
            continue
        if os.path.isdir(path):
            config = config_for(os.path.join(path, "x.py"))
            forced = force_exclude or config.force_exclude
            respect = config.respect_gitignore
            ignores = _ignores_above(path) if respect else None
            absolute = os.path.abspath(path)
            if forced and (config_for(path).is_excluded(path) or ignores and _is_ignored(absolute, True, ignores)):
                continue
            # A named directory git ignores is walked all the same: only what is ignored
            # below it, by a pattern other than the one that ignores it, is skipped.
            inherited = frozenset() if forced or not ignores else frozenset(filter(None, [_ignored_by(absolute, True, ignores)]))
            walk = _walk(path, config_for, seen_dirs, respect, ignores, None if forced else path, inherited, is_root=True)
            for found in walk:
                if found.path not in seen_files:
                    seen_files.add(found.path)
                    yield found
            continue
        config = config_for(path)
        if force_exclude or config.force_exclude:
            if config.is_excluded(path):
                continue
            if config.respect_gitignore and os.path.isfile(path):
                parent = os.path.dirname(path) or "."
                ignores = _ignores_above(parent, include_top=True)
                if ignores and _is_ignored(os.path.abspath(path), False, ignores):
                    continue
        if path in seen_files:
            continue
        seen_files.add(path)
        yield Candidate(path, _problem(path))


def _walk(
    top: str,
    config_for: Callable[[str], Config],
    seen: Set[Tuple[int, int]],
    respect: bool,
    ignores: Optional[Ignores],
    named: Optional[str] = None,
    inherited: FrozenSet[Pattern] = frozenset(),
    is_root: bool = False,
) -> Iterator[Candidate]:
    """``respect``: honour git's ignore files; ``ignores``: those that apply here, None
    outside a repository; ``named``: the directory named on the command line this walk
    started from, whose own name and those above it no exclude matches (None: they do,
    with ``force-exclude``); ``inherited``: the ignore patterns that ignore ``named``
    itself, which ignore nothing below it; ``is_root``: ``top`` was named on the command
    line, so it is walked even if it is a virtualenv."""
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
    names = {entry.name for entry in entries}
    if VENV_MARKER in names and not is_root:
        return  # a virtualenv's installed packages are not the project's code
    absolute = os.path.abspath(top)
    if respect:
        if ".git" in names and (ignores is None or not is_root):  # a repository's root
            ignores = _repository_ignores(absolute)
        if ".gitignore" in names and ignores is not None:
            ignores = (*ignores, *_spec_of(absolute, os.path.join(absolute, ".gitignore")))
    for entry in entries:
        path = os.path.join(top, entry.name) if top != "." else entry.name
        try:
            is_dir = entry.is_dir()
            is_file = entry.is_file()
        except OSError:
            is_dir = is_file = False
        if config_for(path).is_excluded(path, named):
            continue
        if is_dir:
            if ignores and _is_ignored(os.path.join(absolute, entry.name), True, ignores, inherited):
                continue
            yield from _walk(path, config_for, seen, respect, ignores, named, inherited)
        elif entry.name.endswith(PYTHON_SUFFIXES):
            if ignores and _is_ignored(os.path.join(absolute, entry.name), False, ignores, inherited):
                continue
            if is_file:
                yield Candidate(path)
            else:  # a dangling symlink, a symlink loop, a FIFO: say so, never open it
                yield Candidate(path, _problem(path))


def _is_ignored(absolute: str, is_dir: bool, ignores: Ignores, inherited: FrozenSet[Pattern] = frozenset()) -> bool:
    """Whether git ignores ``absolute``, by a pattern not in ``inherited``."""
    pattern = _ignored_by(absolute, is_dir, ignores)
    return pattern is not None and pattern not in inherited


def _ignored_by(absolute: str, is_dir: bool, ignores: Ignores) -> Optional[Pattern]:
    """The pattern that makes git ignore ``absolute``, if one does: the most specific
    ignore file with a pattern that matches decides (a later pattern, or a deeper file's,
    may re-include with ``!``)."""
    for base, spec in reversed(ignores):
        relative = os.path.relpath(absolute, base)
        if relative.startswith(".."):
            continue
        if os.sep != "/":
            relative = relative.replace(os.sep, "/")
        decision = spec.check_file(relative + "/" if is_dir else relative)
        if decision.include is not None:
            return (id(spec), decision.index or 0) if decision.include else None
    return None


def _ignores_above(directory: str, include_top: bool = False) -> Optional[Ignores]:
    """The ignore files that apply to entries of ``directory``: the global and repository
    excludes and each ``.gitignore`` from the repository's root down to ``directory``'s
    parent (``directory``'s own too with ``include_top``; the walk reads it as it lists
    the directory). Outside a repository git ignores nothing, and neither does xdevlint."""
    absolute = os.path.abspath(directory)
    folders = [absolute] if include_top else []
    current = absolute
    while not os.path.exists(os.path.join(current, ".git")):
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent
        folders.append(current)
    ignores = _repository_ignores(current)
    for folder in reversed(folders):
        ignores = (*ignores, *_spec_of(folder, os.path.join(folder, ".gitignore")))
    return ignores


@functools.lru_cache(maxsize=64)
def _repository_ignores(root: str) -> Ignores:
    """The repository's base ignores: git's global excludes file, then ``info/exclude``.
    The root's own ``.gitignore`` is read when the walk lists the root."""
    return (*_spec_of(root, _global_excludes()), *_spec_of(root, os.path.join(_git_directory(root), "info", "exclude")))


def _git_directory(root: str) -> str:
    """``root/.git``, or where a worktree's or submodule's ``.git`` file points (its
    ``commondir``, which holds ``info/exclude``, for a worktree)."""
    dot_git = os.path.join(root, ".git")
    if os.path.isdir(dot_git):
        return dot_git
    try:
        with open(dot_git, encoding="utf-8") as handle:
            first = handle.readline().strip()
    except OSError:
        return dot_git
    if not first.startswith("gitdir:"):
        return dot_git
    git_dir = os.path.join(root, first[len("gitdir:") :].strip())
    try:
        with open(os.path.join(git_dir, "commondir"), encoding="utf-8") as handle:
            return os.path.normpath(os.path.join(git_dir, handle.read().strip()))
    except OSError:
        return git_dir


@functools.lru_cache(maxsize=1)
def _global_excludes() -> str:
    """git's ``core.excludesFile``, else its default ``$XDG_CONFIG_HOME/git/ignore``."""
    import subprocess  # only in a git work tree: its import costs a clean run's start-up

    try:
        done = subprocess.run(
            ["git", "config", "--path", "--get", "core.excludesFile"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, timeout=10, check=False,
        )
        configured = done.stdout.strip() if done.returncode == 0 else ""
    except (OSError, subprocess.SubprocessError):  # no git here: its default still applies
        configured = ""
    if configured:
        return os.path.expanduser(configured)
    config_home = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return os.path.join(config_home, "git", "ignore")


@functools.lru_cache(maxsize=1024)
def _spec_of(base: str, path: str) -> Ignores:
    """The patterns of the ignore file ``path`` (relative to ``base``); () if unreadable."""
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            lines = handle.read().splitlines()
    except OSError:
        return ()
    from pathspec import GitIgnoreSpec

    return ((base, GitIgnoreSpec.from_lines(lines)),)


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
