"""The official dice file: plain text (several row styles), CSV, YAML or JSON; the
format is chosen by extension in the dice-format registry (validator/records/registry.py)."""

from __future__ import annotations

import csv
import hashlib
import io
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from validator.engine import Dice
from validator.engine.phrase import N_, Text, phrase
from validator.errors import Diagnostic, ReadError
from validator.records.lexing import LexError, either, lex_dice, short, split_lines
from validator.records.registry import dice_format_of
from validator.records.source import MAX_DICE_BYTES, decode, read_bytes

if TYPE_CHECKING:
    from validator.records.model import Locations


@dataclass(frozen=True, slots=True)
class DiceFile:
    rows: tuple[Dice, ...]
    sha256: str
    source: str


_LIST_START = re.compile(r"(?:\s|#[^\n]*(?:\n|\Z))*(?:\[|-(?:\s|\Z)|\Z)")
"""How a YAML or JSON list starts, after blanks and comments (or an empty file, which
the reader reports as such)."""
_NUMBER = re.compile(r"^\s*(\d+)\s*[:.)]\s*")
_EXAMPLES = phrase(
    N_("three dice 1-6, like {examples}"),
    examples=either("`2 4 5`, `2,4,5`, `2;4;5`, `245`", "`1: 2 4 5`"),
)
_A_LIST = phrase(N_("expected a list of rolls, like {example}"), example="[[2, 4, 5], [1, 3, 6]]")


def read_dice(
    path: Path | str,
    source: str | None = None,
    *,
    max_bytes: int = MAX_DICE_BYTES,
    follow: bool = True,
) -> DiceFile:
    """Read a dice file; the format comes from its extension (plain text for others).

    `max_bytes` is the organizer's limit for `--dice`; a dice file an entry names is read
    with the record's own (smaller) cap, and `follow=False` refuses a symbolic link."""
    name = source or str(path)
    try:
        data = read_bytes(path, name, max_bytes=max_bytes, follow=follow)
    except ReadError as exc:
        raise ReadError(_as_dice(exc.diagnostic)) from None
    return parse_dice(data, name, Path(path).suffix.lower())


def parse_dice(data: bytes, source: str, suffix: str = ".txt") -> DiceFile:
    """Read dice rows from bytes; raises ReadError with a D-code, file and line."""
    try:
        text = decode(data, source)
    except ReadError as exc:
        raise ReadError(_as_dice(exc.diagnostic)) from None
    digest = hashlib.sha256(data).hexdigest()
    rows = dice_format_of(suffix).rows(text, source)
    if not rows:
        raise ReadError(
            Diagnostic.said("D004", phrase(N_("the dice file has no rolls")), source, 1, 1)
        )
    return DiceFile(tuple(dice for dice, _ in rows), digest, source)


def _as_dice(d: Diagnostic, code: str = "D001") -> Diagnostic:
    return Diagnostic(code, d.phrase, d.file, d.line, d.col)


def _error(code: str, message: Text, source: str, line: int, col: int = 1) -> ReadError:
    return ReadError(Diagnostic.said(code, message, source, line, col))


def plain_rows(text: str, source: str) -> list[tuple[Dice, int]]:
    """Rows of a plain-text dice file, each with its line."""
    rows: list[tuple[Dice, int]] = []
    numbered: bool | None = None
    for lineno, raw in enumerate(split_lines(text), start=1):
        content = raw.split("#", 1)[0]
        if not content.strip():
            continue
        body = content
        number = _NUMBER.match(content)
        col = len(content) - len(content.lstrip()) + 1
        if number:
            if numbered is False:
                message = phrase(N_("a row number here, but earlier rows had none"))
                raise _error("D003", message, source, lineno, col)
            numbered = True
            expected = len(rows) + 1
            if number.group(1).lstrip("0") != str(expected):  # no int() of a long number
                message = phrase(
                    N_("row number {number}, expected {expected} (rows count up from 1)"),
                    number=short(number.group(1)),
                    expected=expected,
                )
                raise _error("D003", message, source, lineno, col)
            body = content[number.end() :]
            col = number.end() + 1
        else:
            if numbered:
                message = phrase(N_("row {row} has no row number"), row=len(rows) + 1)
                raise _error("D003", message, source, lineno, col)
            numbered = False
        try:
            a, b, c = lex_dice(body)
        except LexError:
            a = b = c = 0
        if not all(1 <= d <= 6 for d in (a, b, c)):
            message = phrase(
                N_("expected {what}, found {found}"), what=_EXAMPLES, found=short(raw.strip())
            )
            raise _error("D002", message, source, lineno, col)
        rows.append(((a, b, c), lineno))
    return rows


def csv_rows(text: str, source: str) -> list[tuple[Dice, int]]:
    """Rows of a CSV dice file (`d1,d2,d3` or `roll,d1,d2,d3`), each with its line."""
    reader = csv.reader(io.StringIO(text))
    rows: list[tuple[Dice, int]] = []
    header: list[str] | None = None
    try:
        for record in reader:
            lineno = reader.line_num
            cells = [c.strip() for c in record]
            if not any(cells) or cells[0].startswith("#"):
                continue
            if header is None:
                header = [c.lower() for c in cells]
                if header not in (["d1", "d2", "d3"], ["roll", "d1", "d2", "d3"]):
                    message = phrase(
                        N_("expected the header {headers}, found {found}"),
                        headers=either("`d1,d2,d3`", "`roll,d1,d2,d3`"),
                        found=short(",".join(cells)),
                    )
                    raise _error("D002", message, source, lineno)
                continue
            if len(cells) != len(header):
                message = phrase(
                    N_("expected {n} values, found {found}"), n=len(header), found=len(cells)
                )
                raise _error("D002", message, source, lineno)
            if len(header) == 4 and cells[0] != str(len(rows) + 1):
                message = phrase(
                    N_("roll {found}, expected {expected}"),
                    found=short(cells[0]),
                    expected=len(rows) + 1,
                )
                raise _error("D003", message, source, lineno)
            values = cells[-3:]
            if not all(v in {"1", "2", "3", "4", "5", "6"} for v in values):
                message = phrase(N_("dice must be 1-6, found {found}"), found=",".join(values))
                raise _error("D002", message, source, lineno)
            a, b, c = (int(v) for v in values)
            rows.append(((a, b, c), lineno))
    except csv.Error as exc:
        raise _error(
            "D002", phrase(N_("CSV syntax: {problem}"), problem=exc), source, reader.line_num
        ) from None
    return rows


def yaml_rows(text: str, source: str) -> list[tuple[Dice, int]]:
    """Rows of a YAML dice file (a list of three-dice lists), each with its line."""
    from validator.records import yaml_source

    return _structured(text, source, yaml_source.load)


def json_rows(text: str, source: str) -> list[tuple[Dice, int]]:
    """Rows of a JSON dice file (a list of three-dice lists), each with its line."""
    from validator.records import json_source

    return _structured(text, source, json_source.load)


def _structured(
    text: str, source: str, load: Callable[[str, str], tuple[Any, Locations]]
) -> list[tuple[Dice, int]]:
    if not _LIST_START.match(text):
        # A dice file is a list; anything else (a record, say) is not parsed whole.
        raise _error("D002", _A_LIST, source, 1)
    try:
        data, locations = load(text, source)
    except ReadError as exc:
        raise ReadError(_as_dice(exc.diagnostic, "D002")) from None
    if not isinstance(data, list):
        raise _error("D002", _A_LIST, source, 1)
    rows: list[tuple[Dice, int]] = []
    for i, item in enumerate(data):
        line, col = locations.get((i,), (1, 1))
        if not _is_roll(item):
            message = phrase(
                N_("roll {roll}: expected three dice 1-6, found {found}"),
                roll=i + 1,
                found=f"{item!r:.40}",
            )
            raise _error("D002", message, source, line, col)
        rows.append(((item[0], item[1], item[2]), line))
    return rows


def _is_roll(item: Any) -> bool:
    return (
        isinstance(item, list)
        and len(item) == 3
        and all(type(v) is int and 1 <= v <= 6 for v in item)
    )
