"""Per-card images drawn on all cores: a bounded stream of tasks over a process pool.

``stream(tasks, work, workers)`` runs ``work(task)`` for each task of the iterable ``tasks`` and
yields the results **in task order**, as soon as each (and every one before it) is done. At most
``IN_FLIGHT`` tasks per worker are taken from ``tasks`` ahead of the one being yielded, so a lazy
iterable of cards is drawn only as fast as the images are made and memory stays flat in the number
of cards. ``work`` must be a module-level function and each task picklable (a worker gets the task,
not the kit).

- ``workers`` 1 runs ``work`` in this process (no pool); otherwise a
  ``concurrent.futures.ProcessPoolExecutor`` of that many processes. The results do not depend on
  the number of workers (each task is done alone, in the same way).
- An error in a worker (a PnpError, e.g. a text the font cannot draw) is raised here as it was
  raised there, the same clean message; the tasks not yet started are cancelled and the running ones
  finished before it is raised, so no worker writes after the caller has seen the error. The same
  holds for Ctrl-C (workers ignore SIGINT; this process takes it, stops the pool and re-raises). If
  this process is killed, its workers end themselves (they watch it); what they were writing stays
  in the staging folder, which pnp.store discards.
- A worker that dies (killed, out of memory) is reported as an OutputError naming the task count.
"""
from __future__ import annotations

import os
import signal
import threading
import time
from collections import deque
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Callable, Iterable, Iterator, TypeVar

from ..core.errors import OutputError
from .formats.base import MAX_WORKERS

T = TypeVar("T")
R = TypeVar("R")
IN_FLIGHT = 2
"""Tasks per worker submitted ahead of the one the caller waits for."""
WATCH = 0.25
"""Seconds between a worker's checks that the process that started it is still there."""


def default_workers() -> int:
    """The cores this process may run on (``os.process_cpu_count`` from Python 3.13, else
    ``os.sched_getaffinity``, else ``os.cpu_count``), at least 1 and at most MAX_WORKERS."""
    count = getattr(os, "process_cpu_count", None)
    if count is not None:
        return max(1, min(MAX_WORKERS, count() or 1))
    try:
        return max(1, min(MAX_WORKERS, len(os.sched_getaffinity(0))))
    except AttributeError:  # not Linux
        return max(1, min(MAX_WORKERS, os.cpu_count() or 1))


def workers_for(tasks: int, workers: int | None = None) -> int:
    """Processes worth starting for ``tasks`` tasks: ``workers`` (None: every core), at most one per
    task (a single task is done in this process, without a pool)."""
    return max(1, min(default_workers() if workers is None else workers, tasks))


def _worker_start(parent: int) -> None:
    """Worker initializer: Ctrl-C goes to the parent, which stops the pool; a worker whose parent is
    gone (killed) ends itself within WATCH seconds instead of waiting for tasks forever."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(WATCH)
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=watch, name="pnp-parent-watch", daemon=True).start()


def stream(tasks: Iterable[T], work: Callable[[T], R], workers: int | None = None) -> Iterator[R]:
    """``work(task)`` for every task, results yielded in task order (see the module docstring).

    Raises:
        PnpError: what ``work`` raised for the first failing task (in task order).
        OutputError: a worker process died.
    """
    count = default_workers() if workers is None else max(1, workers)
    if count == 1:
        for task in tasks:
            yield work(task)
        return
    pool = ProcessPoolExecutor(max_workers=count, initializer=_worker_start, initargs=(os.getpid(),))
    pending: deque[Future] = deque()
    it = iter(tasks)
    done = False
    try:
        while True:
            while not done and len(pending) < count * IN_FLIGHT:
                task = next(it, _END)
                if task is _END:
                    done = True
                else:
                    pending.append(pool.submit(work, task))
            if not pending:
                return
            try:
                result = pending.popleft().result()
            except BrokenProcessPool:
                raise OutputError("a process drawing card images stopped unexpectedly (killed, or out of memory); "
                                  "nothing was written.", hint="run the build again, or with fewer cards") from None
            yield result
    finally:
        for f in pending:
            f.cancel()
        pool.shutdown(wait=True, cancel_futures=True)


_END = object()
