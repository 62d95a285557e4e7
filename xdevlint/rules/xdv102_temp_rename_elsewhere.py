"""XDV102 temp-rename-elsewhere."""

from __future__ import annotations

from xdevlint.analysis.moves import STAGED_IN, STAGED_OUT, TEMP_IN, TEMP_OUT
from xdevlint.rules._moves import MoveRule


class TempRenameElsewhere(MoveRule):
    """
    ## What it does
    Flags rename-like calls (`os.rename`, `os.replace`, `Path.rename`, ...) that move
    a path in the `temp` location to a destination whose location is unknown: not
    shown to be in the same directory or the same location as the source.

    A temp that `tempfile` made with `dir=X` is staged in X: moving it anywhere not
    shown to be in X (a parameter, another root) is flagged too, unless both are in the
    same known location. `dir=` exempts the move when X is the destination's directory
    (`dir=os.path.dirname(dst)`, `dir=Path(dst).parent`, `dir=root` then
    `os.path.join(root, name)`). So is a path of unknown location moved onto a new temp
    (`os.rename(tree, tempfile.mkdtemp())`). Names that say temp-dir (`*temp_dir*`,
    `*tmp_dir*`, `*staging_dir*`, `*scratch_dir*`) count as temp when nothing better is
    known. Same-module helpers are judged at their calls, and renames with a copy
    fallback are not flagged, as for XDV101.

    ## Why is this bad?
    The temp directory is often its own filesystem (a tmpfs, an ephemeral volume).
    Moving out of it with `rename(2)` works only when the destination happens to be
    on the same filesystem; elsewhere it fails with `EXDEV`, and the staged file stays
    behind.

    ## Example
    ```python
    import os
    import tempfile

    def publish(data, dst):
        fd, tmp = tempfile.mkstemp()
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, dst)
    ```

    ## Use instead
    Stage the file in the destination's directory:
    ```python
    import os
    import tempfile

    def publish(data, dst):
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(dst))
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, dst)
    ```

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
       be the one creating the destination's directory.
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

    A finding at the call of a helper gets no fix (see XDV101). With the default
    `shutil.move`, neither does a move onto a directory `mkdtemp()` made: `shutil.move`
    would move into it, where the rename replaced it.

    ## Options
    - `move-function`, `move-function-atomic`: what the second fix calls, and whether
      it is atomic (which makes that fix safe).
    - `[tool.xdevlint.locations.temp]`: what counts as the temp location (its `names`
      are the temp-dir patterns above).
    """

    CODE = "XDV102"
    NAME = "temp-rename-elsewhere"
    FIX_TITLE = "Create the temp in the destination's directory, or move with `move-function`"
    MESSAGE = "{mover} moves a temp path to a destination of unknown location; it fails with EXDEV if that is another mount"
    MESSAGES = {
        TEMP_OUT: MESSAGE,
        STAGED_OUT: (
            "{mover} moves a temp staged in {directory} to a destination not shown to be in that directory;"
            " it fails with EXDEV if that is another mount"
        ),
        TEMP_IN: "{mover} moves a path of unknown location onto a new temp path; it fails with EXDEV if that is another mount",
        STAGED_IN: (
            "{mover} moves a path not shown to be in {directory} onto a new temp path there;"
            " it fails with EXDEV if that is another mount"
        ),
    }
