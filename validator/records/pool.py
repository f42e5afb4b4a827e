"""Process pools for the checks of many files (batch, the mail run, the report pages):
workers that start clean, whatever threads the calling process runs."""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable
from multiprocessing.pool import Pool
from typing import Any


def worker_pool(jobs: int, initializer: Callable[..., None], initargs: tuple[Any, ...]) -> Pool:
    """A pool of `jobs` processes, each set up once by `initializer(*initargs)`.

    Where the system has it, the workers come from a fork server (Python 3.14's default
    on POSIX) instead of a fork of this process: a fork copies every lock that another
    thread holds at that moment (a test runner's channel, a host program's logging), and
    a worker that then takes one waits forever, and its pool with it. The server imports
    the initializer's module once, so a worker starts without importing the package;
    `initargs` reach the workers pickled."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context().Pool(jobs, initializer, initargs)
    context = multiprocessing.get_context("forkserver")
    # Read at the server's first start only (later calls leave the running server alone).
    context.set_forkserver_preload([initializer.__module__])
    return context.Pool(jobs, initializer, initargs)
