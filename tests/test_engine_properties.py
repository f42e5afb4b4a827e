"""The engine's own invariants on random positions reached by random legal play.

Under every ruleset and expansion: `legal_actions` and `apply` agree, and random other
actions are refused exactly when a brute-force oracle (written here from the rules, by
coordinates, with no engine helper) says they are illegal; the walk searches agree with
each other and with a brute-force enumeration of walks; marks only grow; the game is over
exactly when no action is legal. The default run is small; the `slow` run plays more.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from itertools import product
from typing import Any, get_args

import pytest
from engine_oracle import CORNER_FIELDS, Options, crosses, neighbours
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from validator.engine import (
    OUTSIDE,
    Action,
    Dice,
    End,
    Exit,
    Field,
    IllegalAction,
    Part,
    Play,
    Reroll,
    RingReroll,
    Ruleset,
    State,
    apply,
    exit_walks,
    find_walk,
    game_goes_on,
    has_move,
    legal_actions,
    new_game,
    walk_fault,
    walks,
)
from validator.engine.game import any_walk
from validator.engine.phrase import Phrase
from validator.errors import CODES
from validator.rulesets import EXPANSIONS, resolve

# --- rulesets: every base with every combination of expansions -----------------------

EXPANSION_SPECS = {"escape": "escape=20", "rings": "rings=2", "in-and-out": "in-and-out"}
SPECS = [
    "+".join(
        [base, *(EXPANSION_SPECS[k] for k, on in zip(EXPANSION_SPECS, mask, strict=True) if on)]
    )
    for base in ("standard", "bga", "literal")
    for mask in product((False, True), repeat=len(EXPANSION_SPECS))
]
RULESETS = [resolve(spec) for spec in SPECS]


def test_every_expansion_is_played() -> None:
    assert set(EXPANSION_SPECS) == {x.key for x in EXPANSIONS}
    for x in EXPANSIONS:
        assert any(x.in_play(r) for r in RULESETS) and any(not x.in_play(r) for r in RULESETS)


# --- the oracle (tests/engine_oracle.py) -----------------------------------------


def may_leave(rules: Ruleset, kind: Exit) -> bool:
    return rules.escape_bonus is not None if kind == "escape" else rules.in_and_out


def oracle(state: State, dice: Dice, action: Action, rules: Ruleset) -> Part | None:
    """None when `action` is legal, else the part of the round that is wrong."""
    if state.end is not None:
        return "round"
    free = crosses(state, dice)
    if isinstance(action, Reroll):
        return "reroll" if free else None
    if isinstance(action, RingReroll):
        ok = rules.max_rings > 0 and state.rings_left > 0 and bool(free)
        return None if ok else "ring"
    if action.cross.index not in free:
        return "cross"
    blocked = state.crossed | state.circled | 1 << action.cross.index
    options = Options.of(blocked, state.pos, free[action.cross.index])
    can_leave = rules.escape_bonus is not None or rules.in_and_out
    if action.exit is not None:
        if not may_leave(rules, action.exit):
            return "move"
        if action.path is None:
            corners = {w[-1] if w else state.pos for w in options.exits}
            target = corners if action.move is None else {action.move.index}
            return None if corners & target else "move"
        path = tuple(f.index for f in action.path)
        corner = path[-1] if path else state.pos
        ok = path in options.exits and (action.move is None or action.move.index == corner)
        return None if ok else "path"
    if action.move is None:
        stuck = not options.moves and not (can_leave and options.exits)
        return None if stuck else "move"
    if action.path is None:
        return None if action.move.index in options.ends() else "move"
    path = tuple(f.index for f in action.path)
    ok = path in options.moves and path[-1] == action.move.index
    return None if ok else "path"


# --- random play ----------------------------------------------------------------------

ALL_DICE: list[Dice] = [(a, b, c) for a in range(1, 7) for b in range(1, 7) for c in range(1, 7)]
FIELDS = [Field(r, c) for r in range(1, 7) for c in range(1, 7)]


def play_positions(rules: Ruleset, seed: int, rounds: int) -> Iterator[tuple[State, Dice]]:
    """(position, next roll) along one random legal game; a few rolls favour low faces so
    that forced rerolls and stuck moves come up."""
    rng = random.Random(seed)
    # Rings even where the ruleset has none: the replay refuses such a record (E109), but
    # the engine must still agree with itself about them.
    rings = rng.randint(0, max(rules.max_rings, 1))
    state = new_game(rings)
    faces = rng.choice([[1, 2, 3, 4, 5, 6], [1, 2, 3], [1, 1, 2, 6]])
    for _ in range(rounds):
        dice: Dice = (rng.choice(faces), rng.choice(faces), rng.choice(faces))
        yield state, dice
        actions = legal_actions(state, dice, rules)
        if not actions:
            return
        state = apply(state, dice, rng.choice(actions), rules).state


def random_action(rng: random.Random, state: State, dice: Dice) -> Action:
    """Any action: often one close to legal, so that each refusal is reached."""
    roll = rng.random()
    if roll < 0.05:
        return Reroll()
    if roll < 0.1:
        return RingReroll()
    named = [Field(a, b) for a, b in ((dice[0], dice[1]), (dice[2], dice[0]), (dice[1], dice[2]))]
    cross = rng.choice(named) if rng.random() < 0.8 else rng.choice(FIELDS)
    exit: Exit | None = rng.choice([None, None, "escape", "leave"])
    move = rng.choice([*FIELDS, None])
    path: tuple[Field, ...] | None = None
    if rng.random() < 0.5:
        # A walk that wanders from where the burglar stands, sometimes through taken fields.
        cur = state.pos if state.pos != OUTSIDE else rng.choice(CORNER_FIELDS)
        walk = [] if state.pos != OUTSIDE else [cur]
        for _ in range(rng.randint(0, 6)):
            cur = rng.choice(neighbours(cur))
            walk.append(cur)
        path = tuple(FIELDS[i] for i in walk[: rng.randint(0, 7)])
        if path and rng.random() < 0.7:
            move = path[-1]
    if exit is None and move is None:
        path = None  # a "no move" claim with a path is the replay's ruling, not the engine's
    return Play(cross, move, exit, path)


# --- the invariants -------------------------------------------------------------------


def check_legal_and_apply_agree(state: State, dice: Dice, rules: Ruleset) -> None:
    actions = legal_actions(state, dice, rules)
    if state.end is not None:
        assert actions == []
        return
    for action in actions:
        assert oracle(state, dice, action, rules) is None, action
        turn = apply(state, dice, action, rules)
        assert turn.action == action
        if isinstance(action, Play):
            # The turn reports the walk it was given, the cross-out's die and the exit.
            assert turn.cross is not None and turn.cross.field == action.cross
            assert turn.cross.die == crosses(state, dice)[action.cross.index]
            assert turn.exit == action.exit
            if action.path is not None:
                assert turn.walk == tuple(f.index for f in action.path)
        if isinstance(action, Play) and action.exit is None and action.move is not None:
            # Without its path, the same move is legal and ends in the same state.
            bare = Play(action.cross, action.move)
            assert apply(state, dice, bare, rules).state == turn.state
    # Every legal outcome is listed: each free cross-out with each end and each exit.
    free = crosses(state, dice)
    plays = [a for a in actions if isinstance(a, Play)]
    for field, die in free.items():
        blocked = state.crossed | state.circled | 1 << field
        options = Options.of(blocked, state.pos, die)
        mine = [a for a in plays if a.cross.index == field]
        assert {
            a.move.index for a in mine if a.exit is None and a.move is not None
        } == options.ends()
        corners = {w[-1] if w else state.pos for w in options.exits}
        for kind in get_args(Exit):
            listed = {a.move.index for a in mine if a.exit == kind and a.move is not None}
            assert listed == (corners if may_leave(rules, kind) else set()), kind
    assert {a.cross.index for a in plays} == set(free)
    assert (Reroll() in actions) == (not free)
    assert (RingReroll() in actions) == (bool(free) and state.rings_left > 0 and rules.rings)


def check_refusals(rng: random.Random, state: State, dice: Dice, rules: Ruleset) -> None:
    for _ in range(12):
        action = random_action(rng, state, dice)
        want = oracle(state, dice, action, rules)
        try:
            apply(state, dice, action, rules)
        except IllegalAction as exc:
            assert want is not None, (action, exc.code, exc.message)
            assert exc.code in CODES and exc.message
            assert exc.part in get_args(Part)
            assert exc.part == want, (action, exc.code, exc.part, want)
        else:
            assert want is None, (action, want)


def check_walk_searches(blocked: int, start: int, steps: int, rules: Ruleset) -> None:
    options = Options.of(blocked, start, steps)
    found = walks(blocked, start, steps)
    assert set(found) == options.ends()
    for end, witness in found.items():
        assert witness in options.moves and witness[-1] == end
        assert walk_fault(blocked, start, witness, steps) is None
        path = find_walk(blocked, start, end, steps)
        assert path is not None and path in options.moves and path[-1] == end
        assert walk_fault(blocked, start, path, steps) is None
    for target in set(range(36)) - options.ends():
        assert find_walk(blocked, start, target, steps) is None, target
    assert any_walk(blocked, start, steps) == bool(options.moves)
    exits = exit_walks(blocked, start, steps)
    assert set(exits) == {w[-1] if w else start for w in options.exits}
    for corner, witness in exits.items():
        assert witness in options.exits and (witness[-1] if witness else start) == corner
        assert walk_fault(blocked, start, witness, steps, exit="escape") is None
    leaves = bool(options.exits) and (rules.escape_bonus is not None or rules.in_and_out)
    assert has_move(blocked, start, steps, rules) == (bool(options.moves) or leaves)
    # walk_fault accepts exactly the brute-force walks, on legal ones and on near misses.
    rng = random.Random(blocked ^ start ^ steps)
    every = sorted(options.moves | options.exits)
    for walk in rng.sample(every, min(len(every), 6)):
        kind: Exit | None = None if walk in options.moves else "leave"
        assert walk_fault(blocked, start, walk, steps, kind) is None
        bent = list(walk) or [start]
        bent[rng.randrange(len(bent))] = rng.randrange(36)
        for exit in (None, "leave"):
            legal = tuple(bent) in (options.moves if exit is None else options.exits)
            assert (walk_fault(blocked, start, bent, steps, exit) is None) == legal, (bent, exit)


def check_position(state: State, dice: Dice, rules: Ruleset, rng: random.Random) -> None:
    check_legal_and_apply_agree(state, dice, rules)
    check_refusals(rng, state, dice, rules)
    goes_on = False
    for field, die in crosses(state, dice).items():
        blocked = state.crossed | state.circled | 1 << field
        check_walk_searches(blocked, state.pos, die, rules)
        options = Options.of(blocked, state.pos, die)
        goes_on |= bool(options.moves) or (rules.can_leave and bool(options.exits))
    assert game_goes_on(state, dice, rules) == goes_on


def check_game(rules: Ruleset, seed: int, rounds: int, dice_per_state: int) -> None:
    rng = random.Random(seed)
    before: State | None = None
    for state, dice in play_positions(rules, seed, rounds):
        if before is not None:
            # Marks only grow; counts only go one way.
            assert state.crossed & before.crossed == before.crossed
            assert state.circled & before.circled == before.circled
            assert state.passes >= before.passes
            assert state.rings_left <= before.rings_left
        before = state
        assert state.pos == OUTSIDE or state.circled >> state.pos & 1
        # Forced rerolls end the game exactly when the ruleset's count reaches its limit.
        counted = state.passes_in_row if rules.pass_counting == "in-a-row" else state.passes
        assert (state.end is End.REROLLS) == (counted >= rules.pass_limit)
        check_position(state, dice, rules, rng)
        # Over exactly when no action is legal, whatever the roll.
        for other in rng.sample(ALL_DICE, dice_per_state):
            assert (legal_actions(state, other, rules) == []) == (state.end is not None)
        if state.end is not None:
            with pytest.raises(IllegalAction) as caught:
                apply(state, dice, Reroll(), rules)
            assert caught.value.code == "E106" and caught.value.part == "round"


@st.composite
def blocked_positions(draw: st.DrawFn) -> tuple[int, int, int]:
    """(blocked fields, start, steps) that need not come from play: denser boards."""
    density = draw(st.sampled_from([0.0, 0.2, 0.4, 0.6]))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = random.Random(seed)
    blocked = sum(1 << i for i in range(36) if rng.random() < density)
    start = draw(st.sampled_from([OUTSIDE, *range(36)]))
    if start != OUTSIDE:
        blocked |= 1 << start  # where the burglar stands has its circle
    return blocked, start, draw(st.integers(1, 6))


# --- the tests: a small default run and a heavier `slow` one --------------------------

seeds = st.integers(0, 2**32 - 1)
rulesets = st.sampled_from(RULESETS)


def _settings(examples: int) -> Callable[[Any], Any]:
    return settings(
        max_examples=examples, deadline=None, suppress_health_check=[HealthCheck.too_slow]
    )


@_settings(12)
@given(rules=rulesets, seed=seeds)
def test_random_games(rules: Ruleset, seed: int) -> None:
    check_game(rules, seed, rounds=12, dice_per_state=2)


@_settings(40)
@given(position=blocked_positions(), rules=rulesets)
def test_walk_searches_on_any_board(position: tuple[int, int, int], rules: Ruleset) -> None:
    check_walk_searches(*position, rules)


def test_random_actions_reach_every_refusal() -> None:
    """The refusal check above is not vacuous: its random actions hit every part."""
    rules = resolve("standard+escape=5+rings=1+in-and-out")
    seen: set[str] = set()
    rng = random.Random(7)
    for seed in range(6):
        for state, dice in play_positions(rules, seed, 20):
            for _ in range(12):
                try:
                    apply(state, dice, random_action(rng, state, dice), rules)
                except IllegalAction as exc:
                    seen.add(exc.code)
    assert {_part(c) for c in seen} == set(get_args(Part))
    assert {"E202", "E203", "E205", "E206", "E207", "E209", "E212"} <= seen


def test_rings_left_without_the_expansion_are_no_legal_action() -> None:
    """A state with rings under a ruleset without them: `apply` refuses the ring (E211), so
    `legal_actions` must not offer it (it did before this test)."""
    rules = resolve("standard")
    state = new_game(rings=2)
    assert RingReroll() not in legal_actions(state, (1, 2, 3), rules)
    with pytest.raises(IllegalAction, match="needs The magic rings"):
        apply(state, (1, 2, 3), RingReroll(), rules)
    assert RingReroll() in legal_actions(state, (1, 2, 3), resolve("standard+rings=2"))


def _part(code: str) -> str:
    return IllegalAction(code, Phrase("")).part


@pytest.mark.slow
@_settings(200)
@given(rules=rulesets, seed=seeds)
def test_random_games_long(rules: Ruleset, seed: int) -> None:
    check_game(rules, seed, rounds=40, dice_per_state=12)


@pytest.mark.slow
@_settings(1500)
@given(position=blocked_positions(), rules=rulesets)
def test_walk_searches_on_any_board_long(position: tuple[int, int, int], rules: Ruleset) -> None:
    check_walk_searches(*position, rules)
