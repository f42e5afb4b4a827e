"""Replay a record against the official dice rows: (rows, record, rules) -> Result.

Three parts: a cursor over the dice rows (the next unused row, skipped rows, playing on
after the record), a pure translation of a record round into an engine action, and the
loop that applies them and turns the first refusal into a diagnostic. Every rule lives
in validator.engine; every finding is a value, never an exception.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from validator.engine import (
    END_BRIEF,
    FIELD_AT,
    STANDARD,
    Action,
    Cross,
    Dice,
    End,
    Exit,
    Field,
    IllegalAction,
    Play,
    Reach,
    Reroll,
    RingReroll,
    Ruleset,
    State,
    Turn,
    apply_row,
    available_crosses,
    forced_rerolls,
    game_goes_on,
    leaves_move,
    movement_die,
    new_game,
    reach,
    roll_text,
    score,
)
from validator.engine.phrase import N_, Items, Phrase, phrase, plural
from validator.errors import Diagnostic, Verdict
from validator.records.record import Location, Record, RecordRound
from validator.records.rounds import to_action

__all__ = [
    "Failure",
    "FailurePart",
    "Result",
    "RoundKind",
    "RoundResult",
    "Verdict",
    "malformed",
    "replay",
    "to_action",
]

RoundKind = Literal["play", "stuck", "reroll", "ring", "escape", "leave"]
FailurePart = Literal["cross", "move", "path", "ring", "reroll", "round", "dice", "steps", "roll"]
"""Which part of a round was wrong: the engine's parts, plus what the record alone gets
wrong (its dice, its steps, the dice row it names)."""


@dataclass(frozen=True, slots=True)
class RoundResult:
    """One dice row as replayed, with what a renderer shows of it: the cross-outs that were
    available, the walk, the corner an exit left through, and (computed on first use)
    what each available cross-out reached."""

    roll: int
    """1-based dice row."""
    dice: Dice
    kind: RoundKind
    before: State
    state: State
    score: int
    """The score after this round."""
    record_round: int | None = None
    """1-based record entry, or None for a row the replay played by itself."""
    line: int | None = None
    cross: Cross | None = None
    walk: tuple[Field, ...] = ()
    move: Field | None = None
    available: tuple[Cross, ...] = ()
    """The cross-outs that were available for the dice (none: a forced reroll)."""
    corner: Field | None = None
    """The corner an exit ("escape", "leave") left through."""
    rules: Ruleset = field(default=STANDARD, repr=False, compare=False)
    _options: dict[Field, Reach] | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def options(self) -> dict[Field, Reach]:
        """For each available cross-out: the fields its movement die reaches and the
        corners it could leave through, one walk each (computed once, on first use)."""
        if self._options is None:
            found = {c.field: reach(self.before, c, self.rules) for c in self.available}
            object.__setattr__(self, "_options", found)
            return found
        return self._options

    @property
    def end_field(self) -> Field | None:
        """Where the round left the burglar: the field it moved to, or the corner it left
        the board through; None for a reroll, a ring or a round stuck without a move."""
        return self.move if self.move is not None else self.corner

    @property
    def played(self) -> Action:
        """The action this round played with every part filled in (the move or the corner
        left through, and the walk as its path), as `legal_actions` gives it."""
        if self.kind == "reroll":
            return Reroll()
        if self.kind == "ring":
            return RingReroll()
        assert self.cross is not None
        if self.kind == "stuck":
            return Play(self.cross.field)
        if self.corner is not None:
            exit: Exit = "escape" if self.kind == "escape" else "leave"
            return Play(self.cross.field, self.corner, exit=exit, path=self.walk)
        return Play(self.cross.field, self.move, path=self.walk)

    @property
    def reach(self) -> Reach:
        """What the movement die of this round's cross-out reached (empty without one)."""
        if self.cross is None:
            return Reach({}, {})
        return self.options[self.cross.field]


@dataclass(frozen=True, slots=True)
class Failure:
    """The position at the first illegal step, what the record did there, and what was legal."""

    before: State
    roll: int
    dice: Dice | None
    """The official dice of the row (None: the dice file has no such row)."""
    crosses: tuple[Cross, ...]
    """The cross-outs that were available."""
    part: FailurePart = "round"
    cross: Cross | None = None
    """The record's cross-out, when it was one of them."""
    reachable: dict[Field, tuple[Field, ...]] = field(default_factory=dict)
    """For that cross-out: each field the movement die reaches, with one walk."""
    exits: dict[Field, tuple[Field, ...]] = field(default_factory=dict)
    attempted_cross: Field | None = None
    """The record's cross-out, legal or not."""
    move: Field | None = None
    path: tuple[Field, ...] | None = None
    record_dice: Dice | None = None
    """The dice the record gives for the round, when they differ from the row's."""
    bad_step: Field | None = None
    """For an illegal path: the field of the first step that breaks the walk, as the
    engine found it (None when no single step does)."""


@dataclass(frozen=True, slots=True)
class Result:
    source: str
    verdict: Verdict
    rules: Ruleset
    score: int | None = None
    end: End | None = None
    end_roll: int | None = None
    rounds: tuple[RoundResult, ...] = ()
    error: Diagnostic | None = None
    warnings: tuple[Diagnostic, ...] = ()
    record: Record | None = None
    failure: Failure | None = None
    final: State | None = None
    dice_sha256: str | None = None
    reading_errors: tuple[Diagnostic, ...] = ()
    """Every problem found while reading a malformed record (the first is `error`)."""
    errors_omitted: int = 0
    """Reading problems found beyond those kept."""
    rows: tuple[Dice, ...] = field(default=(), repr=False)
    """The dice rows the record was replayed on (empty when it was not replayed)."""
    read_language: str | None = None
    """The language of a record that could not be read, when its reader could tell."""

    @property
    def ok(self) -> bool:
        return self.verdict.ok

    @property
    def language(self) -> str | None:
        """The language the record is written in, when its reader could tell (read or
        not): what reports and replies answer in (docs/languages.md)."""
        return self.record.language if self.record is not None else self.read_language

    @property
    def errors(self) -> tuple[Diagnostic, ...]:
        """Every reading error of a malformed record; else the first error, if any."""
        if self.reading_errors:
            return self.reading_errors
        return (self.error,) if self.error else ()

    @property
    def rerolls(self) -> int:
        return sum(1 for r in self.rounds if r.kind == "reroll")


def malformed(
    diagnostic: Diagnostic,
    rules: Ruleset,
    source: str | None = None,
    *,
    more: Sequence[Diagnostic] = (),
    omitted: int = 0,
    language: str | None = None,
    record: Record | None = None,
) -> Result:
    """The result for a record that could not be read or checked; `more` are its further
    problems, `language` the language its reader saw it written in, `record` the record
    when it was read but cannot be checked (its dice file or its ruleset cannot be used):
    its player and claim are then known."""
    return Result(
        source or diagnostic.file or "<record>",
        Verdict.MALFORMED,
        rules,
        error=diagnostic,
        reading_errors=(diagnostic, *more) if more else (),
        errors_omitted=omitted,
        read_language=language,
        record=record,
    )


# --- the dice rows -------------------------------------------------------------------


class Rows:
    """A cursor over the dice rows: the game state, the next unused row, the rounds so far."""

    def __init__(
        self,
        rows: Sequence[Dice],
        rules: Ruleset,
        rings: int,
        *,
        start: State | None = None,
        row: int = 0,
    ) -> None:
        self.rows = rows
        self.rules = rules
        self.state = new_game(rings=rings) if start is None else start
        self.next = row
        """0-based index of the next unused row."""
        self.done: list[RoundResult] = []
        self.end_roll: int | None = None
        self.shift = 0
        """Rows the dice moved the rounds without a typed roll number on by (see follow)."""
        self.notes: list[Diagnostic] = []
        """Readings the dice file decided (W005), said beside the verdict."""

    @property
    def left(self) -> bool:
        return self.next < len(self.rows)

    @property
    def dice(self) -> Dice:
        return self.rows[self.next]

    def crosses(self) -> tuple[Cross, ...]:
        return available_crosses(self.state, self.dice)

    def play(self, action: Action, entry: RecordRound | None = None) -> IllegalAction | None:
        """Apply `action` to the next row; the engine's refusal, or None when it was legal."""
        try:
            turn = apply_row(self.state, self.rows, self.next, action, self.rules)
        except IllegalAction as refusal:
            return refusal
        self._take(turn, entry)
        return None

    def _take(self, turn: Turn, entry: RecordRound | None = None) -> None:
        """Go on past the next row, which `turn` played."""
        before, dice = self.state, self.dice
        self.state = turn.state
        self.done.append(self._round(dice, turn, entry, before))
        if self.state.over and self.end_roll is None:
            self.end_roll = self.next + 1
        self.next += 1

    def _round(
        self, dice: Dice, turn: Turn, entry: RecordRound | None, before: State
    ) -> RoundResult:
        action = turn.action
        kind: RoundKind
        if isinstance(action, Reroll):
            kind = "reroll"
        elif isinstance(action, RingReroll):
            kind = "ring"
        elif turn.exit is not None:
            kind = turn.exit
        elif isinstance(action, Play) and action.move is None:
            kind = "stuck"
        else:
            kind = "play"
        return RoundResult(
            roll=self.next + 1,
            dice=dice,
            kind=kind,
            before=before,
            state=self.state,
            score=score(self.state, self.rules),
            record_round=entry.number if entry else None,
            line=entry.line if entry else None,
            cross=turn.cross,
            walk=tuple(FIELD_AT[i] for i in turn.walk or ()),
            move=self.state.position if kind == "play" else None,
            available=turn.crosses,
            corner=FIELD_AT[turn.corner] if turn.corner is not None else None,
            rules=self.rules,
        )

    def play_on(self) -> None:
        """After the record's last round: forced rerolls play themselves, and a row on which
        no cross-out leaves a move ends the game (unless a magic ring could be spent)."""
        for turn in forced_rerolls(self.state, self.rows, self.next, self.rules):
            self._take(turn)
        if self.state.over or not self.left or self.state.rings_left:
            return
        if not game_goes_on(self.state, self.dice, self.rules):
            self.play(Play(self.crosses()[0].field))

    def failure(
        self,
        part: FailurePart,
        action: Action | None = None,
        record_dice: Dice | None = None,
        bad_step: Field | None = None,
    ) -> Failure:
        """The position before the next row, with what was legal on it."""
        state = self.state
        dice = self.dice if self.left else None
        crosses = available_crosses(state, dice) if dice is not None else ()
        chosen = None
        reachable: dict[Field, tuple[Field, ...]] = {}
        exits: dict[Field, tuple[Field, ...]] = {}
        attempted = move = path = None
        if isinstance(action, Play):
            attempted, move, path = action.cross, action.move, action.path
            chosen = next((c for c in crosses if c.field == action.cross), None)
            if chosen is not None:
                reachable, exits = reach(state, chosen, self.rules)
        return Failure(
            before=state,
            roll=self.next + 1,
            dice=dice,
            crosses=crosses,
            part=part,
            cross=chosen,
            reachable=reachable,
            exits=exits,
            attempted_cross=attempted,
            move=move,
            path=path,
            record_dice=record_dice,
            bad_step=bad_step,
        )


# --- the replay ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Stop:
    """The first illegal step: its diagnostic and the position where it happened."""

    diagnostic: Diagnostic
    failure: Failure | None = None


def replay(
    rows: Sequence[Dice],
    record: Record,
    rules: Ruleset,
    *,
    dice_sha256: str | None = None,
    notes: Sequence[Diagnostic] = (),
) -> Result:
    """Replay `record` on the dice `rows` under `rules`; never raises for a bad record.

    `notes` are warnings found before the replay (such as W002), kept in the result.
    """
    cursor = Rows(rows, rules, record.rings)
    stop = _check_rings(record, rules)
    for entry in record.rounds:
        if stop is not None:
            break
        stop = _play_round(cursor, record, entry)
    if stop is None:
        cursor.play_on()
    state = cursor.state
    error = stop.diagnostic if stop else None
    failure = stop.failure if stop else None
    final_score = None if error else score(state, rules)
    warnings = [*record.warnings, *notes, *cursor.notes]
    if dice_sha256 and record.dice_sha256 and record.dice_sha256 != dice_sha256:
        message = phrase(
            N_("dice_sha256 does not match the dice file: the record was played on other dice")
        )
        hint = phrase(N_("the dice file in use has SHA-256 {sha}"), sha=dice_sha256)
        error = _diagnostic(
            record, None, "E108", message, at=record.where("dice_sha256"), hint=hint
        )
    elif error is None and record.claimed_score is not None and record.claimed_score != final_score:
        message = phrase(
            N_("the record claims {claimed} points, but the replay scores {score}"),
            claimed=record.claimed_score,
            score=final_score,
        )
        hint = phrase("{line}", line=_claimed_line(record, final_score))
        error = _diagnostic(
            record, None, "E107", message, at=record.where("claimed_score"), hint=hint
        )
    if error is not None:
        # The code's category decides (every replay finding is a record or rules error).
        decided = error.category.verdict
        assert decided is not None, f"{error.code} is not an error"
        verdict = decided
    elif state.over:
        verdict = Verdict.VALID
    else:
        verdict = Verdict.INCOMPLETE
        warnings.append(_incomplete_warning(cursor, record))
    return Result(
        source=record.source,
        verdict=verdict,
        rules=rules,
        score=final_score,
        end=state.end,
        end_roll=cursor.end_roll,
        rounds=tuple(cursor.done),
        error=error,
        warnings=tuple(warnings),
        record=record,
        failure=failure,
        final=state,
        dice_sha256=dice_sha256,
        rows=tuple(rows),
    )


def _claimed_line(record: Record, score: int | None) -> str:
    """The record's own claimed-score line with the replayed score (`Total: 345`, `Summe:
    345`, `"claimed_score": 345,`), else `claimed_score: 345`."""
    at = record.where("claimed_score")
    line = record.line_text(at[0]) if at is not None else None
    claimed = str(record.claimed_score)
    if at is not None and line is not None:
        start = line.find(claimed, max(at[1] - 1, 0))
        if start < 0:
            start = line.find(claimed)
        fixed = (line[:start] + str(score) + line[start + len(claimed) :]).strip()
        if start >= 0 and len(fixed) <= 80:  # a line of minified JSON is the whole record
            return fixed
    return f"claimed_score: {score}"


def _diagnostic(
    record: Record,
    entry: RecordRound | None,
    code: str,
    message: Phrase,
    *,
    roll: int | None = None,
    at: Location | None = None,
    hint: Phrase | None = None,
) -> Diagnostic:
    """A diagnostic located at `at` (else at the round), quoting the record's own line."""
    line, col = at if at is not None else ((entry.line, entry.col) if entry else (None, None))
    return Diagnostic(
        code,
        message,
        record.source,
        line or None,
        col or None,
        roll=roll,
        round=entry.number if entry else None,
        hint_phrase=hint,
        excerpt=record.line_text(line),
    )


def _check_rings(record: Record, rules: Ruleset) -> _Stop | None:
    declared = record.rings
    if not declared or declared <= rules.max_rings:
        return None
    allowed = (
        phrase(N_("at most {n}"), n=rules.max_rings)
        if rules.rings
        else phrase(N_("none (The magic rings! is not in play)"))
    )
    message = plural(
        declared,
        "the record declares {n} magic ring; the ruleset allows {allowed}",
        "the record declares {n} magic rings; the ruleset allows {allowed}",
        allowed=allowed,
    )
    return _Stop(_diagnostic(record, None, "E109", message, at=record.where("rings")))


def _follow(cursor: Rows, record: Record, entry: RecordRound, want: int) -> int:
    """The row of a round whose roll number was counted, not typed (`Rolled 6, 5, 1. ...`
    on the line after roll 9's): where its dice are not that row's, but are the row after
    forced rerolls the player left out, that row; else `want` (E101 there, as typed)."""
    dice = sorted(entry.dice or ())
    if not dice or want >= len(cursor.rows) or sorted(cursor.rows[want]) == dice:
        return want
    state, row = cursor.state, cursor.next
    while row < len(cursor.rows) and not state.over:
        if row >= want and sorted(cursor.rows[row]) == dice:
            cursor.shift += row - want
            message = phrase(
                N_(
                    "round {round} gives no roll number, and its dice {dice} are "
                    "not roll {counted}: it is read as roll {roll}, after forced "
                    "rerolls"
                ),
                round=entry.number,
                dice=roll_text(entry.dice or ()),
                counted=want + 1,
                roll=row + 1,
            )
            hint = phrase(
                N_("write the roll number ({roll}: ...) to say which roll it is"),
                roll=row + 1,
            )
            cursor.notes.append(
                _diagnostic(record, entry, "W005", message, roll=row + 1, hint=hint)
            )
            return row
        if available_crosses(state, cursor.rows[row]):
            break  # a row that is no forced reroll cannot be left out
        state = apply_row(state, cursor.rows, row, Reroll(), cursor.rules).state
        row += 1
    return want


def _typed_roll(entry: RecordRound) -> bool:
    """Whether the round's roll number was written (a text line may leave it to count)."""
    return any(name == "roll" for name, _ in entry.locations)


def _play_round(cursor: Rows, record: Record, entry: RecordRound) -> _Stop | None:
    """Play one record round on the cursor; the first illegal step, or None."""
    want = entry.roll - 1 if entry.roll is not None else cursor.next
    if entry.roll is not None and not _typed_roll(entry):
        want = _follow(cursor, record, entry, want + cursor.shift)
    elif entry.roll is None and record.format == "text":  # a typed table without a roll column
        want = _follow(cursor, record, entry, want)

    def stop(
        code: str,
        message: Phrase,
        roll: int,
        key: str | None,
        hint: Phrase | None = None,
        failure: Failure | None = None,
        at: Location | None = None,
    ) -> _Stop:
        at = at or (entry.where(key) if key else None)
        diagnostic = _diagnostic(record, entry, code, message, roll=roll, at=at, hint=hint)
        return _Stop(diagnostic, failure)

    if cursor.state.over:
        return _after_end(cursor, record, entry, want)
    if want < cursor.next:
        message = phrase(
            N_("round {round} names roll {roll}, but rolls up to {used} are already used"),
            round=entry.number,
            roll=want + 1,
            used=cursor.next,
        )
        hint = phrase(N_("the next unused roll is {roll}"), roll=cursor.next + 1)
        return stop("E103", message, want + 1, "roll", hint)
    # Skipped rows come first: a skipped playable row breaks the rules before a round
    # that names a row the dice file does not have.
    while cursor.next < min(want, len(cursor.rows)):
        crosses = cursor.crosses()
        if crosses:
            message = phrase(
                N_("roll {roll} ({dice}) is skipped, but it is not a forced reroll"),
                roll=cursor.next + 1,
                dice=roll_text(cursor.dice),
            )
            hint = phrase(
                N_("it could cross out {fields}; record a round for it"),
                fields=Items(tuple(c.field for c in crosses)),
            )
            at = record.row_line(cursor.next + 1)  # the skipped row's own line
            return stop("E105", message, cursor.next + 1, "roll", hint, cursor.failure("roll"), at)
        if cursor.next == len(cursor.rows) - 1:
            # Using up the last row would end the game; it need only be skippable.
            break
        cursor.play(Reroll())
        if cursor.state.over:
            return _after_end(cursor, record, entry, want)
    if want >= len(cursor.rows):
        message = plural(
            len(cursor.rows),
            "round {round} names roll {roll}, but the dice file has {n} roll",
            "round {round} names roll {roll}, but the dice file has {n} rolls",
            round=entry.number,
            roll=want + 1,
        )
        return stop("E104", message, want + 1, "roll")
    dice, roll = cursor.dice, cursor.next + 1
    action = to_action(entry)
    if entry.dice is not None and sorted(entry.dice) != sorted(dice):
        message = phrase(
            N_("round {round} gives the dice {given}, but roll {roll} is {dice}"),
            round=entry.number,
            given=roll_text(entry.dice),
            roll=roll,
            dice=roll_text(dice),
        )
        hint = _dice_hint(cursor, entry.dice, dice)
        failure = cursor.failure("dice", action, record_dice=entry.dice)
        return stop("E101", message, roll, "dice", hint, failure)
    if isinstance(action, Play) and entry.steps is not None:
        die = movement_die(dice, action.cross)
        if die is not None and die != entry.steps:
            message = phrase(
                N_(
                    "round {round} gives steps {steps}, but crossing out {field} with "
                    "{dice} leaves the movement die {die}"
                ),
                round=entry.number,
                steps=entry.steps,
                field=action.cross,
                dice=roll_text(dice),
                die=die,
            )
            hint = phrase("steps: {die}", die=die)
            return stop("E102", message, roll, "steps", hint, cursor.failure("steps", action))
    refusal = cursor.play(action, entry)
    if refusal is None:
        return None
    # A refused action leaves the cursor where it was: the failure is that position.
    key = "roll" if refusal.part == "round" else refusal.part
    failure = cursor.failure(refusal.part, action, bad_step=refusal.step)
    return stop(refusal.code, refusal.phrase, roll, key, refusal.hint_phrase, failure)


def _after_end(cursor: Rows, record: Record, entry: RecordRound, want: int) -> _Stop:
    ended = cursor.state.end
    assert ended is not None, "called only once the game is over"
    end = phrase(END_BRIEF[ended])
    message = phrase(
        N_("round {round} is recorded after the game ended ({end} on roll {roll})"),
        round=entry.number,
        end=end,
        roll=cursor.end_roll,
    )
    hint = phrase(N_("remove the rounds after the end of the game"))
    diagnostic = _diagnostic(record, entry, "E106", message, roll=want + 1, hint=hint)
    return _Stop(diagnostic, cursor.failure("round", to_action(entry)))


def _dice_hint(cursor: Rows, given: Dice, official: Dice) -> Phrase:
    """The dice the row has, and where the record's dice stand when it skipped rerolls."""
    roll = cursor.next + 1
    later = next(
        (
            n
            for n in range(roll, min(roll + 3, len(cursor.rows)))
            if sorted(cursor.rows[n]) == sorted(given)
        ),
        None,
    )
    if later is None:
        return phrase(N_("roll {roll} is {dice}"), roll=roll, dice=roll_text(official))
    if later == roll and not cursor.crosses():
        return phrase(
            N_(
                "{given} is roll {later}: roll {roll} ({dice}) was a forced reroll; keep its "
                "line, or name the roll {later} in this round"
            ),
            given=roll_text(given),
            later=later + 1,
            roll=roll,
            dice=roll_text(official),
        )
    return phrase(
        N_("{given} is roll {later}, not roll {roll} ({dice}): was a row left out?"),
        given=roll_text(given),
        later=later + 1,
        roll=roll,
        dice=roll_text(official),
    )


def _incomplete_warning(cursor: Rows, record: Record) -> Diagnostic:
    state, dice = cursor.state, cursor.dice
    options = [c for c in available_crosses(state, dice) if leaves_move(state, c, cursor.rules)]
    hints: list[Phrase] = []
    if options:
        hints.append(
            phrase(
                N_("cross-outs that leave a move: {crosses}"),
                crosses=Items(
                    tuple(
                        phrase(N_("{field} (moves {die})"), field=c.field, die=c.die)
                        for c in options
                    )
                ),
            )
        )
    if state.rings_left:
        hints.append(
            plural(
                state.rings_left,
                "{n} magic ring is left to spend",
                "{n} magic rings are left to spend",
            )
        )
    message = phrase(
        N_("the record ends, but the game goes on: roll {roll} ({dice}) can still be played"),
        roll=cursor.next + 1,
        dice=roll_text(dice),
    )
    hint = phrase("{hints}", hints=Items(tuple(hints), "; ")) if hints else None
    return Diagnostic("W001", message, record.source, roll=cursor.next + 1, hint_phrase=hint)
