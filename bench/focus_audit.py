"""The focus never changes a finding: every kept file checked with and without it.

``stages.focus`` cuts out the top-level functions and classes of a kept file that can
neither hold a finding nor shape one. This lints every file some rule's gate keeps
twice, as the text output does (``edits=False``): with the focus, and with the whole
file. It prints the files whose findings differ (code, position, message, or the
fix's applicability and message), how many lines the focus dropped and what both
cost (CPU seconds of the analysis). Exit 1 on any difference.

    python bench/focus_audit.py [--corpus DIR ...] [--list] [--edits] [--prefocus]

``--edits`` lints as JSON and SARIF do and compares the fixes' textual edits too;
``--prefocus`` first cuts every file down by text, as files of more than ``LARGE``
characters are (``stages.focus.prefocus``), so that stage is audited on every file.
"""

from __future__ import annotations

import argparse
import sys
import sysconfig
import time
from pathlib import Path
from typing import List, Optional, Sequence, Tuple

from xdevlint import engine
from xdevlint.config import Config
from xdevlint.engine import lint_source
from xdevlint.model import Finding
from xdevlint.stages.focus import focus
from xdevlint.stages.scan import Scan
from xdevlint.stages.sections import LARGE
from xdevlint.stages.source import DecodeError, decode

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import corpus_files  # noqa: E402

Key = Tuple[str, int, int, int, int, str, str]


def keys(findings: Sequence[Finding]) -> List[Key]:
    return sorted(
        (
            f.code,
            f.span.line,
            f.span.column,
            f.span.end_line,
            f.span.end_column,
            f.message,
            "" if f.fix is None else f"{f.fix.applicability.value}: {f.fix.message} {f.fix.all_edits!r}",
        )
        for f in findings
    )


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, action="append", help="a tree (repeatable; default: the stdlib)")
    parser.add_argument("--list", action="store_true", help="every kept file: lines dropped, cost with and without")
    parser.add_argument("--edits", action="store_true", help="lint as JSON does, and compare the fixes' edits too")
    parser.add_argument("--prefocus", action="store_true", help="cut every file down by text first, as large files are")
    args = parser.parse_args(argv)
    config = Config()
    differences = 0
    focused = kept = 0
    totals = [0.0, 0.0]
    lines = [0, 0]
    for root in args.corpus or [Path(sysconfig.get_paths()["stdlib"])]:
        for path in corpus_files(root):
            data = path.read_bytes()
            try:
                text, _ = decode(data)
            except DecodeError:
                continue
            scan = Scan(text)
            if not any(spec.gate(scan, config.locations) for spec in config.specs_for(str(path))):
                continue
            kept += 1
            narrowed = focus(text, scan.index, scan.move_nodes()) if scan.index is not None else None
            dropped = narrowed.dropped if narrowed is not None else 0
            focused += narrowed is not None
            lines[0] += text.count("\n")
            lines[1] += dropped
            costs = []
            results = []
            for enabled in (True, False):
                engine.focus = focus if enabled else (lambda text, tree, moves: None)  # type: ignore[assignment]
                engine.LARGE = 0 if enabled and args.prefocus else sys.maxsize  # type: ignore[misc]
                began = time.process_time()
                results.append(keys(lint_source(data, str(path), config, edits=args.edits).findings))
                costs.append(time.process_time() - began)
            engine.focus = focus  # type: ignore[assignment]
            engine.LARGE = LARGE  # type: ignore[misc]
            totals[0] += costs[0]
            totals[1] += costs[1]
            if results[0] != results[1]:
                differences += 1
                print(f"DIFFERENT {path}")
                for key in sorted(set(results[0]) ^ set(results[1])):
                    print(f"    {'focus only' if key in results[0] else 'whole only'}: {key}")
            elif args.list:
                print(f"  {dropped:6} lines dropped  {costs[0]:6.2f} s / {costs[1]:6.2f} s  {path}")
    print(
        f"{kept} kept files, {focused} focused; {lines[1]:,} of {lines[0]:,} lines dropped; "
        f"analysis CPU {totals[0]:.2f} s with the focus, {totals[1]:.2f} s without; "
        f"{differences} files whose findings differ"
    )
    return 1 if differences else 0


if __name__ == "__main__":
    raise SystemExit(main())
