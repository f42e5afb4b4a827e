"""Writing a file whole or not at all: through a temporary file with a unique name in the
same folder, renamed over the target once complete (validator/cli/output.py holds the
policy every command follows; the game being played, tui/save.py, writes this way too).
"""

from __future__ import annotations

import io
import os
import re
import signal
import stat
import tempfile
from collections.abc import Iterable, Iterator
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
def replacing(path: Path, *, private: bool = False) -> Iterator[TextIO]:
    """Write `path` through a temporary file in its folder that replaces it when the block
    ends; on any exception (and on SIGTERM, which ends the block as an exit) the
    temporary file is removed and `path` is left as it was. `private`: the file gets
    `PRIVATE` permissions. Raises OSError."""
    with _replacing(path, private) as handle:
        text = io.TextIOWrapper(handle, encoding="utf-8", errors=ENCODING_ERRORS, newline="")
        try:
            yield text
        except BaseException:
            with suppress(Exception):
                text.detach()  # the temporary file goes anyway
            raise
        text.detach()  # flushes; `_replacing` syncs and closes the file itself


def write_file(path: Path, text: str, *, private: bool = False) -> None:
    """`text` replacing `path` whole (see `replacing`); raises OSError."""
    with replacing(path, private=private) as handle:
        handle.write(text)


def write_bytes(path: Path, data: bytes, *, private: bool = False) -> None:
    """`data` replacing `path` whole, as `replacing` does for text (a reply's RFC 5322
    bytes); raises OSError."""
    with _replacing(path, private) as handle:
        handle.write(data)


def remove_stale(folder: Path, name: re.Pattern[str], kept: Iterable[Path]) -> int:
    """Remove the files of `folder` whose whole name matches `name` (the pattern of the
    files a writer numbers, `reply-0001.eml`) but that are not among `kept` (what this run
    wrote): left by an earlier, longer run, they would look like this run's. Nothing
    else in the folder is touched; links are removed, never followed. How many went."""
    keep = {p.name for p in kept if p.parent == folder}
    removed = 0
    try:
        listed = list(os.scandir(folder))
    except FileNotFoundError:
        return 0
    for item in listed:
        if item.name in keep or not name.fullmatch(item.name):
            continue
        if item.is_file(follow_symlinks=False) or item.is_symlink():
            with suppress(FileNotFoundError):
                os.unlink(item.path)
                removed += 1
    return removed


@contextmanager
def _replacing(path: Path, private: bool = False) -> Iterator[BinaryIO]:
    """The one way a file is replaced: bytes to a unique temporary file beside `path`,
    synced, given `path`'s permissions (`PRIVATE` ones when `private`) and renamed over
    it; removed on any exception.

    Renaming replaces whatever has the name, so what is not a regular file is written
    through instead, as a shell's `>` would: a device, a FIFO or a socket (`/dev/null`,
    `/dev/stdout`, a named pipe) is opened and written, never replaced by a file. A
    symbolic link to a file stays a link: the file it points to is replaced."""
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
            os.chmod(temporary, PRIVATE if private else _mode_for(path))
            os.replace(temporary, path)
        except BaseException:
            with suppress(FileNotFoundError):
                os.unlink(temporary)
            raise


def _mode_for(path: Path) -> int:
    """The permissions of the file being replaced, else what a new file gets (umask)."""
    try:
        return os.stat(path).st_mode & 0o7777
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
