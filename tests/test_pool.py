"""The worker pools of batch, the mail run and the report pages start clean: their
workers are not forks of the caller, whose other threads may hold locks that a forked
worker would wait for forever (records/pool.py)."""

from __future__ import annotations

import sys
import threading

import pytest

from validator.records.pool import worker_pool

STATE = "as imported"


def _setup(tag: str) -> None:
    global STATE
    STATE = f"{STATE}, set up with {tag}"


def _state(_: int) -> str:
    return STATE


@pytest.mark.skipif(sys.platform == "win32", reason="Windows always spawns workers")
def test_workers_start_from_the_import_not_from_a_copy_of_the_caller(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sys.modules[__name__], "STATE", "changed by the caller")
    held = threading.Lock()
    held.acquire()  # a lock another thread holds, as a test runner's or a host program's
    waiting = threading.Thread(target=held.acquire, daemon=True)
    waiting.start()
    try:
        with worker_pool(2, _setup, ("the initializer",)) as pool:
            states = pool.map(_state, range(4))
    finally:
        held.release()
        waiting.join(5)
    assert states == ["as imported, set up with the initializer"] * 4
