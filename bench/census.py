"""A census of the moves in a corpus: every rename-like call, proven / staged / not proven.

Issue 30's third measurement. For every ``*.py`` file of the corpus in which the cheap scan
finds a move call, the provenance analysis (libcst, the whole file, no focus) judges each
rename, replace or link where it is written, as the move rules do:

- ``proven``: its two sides stay on one filesystem (``analysis/samefs.py``), for every
  caller in the module;
- ``handled``: a copy fallback (or an ``errno.EXDEV`` test) around it handles a failure;
- ``cross`` (XDV101), ``staged`` (XDV102): what the default rules report;
- ``unproven``: none of those: only XDV103, off by default, reports it.

It prints counts per package and writes ``bench/census.md``: the table, and a seeded draw
of not-proven moves (``staged`` and ``unproven``) to be read by hand, each with its
verdict columns left for the reader (a real risk, a deliberate move, or a same-filesystem
idiom the proof lacks; whether the class looks right; the reason). What the reader wrote is
kept when the file is written again: the cells of each drawn move still drawn (by
``path:line``) and everything below the ``HAND`` marker. A reading whose move is no longer
drawn stops the run (exit 1) unless ``--discard-readings`` says to drop it.

    python bench/census.py                               # both halves of the ecosystem corpus
    python bench/census.py --half tuned --draw 40 --seed 30
    python bench/census.py --tree NAME=DIR               # any tree instead (repeatable)
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Sequence, Tuple

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from xdevlint.analysis.provenance import ProvenanceProvider
from xdevlint.stages.scan import Scan

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
import ecosystem  # noqa: E402  (bench/ecosystem.py: the corpus and its halves)

KINDS = ("proven", "handled", "cross", "staged", "unproven")
#: The draw's columns the reader fills in.
READER_COLUMNS = ("verdict", "class right?", "reason")
#: Everything below this line of the output is the reader's, kept as it is.
HAND = "<!-- hand-written below: bench/census.py keeps it when it writes this file again -->"
_DRAWN_ROW = re.compile(r"^\| \d+ \| `([^`]+)` ")
_CELL_BORDER = re.compile(r"(?<!\\)\|")


@dataclass(frozen=True)
class Move:
    package: str
    path: str
    line: int
    kind: str
    code: str
    detail: str


def judged_moves(path: Path, root: Path, package: str) -> Iterator[Move]:
    """Each move written in ``path``, as the move rules judge it."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return
    if not Scan(text).has_move_call():
        return
    try:
        module = cst.parse_module(text)
        wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
        values = wrapper.resolve(ProvenanceProvider)
        positions = wrapper.resolve(PositionProvider)
    except (cst.ParserSyntaxError, RecursionError):
        return
    except Exception:  # the native parser's panics and the like: not this census's concern
        return
    relative = path.relative_to(root).as_posix()
    for node, value in values.items():
        for effect in value.moves:
            if not effect.judged or effect.via:
                continue
            found = effect.verdict
            if found is not None:
                kind = {"XDV101": "cross", "XDV102": "staged", "XDV103": "unproven"}[found.code]
            else:
                kind = "proven" if effect.proven else "handled"
            line = positions[node].start.line if node in positions else 0
            snippet = module.code_for_node(node).splitlines()[0].strip()[:100]
            yield Move(package, relative, line, kind, found.code if found is not None else "-", snippet)


def census(trees: Sequence[Tuple[str, Path]], root: Path) -> List[Move]:
    found: List[Move] = []
    for package, directory in trees:
        for path in sorted(directory.rglob("*.py")):
            found.extend(judged_moves(path, root, package))
    return sorted(found, key=lambda m: (m.package, m.path, m.line))


def _half(package: str) -> str:
    """``tuned`` or ``check`` for a package of the ecosystem corpus ("" for a ``--tree``)."""
    found = re.search(r"\((\w+)\)$", package)
    return found.group(1) if found else ""


def readings(text: str) -> Tuple[Dict[str, List[str]], str]:
    """What a reader wrote in an earlier output: the reader's cells of each drawn move, by
    ``path:line``, and the hand-written part (from the ``HAND`` marker on, or "")."""
    head, marker, tail = text.partition(HAND)
    cells: Dict[str, List[str]] = {}
    for line in head.splitlines():
        drawn = _DRAWN_ROW.match(line)
        if drawn:
            row = [cell.strip() for cell in _CELL_BORDER.split(line.strip())[1:-1]]
            written = (row[4:] + [""] * len(READER_COLUMNS))[: len(READER_COLUMNS)]  # after #, move, kind, code
            if any(written):
                cells[drawn.group(1)] = written
    return cells, marker + tail


def render(
    moves: Sequence[Move], packages: Sequence[str], draw: List[Move], seed: int,
    kept: Optional[Dict[str, List[str]]] = None, hand: str = "",
) -> str:
    per: Dict[str, Counter[str]] = {package: Counter() for package in packages}
    for move in moves:
        per.setdefault(move.package, Counter())[move.kind] += 1
    total = Counter(m.kind for m in moves)
    lines = [
        "# Move census",
        "",
        "Generated by `python bench/census.py` (see its docstring); the draw's last three columns and",
        "everything below the hand-written marker are a reader's, and the script keeps them when it",
        "writes this file again (a reading whose move is no longer drawn stops it: `--discard-readings`).",
        "",
        "Every rename-like call of the corpus, judged where it is written:",
        "proven to stay on one filesystem, handled by a copy fallback, reported by XDV101 (cross) or",
        "XDV102 (staged), or only not proven (XDV103, off by default).",
        "",
        "| package | moves | " + " | ".join(KINDS) + " |",
        "|---|---:|" + "---:|" * len(KINDS),
    ]
    for package, counts in sorted(per.items()):
        lines.append(f"| {package} | {sum(counts.values())} | " + " | ".join(str(counts[k]) for k in KINDS) + " |")
    halves = sorted({_half(p) for p in per} - {""})
    for half in halves:
        counts = Counter(m.kind for m in moves if _half(m.package) == half)
        lines.append(f"| **{half} half** | {sum(counts.values())} | " + " | ".join(str(counts[k]) for k in KINDS) + " |")
    lines.append(f"| **all** | {len(moves)} | " + " | ".join(str(total[k]) for k in KINDS) + " |")
    lines += [
        "",
        f"## {len(draw)} not-proven moves, drawn with seed {seed}",
        "",
        "| # | move | kind | code | " + " | ".join(READER_COLUMNS) + " |",
        "|---|---|---|---|" + "---|" * len(READER_COLUMNS),
    ]
    for number, move in enumerate(draw, 1):
        detail = move.detail.replace("|", "\\|")
        written = (kept or {}).get(f"{move.path}:{move.line}", [""] * len(READER_COLUMNS))
        lines.append(
            f"| {number} | `{move.path}:{move.line}` `{detail}` | {move.kind} | {move.code} | " + " | ".join(written) + " |"
        )
    text = "\n".join(lines) + "\n"
    return text + "\n" + hand if hand else text


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=ecosystem.DEFAULT_CORPUS)
    parser.add_argument("--half", choices=("tuned", "check", "both"), default="both")
    parser.add_argument("--tree", action="append", metavar="NAME=DIR", help="census these trees instead")
    parser.add_argument("--draw", type=int, default=40, help="how many not-proven moves to draw (default 40)")
    parser.add_argument("--seed", type=int, default=30)
    parser.add_argument("--output", type=Path, default=BENCH / "census.md")
    parser.add_argument("--discard-readings", action="store_true",
                        help="drop the readings of moves no longer drawn instead of stopping")
    args = parser.parse_args(argv)
    root = args.corpus.expanduser()
    trees: List[Tuple[str, Path]] = []
    if args.tree:
        for spec in args.tree:
            name, _, directory = spec.partition("=")
            trees.append((name, Path(directory).resolve()))
        root = Path("/")
    else:
        halves = {"tuned": (ecosystem.PINS, True), "check": (ecosystem.CHECK_PINS, False)}
        for half in (("tuned", "check") if args.half == "both" else (args.half,)):
            pins, stdlib = halves[half]
            for target in ecosystem.prepare(root, [ecosystem.Pin.parse(p) for p in pins], stdlib):
                trees.append((f"{Path(target).name} ({half})", root / target))
    kept: Dict[str, List[str]] = {}
    hand = ""
    if args.output.exists():
        kept, hand = readings(args.output.read_text(encoding="utf-8"))
    moves = census(trees, root)
    pool = [m for m in moves if m.kind in ("staged", "unproven")]
    draw = sorted(random.Random(args.seed).sample(pool, min(args.draw, len(pool))), key=lambda m: (m.package, m.path, m.line))
    lost = sorted(kept.keys() - {f"{m.path}:{m.line}" for m in draw})
    if lost and not args.discard_readings:
        print(f"{args.output}: {len(lost)} hand-written readings are of moves this draw does not hold "
              f"(first: {lost[0]}); not written. Use --output for a new file, or --discard-readings.", file=sys.stderr)
        return 1
    text = render(moves, [package for package, _ in trees], draw, args.seed, kept, hand)
    args.output.write_text(text, encoding="utf-8")
    print(text.split("\n## ")[0])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
