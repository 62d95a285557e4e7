"""What the project index would cost with perfect filters that cost nothing.

The index's filters decide, from module texts, which names may matter before anything is
summarised: ``callee_names`` (may a module's name be a move or temp function), ``names_of``,
``may_alias``, ``may_supply``, ``may_bind`` (may it be a location), ``renaming_methods``
(may a class's method rename); and ``Project.resolve`` works out what a name is, which is
nothing for most names (a function that does nothing callers need). This measures the
floor under all of them, as an oracle: one run records every answer of those filters and
every name ``Project.resolve`` finds nothing for; later runs take those answers from the
record without any work, so what remains is the cost of what the index cannot skip (each
file's own imports, the summaries of the names that do matter, the analysis following
them). The findings of a replay must equal the recorded run's; it exits 1 if not.

Runs ``--repeat`` rounds of three runs (index off, on, on with the oracle), each its own
process on ``--jobs 1 --no-cache``, and reports the best CPU time of each: the run alone
(``time.process_time``, user + system), past the imports and the reading of the record.

    python bench/index_floor.py [--repeat 3] [DIR]

The default corpus is the ecosystem check's sources (``bench/ecosystem.py``).
"""

from __future__ import annotations

import argparse
import os
import pickle
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Tuple

CORPUS = Path("~/.cache/xdevlint-ecosystem/src").expanduser()
SWITCH = "XDEVLINT_PROJECT_INDEX"


def main(argv: List[str]) -> int:
    if argv[:1] == ["--child"]:
        return child(argv[1], Path(argv[2]), argv[3])
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("directory", nargs="?", type=Path, default=CORPUS)
    options = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="xdevlint-index-floor-") as work:
        record = Path(work) / "record.pickle"
        _, recorded = run("record", record, options.directory, True)
        best: Dict[str, float] = {}
        for _ in range(options.repeat):
            for label, mode, index in (("off", "plain", False), ("on", "plain", True), ("oracle", "replay", True)):
                seconds, found = run(mode, record, options.directory, index)
                if mode == "replay" and found != recorded:
                    print("the oracle's replay changed the findings", file=sys.stderr)
                    return 1
                best[label] = min(best.get(label, seconds), seconds)
    print(f"{'run':28} {'CPU (s)':>8} {'added':>8}")
    for label, text in (("off", "index off"), ("on", "index on"), ("oracle", "index on, perfect filters")):
        print(f"{text:28} {best[label]:8.2f} {best[label] / best['off'] - 1:+8.1%}")
    return 0


def run(mode: str, record: Path, directory: Path, index: bool) -> Tuple[float, str]:
    """CPU seconds and findings (concise output) of one child run."""
    environment = dict(os.environ, **{SWITCH: "1" if index else "0"})
    done = subprocess.run(
        [sys.executable, __file__, "--child", mode, str(record), str(directory)],
        env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, check=False,
    )
    return float(done.stderr.split()[-1]), done.stdout


def child(mode: str, record: Path, directory: str) -> int:
    """One run: ``record`` notes the filters' answers, ``replay`` gives them, ``plain`` neither."""
    from xdevlint.analysis import project, project_text, supplied
    from xdevlint.frontends import cli

    answers: Dict[str, Dict[Any, Any]] = pickle.loads(record.read_bytes()) if mode == "replay" else {}

    def oracle(name: str, key: Callable[..., Any], modules: Tuple[Any, ...], skip: Callable[[Any], bool] = lambda _: True) -> None:
        original = getattr(modules[0], name)
        known = answers.setdefault(name, {})

        def answer(*args: Any) -> Any:
            asked = key(*args)
            if mode == "replay" and asked in known:
                return known[asked]
            found = original(*args)
            if mode == "record" and skip(found):
                known[asked] = found
            return found

        for module in modules:
            setattr(module, name, answer)

    oracle("callee_names", lambda p, m: (p.roots, m), (project_text, supplied, project))
    oracle("names_of", lambda p, m: (p.roots, m), (project_text, supplied, project))
    oracle("may_alias", lambda p, m, n: (p.roots, m, n), (project_text, project))
    oracle("may_supply", lambda p, m: (p.roots, p.locations, m), (project_text, supplied))
    oracle("may_bind", lambda p, m, n: (p.roots, p.locations, m, n), (project_text, supplied))
    oracle("renaming_methods", lambda p, m, n: (p.roots, m, n), (project_text, supplied))
    resolve = project.Project.resolve
    nothing = answers.setdefault("resolve", {})

    def resolved(self: project.Project, qualified: str, depth: int = 0, classes: bool = False) -> Any:
        asked = (self.roots, self.scanned_only, classes, qualified)
        if mode == "replay" and asked in nothing:
            return None
        found = resolve(self, qualified, depth, classes)
        if mode == "record" and depth == 0 and found is None:
            nothing[asked] = None
        return found

    project.Project.resolve = resolved  # type: ignore[method-assign]
    sys.argv = ["xdevlint", "--jobs", "1", "--no-cache", "--output-format", "concise", directory]
    start = time.process_time()  # the run alone: not the imports, nor reading the record
    try:
        cli.run()
    except SystemExit:
        pass
    spent = time.process_time() - start
    sys.stdout.flush()
    if mode == "record":
        record.write_bytes(pickle.dumps(answers))
    print(spent, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
