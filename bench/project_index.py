"""The CPU time the project index adds to a cold full run (issue 10's cost target: +15%).

Runs ``xdevlint --jobs 1 --no-cache DIR`` over each corpus directory with the index on and
off (``XDEVLINT_PROJECT_INDEX=0``), alternating, and reports the child processes' CPU time
(user + system), the best of ``--repeat`` runs each, and the ratio. The corpora are the
ecosystem check's: ``~/.cache/xdevlint-ecosystem/src`` and the stdlib copy beside it.

    python bench/project_index.py [--repeat 2] [DIR ...]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
from pathlib import Path
from typing import Dict, List

CORPUS = Path("~/.cache/xdevlint-ecosystem").expanduser()
SWITCH = "XDEVLINT_PROJECT_INDEX"


def cpu_of_run(directory: Path, index: bool) -> float:
    """CPU seconds of one cold run (its own process, so the in-process memos start empty)."""
    environment = dict(os.environ)
    environment[SWITCH] = "1" if index else "0"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(
        [sys.executable, "-m", "xdevlint", "--jobs", "1", "--no-cache", "--quiet", str(directory)],
        env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("directories", nargs="*", type=Path)
    options = parser.parse_args(argv)
    directories = options.directories or [CORPUS / "src", *sorted(CORPUS.glob("stdlib-*"))]
    print(f"{'corpus':40} {'off (s)':>9} {'on (s)':>9} {'added':>8}")
    for directory in directories:
        best: Dict[bool, float] = {}
        for _ in range(options.repeat):
            for index in (False, True):
                seconds = cpu_of_run(directory, index)
                best[index] = min(best.get(index, seconds), seconds)
        added = best[True] / best[False] - 1 if best[False] else 0.0
        print(f"{str(directory):40} {best[False]:9.2f} {best[True]:9.2f} {added:+8.1%}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
