"""The locks of an output folder and of the ledger (`system.atomic.hold_lock`): a lock that
cannot be taken leaves nothing behind, neither a descriptor nor the lock itself."""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

import pytest

from validator.system.atomic import FolderBusy, folder_lock, hold_lock, lock_path


def _open_fds() -> set[str]:
    return set(os.listdir("/proc/self/fd"))


def _lockable(path: Path) -> bool:
    """Whether a new open of `path` can take its lock (none kept on another descriptor)."""
    fd = os.open(path, os.O_RDWR | os.O_NONBLOCK)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    finally:
        os.close(fd)
    return True


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="counts descriptors in /proc")
def test_a_lock_file_that_cannot_be_written_keeps_no_descriptor_and_no_lock(
    tmp_path: Path,
) -> None:
    # A FIFO where the lock file goes: it opens and locks, but cannot be truncated.
    folder = tmp_path / "site"
    os.mkfifo(lock_path(folder))
    before = _open_fds()
    with pytest.raises(OSError), folder_lock(folder):
        pytest.fail("the lock was taken")
    assert _open_fds() == before
    assert _lockable(lock_path(folder))

    ledger_lock = tmp_path / "ledger.sqlite.lock"
    os.mkfifo(ledger_lock)
    before = _open_fds()
    with pytest.raises(OSError):
        hold_lock(ledger_lock, "process 1 on here\n", wait=0.1)
    assert _open_fds() == before
    assert _lockable(ledger_lock)


@pytest.mark.parametrize("written", ["\u00b2\n", "\u2460\n", "12 monkeys\n", ""])
def test_a_held_folder_names_its_holder_only_by_a_process_number(
    tmp_path: Path, written: str
) -> None:
    # Whatever the lock file holds (superscripts are digits to str.isdigit, not to int),
    # a held folder is FolderBusy, naming no process unless it holds one's number.
    folder = tmp_path / "site"
    held = hold_lock(lock_path(folder), written)  # another open file: another holder
    try:
        with pytest.raises(FolderBusy) as info, folder_lock(folder):
            pytest.fail("the lock was taken twice")
        assert info.value.holder is None
        os.ftruncate(held, 0)
        os.pwrite(held, b"4242\n", 0)
        with pytest.raises(FolderBusy) as info, folder_lock(folder):
            pytest.fail("the lock was taken twice")
        assert info.value.holder == 4242
    finally:
        os.close(held)
