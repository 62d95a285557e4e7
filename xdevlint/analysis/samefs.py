"""The same-filesystem proof: when the two sides of a move provably stay on one filesystem.

Every move rule asks here, and so does XDV201 when it weighs a move's own failure: a
rename whose sides are proven to stay on one filesystem cannot fail with ``EXDEV``.

A proof is a relation between the symbolic names the interpreter gives paths
(``values.Value.idents``: the path is each of them; ``within``: it lies at or below each
of them), never a name's spelling:

- sibling names share their directory: ``dst + ".tmp"``, ``f"{dst}.{pid}"``,
  ``dst.with_suffix(".part")``, ``dst.parent / x``, ``join(dirname(dst), x)``;
- a temp made with ``dir=`` the destination's directory lies in it, and so does a path
  inside a temp directory made in that directory (``mkdtemp(dir=D)``); a temp whose prefix
  is a path of a known location (``mkdtemp(prefix=f"{cache_entry}.")``) lies beside that
  path, since ``os.path.join`` drops the temp directory before an absolute part;
- two paths built below one root that the code names on both sides
  (``join(root, "tmp", n)`` and ``join(root, "new", n)``), a parameter, ``self.root``, an
  environment variable, the same call's result;
- relative names resolved against the same directory descriptor
  (``src_dir_fd=fd, dst_dir_fd=fd``);
- an open file's ``.name`` is the path it was opened on (``open(dst + ".tmp", "w").name``).

Below a shared directory another filesystem could still be mounted; code that stages
beside its destination does not expect one, and neither does this proof.
"""

from __future__ import annotations

from typing import Optional, Tuple

from xdevlint.analysis.values import Literal, Parent, Shape, Token, Value, parent_of

#: How many directories up from a path the proof looks for a root the other side shares.
_DEPTH = 4


def at_or_below(value: Value, directory: Token) -> bool:
    """Whether every path ``value`` may be lies at or below ``directory``."""
    return all(_shape_at_or_below(shape, directory) for shape in value.shapes)


def _shape_at_or_below(shape: Shape, directory: Token) -> bool:
    idents, within = shape
    if directory in within:
        return True
    if isinstance(directory, Literal):
        return any(isinstance(t, Literal) and directory.holds(t) for t in (*idents, *within))
    while isinstance(directory, Parent):
        directory = directory.of
        if directory in idents:
            return True
    return False


def _below_one_root(a: Shape, b: Shape) -> bool:
    """Whether ``b`` lies below a directory that holds ``a``: one ``a`` lies within, or
    one of the first few ancestors of a name ``a`` has."""
    idents, within = a
    if any(_shape_at_or_below(b, directory) for directory in within):
        return True
    for ident in idents:
        directory: Token = parent_of(ident)
        # Spelled-out paths share ancestors whatever their mounts (``/tmp/x``, ``/var/cache/y``):
        # only the directory a literal names is its own.
        for _ in range(1 if isinstance(ident, Literal) else _DEPTH):
            if _shape_at_or_below(b, directory):
                return True
            directory = parent_of(directory)
    return False


def together(a: Value, b: Value) -> bool:
    """Whether ``a`` and ``b`` provably lie below one directory, whichever path each is
    where branches met: the same tree, so (but for a mount point inside it) the same
    filesystem."""
    return all(_below_one_root(x, y) or _below_one_root(y, x) for x in a.shapes for y in b.shapes)


def proven(source: Value, destination: Value, dir_fds: Optional[Tuple[Value, Value]] = None) -> bool:
    """Whether a move of ``source`` to ``destination`` provably stays on one filesystem.

    ``dir_fds``: the values of the call's ``src_dir_fd`` and ``dst_dir_fd``, when it
    passes both: relative names under one descriptor share its directory."""
    if together(source, destination):
        return True
    if dir_fds is not None:
        src_fd, dst_fd = dir_fds
        if src_fd.idents & dst_fd.idents and not _absolute(source) and not _absolute(destination):
            return True
    return False


def _absolute(value: Value) -> bool:
    """A path spelled out from ``/``: a descriptor does not apply to it."""
    return value.literal is not None and value.literal.startswith("/")
