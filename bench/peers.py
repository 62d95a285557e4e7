"""xdevlint against its peers, as whole processes on three trees, in one run: writes bench/RESULTS.md.

    python bench/peers.py [--workdir DIR] [--runs N] [--slow-runs N] [--corpus NAME=DIR]...
                          [--site-packages "PKG PKG"] [--only NAME]... [--output FILE] [--json FILE]

Run it with the interpreter of the environment under test (the one whose ``xdevlint``
and ``flake8`` carry this checkout). The peers (ruff, flake8, Fixit) are installed by
this script from PyPI into a venv of its own under ``--workdir`` (default: a folder in
the temp directory, kept between runs), never into the environment under test. The
site-packages tree is a plain copy of a fresh venv's ``site-packages`` into which the
script installs a few big packages. bench/README.md says what each row means.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shlex
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
import ecosystem  # noqa: E402  (bench/ecosystem.py: the corpus and how to fetch it)
REPO = BENCH.parent
HIDE_XDEVLINT = BENCH / "flake8_no_xdevlint.py"
DEFAULT_SITE_PACKAGES = "django sympy"
NORMAL_EXIT_CODES = (0, 1)
#: Fixit ORs 1 (findings) with 2 (files it could not parse: the stdlib holds some that
#: libcst's parser refuses, lib2to3's test data).
FIXIT_EXIT_CODES = (0, 1, 2, 3)

#: Fixit's rule for the comparison: flag every call spelled ``os.rename(...)`` (by
#: qualified name, so aliases count), which is the cheapest useful question to ask.
FIXIT_RULE = '''\
import libcst as cst
from fixit import LintRule
from libcst.metadata import QualifiedNameProvider


class NoOsRename(LintRule):
    """Flags os.rename calls."""

    METADATA_DEPENDENCIES = (QualifiedNameProvider,)
    VALID = []
    INVALID = []

    def visit_Call(self, node: cst.Call) -> None:
        if QualifiedNameProvider.has_name(self, node.func, "os.rename"):
            self.report(node, "os.rename cannot cross mount points")
'''

#: The floors: what no Python tool can beat, run as processes like the tools.
BYTE_FLOOR = (
    "import sys\n"
    "n = 0\n"
    "for path in open(sys.argv[1], encoding='utf-8').read().splitlines():\n"
    "    with open(path, 'rb') as handle:\n"
    "        n += handle.read().count(b'rename')\n"
)
AST_FLOOR = (
    "import ast, sys, warnings\n"
    "warnings.simplefilter('ignore')\n"
    "for path in open(sys.argv[1], encoding='utf-8').read().splitlines():\n"
    "    with open(path, 'rb') as handle:\n"
    "        data = handle.read()\n"
    "    try:\n"
    "        ast.parse(data)\n"
    "    except (SyntaxError, ValueError, RecursionError, MemoryError):\n"
    "        pass\n"
)


@dataclass
class Timing:
    """Every run of one command: wall seconds, CPU seconds (with children), peak RSS (KiB)."""

    label: str
    command: List[str]
    walls: List[float] = field(default_factory=list)
    cpus: List[float] = field(default_factory=list)
    rss: List[int] = field(default_factory=list)
    codes: List[int] = field(default_factory=list)
    #: Exit codes of a run that did its work: findings (1) are the point of the run.
    accepted: Tuple[int, ...] = NORMAL_EXIT_CODES

    @property
    def wall(self) -> float:
        return statistics.median(self.walls)

    @property
    def cpu(self) -> float:
        return statistics.median(self.cpus)

    @property
    def peak(self) -> int:
        return max(self.rss)


def timed(command: Sequence[str], env: Optional[Dict[str, str]] = None, cwd: Optional[Path] = None) -> Tuple[float, float, int, int]:
    """Run ``command``; its wall time, CPU time and peak RSS (of the largest process in its
    tree that it waited for: ``wait4``'s rusage, as ``getrusage(RUSAGE_CHILDREN)`` sees it)."""
    started = time.perf_counter()
    process = subprocess.Popen(
        list(command), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, cwd=cwd
    )
    assert process.stderr is not None
    errors = process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    process.stderr.close()
    if b"Traceback (most recent call last)" in errors:
        raise SystemExit(f"{shlex.join(command)} crashed:\n{errors.decode(errors='replace')[-3000:]}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss, process.returncode


def measure(timing: Timing, runs: int, env: Optional[Dict[str, str]] = None, before: Optional[object] = None) -> Timing:
    for _ in range(runs):
        if callable(before):
            before()  # e.g. empty the cold cache, fill the warm one
        wall, cpu, rss, code = timed(timing.command, env)
        if code not in timing.accepted:
            raise SystemExit(f"{shlex.join(timing.command)} exited {code}")
        timing.walls.append(wall)
        timing.cpus.append(cpu)
        timing.rss.append(rss)
        timing.codes.append(code)
    return timing


# -- set-up -------------------------------------------------------------------------


def venv(path: Path, packages: Sequence[str]) -> Path:
    """A venv at ``path`` with ``packages`` (made once; kept for the next run)."""
    python = path / "bin" / "python"
    marker = path / ".installed"
    wanted = " ".join(sorted(packages))
    if not (python.exists() and marker.exists() and marker.read_text() == wanted):
        shutil.rmtree(path, ignore_errors=True)
        subprocess.run([sys.executable, "-m", "venv", str(path)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", *packages], check=True)
        marker.write_text(wanted)
    return python


def site_packages_copy(workdir: Path, packages: str) -> Path:
    """A plain copy of a fresh venv's site-packages holding ``packages`` (not named
    ``site-packages``, which ruff excludes by default)."""
    python = venv(workdir / "site-venv", packages.split())
    source = Path(subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True,
    ).stdout.strip())
    target = workdir / "sitepkgs"
    marker = workdir / ".sitepkgs"
    if not (target.exists() and marker.exists() and marker.read_text() == packages):
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"), symlinks=True)
        marker.write_text(packages)
    return target


def python_files(root: Path) -> List[Path]:
    found: List[Path] = []
    for directory, _, names in os.walk(root):
        found.extend(Path(directory, name) for name in names if name.endswith(".py"))
    return sorted(found)


def clean_files(files: Sequence[Path], count: int = 5) -> List[Path]:
    """The first ``count`` files, of at least 2 KB, that no rule's scan keeps: what a
    pre-commit call on clean files checks."""
    from xdevlint.config import Config
    from xdevlint.stages.scan import Scan
    from xdevlint.stages.source import DecodeError, decode

    config = Config()
    chosen: List[Path] = []
    for path in files:
        data = path.read_bytes()
        if len(data) < 2048:
            continue
        try:
            scan = Scan(decode(data)[0])
        except DecodeError:
            continue
        if not any(spec.gate(scan, config.locations) for spec in config.specs_for(str(path))):
            chosen.append(path)
            if len(chosen) == count:
                break
    return chosen


def snapshot(root: Path) -> List[Tuple[str, int, int]]:
    return [(str(p), p.stat().st_size, p.stat().st_mtime_ns) for p in python_files(root)]


# -- the run ------------------------------------------------------------------------


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workdir", type=Path, default=Path(tempfile.gettempdir()) / "xdevlint-peers")
    parser.add_argument("--runs", type=int, default=3, help="timed runs per command (default 3)")
    parser.add_argument("--slow-runs", type=int, help="runs for flake8 and Fixit (default: --runs)")
    parser.add_argument("--corpus", action="append", default=[], metavar="NAME=DIR", help="a tree to time on (repeatable)")
    parser.add_argument("--site-packages", default=DEFAULT_SITE_PACKAGES, help=f"packages of the site-packages tree (default: {DEFAULT_SITE_PACKAGES!r})")
    parser.add_argument("--only", action="append", default=[], metavar="NAME", help="only these corpora")
    parser.add_argument("--output", type=Path, default=BENCH / "RESULTS.md")
    parser.add_argument("--json", type=Path, help="also write every raw timing here")
    parser.add_argument("--no-slow", action="store_true", help="leave out flake8 and Fixit (minutes per tree)")
    args = parser.parse_args(argv)
    slow_runs = args.slow_runs or args.runs
    workdir: Path = args.workdir
    workdir.mkdir(parents=True, exist_ok=True)
    bin_dir = Path(sys.executable).parent
    xdevlint = [str(bin_dir / "xdevlint")] if (bin_dir / "xdevlint").exists() else [sys.executable, "-m", "xdevlint"]
    flake8_here = [str(bin_dir / "flake8")]

    print("installing the peers into", workdir / "tools", flush=True)
    tools_python = venv(workdir / "tools", ["ruff", "flake8", "fixit"])
    tools = tools_python.parent
    rules = workdir / "rules"
    rules.mkdir(exist_ok=True)
    (rules / "xdv_bench_rules.py").write_text(FIXIT_RULE)
    corpora: Dict[str, Path] = {}
    for item in args.corpus:
        name, _, directory = item.partition("=")
        corpora[name] = Path(directory)
    if not args.corpus:
        print("preparing the ecosystem corpus (bench/ecosystem.py's, fetched if missing)", flush=True)
        root = ecosystem.DEFAULT_CORPUS.expanduser()
        targets = ecosystem.prepare(root, [ecosystem.Pin.parse(spec) for spec in ecosystem.PINS], stdlib=True)
        corpora["stdlib"] = root / next(t for t in targets if t.startswith("stdlib-"))
        print("making the site-packages copy", flush=True)
        corpora["site-packages"] = site_packages_copy(workdir, args.site_packages)
        corpora["ecosystem"] = root / "src"
    if args.only:
        corpora = {name: path for name, path in corpora.items() if name in args.only}

    versions = {
        "python": platform.python_version(),
        "xdevlint": subprocess.run([*xdevlint, "--version"], capture_output=True, text=True).stdout.strip(),
        "ruff": subprocess.run([str(tools / "ruff"), "--version"], capture_output=True, text=True).stdout.strip(),
        "flake8": subprocess.run([str(tools / "flake8"), "--version"], capture_output=True, text=True).stdout.strip().splitlines()[0],
        "fixit": subprocess.run([str(tools / "fixit"), "--version"], capture_output=True, text=True).stdout.strip(),
    }
    load_before = os.getloadavg()
    started = time.time()
    results: Dict[str, Dict[str, Timing]] = {}
    sizes: Dict[str, Tuple[int, int]] = {}
    one_thread = dict(os.environ, RAYON_NUM_THREADS="1")
    fixit_env = dict(os.environ, PYTHONPATH=str(rules))

    # start-up: a bare interpreter, --version, a pre-commit-style call on 5 clean files
    stdlib_files = python_files(corpora.get("stdlib", Path(sysconfig.get_paths()["stdlib"])))
    five = [str(p) for p in clean_files(stdlib_files)]
    startup = {
        "python3 -c pass": Timing("python3 -c pass", [sys.executable, "-c", "pass"]),
        "xdevlint --version": Timing("xdevlint --version", [*xdevlint, "--version"]),
        "xdevlint 5 clean files": Timing("xdevlint 5 clean files", [*xdevlint, "--no-cache", *five]),
        "ruff --version": Timing("ruff --version", [str(tools / "ruff"), "--version"]),
    }
    print("start-up", flush=True)
    for timing in startup.values():
        measure(timing, max(args.runs, 5))
    results["start-up"] = startup

    # Two passes: first every tree's quick rows (xdevlint, ruff, the floors), then the
    # slow peers (flake8, Fixit), so that a run cut short still has every target's rows.
    # The report is rewritten after each tree of each pass.
    plans: Dict[str, List[Tuple[Timing, int, Optional[Dict[str, str]], object, bool]]] = {}
    snapshots: Dict[str, List[Tuple[str, int, int]]] = {}
    for name, root in corpora.items():
        files = python_files(root)
        sizes[name] = (len(files), sum(p.stat().st_size for p in files))
        listing = workdir / f"{name}.files"
        listing.write_text("\n".join(str(p) for p in files) + "\n")
        snapshots[name] = snapshot(root)
        warm_dir = workdir / f"cache-warm-{name}"
        shutil.rmtree(warm_dir, ignore_errors=True)
        cold_dir = workdir / f"cache-cold-{name}"

        def empty_cold(cold_dir: Path = cold_dir) -> None:
            shutil.rmtree(cold_dir, ignore_errors=True)

        def fill_warm(warm_dir: Path = warm_dir, root: Path = root) -> None:
            if not warm_dir.exists():
                subprocess.run([*xdevlint, "--cache-dir", str(warm_dir), str(root)], stdout=subprocess.DEVNULL, check=False)

        plans[name] = [
            (Timing("floor: read every file", [sys.executable, "-c", BYTE_FLOOR, str(listing)]), args.runs, None, None, False),
            (Timing("floor: ast.parse every file", [sys.executable, "-c", AST_FLOOR, str(listing)]), args.runs, None, None, False),
            (Timing("ruff, one thread", [str(tools / "ruff"), "check", "--isolated", "--no-cache", "-q", str(root)]), args.runs, one_thread, None, False),
            (Timing("ruff, default threads", [str(tools / "ruff"), "check", "--isolated", "--no-cache", "-q", str(root)]), args.runs, None, None, False),
            (Timing("xdevlint cold --jobs 1", [*xdevlint, "--jobs", "1", "--cache-dir", str(cold_dir), str(root)]), args.runs, None, empty_cold, False),
            (Timing("xdevlint cold, default jobs", [*xdevlint, "--cache-dir", str(cold_dir), str(root)]), args.runs, None, empty_cold, False),
            (Timing("xdevlint warm", [*xdevlint, "--cache-dir", str(warm_dir), str(root)]), args.runs, None, fill_warm, False),
            (Timing("flake8 -j1", [str(tools / "flake8"), "-j1", "--isolated", str(root)]), slow_runs, None, None, True),
            (Timing("Fixit, one rule (os.rename)", [str(tools / "fixit"), "--rules", "xdv_bench_rules", "lint", str(root)], accepted=FIXIT_EXIT_CODES), slow_runs, fixit_env, None, True),
        ]
        if name == "stdlib":
            plans[name] += [
                (Timing("flake8 -j1 --select F, xdevlint plugin installed", [*flake8_here, "-j1", "--isolated", "--select", "F", str(root)]), slow_runs, None, None, True),
                (Timing("flake8 -j1 --select F, plugin hidden", [sys.executable, str(HIDE_XDEVLINT), "-j1", "--isolated", "--select", "F", str(root)]), slow_runs, None, None, True),
            ]
        results[name] = {}

    def write() -> None:
        text = report(results, sizes, versions, corpora, five, load_before, os.getloadavg(), time.time() - started, args)
        args.output.write_text(text)
        if args.json:
            args.json.write_text(json.dumps(
                {corpus: {label: t.__dict__ for label, t in rows.items()} for corpus, rows in results.items()}, indent=1
            ))

    for slow in (False, True):
        if slow and args.no_slow:
            break
        for name, plan in plans.items():
            for timing, runs, env, hook, is_slow in plan:
                if is_slow is slow:
                    print(f"{name}: {timing.label} x{runs}", flush=True)
                    results[name][timing.label] = measure(timing, runs, env, hook)
            if snapshot(corpora[name]) != snapshots[name]:
                raise SystemExit(f"a tool changed files under {corpora[name]}")
            write()
    print(args.output.read_text())
    return 0


# -- the report ---------------------------------------------------------------------


def ratio(a: Timing, b: Timing) -> float:
    return a.wall / b.wall


def report(
    results: Dict[str, Dict[str, Timing]],
    sizes: Dict[str, Tuple[int, int]],
    versions: Dict[str, str],
    corpora: Dict[str, Path],
    five: Sequence[str],
    load_before: Tuple[float, float, float],
    load_after: Tuple[float, float, float],
    elapsed: float,
    args: argparse.Namespace,
) -> str:
    lines: List[str] = ["# xdevlint against its peers", ""]
    lines.append(f"Written by `bench/peers.py` ({' '.join(sys.argv[1:]) or 'no options'}) on {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
                 f"in {elapsed / 60:.0f} min.")
    lines.append("")
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    lines.append(f"Machine: {platform.machine()}, {cpus} CPUs available; load average before "
                 f"{load_before[0]:.1f} / after {load_after[0]:.1f} (1 min). "
                 + ("**The machine was busy: timings are noisy; repeat on a quiet machine.**" if max(load_before[0], load_after[0]) > 0.5 * (cpus or 1) else ""))
    lines.append("")
    lines.append("Versions: " + "; ".join(f"{k} {v}" for k, v in versions.items()) + ".")
    lines.append("")
    lines.append("Medians of the runs; wall seconds as whole processes; CPU = user + system of the process and "
                 "the children it waited for; peak RSS = the largest single process (MiB). Ratios are of wall times.")
    lines.append("")
    startup = results.get("start-up", {})
    if startup:
        bare = startup["python3 -c pass"]
        lines += ["## Start-up", "", "| command | runs | wall s | ratio to `python3 -c pass` | peak RSS MiB |", "|---|---|---|---|---|"]
        for label, t in startup.items():
            lines.append(f"| {label} | {len(t.walls)} | {t.wall:.3f} | {ratio(t, bare):.1f}× | {t.peak / 1024:.0f} |")
        lines += ["", "The 5 clean files: " + ", ".join(f"`{Path(p).relative_to(corpora.get('stdlib', Path('/')))}`" if 'stdlib' in corpora else p for p in five) + ".", ""]
    targets: List[Tuple[str, float, float]] = []
    for name, rows in results.items():
        if name == "start-up" or "xdevlint warm" not in rows:
            continue  # not measured (yet)
        count, size = sizes[name]
        ruff1 = rows["ruff, one thread"]
        lines += [f"## {name}: `{corpora[name]}`, {count:,} files, {size / 1e6:.0f} MB", ""]
        lines += ["| command | runs | wall s (min–max) | CPU s | peak RSS MiB | wall / ruff one thread |", "|---|---|---|---|---|---|"]
        for label, t in rows.items():
            lines.append(f"| {label} | {len(t.walls)} | {t.wall:.2f} ({min(t.walls):.2f}–{max(t.walls):.2f}) | {t.cpu:.2f} | "
                         f"{t.peak / 1024:.0f} | {ratio(t, ruff1):.2f}× |")
        lines.append("")
        cold1 = rows["xdevlint cold --jobs 1"]
        cold = rows["xdevlint cold, default jobs"]
        warm = rows["xdevlint warm"]
        limit = 3.0 if name == "stdlib" else 2.0
        targets.append((f"{name}: cold `--jobs 1` / ruff one thread", ratio(cold1, ruff1), limit))
        if name != "stdlib":
            targets.append((f"{name}: cold default jobs / ruff one thread", ratio(cold, ruff1), 1.0))
        targets.append((f"{name}: warm / ruff one thread", ratio(warm, ruff1), 0.1))
        targets.append((f"{name}: peak memory, xdevlint cold `--jobs 1` / ruff one thread", cold1.peak / ruff1.peak, 1.5))
        targets.append((f"{name}: peak memory, xdevlint cold default / ruff default", cold.peak / rows["ruff, default threads"].peak, 1.5))
        if "flake8 -j1 --select F, plugin hidden" in rows:
            with_plugin = rows["flake8 -j1 --select F, xdevlint plugin installed"]
            without = rows["flake8 -j1 --select F, plugin hidden"]
            targets.append((f"{name}: flake8 --select F with the plugin / without", ratio(with_plugin, without), 1.03))
    if startup:
        bare = startup["python3 -c pass"]
        targets.append(("`xdevlint --version` / `python3 -c pass`", ratio(startup["xdevlint --version"], bare), 4.0))
        targets.append(("5 clean files / `python3 -c pass`", ratio(startup["xdevlint 5 clean files"], bare), 4.0))
    lines += ["## Targets", "", "| target | measured | limit | |", "|---|---|---|---|"]
    for label, value, limit in targets:
        lines.append(f"| {label} | {value:.2f} | ≤ {limit:g} | {'met' if value <= limit else '**missed**'} |")
    lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
