"""The explanation of a record's first illegal step: one model that every renderer lays out.

From a replay `Result` it computes the where-text, the marks on the board with their
legend, the record's offending line, and the sentences of what was legal instead.
Terminal, text, Markdown and HTML only draw it, so the same failure is marked the same
everywhere.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, replace

from validator.check.replay import Failure, FailurePart, Result, RoundResult
from validator.engine import Cross, Dice, End, Field, State, candidates
from validator.errors import Diagnostic, Verdict
from validator.records.record import RecordRound
from validator.render.wording import end_reason, has_verb, reach_verb, steps


class BoardMark(enum.Enum):
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
    """What the record did that broke the rules: the cross-out, the move, the bad step."""
    WRONG_PATH = "~"
    """A field of the record's illegal path."""
    MOVE_OK = "="
    """The recorded move, legal in itself (only its path or its steps were wrong)."""
    USED = "#"
    """What an already used roll played (E103)."""


# When one field has several meanings, the first of these wins.
_PRIORITY = (
    BoardMark.WRONG,
    BoardMark.MOVE_OK,
    BoardMark.WRONG_PATH,
    BoardMark.BURGLAR,
    BoardMark.USED,
    BoardMark.CROSS,
    BoardMark.EXIT,
    BoardMark.REACH,
    BoardMark.OPTION,
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
    marks: tuple[tuple[Field, BoardMark], ...]
    legend: tuple[tuple[BoardMark, str], ...]
    recorded_path: tuple[Field, ...]
    """The record's path, when the path (or the move it ends on) broke the rules."""
    legal_walk: tuple[Field, ...]
    """A legal walk to the recorded move, when only the path was wrong."""
    legal: tuple[str, ...]
    """What was legal instead, as sentences."""
    problem: str = ""
    """What the record did wrong, in one sentence of the game's words."""
    quote: str | None = None
    """The record's offending line, as read."""
    board_title: str = ""
    """Which position the board shows: `before roll 4`, or `after roll 4` (E103)."""

    @property
    def where(self) -> str:
        """`roll 11, record round 11`."""
        text = f"roll {self.roll}" if self.roll else "the record"
        if self.error.round:
            text += f", record round {self.error.round}"
        return text

    @property
    def line_ref(self) -> str:
        """`line 9, column 47` of the record, or "" without a line."""
        e = self.error
        if not e.line:
            return ""
        return f"line {e.line}" + (f", column {e.col}" if e.col else "")

    @property
    def board(self) -> State:
        """The position a text board draws: `before`, with this round's X on the record's
        cross-out when another mark (such as the bad step's `!`) covers its `+`, so that
        the board shows the X the sentences speak of (the picture draws it as well)."""
        c = self.cross
        if c is None or self.mark_of(c.field) in (None, BoardMark.CROSS):
            return self.before
        return replace(self.before, crossed=self.before.crossed | 1 << c.field.index)

    def mark_of(self, field: Field) -> BoardMark | None:
        return next((m for f, m in self.marks if f == field), None)

    def fields(self, mark: BoardMark) -> tuple[Field, ...]:
        return tuple(f for f, m in self.marks if m is mark)

    def symbols(self) -> dict[Field, str]:
        """One text symbol per marked field (for text boards)."""
        return {f: m.value for f, m in self.marks}

    def legend_text(self) -> dict[str, str]:
        return {m.value: text for m, text in self.legend}

    def label(self) -> str:
        """The board in words, for a picture's title and for readers without the picture."""
        parts = [f"The board {self.board_title or 'before ' + self.where}."]
        for mark, text in self.legend:
            fields = ", ".join(str(f) for f in self.fields(mark))
            parts.append(f"{text[:1].upper()}{text[1:]}: {fields}.")
        if self.recorded_path:
            parts.append("Recorded path: " + " ".join(str(f) for f in self.recorded_path) + ".")
        if self.legal_walk:
            parts.append("A legal walk: " + " ".join(str(f) for f in self.legal_walk) + ".")
        return " ".join(parts)


def explain(result: Result) -> Explanation | None:
    """The explanation of `result`'s first illegal step; None when there is none to draw
    (a valid, incomplete or malformed record, or a whole-record error such as E107)."""
    error, failure = result.error, result.failure
    if result.verdict is not Verdict.INVALID or error is None:
        return None
    entry = _entry(result, error)
    if failure is None:
        if error.code == "E103" and entry is not None and error.roll is not None:
            return _explain_used_roll(error, result, entry)
        return None
    ended = None
    if failure.part == "round" and result.end is not None:
        ended = (result.end, result.end_roll)
    return explain_failure(error, failure, entry=entry, ended=ended)


def _entry(result: Result, error: Diagnostic) -> RecordRound | None:
    record = result.record
    if record is None or not error.round:
        return None
    return next((e for e in record.rounds if e.number == error.round), None)


class _Marks:
    """Marks and their legend while they are collected: one mark per field, by priority."""

    def __init__(self) -> None:
        self.marks: dict[Field, BoardMark] = {}
        self.legend: dict[BoardMark, str] = {}

    def put(self, fields: Sequence[Field], mark: BoardMark, text: str) -> None:
        for field in fields:
            old = self.marks.get(field)
            if old is None or _PRIORITY.index(mark) < _PRIORITY.index(old):
                self.marks[field] = mark
        if fields:
            self.legend[mark] = text

    def done(self) -> tuple[tuple[tuple[Field, BoardMark], ...], tuple[tuple[BoardMark, str], ...]]:
        present = set(self.marks.values())
        return (
            tuple(sorted(self.marks.items())),
            tuple((m, self.legend[m]) for m in BoardMark if m in present),
        )


def explain_failure(
    error: Diagnostic,
    f: Failure,
    *,
    entry: RecordRound | None = None,
    ended: tuple[End, int | None] | None = None,
) -> Explanation:
    marks = _Marks()
    put = marks.put
    position = f.before.position
    if position is not None:
        put((position,), BoardMark.BURGLAR, "the burglar")
    recorded_path: tuple[Field, ...] = ()
    legal_walk: tuple[Field, ...] = ()
    problem = error.message
    if ended is not None:
        # After the end every part of the round is wrong: show what the record still played.
        wrong = tuple(x for x in (f.attempted_cross, f.move) if x is not None)
        put(wrong, BoardMark.WRONG, "played after the end (illegal)")
    elif f.cross is not None:
        put(
            (f.cross.field,), BoardMark.CROSS, f"crossed out ({f.cross.field}, moves {f.cross.die})"
        )
        put(tuple(f.reachable), BoardMark.REACH, f"reached in {steps(f.cross.die)}")
        put(tuple(f.exits), BoardMark.EXIT, "a corner to leave through")
        if f.part == "path" and f.path:
            recorded_path = f.path
            put(recorded_path, BoardMark.WRONG_PATH, "the recorded path")
            if f.bad_step is not None:
                put((f.bad_step,), BoardMark.WRONG, "the step that breaks the rules")
            if f.move is not None and f.move in f.reachable:
                legal_walk = f.reachable[f.move]
                put((f.move,), BoardMark.MOVE_OK, "the recorded move (legal)")
        elif f.part == "move" and f.move is not None and f.move not in f.reachable:
            put((f.move,), BoardMark.WRONG, "the recorded move (illegal)")
        elif f.part in ("steps", "dice") and f.move is not None and f.move in f.reachable:
            put((f.move,), BoardMark.MOVE_OK, "the recorded move (legal)")
        if f.part == "move" and f.move is None:
            problem = f"The record makes no move, but the movement die {f.cross.die} has one."
    else:
        put(tuple(c.field for c in f.crosses), BoardMark.OPTION, "could be crossed out")
        if f.part == "cross" and f.attempted_cross is not None:
            put((f.attempted_cross,), BoardMark.WRONG, "the recorded cross-out (illegal)")
    pairs, legend = marks.done()
    return Explanation(
        error=error,
        part=f.part,
        roll=error.roll,
        dice=f.dice,
        record_dice=f.record_dice,
        before=f.before,
        cross=None if ended is not None else f.cross,
        marks=pairs,
        legend=legend,
        recorded_path=recorded_path,
        legal_walk=legal_walk,
        legal=tuple(legal_sentences(f, entry=entry, ended=ended)),
        problem=_sentence(problem),
        quote=error.excerpt,
        board_title=f"before roll {error.roll}" if error.roll else "",
    )


def _explain_used_roll(error: Diagnostic, result: Result, entry: RecordRound) -> Explanation:
    """E103: the record names a roll that an earlier round already played."""
    roll = error.roll
    used: RoundResult | None = next((r for r in result.rounds if r.roll == roll), None)
    before = result.rounds[-1].state if result.rounds else State()
    marks = _Marks()
    if before.position is not None:
        marks.put((before.position,), BoardMark.BURGLAR, "the burglar")
    legal: list[str] = []
    if used is not None:
        played = tuple(x for x in (used.cross.field if used.cross else None, used.move) if x)
        who = f"record round {used.record_round}" if used.record_round else "the replay"
        marks.put(played, BoardMark.USED, f"what roll {roll} already played ({who})")
        dice = " ".join(map(str, used.dice))
        legal.append(f"Roll {roll} ({dice}) was already played by {who}.")
    following = result.rounds[-1].roll + 1 if result.rounds else 1
    legal.append(f"The next unused roll is {following}: a round names each roll once, in order.")
    pairs, legend = marks.done()
    return Explanation(
        error=error,
        part="roll",
        roll=roll,
        dice=used.dice if used is not None else None,
        record_dice=None,
        before=before,
        cross=None,
        marks=pairs,
        legend=legend,
        recorded_path=(),
        legal_walk=(),
        legal=tuple(legal),
        problem=_sentence(error.message),
        quote=error.excerpt,
        board_title=f"after roll {following - 1}, the last one played" if following > 1 else "",
    )


def legal_sentences(
    f: Failure,
    *,
    entry: RecordRound | None = None,
    ended: tuple[End, int | None] | None = None,
) -> list[str]:
    """What was legal at a failure position, as sentences."""
    lines: list[str] = []
    if ended is not None:
        end, roll = ended
        on = f" on roll {roll}" if roll else ""
        lines.append(f"The game ended{on}: {end_reason(end)}. No round may follow the end.")
        return lines
    if f.record_dice is not None and f.dice is not None:
        lines.append(
            f"The record gives the dice {_dice(f.record_dice)}; the dice file's roll {f.roll} "
            f"is {_dice(f.dice)}."
        )
    if f.dice is None:
        return lines
    if not f.crosses:
        lines.append(
            f"No field could be crossed out: {taken_text(f.before, f.dice)}. "
            "This roll was a forced reroll."
        )
    else:
        lines.append(f"Available cross-outs: {crosses_text(f.crosses)}.")
    if f.cross is not None:
        die = f.cross.die
        if f.part == "steps" and entry is not None and entry.steps is not None:
            lines.append(
                f"The record gives steps {entry.steps}; with {f.cross.field} crossed out the "
                f"movement die is {die}."
            )
        if f.reachable:
            reach = ", ".join(f"{e} ({e.value})" for e in f.reachable)
            lines.append(
                f"With {f.cross.field} crossed out, {steps(die)} {reach_verb(die)}: {reach}."
            )
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


def taken_text(state: State, dice: Sequence[int]) -> str:
    """`1/1 and 6/1 have an X and a circle, 1/6 has an X`: why no field the dice name is free."""
    groups: dict[str, list[Field]] = {}
    for c in candidates(dice):
        mark = state.mark(c.field)
        if mark:
            groups.setdefault(mark, []).append(c.field)
    words = {"X": "an X", "O": "a circle", "XO": "an X and a circle"}
    parts = []
    for mark, fields in groups.items():
        names = " and ".join((", ".join(map(str, fields[:-1])), str(fields[-1]))).lstrip(" and")
        parts.append(f"{names} {has_verb(len(fields))} {words[mark]}")
    return ", ".join(parts) or "every field the dice name is taken"


def crosses_text(crosses: Sequence[Cross]) -> str:
    return ", ".join(f"{c.field} (moves {c.die})" for c in crosses) or "none"


def _sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return text
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def _dice(dice: Sequence[int]) -> str:
    return " ".join(str(d) for d in dice)
