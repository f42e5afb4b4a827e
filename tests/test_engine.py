"""Engine tables: positions with their exact cross-outs, reachable fields and end states.

Every expected value here was worked out by hand from RULINGS.md, not read off the engine.
Fields are written "row/col"; a position is (crossed, circled, where the burglar stands).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from itertools import product

import pytest

from validator.engine import (
    BGA,
    EXITS,
    LITERAL,
    OUTSIDE,
    STANDARD,
    Action,
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
    candidates,
    counted_passes,
    exit_kinds,
    find_walk,
    forced_rerolls,
    game_goes_on,
    legal_actions,
    movement_die,
    new_game,
    parse_field,
    score,
    walk_fault,
    walks,
)


def f(text: str) -> Field:
    return parse_field(text)


def fields(text: str) -> set[Field]:
    return {f(t) for t in text.split()}


def mask(text: str) -> int:
    return sum(1 << field.index for field in fields(text))


ALL = " ".join(f"{r}/{c}" for r in range(1, 7) for c in range(1, 7))


def position(crossed: str = "", circled: str = "", at: str = "", *, free: str = "") -> State:
    """A state built directly; `free` instead crosses out every field but these and `at`."""
    if free:
        crossed = " ".join(str(x) for x in fields(ALL) - fields(free) - fields(at))
    pos = f(at).index if at else OUTSIDE
    return State(crossed=mask(crossed), circled=mask(circled) | mask(at), pos=pos)


def why_not(
    blocked: int, start: int, path: Sequence[int], die: int, exit: Exit | None = None
) -> str | None:
    """Why `path` is not a legal walk of the movement die (English), or None when it is."""
    fault = walk_fault(blocked, start, path, die, exit)
    return None if fault is None else str(fault[0])


def played(*turns: tuple[Dice, Action], rules: Ruleset = STANDARD) -> State:
    state = new_game()
    for dice, action in turns:
        state = apply(state, dice, action, rules).state
    return state


# After roll 1 (2 1 1): 2/1 crossed out, the 1 enters at corner 1/1.
AT_1_1 = position(crossed="2/1", at="1/1")
# Bent corridor: only 2/3, 2/4 and 3/4 are free around 3/3, and 6/6 to cross out.
POCKET = position(at="3/3", free="2/3 2/4 3/4 6/6")
# First move along row 1 only: every other field is taken but 6/6 (to cross out).
ROW_ONE = State(crossed=mask(ALL) & ~mask("1/1 1/2 1/3 1/4 1/5 1/6 6/6"))

# --- cross-outs -----------------------------------------------------------------------

CROSSES = [
    # (name, position, dice, available "field:movement die")
    ("two distinct pairs", new_game(), (2, 4, 5), "2/4:5 4/2:5 2/5:4 5/2:4 4/5:2 5/4:2"),
    ("triple", new_game(), (3, 3, 3), "3/3:3"),
    ("double ones", new_game(), (1, 1, 6), "1/1:6 1/6:1 6/1:1"),
    ("double twos", new_game(), (2, 2, 5), "2/2:5 2/5:2 5/2:2"),
    ("X and circle block", position("2/4", at="5/2"), (2, 4, 5), "4/2:5 2/5:4 4/5:2 5/4:2"),
    ("standing field", position(at="4/4"), (4, 4, 1), "4/1:4 1/4:4"),
    ("old start X+O", position("1/2", "1/2", at="2/2"), (1, 2, 3), "2/1:3 1/3:2 3/1:2 2/3:1 3/2:1"),
    ("forced reroll", position("3/3", at="1/1"), (3, 3, 3), ""),
    ("forced reroll pairs", position("6/6 6/1", at="1/6"), (6, 1, 6), ""),
]


def _crosses(text: str) -> set[tuple[Field, int]]:
    out = set()
    for item in text.split():
        name, die = item.split(":")
        out.add((f(name), int(die)))
    return out


@pytest.mark.parametrize(
    ("state", "dice", "expected"), [c[1:] for c in CROSSES], ids=[c[0] for c in CROSSES]
)
def test_available_crosses(state: State, dice: Dice, expected: str) -> None:
    got = {(c.field, c.die) for c in available_crosses(state, dice)}
    assert got == _crosses(expected)
    assert (legal_actions(state, dice) == [Reroll()]) == (not expected)


@pytest.mark.parametrize(
    ("dice", "field", "die"),
    [((2, 4, 5), "2/4", 5), ((2, 4, 5), "5/4", 2), ((2, 2, 5), "2/2", 5), ((2, 2, 5), "5/2", 2),
     ((1, 1, 6), "6/1", 1), ((1, 1, 6), "6/6", None), ((2, 4, 5), "2/2", None)],
)  # fmt: skip
def test_movement_die(dice: Dice, field: str, die: int | None) -> None:
    assert movement_die(dice, f(field)) == die


def test_candidates_name_each_field_once() -> None:
    assert [str(c.field) for c in candidates((6, 6, 6))] == ["6/6"]
    assert len(candidates((1, 2, 3))) == 6


def test_the_candidates_of_every_roll_from_a_cold_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every roll's candidates, computed afresh (not read from the cache a process fills
    once), as the oracle names them from the rules, in board order."""
    from engine_oracle import crosses

    from validator.engine import game

    monkeypatch.setattr(game, "_CANDIDATES", {})
    for dice in product(range(1, 7), repeat=3):
        expected = sorted(crosses(new_game(), (dice[0], dice[1], dice[2])).items())
        assert [(c.field.index, c.die) for c in candidates(dice)] == expected, dice


# --- reachable fields -----------------------------------------------------------------

REACH = [
    # (name, position, dice, cross, reachable fields)
    ("first move 1 ends on a corner", new_game(), (2, 1, 1), "2/1", "1/1 1/6 6/1 6/6"),
    ("own cross blocks a corner", new_game(), (1, 1, 6), "1/6", "1/1 6/1 6/6"),
    ("first move 2", new_game(), (3, 3, 2), "3/3", "1/2 2/1 1/5 2/6 5/1 6/2 5/6 6/5"),
    ("own cross blocks 1/2", new_game(), (1, 2, 2), "1/2", "2/1 1/5 2/6 5/1 6/2 5/6 6/5"),
    ("6 runs 5 past the corner", ROW_ONE, (6, 6, 6), "6/6", "1/1 1/6"),
    ("5 runs 4 past the corner", ROW_ONE, (6, 6, 5), "6/6", "1/5 1/2"),
    ("1 in a corridor", ROW_ONE, (6, 6, 1), "6/6", "1/1 1/6"),
    ("trapped by own cross", AT_1_1, (1, 2, 5), "1/2", ""),
    ("past the own cross 1/5", AT_1_1, (1, 2, 5), "1/5", "1/3 2/2"),
    ("past the own cross 5/1", AT_1_1, (1, 2, 5), "5/1", "1/3 2/2"),
    ("one step out", AT_1_1, (1, 2, 5), "2/5", "1/2"),
    ("start field never re-entered", position(at="3/3"), (6, 6, 2), "6/6",
     "1/3 5/3 3/1 3/5 2/2 2/4 4/2 4/4"),
    ("pocket 1", POCKET, (6, 6, 1), "6/6", "2/3 3/4"),
    ("pocket 2", POCKET, (6, 6, 2), "6/6", "2/4"),
    ("pocket 3 bends", POCKET, (6, 6, 3), "6/6", "2/3 3/4"),
    ("pocket 4 would revisit", POCKET, (6, 6, 4), "6/6", ""),
]  # fmt: skip


@pytest.mark.parametrize(
    ("state", "dice", "cross", "expected"), [r[1:] for r in REACH], ids=[r[0] for r in REACH]
)
def test_reachable(state: State, dice: Dice, cross: str, expected: str) -> None:
    die = movement_die(dice, f(cross))
    assert die is not None
    blocked = blocked_after(state, f(cross))
    ends = walks(blocked, state.pos, die)
    assert {Field.at(i) for i in ends} == fields(expected)
    for end, walk in ends.items():
        # Each witness is itself a legal walk; find_walk agrees on every field.
        assert walk_fault(blocked, state.pos, walk, die) is None
        assert walk[-1] == end
    for target in fields(ALL):
        assert (find_walk(blocked, state.pos, target.index, die) is not None) == (
            target in fields(expected)
        )
    moves: set[Field | None] = {
        a.move for a in legal_actions(state, dice) if isinstance(a, Play) and a.cross == f(cross)
    }
    expected_moves: set[Field | None] = set(fields(expected)) or {None}
    assert moves == expected_moves


def test_corridor_witness_walks() -> None:
    blocked = blocked_after(ROW_ONE, f("6/6"))
    ends = walks(blocked, OUTSIDE, 6)
    assert [Field.at(i) for i in ends[f("1/6").index]] == [f(f"1/{c}") for c in range(1, 7)]
    assert [Field.at(i) for i in ends[f("1/1").index]] == [f(f"1/{c}") for c in range(6, 0, -1)]


PATHS = [
    # (name, position, cross, die, path, problem or None)
    ("corner first", new_game(), "2/1", 1, "1/1", None),
    ("six from a corner", new_game(), "1/1", 6, "6/6 5/6 4/6 3/6 2/6 1/6", None),
    ("not at a corner", new_game(), "2/1", 1, "1/2", "must enter at a corner"),
    ("too long", new_game(), "2/1", 1, "1/1 1/2", "movement die is 1"),
    ("crossed corner", new_game(), "1/6", 1, "1/6", "has an X or a circle"),
    ("jump", AT_1_1, "1/5", 2, "1/2 2/3", "not next to it"),
    ("revisit", POCKET, "6/6", 3, "3/4 2/4 3/4", "second time"),
    ("back to start", POCKET, "6/6", 4, "3/4 2/4 2/3 3/3", "step 4 enters 3/3"),
    ("bend", POCKET, "6/6", 3, "3/4 2/4 2/3", None),
    ("through own cross", AT_1_1, "1/2", 5, "1/2 1/3 1/4 1/5 1/6", "has an X or a circle"),
]


@pytest.mark.parametrize(
    ("state", "cross", "die", "path", "problem"), [p[1:] for p in PATHS], ids=[p[0] for p in PATHS]
)
def test_walk_fault(state: State, cross: str, die: int, path: str, problem: str | None) -> None:
    walk = [f(t).index for t in path.split()]
    got = why_not(blocked_after(state, f(cross)), state.pos, walk, die)
    if problem is None:
        assert got is None
    else:
        assert got is not None and problem in got


# --- illegal actions ------------------------------------------------------------------

OVER = played(((2, 1, 1), Play(f("2/1"), f("1/1"))), ((1, 2, 5), Play(f("1/2"))))

ILLEGAL = [
    # (name, position, dice, action, code)
    ("reroll not forced", AT_1_1, (1, 2, 5), Reroll(), "E201"),
    ("cross not a pair", AT_1_1, (1, 2, 5), Play(f("3/4"), f("1/2")), "E202"),
    ("cross has an X", AT_1_1, (1, 2, 5), Play(f("2/1"), f("1/2")), "E203"),
    ("cross where standing", position(at="4/4"), (4, 4, 1), Play(f("4/4"), f("4/5")), "E203"),
    ("cross on forced row", position("3/3", at="1/1"), (3, 3, 3), Play(f("3/3"), f("1/2")), "E204"),
    ("unreachable", AT_1_1, (1, 2, 5), Play(f("1/5"), f("3/3")), "E205"),
    ("onto own cross", new_game(), (1, 1, 6), Play(f("1/6"), f("1/6")), "E205"),
    ("1 not to a corner", new_game(), (2, 1, 1), Play(f("2/1"), f("1/2")), "E205"),
    ("bad path", AT_1_1, (1, 2, 5), Play(f("1/5"), f("1/3"), path=(f("2/1"), f("1/3"))), "E206"),
    ("path elsewhere", AT_1_1, (1, 2, 5), Play(f("1/5"), f("2/2"), path=(f("1/2"), f("1/3"))),
     "E206"),
    ("no move claimed", AT_1_1, (1, 2, 5), Play(f("1/5")), "E207"),
    ("escape", AT_1_1, (1, 2, 5), Play(f("1/5"), exit="escape"), "E208"),
    ("ring", AT_1_1, (1, 2, 5), RingReroll(), "E211"),
    ("after the end", OVER, (3, 3, 3), Play(f("3/3"), f("3/4")), "E106"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("state", "dice", "action", "code"), [i[1:] for i in ILLEGAL], ids=[i[0] for i in ILLEGAL]
)
def test_illegal(state: State, dice: Dice, action: Action, code: str) -> None:
    with pytest.raises(IllegalAction) as caught:
        apply(state, dice, action)
    assert caught.value.code == code
    assert action not in legal_actions(state, dice)


def test_legal_actions_exact() -> None:
    got = {(a.cross, a.move) for a in legal_actions(AT_1_1, (1, 2, 5)) if isinstance(a, Play)}
    assert got == {
        (f("1/2"), None),
        (f("1/5"), f("1/3")),
        (f("1/5"), f("2/2")),
        (f("5/1"), f("1/3")),
        (f("5/1"), f("2/2")),
        (f("2/5"), f("1/2")),
        (f("5/2"), f("1/2")),
    }


# --- rounds and the end of the game ---------------------------------------------------


def test_start_field_gets_its_x() -> None:
    first = played(((2, 1, 1), Play(f("2/1"), f("1/1"))))
    assert first.mark(f("1/1")) == "O"
    assert first.mark(f("2/1")) == "X"
    second = apply(first, (1, 2, 5), Play(f("1/5"), f("1/3"))).state
    assert (second.mark(f("1/1")), second.mark(f("1/5")), second.mark(f("1/3"))) == ("XO", "X", "O")
    assert second.position == f("1/3")
    assert score(second) == 30 + 20


def test_no_move_ends_the_game() -> None:
    assert OVER.end is End.NO_MOVE
    # The cross-out still happens and the start field gets its X (step 3 of that round).
    assert OVER.mark(f("1/2")) == "X"
    assert OVER.mark(f("1/1")) == "XO"
    assert (score(OVER), score(OVER, LITERAL)) == (30, 30)
    assert legal_actions(OVER, (1, 2, 3)) == []


def test_game_goes_on() -> None:
    assert game_goes_on(AT_1_1, (1, 2, 5), STANDARD)
    # At 1/1 with 1/2 and 2/1 gone every roll leaves the burglar stuck.
    stuck = position("2/1 1/2", at="1/1")
    assert not game_goes_on(stuck, (3, 4, 5), STANDARD)
    assert not game_goes_on(position("3/3", at="1/1"), (3, 3, 3), STANDARD)


START = ((6, 6, 1), Play(f("6/6"), f("6/1")))
FORCED: tuple[Dice, Action] = ((6, 6, 6), Reroll())
PLAY_ON: tuple[Dice, Action] = ((1, 2, 3), Play(f("1/2"), f("5/1")))

PASSES = [
    # (name, ruleset, rounds after START, end)
    ("two in a row", STANDARD, [FORCED, FORCED], None),
    ("three in a row", STANDARD, [FORCED, FORCED, FORCED], End.REROLLS),
    ("broken row", STANDARD, [FORCED, FORCED, PLAY_ON, FORCED, FORCED], None),
    ("bga: third in total", BGA, [FORCED, FORCED, PLAY_ON, FORCED], End.REROLLS),
    ("bga: two", BGA, [FORCED, PLAY_ON, FORCED], None),
]


@pytest.mark.parametrize(
    ("rules", "rounds", "end"), [p[1:] for p in PASSES], ids=[p[0] for p in PASSES]
)
def test_forced_rerolls(
    rules: Ruleset, rounds: Sequence[tuple[Dice, Action]], end: End | None
) -> None:
    state = played(START, *rounds, rules=rules)
    assert state.end is end


@pytest.mark.parametrize(("rules", "counted"), [(STANDARD, 1), (BGA, 3)], ids=["standard", "bga"])
def test_counted_passes_are_the_ones_the_limit_counts(rules: Ruleset, counted: int) -> None:
    # Two forced rerolls, a played round, a third: one in a row, three in the game (which
    # ends a bga game).
    state = played(START, FORCED, FORCED, PLAY_ON, FORCED, rules=rules)
    assert (state.passes_in_row, state.passes) == (1, 3)
    assert counted_passes(state, rules) == counted


# After START: 6/6 and 6/1 are taken, so 6 6 6 is a forced reroll, 1 2 3 and 6 1 6 are not.
AUTOMATIC = [
    # (name, rows, rounds that play themselves, end)
    ("none on a playable row", [(1, 2, 3), (6, 6, 6)], 0, None),
    ("until a playable row", [(6, 6, 6), (6, 6, 6), (6, 1, 6), (6, 6, 6)], 2, None),
    ("until the game ends", [(6, 6, 6)] * 4 + [(1, 2, 3)], 3, End.REROLLS),
    ("until the rows run out", [(6, 6, 6), (6, 6, 6)], 2, End.DICE_EXHAUSTED),
]


@pytest.mark.parametrize(
    ("rows", "count", "end"), [a[1:] for a in AUTOMATIC], ids=[a[0] for a in AUTOMATIC]
)
def test_forced_rerolls_play_themselves(rows: list[Dice], count: int, end: End | None) -> None:
    state = played(START)
    turns = list(forced_rerolls(state, rows, 0))
    assert [t.action for t in turns] == [Reroll()] * count
    assert [t.state.passes_in_row for t in turns] == list(range(1, count + 1))
    last = turns[-1].state if turns else state
    assert last.end is end
    # From a later row, and never on a game that is over.
    assert len(list(forced_rerolls(state, [(1, 2, 3), *rows], 1))) == count
    assert list(forced_rerolls(replace(state, end=End.NO_MOVE), rows, 0)) == []


SCORES = [
    # (name, crossed, circled, end, standard score, literal score)
    ("one circle", "", "1/1", None, 30, 0),
    ("three circles", "1/1 2/1", "1/1 2/2 3/3", None, 50, 30),
    ("centre values", "", "3/3 3/4 4/3 4/4", None, 20, 0),
    ("whole board", "", ALL, None, 640, 0),
    ("last circle crossed", "1/1 1/3", "1/1 1/3", End.NO_MOVE, 50, 50),
]


@pytest.mark.parametrize(
    ("crossed", "circled", "end", "standard", "literal"),
    [s[1:] for s in SCORES],
    ids=[s[0] for s in SCORES],
)
def test_score(crossed: str, circled: str, end: End | None, standard: int, literal: int) -> None:
    state = State(crossed=mask(crossed), circled=mask(circled), end=end)
    assert (score(state), score(state, LITERAL)) == (standard, literal)


def test_a_path_that_lists_the_start_field_is_told_so() -> None:
    start = Field(1, 1).index
    problem = why_not(0, start, [start], 1, exit="escape")
    assert problem is not None and problem.startswith("step 1 stays on 1/1")
    assert "empty path" in problem


def test_a_round_on_the_last_row_ends_the_game_there() -> None:
    """`apply_row` is `apply` on a row, and on the file's last row the dice are exhausted."""
    from dataclasses import replace

    from validator.engine import End, apply_row

    rows = [(1, 4, 6), (2, 3, 5)]
    opening = legal_actions(new_game(), rows[0])[0]
    first = apply_row(new_game(), rows, 0, opening)
    assert first == apply(new_game(), rows[0], opening)
    assert not first.state.over
    action = legal_actions(first.state, rows[1])[0]
    last = apply_row(first.state, rows, 1, action)
    assert last.state.end is End.DICE_EXHAUSTED
    assert last.state == replace(apply(first.state, rows[1], action).state, end=End.DICE_EXHAUSTED)


def test_exit_kinds_are_the_rulesets_ways_to_leave() -> None:
    both = Ruleset(escape_bonus=20, in_and_out=True)
    assert exit_kinds(both) == EXITS
    assert exit_kinds(Ruleset(escape_bonus=0)) == ("escape",)
    assert exit_kinds(Ruleset(in_and_out=True)) == ("leave",)
    assert exit_kinds(STANDARD) == ()
    # legal_actions offers each corner once per kind, in that order.
    state = position(at="1/1", free="1/2 6/6")
    kinds = [a.exit for a in legal_actions(state, (6, 6, 1), both) if isinstance(a, Play)]
    assert [k for k in kinds if k is not None] == list(EXITS)


RING: tuple[Dice, Action] = ((1, 2, 3), RingReroll())


def test_a_ring_is_spent_once_and_breaks_a_run_of_passes() -> None:
    rings = Ruleset(name="standard+rings=2", max_rings=2)
    # A game starts with the rings the player declares: none unless told.
    assert RingReroll() not in legal_actions(new_game(), RING[0], rings)
    state = new_game(rings=2)
    for dice, action in (START, FORCED, FORCED, RING):
        state = apply(state, dice, action, rings).state
    # The ring is not a pass: the two passes before it no longer count in a row.
    assert (state.rings_left, state.passes, state.passes_in_row) == (1, 2, 0)
    for dice, action in (FORCED, FORCED):
        state = apply(state, dice, action, rings).state
    assert (state.passes, state.passes_in_row, state.end) == (4, 2, None)
    assert RingReroll() in legal_actions(state, RING[0], rings)
    state = apply(state, *RING, rings).state
    assert (state.rings_left, state.passes_in_row, state.end) == (0, 0, None)
    # No ring is left: spending one is refused, and it is no legal action.
    assert RingReroll() not in legal_actions(state, RING[0], rings)
    with pytest.raises(IllegalAction) as caught:
        apply(state, *RING, rings)
    assert (caught.value.code, caught.value.message) == ("E212", "no magic ring is left to spend")


# --- what a refusal says ---------------------------------------------------------------

ESCAPE = Ruleset(name="standard+escape=20", escape_bonus=20)
RINGS = Ruleset(name="standard+rings=1", max_rings=1)
CENTRE = position(at="3/3")
AVAILABLE = "1/2 (moves 5), 1/5 (moves 2), 2/5 (moves 1), 5/1 (moves 2), 5/2 (moves 1)"
REACH_2 = "with 1/5 crossed out, 2 steps reach: 1/3 (20), 2/2 (15)"

REFUSALS = [
    # (name, position, dice, action, ruleset, code, message, hint, the bad step)
    ("reroll not forced", AT_1_1, (1, 2, 5), Reroll(), STANDARD, "E201",
     "this roll is not a forced reroll: a field could be crossed out",
     f"available: {AVAILABLE}", None),
    ("not a pair", AT_1_1, (1, 2, 5), Play(f("3/4"), f("1/2")), STANDARD, "E202",
     "3/4 is not a pair of the dice 1 2 5",
     "available cross-outs: 1/2, 1/5, 2/5, 5/1, 5/2", None),
    ("has an X", AT_1_1, (1, 2, 5), Play(f("2/1"), f("1/2")), STANDARD, "E203",
     "2/1 cannot be crossed out: it already has an X",
     "available: 1/2, 1/5, 2/5, 5/1, 5/2", None),
    ("has a circle", position(circled="1/2", at="1/1"), (1, 2, 5), Play(f("1/2")), STANDARD,
     "E203", "1/2 cannot be crossed out: it already has a circle",
     "available: 1/5, 2/1, 2/5, 5/1, 5/2", None),
    ("has both", position("1/2", "1/2", at="2/2"), (1, 2, 3), Play(f("1/2")), STANDARD, "E203",
     "1/2 cannot be crossed out: it already has an X and a circle",
     "available: 1/3, 2/1, 2/3, 3/1, 3/2", None),
    ("stands there", position(at="4/4"), (4, 4, 1), Play(f("4/4"), f("4/5")), STANDARD, "E203",
     "4/4 cannot be crossed out: it is the field the burglar stands on",
     "available: 1/4, 4/1", None),
    ("forced row", position("3/3", at="1/1"), (3, 3, 3), Play(f("3/3"), f("1/2")), STANDARD,
     "E204", "no field can be crossed out with 3 3 3: this row is a forced reroll",
     "record the row as a reroll", None),
    ("unreachable", AT_1_1, (1, 2, 5), Play(f("1/5"), f("3/3")), STANDARD, "E205",
     "3/3 cannot be reached in exactly 2 steps", REACH_2, None),
    ("onto a mark", new_game(), (1, 1, 6), Play(f("1/6"), f("1/6")), STANDARD, "E205",
     "1/6 cannot be reached in exactly 1 step: 1/6 has an X or a circle",
     "with 1/6 crossed out, 1 step reaches: 1/1 (30), 6/1 (30), 6/6 (30)", None),
    ("no walk at all", AT_1_1, (1, 2, 5), Play(f("1/2"), f("1/3")), STANDARD, "E205",
     "1/3 cannot be reached in exactly 5 steps",
     "with 1/2 crossed out, the movement die 5 has no legal move", None),
    ("path onto an X", AT_1_1, (1, 2, 5), Play(f("1/5"), f("1/3"), path=(f("2/1"), f("1/3"))),
     STANDARD, "E206", "illegal path: step 1 enters 2/1, which has an X or a circle", REACH_2,
     f("2/1")),
    ("path elsewhere", AT_1_1, (1, 2, 5), Play(f("1/5"), f("2/2"), path=(f("1/2"), f("1/3"))),
     STANDARD, "E206", "illegal path: the path ends on 1/3, not on the move 2/2", REACH_2, None),
    ("path too long", AT_1_1, (1, 2, 5),
     Play(f("1/5"), f("1/4"), path=(f("1/2"), f("1/3"), f("1/4"))), STANDARD, "E206",
     "illegal path: the path has 3 steps, but the movement die is 2", REACH_2, f("1/4")),
    ("path jumps", AT_1_1, (1, 2, 5), Play(f("1/5"), f("2/3"), path=(f("1/2"), f("2/3"))),
     STANDARD, "E206", "illegal path: step 2 jumps from 1/2 to 2/3, which is not next to it",
     REACH_2, f("2/3")),
    ("path names the start", AT_1_1, (1, 2, 5), Play(f("2/5"), exit="escape", path=(f("1/1"),)),
     ESCAPE, "E206", "illegal path: step 1 stays on 1/1: a path lists the fields entered, not "
     "the field the burglar starts on (leaving from the corner it stands on is an empty path)",
     "corners to leave through: 1/1", f("1/1")),
    ("stuck, a short path", POCKET, (6, 6, 4), Play(f("6/6"), path=(f("3/4"), f("2/4"))),
     STANDARD, "E206", "illegal path: with 6/6 crossed out, the movement die 4 has no legal "
     "walk, so the round can have no path",
     "leave out the path: the game ends with this cross-out", None),
    ("path too short", AT_1_1, (1, 2, 5), Play(f("1/5"), f("1/2"), path=(f("1/2"),)), STANDARD,
     "E206", "illegal path: the path has 1 step, but the movement die is 2", REACH_2, None),
    ("path without a move", AT_1_1, (1, 2, 5), Play(f("1/2"), path=(f("1/2"),)), STANDARD,
     "E206", "illegal path: with 1/2 crossed out, the movement die 5 has no legal walk, so the "
     "round can have no path", "leave out the path: the game ends with this cross-out", f("1/2")),
    ("no move claimed", AT_1_1, (1, 2, 5), Play(f("1/5")), STANDARD, "E207",
     "the record makes no move, but the movement die 2 has a legal move",
     "reachable: 1/3 (20), 2/2 (15)", None),
    ("no move, an exit", AT_1_1, (1, 2, 1), Play(f("1/2")), ESCAPE, "E207",
     "the record makes no move, but the movement die 1 has a legal move",
     "an exit through a corner", None),
    ("escape not in play", AT_1_1, (1, 2, 5), Play(f("1/5"), exit="escape"), STANDARD, "E208",
     "leaving the board (escape) needs the Escape! expansion",
     "choose a ruleset that includes it, or record a move", None),
    ("leave not in play", AT_1_1, (1, 2, 5), Play(f("1/5"), exit="leave"), ESCAPE, "E208",
     "leaving the board (leave) needs the In and Out! expansion",
     "choose a ruleset that includes it, or record a move", None),
    ("no corner near", CENTRE, (1, 1, 6), Play(f("1/6"), exit="escape"), ESCAPE, "E209",
     "no free corner can be reached within 1 step",
     "with 1/6 crossed out, 1 step reaches: 2/3 (10), 3/2 (10), 3/4 (5), 4/3 (5)", None),
    ("not that corner", AT_1_1, (1, 2, 5), Play(f("1/5"), f("6/6"), exit="escape"), ESCAPE,
     "E209", "the burglar cannot leave through 6/6 within 2 steps",
     "corners to leave through: 1/1", None),
    ("no corner to name", CENTRE, (1, 1, 6), Play(f("1/6"), f("6/6"), exit="escape"), ESCAPE,
     "E209", "the burglar cannot leave through 6/6 within 1 step",
     "no corner can be left through within 1 step", None),
    ("exit path too long", AT_1_1, (1, 2, 5),
     Play(f("1/5"), exit="escape", path=(f("1/2"), f("1/3"), f("1/4"))), ESCAPE, "E206",
     "illegal path: the path has 3 steps, more than the movement die 2",
     "corners to leave through: 1/1", f("1/4")),
    ("exit without a path", CENTRE, (1, 1, 6), Play(f("1/6"), exit="escape", path=()), ESCAPE,
     "E206", "illegal path: an exit needs a path to a corner unless the burglar stands on one",
     "no corner can be left through within 1 step", None),
    ("exit off a corner", AT_1_1, (1, 2, 5), Play(f("2/5"), exit="escape", path=(f("1/2"),)),
     ESCAPE, "E206",
     "illegal path: the path ends on 1/2, but the burglar can only leave at a corner",
     "corners to leave through: 1/1", None),
    ("exit elsewhere", AT_1_1, (1, 2, 5), Play(f("2/5"), f("6/6"), exit="escape", path=()),
     ESCAPE, "E206", "illegal path: the path leaves at 1/1, not at 6/6",
     "corners to leave through: 1/1", None),
    ("ring not in play", AT_1_1, (1, 2, 5), RingReroll(), STANDARD, "E211",
     "a ring reroll needs The magic rings! expansion", "choose a ruleset with rings", None),
    ("ring on a forced row", replace(position("3/3", at="1/1"), rings_left=1), (3, 3, 3),
     RingReroll(), RINGS, "E213", "a ring cannot be spent on a forced reroll",
     "record this row as a forced reroll", None),
    ("after the end", OVER, (3, 3, 3), Play(f("3/3"), f("3/4")), STANDARD, "E106",
     "the game is already over (no-move)", "", None),
]  # fmt: skip


@pytest.mark.parametrize(
    ("state", "dice", "action", "rules", "code", "message", "hint", "step"),
    [r[1:] for r in REFUSALS],
    ids=[r[0] for r in REFUSALS],
)
def test_what_a_refusal_says(
    state: State,
    dice: Dice,
    action: Action,
    rules: Ruleset,
    code: str,
    message: str,
    hint: str,
    step: Field | None,
) -> None:
    with pytest.raises(IllegalAction) as caught:
        apply(state, dice, action, rules)
    refusal = caught.value
    assert (refusal.code, refusal.message, refusal.hint, refusal.step) == (
        code,
        message,
        hint,
        step,
    )
    assert (str(refusal.phrase), str(refusal.hint_phrase or "")) == (message, hint)


def test_leaving_the_board_breaks_a_run_of_passes() -> None:
    in_and_out = Ruleset(name="standard+in-and-out", in_and_out=True)
    leave: tuple[Dice, Action] = ((1, 2, 3), Play(f("1/2"), exit="leave"))
    state = played(START, FORCED, FORCED, leave, FORCED, FORCED, rules=in_and_out)
    # Standing on the corner 6/1, the burglar left there; two passes follow, not five.
    assert (state.pos, state.passes, state.passes_in_row, state.end) == (OUTSIDE, 4, 2, None)
    assert state.mark(f("6/1")) == "XO" and state.mark(f("1/2")) == "X"


def test_an_exit_without_a_path_takes_the_witness_walk() -> None:
    # From 2/2 the 2 reaches one corner, 1/1, through 1/2 or 2/1.
    turn = apply(position(at="2/2"), (3, 4, 2), Play(f("3/4"), exit="escape"), ESCAPE)
    assert turn.corner == f("1/1").index and turn.exit == "escape"
    assert turn.walk in {(f("1/2").index, f("1/1").index), (f("2/1").index, f("1/1").index)}
    assert turn.state.end is End.ESCAPED and score(turn.state, ESCAPE) == 15 + 20


def test_a_walk_never_returns_to_its_first_field() -> None:
    # From 3/3 only 3/4 and 3/5 are free: the 3 would have to step back onto 3/4.
    dead_end = position(at="3/3", free="3/4 3/5 6/6")
    assert not game_goes_on(dead_end, (6, 6, 3), STANDARD)
    assert apply(dead_end, (6, 6, 3), Play(f("6/6"))).state.end is End.NO_MOVE
    assert game_goes_on(dead_end, (6, 6, 2), STANDARD)
