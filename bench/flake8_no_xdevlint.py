"""Run flake8 as if xdevlint were not installed: the baseline for flake8 timings.

flake8 runs every installed plugin whatever `--select` says (it only filters what it
reports), so no flake8 option can keep xdevlint's plugin from costing time. flake8 7.x
finds plugins by iterating `importlib.metadata.distributions()`
(`flake8/plugins/finder.py`, `_find_importlib_plugins`); hiding the distribution named
`xdevlint` there means its plugin is never found, never imported, never run. Everything
else (interpreter, flake8, its other plugins, the arguments) stays the same, so the
difference from a plain `flake8` run is the plugin's cost alone.
"""
from __future__ import annotations

import importlib.metadata
import re
from collections.abc import Iterator
from typing import Any

HIDDEN = "xdevlint"
# flake8's own FLAKE8_GROUPS: only distributions with such entry points can be plugins.
FLAKE8_GROUPS = frozenset(("flake8.extension", "flake8.report"))

_distributions = importlib.metadata.distributions


def _normalize(name: str) -> str:
    """PEP 503 normalization, so `XDevLint` or `xdev_lint` spellings cannot slip through."""
    return re.sub(r"[-_.]+", "-", name).lower()


def distributions_without_xdevlint(**kwargs: Any) -> Iterator[importlib.metadata.Distribution]:
    """Every distribution except xdevlint.

    Metadata is parsed only for distributions that declare flake8 entry points, as flake8
    itself does, so the baseline pays no parsing that a plain run would not.
    """
    for dist in _distributions(**kwargs):
        if any(ep.group in FLAKE8_GROUPS for ep in dist.entry_points) and (
            _normalize(dist.metadata["Name"]) == HIDDEN
        ):
            continue
        yield dist


def main() -> int:
    """Patch plugin discovery, then hand sys.argv to flake8 unchanged."""
    importlib.metadata.distributions = distributions_without_xdevlint
    from flake8.main.cli import main as flake8_main  # type: ignore[import-untyped]

    return int(flake8_main())


if __name__ == "__main__":
    raise SystemExit(main())
