"""XDV102 staged-move-not-proven."""

from __future__ import annotations

from xdevlint.analysis.moves import STAGED, STAGED_IN
from xdevlint.rules._moves import MoveRule


class StagedMoveNotProven(MoveRule):
    """
    ## What it does
    Flags rename-like calls (`os.rename`, `os.replace`, `os.renames`, `os.link`,
    `Path.rename`, `Path.replace`, `Path.hardlink_to`, however imported, aliased or
    handed to another call such as `loop.run_in_executor(None, os.rename, a, b)`, and
    the project's own `rename`/`replace`/`renames` imported from a sibling module, such as
    `from .posixemulation import rename`) that move a *staged* path to a destination not
    proven to be on the same filesystem. The project's own function is reported but not
    rewritten: it may do more than `os`'s.

    A path is staged when the code made it to be moved: any `tempfile` form
    (`mkstemp`, `mkdtemp`, `NamedTemporaryFile(...).name`, a path inside a temp
    directory), `urllib.request.urlretrieve(url)`, a file a download cache fetched
    (`cached_path(url)`, `hf_hub_download(...)`), a path in a known location (the
    temp or cache location, or one you configure), a name that says so (`tmp_path`,
    `self.staging_dir`, `incomplete_path`, `get_temp_download_dir()`, `*.part`), or a
    file the function itself opened for writing. XDV102 reports a staged path only
    when the code also says *where* it was staged: `tempfile` made it with no `dir=`
    (in the temp directory), `urlretrieve` downloaded it there, a download cache's call
    fetched it into that cache (without `local_dir=`), or it lies below
    `gettempdir()`, a spelled-out path of a location (`"/tmp/x"`, `"~/.cache/x"`), a
    location's environment variable (`$TMPDIR`) or a library's location
    (`platformdirs.user_cache_dir()`). A source staged only by a name, by a temp made
    with `dir=` a directory xdevlint cannot follow, or by the function's own write lies
    where the project chose, on real code as often beside its destination as not: its
    move is left to XDV103. A new temp in the temp directory as the *destination*
    counts too. A name (the variable's, or the maker's), or the function's own write,
    is no evidence for a path that a function xdevlint cannot see into made from the
    destination, or from what the destination was made from (`temp_filename =
    prepend_extension(filename, "temp")` or `name = _tmp_name(filename)` moved onto
    `filename`): it names a variant of that path, wherever it lies.

    The two sides are proven to stay on one filesystem when they share a directory
    (`dst + ".tmp"`, `f"{dst}.{pid}"`, `dst.with_suffix(".part")`, `dst.parent / x`,
    `join(dirname(dst), x)`, `os.sep.join([dirname(dst), x])`, `d / f"{n}.tmp"` and
    `d / n`: only a path is divided by a string), when the temp was made with `dir=`
    the destination's directory (or inside a temp directory made there; a backport's
    `TemporaryDirectory(dir=d)` counts as tempfile's) or with a prefix that is a path of
    a known location beside it (`mkdtemp(prefix=f"{entry}.")` with `entry` in the cache:
    an absolute prefix drops the temp directory), when both are built below one root the
    code names on both sides, or relative to one directory
    descriptor (`src_dir_fd=fd, dst_dir_fd=fd`). A name's spelling never proves anything.

    A move inside a function of the module is judged with what every call of that
    function in the module passes (a hand-off with its arguments counts as a call:
    `asyncio.to_thread(f, a, b)`, `loop.run_in_executor(None, f, a, b)`,
    `executor.submit(f, a, b)`; `map(f, paths)` does not), and reported once, at the
    move, with those calls as related locations. A move whose `except OSError` clause
    falls back to a copy (or checks for `errno.EXDEV`) is not reported.

    ## Why is this bad?
    A staged file usually lives where its writer put it: the temp directory (often a
    tmpfs or an ephemeral volume), a download or staging directory from a setting, a
    cache. `rename(2)` works only when the destination happens to be on the same
    filesystem; elsewhere it fails with `EXDEV`, and the staged file stays behind.
    Nothing in the code says the two are on one filesystem, so the move works on a
    laptop and fails in the container where they are not.

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
       be the one creating the destination's directory. When the temp is left behind on
       some error path (XDV201), the fix also removes it on every such path, one edit for
       both findings (as XDV101's); where no one rewrite can, `dir=` alone is unsafe.
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
    instead. Neither does a move function handed to another call, nor, with the default
    `shutil.move`, a move onto a directory `mkdtemp()` made: `shutil.move` would move
    into it, where the rename replaced it.

    ## Options
    - `move-function`, `move-function-atomic`: what the second fix calls, and whether
      it is atomic (which makes that fix safe).
    - `[tool.xdevlint.locations.NAME]`: the locations (a path in any of them is staged).
    """

    CODE = "XDV102"
    NAME = "staged-move-not-proven"
    FIX_TITLE = "Create the temp in the destination's directory, or move with `move-function`"
    MESSAGE = (
        "{mover} moves a staged path ({why}) to a destination not proven to be on the same filesystem{callers};"
        " a rename across mount points fails with EXDEV"
    )
    MESSAGES = {
        STAGED: MESSAGE,
        STAGED_IN: (
            "{mover} moves a path onto a new temp path not proven to be on its filesystem{callers};"
            " a rename across mount points fails with EXDEV"
        ),
    }
