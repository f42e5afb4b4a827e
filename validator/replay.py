"""Replay a record against the official dice rows: (rows, record, rules) -> Result.

The replay only translates record rounds into engine actions and engine refusals into
diagnostics; every rule lives in validator.engine.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from validator.engine import (
    FIELD_AT,
    Action,
    Cross,
    Dice,
    End,
    Exit,
    Field,
    IllegalAction,
    Play,
    Reroll,
    RingReroll,
    Ruleset,
    State,
    apply,
    available_crosses,
    blocked_after,
    exhaust,
    exit_walks,
    game_goes_on,
    has_move,
    movement_die,
    new_game,
    score,
    walks,
)
from validator.errors import Diagnostic
from validator.record import Location, Record, RecordRound


class Verdict(enum.Enum):
    VALID = "valid"
    INCOMPLETE = "incomplete"
    INVALID = "invalid"
    MALFORMED = "malformed"


RoundKind = Literal["play", "stuck", "reroll", "ring", "escape", "leave"]


@dataclass(frozen=True, slots=True)
class RoundResult:
    """One dice row as replayed."""

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


@dataclass(frozen=True, slots=True)
class Failure:
    """The position at the first illegal step, and what was legal there."""

    before: State
    roll: int
    dice: Dice
    crosses: tuple[Cross, ...]
    """The cross-outs that were available."""
    cross: Cross | None = None
    """The record's cross-out, when it was one of them."""
    reachable: dict[Field, tuple[Field, ...]] = field(default_factory=dict)
    """For that cross-out: each field the movement die reaches, with one walk."""
    exits: dict[Field, tuple[Field, ...]] = field(default_factory=dict)
    move: Field | None = None
    path: tuple[Field, ...] | None = None


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

    @property
    def ok(self) -> bool:
        return self.verdict in (Verdict.VALID, Verdict.INCOMPLETE)

    @property
    def rerolls(self) -> int:
        return sum(1 for r in self.rounds if r.kind == "reroll")


def malformed(diagnostic: Diagnostic, rules: Ruleset, source: str | None = None) -> Result:
    """The result for a record that could not be read."""
    return Result(
        source or diagnostic.file or "<record>", Verdict.MALFORMED, rules, error=diagnostic
    )


# Which record key an engine refusal points at.
_KEY_OF_CODE = {
    "E201": "reroll",
    "E202": "cross",
    "E203": "cross",
    "E204": "cross",
    "E205": "move",
    "E206": "path",
    "E207": "cross",
    "E208": "move",
    "E209": "move",
    "E211": "ring",
    "E212": "ring",
    "E213": "ring",
}


class _Stop(Exception):
    def __init__(self, diagnostic: Diagnostic, failure: Failure | None = None) -> None:
        self.diagnostic = diagnostic
        self.failure = failure


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
    run = _Run(rows, record, rules)
    warnings: list[Diagnostic] = list(notes)
    failure: Failure | None = None
    error: Diagnostic | None = None
    try:
        run.check_rings()
        for entry in record.rounds:
            run.play(entry)
        run.play_on()
    except _Stop as stop:
        error, failure = stop.diagnostic, stop.failure
    state = run.state
    final_score = None if error else score(state, rules)
    if dice_sha256 and record.dice_sha256 and record.dice_sha256 != dice_sha256:
        error = Diagnostic(
            "E108",
            "dice_sha256 does not match the dice file: the record was played on other dice",
            record.source,
            *_at(record.where("dice_sha256")),
            hint=f"the dice file in use has SHA-256 {dice_sha256}",
        )
    elif error is None and record.claimed_score is not None and record.claimed_score != final_score:
        error = Diagnostic(
            "E107",
            f"the record claims {record.claimed_score} points, but the replay scores {final_score}",
            record.source,
            *_at(record.where("claimed_score")),
            hint=f"claimed_score: {final_score}",
        )
    if error is not None:
        verdict = Verdict.INVALID
    elif state.over:
        verdict = Verdict.VALID
    else:
        verdict = Verdict.INCOMPLETE
        warnings.append(run.incomplete_warning())
    return Result(
        source=record.source,
        verdict=verdict,
        rules=rules,
        score=final_score,
        end=state.end if failure is None else None,
        end_roll=run.end_roll if failure is None else None,
        rounds=tuple(run.done),
        error=error,
        warnings=tuple(warnings),
        record=record,
        failure=failure,
        final=state,
        dice_sha256=dice_sha256,
    )


def _at(location: Location | None) -> tuple[int | None, int | None]:
    return location if location is not None else (None, None)


class _Run:
    """The replay's moving parts: the state, the next unused row, and the rounds so far."""

    def __init__(self, rows: Sequence[Dice], record: Record, rules: Ruleset) -> None:
        self.rows = rows
        self.record = record
        self.rules = rules
        self.state = new_game(rings=record.rings)
        self.row = 0
        self.done: list[RoundResult] = []
        self.end_roll: int | None = None

    def stop(
        self,
        code: str,
        message: str,
        *,
        roll: int | None,
        entry: RecordRound | None,
        key: str | None = None,
        hint: str = "",
        failure: Failure | None = None,
    ) -> _Stop:
        line, col = (
            entry.where(key)
            if entry and key
            else ((entry.line, entry.col) if entry else (None, None))
        )
        return _Stop(
            Diagnostic(
                code,
                message,
                self.record.source,
                line or None,
                col or None,
                roll=roll,
                round=entry.number if entry else None,
                hint=hint,
            ),
            failure,
        )

    def check_rings(self) -> None:
        declared = self.record.rings
        if declared and declared > self.rules.max_rings:
            allowed = (
                f"at most {self.rules.max_rings}"
                if self.rules.rings
                else "none (The magic rings! is not in play)"
            )
            line, col = _at(self.record.where("rings"))
            raise _Stop(
                Diagnostic(
                    "E109",
                    f"the record declares {declared} magic ring(s); the ruleset allows {allowed}",
                    self.record.source,
                    line,
                    col,
                )
            )

    def record_round(
        self,
        dice: Dice,
        action: Action,
        entry: RecordRound | None,
        before: State,
        turn_cross: Cross | None,
        walk: tuple[int, ...] | None,
        exit_kind: Exit | None,
    ) -> None:
        state = self.state
        if isinstance(action, Reroll):
            kind: RoundKind = "reroll"
        elif isinstance(action, RingReroll):
            kind = "ring"
        elif exit_kind is not None:
            kind = exit_kind
        elif isinstance(action, Play) and action.move is None:
            kind = "stuck"
        else:
            kind = "play"
        self.done.append(
            RoundResult(
                roll=self.row + 1,
                dice=dice,
                kind=kind,
                before=before,
                state=state,
                score=score(state, self.rules),
                record_round=entry.number if entry else None,
                line=entry.line if entry else None,
                cross=turn_cross,
                walk=tuple(FIELD_AT[i] for i in walk or ()),
                move=state.position if kind == "play" else None,
            )
        )
        if state.over and self.end_roll is None:
            self.end_roll = self.row + 1

    def advance(self, dice: Dice, action: Action, entry: RecordRound | None) -> None:
        before = self.state
        turn = apply(before, dice, action, self.rules)
        self.state = turn.state
        if self.row + 1 >= len(self.rows):
            # The last row: the game ends here, and this round's state says so.
            self.state = exhaust(self.state)
        self.record_round(dice, action, entry, before, turn.cross, turn.walk, turn.exit)
        self.row += 1

    def play(self, entry: RecordRound) -> None:
        want = entry.roll - 1 if entry.roll is not None else self.row
        if self.state.over:
            raise self.game_over(entry, want)
        if want < self.row:
            raise self.stop(
                "E103",
                f"round {entry.number} names roll {want + 1}, "
                f"but rolls up to {self.row} are already used",
                roll=want + 1,
                entry=entry,
                key="roll",
                hint=f"the next unused roll is {self.row + 1}",
            )
        # Skipped rows come first: a skipped playable row breaks the rules before a
        # round that names a row the dice file does not have.
        while self.row < min(want, len(self.rows)):
            if self.row == len(self.rows) - 1:
                # Using up the last row would end the game; it need only be skippable.
                self.check_skippable(entry)
                break
            self.skip(entry)
            if self.state.over:
                raise self.game_over(entry, want)
        if want >= len(self.rows):
            raise self.stop(
                "E104",
                f"round {entry.number} names roll {want + 1}, but the dice file has "
                f"{len(self.rows)} rolls",
                roll=want + 1,
                entry=entry,
                key="roll",
            )
        dice = self.rows[self.row]
        roll = self.row + 1
        if entry.dice is not None and sorted(entry.dice) != sorted(dice):
            raise self.stop(
                "E101",
                f"round {entry.number} gives the dice {_dice(entry.dice)}, but roll {roll} is "
                f"{_dice(dice)}",
                roll=roll,
                entry=entry,
                key="dice",
                hint=f"dice: [{', '.join(map(str, dice))}]",
            )
        action = _action(entry)
        if isinstance(action, Play) and entry.steps is not None:
            die = movement_die(dice, action.cross)
            if die is not None and die != entry.steps:
                raise self.stop(
                    "E102",
                    f"round {entry.number} gives steps {entry.steps}, but crossing out "
                    f"{action.cross} with {_dice(dice)} leaves the movement die {die}",
                    roll=roll,
                    entry=entry,
                    key="steps",
                    hint=f"steps: {die}",
                    failure=self.failure(dice, action),
                )
        try:
            self.advance(dice, action, entry)
        except IllegalAction as exc:
            raise self.stop(
                exc.code,
                exc.message,
                roll=roll,
                entry=entry,
                key=_KEY_OF_CODE.get(exc.code),
                hint=exc.hint,
                failure=self.failure(dice, action),
            ) from None

    def skip(self, entry: RecordRound) -> None:
        """Play a row the record skipped over: legal only as a forced reroll."""
        self.check_skippable(entry)
        self.advance(self.rows[self.row], Reroll(), None)

    def check_skippable(self, entry: RecordRound) -> None:
        dice = self.rows[self.row]
        crosses = available_crosses(self.state, dice)
        if crosses:
            raise self.stop(
                "E105",
                f"roll {self.row + 1} ({_dice(dice)}) is skipped, but it is not a forced reroll",
                roll=self.row + 1,
                entry=entry,
                key="roll",
                hint="it could cross out "
                + ", ".join(str(c.field) for c in crosses)
                + "; record a round for it",
                failure=self.failure(dice, None),
            )

    def game_over(self, entry: RecordRound, want: int) -> _Stop:
        end = self.state.end.value if self.state.end else "over"
        return self.stop(
            "E106",
            f"round {entry.number} is recorded after the game ended "
            f"({end} on roll {self.end_roll})",
            roll=want + 1,
            entry=entry,
            hint="remove the rounds after the end of the game",
        )

    def play_on(self) -> None:
        """After the record's last round: forced rerolls play themselves, and a roll with
        no cross-out that leaves a legal move ends the game."""
        while not self.state.over and self.row < len(self.rows):
            dice = self.rows[self.row]
            crosses = available_crosses(self.state, dice)
            if not crosses:
                self.advance(dice, Reroll(), None)
            elif not game_goes_on(self.state, dice, self.rules):
                self.advance(dice, Play(crosses[0].field), None)
            else:
                return

    def incomplete_warning(self) -> Diagnostic:
        dice = self.rows[self.row]
        options = [
            c
            for c in available_crosses(self.state, dice)
            if has_move(blocked_after(self.state, c.field), self.state.pos, c.die, self.rules)
        ]
        return Diagnostic(
            "W001",
            f"the record ends, but the game goes on: roll {self.row + 1} ({_dice(dice)}) "
            "can still be played",
            self.record.source,
            roll=self.row + 1,
            hint="cross-outs that leave a move: "
            + ", ".join(f"{c.field} (moves {c.die})" for c in options),
        )

    def failure(self, dice: Dice, action: Action | None) -> Failure:
        state = self.state
        crosses = available_crosses(state, dice)
        chosen = None
        reachable: dict[Field, tuple[Field, ...]] = {}
        exits: dict[Field, tuple[Field, ...]] = {}
        move = path = None
        if isinstance(action, Play):
            move, path = action.move, action.path
            chosen = next((c for c in crosses if c.field == action.cross), None)
            if chosen is not None:
                blocked = blocked_after(state, chosen.field)
                reachable = {
                    FIELD_AT[end]: tuple(FIELD_AT[i] for i in walk)
                    for end, walk in sorted(walks(blocked, state.pos, chosen.die).items())
                }
                if self.rules.can_leave:
                    exits = {
                        FIELD_AT[c]: tuple(FIELD_AT[i] for i in walk)
                        for c, walk in sorted(exit_walks(blocked, state.pos, chosen.die).items())
                    }
        return Failure(state, self.row + 1, dice, crosses, chosen, reachable, exits, move, path)


def _action(entry: RecordRound) -> Action:
    if entry.reroll:
        return Reroll()
    if entry.ring:
        return RingReroll()
    assert entry.cross is not None  # the record model requires it
    return Play(entry.cross, entry.move, entry.exit, entry.path)


def _dice(dice: Sequence[int]) -> str:
    return " ".join(str(d) for d in dice)
