"""Which files reach libcst, and what they cost there: the cheap scans' score card.

For every file of a corpus: does any rule's gate keep it (so libcst parses it), and
if so, does it have findings? Prints the counts (with findings / without), the time
spent scanning and analysing, the files that cost most, and with ``--profile FILE``
a cProfile of the analysis of the kept files (``python -m pstats FILE``).

    python bench/libcst_reach.py [--corpus DIR] [--limit N] [--profile OUT.prof] [--top N]
"""

from __future__ import annotations

import argparse
import cProfile
import sys
import sysconfig
import time
from pathlib import Path
from typing import List, Optional, Sequence, Tuple

from xdevlint.config import Config
from xdevlint.engine import lint_source
from xdevlint.stages.scan import Scan
from xdevlint.stages.source import DecodeError, decode

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import corpus_files  # noqa: E402


def gates(text: str, config: Config, path: str) -> List[str]:
    """The codes whose gate keeps the file."""
    scan = Scan(text)
    return [spec.code for spec in config.specs_for(path) if spec.gate(scan, config.locations)]


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path)
    parser.add_argument("--limit", type=int)
    parser.add_argument("--profile", type=Path, help="write a cProfile of analysing the kept files here")
    parser.add_argument("--top", type=int, default=10, help="list the N kept files that cost most")
    parser.add_argument("--list", action="store_true", help="list every kept file: cost, findings, the gates that kept it")
    args = parser.parse_args(argv)
    files = corpus_files(args.corpus or Path(sysconfig.get_paths()["stdlib"]))[: args.limit]
    config = Config()
    kept: List[Tuple[Path, bytes, List[str]]] = []
    started = time.process_time()
    by_gate: dict = {}
    for path in files:
        data = path.read_bytes()
        try:
            text, _ = decode(data)
        except DecodeError:
            continue
        codes = gates(text, config, str(path))
        for code in codes:
            by_gate[code] = by_gate.get(code, 0) + 1
        if codes:
            kept.append((path, data, codes))
    scanning = time.process_time() - started
    profiler = cProfile.Profile() if args.profile else None
    costs: List[Tuple[float, Path, int, List[str]]] = []
    with_findings = 0
    for path, data, codes in kept:
        began = time.process_time()
        if profiler is not None:
            profiler.enable()
        findings = lint_source(data, str(path), config, edits=False).findings  # as text output
        if profiler is not None:
            profiler.disable()
        costs.append((time.process_time() - began, path, len(findings), codes))
        with_findings += bool(findings)
    analysing = sum(cost for cost, *_ in costs)
    total_bytes = sum(len(data) for _, data, _ in kept)
    print(f"{len(files)} files; {len(kept)} reach libcst ({total_bytes:,} bytes): "
          f"{with_findings} with findings, {len(kept) - with_findings} without")
    print("kept by gate: " + ", ".join(f"{code} {count}" for code, count in sorted(by_gate.items())))
    print(f"CPU: scan of every file {scanning:.2f} s (in-process, without start-up); "
          f"analysis of the kept files {analysing:.2f} s")
    print("every kept file, costliest first:" if args.list else f"the {args.top} kept files that cost most:")
    for cost, path, count, codes in sorted(costs, key=lambda c: -c[0])[: len(costs) if args.list else args.top]:
        print(f"  {cost:6.2f} s  {count:3} findings  {','.join(codes):20}  {path}")
    if profiler is not None:
        profiler.dump_stats(str(args.profile))
        print(f"profile written to {args.profile}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
