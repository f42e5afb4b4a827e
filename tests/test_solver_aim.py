"""Aimed rounds (`Search.aimed_round`): a round that looks only for games above a total
halfway between the best game and the bound, so that an unproven search still brings
its bound down. What they prove must hold: every round's bound is at least the exact
value, and the answers are those of the search without them.

The rounds aim only once a round's budget is over `PROBE_NODES`; the tests make that
smaller, so that small positions (a few thousand positions to prove) go through them.
Mutations of an aimed round (cutting 10 points above its aim, answering 10 less than it
found) fail these tests.
"""

from __future__ import annotations

import itertools
import random
import time

import pytest

from validator.cli.dice import dice_text
from validator.cli.solve import progress_text
from validator.engine import STANDARD, Dice, State, score
from validator.records.dice import parse_dice
from validator.solver import Solution, solve
from validator.solver import search as search_module
from validator.solver.playout import random_game
from validator.solver.search import Position, Progress, Search, root_position

CASES = (("bench 4", 6), ("bench 6", 6), ("bench 7", 7), ("bench 8", 6))
"""Positions after a few rounds of a seeded random game on 50-row files, proven in
2,500-5,000 positions, in which aimed rounds finish."""

Round = tuple[int | None, int, bool, int, int]
"""One round of a search: (aim, bound it gave the root, stopped, best game before, after)."""


def position(seed: str, k: int) -> tuple[tuple[Dice, ...], State]:
    rows = parse_dice(dice_text(50, seed).encode(), seed).rows
    game = random_game(rows, STANDARD, random.Random(seed))
    return rows, game[k - 1].state


@pytest.fixture(autouse=True)
def aim_early(monkeypatch: pytest.MonkeyPatch) -> None:
    # Twice the opening round: the first round after it is not aimed, the next can be.
    monkeypatch.setattr(search_module, "PROBE_NODES", 2_048)


def no_aims(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search_module, "AIM_GRAINS", 10**6)


def exact_value(seed: str, k: int, monkeypatch: pytest.MonkeyPatch) -> int:
    """The position's value, proven without aimed rounds."""
    rows, state = position(seed, k)
    with monkeypatch.context() as patch:
        no_aims(patch)
        s = solve(rows, STANDARD, state, k, time_limit=None, core="python")
    assert s.proven
    return s.best_score


def recorded_rounds(search: Search, monkeypatch: pytest.MonkeyPatch) -> list[Round]:
    """Every round `search` runs from now on."""
    rounds: list[Round] = []
    aimed_round = search.aimed_round

    def recorded(
        position: Position, base: int, root_bound: int, start: int, split: bool, aim: int | None
    ) -> tuple[int, bool]:
        before = search.best_total
        value, stopped = aimed_round(position, base, root_bound, start, split, aim)
        rounds.append((aim, base + value, stopped, before, search.best_total))
        return value, stopped

    monkeypatch.setattr(search, "aimed_round", recorded)
    return rounds


def searched(
    seed: str, k: int, monkeypatch: pytest.MonkeyPatch, *, aim: int | None = None
) -> tuple[int, int, list[int], list[Round]]:
    """(best, bound, line, rounds) of a search of the position to its proof; with `aim`,
    every aimed round aims there instead (while it is above the best game) until one
    finishes."""
    rows, state = position(seed, k)
    search = Search(rows, STANDARD, core="python")
    rounds = recorded_rounds(search, monkeypatch)
    if aim is not None:

        def aim_of(upper: int) -> int | None:
            done = any(r[0] is not None and not r[2] for r in rounds)
            return None if done or aim <= search.best_total else aim

        monkeypatch.setattr(search, "aim_of", aim_of)
    root, base = root_position(state, STANDARD, k), score(state, STANDARD)
    best, upper, line = search.run(root, base, time_limit=None)
    return best, upper, line, rounds


@pytest.mark.parametrize(("seed", "k"), CASES)
def test_every_round_bounds_the_exact_value_and_the_answer_is_the_same(
    seed: str, k: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    exact = exact_value(seed, k, monkeypatch)
    best, upper, line, rounds = searched(seed, k, monkeypatch)
    assert (best, upper) == (exact, exact)
    assert line
    finished = [r for r in rounds if r[0] is not None and not r[2]]
    assert finished, f"no aimed round finished: {rounds}"
    for aim, bound, stopped, _, found in rounds:
        assert bound >= exact, f"a round aimed at {aim} bounded the position by {bound}"
        if aim is not None and not stopped:
            # It proved its aim or less, or found a game above it (which then is the value).
            assert bound <= aim or bound == found == exact, (aim, bound, found)


@pytest.mark.parametrize(
    ("seed", "k", "offsets"),
    [
        (*CASES[0], (-5, 0, 5)),
        pytest.param(*CASES[1], (0, 5, 10, 20, 40), marks=pytest.mark.slow),
        pytest.param(*CASES[2], (0, 5, 10, 20, 40), marks=pytest.mark.slow),
        pytest.param(*CASES[3], (0, 5, 10, 20, 40), marks=pytest.mark.slow),
    ],
)
def test_an_aimed_round_that_finishes_bounds_the_value_or_finds_a_game_above_its_aim(
    seed: str, k: int, offsets: tuple[int, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its contract at aims around the exact value (those the search chooses lie
    halfway to the bound, so nearly always above it). Below the value, it is the best
    game found before the round that can be under the aim; the weakest opening beam
    (width 1, and no wider ones) leaves it there."""
    exact = exact_value(seed, k, monkeypatch)
    monkeypatch.setattr(search_module, "BEAM_WIDTH", 1)
    monkeypatch.setattr(search_module, "MAX_BEAM_WIDTH", 1)
    finished = {"above": 0, "below": 0}
    for offset in offsets:
        with monkeypatch.context() as patch:
            best, upper, _, rounds = searched(seed, k, patch, aim=exact + offset)
        assert (best, upper) == (exact, exact)
        aimed = [r for r in rounds if r[0] is not None and not r[2]]
        if not aimed:
            # Near the value an aimed round searches about as much as the round that
            # proves it, which may come first.
            continue
        ((aim, bound, _, before, found),) = aimed
        assert aim == exact + offset and before < aim
        assert bound >= exact, f"the round aimed at {aim} proved {bound}, below {exact}"
        if offset >= 0:
            assert bound <= aim  # nothing above the aim: it proved so
            finished["above"] += 1
        else:
            assert found > aim, f"the round aimed at {aim} found no game above it"
            finished["below"] += 1
    assert finished["above"], "no round aimed above the value finished"
    assert finished["below"] or min(offsets) >= 0, "no round aimed below the value finished"


def budgeted(monkeypatch: pytest.MonkeyPatch, *, aims: bool, nodes: int | None) -> Solution:
    rows, state = position("bench 6", 5)
    with monkeypatch.context() as patch:
        if not aims:
            no_aims(patch)
        return solve(rows, STANDARD, state, 5, time_limit=None, nodes=nodes, core="python")


def test_aimed_rounds_bring_an_unproven_bound_down(monkeypatch: pytest.MonkeyPatch) -> None:
    """At the same budget the search with aimed rounds states a lower bound (and here
    the same best game)."""
    aimed = budgeted(monkeypatch, aims=True, nodes=10_000)
    plain = budgeted(monkeypatch, aims=False, nodes=10_000)
    assert not aimed.proven and not plain.proven
    assert aimed.best_score == plain.best_score
    assert aimed.upper_bound < plain.upper_bound
    # The figures of this position at this budget (they move with the search's schedule).
    assert (aimed.best_score, aimed.upper_bound, plain.upper_bound) == (265, 310, 350)


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


@pytest.mark.slow
def test_both_cores_search_the_same_aimed_rounds(monkeypatch: pytest.MonkeyPatch) -> None:
    """The compiled core cuts at the aim as the pure-Python search does (`S_AIM`): the
    same budget gives the same game, bound and positions, in one thread."""
    rows, state = position("bench 6", 5)
    answers = {}
    for core in ("python", "compiled"):
        s = solve(rows, STANDARD, state, 5, time_limit=None, nodes=10_000, core=core)
        answers[core] = (s.best_score, s.upper_bound, s.nodes, s.actions)
    assert answers["python"] == answers["compiled"]
    assert answers["python"][:2] == (265, 310)


def test_the_progress_line_names_an_aimed_round(monkeypatch: pytest.MonkeyPatch) -> None:
    rows, state = position("bench 6", 5)
    seen: list[Progress] = []
    # A clock a second further on at every look: every check (each 1,024 positions)
    # draws the line.
    ticks = itertools.count()
    monkeypatch.setattr(time, "monotonic", lambda: float(next(ticks)))
    solve(
        rows, STANDARD, state, 5, nodes=10_000, time_limit=None, core="python", progress=seen.append
    )
    aimed = [p for p in seen if p.aim is not None]
    assert aimed and any(p.aim is None and p.round > 1 for p in seen)
    for p in aimed:
        assert p.aim is not None and p.best_score < p.aim < p.upper_bound
        assert f"round {p.round} (aimed above {p.aim})  settled " in progress_text(p, 1.0)
    plain = next(p for p in seen if p.aim is None)
    assert "aimed" not in progress_text(plain, 1.0)
