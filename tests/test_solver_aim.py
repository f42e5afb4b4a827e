"""Aimed rounds (`Search.aimed_round`): a round that looks only for games above a total
halfway between the best game and the bound, so that an unproven search still brings
its bound down. What they prove must hold: every round's bound is at least the exact
value, and the answers are those of the search without them.

The rounds aim only once a round's budget is over `PROBE_NODES`; the tests make that
smaller, so that small positions (a few thousand positions to prove) go through them.
"""

from __future__ import annotations

import random

import pytest

from validator.cli.dice import dice_text
from validator.engine import STANDARD, Dice, State, score
from validator.records.dice import parse_dice
from validator.solver import Solution, solve
from validator.solver import search as search_module
from validator.solver.playout import random_game
from validator.solver.search import Position, Search, root_position

CASES = (("bench 0", 6), ("bench 4", 6), ("bench 6", 6), ("bench 7", 7))
"""Positions after a few rounds of a seeded random game on 50-row files, proven in
1,500-4,500 positions, in which aimed rounds finish."""


def position(seed: str, k: int) -> tuple[tuple[Dice, ...], State]:
    rows = parse_dice(dice_text(50, seed).encode(), seed).rows
    game = random_game(rows, STANDARD, random.Random(seed))
    return rows, game[k - 1].state


@pytest.fixture(autouse=True)
def aim_early(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search_module, "PROBE_NODES", 1_024)


def no_aims(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search_module, "AIM_GRAINS", 10**6)


def recorded_rounds(
    search: Search, monkeypatch: pytest.MonkeyPatch
) -> list[tuple[int | None, int, bool]]:
    """(aim, value, stopped) of every round `search` runs from now on."""
    rounds: list[tuple[int | None, int, bool]] = []
    aimed_round = search.aimed_round

    def recorded(
        position: Position, base: int, root_bound: int, start: int, split: bool, aim: int | None
    ) -> tuple[int, bool]:
        value, stopped = aimed_round(position, base, root_bound, start, split, aim)
        rounds.append((aim, base + value, stopped))
        return value, stopped

    monkeypatch.setattr(search, "aimed_round", recorded)
    return rounds


@pytest.mark.parametrize(("seed", "k"), CASES)
def test_every_round_bounds_the_exact_value_and_the_answer_is_the_same(
    seed: str, k: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    rows, state = position(seed, k)
    root, base = root_position(state, STANDARD, k), score(state, STANDARD)
    with monkeypatch.context() as patch:
        no_aims(patch)
        plain = Search(rows, STANDARD, core="python")
        exact, upper, _ = plain.run(root, base, time_limit=None)
    assert exact == upper  # proven without aimed rounds

    search = Search(rows, STANDARD, core="python")
    rounds = recorded_rounds(search, monkeypatch)
    best, upper, line = search.run(root, base, time_limit=None)
    assert (best, upper) == (exact, exact)
    assert search.aim == -1  # set only while its round runs
    aims = [aim for aim, _, stopped in rounds if aim is not None and not stopped]
    assert aims, f"no aimed round finished: {rounds}"
    for aim, bound, _ in rounds:
        assert bound >= exact, f"a round aimed at {aim} bounded the position by {bound}"
    # The line is a game of that score (the search's own replay of it checks this too).
    assert solve(rows, STANDARD, state, k, time_limit=None, core="python").best_score == exact
    assert line


def aimed_at(
    seed: str, k: int, aim: int, monkeypatch: pytest.MonkeyPatch
) -> tuple[int, tuple[int | None, int, bool]]:
    """The exact value of a position, and (aim, value, stopped) of the first aimed round
    that finished, when every other round is made to aim at `aim` (the rounds' budgets
    grow until one does)."""
    rows, state = position(seed, k)
    root, base = root_position(state, STANDARD, k), score(state, STANDARD)
    search = Search(rows, STANDARD, core="python")
    monkeypatch.setattr(search, "aim_of", lambda upper: aim)
    rounds = recorded_rounds(search, monkeypatch)
    best, upper, _ = search.run(root, base, time_limit=None)
    assert best == upper
    first = next((r for r in rounds if r[0] is not None and not r[2]), (aim, -1, True))
    return best, first


@pytest.mark.parametrize(
    ("seed", "k", "offsets"),
    [
        (*CASES[0], (-15, -5, 5)),
        pytest.param(*CASES[1], (10, 20, 40), marks=pytest.mark.slow),
        pytest.param(*CASES[2], (10, 20, 40), marks=pytest.mark.slow),
        pytest.param(*CASES[3], (10, 20, 40), marks=pytest.mark.slow),
    ],
)
def test_an_aimed_round_that_finishes_bounds_the_value_or_finds_a_game_above_its_aim(
    seed: str, k: int, offsets: tuple[int, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its contract, at aims below the exact value as well as above it (those the
    search chooses are halfway to the bound, so mostly above it)."""
    exact, _ = aimed_at(seed, k, 10**6, monkeypatch)
    finished = {"above": 0, "below": 0}
    for offset in offsets:
        with monkeypatch.context() as patch:
            found_exact, (aim, value, stopped) = aimed_at(seed, k, exact + offset, patch)
        assert found_exact == exact and aim == exact + offset
        if stopped:
            # Near the value an aimed round searches about as much as the round that
            # proves it, which may come first.
            continue
        assert value >= exact, f"the round aimed at {aim} proved {value}, below {exact}"
        if offset >= 0:
            assert value <= aim  # nothing above the aim: it proved so
        finished["above" if offset >= 0 else "below"] += 1
    assert finished["above"], "no round aimed above the value finished"
    assert finished["below"] or min(offsets) > 0, "no round aimed below the value finished"


def budgeted(monkeypatch: pytest.MonkeyPatch, *, aims: bool, nodes: int | None) -> Solution:
    rows, state = position("bench 6", 5)
    with monkeypatch.context() as patch:
        if not aims:
            no_aims(patch)
        return solve(rows, STANDARD, state, 5, time_limit=None, nodes=nodes, core="python")


def test_aimed_rounds_bring_an_unproven_bound_down(monkeypatch: pytest.MonkeyPatch) -> None:
    """At the same budget the search with aimed rounds states a lower bound (and here
    the same best game)."""
    aimed = budgeted(monkeypatch, aims=True, nodes=6_000)
    plain = budgeted(monkeypatch, aims=False, nodes=6_000)
    assert not aimed.proven and not plain.proven
    assert aimed.best_score == plain.best_score
    assert aimed.upper_bound < plain.upper_bound
    assert (aimed.best_score, aimed.upper_bound, plain.upper_bound) == (265, 345, 355)


@pytest.mark.slow
def test_the_lower_bound_is_still_sound(monkeypatch: pytest.MonkeyPatch) -> None:
    exact = budgeted(monkeypatch, aims=False, nodes=None)
    assert exact.proven
    for nodes in (3_000, 6_000, 10_000, 15_000):
        aimed = budgeted(monkeypatch, aims=True, nodes=nodes)
        assert aimed.best_score <= exact.best_score <= aimed.upper_bound
    assert budgeted(monkeypatch, aims=True, nodes=None).best_score == exact.best_score


def test_aim_of_is_halfway_on_the_grain_and_none_when_close() -> None:
    search = Search(position("bench 0", 6)[0], STANDARD, core="python")
    search.best_total = 300
    assert search.game.grain == 5
    assert search.aim_of(400) == 350
    assert search.aim_of(395) == 345  # 19 grains apart: 9 of them up
    assert search.aim_of(300 + 5 * search_module.AIM_GRAINS) is None
    assert search.aim_of(305 + 5 * search_module.AIM_GRAINS) is not None
    search.best_total = -1  # no game yet: nothing to aim above
    assert search.aim_of(400) is None
