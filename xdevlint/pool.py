"""A process pool of our own: tasks in chunks, a result per task, and a task that kills
or hangs its worker reported as that task's failure while the run goes on.

``concurrent.futures`` and ``multiprocessing.Pool`` lose the whole run (a
``BrokenProcessPool``) or wait forever when one worker dies or hangs. Here each worker
has its own pipe; it sends a result per task, so the parent always knows which task a
worker is on: the first of its chunk not yet answered. When a worker exits, or spends
longer than ``timeout`` seconds on one task, that task gets a ``Failure``, the rest of
its chunk goes back to the queue, and a new worker takes its place.

Workers are started with the ``spawn`` method on every platform (no fork of a parent
that may hold threads or locks), so the function they run must be importable by name.
"""

from __future__ import annotations

import gc
import importlib
import os
import time
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Deque, Dict, Generator, Iterator, List, Optional, Sequence, Tuple

if TYPE_CHECKING:  # multiprocessing itself is imported only when a pool starts
    from multiprocessing.connection import Connection

Task = Tuple[int, Any]

#: Per-file time limit in a worker, in seconds (the CLI's ``--timeout``). Generous: the
#: slowest file of the stdlib and the ecosystem corpus takes a few seconds.
DEFAULT_TIMEOUT = 120.0

_IN_WORKER = False


@dataclass(frozen=True)
class Failure:
    """A task whose worker died or ran out of time; ``reason`` says which."""

    reason: str


def in_worker() -> bool:
    """Whether this process is one of a pool's workers."""
    return _IN_WORKER


def available_cpus() -> int:
    """The CPUs this process may run on (its affinity mask, not the machine's count)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not Linux
        return os.cpu_count() or 1


def chunk_size(tasks: int, jobs: int) -> int:
    """Several chunks per worker, so one slow chunk does not leave the others idle."""
    return max(1, min(32, tasks // (jobs * 8)))


@dataclass
class _Worker:
    process: Any
    connection: "Connection"
    chunk: Deque[Task] = field(default_factory=deque)
    since: float = 0.0  # when its current task started
    ready: bool = False  # it has imported what it needs; its clock runs from then


class Pool:
    """``jobs`` worker processes running ``function`` (``"module:name"``) on tasks.

    A worker says it is ready once it has imported ``function``; its timeout counts from
    then, so a slow start is not charged to its first task.
    """

    def __init__(self, function: str, jobs: int, timeout: float = DEFAULT_TIMEOUT) -> None:
        import multiprocessing

        self.function = function
        self.timeout = timeout
        self._context = multiprocessing.get_context("spawn")
        self._workers: List[_Worker] = [self._start() for _ in range(max(1, jobs))]

    def _start(self) -> _Worker:
        parent, child = self._context.Pipe()
        process = self._context.Process(target=_serve, args=(child, self.function, gc.get_threshold()), daemon=True)
        process.start()
        child.close()
        return _Worker(process, parent)

    def map(self, tasks: Sequence[Task], size: Optional[int] = None) -> Iterator[Tuple[int, Any]]:
        """``(index, result or Failure)`` for every task, in the order they finish."""
        from multiprocessing.connection import wait

        queue: Deque[Task] = deque(tasks)
        size = size or chunk_size(len(tasks), len(self._workers))
        busy: Dict[int, _Worker] = {}
        while queue or busy:
            for worker in self._workers:
                if not worker.chunk and queue:
                    count = min(size, len(queue))
                    worker.chunk.extend(queue.popleft() for _ in range(count))
                    worker.since = time.monotonic()
                    try:
                        worker.connection.send(list(worker.chunk))
                    except OSError:
                        pass  # it died: its sentinel says so below
                    busy[id(worker)] = worker
            waiting = list(busy.values())
            started = [w.since for w in waiting if w.ready]
            timeout = max(0.0, min(started) + self.timeout - time.monotonic()) if started else None
            ready = wait([w.connection for w in waiting] + [w.process.sentinel for w in waiting], timeout=timeout)
            for worker in waiting:
                done = yield from self._collect(worker, ready)
                if done is not None:
                    yield done
                    queue.extendleft(reversed(worker.chunk))
                    worker.chunk.clear()
                    self._replace(worker)
                if not worker.chunk:
                    busy.pop(id(worker), None)

    def _collect(self, worker: _Worker, ready: List[Any]) -> Generator[Tuple[int, Any], None, Optional[Tuple[int, Any]]]:
        """Yield the results ``worker`` has sent; return the failure of its current task
        when it died or overran, None while it is well."""
        died = worker.process.sentinel in ready
        try:
            while worker.chunk and (worker.connection in ready or died) and worker.connection.poll():
                message = worker.connection.recv()
                if message == _READY:
                    worker.ready, worker.since = True, time.monotonic()
                    continue
                index, result = message
                first = worker.chunk.popleft()
                assert first[0] == index, "a worker answers its chunk in order"
                worker.since = time.monotonic()
                yield index, result
        except (EOFError, OSError):
            died = True
        if not worker.chunk:
            return None
        if died:
            worker.process.join()
            return worker.chunk.popleft()[0], Failure(f"the worker process checking this file died ({_how(worker.process.exitcode)})")
        if worker.ready and time.monotonic() - worker.since >= self.timeout:
            self._stop(worker)
            return worker.chunk.popleft()[0], Failure(f"checking this file took longer than {self.timeout:g} s (--timeout); skipped")
        return None

    def _replace(self, worker: _Worker) -> None:
        self._stop(worker)
        fresh = self._start()
        worker.process, worker.connection, worker.since, worker.ready = fresh.process, fresh.connection, 0.0, False

    @staticmethod
    def _stop(worker: _Worker) -> None:
        if worker.process.is_alive():
            worker.process.kill()
        worker.process.join()
        worker.connection.close()

    def close(self) -> None:
        """Stop every worker: a polite request, then a kill for those that do not listen."""
        for worker in self._workers:
            try:
                worker.connection.send(None)
            except OSError:
                pass
        end = time.monotonic() + 2
        for worker in self._workers:
            worker.process.join(max(0.0, end - time.monotonic()))
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join()
            worker.connection.close()

    def __enter__(self) -> "Pool":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _how(code: Optional[int]) -> str:
    """How a worker ended, from its exit code (``-N``: killed by signal N)."""
    if code is None or code >= 0:
        return f"exit code {code}"
    import signal

    try:
        name = signal.Signals(-code).name
    except ValueError:
        return f"killed by signal {-code}"
    if name == "SIGKILL":  # what the kernel's out-of-memory killer sends
        return f"killed by signal {-code}, {name}: the system may have run out of memory"
    if name == "SIGABRT":  # a native library's failed allocation or fatal error
        return f"killed by signal {-code}, {name}: it aborted, out of memory or on a native error"
    return f"killed by signal {-code}, {name}"


#: A worker's first message: it is ready to work.
_READY = "ready"


def _serve(connection: "Connection", function: str, threshold: Tuple[int, int, int]) -> None:
    """A worker: run ``function`` on each task of each chunk, answering task by task,
    collecting garbage as the parent does (``threshold``)."""
    global _IN_WORKER
    _IN_WORKER = True
    gc.set_threshold(*threshold)
    module, _, name = function.partition(":")
    run: Callable[[Any], Any] = getattr(importlib.import_module(module), name)
    connection.send(_READY)
    while True:
        try:
            chunk = connection.recv()
        except (EOFError, OSError, KeyboardInterrupt):
            return
        if chunk is None:
            return
        for index, task in chunk:
            try:
                result = run(task)
            except KeyboardInterrupt:
                return
            except Exception as error:  # the task's own failure; the worker carries on
                result = Failure(f"internal error in a worker: {type(error).__name__}: {error}")
            connection.send((index, result))
