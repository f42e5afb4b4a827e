"""Turning a file's bytes into text: size limits, standard input, encodings, and a clear
diagnostic (never the raw bytes) for what is not text."""

from __future__ import annotations

import codecs
import sys
import unicodedata
from dataclasses import dataclass
from pathlib import Path

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


def decode(data: bytes, source: str) -> str:
    """UTF-8 text only (a UTF-8 byte-order mark is allowed), as dice files must be;
    anything else is a ReadError (E001) that shows no raw byte."""

    def fail(message: str, line: int | None = None, col: int | None = None) -> ReadError:
        return ReadError(Diagnostic("E001", message, source, line, col))

    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        raise fail("the file is UTF-16 text; save it as UTF-8", 1, 1)
    if b"\x00" in data:
        line = data.count(b"\n", 0, data.index(b"\x00")) + 1
        raise fail("the file is binary (it holds NUL bytes), not text", line, 1)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise fail(
            f"the file is not UTF-8 text (byte 0x{data[exc.start]:02x}); save it as UTF-8",
            line,
            col,
        ) from None


def decode_text(data: bytes, source: str) -> Text:
    """Text from bytes: UTF-8, UTF-16/32 with a byte-order mark, or Windows-1252 when the
    bytes are not UTF-8 but read as text without control characters (both with a warning
    that names the encoding). Anything else is a ReadError (E001) that shows no raw byte."""

    def fail(message: str, line: int | None = None, col: int | None = None) -> ReadError:
        return ReadError(Diagnostic("E001", message, source, line, col))

    for bom, encoding in _BOMS:
        if data.startswith(bom):
            try:
                text = data.decode(encoding).removeprefix("\ufeff")
            except UnicodeDecodeError:
                raise fail(
                    f"the file starts like {_ENCODING_NAMES.get(encoding, encoding)} "
                    "text but does not decode as it",
                    1,
                    1,
                ) from None
            return Text(text, _warning(encoding, source) if encoding != "utf-8-sig" else None)
    if b"\x00" in data:
        line = data.count(b"\n", 0, data.index(b"\x00")) + 1
        raise fail("the file is binary (it holds NUL bytes), not a text record", line, 1)
    try:
        return Text(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        bad = data[exc.start]
    try:
        text = data.decode("cp1252")
    except UnicodeDecodeError:
        text = ""
    if text and not any(_is_control(ch) for ch in text):
        return Text(text, _warning("cp1252", source))
    raise fail(
        f"the file is not UTF-8 text (byte 0x{bad:02x}); save it as UTF-8", line, col
    ) from None


def _is_control(ch: str) -> bool:
    return ch not in "\t\n\r" and unicodedata.category(ch) in ("Cc", "Cf")


def _warning(encoding: str, source: str) -> Diagnostic:
    name = _ENCODING_NAMES.get(encoding, encoding)
    return Diagnostic(
        "W003",
        f"the file is {name} text, not UTF-8; it was read as {name}",
        source,
        1,
        1,
        hint="save it as UTF-8 so that every tool reads it the same way",
    )


def read_bytes(path: Path | str, source: str | None = None, max_bytes: int = MAX_BYTES) -> bytes:
    """A file's bytes (standard input for `-`), refused by size before they are read."""
    name = source or str(path)
    too_big = "the file is {size} bytes, more than the {limit} allowed"
    if str(path) == STDIN:
        data = sys.stdin.buffer.read(max_bytes + 1)
        if len(data) > max_bytes:
            raise ReadError(
                Diagnostic("E001", f"the input is more than the {max_bytes} bytes allowed", name, 1)
            )
        return data
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > max_bytes:
            raise ReadError(Diagnostic("E001", too_big.format(size=size, limit=max_bytes), name, 1))
        with path.open("rb") as handle:
            # Read what stat promised, then whatever a growing file or a FIFO adds, up
            # to the cap (reading max_bytes at once would allocate that much each time).
            data = handle.read(size + 1)
            if len(data) > size:
                data += handle.read(max_bytes + 1 - len(data))
        if len(data) > max_bytes:
            raise ReadError(
                Diagnostic("E001", f"the file is more than the {max_bytes} bytes allowed", name, 1)
            )
        return data
    except IsADirectoryError:
        raise ReadError(Diagnostic("E001", "is a folder, not a file", name)) from None
    except OSError as exc:
        raise ReadError(Diagnostic("E001", f"cannot read the file: {exc.strerror}", name)) from None
