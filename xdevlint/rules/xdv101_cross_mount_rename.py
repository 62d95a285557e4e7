"""XDV101 cross-mount-rename."""

from __future__ import annotations

from typing import FrozenSet, Optional

from xdevlint.analysis.moves import Move
from xdevlint.rules._moves import MoveRule, describe


class CrossMountRename(MoveRule):
    """
    ## What it does
    Flags `os.rename`, `os.replace`, `os.renames`, `os.link`, `Path.rename`,
    `Path.replace` and `Path.hardlink_to` calls whose source and destination lie in
    different locations (by default `temp` and `cache`), however the function was
    imported or aliased.

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
    This rule reports only; automatic fixes are not offered yet.

    ## Options
    - `[tool.xdevlint.locations.NAME]`: the locations and how they are recognised
      (`env`, `names`, `paths`, `calls`, and their `extend-` forms).
    """

    CODE = "XDV101"
    NAME = "cross-mount-rename"
    MESSAGE = "`{function}` moves a {source} path to {destination}; a rename cannot cross mount points (EXDEV)"

    def check(self, move: Move, source: FrozenSet[str], destination: FrozenSet[str]) -> Optional[str]:
        if source and destination and source != destination:
            return self.MESSAGE.format(
                function=move.function, source=describe(source), destination=describe(destination)
            )
        return None
