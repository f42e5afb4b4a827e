"""The one translation between record rounds and engine actions, both ways.

`to_action` is what a record round asks the engine to do; `record_round` writes an
action that was played (with the walk it took) as a record round. Every game that
becomes a record (a replay, a solver line, a random playout, a game played in the TUI)
goes through `record_round`.
"""

from __future__ import annotations

from dataclasses import replace

from validator.engine import Action, Dice, Field, Play, Reroll, RingReroll
from validator.records.record import RecordRound


def to_action(entry: RecordRound) -> Action:
    """The engine action a record round stands for (pure: no rule is checked here)."""
    if entry.reroll:
        return Reroll()
    if entry.ring:
        return RingReroll()
    assert entry.cross is not None  # the record model requires it
    return Play(entry.cross, entry.move, entry.exit, entry.path)


def record_round(
    number: int,
    action: Action,
    *,
    walk: tuple[Field, ...] = (),
    roll: int | None = None,
    dice: Dice | None = None,
    steps: int | None = None,
    details: bool = True,
) -> RecordRound:
    """The record round of a played `action`: a reroll, a ring, or a cross-out with its
    move or exit. With `details`, also the roll, the dice, the steps and the path `walk`
    (a move that leaves the board names its exit; the path says which corner)."""
    if not details:
        roll = dice = steps = None
    base = RecordRound(number, 0, roll=roll, dice=dice)
    if isinstance(action, Reroll):
        return _with(base, reroll=True)
    if isinstance(action, RingReroll):
        return _with(base, ring=True)
    moved = action.move is not None or action.exit is not None
    return _with(
        base,
        cross=action.cross,
        move=action.move if action.exit is None else None,
        exit=action.exit,
        steps=steps,
        path=walk if details and moved else None,
    )


def _with(r: RecordRound, **changes: object) -> RecordRound:
    return replace(r, **changes)  # type: ignore[arg-type]
