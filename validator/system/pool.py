"""Process pools for the checks of many files (batch, the mail run, the report pages):
workers that cannot inherit a lock held by another thread of the caller, stay quiet on
Ctrl-C and end with the command."""

from __future__ import annotations

import gc
import multiprocessing
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from itertools import islice
from multiprocessing.context import BaseContext
from typing import Any, Protocol, TypeVar

T = TypeVar("T")
R = TypeVar("R")

ITEMS_PER_WORKER = 50
"""Below this many files or messages per process, starting a process costs more than it
saves (one entry is checked in a few milliseconds)."""
PAGES_PER_WORKER = 5
"""The same for report pages, each of which costs about ten entry checks."""


def default_jobs(items: int, per_worker: int = ITEMS_PER_WORKER) -> int:
    """The processes for `items` files, messages or pages when none are asked for: one
    per `per_worker` of them, at most one per core."""
    return max(1, min(os.cpu_count() or 1, items // per_worker))


def pooled(
    func: Callable[..., R],
    args: tuple[Any, ...],
    items: Iterable[Any],
    jobs: int,
    most: int,
    window: int | None = None,
) -> Iterator[R]:
    """`func(*args, item)` for every item, in order; with `jobs` > 1 in a `worker_pool`
    whose workers get `func` and `args` once, the items handed out in chunks of at most
    `most` (big enough to keep the pipes quiet, small enough to balance the load). With
    `window`, the pool is given that many items at a time (it reads at once all it is
    given): memory stays bounded by the window, not by `items`."""
    if jobs <= 1:
        for item in items:
            yield func(*args, item)
        return
    it = iter(items)
    with worker_pool(jobs, _set_task, (func, args)) as pool:
        while chunk := list(islice(it, window)):
            chunksize = max(1, min(most, len(chunk) // (jobs * 8)))
            yield from pool.imap(_run_task, chunk, chunksize)


_task: tuple[Callable[..., Any], tuple[Any, ...]] | None = None


def _set_task(func: Callable[..., Any], args: tuple[Any, ...]) -> None:
    global _task
    _task = (func, args)
    # Everything loaded so far lives for the whole run; keep the collector off it.
    gc.freeze()


def _run_task(item: Any) -> Any:
    assert _task is not None, "_set_task was not called"
    func, args = _task
    return func(*args, item)


class WorkerPool(Protocol):
    """What the callers use of `multiprocessing.pool.Pool` (and of the serial stand-in)."""

    def imap(
        self, func: Callable[[T], R], iterable: Iterable[T], chunksize: int = 1, /
    ) -> Iterator[R]: ...


@contextmanager
def worker_pool(
    jobs: int, initializer: Callable[..., None], initargs: tuple[Any, ...]
) -> Iterator[WorkerPool]:
    """A pool of `jobs` processes, each set up once by `initializer(*initargs)`.

    The workers are forks of this process while it runs no other thread (the command
    line: quick to start, and they share what is loaded). A fork copies every lock that
    another thread holds at that moment (a test runner's channel, a host program's
    logging), and a worker that then takes one waits forever, and its pool with it: so
    while other threads run, the workers come from a fork server (as on Linux by default
    from Python 3.14), started once per process with the package imported, and `initargs`
    reach them pickled. Such a worker, like every worker that is not a fork (macOS and
    Windows start them afresh), imports the program's main module again (as
    `__mp_main__`: code under `if __name__ == "__main__":` does not run). A program read
    from standard input cannot be imported again: it gets forks where they exist, and
    else no pool at all (the work is done in this process)."""
    chosen = _context()
    if chosen is None:
        initializer(*initargs)
        yield _Serial()
        return
    context, parent = chosen
    with context.Pool(jobs, _start, (parent, initializer, initargs)) as pool:
        yield pool


def _context() -> tuple[BaseContext, int | None] | None:
    """The start method for workers and, for forks, the pid their parent has; None when
    no worker can start (no fork, and a main module that cannot be imported again)."""
    methods = multiprocessing.get_all_start_methods()
    # macOS lists fork but forking there is unsafe (system frameworks): its default is spawn.
    fork = "fork" in methods and sys.platform != "darwin"
    importable = _main_importable()
    if fork and (threading.active_count() == 1 or not importable):
        return multiprocessing.get_context("fork"), os.getpid()
    if not importable:
        return None
    if "forkserver" in methods and sys.platform != "darwin":
        context = multiprocessing.get_context("forkserver")
        # The server imports what this process has of the package (what a fork would
        # have given the workers), so that no worker imports it again. Read at the
        # server's first start only: later calls leave the running server alone.
        package = __name__.partition(".")[0]
        loaded = sorted(name for name in sys.modules if name.partition(".")[0] == package)
        context.set_forkserver_preload(loaded)
        return context, None
    return multiprocessing.get_context("spawn"), None


def _start(parent: int | None, initializer: Callable[..., None], initargs: tuple[Any, ...]) -> None:
    """A worker's start: quiet on Ctrl-C, ended at once by SIGTERM, ended with its parent
    (on Linux), then `initializer` runs.

    Ctrl-C reaches the whole process group: the parent stops the pool, and the workers
    keep quiet. SIGTERM (the pool's terminate) ends a worker whatever handler it got from
    the parent. A worker that the pool started to replace one stopped by a signal can be
    left out of the pool's `terminate` and wait forever for a lock the stopped one held,
    long after the command ended (seen: `batch -j 2` stopped by SIGTERM): it gets SIGTERM
    when its parent ends. `parent` is the pid a fork's parent has (None for a fork
    server's worker, whose server ends with the pool's owner)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if sys.platform.startswith("linux"):
        import ctypes

        expected = os.getppid() if parent is None else parent
        pr_set_pdeathsig = 1
        with suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGTERM)
        if os.getppid() != expected:  # the parent ended before the line above
            os._exit(0)
    initializer(*initargs)


class _Serial:
    """The pool's stand-in when no worker can start: the work, in this process."""

    def imap(
        self, func: Callable[[T], R], iterable: Iterable[T], chunksize: int = 1
    ) -> Iterator[R]:
        return map(func, iterable)


def _main_importable() -> bool:
    """Whether a worker can import the main module again: by its module name (`python -m`,
    which multiprocessing then leaves alone), or from a file that exists (a script; not
    `<stdin>`); a main without a file (`python -c`, an interactive session) is skipped."""
    main = sys.modules.get("__main__")
    if getattr(getattr(main, "__spec__", None), "name", None) is not None:
        return True
    path = getattr(main, "__file__", None)
    return path is None or os.path.isfile(path)
