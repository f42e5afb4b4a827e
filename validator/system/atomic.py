"""Writing a file whole or not at all: through a temporary file with a unique name in the
same folder, renamed over the target once complete (validator/cli/output.py holds the
policy every command follows; the game being played, tui/save.py, writes this way too).
An output folder (the results site, the replies) is written the same way, as a whole: made
beside the old one and swapped in, by one run at a time (`NewFolder`, `folder_lock`).
"""

from __future__ import annotations

import errno
import glob
import io
import os
import shutil
import signal
import stat
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from types import FrameType
from typing import BinaryIO, TextIO

PRIVATE = 0o600
"""The permissions of a file that holds e-mail addresses (the replies, a batch's results
from a mailbox): its owner's alone, whatever the umask or the file it replaces."""

ENCODING_ERRORS = "backslashreplace"
"""How text that cannot be UTF-8 (lone surrogates from undecodable file names) is written:
as visible escapes, so the output stays valid UTF-8."""


@contextmanager
def replacing(path: Path, *, private: bool = False, follow: bool = True) -> Iterator[TextIO]:
    """Write `path` through a temporary file in its folder that replaces it when the block
    ends; on any exception (and on SIGTERM, which ends the block as an exit) the
    temporary file is removed and `path` is left as it was. `private`: the file gets
    `PRIVATE` permissions; `follow=False`: a link at `path` is replaced, not followed
    (`_replacing`). Raises OSError."""
    with _replacing(path, private, follow) as handle:
        text = io.TextIOWrapper(handle, encoding="utf-8", errors=ENCODING_ERRORS, newline="")
        try:
            yield text
        except BaseException:
            with suppress(Exception):
                text.detach()  # the temporary file goes anyway
            raise
        text.detach()  # flushes; `_replacing` syncs and closes the file itself


def write_file(path: Path, text: str, *, private: bool = False, follow: bool = True) -> None:
    """`text` replacing `path` whole (see `replacing`; `follow` as `_replacing` has it);
    raises OSError."""
    with replacing(path, private=private, follow=follow) as handle:
        handle.write(text)


def write_bytes(path: Path, data: bytes, *, private: bool = False, follow: bool = True) -> None:
    """`data` replacing `path` whole, as `replacing` does for text (a reply's RFC 5322
    bytes; `follow` as `_replacing` has it); raises OSError."""
    with _replacing(path, private, follow) as handle:
        handle.write(data)


@contextmanager
def _replacing(path: Path, private: bool = False, follow: bool = True) -> Iterator[BinaryIO]:
    """The one way a file is replaced: bytes to a unique temporary file beside `path`,
    synced, given `path`'s permissions (`PRIVATE` ones when `private`) and renamed over
    it; removed on any exception.

    Renaming replaces whatever has the name, so what is not a regular file is written
    through instead, as a shell's `>` would: a device, a FIFO or a socket (`/dev/null`,
    `/dev/stdout`, a named pipe) is opened and written, never replaced by a file. A
    symbolic link to a file stays a link: the file it points to is replaced.

    `follow=False` is for a file inside an output folder, where nothing the user named
    has the name: whatever has it (a link someone planted, a FIFO) is replaced by the new
    file, never written through."""
    if not follow:
        path = Path(os.path.realpath(path.parent)) / path.name
    else:
        try:
            status = os.stat(path)  # follows links
        except OSError:
            status = None
        if status is not None and not stat.S_ISREG(status.st_mode):
            with open(path, "wb") as through:  # a folder raises IsADirectoryError (OSError)
                yield through
            return
        path = Path(os.path.realpath(path))
    with sigterm_exits():
        fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as handle:
                yield handle
                handle.flush()
                os.fsync(handle.fileno())
            os.chmod(temporary, PRIVATE if private else _mode_for(path, follow))
            os.replace(temporary, path)
        except BaseException:
            with suppress(FileNotFoundError):
                os.unlink(temporary)
            raise


def _mode_for(path: Path, follow: bool = True) -> int:
    """The permissions of the file being replaced, else what a new file gets (umask);
    without `follow`, only a regular file's own count (never a link's target's)."""
    try:
        status = os.stat(path, follow_symlinks=follow)
        if not stat.S_ISREG(status.st_mode):
            raise FileNotFoundError(path)
        return status.st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


@contextmanager
def sigterm_exits() -> Iterator[None]:
    """While a file is written (or a batch runs), SIGTERM ends the command as an exit
    (status 143), so that the temporary file is removed and a process pool stopped; outside
    the main thread signals cannot be caught."""
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def terminate(signum: int, frame: FrameType | None) -> None:
        raise SystemExit(128 + signum)

    previous = signal.signal(signal.SIGTERM, terminate)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


# -- Folders: replaced whole, by one writer at a time ----------------------------------------


class FolderBusy(OSError):
    """Another run holds the lock of an output folder; `holder` is its process id, when
    its lock file says."""

    holder: int | None = None


def lock_path(folder: Path) -> Path:
    """The lock file of the output folder `folder`: beside it, so that it is never part
    of what is published (`.site.lock` beside `site/`)."""
    real = Path(os.path.realpath(folder))
    return real.parent / f".{real.name}.lock"


@contextmanager
def folder_lock(folder: Path) -> Iterator[Path]:
    """Hold the lock of the output folder `folder` (`hold_lock` on `lock_path`) until the
    block ends; another run that asks for it meanwhile gets FolderBusy at once, never a
    folder half its own. The lock file stays (removing it would race with a third run).
    Yields the lock file; raises FolderBusy, or OSError when the lock file cannot be made."""
    path = lock_path(folder)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = hold_lock(path, f"{os.getpid()}\n")
    except Held as held:
        busy = FolderBusy(errno.EAGAIN, "another run is writing it", str(folder))
        said = str(held)
        busy.holder = int(said) if said.isascii() and said.isdigit() else None
        raise busy from None
    try:
        yield path
    finally:
        os.close(fd)  # closing the only descriptor releases the lock


class Held(Exception):
    """Another process holds a lock (`hold_lock`); the message is what it wrote into it."""


def hold_lock(path: Path, holder: str, wait: float = 0.0) -> int:
    """Hold `path` (an `fcntl.flock`; the file made with mode 600, no link followed) for
    this process, with `holder` written into it for a run that finds it held; raises Held
    when another process keeps it for `wait` seconds, OSError when it cannot be made. The
    lock lasts until the returned descriptor is closed, or the process ends."""
    import fcntl

    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    end = time.monotonic() + wait
    try:
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= end:
                    raise Held(os.pread(fd, 200, 0).decode("utf-8", "replace").strip()) from None
                time.sleep(0.05)
        os.ftruncate(fd, 0)
        os.pwrite(fd, holder.encode(), 0)
    except BaseException:  # neither the descriptor nor the lock outlives a failure
        os.close(fd)
        raise
    return fd


class NewFolder:
    """A folder being made to replace `target` whole: written as a hidden sibling
    (`.site.XXXX.new`), then swapped in (`replace_folders`). Nothing in it exists before
    this run writes it, so no write can follow a link someone planted in the old folder."""

    def __init__(self, target: Path, ours: Callable[[str], bool]) -> None:
        self.target = Path(os.path.realpath(target))
        self.ours = ours
        """Whether a path of the old folder (relative, `/` separators) is one this writer
        makes: the rest (a `CNAME`, notes) is carried over as it is."""
        self.removed: list[str] = []
        """The paths of the old folder that were ours and that this run did not write."""
        parent = self.target.parent
        parent.mkdir(parents=True, exist_ok=True)
        # What a run killed outright (SIGKILL) left; under the lock nobody else writes it.
        name = glob.escape(self.target.name)
        for stale in parent.glob(f".{name}.*.new"):
            shutil.rmtree(stale, ignore_errors=True)
        for stale in parent.glob(f".{name}.*.old"):
            kept = stale / "folder"
            if not os.path.lexists(self.target) and kept.is_dir() and not kept.is_symlink():
                os.rename(kept, self.target)  # killed between the swap's two renames
            shutil.rmtree(stale, ignore_errors=True)
        self.path = Path(
            tempfile.mkdtemp(prefix=f".{self.target.name}.", suffix=".new", dir=parent)
        )
        try:
            mode = os.stat(self.target).st_mode & 0o7777
        except OSError:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o777 & ~umask
        os.chmod(self.path, mode)
        self.done = False

    def carry_over(self) -> None:
        """Copy into the new folder what the old one holds that is not ours (links as
        links, never followed); note what is ours and was not written again."""
        if os.path.isdir(self.target) and not os.path.islink(self.target):
            self._carry(self.target, self.path, "")

    def _carry(self, old: Path, new: Path, prefix: str) -> None:
        """Carry the old folder's items (`old`, at `prefix`) into `new`: what the new
        folder has is left as it is, and inside a folder both have, item by item."""
        with os.scandir(old) as listed:
            items = sorted(listed, key=lambda e: e.name)
        for item in items:
            rel = prefix + item.name
            there = new / item.name
            if item.is_dir(follow_symlinks=False) and there.is_dir() and not there.is_symlink():
                self._carry(Path(item.path), there, rel + "/")
                continue
            if os.path.lexists(there):
                continue
            if self.ours(rel):
                self.removed.append(rel)
            elif item.is_symlink():
                os.symlink(os.readlink(item.path), there)
            elif item.is_dir(follow_symlinks=False):
                shutil.copytree(item.path, there, symlinks=True)
            elif item.is_file(follow_symlinks=False):
                shutil.copy2(item.path, there, follow_symlinks=False)

    def swap_in(self) -> None:
        """Put the new folder in the old one's place and remove the old one (call with
        signals held: `replace_folders`)."""
        old: Path | None = None
        if os.path.lexists(self.target):
            old = Path(
                tempfile.mkdtemp(
                    prefix=f".{self.target.name}.", suffix=".old", dir=self.target.parent
                )
            )
            os.rename(self.target, old / "folder")
        os.rename(self.path, self.target)
        self.done = True
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)

    def discard(self) -> None:
        """Remove the new folder unless it was swapped in."""
        if not self.done:
            shutil.rmtree(self.path, ignore_errors=True)


@contextmanager
def replace_folders(folders: Iterable[NewFolder]) -> Iterator[None]:
    """Swap in every folder of `folders` when the block ends, all at once: SIGINT and
    SIGTERM wait until every swap is done, so an interrupted run leaves each folder whole
    (all old or all new). On any exception in the block they are removed, and the old
    folders stay as they were."""
    made = list(folders)
    try:
        yield
        for folder in made:
            folder.carry_over()
        with _signals_held():
            for folder in made:
                folder.swap_in()
    finally:
        for folder in made:
            folder.discard()


@contextmanager
def _signals_held() -> Iterator[None]:
    """SIGINT and SIGTERM held back until the block ends (then delivered)."""
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held = {signal.SIGINT, signal.SIGTERM}
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)
