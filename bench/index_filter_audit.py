"""The project index's text filter never says no where its resolution finds something.

The scan's gates ask the filter (``analysis.project_text``) before any module is parsed:
``callee_names`` whether a module's name may be a move alias or a helper that renames
or makes a temp, ``may_bind`` whether it may be a location. A "no" drops the file; so
for every module-level name of every module of the corpus that the full resolution
(``Project.resolve``, what the analysis uses) finds a scanned callee or a location in,
the filter must say "may". This prints each name it does not, and exits 1 on any.

    python bench/index_filter_audit.py [--corpus DIR ...]

The default corpus is the ecosystem check's sources (``bench/ecosystem.py`` downloads
them). Names of a project's stdlib modules resolve to nothing: audit real projects.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import List, Optional, Sequence, Tuple

from xdevlint.analysis import project, project_text
from xdevlint.analysis.locations import DEFAULT
from xdevlint.analysis.project_text import SCANNED_CALLEES

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import corpus_files  # noqa: E402

CORPUS = Path("~/.cache/xdevlint-ecosystem/src").expanduser()


def audit(path: Path) -> Tuple[int, List[str]]:
    """How many of the module's names resolve to something, and those the filter rules out."""
    view = project.view_for(str(path), DEFAULT)
    summary = view.project.summary(view.module) if view is not None else None
    if view is None or summary is None:
        return 0, []
    resolved_names = 0
    missed: List[str] = []
    for name in sorted(summary.bindings):
        resolved = view.project.resolve(f"{view.module}.{name}")
        if resolved is None:
            continue
        resolved_names += 1
        function = resolved.function
        callees = (resolved.callees | (function.scanned if function else frozenset())) & SCANNED_CALLEES
        locations = resolved.locations | (function.locations if function else frozenset())
        where = f"{view.module}.{name} ({path}:{resolved.origin[1] if resolved.origin else '?'})"
        if callees and name not in project_text.callee_names(view.project, view.module):
            missed.append(f"callee_names rules out {where}, which resolves to {', '.join(sorted(callees))}")
        if locations and not project_text.may_bind(view.project, view.module, name):
            missed.append(f"may_bind rules out {where}, which resolves to location {', '.join(sorted(locations))}")
    return resolved_names, missed


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, action="append", help="a tree of projects (repeatable)")
    args = parser.parse_args(argv)
    os.environ[project.SWITCH] = "1"
    files = [path for root in args.corpus or [CORPUS] for path in corpus_files(root)]
    started = time.perf_counter()
    resolved = 0
    missed: List[str] = []
    for path in files:
        found, lost = audit(path)
        resolved += found
        missed.extend(lost)
    elapsed = time.perf_counter() - started
    print(f"{len(files)} modules, {resolved} names that resolve to something, {len(missed)} the filter rules out, {elapsed:.0f} s")
    for line in missed:
        print("  missed:", line)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
