"""The record value, its four file formats (read and written), dice files and sources."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from os import PathLike
from pathlib import Path

from validator.engine import Dice
from validator.engine.phrase import N_, phrase
from validator.errors import Diagnostic, ReadError
from validator.records.record import Record, source_lines
from validator.records.registry import (
    RECORD_FORMAT_BY_NAME,
    RECORD_FORMAT_LIST,
    record_format_of,
    sniff_format,
)
from validator.records.source import MAX_BYTES, STDIN, decode_text, read_bytes

__all__ = [
    "FORMAT_NAMES",
    "MAX_BYTES",
    "RECORD_FORMATS",
    "STDIN",
    "dump_record",
    "format_of",
    "parse_record",
    "read_record",
    "sniff_format",
]

RECORD_FORMATS: dict[str, str] = {ext: f.name for f in RECORD_FORMAT_LIST for ext in f.extensions}
"""Record file extensions and the format each one is read as."""

FORMAT_NAMES = tuple(f.name for f in RECORD_FORMAT_LIST)


def format_of(path: str | PathLike[str]) -> str | None:
    """The record format a file's extension names, or None."""
    found = record_format_of(Path(path).suffix)
    return found.name if found else None


def parse_record(
    data: str | bytes,
    fmt: str | None = None,
    *,
    source: str = "<record>",
    max_bytes: int = MAX_BYTES,
    max_rounds: int | None = None,
    dice: Sequence[Dice] | None = None,
) -> Record:
    """Read a record from text or bytes in the named format (recognised by content when
    `fmt` is None); `source` names it in diagnostics. With the `dice` file's rows, a text
    line that reads in more than one way is read the way that fits them. The arguments are
    in the order of `validator.parse_record`. Raises ReadError carrying every problem found
    (up to 50).

    `max_bytes` refuses larger input before it is parsed; with `max_rounds`, reading
    stops after that many rounds (pass one more than the dice file has rows: the extra
    round is a round after the end, which the replay reports). `max_rounds=0` reads the
    header only (header keys written after the rounds excepted): the cheap way to learn
    the `dice_file` a record names before reading the rest."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    if len(raw) > max_bytes:
        message = phrase(
            N_("the input is {size} bytes, more than the {n} allowed"),
            size=len(raw),
            n=max_bytes,
        )
        raise ReadError(Diagnostic.said("E001", message, source, 1))
    if isinstance(data, str):
        text, warning = data.removeprefix("\ufeff"), None
    else:
        decoded = decode_text(data, source)
        text, warning = decoded.text, decoded.warning
    if not text.strip():
        raise ReadError(Diagnostic.said("E007", phrase(N_("the file is empty")), source, 1, 1))
    if fmt is None:
        fmt = sniff_format(raw)
        if fmt is None:
            raise ReadError(_unknown_format(source))
    if fmt not in RECORD_FORMAT_BY_NAME:
        raise ValueError(f"unknown record format {fmt!r}; known: {', '.join(FORMAT_NAMES)}")
    try:
        record = RECORD_FORMAT_BY_NAME[fmt].parse(text, source, max_rounds, dice=dice)
    except RecursionError:
        raise ReadError(
            Diagnostic.said("E006", phrase(N_("the record is nested too deeply")), source, 1, 1)
        ) from None
    except ReadError as exc:
        quoted = source_lines(text, (d.line for d in exc.diagnostics if d.line is not None))
        found = [_with_excerpt(d, quoted) for d in exc.diagnostics]
        raise ReadError(*found, omitted=exc.omitted, language=exc.language) from None
    return replace(record, text=text, warnings=((warning,) if warning else ()) + record.warnings)


def _unknown_format(source: str) -> Diagnostic:
    known = ", ".join(RECORD_FORMATS)
    message = phrase(
        N_(
            "cannot tell the record's format from its name or its content "
            "(known extensions: {known})"
        ),
        known=known,
    )
    hint = phrase(N_("rename the file with one of the known extensions"))
    return Diagnostic.said("E002", message, source, 1, 1, hint=hint)


def _with_excerpt(diagnostic: Diagnostic, quoted: dict[int, str]) -> Diagnostic:
    """The diagnostic with its source line quoted from the text as read."""
    if diagnostic.line is None or diagnostic.excerpt is not None:
        return diagnostic
    line = quoted.get(diagnostic.line)
    return diagnostic if line is None else replace(diagnostic, excerpt=line)


def read_record(
    path: str | PathLike[str],
    fmt: str | None = None,
    *,
    source: str | None = None,
    max_bytes: int = MAX_BYTES,
    max_rounds: int | None = None,
) -> Record:
    """Read a record file (`-` is standard input, named `<stdin>` unless `source` says).
    The format comes from `fmt`, else the file's extension, else its content; when none
    tells, a ReadError (E002) lists the known extensions. See parse_record for limits."""
    stdin = str(path) == STDIN
    name = source or ("<stdin>" if stdin else str(path))
    fmt = fmt or (None if stdin else format_of(path))
    data = read_bytes(Path(path) if not stdin else STDIN, name, max_bytes=max_bytes)
    return parse_record(data, fmt, source=name, max_bytes=max_bytes, max_rounds=max_rounds)


def dump_record(record: Record, fmt: str) -> str:
    """The record written in the named format."""
    return RECORD_FORMAT_BY_NAME[fmt].dump(record)
