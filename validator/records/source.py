"""Turning a file's bytes into text: size limits, standard input, encodings, and a clear
diagnostic (never the raw bytes) for what is not text."""

from __future__ import annotations

import codecs
import errno
import io
import os
import re
import stat
import sys
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from validator.engine.phrase import N_, Phrase, phrase
from validator.errors import Diagnostic, ReadError

MAX_BYTES = 1024 * 1024
"""A record larger than this is refused before it is parsed (`max_bytes` raises it)."""

MAX_DICE_BYTES = 16 * 1024 * 1024
"""A dice file larger than this is refused rather than read into memory."""

STDIN = "-"
"""The path that means standard input."""

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
_ENCODING_NAMES = {"utf-32": "UTF-32", "utf-16": "UTF-16", "cp1252": "Windows-1252 (cp1252)"}


@dataclass(frozen=True, slots=True)
class Text:
    """Decoded text, and a warning when it was not plain UTF-8."""

    text: str
    warning: Diagnostic | None = None


# -- Text from strangers ------------------------------------------------------------------

_C0 = "\x00-\x1f"
UNSEEN_RANGES = (
    "\x7f-\x9f"  # DEL, C1
    "\u00ad\u034f\u061c\u0600-\u0605\u06dd\u070f\u0890\u0891\u08e2"
    "\u115f\u1160\u17b4\u17b5\u180b-\u180f"
    "\u200b-\u200f\u2028-\u202e\u2060-\u206f\u3164"
    "\ud800-\udfff"  # lone surrogates (undecodable file-name bytes among them)
    "\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufffb"
    "\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"
    "\U000e0000-\U000e0fff"
)
INVISIBLE = re.compile(f"[{_C0}{UNSEEN_RANGES}]")
"""Characters a reader cannot see or that change what is shown around them: control
characters, bidi controls, line and paragraph separators, lone surrogates, and Unicode's
default-ignorable characters (zero-width spaces and joiners, soft hyphen, word joiner,
variation selectors, Hangul fillers, tags)."""

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def formula_start(text: str) -> bool:
    """Whether a spreadsheet would read `text` as a formula: it starts with `=`, `+`, `-`,
    `@`, a tab or a carriage return, in any width (NFKC folds the full-width U+FF1D to `=`)."""
    if not text:
        return False
    return text.startswith(_FORMULA_START) or unicodedata.normalize("NFKC", text[0]).startswith(
        _FORMULA_START
    )


_NAME_BYTE = re.compile("[\udc80-\udcff]")


def name_text(name: str) -> str:
    """A name from the file system as valid text: each byte that is not UTF-8 (carried by
    Python as a lone surrogate) written as `\\xe9`, so that every output can hold it;
    everything else as it is (each output channel escapes the rest its own way)."""
    return _NAME_BYTE.sub(lambda m: f"\\x{ord(m.group()) - 0xDC00:02x}", name)


def _error(source: str, message: Phrase, line: int | None = None, col: int = 1) -> ReadError:
    return ReadError(Diagnostic.said("E001", message, source, line, col))


def _at(data: bytes, pos: int) -> tuple[int, int]:
    """The line and column of the byte at `pos`."""
    return data.count(b"\n", 0, pos) + 1, pos - (data.rfind(b"\n", 0, pos) + 1) + 1


def decode(data: bytes, source: str) -> str:
    """UTF-8 text only (a UTF-8 byte-order mark is allowed), as dice files must be;
    anything else is a ReadError (E001) that shows no raw byte."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        raise _error(source, phrase(N_("the file is UTF-16 text; save it as UTF-8")), 1)
    if b"\x00" in data:
        line = _at(data, data.index(b"\x00"))[0]
        raise _error(source, phrase(N_("the file is binary (it holds NUL bytes), not text")), line)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise _error(source, _not_utf8(data[exc.start]), *_at(data, exc.start)) from None


def decode_text(data: bytes, source: str) -> Text:
    """Text from bytes: UTF-8, UTF-16/32 with a byte-order mark, or Windows-1252 when the
    bytes are not UTF-8 but read as text without control characters (both with a warning
    that names the encoding). Anything else is a ReadError (E001) that shows no raw byte."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            try:
                text = data.decode(encoding).removeprefix("\ufeff")
            except UnicodeDecodeError:
                name = _ENCODING_NAMES.get(encoding, encoding)
                message = N_("the file starts like {encoding} text but does not decode as it")
                raise _error(source, phrase(message, encoding=name), 1) from None
            return Text(text, _warning(encoding, source) if encoding != "utf-8-sig" else None)
    if b"\x00" in data:
        line = _at(data, data.index(b"\x00"))[0]
        message = N_("the file is binary (it holds NUL bytes), not a text record")
        raise _error(source, phrase(message), line)
    try:
        return Text(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        bad = exc.start
    try:
        text = data.decode("cp1252")
    except UnicodeDecodeError:
        text = ""
    if text and not any(_is_control(ch) for ch in text):
        return Text(text, _warning("cp1252", source))
    raise _error(source, _not_utf8(data[bad]), *_at(data, bad))


def _not_utf8(byte: int) -> Phrase:
    return phrase(
        N_("the file is not UTF-8 text (byte {byte}); save it as UTF-8"), byte=f"0x{byte:02x}"
    )


def _is_control(ch: str) -> bool:
    return ch not in "\t\n\r" and unicodedata.category(ch) in ("Cc", "Cf")


def _warning(encoding: str, source: str) -> Diagnostic:
    name = _ENCODING_NAMES.get(encoding, encoding)
    message = phrase(N_("the file is {name} text, not UTF-8; it was read as {name}"), name=name)
    hint = phrase(N_("save it as UTF-8 so that every tool reads it the same way"))
    return Diagnostic.said("W003", message, source, 1, 1, hint=hint)


def read_bytes(
    path: Path | str,
    source: str | None = None,
    max_bytes: int = MAX_BYTES,
    *,
    follow: bool = True,
    root: Path | None = None,
) -> bytes:
    """A file's bytes (standard input for `-`), refused by size before any is read.

    The file is opened once, non-blocking, and the opened file is checked (`fstat`), not
    the path: a FIFO, socket or device put in its place never hangs the read, and the size
    cap holds before the first byte. With `follow=False` a symbolic link is refused, not
    followed; with `root` (and `path` relative to it) every folder on the way is opened
    the same way, so a folder swapped for a link cannot lead outside `root` either.
    """
    name = source or str(path)
    if str(path) == STDIN:
        data = sys.stdin.buffer.read(max_bytes + 1)
        if len(data) > max_bytes:
            message = phrase(N_("the input is more than the {n} bytes allowed"), n=max_bytes)
            raise ReadError(Diagnostic.said("E001", message, name, 1))
        return data
    try:
        fd = _open(Path(path), follow, root)
    except OSError as exc:
        raise ReadError(Diagnostic.said("E001", _open_problem(exc), name)) from None
    try:
        with os.fdopen(fd, "rb", buffering=0, closefd=True) as handle:
            info = os.fstat(handle.fileno())
            if stat.S_ISDIR(info.st_mode):
                raise ReadError(Diagnostic.said("E001", _FOLDER, name))
            if not stat.S_ISREG(info.st_mode):
                message = phrase(N_("is not a regular file (a device, FIFO or socket)"))
                raise ReadError(Diagnostic.said("E001", message, name))
            if info.st_size > max_bytes:
                message = phrase(
                    N_("the file is {size} bytes, more than the {n} allowed"),
                    size=info.st_size,
                    n=max_bytes,
                )
                raise ReadError(Diagnostic.said("E001", message, name, 1))
            # What fstat promised, then whatever a growing file adds, up to the cap
            # (reading max_bytes at once would allocate that much each time).
            data = _read_up_to(handle, info.st_size + 1)
            if len(data) > info.st_size:
                data += _read_up_to(handle, max_bytes + 1 - len(data))
    except OSError as exc:
        raise ReadError(Diagnostic.said("E001", _cannot_read(exc.strerror), name)) from None
    if len(data) > max_bytes:
        message = phrase(N_("the file is more than the {n} bytes allowed"), n=max_bytes)
        raise ReadError(Diagnostic.said("E001", message, name, 1))
    return data


def read_head(path: Path, limit: int, root: Path) -> bytes:
    """The first `limit` bytes of a regular file under `root` (`path` relative to it),
    opened as `read_bytes` opens a file with `follow=False`: no symbolic link is followed
    on the way, and a FIFO, socket or device is refused before a byte is read. For a
    message of a mailbox, whose cap keeps its headers when it is over (contest/mail.py).
    Raises OSError (ELOOP for a link, EINVAL for what is not a regular file)."""
    fd = _open(path, False, root)
    with os.fdopen(fd, "rb", buffering=0, closefd=True) as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            raise OSError(errno.EINVAL, "not a regular file")
        return _read_up_to(handle, limit)


_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)


def _open(path: Path, follow: bool, root: Path | None) -> int:
    flags = _FLAGS | (0 if follow else _NOFOLLOW)
    if root is None or path.is_absolute() or not _NOFOLLOW or os.open not in os.supports_dir_fd:
        if not follow and path.is_symlink():  # where O_NOFOLLOW is missing (Windows)
            raise OSError(errno.ELOOP, "is a symbolic link")
        return os.open(path, flags)
    # Folder by folder from root, none of them followed if it is a link.
    parts = path.parts
    fd = os.open(root, _FLAGS | _DIRECTORY)
    try:
        for part in parts[:-1]:
            inner = os.open(part, _FLAGS | _DIRECTORY | _NOFOLLOW, dir_fd=fd)
            os.close(fd)
            fd = inner
        return os.open(parts[-1], flags, dir_fd=fd)
    finally:
        os.close(fd)


_FOLDER = phrase(N_("is a folder, not a file"))


def _cannot_read(why: object) -> Phrase:
    """`cannot read the file: Permission denied` (the system's own words stay as they are)."""
    return phrase(N_("cannot read the file: {why}"), why=why)


def _open_problem(exc: OSError) -> Phrase:
    if exc.errno == errno.ENOENT:
        return phrase(N_("does not exist"))
    if exc.errno == errno.ELOOP or (exc.errno == errno.ENOTDIR and not _DIRECTORY):
        return phrase(N_("is a symbolic link, not followed"))
    if exc.errno == errno.ENOTDIR:
        return phrase(N_("is inside something that is not a folder (or a link, not followed)"))
    if exc.errno == errno.EISDIR:
        return _FOLDER
    return _cannot_read(exc.strerror or type(exc).__name__)


def _read_up_to(handle: io.RawIOBase, size: int) -> bytes:
    """Up to `size` bytes (fewer at the end of the file); never blocks on a regular file."""
    chunks: list[bytes] = []
    left = size
    while left > 0:
        chunk = handle.read(min(left, 1 << 20))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)
