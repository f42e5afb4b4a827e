"""The annotated dice file record: each dice row with the field crossed out and the field moved to.

Also holds the `key: value` header lines and the field syntax that the CSV form shares.
"""

from __future__ import annotations

import json
import re
from typing import NoReturn

from validator.errors import Diagnostic, ReadError
from validator.readers.model import HEADER_KEYS, Locations, build_record
from validator.record import Record, RecordRound

MAX_DIGITS = 18
"""Numbers longer than this are refused as out of range before int() sees them: every
limit in a record is far smaller, and int() of a huge digit string is slow or refused."""

INT_KEYS = frozenset({"claimed_score", "rings"})

FIELD = re.compile(
    r"(?:room[ \t]*)?"
    r"(?:(?P<open>[(\[])?[ \t]*(?P<row>\d+)[ \t]*[/,][ \t]*(?P<col>\d+)[ \t]*(?(open)[)\]])"
    r"|(?P<r>\d)(?P<c>\d)(?!\d))",
    re.ASCII | re.IGNORECASE,
)
"""A field: `3/4`, `3,4`, `(3, 4)`, `[3/4]`, `34`, optionally after the word `room`."""

HEADER_LINE = re.compile(r"[ \t]*(?P<key>[A-Za-z][A-Za-z0-9_-]*)[ \t]*:(?P<rest>.*)\Z", re.ASCII)

EXAMPLE = "7: 3 4 6   x 3/4 -> 5/5 (6)"

Where = dict[tuple[str | int, ...], int]
"""Data path inside one round -> column."""

_ROW = re.compile(r"(\d+)[ \t]*[:.)]", re.ASCII)
_DIE = re.compile(r"\d+", re.ASCII)
_DIE_SEP = re.compile(r"[ \t]*[,;][ \t]*|[ \t]+")
_SPACE = re.compile(r"[ \t]*")
_ITEM_SEP = re.compile(r"[ \t,;|]*")
_PATH_SEP = re.compile(r"[ \t,;]*")
_END = r"(?![A-Za-z])"
_REROLL = re.compile(rf"(?:re-?roll|pass){_END}", re.ASCII | re.IGNORECASE)
_RING = re.compile(rf"ring{_END}", re.ASCII | re.IGNORECASE)
_CROSS = re.compile(rf"(?:(?:cross(?:ed)?|x){_END}|\u00d7)[ \t]*:?[ \t]*", re.ASCII | re.IGNORECASE)
_MOVE = re.compile(rf"(?:->|=>|→|>|(?:move[ds]?|to){_END})[ \t]*:?[ \t]*", re.ASCII | re.IGNORECASE)
_EXIT = re.compile(rf"(escape|leave){_END}", re.ASCII | re.IGNORECASE)
_NONE = re.compile(rf"none{_END}", re.ASCII | re.IGNORECASE)
_STEPS = re.compile(
    rf"\([ \t]*(?P<a>\d+)[ \t]*\)"
    rf"|(?:in[ \t]+)?(?P<b>\d+)[ \t]*steps?{_END}"
    rf"|steps?{_END}[ \t]*[:=]?[ \t]*(?P<c>\d+)",
    re.ASCII | re.IGNORECASE,
)
_PATH = re.compile(rf"path{_END}[ \t]*:?[ \t]*", re.ASCII | re.IGNORECASE)
_WORD = re.compile(r"\S{1,24}")
_COMMENT = re.compile(r"(?<![^ \t])#")


def fail(code: str, message: str, source: str, line: int, col: int, hint: str = "") -> NoReturn:
    raise ReadError(Diagnostic(code, message, source, line, col, hint=hint))


def number(text: str, what: str, source: str, line: int, col: int) -> int:
    """A run of ASCII digits as an int; too many digits is a range error (E005)."""
    digits = text.lstrip("0")
    if len(digits) > MAX_DIGITS:
        fail("E005", f"{what} {_short(text)} is out of range", source, line, col)
    return int(digits or "0")


def field_text(match: re.Match[str], source: str, line: int) -> str:
    """The canonical "row/col" text of a FIELD match; the model checks the range."""
    row, col = (
        number(match[a] or match[b], "field coordinate", source, line, match.start() + 1)
        for a, b in (("row", "r"), ("col", "c"))
    )
    return f"{row}/{col}"


def spaces_end(text: str, pos: int) -> int:
    """The first position at or after pos that is not a space or tab."""
    while pos < len(text) and text[pos] in " \t":
        pos += 1
    return pos


def found(text: str, pos: int) -> str:
    """What stands at pos, for 'expected X, found Y' messages."""
    word = _WORD.match(text, pos) if pos < len(text) else None
    return f"{word.group()!r}" if word else "the end of the line"


class Header:
    """The `key: value` header lines of a record (the CSV form writes them as `# key: value`)."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.values: dict[str, str | int] = {}
        self.locations: Locations = {}

    def key(self, match: re.Match[str], line: int) -> str:
        name = match["key"]
        key = name.lower().replace("-", "_")
        if key not in HEADER_KEYS:
            fail(
                "E003",
                f"unknown header key {name!r}",
                self.source,
                line,
                match.start("key") + 1,
                hint="known keys: " + ", ".join(HEADER_KEYS),
            )
        return key

    def read(self, key: str, match: re.Match[str], line: int) -> None:
        if (key,) in self.locations:
            first = self.locations[(key,)][0]
            fail(
                "E002",
                f"{key} is given twice (first on line {first})",
                self.source,
                line,
                match.start("key") + 1,
            )
        value, col = self._value(key, match.string, match.start("rest"), line)
        if key in INT_KEYS:
            if not re.fullmatch(r"[+-]?\d+", value, re.ASCII):
                fail(
                    "E005",
                    f"{key} must be a whole number, not {_short(value)}",
                    self.source,
                    line,
                    col,
                )
            sign = -1 if value.startswith("-") else 1
            self.values[key] = sign * number(value.lstrip("+-"), key, self.source, line, col)
        else:
            self.values[key] = value
        self.locations[(key,)] = (line, col)

    def _value(self, key: str, text: str, start: int, line: int) -> tuple[str, int]:
        i = spaces_end(text, start)
        if text.startswith('"', i):
            try:
                value, end = json.JSONDecoder().raw_decode(text, i)
            except json.JSONDecodeError:
                fail(
                    "E002",
                    f"the quoted value of {key} is broken or not closed",
                    self.source,
                    line,
                    i + 1,
                    hint='write it as "text", with \\" for a quote inside',
                )
            rest = spaces_end(text, end)
            if rest < len(text) and text[rest] != "#":
                fail(
                    "E002",
                    f"expected the end of the line after the quoted value of {key}, "
                    f"found {found(text, rest)}",
                    self.source,
                    line,
                    rest + 1,
                )
            if not isinstance(value, str) or any("\ud800" <= ch <= "\udfff" for ch in value):
                fail("E005", f"{key} is not valid text", self.source, line, i + 1)
            return value, i + 1
        comment = _COMMENT.search(text, i)
        value = text[i : comment.start() if comment else len(text)].rstrip()
        if not value:
            fail(
                "E004",
                f"{key} has no value",
                self.source,
                line,
                i + 1,
                hint=f'write it as "{key}: value" (quote a value that holds #)',
            )
        return value, i + 1


def quote(value: str) -> str:
    """A header value as written: plain when it reads back unchanged, else a JSON string."""
    plain = (
        value
        and value == value.strip()
        and value.isprintable()
        and "#" not in value
        and not value.startswith('"')
    )
    return value if plain else json.dumps(value, ensure_ascii=False)


def header_lines(record: Record) -> list[str]:
    """The record's header as `key: value` lines (fields are always written row/column)."""
    lines: list[str] = []
    for key in HEADER_KEYS:
        value = getattr(record, key)
        if key == "coordinates" or value is None or (key == "rings" and value == 0):
            continue
        lines.append(f"{key}: {quote(value) if isinstance(value, str) else value}")
    return lines


def parse(text: str, source: str) -> Record:
    """Read an annotated dice file record; raises ReadError."""
    header = Header(source)
    rounds: list[dict[str, object]] = []
    locations: Locations = {}
    row = 0
    first_dice_line: int | None = None
    for lineno, raw in enumerate(text.removeprefix("\ufeff").split("\n"), start=1):
        line = raw.removesuffix("\r")
        stripped = line.lstrip(" \t")
        if not stripped or stripped.startswith("#"):
            continue
        if stripped[0] in "0123456789":
            first_dice_line = first_dice_line or lineno
            row, entry = _RollLine(line.split("#", 1)[0], lineno, source).parse(row)
            if entry is not None:
                data, where = entry
                index = len(rounds)
                rounds.append(data)
                for path, col in where.items():
                    locations[("rounds", index, *path)] = (lineno, col)
            continue
        match = HEADER_LINE.match(line)
        if match is None:
            _not_a_line(line, lineno, source)
        key = header.key(match, lineno)
        if first_dice_line is not None:
            fail(
                "E002",
                f"header line {key} after the first dice line (line {first_dice_line})",
                source,
                lineno,
                match.start("key") + 1,
                hint="header lines like player: ... come before the dice lines",
            )
        header.read(key, match, lineno)
    if not rounds and not header.values:
        fail(
            "E007",
            "the file holds no record: no dice line is annotated",
            source,
            first_dice_line or 1,
            1,
            hint=f"annotate the rows you played, like {EXAMPLE}",
        )
    locations.update(header.locations)
    locations[()] = (1, 1)
    if rounds:
        locations[("rounds",)] = locations[("rounds", 0)]
    return build_record({**header.values, "rounds": rounds}, locations, source, "text")


def _not_a_line(line: str, lineno: int, source: str) -> NoReturn:
    start = spaces_end(line, 0)
    hint = f"a dice line is like {EXAMPLE}; a header line like player: Alice"
    if _CROSS.match(line, start) or _REROLL.match(line, start) or _RING.match(line, start):
        hint = f"an annotation follows the row's dice on the same line, like {EXAMPLE}"
    fail(
        "E002",
        f"expected a dice line or a header line (key: value), found {found(line, start)}",
        source,
        lineno,
        start + 1,
        hint=hint,
    )


class _RollLine:
    """One dice line: `[row:] d d d [annotation]`, with the comment already cut off."""

    def __init__(self, text: str, line: int, source: str) -> None:
        self.text = text
        self.line = line
        self.source = source
        self.pos = 0

    def fail(self, message: str, pos: int | None = None, hint: str = "") -> NoReturn:
        fail("E002", message, self.source, self.line, (self.pos if pos is None else pos) + 1, hint)

    def match(self, pattern: re.Pattern[str]) -> re.Match[str] | None:
        m = pattern.match(self.text, self.pos)
        if m is not None:
            self.pos = m.end()
        return m

    def skip(self, pattern: re.Pattern[str]) -> None:
        self.match(pattern)

    def number(self, m: re.Match[str], group: int | str, what: str) -> int:
        return number(m[group], what, self.source, self.line, m.start(group) + 1)

    def parse(self, previous: int) -> tuple[int, tuple[dict[str, object], Where] | None]:
        """The row number and, for an annotated line, the round's data and columns."""
        self.skip(_SPACE)
        start = self.pos
        numbered = self.match(_ROW)
        if numbered is None:
            row = previous + 1
        else:
            row = self.number(numbered, 1, "row number")
            if row <= previous:
                self.fail(
                    f"row number {row} after row {previous}: rows count up"
                    if previous
                    else "row numbers start at 1",
                    numbered.start(1),
                    hint=f"give this line row number {previous + 1} or more, or none",
                )
        self.skip(_SPACE)
        dice, dice_cols = self._dice(numbered is not None)
        where: Where = {(): start + 1, ("roll",): start + 1, ("dice",): dice_cols[0]}
        for i, col in enumerate(dice_cols):
            where[("dice", i)] = col
        data: dict[str, object] = {"roll": row, "dice": dice}
        if not self._annotation(data, where):
            return row, None
        return row, (data, where)

    def _dice(self, numbered: bool) -> tuple[list[int], list[int]]:
        tokens: list[re.Match[str]] = []
        while (m := _DIE.match(self.text, self.pos)) is not None:
            tokens.append(m)
            self.pos = m.end()
            sep = _DIE_SEP.match(self.text, self.pos)
            if sep is None or not _DIE.match(self.text, sep.end()):
                break
            self.pos = sep.end()
        if len(tokens) == 1 and len(tokens[0][0]) == 3:
            m = tokens[0]
            return [int(d) for d in m[0]], [m.start() + 1 + i for i in range(3)]
        if len(tokens) > 3:
            hint = "" if numbered else "a row number needs :, . or ) after it, like 7: 3 4 6"
            self.fail(
                f"expected x 3/4, reroll or ring after the three dice, found {tokens[3][0]!r}",
                tokens[3].start(),
                hint=hint,
            )
        if len(tokens) != 3:
            at = tokens[0].start() if tokens else self.pos
            self.fail(
                f"expected the row's three dice, like 3 4 6 or 346, found {found(self.text, at)}",
                at,
                hint=f"a dice line is like {EXAMPLE}",
            )
        return [self.number(m, 0, "die") for m in tokens], [m.start() + 1 for m in tokens]

    def _annotation(self, data: dict[str, object], where: Where) -> bool:
        """Read the items after the dice into data; False when there are none."""
        kind: str | None = None
        seen: dict[str, int] = {}
        while True:
            self.skip(_ITEM_SEP)
            if self.pos >= len(self.text):
                return kind is not None
            at = self.pos
            if kind is None:
                if self.match(_REROLL):
                    kind = "reroll"
                elif self.match(_RING):
                    kind = "ring"
                elif self.match(_CROSS):
                    kind = "cross"
                    data["cross"] = self._field("the field crossed out, like x 3/4", where, "cross")
                    continue
                else:
                    self.fail(
                        f"expected x 3/4, reroll or ring after the dice, found "
                        f"{found(self.text, at)}",
                        hint=f"a dice line is like {EXAMPLE}",
                    )
                data[kind] = True
                where[(kind,)] = at + 1
                continue
            if kind != "cross":
                self.fail(
                    f"a {kind} line has nothing after {kind}, found {found(self.text, at)}",
                    hint=f"a {kind} uses the row up: no cross, move, steps or path",
                )
            item = self._item(data, where)
            if item in seen:
                self.fail(f"{item} is given twice on this line (first at column {seen[item]})", at)
            seen[item] = at + 1

    def _item(self, data: dict[str, object], where: Where) -> str:
        """One item after the cross; returns its name."""
        at = self.pos
        if self.match(_CROSS) or self.match(_REROLL) or self.match(_RING):
            self.fail("a round crosses out one field, or is a reroll or a ring, not both", at)
        if self.match(_MOVE):
            self._move(data, where, required=True)
            return "move"
        if _EXIT.match(self.text, self.pos):
            self._move(data, where, required=False)
            return "move"
        if steps := self.match(_STEPS):
            group = next(g for g in "abc" if steps[g] is not None)
            data["steps"] = self.number(steps, group, "steps")
            where[("steps",)] = steps.start(group) + 1
            return "steps"
        if self.match(_PATH):
            self._path(data, where)
            return "path"
        self.fail(
            f"expected -> 5/5, steps like (6), path 6/5 5/5 or the end of the line, "
            f"found {found(self.text, at)}",
            hint=f"a dice line is like {EXAMPLE}",
        )

    def _move(self, data: dict[str, object], where: Where, required: bool) -> None:
        at = self.pos
        if exit_kind := self.match(_EXIT):
            data["move"] = exit_kind[1].lower()
        elif self.match(_NONE):
            pass
        elif required:
            data["move"] = self._field(
                "the field moved to (like -> 5/5), escape, leave or none", where, "move"
            )
            return
        where[("move",)] = at + 1

    def _field(self, what: str, where: Where, *path: str | int) -> str:
        m = self.match(FIELD)
        if m is None:
            self.fail(f"expected {what}, found {found(self.text, self.pos)}")
        where[path] = m.start() + 1
        return field_text(m, self.source, self.line)

    def _path(self, data: dict[str, object], where: Where) -> None:
        where[("path",)] = self.pos + 1
        if self.match(_NONE):
            data["path"] = []
            return
        cells = [self._field("the fields entered, like path 6/5 5/5", where, "path", 0)]
        while True:
            back = self.pos
            self.skip(_PATH_SEP)
            if not FIELD.match(self.text, self.pos):
                self.pos = back
                break
            cells.append(self._field("a field", where, "path", len(cells)))
        data["path"] = cells


def dump(record: Record) -> str:
    """The record as an annotated dice file; every round needs its roll and dice."""
    lines = ["# Road to 300 record, annotated dice file", *header_lines(record)]
    previous = 0
    for r in record.rounds:
        if r.roll is None or r.dice is None:
            raise ValueError(f"round {r.number}: the annotated text form needs its roll and dice")
        if r.roll <= previous:
            raise ValueError(
                f"round {r.number}: roll {r.roll} after roll {previous}; "
                "the annotated text form lists rows in order"
            )
        previous = r.roll
        dice = " ".join(str(d) for d in r.dice)
        lines.append(f"{r.roll}: {dice}   {annotation(r)}")
    return "\n".join(lines) + "\n"


def annotation(r: RecordRound) -> str:
    """What follows a round's dice: `reroll`, `ring`, or `x 3/4 -> 5/5 (6) path ...`."""
    played = r.cross is not None or r.move is not None or r.exit is not None or r.path is not None
    if r.reroll or r.ring:
        if played or r.steps is not None or (r.reroll and r.ring):
            raise ValueError(f"round {r.number}: a reroll or ring round has nothing else")
        return "reroll" if r.reroll else "ring"
    if r.cross is None:
        raise ValueError(f"round {r.number} has no cross, reroll or ring")
    if r.move is not None and r.exit is not None:
        raise ValueError(f"round {r.number} has both a move and an exit")
    parts = [f"x {r.cross}"]
    if r.exit is not None or r.move is not None:
        parts.append(f"-> {r.exit or r.move}")
    if r.steps is not None:
        parts.append(f"({r.steps})")
    if r.path is not None:
        parts.append("path " + (" ".join(str(p) for p in r.path) or "none"))
    return " ".join(parts)


def _short(text: str) -> str:
    return repr(text) if len(text) <= 24 else repr(text[:21] + "...")
