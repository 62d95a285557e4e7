"""What ``pytest --xdevlint-guard`` adds to a test suite that moves files and makes temps in
loops (issue 34: at most 5%), and what the plugin costs when the guard is off.

Writes a sample suite into a directory of its own (``--workdir``; by default a fresh one in
the system temp directory, or on ``/dev/shm`` with ``--tmpfs``, removed after), then runs
it as whole ``pytest`` processes in four variants, in rotating order for ``--rounds``
rounds:

- ``no plugin``: ``-p no:xdevlint`` (xdevlint's plugin not loaded at all);
- ``off``: the plugin loaded, the guard off (what every pytest run of an xdevlint user pays);
- ``no-op hook``: the guard off, and a plugin that installs an audit hook doing nothing: the
  floor of any design on audit hooks (every audit event of the run calls into Python);
- ``guard``: ``--xdevlint-guard`` (report mode).

The suite's tests loop over the healthy forms (stage beside the destination and replace,
mkstemp and remove, mkdtemp with a file and rmtree, NamedTemporaryFile, read back,
safe_move from temp into the cache) and one move from temp into the cache, reported once per
test with its count; each file gets ``--payload`` bytes. For each variant it reports the
medians of the whole process's wall time, of its CPU time (user and system, from
``getrusage``), and of the tests' own time (the sum of the call phases' durations, as
pytest measures them: start-up and collection left out), and the ratios to ``off`` (the
median of the per-round ratios, and their range). Every temp and cache file lives under
the work directory (``TMPDIR`` and ``XDG_CACHE_HOME`` point there). ``--tmpfs --payload
64`` is the worst case: the suite's own I/O as cheap as it gets, so the hook's share of
the run is the largest it can be.

    python bench/guard_overhead.py [--rounds 7] [--loops 2000] [--payload BYTES] [--tmpfs] [--workdir DIR]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path
from typing import Dict, List, Tuple

REPO = Path(__file__).resolve().parent.parent

CONFTEST = textwrap.dedent(
    '''\
    import os

    import pytest

    TOTAL = []


    def pytest_runtest_logreport(report):
        if report.when == "call":
            TOTAL.append(report.duration)


    def pytest_sessionfinish(session):
        with open(os.environ["BENCH_TIMES"], "w") as handle:
            handle.write(repr(sum(TOTAL)))
    '''
)

SUITE = textwrap.dedent(
    '''\
    """A suite that moves and makes temps in loops, the healthy way (nothing to report but
    one cross-location move per test, repeated: reported once with its count)."""
    import os
    import shutil
    import tempfile

    import pytest

    from xdevlint.safemove import safe_move

    LOOPS = int(os.environ["BENCH_LOOPS"])
    PAYLOAD = b"x" * int(os.environ["BENCH_PAYLOAD"])
    CACHE = os.path.join(os.environ["XDG_CACHE_HOME"], "bench")
    os.makedirs(CACHE, exist_ok=True)
    ROUNDS = range(4)


    @pytest.mark.parametrize("round_", ROUNDS)
    def test_stage_beside_then_replace(round_):
        for i in range(LOOPS):
            dest = os.path.join(CACHE, f"blob-{round_}-{i}")
            fd, tmp = tempfile.mkstemp(dir=CACHE, suffix=".part")
            with os.fdopen(fd, "wb") as handle:
                handle.write(PAYLOAD)
            os.replace(tmp, dest)


    @pytest.mark.parametrize("round_", ROUNDS)
    def test_temp_file_made_and_removed(round_):
        for _ in range(LOOPS):
            fd, tmp = tempfile.mkstemp()
            try:
                os.write(fd, PAYLOAD)
            finally:
                os.close(fd)
                os.unlink(tmp)


    @pytest.mark.parametrize("round_", ROUNDS)
    def test_temp_dir_with_a_file(round_):
        for _ in range(LOOPS // 4):
            directory = tempfile.mkdtemp()
            with open(os.path.join(directory, "shard"), "wb") as handle:
                handle.write(PAYLOAD)
            shutil.rmtree(directory)


    @pytest.mark.parametrize("round_", ROUNDS)
    def test_named_temporary_file(round_):
        for _ in range(LOOPS // 2):
            with tempfile.NamedTemporaryFile() as handle:
                handle.write(PAYLOAD)


    @pytest.mark.parametrize("round_", ROUNDS)
    def test_read_back(round_):
        names = sorted(os.listdir(CACHE))[:LOOPS]
        for name in names:
            with open(os.path.join(CACHE, name), "rb") as handle:
                handle.read()


    @pytest.mark.parametrize("round_", ROUNDS)
    def test_safe_move_from_temp(round_):
        for i in range(LOOPS // 4):
            fd, tmp = tempfile.mkstemp()
            with os.fdopen(fd, "wb") as handle:
                handle.write(PAYLOAD)
            safe_move(tmp, os.path.join(CACHE, f"safe-{round_}-{i}"))


    @pytest.mark.parametrize("round_", ROUNDS)
    def test_one_move_between_locations(round_):
        for i in range(LOOPS // 4):
            fd, tmp = tempfile.mkstemp()
            os.close(fd)
            os.replace(tmp, os.path.join(CACHE, f"naive-{round_}-{i}"))
    '''
)

#: A plugin that installs an audit hook doing nothing: the floor of any audit-hook design.
NOOP_HOOK = "import sys\n\nsys.addaudithook(lambda event, args: None)\n"

#: The suite's parametrisation (4 rounds of each test).
ROUNDS = range(4)

VARIANTS: Dict[str, List[str]] = {
    "no plugin": ["-p", "no:xdevlint"],
    "off": [],
    "no-op hook": ["-p", "noop_hook"],
    "guard": ["--xdevlint-guard"],
}


def run(work: Path, variant: str, loops: int, payload: int) -> Tuple[float, float, float]:
    """(the process's wall time, its CPU time, the tests' call phases) in seconds, for one
    run in a fresh cache."""
    cache, tmp, times = work / "cache", work / "tmp", work / "times"
    for directory in (cache, tmp):
        shutil.rmtree(directory, ignore_errors=True)
        directory.mkdir()
    environment = dict(
        os.environ, PYTHONPATH=f"{REPO}{os.pathsep}{work}", TMPDIR=str(tmp), XDG_CACHE_HOME=str(cache),
        BENCH_LOOPS=str(loops), BENCH_PAYLOAD=str(payload), BENCH_TIMES=str(times),
    )
    environment.pop("PYTEST_ADDOPTS", None)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *VARIANTS[variant], "suite"],
        cwd=work, env=environment, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, check=False,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode != 0:
        raise SystemExit(f"{variant}: pytest failed\n{done.stdout}")
    if variant == "guard" and ("between locations in 4 tests" not in done.stdout or "left behind" in done.stdout):
        raise SystemExit(f"guard: expected the four tests' repeated moves, and no temp left behind\n{done.stdout}")
    return wall, cpu, float(times.read_text())


def _fast_directory() -> str:
    """/dev/shm where there is one: on a tmpfs the suite's own I/O is cheapest."""
    shm = "/dev/shm"
    return shm if os.path.isdir(shm) and os.access(shm, os.W_OK) else tempfile.gettempdir()


def _filesystem(path: Path) -> str:
    try:
        with open("/proc/self/mounts", encoding="utf-8") as handle:
            mounts = [line.split()[1:3] for line in handle]
    except OSError:
        return "filesystem unknown"
    inside = [m for m in mounts if str(path) == m[0] or str(path).startswith(m[0].rstrip("/") + "/")]
    best = max(inside, key=lambda m: len(m[0]), default=None)
    return f"{best[1]} on {best[0]}" if best else "filesystem unknown"


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--loops", type=int, default=2000, help="iterations of each test's loop")
    parser.add_argument("--payload", type=int, default=64 * 1024, help="bytes written to each file (default 64 KiB)")
    parser.add_argument("--tmpfs", action="store_true", help="work on /dev/shm: the suite's I/O as cheap as it gets")
    parser.add_argument("--workdir", type=Path, default=None, help="default: a fresh directory, removed after")
    options = parser.parse_args(argv)
    base = _fast_directory() if options.tmpfs else tempfile.gettempdir()
    work = options.workdir or Path(tempfile.mkdtemp(prefix="xdevlint-guard-bench-", dir=base))
    try:
        (work / "suite").mkdir(parents=True, exist_ok=True)
        (work / "suite" / "conftest.py").write_text(CONFTEST)
        (work / "suite" / "test_loops.py").write_text(SUITE)
        (work / "noop_hook.py").write_text(NOOP_HOOK)
        names = list(VARIANTS)
        for name in names:
            run(work, name, options.loops, options.payload)  # warm the page cache and the bytecode
        results: Dict[str, List[Tuple[float, float, float]]] = {name: [] for name in names}
        for round_ in range(options.rounds):
            order = names[round_ % len(names):] + names[: round_ % len(names)]
            for name in order:
                results[name].append(run(work, name, options.loops, options.payload))
        print(f"{options.rounds} rounds, {options.loops} loops per test, {options.payload} bytes a file, in {work} ({_filesystem(work)}), "
              f"{sys.executable} ({sys.version.split()[0]})")
        print("each variant's median; against `off`: the median of the rounds' ratios (lowest-highest)")
        header = ["variant", "whole run", "CPU", "tests", "whole run / off", "CPU / off", "tests / off"]
        print(f"{header[0]:<10}" + "".join(f"{h:>11}" for h in header[1:4]) + "".join(f"{h:>22}" for h in header[4:]))
        for name in names:
            medians = [statistics.median(one[index] for one in results[name]) for index in range(3)]
            columns = []
            for index in range(3):
                ratios = [mine[index] / base[index] for mine, base in zip(results[name], results["off"])]
                columns.append(f"{statistics.median(ratios):.3f} ({min(ratios):.3f}-{max(ratios):.3f})")
            print(f"{name:<10}" + "".join(f"{m:>10.3f}s" for m in medians) + "".join(f"{c:>22}" for c in columns))
        # What the guard adds to one iteration of the loops, whatever the iteration costs.
        iterations = len(ROUNDS) * (3 * options.loops + options.loops // 4 * 3 + options.loops // 2)
        added = [(g[2] - o[2]) / iterations * 1e6 for g, o in zip(results["guard"], results["off"])]
        print(f"the guard adds {statistics.median(added):.1f} us to each of the {iterations} loop iterations "
              f"of the tests (median of the rounds; {min(added):.1f}-{max(added):.1f})")
    finally:
        if options.workdir is None:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
