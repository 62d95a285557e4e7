"""Move a file or directory to its final path atomically, even across filesystems.

``os.rename``/``os.replace`` cannot cross a mount point: they fail with ``EXDEV``.
``shutil.move`` falls back to copying straight onto the final path, so a reader (or a
crash, or ``ENOSPC``) can see a partial file under the final name. ``safe_move``
instead copies into a hidden sibling of the destination, makes it durable and renames
it into place, so ``dst`` is always either the old entry or the complete new one.

This module is xdevlint's runtime helper. It uses only the standard library and imports
nothing else from xdevlint, so ``xdevlint --vendor-safemove PATH`` can copy it verbatim
into another package; code fixed by xdevlint then needs no run-time dependency on it.
The contract it implements is ``docs/SAFEMOVE.md`` in xdevlint's source repository.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import stat
import tempfile
import warnings
from typing import IO, Any, Callable, TypeVar, Union

__all__ = ["SafeMoveWarning", "safe_move"]

PathArg = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]
_DstT = TypeVar("_DstT", bound=PathArg)

_PRESERVE_CHOICES = ("all", "mode")
# Windows reports a cross-volume rename as ERROR_NOT_SAME_DEVICE.
_WINERROR_NOT_SAME_DEVICE = 17
# Filesystems (network, FUSE, some container mounts) refuse metadata changes with these;
# a rename would not have failed there, so neither may the copy.
_METADATA_ERRNOS = frozenset({errno.EPERM, errno.EACCES, errno.ENOTSUP, errno.EOPNOTSUPP})
# Some filesystems cannot fsync a directory; the rename is still done, only less durable.
_DIR_FSYNC_ERRNOS = frozenset({errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP})
_COPY_BUFSIZE = 1024 * 1024


class SafeMoveWarning(UserWarning):
    """``dst`` is complete but ``src`` could not be removed: the data exists twice."""


def safe_move(src: PathArg, dst: _DstT, *, preserve: str = "all") -> _DstT:
    """Move ``src`` (file, symlink or directory) to exactly ``dst``; return ``dst``.

    ``dst`` is the final path, never a directory to move into; an existing ``dst``
    entry (a symlink included) is replaced, never written through. Within one
    filesystem this is ``os.replace``. Only when that fails with ``EXDEV`` is ``src``
    copied into a staged sibling of ``dst`` that is fsynced and renamed onto ``dst``,
    then ``src`` is removed. ``preserve="all"`` keeps the mode and access/modification
    times, ``preserve="mode"`` only the mode. Any other error propagates unchanged,
    and a failed copy leaves ``src``, the old ``dst`` and no staged file behind.
    """
    if preserve not in _PRESERVE_CHOICES:
        raise ValueError(f"preserve must be one of {_PRESERVE_CHOICES!r}, not {preserve!r}")
    src_path = os.fsdecode(src)
    dst_path = os.fsdecode(dst)
    try:
        os.replace(src_path, dst_path)
        return dst
    except OSError as exc:
        if not _is_cross_device(exc):
            raise
        cross_device_error = exc
    # Copy outside the handler so a copy failure is not reported as raised
    # "during handling" of the EXDEV that merely chose this path.
    src_stat = os.lstat(src_path)
    if stat.S_ISDIR(src_stat.st_mode):
        _move_tree(src_path, dst_path, src_stat, preserve)
    elif stat.S_ISLNK(src_stat.st_mode):
        _move_symlink(src_path, dst_path, src_stat, preserve)
    elif stat.S_ISREG(src_stat.st_mode):
        _move_file(src_path, dst_path, preserve)
    else:
        # A FIFO, socket or device cannot be copied; the rename's own error says why.
        raise cross_device_error
    return dst


def _is_cross_device(exc: OSError) -> bool:
    """Only a rename's EXDEV proves the copy is needed (st_dev comparisons lie)."""
    return (
        exc.errno == errno.EXDEV
        or getattr(exc, "winerror", None) == _WINERROR_NOT_SAME_DEVICE
    )


def _move_file(src: str, dst: str, preserve: str) -> None:
    parent, name = _split_dst(dst)
    _refuse_unreplaceable(src, dst, src_is_dir=False)
    fd, staged = tempfile.mkstemp(dir=parent, prefix=f".{name}.", suffix=".tmp")
    try:
        _fill_staged_file(src, fd, staged, preserve)
        os.replace(staged, dst)
        _fsync_dir(parent)
    except BaseException:
        _unlink_quietly(staged)
        raise
    _remove_source(os.unlink, src, dst)


def _move_symlink(src: str, dst: str, src_stat: os.stat_result, preserve: str) -> None:
    """Move the link itself, as a rename would, not the file it points to."""
    parent, name = _split_dst(dst)
    _refuse_unreplaceable(src, dst, src_is_dir=False)
    staged = _symlink_beside(src, parent, name)
    try:
        _set_metadata(staged, src_stat, preserve, is_link=True)
        os.replace(staged, dst)
        _fsync_dir(parent)
    except BaseException:
        _unlink_quietly(staged)
        raise
    _remove_source(os.unlink, src, dst)


def _move_tree(src: str, dst: str, src_stat: os.stat_result, preserve: str) -> None:
    parent, name = _split_dst(dst)
    if _is_within(parent, src):
        # Possible across devices when a mount lies inside src; copying would recurse forever.
        raise OSError(errno.EINVAL, "cannot move a directory into itself", src, None, dst)
    _refuse_unreplaceable(src, dst, src_is_dir=True)
    stage = tempfile.mkdtemp(dir=parent, prefix=f".{name}.", suffix=".tmp")
    try:
        _copy_tree(src, stage, preserve)
        _set_metadata(stage, src_stat, preserve)
        _fsync_dir(stage)
        os.replace(stage, dst)
        _fsync_dir(parent)
    except BaseException:
        _remove_stage_tree(stage)
        raise
    _remove_source(shutil.rmtree, src, dst)


def _is_within(path: str, root: str) -> bool:
    """Whether path is root or lies below it, symlinks resolved."""
    real_root = os.path.realpath(root)
    try:
        return os.path.commonpath([real_root, os.path.realpath(path)]) == real_root
    except ValueError:  # different Windows drives
        return False


def _split_dst(dst: str) -> tuple[str, str]:
    """Directory and name of dst: the stage must sit in the same directory to rename atomically."""
    parent, name = os.path.split(dst.rstrip(os.sep + (os.altsep or "")) or dst)
    return parent or os.curdir, name


def _refuse_unreplaceable(src: str, dst: str, *, src_is_dir: bool) -> None:
    """Fail before copying when the final rename is bound to fail, with its errno.

    The final ``os.replace`` still decides; this only spares copying gigabytes first.
    """
    try:
        dst_stat = os.lstat(dst)
    except OSError:
        return  # absent (the usual case) or unreadable: the rename will tell
    if not stat.S_ISDIR(dst_stat.st_mode):
        if src_is_dir:
            raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), src, None, dst)
        return
    if not src_is_dir:
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), src, None, dst)
    with os.scandir(dst) as entries:
        if next(entries, None) is not None:
            raise OSError(errno.ENOTEMPTY, os.strerror(errno.ENOTEMPTY), src, None, dst)


def _fill_staged_file(src: str, fd: int, staged: str, preserve: str) -> None:
    """Copy src's bytes and metadata into the open staged file, make it durable, close it."""
    try:
        with open(src, "rb") as source:
            # Stat before reading: reading may update src's atime.
            src_stat = os.fstat(source.fileno())
            _copy_data(source, fd)
        _set_metadata(staged, src_stat, preserve)
        os.fsync(fd)
    except BaseException:
        # A second error from close() must not replace the one that matters.
        with contextlib.suppress(OSError):
            os.close(fd)
        raise
    os.close(fd)


def _copy_data(source: IO[bytes], fd: int) -> None:
    """Write all of source to fd; raw writes, so no buffered close() can fail later."""
    while True:
        chunk = source.read(_COPY_BUFSIZE)
        if not chunk:
            return
        view = memoryview(chunk)
        while view:
            # os.write may write less than asked; loop until all of the chunk is down.
            view = view[os.write(fd, view) :]


def _set_metadata(
    path: str, src_stat: os.stat_result, preserve: str, *, is_link: bool = False
) -> None:
    """Give the staged entry src's mode (it starts as 0600/0700) and, for "all", its times."""
    if not is_link:
        _tolerate_metadata_error(os.chmod, path, stat.S_IMODE(src_stat.st_mode))
    if preserve == "all" and (not is_link or os.utime in os.supports_follow_symlinks):
        _tolerate_metadata_error(
            os.utime,
            path,
            ns=(src_stat.st_atime_ns, src_stat.st_mtime_ns),
            follow_symlinks=not is_link,
        )


def _tolerate_metadata_error(func: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
    """Run a metadata call; a filesystem refusing it must not fail the move."""
    try:
        func(*args, **kwargs)
    except OSError as exc:
        if exc.errno not in _METADATA_ERRNOS:
            raise


def _fsync_dir(path: str) -> None:
    """Make the directory's entries durable, so a crash cannot undo a finished move."""
    if os.name != "posix":
        return  # Windows cannot open a directory for fsync
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError as exc:
        # A writable but unreadable directory (e.g. mode 0o333) cannot be opened.
        if exc.errno in (errno.EACCES, errno.EPERM):
            return
        raise
    try:
        os.fsync(fd)
    except OSError as exc:
        if exc.errno not in _DIR_FSYNC_ERRNOS:
            raise
    finally:
        os.close(fd)


def _symlink_beside(src: str, parent: str, name: str) -> str:
    """Recreate the symlink src under a fresh staged name in parent; return that name."""
    target = os.readlink(src)
    is_dir = os.path.isdir(src)  # only Windows needs to know what the link points to
    for _ in range(tempfile.TMP_MAX):
        staged = os.path.join(parent, f".{name}.{os.urandom(6).hex()}.tmp")
        try:
            os.symlink(target, staged, target_is_directory=is_dir)
        except FileExistsError:
            continue  # symlink() creates exclusively, so another name is simply tried
        return staged
    raise FileExistsError(errno.EEXIST, "no unused staging name", parent)


def _copy_tree(src: str, dst: str, preserve: str) -> None:
    """Copy src's entries into the existing directory dst: symlinks as symlinks.

    Like ``shutil.copytree(src, dst, symlinks=True, dirs_exist_ok=True)``, but it
    honours ``preserve`` for subdirectories, tolerates refused metadata (copytree's
    per-directory ``copystat`` would fail the whole move), fsyncs every file, and
    refuses FIFOs and devices instead of reading from them.
    """
    # Listing first keeps one directory fd open at a time however deep the tree is.
    with os.scandir(src) as it:
        entries = list(it)
    for entry in entries:
        target = os.path.join(dst, entry.name)
        if entry.is_symlink():
            # entry.is_dir() follows the link: only Windows needs to know its target's kind.
            os.symlink(os.readlink(entry.path), target, target_is_directory=entry.is_dir())
            _set_metadata(target, entry.stat(follow_symlinks=False), preserve, is_link=True)
        elif entry.is_dir(follow_symlinks=False):
            # Stat before copying: listing the subdirectory updates its atime.
            dir_stat = entry.stat(follow_symlinks=False)
            os.mkdir(target, 0o700)
            _copy_tree(entry.path, target, preserve)
            _set_metadata(target, dir_stat, preserve)
            _fsync_dir(target)
        elif entry.is_file(follow_symlinks=False):
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
            _fill_staged_file(entry.path, os.open(target, flags, 0o600), target, preserve)
        else:
            raise shutil.SpecialFileError(
                f"{entry.path!r} is not a regular file, directory or symlink"
            )


def _unlink_quietly(path: str) -> None:
    """Remove a staged file; only its absence is tolerated, never masking the real error."""
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)


def _remove_stage_tree(stage: str) -> None:
    """Remove a staged directory after a failure, even one holding read-only directories."""
    # Directories copied with a read-only mode would stop rmtree as a non-root user.
    with contextlib.suppress(OSError):
        os.chmod(stage, 0o700)
    for dirpath, dirnames, _ in os.walk(stage):
        for dirname in dirnames:
            path = os.path.join(dirpath, dirname)
            if not os.path.islink(path):  # chmod would follow it out of the stage
                with contextlib.suppress(OSError):
                    os.chmod(path, 0o700)
    shutil.rmtree(stage, ignore_errors=True)


def _remove_source(remove: Callable[[str], object], src: str, dst: str) -> None:
    """Remove src now that dst is durable; failing that, warn: nothing is lost."""
    try:
        remove(src)
    except OSError as exc:
        warnings.warn(
            f"moved {src!r} to {dst!r} but could not remove the source: {exc}",
            SafeMoveWarning,
            stacklevel=4,  # _remove_source <- _move_* <- safe_move <- caller
        )
