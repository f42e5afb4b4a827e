"""The solver's games as records: replayed rounds and engine actions turned into
`RecordRound`s with roll, dice, steps and path on every round (through the one
translator, `validator.records.rounds.record_round`)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from validator.check.replay import RoundResult, Rows
from validator.engine import Action, Dice, Ruleset, State
from validator.records.record import Record, RecordRound
from validator.records.rounds import record_round


def played_rounds(rounds: Iterable[RoundResult], first_number: int = 1) -> list[RecordRound]:
    """The rounds of a replay (its own rows included) as detailed record rounds."""
    return [
        record_round(
            n,
            r.played,
            walk=r.walk,
            roll=r.roll,
            dice=r.dice,
            steps=r.cross.die if r.cross is not None else None,
        )
        for n, r in enumerate(rounds, start=first_number)
    ]


def action_rounds(
    rows: Sequence[Dice],
    rules: Ruleset,
    state: State,
    row: int,
    actions: Sequence[Action],
    first_number: int = 1,
) -> list[RecordRound]:
    """Engine actions played from `state` on row `row` (0-based) as record rounds; raises
    IllegalAction when one breaks the rules."""
    cursor = Rows(rows, rules, state.rings_left, start=state, row=row)
    for action in actions:
        refusal = cursor.play(action)
        if refusal is not None:
            raise refusal
    return played_rounds(cursor.done, first_number)


def game_record(
    rounds: Sequence[RecordRound],
    *,
    rings: int = 0,
    rules: str | None = None,
    claimed_score: int | None = None,
    dice_sha256: str | None = None,
    player: str | None = None,
) -> Record:
    numbered = tuple(replace(r, number=n) for n, r in enumerate(rounds, start=1))
    return Record(
        rounds=numbered,
        player=player,
        rules=rules,
        claimed_score=claimed_score,
        dice_sha256=dice_sha256,
        rings=rings,
    )
