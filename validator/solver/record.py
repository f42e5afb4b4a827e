"""The solver's games as records: replayed rounds and engine actions turned into
`RecordRound`s with roll, dice, steps and path on every round."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from validator.check.replay import RoundResult
from validator.engine import FIELD_AT, Action, Dice, Play, Reroll, RingReroll, Ruleset, State, apply
from validator.records.record import Record, RecordRound


def played_rounds(rounds: Iterable[RoundResult]) -> list[RecordRound]:
    """The rounds of a replay (its own rows included) as detailed record rounds."""
    out: list[RecordRound] = []
    for r in rounds:
        number = len(out) + 1
        base = RecordRound(number, 0, roll=r.roll, dice=r.dice)
        if r.kind == "reroll":
            out.append(_with(base, reroll=True))
        elif r.kind == "ring":
            out.append(_with(base, ring=True))
        else:
            assert r.cross is not None
            moved = r.kind != "stuck"
            out.append(
                _with(
                    base,
                    cross=r.cross.field,
                    move=r.move if r.kind == "play" else None,
                    exit=r.kind if r.kind in ("escape", "leave") else None,
                    steps=r.cross.die,
                    path=tuple(r.walk) if moved else None,
                )
            )
    return out


def action_rounds(
    rows: Sequence[Dice],
    rules: Ruleset,
    state: State,
    row: int,
    actions: Sequence[Action],
    first_number: int = 1,
) -> list[RecordRound]:
    """Engine actions played from `state` on row `row` (0-based) as record rounds."""
    out: list[RecordRound] = []
    for n, action in enumerate(actions):
        dice = rows[row + n]
        turn = apply(state, dice, action, rules)
        base = RecordRound(first_number + n, 0, roll=row + n + 1, dice=dice)
        if isinstance(action, Reroll):
            out.append(_with(base, reroll=True))
        elif isinstance(action, RingReroll):
            out.append(_with(base, ring=True))
        else:
            assert isinstance(action, Play) and turn.cross is not None
            moved = action.move is not None or action.exit is not None
            walk = tuple(FIELD_AT[i] for i in turn.walk or ())
            out.append(
                _with(
                    base,
                    cross=action.cross,
                    move=action.move if action.exit is None else None,
                    exit=action.exit,
                    steps=turn.cross.die,
                    path=walk if moved else None,
                )
            )
        state = turn.state
    return out


def game_record(
    rounds: Sequence[RecordRound],
    *,
    rings: int = 0,
    rules: str | None = None,
    claimed_score: int | None = None,
    dice_sha256: str | None = None,
    player: str | None = None,
) -> Record:
    numbered = tuple(_with(r, number=n) for n, r in enumerate(rounds, start=1))
    return Record(
        rounds=numbered,
        player=player,
        rules=rules,
        claimed_score=claimed_score,
        dice_sha256=dice_sha256,
        rings=rings,
    )


def _with(r: RecordRound, **changes: object) -> RecordRound:
    return replace(r, **changes)  # type: ignore[arg-type]
