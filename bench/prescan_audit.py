"""Audit the cheap prescan on real code: lint every file with it and without it.

The prescan may keep files that have no finding but must never drop one that has.
This runs the full libcst analysis on every file of the corpus (slow: minutes over
the stdlib) and fails if any finding appears only without the prescan.

    python bench/prescan_audit.py [--corpus DIR] [--limit N]
"""

from __future__ import annotations

import argparse
import sys
import sysconfig
import time
from pathlib import Path
from typing import List, Optional, Sequence

from xdevlint.config import Config
from xdevlint.engine import lint_source

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import corpus_files  # noqa: E402


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path)
    parser.add_argument("--limit", type=int)
    args = parser.parse_args(argv)
    files = corpus_files(args.corpus or Path(sysconfig.get_paths()["stdlib"]))[: args.limit]
    config = Config()
    missed: List[str] = []
    kept = 0
    started = time.perf_counter()
    for path in files:
        data = path.read_bytes()
        with_scan = lint_source(data, str(path), config).findings
        without_scan = lint_source(data, str(path), config, prescan=False).findings
        kept += bool(with_scan)
        for finding in set(without_scan) - set(with_scan):
            missed.append(f"{finding.path}:{finding.line}:{finding.column}: {finding.code} {finding.message}")
    elapsed = time.perf_counter() - started
    print(f"{len(files)} files, {kept} with findings, {len(missed)} findings missed by the prescan, {elapsed:.0f} s")
    for line in missed:
        print("  missed:", line)
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
