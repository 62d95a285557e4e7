"""Where the time of a rule selection goes, file by file, against another selection.

`run.py --scenario rules` says how much slower all rules are than XDV101/XDV102; this
says on which files, and how much of it is spent on files that hold findings of the
extra rules (a cost no cheap scan can save: those files must be analysed). It lints
each file in-process with both selections, without edits, as the text output does.

    python bench/rule_costs.py [--select XDV] [--against XDV101,XDV102] [--top 20] [--corpus DIR] [--limit N]
"""

from __future__ import annotations

import argparse
import sys
import sysconfig
import time
from pathlib import Path
from typing import List, Optional, Sequence, Tuple

from xdevlint import registry
from xdevlint.config import Config
from xdevlint.engine import lint_source

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import corpus_files  # noqa: E402


def timed(data: bytes, path: str, config: Config, rules: Sequence[type]) -> Tuple[float, int]:
    started = time.perf_counter()
    findings = lint_source(data, path, config, rules, edits=False).findings  # type: ignore[arg-type]
    return time.perf_counter() - started, len(findings)


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--select", default="XDV", help="the selection measured (default: XDV, all rules)")
    parser.add_argument("--against", default="XDV101,XDV102", help="the selection it is compared with")
    parser.add_argument("--top", type=int, default=20, help="files to list, costliest first")
    parser.add_argument("--corpus", type=Path)
    parser.add_argument("--limit", type=int)
    args = parser.parse_args(argv)
    subject = registry.select(args.select.split(","), ())
    baseline = registry.select(args.against.split(","), ())
    files = corpus_files(args.corpus or Path(sysconfig.get_paths()["stdlib"]))[: args.limit]
    config = Config()
    rows: List[Tuple[float, float, float, int, int, str]] = []
    for path in files:
        data = path.read_bytes()
        base_time, base_count = timed(data, str(path), config, baseline)
        time_, count = timed(data, str(path), config, subject)
        rows.append((time_ - base_time, time_, base_time, count, base_count, str(path)))
    total = sum(r[1] for r in rows)
    base_total = sum(r[2] for r in rows)
    with_findings = sum(r[0] for r in rows if r[3] > r[4])
    print(f"{len(files)} files: {args.select} {total:.1f} s, {args.against} {base_total:.1f} s ({total / base_total:.2f}x)")
    print(f"extra time on the files where {args.select} finds more: {with_findings:.1f} s; "
          f"floor for any cheap scan: {(base_total + with_findings) / base_total:.2f}x")
    print(f"{'extra':>7} {'subject':>8} {'peer':>6} findings  file")
    for extra, time_, base_time, count, base_count, path in sorted(rows, reverse=True)[: args.top]:
        print(f"{extra:7.2f} {time_:8.2f} {base_time:6.2f} {base_count:>3} -> {count:<3} {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
