"""An oracle written from the rules (RULINGS.md), by coordinates, with no engine helper:
the walks, the exits and the cross-outs a position allows, by brute force. The engine's
tests compare the engine, and what the replay carries, with it."""

from __future__ import annotations

from dataclasses import dataclass

from validator.engine import OUTSIDE, Dice, End, Ruleset, State

CORNER_FIELDS = (0, 5, 30, 35)


def neighbours(i: int) -> list[int]:
    row, col = divmod(i, 6)
    out = []
    for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
        if 0 <= r < 6 and 0 <= c < 6:
            out.append(r * 6 + c)
    return out


def all_walks(blocked: int, start: int, steps: int) -> set[tuple[int, ...]]:
    """Every legal walk of 1..`steps` fields: orthogonal steps, never onto a blocked field,
    the start field or a field entered before; from outside, the first field is a corner."""
    out: set[tuple[int, ...]] = set()

    def extend(path: tuple[int, ...]) -> None:
        if path:
            out.add(path)
        if len(path) == steps:
            return
        if path:
            options = neighbours(path[-1])
        else:
            options = list(CORNER_FIELDS) if start == OUTSIDE else neighbours(start)
        for nxt in options:
            if not blocked >> nxt & 1 and nxt != start and nxt not in path:
                extend((*path, nxt))

    extend(())
    return out


@dataclass(frozen=True)
class Options:
    """What one cross-out allows, by brute force: full walks, and exits (walks to a corner;
    the empty walk when standing on a corner)."""

    moves: set[tuple[int, ...]]
    exits: set[tuple[int, ...]]

    @classmethod
    def of(cls, blocked: int, start: int, steps: int) -> Options:
        every = all_walks(blocked, start, steps)
        exits = {w for w in every if w[-1] in CORNER_FIELDS}
        if start in CORNER_FIELDS:
            exits.add(())
        return cls({w for w in every if len(w) == steps}, exits)

    def ends(self) -> set[int]:
        return {w[-1] for w in self.moves}


def crosses(state: State, dice: Dice) -> dict[int, int]:
    """Field index -> movement die, for the fields a pair of the dice names that are free."""
    out: dict[int, int] = {}
    for i, j in ((0, 1), (0, 2), (1, 2)):
        rest = dice[3 - i - j]
        for r, c in ((dice[i], dice[j]), (dice[j], dice[i])):
            field = (r - 1) * 6 + (c - 1)
            if not (state.crossed | state.circled) >> field & 1:
                out[field] = rest
    return out


VALUES = (
    *(30, 25, 20, 20, 25, 30),
    *(25, 15, 10, 10, 15, 25),
    *(20, 10, 5, 5, 10, 20),
    *(20, 10, 5, 5, 10, 20),
    *(25, 15, 10, 10, 15, 25),
    *(30, 25, 20, 20, 25, 30),
)
"""The fields' values, row by row (RULINGS.md)."""


def score(state: State, rules: Ruleset) -> int:
    """The circled fields' values (`literal`: only those with an X too), and the escape
    bonus when the burglar escaped."""
    counted = state.circled & state.crossed if rules.scoring == "crossed-circles" else state.circled
    total = sum(v for i, v in enumerate(VALUES) if counted >> i & 1)
    if state.end is End.ESCAPED and rules.escape_bonus is not None:
        total += rules.escape_bonus
    return total
