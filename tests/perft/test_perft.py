"""Perft: pinned counts of legal action sequences from fixed positions, as in chess.

`positions.perft` names positions (a dice file here, a ruleset, the rings declared and a
played prefix) and, for each depth, the number of legal action sequences over the next
rows of the dice file and the number of distinct states they reach. Any change in what
`legal_actions` generates, or in what `apply` makes of it, changes a number here.

Run `python tests/perft/test_perft.py [DEPTH]` to print the counts recomputed by the
engine, to depth DEPTH (default 2); that is how the table's numbers were made.
"""

from __future__ import annotations

import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from validator.engine import (
    Action,
    Dice,
    Play,
    Reroll,
    RingReroll,
    Ruleset,
    State,
    apply,
    legal_actions,
    new_game,
    parse_field,
)
from validator.rulesets import resolve

HERE = Path(__file__).resolve().parent
TABLE = HERE / "positions.perft"
SLOW_DEPTH = 2
"""Rows deeper than this take up to seconds each; they run with the `slow` tests."""


@dataclass
class Position:
    name: str
    line: int
    dice: str = ""
    rules: str = "standard"
    rings: int = 0
    prefix: list[str] = field(default_factory=list)
    counts: dict[int, tuple[int, int]] = field(default_factory=dict)


def read_table(text: str) -> list[Position]:
    """The blocks of `positions.perft`; a malformed line fails with its line number."""
    positions: list[Position] = []
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        key, _, value = line.partition(" ")
        value = value.strip()
        if key == "position":
            positions.append(Position(value, n))
            continue
        assert positions, f"positions.perft:{n}: {key} before any `position`"
        p = positions[-1]
        if key == "dice":
            p.dice = value
        elif key == "rules":
            p.rules = value
        elif key == "rings":
            p.rings = int(value)
        elif key == "prefix":
            p.prefix = [r.strip() for r in value.split(";") if r.strip()]
        elif key == "perft":
            depth, actions, states = (int(x) for x in value.split())
            p.counts[depth] = (actions, states)
        else:
            raise AssertionError(f"positions.perft:{n}: unknown key {key!r}")
    return positions


def read_dice(name: str) -> list[Dice]:
    """A plain dice file: three faces a line, `#` comments."""
    rows: list[Dice] = []
    for raw in (HERE / name).read_text().splitlines():
        faces = [int(x) for x in raw.split("#", 1)[0].split()]
        if faces:
            a, b, c = faces
            rows.append((a, b, c))
    return rows


def parse_round(text: str) -> Action:
    """`CROSS MOVE`, `CROSS -` (no move), `CROSS escape|leave CORNER`, `reroll` or `ring`."""
    words = text.split()
    if words == ["reroll"]:
        return Reroll()
    if words == ["ring"]:
        return RingReroll()
    cross = parse_field(words[0])
    if len(words) == 3 and words[1] in ("escape", "leave"):
        return Play(
            cross, parse_field(words[2]), exit="escape" if words[1] == "escape" else "leave"
        )
    assert len(words) == 2, f"not a round: {text!r}"
    return Play(cross, None if words[1] == "-" else parse_field(words[1]))


def start(p: Position) -> tuple[State, list[Dice], Ruleset]:
    """The position after its prefix, the dice rows still to come, and its ruleset."""
    rules = resolve(p.rules)
    rows = read_dice(p.dice)
    state = new_game(p.rings)
    for dice, text in zip(rows, p.prefix, strict=False):
        state = apply(state, dice, parse_round(text), rules).state
    return state, rows[len(p.prefix) :], rules


def perft(state: State, rows: list[Dice], depth: int, rules: Ruleset) -> tuple[int, int]:
    """(action sequences of exactly `depth` rounds, distinct states they reach).

    Sequences that reach the same state are merged with their multiplicity, so the count
    of sequences stays exact without walking each one.
    """
    level: Counter[State] = Counter({state: 1})
    for dice in rows[:depth]:
        nxt: Counter[State] = Counter()
        for s, ways in level.items():
            for action in legal_actions(s, dice, rules):
                nxt[apply(s, dice, action, rules).state] += ways
        level = nxt
    if len(rows) < depth:
        level = Counter()
    return sum(level.values()), len(level)


POSITIONS = read_table(TABLE.read_text())
CASES = [
    pytest.param(
        p,
        depth,
        id=f"{p.name}-{depth}",
        marks=[pytest.mark.slow] if depth > SLOW_DEPTH else [],
    )
    for p in POSITIONS
    for depth in sorted(p.counts)
]


@pytest.mark.parametrize(("position", "depth"), CASES)
def test_perft(position: Position, depth: int) -> None:
    state, rows, rules = start(position)
    assert perft(state, rows, depth, rules) == position.counts[depth]


def test_table_covers_every_expansion_and_ruleset() -> None:
    from validator.engine import RULESETS
    from validator.rulesets import EXPANSIONS

    rules = [resolve(p.rules) for p in POSITIONS]
    for x in EXPANSIONS:
        assert any(x.in_play(r) for r in rules), x.key
    bases = {p.rules.split("+")[0] for p in POSITIONS}
    assert bases == set(RULESETS)


def brute_depth_one(state: State, dice: Dice, rules: Ruleset) -> tuple[int, int]:
    """Perft 1 counted from the rules by brute force, without the engine's move generation:
    (actions, distinct states), where every exit of one kind leads to the same state (the
    corner left through is not marked) and every other action to its own."""
    if state.end is not None:
        return 0, 0
    taken = state.crossed | state.circled
    free: dict[int, int] = {}
    for i, j in ((0, 1), (0, 2), (1, 2)):
        for r, c in ((dice[i], dice[j]), (dice[j], dice[i])):
            if not taken >> ((r - 1) * 6 + c - 1) & 1:
                free[(r - 1) * 6 + c - 1] = dice[3 - i - j]
    if not free:
        return 1, 1
    ring = int(state.rings_left > 0 and rules.max_rings > 0)
    kinds = int(rules.escape_bonus is not None) + int(rules.in_and_out)
    actions = states = ring
    for cross, die in free.items():
        blocked = taken | 1 << cross
        walks = _walks(blocked, state.pos, die)
        ends = {w[-1] for w in walks if len(w) == die}
        corners = {w[-1] for w in walks if w[-1] in (0, 5, 30, 35)}
        corners |= {state.pos} & {0, 5, 30, 35}
        exits = kinds * len(corners)
        actions += len(ends) + exits or 1
        states += len(ends) + (kinds if corners else 0) or 1
    return actions, states


def _walks(blocked: int, start: int, steps: int) -> set[tuple[int, ...]]:
    """Every walk of 1..steps fields: orthogonal, onto free fields, none twice, not back
    to the start; from outside (start -1) the first field is a corner."""
    out: set[tuple[int, ...]] = set()
    todo: list[tuple[int, ...]] = [()]
    while todo:
        path = todo.pop()
        if path:
            out.add(path)
        if len(path) == steps:
            continue
        here = path[-1] if path else start
        if here < 0:
            options = [0, 5, 30, 35]
        else:
            row, col = divmod(here, 6)
            near = ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1))
            options = [r * 6 + c for r, c in near if 0 <= r < 6 and 0 <= c < 6]
        todo.extend(
            (*path, n) for n in options if not blocked >> n & 1 and n != start and n not in path
        )
    return out


@pytest.mark.parametrize("position", POSITIONS, ids=[p.name for p in POSITIONS])
def test_depth_one_agrees_with_brute_force(position: Position) -> None:
    state, rows, rules = start(position)
    assert brute_depth_one(state, rows[0], rules) == position.counts[1]


if __name__ == "__main__":
    deepest = int(sys.argv[1]) if len(sys.argv) > 1 else SLOW_DEPTH
    for p in POSITIONS:
        state, rows, rules = start(p)
        print(f"position {p.name}")
        for depth in range(1, deepest + 1):
            actions, states = perft(state, rows, depth, rules)
            print(f"perft {depth} {actions} {states}")
