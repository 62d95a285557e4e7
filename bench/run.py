"""Time xdevlint against its peers on real code: the running interpreter's stdlib.

    python bench/run.py [--scenario check|fix|rules|plugin|plugin-off]... [--runs N] [--limit N]
                        [--corpus DIR] [--flake8 PATH] [--json FILE]

Every tool runs as a whole process on the same explicit list of files, the tools of a
scenario taking turns so that machine noise hits them alike. bench/README.md says what
each scenario compares and how to read the table.
"""
from __future__ import annotations

import argparse
import functools
import json
import os
import platform
import re
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

HIDE_XDEVLINT = Path(__file__).resolve().parent / "flake8_no_xdevlint.py"
SKIPPED_DIRS = frozenset(("site-packages", "dist-packages"))
# Linters exit 1 when they report something; that is a normal run, not a failure.
NORMAL_EXIT_CODES = frozenset((0, 1))
TRACEBACK = b"Traceback (most recent call last)"
STDERR_TAIL_LINES = 15
FLAKE8_DEFAULT_SELECT = "E,F,W,C90"
# `flake8 --version` lists plugins as "7.5.0 (mccabe: 0.7.0, ..., xdevlint: 0.1.0) CPython ...".
XDEVLINT_IN_FLAKE8_VERSION = re.compile(r"[(,]\s*xdevlint: ", re.IGNORECASE)
# Exits 0 when `python -m NAME` can run: what runpy needs is NAME.__main__.
FIND_MAIN = (
    "import importlib.util, sys; "
    "sys.exit(importlib.util.find_spec(sys.argv[1] + '.__main__') is None)"
)


class ToolError(Exception):
    """A tool is missing or misbehaved; the message says which and why."""


@dataclass(frozen=True)
class Tool:
    """A command whose timing is wanted; the corpus paths are appended to `argv`."""

    label: str
    argv: tuple[str, ...] = ()
    problem: str = ""  # why it cannot be timed; empty when it can
    about: str = ""  # what its `--version` says, when that tells which plugins it runs

    def with_args(self, label: str, *args: str) -> Tool:
        """The same tool with more options; one that is missing stays missing."""
        return replace(self, label=label, argv=self.argv + args if self.argv else ())


@dataclass(frozen=True)
class Scenario:
    """Two commands over the same files, and the bound on their ratio of medians."""

    name: str
    title: str
    subject: Tool
    baseline: Tool
    ratio_of: str  # how the ratio reads, e.g. "xdevlint/flake8"
    target: float  # the subject's median over the baseline's must not exceed it
    files: tuple[str, ...]


@dataclass
class Timings:
    """One tool's raw measurements, kept whole for --json."""

    tool: Tool
    role: str
    seconds: list[float] = field(default_factory=list)
    cpu_seconds: list[float] = field(default_factory=list)
    exit_codes: list[int] = field(default_factory=list)


@dataclass
class Outcome:
    """A measured scenario; any problem makes it FAIL, since its ratio would mislead."""

    scenario: Scenario
    timings: list[Timings]
    problems: list[str]
    chunks: int  # command lines per run, over 1 only when ARG_MAX forced a split

    @property
    def ratio(self) -> float | None:
        subject, baseline = self.timings
        if self.problems or not subject.seconds or not baseline.seconds:
            return None
        return statistics.median(subject.seconds) / statistics.median(baseline.seconds)

    @property
    def result(self) -> str:
        ratio = self.ratio
        if ratio is None:
            return "FAIL"
        return "PASS" if ratio <= self.scenario.target else "MISS"


def tail(stderr: bytes | str) -> str:
    """The end of a tool's stderr, where the traceback or error message is."""
    text = stderr.decode(errors="replace") if isinstance(stderr, bytes) else stderr
    lines = text.rstrip().splitlines()[-STDERR_TAIL_LINES:]
    return "".join(f"\n    | {line}" for line in lines) if lines else " (stderr was empty)"


def locate(name: str) -> tuple[str, ...]:
    """The console script beside the running interpreter, else `python -m NAME`."""
    script = Path(sys.executable).parent / name
    if script.is_file() and os.access(script, os.X_OK):
        return (str(script),)
    probe = subprocess.run(
        [sys.executable, "-c", FIND_MAIN, name], capture_output=True, text=True, check=False
    )
    if probe.returncode == 0:
        return (sys.executable, "-m", name)
    why = tail(probe.stderr) if probe.stderr.strip() else f": there is no {name}.__main__"
    command = f"{sys.executable} -m {name}"
    raise ToolError(f"{name} not found: no {script}, and `{command}` cannot run{why}")


def interpreter_of(flake8: tuple[str, ...]) -> str:
    """The Python a flake8 command runs under, so the launcher sees the same plugins."""
    if flake8[1:2] == ("-m",):
        return flake8[0]
    script = Path(flake8[0])
    with script.open("rb") as handle:
        first_line = handle.readline()
    words = first_line[2:].split() if first_line.startswith(b"#!") else []
    if words and Path(os.fsdecode(words[0])).name.startswith("python"):
        return os.fsdecode(words[0])
    # `#!/usr/bin/env python3` or pip's `#!/bin/sh` trampoline: a venv keeps `python` beside it.
    sibling = script.parent / "python"
    if sibling.is_file():
        return str(sibling)
    raise ToolError(f"cannot tell which Python runs {script} (first line {first_line!r})")


def flake8_version(argv: tuple[str, ...]) -> str:
    """`flake8 --version`, which names every plugin flake8 will load."""
    proc = subprocess.run([*argv, "--version"], capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        command = shlex.join([*argv, "--version"])
        raise ToolError(f"`{command}` exited {proc.returncode}" + tail(proc.stderr))
    return " ".join(proc.stdout.split())  # it breaks the line before the OS name


class Toolbox:
    """Finds each tool at most once, and keeps why one could not be found."""

    def __init__(self, flake8_path: str | None) -> None:
        self.flake8_path = flake8_path

    @functools.cached_property
    def xdevlint(self) -> Tool:
        try:
            return Tool("xdevlint", locate("xdevlint"))
        except ToolError as error:
            return Tool("xdevlint", problem=str(error))

    @functools.cached_property
    def flake8(self) -> Tool:
        """flake8 as given, with whatever plugins its environment has."""
        if self.flake8_path is None:
            try:
                return Tool("flake8", locate("flake8"))
            except ToolError as error:
                return Tool("flake8", problem=str(error))
        path = Path(self.flake8_path)
        if not (path.is_file() and os.access(path, os.X_OK)):
            return Tool("flake8", problem=f"--flake8 {path}: not an executable file")
        return Tool("flake8", (str(path),))

    @functools.cached_property
    def flake8_with_xdevlint(self) -> Tool:
        """flake8, which must have xdevlint's plugin installed or there is nothing to measure."""
        tool = self.flake8
        if tool.problem:
            return tool
        try:
            version = flake8_version(tool.argv)
            python = interpreter_of(tool.argv)
        except (OSError, ToolError) as error:
            return Tool(tool.label, problem=str(error))
        if not XDEVLINT_IN_FLAKE8_VERSION.search(version):
            return Tool(
                tool.label,
                problem=f"xdevlint's flake8 plugin is not installed for {python} "
                f"(flake8 --version: {version}); run `{python} -m pip install -e .`",
            )
        return replace(tool, about=version)

    @functools.cached_property
    def flake8_without_xdevlint(self) -> Tool:
        """The same flake8 with xdevlint's plugin hidden: see flake8_no_xdevlint.py."""
        label = "flake8 (no XDV plugin)"
        if self.flake8.problem:
            return Tool(label, problem=self.flake8.problem)
        try:
            argv = (interpreter_of(self.flake8.argv), str(HIDE_XDEVLINT))
            version = flake8_version(argv)
        except (OSError, ToolError) as error:
            return Tool(label, problem=str(error))
        if XDEVLINT_IN_FLAKE8_VERSION.search(version):
            return Tool(label, problem=f"{HIDE_XDEVLINT.name} failed to hide xdevlint: {version}")
        return Tool(label, argv, about=version)


def build(name: str, box: Toolbox, files: tuple[str, ...]) -> Scenario:
    """The two commands a scenario compares, and the target their ratio must meet."""
    xdevlint = box.xdevlint
    if name == "check":
        return Scenario(
            name,
            "xdevlint vs flake8 with its default plugins, one process each",
            subject=xdevlint,
            baseline=box.flake8_without_xdevlint.with_args(
                "flake8 -j1", "-j1", "--isolated", "--select", FLAKE8_DEFAULT_SELECT
            ),
            ratio_of="xdevlint/flake8",
            target=0.10,
            files=files,
        )
    if name == "fix":
        return Scenario(
            name,
            "what computing fixes costs over checking (on a private copy of the corpus)",
            subject=xdevlint.with_args("xdevlint --fix --diff", "--fix", "--diff"),
            baseline=xdevlint,
            ratio_of="fix/check",
            target=1.3,
            files=files,
        )
    if name == "rules":
        return Scenario(
            name,
            "all rules vs the two rename rules",
            subject=xdevlint.with_args("xdevlint --select XDV", "--select", "XDV"),
            baseline=xdevlint.with_args(
                "xdevlint --select XDV101,XDV102", "--select", "XDV101,XDV102"
            ),
            ratio_of="all/XDV101+102",
            target=1.2,
            files=files,
        )
    if name == "plugin":
        args = ("-j1", "--isolated", "--select", f"{FLAKE8_DEFAULT_SELECT},XDV")
        return Scenario(
            name,
            "what xdevlint's flake8 plugin adds to a flake8 run",
            subject=box.flake8_with_xdevlint.with_args("flake8 + XDV plugin", *args),
            baseline=box.flake8_without_xdevlint.with_args("flake8 (plugin hidden)", *args),
            ratio_of="with/without plugin",
            target=1.3,
            files=files,
        )
    if name == "plugin-off":
        args = ("-j1", "--isolated", "--select", "F")
        return Scenario(
            name,
            "what xdevlint's flake8 plugin costs a flake8 run that selects no XDV code",
            subject=box.flake8_with_xdevlint.with_args("flake8 --select F + XDV plugin", *args),
            baseline=box.flake8_without_xdevlint.with_args("flake8 --select F (plugin hidden)", *args),
            ratio_of="with/without plugin",
            target=1.03,
            files=files,
        )
    raise ValueError(name)


def corpus_files(root: Path) -> list[Path]:
    """Every *.py under root, sorted; installed third-party packages are not the stdlib."""
    found: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [name for name in dirnames if name not in SKIPPED_DIRS]
        found.extend(Path(dirpath, name) for name in filenames if name.endswith(".py"))
    return sorted(found)


def chunked(files: Sequence[str]) -> list[list[str]]:
    """Split paths so that no command line can exceed the kernel's ARG_MAX.

    Paths get half of ARG_MAX less the environment; the other half is ample for the
    tool's own arguments. Each path costs its bytes, a NUL and an argv pointer.
    """
    environment = sum(len(key) + len(value) + 2 + 8 for key, value in os.environ.items())
    budget = os.sysconf("SC_ARG_MAX") // 2 - environment
    chunks: list[list[str]] = [[]]
    used = 0
    for path in files:
        cost = len(os.fsencode(path)) + 1 + 8
        if chunks[-1] and used + cost > budget:
            chunks.append([])
            used = 0
        chunks[-1].append(path)
        used += cost
    return chunks


def copy_corpus(files: Sequence[Path], root: Path, into: Path) -> tuple[str, ...]:
    """Copy the corpus for `--fix` runs: a fixer that ignored --diff must not rewrite the stdlib."""
    copies = []
    for path in files:
        copy = into / path.relative_to(root)
        copy.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, copy)
        copies.append(str(copy))
    return tuple(copies)


def snapshot(files: Sequence[str]) -> dict[str, tuple[int, int, int]]:
    """What changes when a file is written, in place or replaced."""
    stats = (os.stat(path) for path in files)
    return {path: (st.st_ino, st.st_size, st.st_mtime_ns) for path, st in zip(files, stats)}


def run_once(tool: Tool, chunks: Sequence[Sequence[str]]) -> tuple[float, float, int]:
    """Wall and CPU seconds of one whole run over every chunk, and its highest exit code."""
    wall = cpu = 0.0
    highest = 0
    for chunk in chunks:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        proc = subprocess.run(
            [*tool.argv, *chunk],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            check=False,
        )
        wall += time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu += after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
        if proc.returncode not in NORMAL_EXIT_CODES or TRACEBACK in proc.stderr:
            how = (
                f"was killed by signal {-proc.returncode}"
                if proc.returncode < 0
                else f"exited {proc.returncode}"
            )
            raise ToolError(f"{tool.label} {how} on {len(chunk)} file(s)" + tail(proc.stderr))
        highest = max(highest, proc.returncode)
    return wall, cpu, highest


def measure(scenario: Scenario, runs: int) -> Outcome:
    """Time both tools round-robin, `runs` times each, after one untimed smoke run."""
    timings = [Timings(scenario.subject, "subject"), Timings(scenario.baseline, "baseline")]
    # Both tools of a scenario may be the same missing xdevlint: say so once.
    problems = list(dict.fromkeys(t.tool.problem for t in timings if t.tool.problem))
    before = snapshot(scenario.files)
    ready = []
    for entry in timings:
        if entry.tool.problem:
            continue
        # One file first: a broken tool shows in seconds, not after a full run, and the
        # tool's own bytecode is compiled before any timing starts. The peer of a broken
        # tool is still timed, so the run says what it can.
        try:
            run_once(entry.tool, [scenario.files[:1]])
        except ToolError as error:
            problems.append(str(error))
        else:
            ready.append(entry)
    chunks = chunked(scenario.files)
    try:
        for round_ in range(runs):
            # Alternate the order so that neither tool always runs right after the other.
            for entry in ready if round_ % 2 == 0 else ready[::-1]:
                wall, cpu, code = run_once(entry.tool, chunks)
                entry.seconds.append(wall)
                entry.cpu_seconds.append(cpu)
                entry.exit_codes.append(code)
        changed = [path for path, stat in snapshot(scenario.files).items() if before[path] != stat]
        if changed:
            problems.append(f"{len(changed)} corpus file(s) were rewritten, e.g. {changed[0]}")
    except ToolError as error:
        problems.append(str(error))
    return Outcome(scenario, timings, problems, len(chunks))


def report(outcome: Outcome) -> None:
    """Print the scenario's commands, then one row per tool."""
    scenario = outcome.scenario
    target = f"<={scenario.target:.2f}"
    print(f"\n{scenario.name}: {scenario.title}; target {scenario.ratio_of} {target}")
    for entry in outcome.timings:
        if entry.tool.argv:
            print(f"  $ {shlex.join(entry.tool.argv)} FILES...")
        if entry.tool.about:
            print(f"    ({entry.tool.about})")
    if outcome.chunks > 1:
        print(f"  (FILES split into {outcome.chunks} command lines; a run's time is their sum)")
    width = max(len("tool"), *(len(t.tool.label) for t in outcome.timings))
    header = ("runs", "median", "min", "max", "cpu", "ratio", "target", "result")
    print(f"  {'tool':<{width}} {header[0]:>4} " + " ".join(f"{h:>8}" for h in header[1:]))
    for entry in outcome.timings:
        if entry.seconds:
            stats = (
                statistics.median(entry.seconds),
                min(entry.seconds),
                max(entry.seconds),
                statistics.median(entry.cpu_seconds),
            )
            cells = [f"{value:8.3f}" for value in stats]
        else:
            cells = [f"{'-':>8}"] * 4
        if entry.role == "subject":
            ratio = outcome.ratio
            shown = f"{ratio:.3f}" if ratio is not None else "-"
            cells += [f"{shown:>8}", f"{target:>8}", f"{outcome.result:>8}"]
        else:
            cells += [f"{'(peer)':>8}"]
        print(f"  {entry.tool.label:<{width}} {len(entry.seconds):>4} " + " ".join(cells))
    for problem in outcome.problems:
        print(f"  FAIL: {problem}")


def as_json(outcome: Outcome) -> dict[str, object]:
    """Everything measured, so other statistics can be computed later."""
    scenario = outcome.scenario
    return {
        "name": scenario.name,
        "ratio_of": scenario.ratio_of,
        "target": scenario.target,
        "ratio": outcome.ratio,
        "result": outcome.result,
        "problems": outcome.problems,
        "command_lines_per_run": outcome.chunks,
        "tools": [
            {
                "label": entry.tool.label,
                "role": entry.role,
                "argv": list(entry.tool.argv),
                "seconds": entry.seconds,
                "cpu_seconds": entry.cpu_seconds,
                "exit_codes": entry.exit_codes,
            }
            for entry in outcome.timings
        ],
    }


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="bench/run.py", description="Time xdevlint against its peers on real code."
    )
    parser.add_argument(
        "--scenario",
        action="append",
        choices=("check", "fix", "rules", "plugin", "plugin-off"),
        help="what to compare; repeatable (default: check)",
    )
    parser.add_argument(
        "--runs", type=int, default=3, metavar="N", help="timed runs per tool (default: 3)"
    )
    parser.add_argument(
        "--limit", type=int, metavar="N", help="only the first N files of the sorted corpus"
    )
    parser.add_argument(
        "--corpus",
        type=Path,
        metavar="DIR",
        help="tree of *.py files (default: this interpreter's stdlib)",
    )
    parser.add_argument(
        "--flake8",
        metavar="PATH",
        help="flake8 executable to use (default: the one beside this interpreter)",
    )
    parser.add_argument("--json", type=Path, metavar="FILE", help="write the raw timings here")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    if args.limit is not None and args.limit < 1:
        parser.error("--limit must be at least 1")
    args.scenario = list(dict.fromkeys(args.scenario or ["check"]))
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Exit 0 when every target is met, 1 when one is missed, 2 when a tool failed."""
    args = parse_args(argv)
    root = (args.corpus or Path(sysconfig.get_paths()["stdlib"])).resolve()
    everything = corpus_files(root)
    paths = everything[: args.limit]
    if not paths:
        print(f"bench: no *.py files under {root}", file=sys.stderr)
        return 2
    # Reading every file counts its bytes and puts it in the page cache before timing.
    total_bytes = sum(len(path.read_bytes()) for path in paths)
    files = tuple(str(path) for path in paths)
    nproc = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(
        f"Python {platform.python_version()} ({platform.python_implementation()}, "
        f"{sys.executable}); nproc {nproc}"
    )
    subset = f" (first {len(paths)} of {len(everything)} by --limit)" if args.limit else ""
    print(f"corpus {root}: {len(paths)} files, {total_bytes:,} bytes{subset}")
    print(f"{args.runs} timed run(s) per tool, interleaved; times in seconds")

    box = Toolbox(args.flake8)
    outcomes = []
    with tempfile.TemporaryDirectory(prefix="xdevlint-bench-") as scratch:
        for name in args.scenario:
            scenario_files = copy_corpus(paths, root, Path(scratch)) if name == "fix" else files
            scenario = build(name, box, scenario_files)
            outcome = measure(scenario, args.runs)
            report(outcome)
            outcomes.append(outcome)

    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "python": platform.python_version(),
                    "implementation": platform.python_implementation(),
                    "executable": sys.executable,
                    "nproc": nproc,
                    "corpus": {"root": str(root), "files": len(paths), "bytes": total_bytes},
                    "runs": args.runs,
                    "scenarios": [as_json(outcome) for outcome in outcomes],
                },
                indent=2,
            )
            + "\n"
        )
    results = {outcome.result for outcome in outcomes}
    return 2 if "FAIL" in results else 1 if "MISS" in results else 0


if __name__ == "__main__":
    raise SystemExit(main())
