"""Many files through the engine: the cache first, then this process or a pool of workers.

The CLI hands over the discovered files; this module reads each one, serves it from
the result cache when the same bytes were checked with the same settings by the same
xdevlint, and checks the others, in worker processes when there are enough of them to
pay for starting the workers. Results come back in discovery order whatever the
number of workers, so the output never depends on ``--jobs``.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Dict, Iterator, List, Optional, Sequence, Tuple, Union

from xdevlint.config import Config
from xdevlint.discovery import Candidate
from xdevlint.engine import lint_source
from xdevlint.model import FileResult, FixResult, analysis_error, portable
from xdevlint.pool import DEFAULT_TIMEOUT, Failure, Pool, in_worker

if TYPE_CHECKING:
    from xdevlint.cache import Cache
    from xdevlint.fixing import FixRun

#: Workers are started only when checking in this process has taken ``POOL_AFTER``
#: seconds and at least ``POOL_MIN_FILES`` files remain: a worker costs a Python start
#: and xdevlint's imports (libcst's too, once a file needs it), which a run over a few
#: files, or over files every scan clears at once, would only lose time on.
POOL_MIN_FILES = 16
POOL_AFTER = 0.5
#: Test hook: another ``POOL_AFTER`` (seconds), so that tests can make workers start at once.
POOL_AFTER_HOOK = "XDEVLINT_TEST_POOL_AFTER"

#: Test hooks, honoured only inside a worker process: a file whose path contains the
#: value kills its worker (``..._DIE``: SIGKILL, as the kernel's out-of-memory killer
#: does), aborts it (``..._ABORT``: ``abort()``, as a native library does when an
#: allocation fails) or hangs it (``..._HANG``). They let the tests make a real worker
#: die or hang on one file.
DIE_HOOK = "XDEVLINT_TEST_WORKER_DIE"
ABORT_HOOK = "XDEVLINT_TEST_WORKER_ABORT"
HANG_HOOK = "XDEVLINT_TEST_WORKER_HANG"

#: Called after each file: files done, findings so far.
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Settings:
    """How to run: ``jobs`` processes; ``cache``: use the result cache (in ``cache_dir``
    if given, else per project root); ``edits``: fixes need their textual edits
    (JSON, SARIF); ``timeout``: seconds a worker may spend on one file."""

    jobs: int = 1
    cache: bool = True
    cache_dir: Optional[Path] = None
    edits: bool = False
    timeout: float = DEFAULT_TIMEOUT


@dataclass(frozen=True)
class _Task:
    """One file to check or fix. Its bytes are read where it runs, not held from
    discovery on: a run over a large tree would otherwise keep every file in memory.
    ``digest``: that of the bytes the cache key was made from; the result is cached only
    if the file still holds them (None: not cached)."""

    path: str
    config: Config
    edits: bool
    unsafe: Optional[bool]  # None: only check; True/False: fix, with or without unsafe fixes
    write: bool
    digest: Optional[str] = None


Outcome = Union[Tuple[Union[FileResult, FixResult], Optional[str]], Failure]


def check_files(
    candidates: Sequence[Candidate],
    config_for: Callable[[str], Config],
    settings: Settings,
    fixing: Optional["FixRun"] = None,
    progress: Optional[Progress] = None,
) -> List[FileResult]:
    """Every candidate's result, in the candidates' order."""
    caches: Dict[Path, Cache] = {}
    done: List[Optional[FileResult]] = [None] * len(candidates)
    fixes: Dict[int, FixResult] = {}
    keys: Dict[int, Tuple[Cache, str]] = {}
    tasks: List[Tuple[int, _Task]] = []
    counted = [0, 0]  # files, findings

    def finish(index: int, result: FileResult) -> None:
        done[index] = result
        counted[0] += 1
        counted[1] += len(result.findings)
        if progress is not None:
            progress(counted[0], counted[1])

    unsafe = None if fixing is None else fixing.unsafe
    write = fixing is not None and not fixing.diff
    for index, candidate in enumerate(candidates):
        path = candidate.path
        if candidate.problem is not None:
            finish(index, FileResult(path, (analysis_error(path, f"cannot read: {candidate.problem}"),)))
            continue
        config = config_for(path)
        digest = None
        if settings.cache:
            from xdevlint import cache as caching  # hashlib, json: not for --no-cache
            data = _read(path)
            if isinstance(data, FileResult):
                finish(index, data)
                continue
            directory = settings.cache_dir or caching.default_directory(config)
            cache = caches.get(directory)
            if cache is None:
                cache = caches[directory] = caching.Cache(directory)
            key = cache.key(data, path, config)
            cached = cache.get(path, key, settings.edits or fixing is not None, config)
            if cached is not None and (unsafe is None or not caching.fixable(cached, unsafe)):
                result = FileResult(path, cached.findings, data if cached.findings else None)
                if fixing is not None:
                    fixes[index] = FixResult(path, data, data, (), result, result)
                finish(index, result)
                continue
            keys[index] = (cache, key)
            digest = _digest(data)
        tasks.append((index, _Task(path, config, settings.edits, unsafe, write, digest)))

    by_index = dict(tasks)
    for index, answer in _run(tasks, settings):
        task = by_index.pop(index)
        if isinstance(answer, Failure):
            finish(index, FileResult(task.path, (analysis_error(task.path, answer.reason),)))
            continue
        outcome, digest = answer
        if isinstance(outcome, FixResult):
            fixes[index] = outcome
            result = outcome.result
            if index in keys and outcome.error is None:
                cache, _ = keys[index]
                cache.put(task.path, cache.key(outcome.fixed, task.path, task.config), result, True, task.config)
            finish(index, FileResult(task.path, result.findings, outcome.fixed, outcome.applied))
            continue
        if index in keys and digest == task.digest:
            cache, key = keys[index]
            cache.put(task.path, key, outcome, task.edits, task.config)
        finish(index, outcome)

    for cache in caches.values():
        cache.save()
    if fixing is not None:
        for index in sorted(fixes):
            fixing.record(fixes[index])
    return [result for result in done if result is not None]


def _run(tasks: Sequence[Tuple[int, _Task]], settings: Settings) -> Iterator[Tuple[int, Outcome]]:
    """Each task's outcome, as it finishes: here, then in worker processes once the
    work has proved long enough to pay for them."""
    after = float(os.environ.get(POOL_AFTER_HOOK, POOL_AFTER))
    started = time.monotonic()
    for position, (index, task) in enumerate(tasks):
        rest = tasks[position:]
        jobs = min(settings.jobs, len(rest))
        if position and jobs > 1 and len(rest) >= POOL_MIN_FILES and time.monotonic() - started >= after:
            with Pool("xdevlint.batch:run_task", jobs, settings.timeout) as pool:
                yield from pool.map(rest)
            return
        yield index, run_task(task)


def run_task(task: _Task) -> Tuple[Union[FileResult, FixResult], Optional[str]]:
    """One file, checked or fixed: the work a worker process does (also run in-process),
    and the digest of the bytes it read (when the task has one to match)."""
    if in_worker():
        _test_hooks(task.path)
    data = _read(task.path)
    if isinstance(data, FileResult):
        return data, None
    digest = _digest(data) if task.digest is not None else None
    if task.unsafe is None:
        result = lint_source(data, task.path, task.config, edits=task.edits)
        # The source goes back only for the excerpts of findings.
        return replace(result, findings=portable(result.findings), source=data if result.findings else None), digest
    from xdevlint.fixing import fix_file

    fixed = fix_file(data, task.path, task.config, task.unsafe, write=task.write)
    return replace(
        fixed,
        applied=portable(fixed.applied),
        result=replace(fixed.result, findings=portable(fixed.result.findings)),
        before=replace(fixed.before, findings=portable(fixed.before.findings)),
    ), digest


def _read(path: str) -> Union[bytes, FileResult]:
    """The file's bytes, or the XDV000 result of a file that cannot be read."""
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except OSError as error:
        return FileResult(path, (analysis_error(path, f"cannot read: {error.strerror or error}"),))


def _digest(data: bytes) -> str:
    import hashlib

    return hashlib.blake2b(data, digest_size=16).hexdigest()


def _test_hooks(path: str) -> None:
    die, abort, hang = os.environ.get(DIE_HOOK), os.environ.get(ABORT_HOOK), os.environ.get(HANG_HOOK)
    if die and die in path:
        import signal

        os.kill(os.getpid(), signal.SIGKILL)
    if abort and abort in path:
        os.abort()
    if hang and hang in path:
        import time

        time.sleep(3600)
