"""Where the messages of an mbox file begin and end, found by reading it in bounded pieces.

The standard library's `mailbox.mbox` reads an mbox line by line, so a file of one huge
line (a 2 GB sparse file) costs its whole size in memory. Here the file is read a chunk at
a time (holes of a sparse file skipped), each message is a span of offsets, and a message
whose headers give a `Content-Length` ends where that says when the next `From ` line (or
the end of the file) is there: a `From ` line inside its body (an unescaped one) then
starts no message. A message that began at a `From ` line after one that gave no
trustworthy length is marked `split`: it may be forged inside the body before it.
"""

from __future__ import annotations

import errno
import os
import re
from bisect import bisect_left
from dataclasses import dataclass
from pathlib import Path

CHUNK = 1 << 20
"""Bytes read at a time while looking for `From ` lines."""
FROM_LINE_BYTES = 4096
"""The longest `From ` line read; a longer one ends there (its message is then junk)."""
HEAD_BYTES = 64 * 1024
"""How much of a message is read to find its Content-Length."""

_FROM = b"From "
_CONTENT_LENGTH = re.compile(rb"(?im)^content-length:[ \t]*([0-9]{1,15})[ \t]*\r?$")
_HEADERS_END = re.compile(rb"\r?\n\r?\n")


@dataclass(frozen=True, slots=True)
class Span:
    """One message of an mbox: its bytes are `start` to `end` (the `From ` line left out,
    and the blank line before the next one)."""

    start: int
    end: int
    split: bool
    """It began at a `From ` line after a message whose end no Content-Length gave: it
    may be a forgery inside that message's body (the first message never is)."""

    @property
    def size(self) -> int:
        return self.end - self.start


def from_lines(handle: int) -> list[int]:
    """The offsets of the lines that start with `From ` in the open file `handle`, read
    a chunk at a time; holes of a sparse file (zeros, never a `From ` line) are skipped."""
    found: list[int] = []
    pos = 0
    tail = b"\n"  # the file's start counts as a line start
    while True:
        try:
            data_at = os.lseek(handle, pos, os.SEEK_DATA)
        except OSError as exc:
            if exc.errno == errno.ENXIO:
                break  # nothing but a hole (or nothing) after pos
            data_at = pos  # no SEEK_DATA here: read on
        if data_at > pos:
            pos, tail = data_at, b"\0"  # a hole holds zeros: no line starts after it
        chunk = os.pread(handle, CHUNK, pos)
        if not chunk:
            break
        window = tail + chunk
        at = window.find(b"\n" + _FROM)
        while at >= 0:
            found.append(pos - len(tail) + at + 1)
            at = window.find(b"\n" + _FROM, at + 1)
        tail = window[-len(_FROM) :]
        pos += len(chunk)
    return found


def spans(path: Path) -> list[Span]:
    """The messages of the mbox file at `path`, in order. Raises OSError."""
    handle = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    try:
        size = os.fstat(handle).st_size
        starts = from_lines(handle)
        out: list[Span] = []
        trusted = False  # whether the previous message ended where its Content-Length said
        n = 0
        while n < len(starts):
            head = os.pread(handle, FROM_LINE_BYTES, starts[n])
            newline = head.find(b"\n")
            begin = starts[n] + (newline + 1 if newline >= 0 else len(head))
            following = n + 1
            end = _without_blank_line(handle, begin, starts[n + 1] if n + 1 < len(starts) else size)
            split = bool(out) and not trusted
            trusted = False
            length_end = _length_end(handle, begin, size)
            if length_end is not None:
                # The next message starts where the length ends (after one blank line, as
                # mboxcl2 writes it); `From ` lines before it are this message's body.
                nxt = length_end + (os.pread(handle, 1, length_end) == b"\n")
                at = bisect_left(starts, nxt)
                if nxt >= size or (at < len(starts) and starts[at] == nxt):
                    end, trusted, following = length_end, True, at
            out.append(Span(begin, end, split))
            n = max(following, n + 1)
        return out
    finally:
        os.close(handle)


def _without_blank_line(handle: int, begin: int, end: int) -> int:
    """`end`, less the blank line before it that separates messages (as `mailbox.mbox`
    reads them: a message's bytes are the same here and there)."""
    if end - begin >= 2 and os.pread(handle, 2, end - 2) == b"\n\n":
        return end - 1
    return end


def _length_end(handle: int, begin: int, size: int) -> int | None:
    """Where the message at `begin` ends by its Content-Length (its headers' end plus the
    length), when its headers give one that fits in the file; else None."""
    head = os.pread(handle, HEAD_BYTES, begin)
    blank = _HEADERS_END.search(head)
    if blank is None:
        return None
    found = _CONTENT_LENGTH.search(head, 0, blank.start())
    if found is None:
        return None
    end = begin + blank.end() + int(found[1])
    return end if end <= size else None
