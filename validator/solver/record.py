"""The solver's games as records: replayed rounds and engine actions turned into
`RecordRound`s with roll, dice, steps and path on every round (through the one
translator, `validator.records.rounds.record_round`)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from validator.check.replay import Result, RoundResult, Rows
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


def continued_record(
    rows: Sequence[Dice],
    dice_sha256: str,
    rules: Ruleset,
    prefix: Result | None,
    actions: Sequence[Action],
    best: int,
) -> Record:
    """The solver's best game as a record: the rounds of the partial record `prefix` (its
    player and rings kept), then `actions` played from where it ended, claiming `best`."""
    from validator.engine import new_game
    from validator.rulesets import record_name

    state = prefix.final if prefix is not None else None
    if state is None:
        state = new_game(rules.max_rings)
    row = len(prefix.rounds) if prefix is not None else 0
    rounds = played_rounds(prefix.rounds) if prefix is not None else []
    rounds += action_rounds(rows, rules, state, row, actions, len(rounds) + 1)
    kept = prefix.record if prefix is not None else None
    return game_record(
        rounds,
        rings=kept.rings if kept is not None else rules.max_rings,
        rules=record_name(rules),
        claimed_score=best,
        dice_sha256=dice_sha256,
        player=kept.player if kept is not None else None,
    )
