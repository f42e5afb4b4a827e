"""Turning a file's bytes into text, with a clear diagnostic for what is not text."""

from __future__ import annotations

from pathlib import Path

from validator.errors import Diagnostic, ReadError

MAX_BYTES = 16 * 1024 * 1024
"""A record or dice file larger than this is refused rather than read into memory."""


def decode(data: bytes, source: str) -> str:
    """UTF-8 text (a UTF-8 byte-order mark is allowed); anything else is a ReadError."""

    def fail(message: str, line: int | None = None, col: int | None = None) -> ReadError:
        return ReadError(Diagnostic("E001", message, source, line, col))

    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise fail("the file is UTF-16 text; save it as UTF-8", 1, 1)
    if b"\x00" in data:
        line = data.count(b"\n", 0, data.index(b"\x00")) + 1
        raise fail("the file is binary (it holds NUL bytes), not a text record", line)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise fail(
            f"the file is not UTF-8 text (byte 0x{data[exc.start]:02x})", line, col
        ) from None
    return text


def read_bytes(path: Path, source: str | None = None) -> bytes:
    name = source or str(path)
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise ReadError(
                Diagnostic(
                    "E001", f"the file is {size} bytes, more than {MAX_BYTES} allowed", name, 1
                )
            )
        return path.read_bytes()
    except IsADirectoryError:
        raise ReadError(Diagnostic("E001", "is a folder, not a file", name)) from None
    except OSError as exc:
        raise ReadError(Diagnostic("E001", f"cannot read the file: {exc.strerror}", name)) from None


def read_text(path: Path, source: str | None = None) -> str:
    return decode(read_bytes(path, source), source or str(path))
