"""The worker pools of batch, the mail run and the report pages start clean: their
workers are not forks of the caller, whose other threads may hold locks that a forked
worker would wait for forever (system/pool.py)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from conftest import proc_stat

from validator.system.pool import ITEMS_PER_WORKER, default_jobs, worker_pool

ROOT = Path(__file__).resolve().parent.parent
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
            states = list(pool.imap(_state, range(4)))
    finally:
        held.release()
        waiting.join(5)
    assert states == ["as imported, set up with the initializer"] * 4


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX start methods")
def test_a_program_read_from_standard_input_still_gets_its_workers(tmp_path: Path) -> None:
    """With another thread running, workers come from a fork server and import the main
    module again; a program read from standard input has no file to import, so its
    workers are forks, and the pool works."""
    program = (
        "from validator.system.pool import worker_pool\n"
        "import operator, os, threading, time\n"
        "threading.Thread(target=time.sleep, args=(60,), daemon=True).start()\n"
        "with worker_pool(2, os.getpid, ()) as pool:\n"
        "    print(sum(pool.imap(operator.neg, range(10))))\n"
    )
    done = subprocess.run(
        [sys.executable, "-"],
        input=program,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "-45\n" and "Traceback" not in done.stderr


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_no_worker_outlives_its_command(tmp_path: Path) -> None:
    """An idle pool: one worker reads the task pipe holding the pool's read lock, the
    other waits for the lock. The reader is stopped by a signal (as `terminate` stops
    workers one by one) and the command is killed outright: the waiting worker would wait
    for the lock forever (seen after SIGTERM to `batch -j 2`), unless it ends with its
    parent."""
    program = tmp_path / "program.py"
    program.write_text(
        "import multiprocessing, os, time\n"
        "from validator.system.pool import worker_pool\n"
        "def meet(barrier):\n"
        "    global BARRIER\n"
        "    BARRIER = barrier\n"
        "def pid(_):\n"
        "    BARRIER.wait(60)  # each worker takes one: no task ends before both have one\n"
        "    return os.getpid()\n"
        "if __name__ == '__main__':\n"
        "    with worker_pool(2, meet, (multiprocessing.Barrier(2),)) as pool:\n"
        "        print(*set(pool.imap(pid, range(2), 1)), flush=True)\n"
        "        time.sleep(120)\n"
    )
    command = subprocess.Popen(
        [sys.executable, str(program)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        stdin=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:
        assert command.stdout is not None
        workers = [int(pid) for pid in command.stdout.readline().split()]
        assert len(workers) == 2, workers
        deadline = time.monotonic() + 10
        waiting: list[int] = []
        while time.monotonic() < deadline and len(waiting) != 1:
            waiting = [pid for pid in workers if "futex" in _wait_channel(pid)]
            time.sleep(0.01)
        if len(waiting) != 1:
            pytest.skip("this kernel does not say which worker waits for the lock")
        (reader,) = set(workers) - set(waiting)
        os.kill(reader, signal.SIGKILL)
    finally:
        command.kill()
        command.wait(30)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and _running(waiting[0]):
        time.sleep(0.01)
    if _running(waiting[0]):
        os.kill(waiting[0], signal.SIGKILL)
        raise AssertionError("the waiting worker outlived its command")


def _wait_channel(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/wchan").read_text()
    except OSError:
        return ""


def _running(pid: int) -> bool:
    """Whether `pid` runs (a zombie, ended but not yet reaped by init, does not)."""
    fields = proc_stat(pid)
    return fields is not None and fields[0] != "Z"


def test_without_jobs_a_process_starts_only_for_enough_work() -> None:
    cores = os.cpu_count() or 1
    assert default_jobs(0) == default_jobs(2 * ITEMS_PER_WORKER - 1) == 1
    assert default_jobs(2 * ITEMS_PER_WORKER) == min(2, cores)
    assert default_jobs(10**6) == cores


def test_where_no_worker_can_start_the_work_is_done_here(monkeypatch: pytest.MonkeyPatch) -> None:
    """No fork, and a main module that cannot be imported again (a program read from
    standard input on macOS or Windows): the same answers, from this process."""
    from validator.system import pool

    monkeypatch.setattr(pool, "_context", lambda: None)
    monkeypatch.setattr(sys.modules[__name__], "STATE", "here")
    with worker_pool(2, _setup, ("no worker",)) as serial:
        assert list(serial.imap(_state, range(3), 1)) == ["here, set up with no worker"] * 3
