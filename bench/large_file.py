"""What one very large, valid module costs xdevlint, per output format.

A generated file (by default 10 MB: 196,000 small functions, 786,000 lines) with one
temp -> cache ``os.rename`` at its end (the incident's shape: nothing removes the temp
when the write fails), written in a temporary directory of its own, is checked by
``python -m xdevlint check --no-cache --output-format FORMAT FILE`` as a whole process,
once per format, then fixed (``fix``: ``--fix --show-fixes`` on a copy). For each run it
prints the wall time, the peak RSS (``os.wait4``'s rusage: the largest process, a
worker's included), the exit status and whether the finding was reported (or fixed); a
process killed by a signal says which.

    .venv/bin/python bench/large_file.py                  # 10 MB, every format and fix
    .venv/bin/python bench/large_file.py --mb 2 --format json
    .venv/bin/python bench/large_file.py --write big.py   # only write the file

Run it with the interpreter of the environment under test, on an otherwise quiet
machine: nothing else should be measured at the same time.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Dict, List, Optional, Tuple

FORMATS = ("text", "concise", "json", "sarif", "github")

_HEAD = '''"""A generated module: many small functions, and one temp moved into a cache."""
import os
import tempfile

CACHE_DIR = os.path.expanduser("~/.cache/large-file-bench")

'''

_FUNCTION = "def f_{0:07d}(x):\n    y = x + {1}\n    return y * 2\n\n"

_TAIL = '''
def publish(data):
    fd, tmp = tempfile.mkstemp()
    with os.fdopen(fd, "wb") as out:
        out.write(data)
    os.rename(tmp, os.path.join(CACHE_DIR, "blob"))
'''


def write(path: Path, megabytes: float) -> Tuple[int, int]:
    """Write the module to ``path``: ``(bytes, line of the rename)``."""
    target = int(megabytes * 1_000_000)
    parts: List[str] = [_HEAD]
    size = len(_HEAD)
    index = 0
    while size + len(_TAIL) < target:
        part = _FUNCTION.format(index, index % 97)
        parts.append(part)
        size += len(part)
        index += 1
    parts.append(_TAIL)
    text = "".join(parts)
    path.write_text(text, encoding="utf-8")
    return len(text), text.count("\n")  # the rename is the last line


def measure(
    command: List[str], cwd: Path, env: Optional[Dict[str, str]] = None, kill_after: Optional[float] = None
) -> Tuple[float, int, int, str, str]:
    """``(wall seconds, peak RSS in bytes, wait status, stdout, stderr)`` of one whole
    process (``os.wait4``'s rusage: the largest of it and its children); killed
    (SIGKILL) after ``kill_after`` seconds, if given."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        process = subprocess.Popen(command, cwd=str(cwd), stdout=out, stderr=err, env=env)
        timer = threading.Timer(kill_after, process.kill) if kill_after else None
        if timer is not None:
            timer.start()
        _, status, usage = os.wait4(process.pid, 0)
        if timer is not None:
            timer.cancel()
        wall = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read().decode("utf-8", "replace"), err.read().decode("utf-8", "replace")
    return wall, usage.ru_maxrss * 1024, status, stdout, stderr


def describe(status: int) -> str:
    """The exit code, or the signal that killed the process."""
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        return f"killed by {signal.Signals(number).name}"
    return f"exit {os.WEXITSTATUS(status)}"


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mb", type=float, default=10.0, help="size of the generated module in MB (default 10)")
    parser.add_argument("--format", action="append", choices=(*FORMATS, "fix"), help="output format, or fix for --fix on a copy (repeatable; default all)")
    parser.add_argument("--write", metavar="FILE", help="only write the module to FILE and exit")
    parser.add_argument("--timeout", type=float, default=120.0, help="the per-file --timeout given to xdevlint")
    parser.add_argument("--kill-after", type=float, metavar="SECONDS", help="stop a run that takes longer (for a slow baseline)")
    args = parser.parse_args(argv)
    if args.write:
        size, lines = write(Path(args.write), args.mb)
        print(f"{args.write}: {size:,} bytes, {lines:,} lines")
        return 0
    with tempfile.TemporaryDirectory(prefix="xdevlint-large-") as work:
        module = Path(work) / "large_module.py"
        size, lines = write(module, args.mb)
        print(f"{sys.executable} -m xdevlint check --no-cache --output-format FORMAT {module.name}")
        print(f"module: {size:,} bytes, {lines:,} lines; rename on line {lines:,}")
        print(f"{'format':<8} {'wall s':>8} {'peak RSS MB':>12}  {'status':<22} finding", flush=True)
        worst = 0
        for name in args.format or (*FORMATS, "fix"):
            command = [sys.executable, "-m", "xdevlint", "check", "--no-cache", "--timeout", str(args.timeout)]
            if name == "fix":  # --fix on a copy: the safe fix stages the temp and removes it on error
                shutil.copy(module, Path(work) / "fixed.py")
                command += ["--fix", "--show-fixes", "fixed.py"]
            else:
                command += ["--output-format", name, module.name]
            wall, peak, status, output, errors = measure(command, Path(work), kill_after=args.kill_after)
            found = "XDV101" in output
            print(f"{name:<8} {wall:8.1f} {peak / 1e6:12.0f}  {describe(status):<22} {'XDV101' if found else 'missing'}", flush=True)
            if not found or os.WIFSIGNALED(status):
                worst = 1
                print("  " + "\n  ".join((output + errors).strip().splitlines()[-5:]))
    return worst


if __name__ == "__main__":
    raise SystemExit(main())
