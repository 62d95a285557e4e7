"""XDV101 cross-mount-rename."""

from __future__ import annotations

from xdevlint.analysis.locations import Locations
from xdevlint.analysis.moves import CROSS
from xdevlint.rules._moves import MoveRule
from xdevlint.stages.scan import Scan


class CrossMountRename(MoveRule):
    """
    ## What it does
    Flags `os.rename`, `os.replace`, `os.renames`, `os.link`, `Path.rename`,
    `Path.replace` and `Path.hardlink_to` calls whose source and destination lie in
    different locations (by default `temp` and `cache`), however the function was
    imported or aliased.

    A function of the same module that renames its parameters (`def publish(src, dst):
    os.rename(src, dst)`) is judged with the paths every call of it in the module passes:
    the finding is on the rename, once, with the calls that pass a temp and a cache path
    as related locations. Paths proven to stay on one filesystem
    (`mkstemp(dir=os.path.dirname(dst))` then `os.replace(tmp, dst)`; see XDV102 for the
    proof) are never flagged, nor is a rename whose `except OSError` handler copies
    instead (XDV201 still checks that the source is removed after the copy).

    ## Why is this bad?
    `rename(2)` and `link(2)` cannot cross filesystems: they fail with `EXDEV`
    ("Invalid cross-device link"). `/tmp` is often a tmpfs or an ephemeral volume
    while a cache sits on a persistent one, so the move works on a laptop and fails in
    a container. If the error is then swallowed, the staged file is orphaned and the
    disk fills, as it did for the Xet migration workers.

    ## Example
    ```python
    import os
    import tempfile

    def store(data, name):
        fd, tmp = tempfile.mkstemp()
        os.write(fd, data)
        os.close(fd)
        os.replace(tmp, os.path.join(os.environ["HF_HOME"], name))
    ```

    ## Use instead
    Create the temporary file beside its destination, so the rename stays inside one
    directory (and one filesystem) and remains atomic:
    ```python
    import os
    import tempfile

    def store(data, name):
        dst = os.path.join(os.environ["HF_HOME"], name)
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(dst))
        os.write(fd, data)
        os.close(fd)
        os.replace(tmp, dst)
    ```
    or move with `xdevlint.safemove.safe_move(src, dst)`, which falls back to an
    atomic copy when the rename fails with `EXDEV`.

    ## Fix safety
    Two fixes, in this order of preference:

    1. **At the source** (safe): when the temp is created (`mkstemp`, `mkdtemp`,
       `mktemp`, `NamedTemporaryFile`, `TemporaryDirectory`) in the same function, only
       this call moves it, the destination's directory can be computed at the creation
       from names bound before it and not reassigned in between, and nothing in between
       creates a directory (`os.makedirs`, `os.mkdir`, `Path.mkdir`), the fix adds
       `dir=<the destination's directory>` to the creation. The rename then stays inside
       one directory and remains atomic. (The temp is visible in that directory while it
       is written, as in every atomic-write recipe.) An explicit `dir=` other than
       `None` or `tempfile.gettempdir()` is left alone, and so is `os.renames`, which may
       be the one creating the destination's directory. When the temp is left behind on
       some error path (XDV201), staging it beside the destination would leave that
       leftover where nothing cleans it: the fix then also removes the temp on every
       such path (XDV201's removal), one edit for both findings, which keeps the
       program's behaviour except for the bug; where no one rewrite can remove it on
       every path (or nothing ever does: XDV203), `dir=` alone is unsafe.
    2. **The configured `move-function`**: `os.rename`, `os.replace`, `os.renames`,
       `Path.rename` and `Path.replace` calls become `move(src, dst)`, importing it where
       imports go (or reusing an import already there). Safe only when the function is
       atomic — `xdevlint.safemove.safe_move`, or your own with
       `move-function-atomic = true` — and the call's value is unused. With the default,
       `shutil.move`, it is unsafe: `shutil.move` copies straight onto the final path,
       so a reader can see a partial file and a crash leaves a truncated one. A used
       value makes it unsafe too (`os.replace` returns `None`, a move function its
       destination; `Path.rename`'s new path is kept as `Path(move(...))`), and so does
       `os.renames`, which also creates the destination's parents and prunes the
       emptied source directories.

    `os.link` and `Path.hardlink_to` get no automatic fix: a copy is not a link, and
    no rewrite keeps both names pointing at one file. Stage the file beside the link
    instead.

    A rename inside a helper is fixed there, for every caller: the move-function rewrite
    makes it safe whatever the callers pass. A move function handed to another call
    (`run_in_executor(None, os.rename, a, b)`) gets no fix: there is no call to rewrite.

    ## Options
    - `move-function`, `move-function-atomic`: what the second fix calls, and whether
      it is atomic (which makes that fix safe).
    - `[tool.xdevlint.locations.NAME]`: the locations and how they are recognised
      (`env`, `names`, `paths`, `calls`, and their `extend-` forms). A name pattern
      matches names, attributes and parameters, and calls when it names a directory
      (`*temp_dir*` matches `get_temp_dir()`).
    """

    CODE = "XDV101"
    NAME = "cross-mount-rename"
    FIX_TITLE = "Create the temp in the destination's directory, or move with `move-function`"
    MESSAGE = "{mover} moves a {source} path to {destination}{callers}; a rename cannot cross mount points (EXDEV)"
    MESSAGES = {CROSS: MESSAGE}

    @classmethod
    def may_apply(cls, scan: Scan, locations: Locations) -> bool:
        return (
            scan.contains_any(locations.scan_tokens())
            and scan.has_move_call()
            and scan.has_location_source(locations)
        )
