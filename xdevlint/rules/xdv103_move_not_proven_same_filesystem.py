"""XDV103 move-not-proven-same-filesystem."""

from __future__ import annotations

from xdevlint.analysis.locations import Locations
from xdevlint.analysis.moves import UNPROVEN
from xdevlint.rules._moves import MoveRule
from xdevlint.stages.scan import Scan


class MoveNotProvenSameFilesystem(MoveRule):
    """
    ## What it does
    Off by default (`extend-select = ["XDV103"]` turns it on). Flags every rename-like
    call (`os.rename`, `os.replace`, `os.renames`, `os.link`, `Path.rename`,
    `Path.replace`, `Path.hardlink_to`, however imported, aliased or handed to another
    call) whose two sides are not proven to stay on one filesystem, whatever its
    source: the moves XDV101 and XDV102 leave, because nothing shows where the source
    was staged. That includes sources staged only by a name (`self.tmp_dir`, `*.part`,
    `get_temp_dir()`), by a temp made with `dir=` a directory the analysis cannot
    follow, or by the function's own write: on real code such a staging place is as
    often beside the destination as not, so XDV102 stays quiet about them.

    The proof is XDV102's: sibling names (`dst + ".tmp"`, `dst.with_suffix(".part")`,
    `join(dirname(dst), x)`), a temp made with `dir=` the destination's directory, one
    root named on both sides, one directory descriptor. A move inside a function of the
    module is judged with what every call of it in the module passes (or hands it with
    its arguments: `asyncio.to_thread(f, a, b)`); a move whose
    `except OSError` clause falls back to a copy is not reported.

    Turn it on for storage code that must never depend on two paths sharing a
    filesystem: a cache, a package installer, a backup or sync tool, anything that
    moves files between directories a user or an operator chooses. Leave it off for
    application code, where most moves stay inside one tree that the code cannot name
    as one.

    ## Why is this bad?
    `rename(2)` fails with `EXDEV` when its two paths are on different filesystems.
    Two directories that sit on one disk on a developer's machine are often separate
    mounts in a container, a CI runner or a user's home (a tmpfs, a network share, a
    bind mount), and a move between them then fails every time.

    ## Example
    ```python
    import os

    def archive(path, archive_dir):
        os.replace(path, os.path.join(archive_dir, os.path.basename(path)))
    ```

    ## Use instead
    Move with a function that copies across filesystems when it must, atomically for
    readers of the destination:
    ```python
    import os

    from xdevlint.safemove import safe_move

    def archive(path, archive_dir):
        safe_move(path, os.path.join(archive_dir, os.path.basename(path)))
    ```

    ## Fix safety
    The configured `move-function` replaces the call, as for XDV101 and XDV102: safe
    when that function is atomic (`xdevlint.safemove.safe_move`, or your own with
    `move-function-atomic = true`) and the call's value is unused; unsafe with the
    default `shutil.move`, which copies straight onto the final path. `os.link` and
    `Path.hardlink_to` get no fix, nor does a move function handed to another call.

    ## Options
    - `move-function`, `move-function-atomic`: what the fix calls, and whether it is atomic.
    """

    CODE = "XDV103"
    NAME = "move-not-proven-same-filesystem"
    FIX_TITLE = "Move with `move-function`"
    MESSAGE = (
        "{mover} moves a path to a destination not proven to be on the same filesystem{callers};"
        " a rename across mount points fails with EXDEV"
    )
    MESSAGES = {UNPROVEN: MESSAGE}

    @classmethod
    def may_apply(cls, scan: Scan, locations: Locations) -> bool:
        return scan.has_move_call()
