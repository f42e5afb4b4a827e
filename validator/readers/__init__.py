"""Readers (and writers) for record files, one module per format, chosen by extension."""

from __future__ import annotations

import importlib
from dataclasses import replace
from pathlib import Path
from typing import Protocol, cast

from validator.errors import Diagnostic, ReadError
from validator.readers.source import decode, read_bytes
from validator.record import Record

RECORD_FORMATS: dict[str, str] = {
    ".yaml": "yaml",
    ".yml": "yaml",
    ".json": "json",
    ".txt": "text",
    ".csv": "csv",
}
"""Record file extensions and the format each one is read as."""

FORMAT_NAMES = ("yaml", "json", "text", "csv")


class _FormatModule(Protocol):
    def parse(self, text: str, source: str) -> Record: ...

    def dump(self, record: Record) -> str: ...


def _module(fmt: str) -> _FormatModule:
    # Imported on demand: pydantic and yaml are not needed for `--version` or `--help`.
    name = {
        "yaml": "yaml_record",
        "json": "json_record",
        "text": "text_record",
        "csv": "csv_record",
    }
    return cast(_FormatModule, importlib.import_module(f"validator.readers.{name[fmt]}"))


def format_of(path: Path) -> str | None:
    return RECORD_FORMATS.get(path.suffix.lower())


def parse_record(data: bytes, source: str, fmt: str) -> Record:
    """Read a record from bytes in the named format; raises ReadError."""
    text = decode(data, source)
    if not text.strip():
        raise ReadError(Diagnostic("E007", "the file is empty", source, 1, 1))
    try:
        record = _module(fmt).parse(text, source)
    except RecursionError:
        raise ReadError(
            Diagnostic("E006", "the record is nested too deeply", source, 1, 1)
        ) from None
    except ReadError as exc:
        raise ReadError(_with_excerpt(exc.diagnostic, text)) from None
    return replace(record, text=text)


def _with_excerpt(diagnostic: Diagnostic, text: str) -> Diagnostic:
    """The diagnostic with its source line quoted from the text as read."""
    if diagnostic.line is None or diagnostic.excerpt is not None:
        return diagnostic
    lines = text.splitlines()
    if diagnostic.line > len(lines):
        return diagnostic
    return replace(diagnostic, excerpt=lines[diagnostic.line - 1])


def read_record(path: Path, source: str | None = None, fmt: str | None = None) -> Record:
    """Read a record file; the format comes from `fmt` or the file's extension."""
    name = source or str(path)
    fmt = fmt or format_of(path) or "yaml"
    return parse_record(read_bytes(path, name), name, fmt)


def dump_record(record: Record, fmt: str) -> str:
    return _module(fmt).dump(record)
