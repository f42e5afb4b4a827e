"""A game typed as a table inside a text record or a mail: Markdown pipes, tabs or
semicolons, under a row that names the columns in any language (`| Wurf | Würfel | Kreuz |
Ziel | Schritte |`). The header row's order decides what each column holds; the cells are
read as CSV cells are (`csv_record.read_row`)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from validator.records.csv_record import MAX_CELLS, column_of, die_columns, read_row
from validator.records.header import spaces_end
from validator.records.lexing import DICE, FIELD, normal
from validator.records.vocabulary import IGNORED, union

_REROLL_OR_RING = union("reroll") | {"ring"}

DELIMITERS = ("|", "\t", ";")
MAX_LINE = 4000
"""A column row is looked for in a line's first characters only (a row names 8 columns)."""


def is_separator(line: str) -> bool:
    """Markdown's line under the column row: `|---|:--:|---|`."""
    return "-" in line and not line.strip(" \t|-:")


def cells_line(line: str, delimiter: str) -> str:
    """A Markdown row with its outer pipes blanked (columns stay where they are)."""
    if delimiter != "|":
        return line
    start = spaces_end(line, 0)
    if line.startswith("|", start):
        line = f"{line[:start]} {line[start + 1 :]}"
    end = len(line.rstrip(" \t"))
    if end > start + 1 and line[end - 1] == "|":
        line = f"{line[: end - 1]} {line[end:]}"
    return line


@dataclass(frozen=True, slots=True)
class Table:
    """The columns a table's header row named, and how its cells are separated."""

    delimiter: str
    columns: tuple[str, ...]
    line: int
    """The header row's line."""
    dice_at: int | None = None
    """The first of three die columns (`Die 1 | Die 2 | Die 3`) read as the dice."""
    labels: tuple[str, ...] = ()
    """The header row's own names (`Kreuz`), which messages use."""

    def holds(self, line: str) -> bool:
        """Whether a line is one of this table's rows (or its Markdown separator)."""
        return self.delimiter in line

    def row(
        self, line: str, lineno: int, source: str
    ) -> tuple[dict[str, object], dict[tuple[str | int, ...], int]] | None:
        """A row's round and where each value stands; None for a separator or empty row.
        Raises ReadError."""
        if self.delimiter == "|" and is_separator(line):
            return None
        line = cells_line(line, self.delimiter)
        return read_row(
            line,
            self.delimiter,
            list(self.columns),
            self.line,
            lineno,
            source,
            self.dice_at,
            labels=self.labels,
        )


_WORD_COLUMNS: dict[str, str] = {
    word: key
    for key, kinds in (
        ("cross", ("cross", "cross_after")),
        ("move", ("move", "move_after")),
        ("steps", ("steps",)),
        ("path", ("path",)),
        ("reroll", ("reroll",)),
    )
    for kind in kinds
    for word in union(kind)
}
"""A record's words that also name a column (`Zug`, `Durchgestrichen`, `Gezogen`), after
the column names themselves."""
_MOVE_WORDS = union("move") | union("move_after")


def _key(cell: str) -> str | None:
    """The record key a column row's cell names: a column name, else a word of the record
    that means one (`Gezogen` -> move)."""
    return column_of(cell, table=True) or _WORD_COLUMNS.get(normal(cell).rstrip(".: "))


@dataclass(frozen=True, slots=True)
class Unknown:
    """A cell of a column row that names no column: its text, number and column."""

    name: str
    number: int
    col: int


def header_row(line: str, lineno: int) -> tuple[Table, tuple[Unknown, ...]] | None:
    """The table a line starts when its cells name columns, with the cells that name none
    (read as IGNORED); None when the line is no column row."""
    head = line[:MAX_LINE]
    for delimiter in DELIMITERS:
        if delimiter in head and (found := _header_cells(head, delimiter, lineno)) is not None:
            return found
    return None


def _header_cells(
    head: str, delimiter: str, lineno: int
) -> tuple[Table, tuple[Unknown, ...]] | None:
    """The table a line's cells between `delimiter`s name, or None."""
    blanked = cells_line(head, delimiter)
    cells = [c.strip(" \t") for c in blanked.split(delimiter, MAX_CELLS)]
    starts = list(_starts(blanked, delimiter, len(cells)))
    while cells and not cells[-1]:
        cells.pop()
    dice_at = die_columns(cells)
    if dice_at is not None:
        cells[dice_at : dice_at + 3] = ["dice"]
        del starts[dice_at + 1 : dice_at + 3]
    keys = _keys(cells)
    kept = [k for k in keys if k is not None and k != IGNORED]
    unknown = [i for i, k in enumerate(keys) if k is None]
    if not 2 <= len(cells) <= MAX_CELLS or len(kept) != len(set(kept)) or len(kept) < 2:
        return None
    if unknown and not (len(unknown) < len(kept) and all(_is_name(cells[i]) for i in unknown)):
        return None
    named = tuple(IGNORED if k is None else k for k in keys)
    found = tuple(
        Unknown(
            cells[i],
            i + 1 + (2 if dice_at is not None and i > dice_at else 0),
            spaces_end(blanked, starts[i]) + 1,
        )
        for i in unknown
    )
    return Table(delimiter, named, lineno, dice_at, tuple(cells)), found


def _keys(cells: list[str]) -> list[str | None]:
    """The record key each cell of a column row names, or None."""
    keys = [_key(c) for c in cells]
    if "dice" not in keys and keys.count("roll") == 2:
        # `| # | Roll | ... |`: the number, then the dice rolled
        keys[len(keys) - 1 - keys[::-1].index("roll")] = "dice"
    if keys.count("roll") == 2 and "move" not in keys:
        # `Wurf | Würfel | Kreuz | Zug`: beside a roll column, `Zug` is the move
        for i, cell in enumerate(cells):
            if keys[i] == "roll" and normal(cell).rstrip(".: ") in _MOVE_WORDS:
                keys[i] = "move"
                break
    return keys


def _starts(line: str, delimiter: str, count: int) -> list[int]:
    """Where each of a row's first `count` cells starts."""
    starts = [0]
    at = line.find(delimiter)
    while at >= 0 and len(starts) < count:
        starts.append(at + 1)
        at = line.find(delimiter, at + 1)
    return starts


def _is_name(cell: str) -> bool:
    """Whether an unknown cell may be a column's name: words, not a value (`Bonus`, not
    `1/4`, `1 4 6` or an empty cell)."""
    return bool(cell) and not any(ch.isdigit() for ch in cell)


def column_row(line: str, lineno: int) -> Table | None:
    """The table a line starts when each of its cells names a column, else None."""
    found = header_row(line, lineno)
    return found[0] if found is not None and not found[1] else None


DEFAULT_COLUMNS = ("roll", "dice", "cross", "move", "steps", "path")
"""What a table's columns hold when it has no column row: the order the issue's players
wrote (`| 1 | 1 4 6 | 6/4 | 1/1 | 1 |`, a spreadsheet's `1<TAB>1 4 6<TAB>6/4 ...`)."""
_ROLL_CELL = re.compile(r"[0-9]{1,6}")


def headless_row(line: str, lineno: int) -> Table | None:
    """The table a row starts that has no column row above it: a Markdown row (or a row of
    tab-separated cells) of a roll number, three dice and a field, in the default order."""
    head = line[:MAX_LINE]
    for delimiter in ("|", "\t"):
        if delimiter not in head or (delimiter == "|" and not head.lstrip().startswith("|")):
            continue
        cells = [c.strip(" \t") for c in cells_line(head, delimiter).split(delimiter, MAX_CELLS)]
        while cells and not cells[-1]:
            cells.pop()
        if (
            3 <= len(cells) <= len(DEFAULT_COLUMNS)
            and _ROLL_CELL.fullmatch(cells[0])
            and DICE.fullmatch(cells[1])
            and (FIELD.fullmatch(cells[2]) or normal(cells[2]) in _REROLL_OR_RING)
        ):
            return Table(delimiter, DEFAULT_COLUMNS[: len(cells)], lineno)
    return None


def is_pipe_table(text: str) -> bool:
    """Whether a text holds a Markdown table that names a record's columns."""
    for n, line in enumerate(text.split("\n", 200)[:200]):
        if line.lstrip().startswith("|") and column_row(line, n + 1) is not None:
            return True
    return False
