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
from validator.engine import Cross, Dice, End, Field, State, candidates, roll_text
from validator.errors import Diagnostic, Verdict
from validator.language.i18n import _, message, say
from validator.language.wording import end_reason, plural
from validator.records.record import RecordRound


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
    before: State
    marks: tuple[tuple[Field, BoardMark], ...]
    legend: tuple[tuple[BoardMark, str], ...]
    legal: tuple[str, ...]
    """What was legal instead, as sentences."""
    record_dice: Dice | None = None
    """The record's own dice, when they differ from the row's (E101)."""
    cross: Cross | None = None
    """The record's cross-out, when it was legal: it decides the movement die."""
    recorded_path: tuple[Field, ...] = ()
    """The record's path, when the path (or the move it ends on) broke the rules."""
    legal_walk: tuple[Field, ...] = ()
    """A legal walk to the recorded move, when only the path was wrong."""
    problem: str = ""
    """What the record did wrong, in one sentence of the game's words."""
    quote: str | None = None
    """The record's offending line, as read."""
    board_title: str = ""
    """Which position the board shows: `before roll 4`, or `after roll 4` (E103)."""

    @property
    def where(self) -> str:
        """`roll 11, record round 11`."""
        if not self.roll:
            return _("the record")
        if self.error.round:
            return _("roll {roll}, record round {round}").format(
                roll=self.roll, round=self.error.round
            )
        return _("roll {roll}").format(roll=self.roll)

    @property
    def line_ref(self) -> str:
        """`line 9, column 47` of the record, or "" without a line."""
        e = self.error
        if not e.line:
            return ""
        if e.col:
            return _("line {line}, column {col}").format(line=e.line, col=e.col)
        return _("line {line}").format(line=e.line)

    @property
    def board(self) -> State:
        """The position a text board draws: `before`, with this round's X on the record's
        cross-out when another mark (such as the bad step's `!`) covers its `+`, so that
        the board shows the X the sentences speak of (the picture draws it as well)."""
        c = self.cross
        if c is None or self.mark_of(c.field) in (None, BoardMark.CROSS):
            return self.before
        return replace(self.before, crossed=self.before.crossed | 1 << c.field.index)

    @property
    def message(self) -> str:
        """The error's message in the current language."""
        return message(self.error)

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
        parts = [_("The board {which}.").format(which=self.shown)]
        for mark, text in self.legend:
            fields = ", ".join(str(f) for f in self.fields(mark))
            parts.append(f"{text[:1].upper()}{text[1:]}: {fields}.")
        if self.recorded_path:
            path = " ".join(str(f) for f in self.recorded_path)
            parts.append(_("Recorded path: {path}.").format(path=path))
        if self.legal_walk:
            walk = " ".join(str(f) for f in self.legal_walk)
            parts.append(_("A legal walk: {path}.").format(path=walk))
        return " ".join(parts)

    @property
    def shown(self) -> str:
        """Which position the board shows: `before roll 4, record round 4`."""
        return self.board_title or _("before {where}").format(where=self.where)


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
    """Marks and their legend while they are collected: one mark per field, by priority;
    the burglar's first."""

    def __init__(self, burglar: Field | None) -> None:
        self.marks: dict[Field, BoardMark] = {}
        self.legend: dict[BoardMark, str] = {}
        if burglar is not None:
            self.put((burglar,), BoardMark.BURGLAR, _("the burglar"))

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
    marks = _Marks(f.before.position)
    put = marks.put
    recorded_path: tuple[Field, ...] = ()
    legal_walk: tuple[Field, ...] = ()
    problem = say(error.phrase)
    if ended is not None:
        # After the end every part of the round is wrong: show what the record still played.
        wrong = tuple(x for x in (f.attempted_cross, f.move) if x is not None)
        put(wrong, BoardMark.WRONG, _("played after the end (illegal)"))
    elif f.cross is not None:
        put(
            (f.cross.field,),
            BoardMark.CROSS,
            _("crossed out ({field}, moves {die})").format(field=f.cross.field, die=f.cross.die),
        )
        put(
            tuple(f.reachable),
            BoardMark.REACH,
            _("reached {in_steps}").format(
                in_steps=plural(f.cross.die, "in {n} step", "in {n} steps")
            ),
        )
        put(tuple(f.exits), BoardMark.EXIT, _("a corner to leave through"))
        if f.part == "path" and f.path:
            recorded_path = f.path
            put(recorded_path, BoardMark.WRONG_PATH, _("the recorded path"))
            if f.bad_step is not None:
                put((f.bad_step,), BoardMark.WRONG, _("the step that breaks the rules"))
            if f.move is not None and f.move in f.reachable:
                legal_walk = f.reachable[f.move]
                put((f.move,), BoardMark.MOVE_OK, _("the recorded move (legal)"))
        elif f.part == "move" and f.move is not None and f.move not in f.reachable:
            put((f.move,), BoardMark.WRONG, _("the recorded move (illegal)"))
        elif f.part in ("steps", "dice") and f.move is not None and f.move in f.reachable:
            put((f.move,), BoardMark.MOVE_OK, _("the recorded move (legal)"))
        if f.part == "move" and f.move is None:
            problem = _("The record makes no move, but the movement die {die} has one.").format(
                die=f.cross.die
            )
    else:
        put(tuple(c.field for c in f.crosses), BoardMark.OPTION, _("could be crossed out"))
        if f.part == "cross" and f.attempted_cross is not None:
            put((f.attempted_cross,), BoardMark.WRONG, _("the recorded cross-out (illegal)"))
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
        board_title=_("before roll {roll}").format(roll=error.roll) if error.roll else "",
    )


def _explain_used_roll(error: Diagnostic, result: Result, entry: RecordRound) -> Explanation:
    """E103: the record names a roll that an earlier round already played."""
    roll = error.roll
    used: RoundResult | None = next((r for r in result.rounds if r.roll == roll), None)
    before = result.rounds[-1].state if result.rounds else State()
    marks = _Marks(before.position)
    legal: list[str] = []
    if used is not None:
        played = tuple(x for x in (used.cross.field if used.cross else None, used.move) if x)
        who = (
            _("record round {round}").format(round=used.record_round)
            if used.record_round
            else _("the replay")
        )
        marks.put(
            played,
            BoardMark.USED,
            _("what roll {roll} already played ({who})").format(roll=roll, who=who),
        )
        dice = roll_text(used.dice)
        legal.append(
            _("Roll {roll} ({dice}) was already played by {who}.").format(
                roll=roll, dice=dice, who=who
            )
        )
    following = result.rounds[-1].roll + 1 if result.rounds else 1
    legal.append(
        _("The next unused roll is {roll}: a round names each roll once, in order.").format(
            roll=following
        )
    )
    pairs, legend = marks.done()
    return Explanation(
        error=error,
        part="roll",
        roll=roll,
        dice=used.dice if used is not None else None,
        before=before,
        marks=pairs,
        legend=legend,
        legal=tuple(legal),
        problem=_sentence(message(error)),
        quote=error.excerpt,
        board_title=(
            _("after roll {roll}, the last one played").format(roll=following - 1)
            if following > 1
            else ""
        ),
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
        text = (
            _("The game ended on roll {roll}: {reason}. No round may follow the end.")
            if roll
            else _("The game ended: {reason}. No round may follow the end.")
        )
        lines.append(text.format(roll=roll, reason=end_reason(end)))
        return lines
    if f.record_dice is not None and f.dice is not None:
        lines.append(
            _("The record gives the dice {given}; the dice file's roll {roll} is {dice}.").format(
                given=roll_text(f.record_dice), roll=f.roll, dice=roll_text(f.dice)
            )
        )
    if f.dice is None:
        return lines
    if not f.crosses:
        lines.append(
            _("No field could be crossed out: {why}. This roll was a forced reroll.").format(
                why=taken_text(f.before, f.dice)
            )
        )
    else:
        lines.append(_("Available cross-outs: {crosses}.").format(crosses=crosses_text(f.crosses)))
    if f.cross is not None:
        die = f.cross.die
        if f.part == "steps" and entry is not None and entry.steps is not None:
            lines.append(
                _(
                    "The record gives steps {steps}; with {field} crossed out the movement die "
                    "is {die}."
                ).format(steps=entry.steps, field=f.cross.field, die=die)
            )
        if f.reachable:
            reach = ", ".join(f"{e} ({e.value})" for e in f.reachable)
            lines.append(
                plural(
                    die,
                    "With {field} crossed out, {n} step reaches: {fields}.",
                    "With {field} crossed out, {n} steps reach: {fields}.",
                    field=f.cross.field,
                    fields=reach,
                )
            )
        else:
            lines.append(
                _("With {field} crossed out, the die {die} has no legal move.").format(
                    field=f.cross.field, die=die
                )
            )
        if f.exits:
            corners = ", ".join(str(c) for c in f.exits)
            lines.append(_("Corners to leave through: {corners}.").format(corners=corners))
        if f.part == "path" and f.move is not None and f.move in f.reachable:
            walk = " ".join(str(x) for x in f.reachable[f.move])
            lines.append(
                _(
                    "The move to {field} is legal; only the path is wrong: one legal walk is "
                    "{path}."
                ).format(field=f.move, path=walk)
            )
    return lines


def taken_text(state: State, dice: Sequence[int]) -> str:
    """`1/1 and 6/1 have an X and a circle, 1/6 has an X`: why no field the dice name is free."""
    groups: dict[str, list[Field]] = {}
    for c in candidates(dice):
        mark = state.mark(c.field)
        if mark:
            groups.setdefault(mark, []).append(c.field)
    parts = []
    for mark, fields in groups.items():
        if len(fields) == 1:
            names = str(fields[0])
        else:
            names = _("{fields} and {last}").format(
                fields=", ".join(map(str, fields[:-1])), last=fields[-1]
            )
        n = len(fields)
        if mark == "X":
            part = plural(n, "{fields} has an X", "{fields} have an X", fields=names)
        elif mark == "O":
            part = plural(n, "{fields} has a circle", "{fields} have a circle", fields=names)
        else:
            part = plural(
                n, "{fields} has an X and a circle", "{fields} have an X and a circle", fields=names
            )
        parts.append(part)
    return ", ".join(parts) or _("every field the dice name is taken")


def crosses_text(crosses: Sequence[Cross]) -> str:
    return ", ".join(
        _("{field} (moves {die})").format(field=c.field, die=c.die) for c in crosses
    ) or _("none")


def _sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return text
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."
