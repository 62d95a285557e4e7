"""The CPU time the project index adds to a cold full run (issue 10's cost target: +15%).

Runs ``xdevlint --jobs 1 --no-cache DIR`` over each corpus directory with the index on and
off (``XDEVLINT_PROJECT_INDEX=0``), alternating, and reports the child processes' CPU time
(user + system), the best of ``--repeat`` runs each and their ratio, and the median and
range of the ratio within each round (an off run and the on run after it). The corpora are the
ecosystem check's: ``~/.cache/xdevlint-ecosystem/src`` and the stdlib copy beside it.

Two last rows time a pre-commit call: one run over five files of transformers
(``PRE_COMMIT``), which reads their import closure only. First cold (``--no-cache``); then
as a pre-commit hook runs, once the five files changed since a first call filled the cache
(a copy of transformers in a directory of the bench's own: each round appends a comment
to the five copies, and the cache keeps the index's facts of the modules that did not change).

    python bench/project_index.py [--repeat 2] [DIR ...]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Dict, List, Optional, Sequence

CORPUS = Path("~/.cache/xdevlint-ecosystem").expanduser()
SWITCH = "XDEVLINT_PROJECT_INDEX"


#: A pre-commit call on five files of a large project (below transformers' package).
PRE_COMMIT = ("modeling_utils.py", "trainer.py", "utils/hub.py", "models/bert/modeling_bert.py", "tokenization_utils_base.py")


def cpu_of_run(paths: Sequence[Path], index: bool, cache: Optional[Path] = None) -> float:
    """CPU seconds of one run (its own process, so the in-process memos start empty):
    cold, or with the result cache in ``cache``."""
    environment = dict(os.environ)
    environment[SWITCH] = "1" if index else "0"
    caching = ["--cache-dir", str(cache)] if cache is not None else ["--no-cache"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(
        [sys.executable, "-m", "xdevlint", "--jobs", "1", *caching, "--quiet", *map(str, paths)],
        env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("directories", nargs="*", type=Path)
    options = parser.parse_args(argv)
    runs: Dict[str, List[Path]] = {str(d): [d] for d in options.directories}
    if not runs:
        runs = {str(d): [d] for d in [CORPUS / "src", *sorted(CORPUS.glob("stdlib-*"))]}
        for package in sorted(CORPUS.glob("src/transformers-*/transformers"))[:1]:
            runs["pre-commit: 5 files of transformers"] = [package / name for name in PRE_COMMIT]
    print(f"{'corpus':45} {'off (s)':>9} {'on (s)':>9} {'added':>8}   {'by round: median [range]':>24}")
    for label, paths in runs.items():
        rounds: List[Dict[bool, float]] = []
        for _ in range(options.repeat):
            rounds.append({index: cpu_of_run(paths, index) for index in (False, True)})
        report(label, rounds)
    if not options.directories:
        for package in sorted(CORPUS.glob("src/transformers-*"))[:1]:
            report("pre-commit after an edit, warm cache", edited_runs(package, options.repeat))
    return 0


def report(label: str, rounds: List[Dict[bool, float]]) -> None:
    """The best run each way and their ratio; then the ratio of each round's two runs, one
    after the other (the machine's speed drifts less between them than across rounds)."""
    best = {index: min(r[index] for r in rounds) for index in (False, True)}
    ratios = sorted(r[True] / r[False] - 1 for r in rounds if r[False])
    added = best[True] / best[False] - 1 if best[False] else 0.0
    spread = f"{statistics.median(ratios):+.1%} [{ratios[0]:+.0%}, {ratios[-1]:+.0%}]" if ratios else ""
    print(f"{label:45} {best[False]:9.2f} {best[True]:9.2f} {added:+8.1%}   {spread:>24}")


def edited_runs(distribution: Path, repeat: int) -> List[Dict[bool, float]]:
    """The CPU of calls on the ``PRE_COMMIT`` files of a copy of ``distribution`` once
    they changed, each way in each round, with each mode's cache filled by a first call."""
    rounds: List[Dict[bool, float]] = []
    with tempfile.TemporaryDirectory(prefix="xdevlint-pre-commit-") as work:
        copy = Path(work) / distribution.name
        shutil.copytree(distribution, copy)
        files = [copy / "transformers" / name for name in PRE_COMMIT]
        caches = {index: Path(work) / ("cache-on" if index else "cache-off") for index in (False, True)}
        for index, cache in caches.items():
            cpu_of_run(files, index, cache)
        for round_ in range(repeat):
            found: Dict[bool, float] = {}
            for index in (False, True):
                for path in files:
                    with open(path, "a", encoding="utf-8") as handle:
                        handle.write(f"# edit {round_}\n")
                found[index] = cpu_of_run(files, index, caches[index])
            rounds.append(found)
    return rounds


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
