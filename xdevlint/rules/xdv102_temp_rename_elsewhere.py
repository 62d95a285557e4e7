"""XDV102 temp-rename-elsewhere."""

from __future__ import annotations

from typing import FrozenSet, Optional

from xdevlint.analysis.locations import TEMP
from xdevlint.analysis.moves import Move
from xdevlint.rules._moves import MoveRule


class TempRenameElsewhere(MoveRule):
    """
    ## What it does
    Flags rename-like calls (`os.rename`, `os.replace`, `Path.rename`, ...) that move
    a path in the `temp` location to a destination whose location is unknown: not
    shown to be in the same directory or the same location as the source.

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
    This rule reports only; automatic fixes are not offered yet.

    ## Options
    - `[tool.xdevlint.locations.temp]`: what counts as the temp location.
    """

    CODE = "XDV102"
    NAME = "temp-rename-elsewhere"
    MESSAGE = "`{function}` moves a temp path to a destination of unknown location; it fails with EXDEV if that is another mount"

    def check(self, move: Move, source: FrozenSet[str], destination: FrozenSet[str]) -> Optional[str]:
        if TEMP in source and not destination:
            return self.MESSAGE.format(function=move.function)
        return None
