"""XDV000: a file xdevlint could not check. Reported by the engine, not by a visitor."""

from __future__ import annotations

from xdevlint.model import ANALYSIS_ERROR_CODE, ANALYSIS_ERROR_NAME
from xdevlint.rules.documented import Documented


class AnalysisError(Documented):
    """
    ## What it does
    Reports a file xdevlint could not check: it cannot be read or decoded, Python cannot
    parse it, it is nested too deeply to analyse, or the analysis failed (or, with
    `--jobs`, took longer than `--timeout`). The message says which.

    ## Why is this bad?
    A file that was not checked must not pass as a clean one: its moves may break across
    mount points like any other.

    Only files that the cheap pre-scan keeps are parsed: a file in which no selected rule
    can apply (no move call, no temp factory, no cache or temp location word) is not
    parsed, so its syntax errors are left to Python, flake8 or ruff. Under flake8, files
    Python cannot parse are reported by flake8 itself (E999).

    ## Example
    ```python
    import os, tempfile
    os.rename(tempfile.mktemp(), "/var/cache/app/data"
    ```

    ## Use instead
    ```python
    import tempfile
    from xdevlint.safemove import safe_move
    safe_move(tempfile.mktemp(), "/var/cache/app/data")
    ```

    ## Fix safety
    There is no fix: the file has to be made readable and parsable first.

    ## Options
    XDV000 is reported whatever `select` says; `ignore = ["XDV000"]` (or `--ignore`,
    `--extend-ignore`, `per-file-ignores`) turns it off.
    """

    CODE = ANALYSIS_ERROR_CODE
    NAME = ANALYSIS_ERROR_NAME
    MESSAGE = "cannot check this file"
