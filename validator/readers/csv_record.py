"""The CSV record: `# key: value` header lines, a row naming the columns, then one row per round."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import NoReturn

from validator.readers.model import HEADER_KEYS, Locations, build_record
from validator.readers.text_record import (
    FIELD,
    Header,
    fail,
    field_text,
    header_lines,
    number,
    spaces_end,
)
from validator.record import Record, RecordRound

COLUMNS = ("roll", "dice", "cross", "move", "steps", "reroll", "path", "ring")

META_LINE = re.compile(
    r"[ \t]*#(?!#)[ \t]*(?P<key>[A-Za-z][A-Za-z0-9_-]*)[ \t]*:(?P<rest>.*)\Z", re.ASCII
)
"""`# key: value`; a line starting `##` is always a comment."""

_DICE = re.compile(
    r"[(\[]?[ \t]*(\d+)[ \t]*[ \t,;][ \t]*(\d+)[ \t]*[ \t,;][ \t]*(\d+)[ \t]*[)\]]?|(\d)(\d)(\d)",
    re.ASCII,
)
_DIGITS = re.compile(r"\d+", re.ASCII)
_YES = frozenset({"true", "yes", "y", "1", "x"})
_NO = frozenset({"", "false", "no", "n", "0"})
_PATH_SEP = re.compile(r"[ \t,;>\-]*")

Cell = tuple[str, int]
"""A cell's text (stripped, unquoted) and the column where it stands."""


def parse(text: str, source: str) -> Record:
    """Read a CSV record; raises ReadError."""
    header = Header(source)
    columns: list[str] | None = None
    columns_line = 0
    delimiter = ","
    rounds: list[dict[str, object]] = []
    locations: Locations = {}
    for lineno, raw in enumerate(text.removeprefix("\ufeff").split("\n"), start=1):
        line = raw.removesuffix("\r")
        if not line.strip(" \t"):
            continue
        if line.lstrip(" \t").startswith("#"):
            meta = META_LINE.match(line)
            if meta is None:
                continue
            if columns is None:
                header.read(header.key(meta, lineno), meta, lineno)
            elif meta["key"].lower().replace("-", "_") in HEADER_KEYS:
                fail(
                    "E002",
                    f"header line {meta['key']} after the row naming the columns "
                    f"(line {columns_line})",
                    source,
                    lineno,
                    meta.start("key") + 1,
                    hint="# key: value lines come before the row naming the columns",
                )
            continue
        if columns is None:
            delimiter = _delimiter(line)
            columns = _columns(_split(line, delimiter, lineno, source), lineno, source)
            columns_line = lineno
            continue
        cells = _split(line, delimiter, lineno, source)
        if all(not value for value, _ in cells):
            continue  # spreadsheets export empty rows as a line of delimiters
        if len(cells) != len(columns):
            col = cells[len(columns)][1] if len(cells) > len(columns) else len(line) + 1
            fail(
                "E002",
                f"this row has {_cells_text(len(cells))}, the header row (line "
                f"{columns_line}) names {len(columns)} columns: {', '.join(columns)}",
                source,
                lineno,
                col,
            )
        index = len(rounds)
        data: dict[str, object] = {}
        locations[("rounds", index)] = (lineno, spaces_end(line, 0) + 1)
        for number_, (name, (value, col)) in enumerate(zip(columns, cells, strict=True), 1):
            cell = _Cell(name, number_, value, lineno, col, source)
            parsed = _READERS[name](cell)
            if parsed is None:
                continue
            data[name] = parsed
            locations[("rounds", index, name)] = (lineno, col)
            for i, at in enumerate(cell.parts):
                locations[("rounds", index, name, i)] = (lineno, at)
        rounds.append(data)
    if columns is None:
        code, message = (
            ("E004", "no row names the columns")
            if header.values
            else ("E007", "the file holds no record")
        )
        fail(
            code,
            message,
            source,
            1,
            1,
            hint="after the # key: value lines, a row naming the columns like "
            "roll,dice,cross,move,steps,reroll, then one row per round",
        )
    if not rounds and not header.values:
        fail(
            "E007",
            "the file holds no record: no row after the column names",
            source,
            columns_line,
            1,
            hint="one row per round, like 7,3 4 6,3/4,5/5,6,",
        )
    locations.update(header.locations)
    locations[()] = (1, 1)
    if rounds:
        locations[("rounds",)] = locations[("rounds", 0)]
    return build_record({**header.values, "rounds": rounds}, locations, source, "csv")


def _cells_text(count: int) -> str:
    return "1 cell" if count == 1 else f"{count} cells"


def _delimiter(line: str) -> str:
    """The header row decides: comma, else semicolon, else tab (one column: comma)."""
    for candidate in (",", ";", "\t"):
        if candidate in line:
            return candidate
    return ","


def _split(line: str, delimiter: str, lineno: int, source: str) -> list[Cell]:
    """A line's cells; a cell may be quoted with "..." ("" inside for a quote)."""
    cells: list[Cell] = []
    i = 0
    while True:
        start = i
        while start < len(line) and line[start] in " \t" and line[start] != delimiter:
            start += 1
        if line.startswith('"', start):
            parts: list[str] = []
            k = start + 1
            while True:
                q = line.find('"', k)
                if q < 0:
                    fail(
                        "E002",
                        "a quoted cell is not closed",
                        source,
                        lineno,
                        start + 1,
                        hint='close it with "; a quote inside is written ""',
                    )
                parts.append(line[k:q])
                if not line.startswith('"', q + 1):
                    break
                parts.append('"')
                k = q + 2
            end = q + 1
            while end < len(line) and line[end] in " \t" and line[end] != delimiter:
                end += 1
            if end < len(line) and line[end] != delimiter:
                fail(
                    "E002",
                    f"expected {_name(delimiter)} after the quoted cell, found {line[end]!r}",
                    source,
                    lineno,
                    end + 1,
                )
            content = "".join(parts)
            lead = len(content) - len(content.lstrip(" \t"))
            cells.append((content.strip(" \t"), start + 2 + lead))
        else:
            end = line.find(delimiter, i)
            if end < 0:
                end = len(line)
            cells.append((line[i:end].strip(" \t"), min(start, end) + 1))
        if end >= len(line):
            return cells
        i = end + 1


def _name(delimiter: str) -> str:
    return {",": "a comma", ";": "a semicolon", "\t": "a tab"}[delimiter]


def _columns(cells: list[Cell], lineno: int, source: str) -> list[str]:
    names: list[str] = []
    for number_, (value, col) in enumerate(cells, 1):
        name = value.lower()
        if not name:
            fail(
                "E002",
                f"column {number_} of the header row has no name",
                source,
                lineno,
                col,
                hint="known columns: " + ", ".join(COLUMNS),
            )
        if name not in COLUMNS:
            fail(
                "E003",
                f"unknown column {value!r} (column {number_})",
                source,
                lineno,
                col,
                hint="the first row that is not a # line names the columns; known columns: "
                + ", ".join(COLUMNS),
            )
        if name in names:
            fail(
                "E002",
                f"column {name} is named twice (columns {names.index(name) + 1} and {number_})",
                source,
                lineno,
                col,
            )
        names.append(name)
    return names


class _Cell:
    """One data cell being read: its column name, text and place, for messages."""

    def __init__(
        self, name: str, number_: int, value: str, line: int, col: int, source: str
    ) -> None:
        self.name = name
        self.number = number_
        self.value = value
        self.line = line
        self.col = col
        self.source = source
        self.parts: list[int] = []
        """Columns of the entries of a list value (path), for their locations."""

    def fail(self, expected: str, offset: int = 0) -> NoReturn:
        rest = self.value[offset:]
        message = f"column {self.name} (cell {self.number}): expected {expected}"
        if rest:
            message += f", found {rest[:24]!r}"
        fail("E002", message, self.source, self.line, self.col + offset)

    def whole(self, what: str, example: str) -> int:
        if not _DIGITS.fullmatch(self.value):
            self.fail(f"{what} as a whole number, like {example}")
        return number(self.value, what, self.source, self.line, self.col)

    def field(self, pos: int = 0, whole: bool = True) -> tuple[str, int]:
        m = FIELD.fullmatch(self.value, pos) if whole else FIELD.match(self.value, pos)
        if m is None:
            self.fail("a field like 3/4", pos)
        return field_text(m, self.source, self.line), m.end()


def _roll(cell: _Cell) -> object:
    return cell.whole("the dice row number", "7") if cell.value else None


def _dice(cell: _Cell) -> object:
    if not cell.value:
        return None
    m = _DICE.fullmatch(cell.value)
    if m is None:
        cell.fail("three dice like 2 4 5")
    return [number(d, "die", cell.source, cell.line, cell.col) for d in m.groups() if d is not None]


def _cross(cell: _Cell) -> object:
    return cell.field()[0] if cell.value else None


def _move(cell: _Cell) -> object:
    word = cell.value.lower()
    if word in ("", "none", "-"):
        return None
    if word in ("escape", "leave"):
        return word
    if not FIELD.fullmatch(cell.value):
        cell.fail("a field like 6/6, escape, leave or an empty cell")
    return cell.field()[0]


def _steps(cell: _Cell) -> object:
    return cell.whole("the movement die", "5") if cell.value else None


def _flag(cell: _Cell) -> object:
    word = cell.value.lower()
    if word in _YES:
        return True
    if word not in _NO:
        cell.fail("yes, true, 1 or an empty cell")
    return None


def _path(cell: _Cell) -> object:
    if not cell.value:
        return None
    if cell.value.lower() == "none":
        return []
    fields: list[str] = []
    pos = 0
    while pos < len(cell.value):
        if fields:
            sep = _PATH_SEP.match(cell.value, pos)
            pos = sep.end() if sep else pos
        cell.parts.append(cell.col + pos)
        value, pos = cell.field(pos, whole=False)
        fields.append(value)
    return fields


_READERS: dict[str, Callable[[_Cell], object]] = {
    "roll": _roll,
    "dice": _dice,
    "cross": _cross,
    "move": _move,
    "steps": _steps,
    "reroll": _flag,
    "ring": _flag,
    "path": _path,
}


def dump(record: Record) -> str:
    """The record as CSV: header lines, the column row, one row per round."""
    columns = ["roll", "dice", "cross", "move", "steps", "reroll"]
    if any(r.ring for r in record.rounds):
        columns.append("ring")
    if any(r.path is not None for r in record.rounds):
        columns.append("path")
    lines = [
        "# Road to 300 record (CSV), one row per round",
        *(f"# {line}" for line in header_lines(record)),
        ",".join(columns),
    ]
    for r in record.rounds:
        cells = _cells(r)
        lines.append(",".join(cells[c] for c in columns))
    return "\n".join(lines) + "\n"


def _cells(r: RecordRound) -> dict[str, str]:
    if r.move is not None and r.exit is not None:
        raise ValueError(f"round {r.number} has both a move and an exit")
    path = "" if r.path is None else " ".join(str(p) for p in r.path) or "none"
    return {
        "roll": "" if r.roll is None else str(r.roll),
        "dice": "" if r.dice is None else " ".join(str(d) for d in r.dice),
        "cross": "" if r.cross is None else str(r.cross),
        "move": r.exit or ("" if r.move is None else str(r.move)),
        "steps": "" if r.steps is None else str(r.steps),
        "reroll": "yes" if r.reroll else "",
        "ring": "yes" if r.ring else "",
        "path": path,
    }
