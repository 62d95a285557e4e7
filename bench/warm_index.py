"""A warm run with the project index on against one with it off (issue 10: within ~10%).

Fills a result cache for each (one cold run each, into ``--workdir``), then runs
``xdevlint --quiet`` over the corpus with each warm cache, alternating, and reports
each mode's wall and CPU time (user + system of the child) and the ratios, best and median.

    python bench/warm_index.py [--rounds 9] [--workdir /tmp/xdevlint-warm-index] [DIR]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Dict, List, Tuple

CORPUS = Path("~/.cache/xdevlint-ecosystem/src").expanduser()
SWITCH = "XDEVLINT_PROJECT_INDEX"


def timed(directory: Path, cache: Path, index: bool) -> Tuple[float, float]:
    """(wall, CPU) seconds of one run in its own process."""
    environment = dict(os.environ, **{SWITCH: "1" if index else "0"})
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "xdevlint", "--quiet", "--cache-dir", str(cache), str(directory)],
        env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/xdevlint-warm-index"))
    parser.add_argument("directory", nargs="?", type=Path, default=CORPUS)
    options = parser.parse_args(argv)
    caches = {index: options.workdir / ("on" if index else "off") for index in (False, True)}
    for index, cache in caches.items():
        timed(options.directory, cache, index)  # cold: fills the cache
    runs: Dict[bool, List[Tuple[float, float]]] = {False: [], True: []}
    for round_ in range(options.rounds):
        for index in (False, True) if round_ % 2 == 0 else (True, False):
            runs[index].append(timed(options.directory, caches[index], index))

    def pick(index: bool, which: int, median: bool) -> float:
        values = sorted(run[which] for run in runs[index])
        return values[len(values) // 2] if median else values[0]

    print(f"{'':8} {'wall best':>10} {'wall median':>12} {'cpu best':>9} {'cpu median':>11}")
    for index in (False, True):
        print(f"{'on' if index else 'off':8} {pick(index, 0, False):10.2f} {pick(index, 0, True):12.2f} "
              f"{pick(index, 1, False):9.2f} {pick(index, 1, True):11.2f}")
    ratios = [pick(True, w, m) / pick(False, w, m) for w in (0, 1) for m in (False, True)]
    print(f"{'on/off':8} {ratios[0]:10.3f} {ratios[1]:12.3f} {ratios[2]:9.3f} {ratios[3]:11.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
