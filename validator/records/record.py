"""A game record as the readers build it: plain immutable values with source locations.

Every reader (YAML, JSON, annotated text, CSV) produces a `Record`; the replay reads only
this. Fields are always stored row/column (a col-row record is transposed on reading).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

from validator.engine import Exit, Field
from validator.errors import Diagnostic
from validator.records.lexing import LINE_BREAK

Coordinates = Literal["row-col", "col-row"]
Location = tuple[int, int]
"""(line, column), both 1-based."""


@dataclass(frozen=True, slots=True)
class RecordRound:
    """One entry of a record: a dice row played, rerolled, or skipped with a ring."""

    number: int
    """1-based position in the record."""
    line: int
    col: int = 1
    roll: int | None = None
    dice: tuple[int, int, int] | None = None
    cross: Field | None = None
    move: Field | None = None
    exit: Exit | None = None
    steps: int | None = None
    path: tuple[Field, ...] | None = None
    reroll: bool = False
    ring: bool = False
    locations: tuple[tuple[str, Location], ...] = ()
    """Where each key's value stands, for diagnostics that point at it."""

    def where(self, key: str) -> Location:
        return next((loc for name, loc in self.locations if name == key), (self.line, self.col))


@dataclass(frozen=True, slots=True)
class Record:
    rounds: tuple[RecordRound, ...]
    source: str = "<record>"
    format: str = "yaml"
    player: str | None = None
    dice_file: str | None = None
    dice_sha256: str | None = None
    coordinates: Coordinates = "row-col"
    rules: str | None = None
    claimed_score: int | None = None
    rings: int = 0
    locations: tuple[tuple[str, Location], ...] = field(default=())
    """Where header keys stand (claimed_score, dice_sha256, rules, rings)."""
    language: str | None = field(default=None, compare=False)
    """The language the record's words are written in (`en`, `de`, `fr`), when its reader
    could tell (the text form); reports and replies answer in it (docs/languages.md)."""
    text: str = field(default="", repr=False, compare=False)
    """The decoded source text the record was read from, for quoting its lines."""
    warnings: tuple[Diagnostic, ...] = field(default=(), compare=False)
    """What the reader noticed but read anyway (W003: not UTF-8)."""

    def line_text(self, line: int | None) -> str | None:
        """Source line `line` (1-based) as read, or None."""
        if not line or not self.text:
            return None
        return source_line(self.text, line)

    def row_line(self, row: int) -> Location | None:
        """Where a text record writes the dice row `row` (1-based) that it did not play:
        its dice line; None in other forms, which write only the rounds played."""
        return self.where(f"row {row}")

    def where(self, key: str) -> Location | None:
        return next((loc for name, loc in self.locations if name == key), None)


def source_line(text: str, line: int) -> str | None:
    """Line `line` (1-based) of a text, counting the line breaks every reader counts
    (LF, CR LF, and a lone CR), or None past the end."""
    return source_lines(text, (line,)).get(line)


def source_lines(text: str, lines: Iterable[int]) -> dict[int, str]:
    """Several lines of a text by number, in one pass over it (a reader may quote fifty
    lines of a file of a hundred thousand); lines past the end are left out."""
    wanted = sorted({n for n in lines if n >= 1})
    found: dict[int, str] = {}
    if not wanted:
        return found
    if "\r" not in text:  # the common case, at the speed of str.find
        line, at = 1, 0
        for n in wanted:
            while line < n:
                lf = text.find("\n", at)
                if lf < 0:
                    return found
                line, at = line + 1, lf + 1
            lf = text.find("\n", at)
            found[n] = text[at:lf] if lf >= 0 else text[at:]
        return found
    breaks = LINE_BREAK.finditer(text)
    line, at = 1, 0
    for n in wanted:
        while line < n:
            brk = next(breaks, None)
            if brk is None:
                return found
            line, at = line + 1, brk.end()
        end = min((i for i in (text.find("\r", at), text.find("\n", at)) if i >= 0), default=-1)
        found[n] = text[at:end] if end >= 0 else text[at:]
    return found
