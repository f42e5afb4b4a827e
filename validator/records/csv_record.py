"""The CSV record: `# key: value` header lines, a row naming the columns, then one row per round."""

from __future__ import annotations

import difflib
import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import NoReturn

from validator.engine import roll_text
from validator.engine.phrase import N_, Text, phrase, plural
from validator.errors import Diagnostic, ReadError
from validator.records.header import Header, build, fail, header_lines, key_of, spaces_end
from validator.records.lexing import (
    DICE,
    FIELD,
    NO,
    YES,
    LexError,
    field_text,
    is_none,
    lex_path,
    normal,
    number,
    short,
    split_lines,
)
from validator.records.model import MAX_DIAGNOSTICS, Locations
from validator.records.record import Record, RecordRound
from validator.records.vocabulary import DIE_COLUMNS, IGNORED, column_names, union

COLUMNS = ("roll", "dice", "cross", "move", "steps", "reroll", "path", "ring")
COLUMN_NAMES: dict[str, str] = {**column_names(), **{c: c for c in COLUMNS}}
"""A column's name in any language (folded) -> the record key it holds (`Würfel` -> dice)."""


_TABLE_NAMES: dict[str, str] = {**column_names(ignored=True), **{c: c for c in COLUMNS}}


def column_of(name: str, *, table: bool = False) -> str | None:
    """The record key a column row's cell names (`Kreuz`, `Nr.`, `Dés :`), or None; in a
    typed `table`, also IGNORED for a column like `Points` or `Notes`."""
    names = _TABLE_NAMES if table else COLUMN_NAMES
    folded = normal(name)
    return names.get(folded) or names.get(folded.rstrip(".: "))


META_LINE = re.compile(r"[ \t]*#(?!#)[ \t]*(?P<key>[^\W\d_][\w-]*)[ \t]*:(?P<rest>.*)\Z")
"""`# key: value`; a line starting `##` is always a comment."""

_SEP_LINE = re.compile(r"[ \t]*\"?sep=(?P<sep>.)\"?[ \t,;]*\Z", re.IGNORECASE)
"""Excel's first line naming the delimiter: `sep=;`."""

_DIGITS = re.compile(r"\d+", re.ASCII)
_WITH_UNIT = re.compile(r"([0-9]+)[ \t]*([^\W\d_]+)")
_STEP_UNITS = union("steps")
_REROLLS = union("reroll")
_DIE_FACES = frozenset("123456")

MAX_CELLS = 64
"""More cells than this in a row are refused as they are split (spreadsheets pad rows
with a few empty cells; nothing pads to thousands)."""

Cell = tuple[str, int]
"""A cell's text (stripped, unquoted) and the column where it stands."""


_DIE_COLUMN = re.compile(r"(?P<word>[^\W\d_]+) ?(?P<n>[1-3])")


def die_columns(names: list[str]) -> int | None:
    """Where three column names name the three dice, one each, in order (`Die 1`, `Die
    2`, `Die 3`; `Würfel 1`, `Dé 1`, `d1`), or None: the three columns are read as one
    cell of dice."""
    numbers = []
    for name in names:
        die = _DIE_COLUMN.fullmatch(normal(name).rstrip(".: "))
        numbers.append(int(die["n"]) if die and die["word"] in DIE_COLUMNS else 0)
    for i in range(len(numbers) - 2):
        if numbers[i : i + 3] == [1, 2, 3]:
            return i
    return None


def parse(text: str, source: str, max_rounds: int | None = None) -> Record:
    """Read a CSV record; raises ReadError with every problem found. With `max_rounds`,
    reading stops after that many rounds."""
    header = Header(source)
    columns: list[str] | None = None
    labels: list[str] = []
    """The column row's own names (`Kreuz`), for messages."""
    dice_at: int | None = None
    columns_line = 0
    delimiter: str | None = None
    rounds: list[dict[str, object]] = []
    locations: Locations = {}
    problems: list[Diagnostic] = []
    numbers: list[int] = []
    """Each round's place among the data rows, counting rows that failed."""
    failed_rows = 0
    for lineno, line in enumerate(split_lines(text.removeprefix("\ufeff")), start=1):
        if not line.strip(" \t"):
            continue
        if len(problems) > MAX_DIAGNOSTICS:
            break
        if lineno == 1 and (sep := _SEP_LINE.match(line)):
            delimiter = sep["sep"]
            continue
        try:
            if line.lstrip(" \t").startswith("#"):
                _meta(header, line, lineno, columns_line if columns else None, source)
                continue
            if columns is None and _key_cell_line(header, line, lineno):
                continue
            if columns is None:
                delimiter = delimiter or _delimiter(line)
                columns_line = lineno
                cells = _split(line, delimiter, lineno, source)
                dice_at = die_columns([value for value, _ in cells])
                labels = [value for value, _ in _merged(cells, dice_at)]
                columns = _columns(_merged(cells, dice_at), lineno, source)
                continue
            assert delimiter is not None
            if not line.strip(" \t" + delimiter):
                continue  # spreadsheets export empty rows as a line of delimiters
            if max_rounds is not None and len(rounds) >= max_rounds:
                break  # the rest is not read: the replay judges what was
            entry = read_row(
                line, delimiter, columns, columns_line, lineno, source, dice_at, labels=labels
            )
        except ReadError as exc:
            problems.extend(exc.diagnostics)
            failed_rows += columns is not None and lineno != columns_line
            if columns is None and columns_line:
                columns = []  # a broken column row: its data rows cannot be read
            continue
        if entry is None:
            continue
        data, where = entry
        index = len(rounds)
        locations[("rounds", index)] = (lineno, spaces_end(line, 0) + 1)
        for path, col in where.items():
            locations[("rounds", index, *path)] = (lineno, col)
        rounds.append(data)
        numbers.append(len(rounds) + failed_rows)
    if columns is None and not problems:
        code, message = (
            ("E004", phrase(N_("no row names the columns")))
            if header.values
            else ("E007", phrase(N_("the file holds no record")))
        )
        hint = phrase(
            N_(
                "after the # key: value lines, a row naming the columns like "
                "roll,dice,cross,move,steps,reroll, then one row per round"
            )
        )
        fail(code, message, source, 1, 1, hint=hint)
    if not rounds and not header.values and not problems:
        hint = phrase(N_("one row per round, like 7,3 4 6,3/4,5/5,6,"))
        message = phrase(N_("the file holds no record: no row after the column names"))
        fail("E007", message, source, columns_line, 1, hint=hint)
    return build(header, rounds, locations, "csv", problems, numbers)


_KEY_CELLS = re.compile(r"[ \t]*(?P<key>[^;,\t\"]+?)[ \t]*[;,\t][ \t]*(?P<rest>[^;,\t]+)")
"""A spreadsheet's line of two cells above the column row: `Joueuse;Léa`, `Total,335`."""


def _key_cell_line(header: Header, line: str, lineno: int) -> bool:
    """Read `line` as a header line when its first cell names a header key in any of the
    languages (a player, a claimed total) and not a column, and one more cell follows: a
    name line a spreadsheet keeps above the column row."""
    cells = _KEY_CELLS.fullmatch(line.rstrip(" \t;,"))
    if cells is None or key_of(cells["key"]) is None or column_of(cells["key"]) is not None:
        return False
    header.read(header.key(cells, lineno), cells, lineno)
    return True


def _meta(header: Header, line: str, lineno: int, columns_line: int | None, source: str) -> None:
    meta = META_LINE.match(line)
    if meta is None:
        return
    if columns_line is None:
        header.read(header.key(meta, lineno, fix="# {key}: {value}"), meta, lineno)
    elif key_of(meta["key"]) is not None:
        message = phrase(
            N_("header line {key} after the row naming the columns (line {line})"),
            key=meta["key"],
            line=columns_line,
        )
        hint = phrase(N_("# key: value lines come before the row naming the columns"))
        fail("E002", message, source, lineno, meta.start("key") + 1, hint=hint)


def _merged(cells: list[Cell], dice_at: int | None) -> list[Cell]:
    """A row with its three die cells (from `dice_at`) made one cell of dice, at the first
    one's column (`1,4,6` -> `1 4 6`); the column row's names made `dice`."""
    if dice_at is None or len(cells) < dice_at + 3:
        return cells
    three = cells[dice_at : dice_at + 3]
    values = [value for value, _ in three]
    dice = "dice" if die_columns(values) == 0 else " ".join(v for v in values if v)
    return [*cells[:dice_at], (dice, three[0][1]), *cells[dice_at + 3 :]]


def read_row(
    line: str,
    delimiter: str,
    columns: list[str],
    columns_line: int,
    lineno: int,
    source: str,
    dice_at: int | None = None,
    *,
    labels: Sequence[str] = (),
) -> tuple[dict[str, object], dict[tuple[str | int, ...], int]] | None:
    """One data row's values and where each stands; None for a row of empty cells. With
    `dice_at`, the row's three die cells from there are read as the dice; `labels` are
    the columns' names as the column row wrote them (`Kreuz`), which messages use."""
    cells = _merged(_split(line, delimiter, lineno, source), dice_at)
    if all(not value for value, _ in cells):
        return None  # spreadsheets export empty rows as a line of delimiters
    while len(cells) > len(columns) and not cells[-1][0]:
        cells.pop()  # trailing empty cells, as spreadsheets pad rows
    if len(cells) != len(columns):
        col = cells[len(columns)][1] if len(cells) > len(columns) else len(line) + 1
        hint: Text = ""
        if len(cells) > len(columns) and delimiter == ",":
            hint = _split_field_hint(cells, columns)
        if not columns:
            return None
        message = phrase(
            N_("this row has {cells}, the header row (line {line}) names {n} columns: {columns}"),
            cells=_cells_text(len(cells)),
            line=columns_line,
            n=len(columns),
            columns=", ".join(columns),
        )
        fail("E002", message, source, lineno, col, hint=hint)
    data: dict[str, object] = {}
    where: dict[tuple[str | int, ...], int] = {}
    problems: list[Diagnostic] = []
    for k, (name, (value, col)) in enumerate(zip(columns, cells, strict=True)):
        word = normal(value) if name in ("cross", "move") else ""
        kind = "reroll" if word in _REROLLS else "ring" if word == "ring" else None
        if kind is not None and kind not in columns:
            data[kind] = True  # `| 10 | 6 6 6 | reroll | | |`, `| 5 | 3 1 5 | ring | | |`
            where[(kind,)] = col
            cells[k] = ("", col)
    for number_, (name, (value, col)) in enumerate(zip(columns, cells, strict=True), 1):
        label = labels[number_ - 1] if number_ <= len(labels) and labels[number_ - 1] else name
        cell = _Cell(label, number_, value, lineno, col, source)
        try:
            parsed = _READERS[name](cell)
        except ReadError as exc:
            problems.extend(exc.diagnostics)
            continue
        if parsed is None:
            continue
        data[name] = parsed
        where[(name,)] = col
        for i, at in enumerate(cell.parts):
            where[(name, i)] = at
    if problems:
        raise ReadError(*problems)
    return data, where


def _split_field_hint(cells: list[Cell], columns: list[str]) -> Text:
    """A field written `3,5` in a comma-separated file splits into two cells: say so,
    preferring a pair that starts at a field's column."""
    pairs = [(i, a, b) for i, ((a, _), (b, _)) in enumerate(itertools.pairwise(cells))]
    digits = [(i, a, b) for i, a, b in pairs if a in _DIE_FACES and b in _DIE_FACES]
    at_field = [p for p in digits if p[0] < len(columns) and columns[p[0]] in ("cross", "move")]
    for _, a, b in at_field or digits:
        return phrase(N_('write the field {a},{b} as {a}/{b} (or quote it: "{a},{b}")'), a=a, b=b)
    return ""


def _cells_text(count: int) -> Text:
    return plural(count, "{n} cell", "{n} cells")


def _delimiter(line: str) -> str:
    """The header row decides: comma, else semicolon, else tab (one column: comma)."""
    for candidate in (",", ";", "\t"):
        if candidate in line:
            return candidate
    return ","


_QUOTED = re.compile(r'"([^"]*+(?:""[^"]*+)*+)"')
"""A quoted cell, `""` inside for a quote (possessive: a quote is never given back)."""


def _split(line: str, delimiter: str, lineno: int, source: str) -> list[Cell]:
    """A line's cells; a cell may be quoted with "..." ("" inside for a quote)."""
    cells: list[Cell] = []
    i = 0
    while True:
        start = i
        while start < len(line) and line[start] in " \t" and line[start] != delimiter:
            start += 1
        if line.startswith('"', start):
            quoted = _QUOTED.match(line, start)
            if quoted is None:
                message = phrase(N_("a quoted cell is not closed"))
                hint = phrase(N_('close it with "; a quote inside is written ""'))
                fail("E002", message, source, lineno, start + 1, hint=hint)
            end = quoted.end()
            while end < len(line) and line[end] in " \t" and line[end] != delimiter:
                end += 1
            if end < len(line) and line[end] != delimiter:
                message = phrase(
                    N_("expected {delimiter} after the quoted cell, found {found}"),
                    delimiter=_name(delimiter),
                    found=short(line[end]),
                )
                fail("E002", message, source, lineno, end + 1)
            content = quoted[1].replace('""', '"')
            lead = len(content) - len(content.lstrip(" \t"))
            cells.append((content.strip(" \t"), start + 2 + lead))
        else:
            end = line.find(delimiter, i)
            if end < 0:
                end = len(line)
            cells.append((line[i:end].strip(" \t"), min(start, end) + 1))
        if end >= len(line):
            return cells
        if len(cells) >= MAX_CELLS:
            message = phrase(N_("a row of more than {n} cells"), n=MAX_CELLS)
            hint = phrase(
                N_("a record has at most 8 columns: {columns}"), columns=", ".join(COLUMNS)
            )
            fail("E002", message, source, lineno, end + 2, hint=hint)
        i = end + 1


def _name(delimiter: str) -> Text:
    return {
        ",": phrase(N_("a comma")),
        ";": phrase(N_("a semicolon")),
        "\t": phrase(N_("a tab")),
        "|": phrase(N_("a vertical bar")),
    }[delimiter]


def _columns(cells: list[Cell], lineno: int, source: str) -> list[str]:
    names: list[str] = []
    while len(cells) > 1 and not cells[-1][0]:
        cells = cells[:-1]  # spreadsheets write empty trailing header columns
    for number_, (value, col) in enumerate(cells, 1):
        name = column_of(value) or normal(value)
        if not name:
            message = phrase(N_("column {n} of the header row has no name"), n=number_)
            hint = phrase(N_("known columns: {columns}"), columns=", ".join(COLUMNS))
            fail("E002", message, source, lineno, col, hint=hint)
        if name not in COLUMNS:
            close = difflib.get_close_matches(name, COLUMNS, n=1)
            known = phrase(N_("known columns: {columns}"), columns=", ".join(COLUMNS))
            if close:
                message = phrase(
                    N_("unknown column {name} (column {n}): did you mean {close}?"),
                    name=short(value),
                    n=number_,
                    close=short(close[0]),
                )
                hint = phrase(N_("write {name}   ({known})"), name=close[0], known=known)
            else:
                message = phrase(
                    N_("unknown column {name} (column {n})"), name=short(value), n=number_
                )
                hint = phrase(
                    N_("the first row that is not a # line names the columns; {known}"),
                    known=known,
                )
            fail("E003", message, source, lineno, col, hint=hint)
        if name in names:
            message = phrase(
                N_("column {name} is named twice (columns {first} and {n})"),
                name=name,
                first=names.index(name) + 1,
                n=number_,
            )
            fail("E002", message, source, lineno, col)
        names.append(name)
    return names


@dataclass(slots=True)
class _Cell:
    """One data cell being read: its column name, text and place, for messages."""

    name: str
    number: int
    value: str
    line: int
    col: int
    source: str
    parts: list[int] = field(default_factory=list)
    """Columns of the entries of a list value (path), for their locations."""

    def fail(
        self, expected: Text, offset: int = 0, code: str = "E002", hint: Text = ""
    ) -> NoReturn:
        rest = self.value[offset:]
        message = (
            phrase(
                N_("{found} in column {name} (cell {n}) does not read as {expected}"),
                name=short(self.name),
                n=self.number,
                expected=expected,
                found=short(rest),
            )
            if rest
            else phrase(
                N_("column {name} (cell {n}) stops short: it needs {expected}"),
                name=short(self.name),
                n=self.number,
                expected=expected,
            )
        )
        fail(code, message, self.source, self.line, self.col + offset, hint=hint)

    def to_int(self, text: str, what: Text) -> int:
        try:
            return number(text, what)
        except LexError as exc:
            fail(exc.code, exc.said, self.source, self.line, self.col)

    def whole(self, what: Text, example: str) -> int:
        if not _DIGITS.fullmatch(self.value):
            self.fail(
                phrase(N_("{what} as a whole number, like {example}"), what=what, example=example)
            )
        return self.to_int(self.value, what)

    def field(self) -> str:
        m = FIELD.fullmatch(self.value)
        if m is None:
            self.fail(phrase(N_("a field like 3/4")))
        try:
            return field_text(m)
        except LexError as exc:
            fail(exc.code, exc.said, self.source, self.line, self.col)


def _roll(cell: _Cell) -> object:
    return cell.whole(phrase(N_("the dice row number")), "7") if cell.value else None


def _dice(cell: _Cell) -> object:
    if not cell.value:
        return None
    m = DICE.fullmatch(cell.value)
    if m is None:
        cell.fail(phrase(N_("three dice like 2 4 5")))
    return [cell.to_int(d, phrase(N_("die"))) for d in m.groups() if d is not None]


def _cross(cell: _Cell) -> object:
    return cell.field() if cell.value else None


def _move(cell: _Cell) -> object:
    word = normal(cell.value)
    if not word or is_none(word):
        return None
    if word in ("escape", "leave"):
        return word
    if not FIELD.fullmatch(cell.value):
        cell.fail(phrase(N_("a field like 6/6, escape, leave or an empty cell")))
    return cell.field()


def _steps(cell: _Cell) -> object:
    unit = _WITH_UNIT.fullmatch(cell.value)
    if unit is not None and normal(unit[2]) in _STEP_UNITS:
        cell.value = unit[1]  # `1 step`, `1 Schritt`, `1 case`
    return cell.whole(phrase(N_("the movement die")), "5") if cell.value else None


def _flag(cell: _Cell) -> object:
    word = normal(cell.value)
    if word in YES:
        return True
    if word not in NO:
        cell.fail(phrase(N_("yes, true, 1 or an empty cell")))
    return None


def _path(cell: _Cell) -> object:
    if not cell.value:
        return None
    try:
        fields = lex_path(cell.value)
    except LexError as exc:
        cell.fail(phrase(N_("fields like 6/5 5/5")), exc.offset, code=exc.code)
    pos = 0
    for _ in fields:
        m = FIELD.search(cell.value, pos)
        assert m is not None
        cell.parts.append(cell.col + m.start())
        pos = m.end()
    return fields


_READERS: dict[str, Callable[[_Cell], object]] = {
    IGNORED: lambda cell: None,
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
        "dice": "" if r.dice is None else roll_text(r.dice),
        "cross": "" if r.cross is None else str(r.cross),
        "move": r.exit or ("" if r.move is None else str(r.move)),
        "steps": "" if r.steps is None else str(r.steps),
        "reroll": "yes" if r.reroll else "",
        "ring": "yes" if r.ring else "",
        "path": path,
    }
