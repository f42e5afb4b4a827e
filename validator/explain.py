"""The explanation of a record's first illegal step: one model that every renderer lays out.

From a replay `Result` it computes the where-text, the marks on the board with their
legend, and the sentences of what was legal instead. Terminal, text, Markdown and HTML
only draw it, so the same failure is marked the same everywhere.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

from validator.engine import Cross, Dice, Field, State
from validator.errors import Diagnostic, Verdict
from validator.replayer import Failure, FailurePart, Result


class Mark(enum.Enum):
    """What a field means on the board of an illegal step; the value is its text symbol."""

    BURGLAR = "@"
    OPTION = "?"
    """An available cross-out."""
    CROSS = "+"
    """The record's cross-out (a legal one)."""
    REACH = "*"
    """A field the movement die reaches."""
    EXIT = "o"
    """A corner the burglar could leave through."""
    WRONG = "!"
    """What the record did that broke the rules: the cross-out or the move."""
    WRONG_PATH = "~"
    """A field of the record's illegal path."""


# When one field has several meanings, the first of these wins.
_PRIORITY = (
    Mark.WRONG,
    Mark.WRONG_PATH,
    Mark.BURGLAR,
    Mark.CROSS,
    Mark.EXIT,
    Mark.REACH,
    Mark.OPTION,
)


@dataclass(frozen=True, slots=True)
class Explanation:
    """Everything a renderer shows about the first illegal step."""

    error: Diagnostic
    part: FailurePart
    roll: int | None
    dice: Dice | None
    """The official dice of the row (None: no such row)."""
    record_dice: Dice | None
    """The record's own dice, when they differ from the row's (E101)."""
    before: State
    cross: Cross | None
    """The record's cross-out, when it was legal: it decides the movement die."""
    marks: tuple[tuple[Field, Mark], ...]
    legend: tuple[tuple[Mark, str], ...]
    recorded_path: tuple[Field, ...]
    """The record's path, when the path (or the move it ends on) broke the rules."""
    legal_walk: tuple[Field, ...]
    """A legal walk to the recorded move, when only the path was wrong."""
    legal: tuple[str, ...]
    """What was legal instead, as sentences."""

    @property
    def where(self) -> str:
        """`roll 11, record round 11`."""
        text = f"roll {self.roll}" if self.roll else "the record"
        if self.error.round:
            text += f", record round {self.error.round}"
        return text

    def mark_of(self, field: Field) -> Mark | None:
        return next((m for f, m in self.marks if f == field), None)

    def fields(self, mark: Mark) -> tuple[Field, ...]:
        return tuple(f for f, m in self.marks if m is mark)

    def symbols(self) -> dict[Field, str]:
        """One text symbol per marked field (for text boards)."""
        return {f: m.value for f, m in self.marks}

    def legend_text(self) -> dict[str, str]:
        return {m.value: text for m, text in self.legend}


def explain(result: Result) -> Explanation | None:
    """The explanation of `result`'s first illegal step; None when there is none to draw
    (a valid, incomplete or malformed record, or a whole-record error such as E107)."""
    error, failure = result.error, result.failure
    if result.verdict is not Verdict.INVALID or error is None or failure is None:
        return None
    return explain_failure(error, failure)


def explain_failure(error: Diagnostic, f: Failure) -> Explanation:
    marks: dict[Field, Mark] = {}
    legend: dict[Mark, str] = {}

    def put(fields: Sequence[Field], mark: Mark, text: str) -> None:
        for field in fields:
            old = marks.get(field)
            if old is None or _PRIORITY.index(mark) < _PRIORITY.index(old):
                marks[field] = mark
        if fields:
            legend[mark] = text

    position = f.before.position
    if position is not None:
        put((position,), Mark.BURGLAR, "the burglar")
    recorded_path: tuple[Field, ...] = ()
    legal_walk: tuple[Field, ...] = ()
    if f.cross is not None:
        put((f.cross.field,), Mark.CROSS, f"crossed out ({f.cross.field}, moves {f.cross.die})")
        put(tuple(f.reachable), Mark.REACH, f"reached in {_steps(f.cross.die)}")
        put(tuple(f.exits), Mark.EXIT, "a corner to leave through")
        if f.part == "path" and f.path:
            recorded_path = f.path
            put(recorded_path, Mark.WRONG_PATH, "the recorded path (illegal)")
            if f.move is not None and f.move in f.reachable:
                legal_walk = f.reachable[f.move]
        elif f.part == "move" and f.move is not None and f.move not in f.reachable:
            put((f.move,), Mark.WRONG, "the recorded move (illegal)")
    else:
        put(tuple(c.field for c in f.crosses), Mark.OPTION, "could be crossed out")
        if f.part == "cross" and f.attempted_cross is not None:
            put((f.attempted_cross,), Mark.WRONG, "the recorded cross-out (illegal)")
    present = set(marks.values())
    return Explanation(
        error=error,
        part=f.part,
        roll=error.roll,
        dice=f.dice,
        record_dice=f.record_dice,
        before=f.before,
        cross=f.cross,
        marks=tuple(sorted(marks.items())),
        legend=tuple((m, legend[m]) for m in Mark if m in present),
        recorded_path=recorded_path,
        legal_walk=legal_walk,
        legal=tuple(legal_sentences(f)),
    )


def legal_sentences(f: Failure) -> list[str]:
    """What was legal at a failure position, as sentences."""
    lines: list[str] = []
    if f.record_dice is not None and f.dice is not None:
        lines.append(
            f"The record gives the dice {_dice(f.record_dice)}; the dice file's roll {f.roll} "
            f"is {_dice(f.dice)}."
        )
    if f.dice is None:
        return lines
    if not f.crosses:
        lines.append("No field could be crossed out: this roll was a forced reroll.")
    else:
        lines.append(f"Available cross-outs: {crosses_text(f.crosses)}.")
    if f.cross is not None:
        die = f.cross.die
        if f.reachable:
            reach = ", ".join(f"{e} ({e.value})" for e in f.reachable)
            lines.append(f"With {f.cross.field} crossed out, {_steps(die)} reach: {reach}.")
        else:
            lines.append(f"With {f.cross.field} crossed out, the die {die} has no legal move.")
        if f.exits:
            lines.append("Corners to leave through: " + ", ".join(str(c) for c in f.exits) + ".")
        if f.part == "path" and f.move is not None and f.move in f.reachable:
            walk = " ".join(str(x) for x in f.reachable[f.move])
            lines.append(
                f"The move to {f.move} is legal; only the path is wrong: one legal walk is {walk}."
            )
    return lines


def crosses_text(crosses: Sequence[Cross]) -> str:
    return ", ".join(f"{c.field} (moves {c.die})" for c in crosses) or "none"


def _steps(n: int) -> str:
    return "1 step" if n == 1 else f"{n} steps"


def _dice(dice: Sequence[int]) -> str:
    return " ".join(str(d) for d in dice)
