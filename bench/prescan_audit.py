"""Audit the cheap prescan on real code: lint every file with it and without it.

The prescan may keep files that have no finding but must never drop one that has.
This runs the full libcst analysis on every file of the corpus (slow: minutes over
the stdlib) and fails if any finding appears only without the prescan.

    python bench/prescan_audit.py [--corpus DIR] [--limit N] [--jobs N]
"""

from __future__ import annotations

import argparse
import sys
import sysconfig
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import List, Optional, Sequence, Tuple

from xdevlint.config import Config
from xdevlint.registry import ANALYSIS_ERROR_CODE
from xdevlint.engine import lint_source

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import corpus_files  # noqa: E402


def audit(path: Path) -> Tuple[bool, List[str]]:
    """Whether the file has findings, and those only the run without the prescan found."""
    data = path.read_bytes()
    config = Config()
    with_scan = lint_source(data, str(path), config).findings
    without_scan = lint_source(data, str(path), config, prescan=False).findings
    missed = sorted(set(without_scan) - set(with_scan))
    return bool(with_scan), [f"{f.path}:{f.line}:{f.column}: {f.code} {f.message}" for f in missed]


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path)
    parser.add_argument("--limit", type=int)
    parser.add_argument("--jobs", type=int, default=1, help="processes to audit with (default 1)")
    args = parser.parse_args(argv)
    files = corpus_files(args.corpus or Path(sysconfig.get_paths()["stdlib"]))[: args.limit]
    missed: List[str] = []
    unparsed: List[str] = []
    kept = 0
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for has_findings, lost in pool.map(audit, files, chunksize=8):
            kept += has_findings
            for line in lost:
                (unparsed if f" {ANALYSIS_ERROR_CODE} " in line else missed).append(line)
    elapsed = time.perf_counter() - started
    print(f"{len(files)} files, {kept} with findings, {len(missed)} findings missed by the prescan, {elapsed:.0f} s")
    for line in missed:
        print("  missed:", line)
    if unparsed:
        # By design: a file the scan rules out is never parsed, so libcst's complaints
        # about it (its grammar gaps, Python 2 test data) are never raised.
        print(f"{len(unparsed)} files without anything to check that libcst would refuse (not parsed, by design):")
        for line in unparsed:
            print("  unparsed:", line)
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
