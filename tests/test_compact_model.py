"""The solver's compact model against the engine on random positions, under every ruleset
and expansion: the same legal cross-outs and destinations (each engine action is one
compact action code), the same end of the game, and the same position and score gain
after each action. The positions are drawn at random, not played to: any board a game
could hold, with any pass count and rings left, on any dice row (the last one too).
The compiled core (road300[fast]) is held to the same expectations in the slow step."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import pytest
from test_solver import RULESETS
from tiers import examples

from validator.engine import (
    OUTSIDE,
    Action,
    Dice,
    Reroll,
    RingReroll,
    Ruleset,
    State,
    apply_row,
    counted_passes,
    legal_actions,
    score,
)
from validator.engine.board import FIELDS
from validator.solver.position import ESCAPE, LEAVE, MOVE, NOWHERE, PASS, RING, STUCK, Game

Position = tuple[int, int, int, int, int]
Child = tuple[int, int, Position | None]
"""(action code, score gain, position after it, or None when the game ends)."""


def random_state(rng: random.Random, rules: Ruleset) -> State:
    """A position a game could hold: taken fields, the burglar on one of its circles (or
    off the board), every other circle crossed out (it was a start field), a pass count
    below the limit and the rings left."""
    density = rng.random() * 0.9
    taken = {i for i in range(FIELDS) if rng.random() < density}
    circled = {i for i in taken if rng.random() < 0.5}
    pos = rng.choice(sorted(circled)) if circled and rng.random() < 0.85 else OUTSIDE
    crossed = taken - {pos}
    counted = rng.randrange(rules.pass_limit)
    other = (
        rng.randrange(counted + 1) if rules.pass_counting == "total" else counted + rng.randrange(4)
    )
    in_row, passes = (other, counted) if rules.pass_counting == "total" else (counted, other)
    return State(
        crossed=sum(1 << i for i in crossed),
        circled=sum(1 << i for i in circled),
        pos=pos,
        passes=passes,
        passes_in_row=in_row,
        rings_left=rng.randint(0, rules.max_rings),
    )


def code_of(action: Action) -> int:
    """The compact action code of an engine action (written out here from the codes'
    definition, not taken from the solver's translation)."""
    if isinstance(action, Reroll):
        return PASS
    if isinstance(action, RingReroll):
        return RING
    cross = action.cross.index * 37
    if action.exit is not None:
        return (ESCAPE if action.exit == "escape" else LEAVE) * 1369 + cross + NOWHERE
    if action.move is None:
        return STUCK * 1369 + cross + NOWHERE
    return MOVE * 1369 + cross + action.move.index


def engine_children(state: State, rows: Sequence[Dice], row: int, rules: Ruleset) -> set[Child]:
    """Every engine action of the row as (code, gain, compact position after it)."""
    found: set[Child] = set()
    for action in legal_actions(state, rows[row], rules):
        after = apply_row(state, rows, row, action, rules).state
        child: Position | None = None
        if not after.over:
            pos = NOWHERE if after.pos == OUTSIDE else after.pos
            taken = after.crossed | after.circled
            child = (taken, pos, counted_passes(after, rules), after.rings_left, row + 1)
        found.add((code_of(action), score(after, rules) - score(state, rules), child))
    return found


def python_children(game: Game, position: Position) -> set[Child]:
    return {
        (code, gain, None if child is None or child[4] >= game.n else child)
        for code, gain, child in game.children(*position)
    }


def compare(
    rules: Ruleset, count: int, seed: int, children: Callable[[Game, Position], set[Child]]
) -> None:
    rng = random.Random(seed)
    rows = [(rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6)) for _ in range(12)]
    game = Game(rows, rules)
    kinds: set[int] = set()
    for _ in range(count):
        state = random_state(rng, rules)
        row = rng.randrange(len(rows))
        pos = NOWHERE if state.pos == OUTSIDE else state.pos
        taken = state.crossed | state.circled
        position = (taken, pos, counted_passes(state, rules), state.rings_left, row)
        expected = engine_children(state, rows, row, rules)
        assert children(game, position) == expected, (rules.name, state, rows[row], row)
        kinds |= {code // 1369 if code >= 1369 else code for code, _, _ in expected}
    # The positions drew every kind of action the ruleset has.
    want = {PASS, MOVE, STUCK}
    want |= {RING} if rules.rings else set()
    want |= {ESCAPE} if rules.escape else set()
    want |= {LEAVE} if rules.in_and_out else set()
    assert kinds == want


@pytest.mark.parametrize("count", examples(120, 1500))
@pytest.mark.parametrize("rules", RULESETS, ids=lambda r: r.name)
def test_compact_model_is_the_engine_on_random_positions(rules: Ruleset, count: int) -> None:
    compare(rules, count, 36, python_children)


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULESETS, ids=lambda r: r.name)
def test_compiled_core_is_the_engine_on_random_positions(rules: Ruleset) -> None:
    np = pytest.importorskip("numpy")
    compiled = pytest.importorskip("validator.solver.core")
    out = np.zeros((compiled.MAX_CHILDREN, compiled.W_COLUMNS), dtype=np.int64)
    cores: dict[int, object] = {}

    def core_children(game: Game, position: Position) -> set[Child]:
        core = cores.setdefault(
            id(game), compiled.Core(game, tt_limit=1 << 12, symmetry=True, exact_depth=6)
        )
        *state, row = position
        count = compiled.children(*state, row, core.P, core.CF, core.CD, core.CC, out)  # type: ignore[attr-defined]
        found: set[Child] = set()
        for i in range(count):
            columns = (compiled.W_TAKEN, compiled.W_POS, compiled.W_PC, compiled.W_RINGS)
            taken, pos, pc, rings = (int(out[i, c]) for c in columns)
            child = None if out[i, compiled.W_END] else (taken, pos, pc, rings, row + 1)
            found.add((int(out[i, compiled.W_CODE]), int(out[i, compiled.W_GAIN]), child))
        return found

    compare(rules, 600, 37, core_children)
