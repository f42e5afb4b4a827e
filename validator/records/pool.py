"""Process pools for the checks of many files (batch, the mail run, the report pages):
workers that cannot inherit a lock held by another thread of the caller."""

from __future__ import annotations

import multiprocessing
import os
import sys
import threading
from collections.abc import Callable
from contextlib import suppress
from multiprocessing.pool import Pool
from typing import Any

ITEMS_PER_WORKER = 50
"""Below this many files or messages per process, starting a process costs more than it
saves (one entry is checked in a few milliseconds)."""


def default_jobs(items: int) -> int:
    """The processes for `items` files or messages when none are asked for: one per
    `ITEMS_PER_WORKER` of them, at most one per core."""
    return max(1, min(os.cpu_count() or 1, items // ITEMS_PER_WORKER))


def worker_pool(jobs: int, initializer: Callable[..., None], initargs: tuple[Any, ...]) -> Pool:
    """A pool of `jobs` processes, each set up once by `initializer(*initargs)`.

    The workers are forks of this process while it runs no other thread (the command
    line: quick to start, and they share what is loaded). A fork copies every lock that
    another thread holds at that moment (a test runner's channel, a host program's
    logging), and a worker that then takes one waits forever, and its pool with it: so
    while other threads run, the workers come from a fork server (Python 3.14's default
    on POSIX), started once per process with the package imported, and `initargs` reach
    them pickled. Such a worker imports the program's main module again (as
    `__mp_main__`: code under `if __name__ == "__main__":` does not run); a program read
    from standard input cannot be, and gets forks."""
    if (
        threading.active_count() == 1
        or "forkserver" not in multiprocessing.get_all_start_methods()
        or not _main_importable()
    ):
        return multiprocessing.get_context().Pool(
            jobs, _start, (os.getpid(), initializer, initargs)
        )
    context = multiprocessing.get_context("forkserver")
    # The server imports what this process has of the package (what a fork would have
    # given the workers), so that no worker imports it again. Read at the server's first
    # start only: later calls leave the running server alone.
    package = __name__.partition(".")[0]
    loaded = sorted(name for name in sys.modules if name.partition(".")[0] == package)
    context.set_forkserver_preload([*loaded, initializer.__module__])
    return context.Pool(jobs, _start, (None, initializer, initargs))


def _start(parent: int | None, initializer: Callable[..., None], initargs: tuple[Any, ...]) -> None:
    """A worker's start: it ends with its parent (on Linux), then `initializer` runs.

    A worker that the pool started to replace one stopped by a signal can be left out of
    the pool's `terminate` and wait forever for a lock the stopped one held, long after
    the command ended (seen: `batch -j 2` stopped by SIGTERM). `parent` is the pid of the
    forking process, None for a fork server's worker (whose server ends with the pool's
    owner)."""
    if sys.platform.startswith("linux"):
        import ctypes
        import signal

        pr_set_pdeathsig = 1
        with suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGTERM)
        if parent is not None and os.getppid() != parent:  # it ended before the line above
            os._exit(0)
    initializer(*initargs)


def _main_importable() -> bool:
    """Whether a worker can import the main module again: by its module name (`python -m`,
    which multiprocessing then leaves alone), or from a file that exists (a script; not
    `<stdin>`); a main without a file (`python -c`, an interactive session) is skipped."""
    main = sys.modules.get("__main__")
    if getattr(getattr(main, "__spec__", None), "name", None) is not None:
        return True
    path = getattr(main, "__file__", None)
    return path is None or os.path.isfile(path)
