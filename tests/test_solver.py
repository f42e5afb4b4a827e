"""The solver against an exhaustive search through the engine: exact answers, sound
bounds, the compact rules agreeing with the engine, and games that replay to their score."""

from __future__ import annotations

import json
import random
import threading
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tiers import sweep

from validator.check.file import Checker
from validator.check.replay import Verdict
from validator.engine import (
    BGA,
    LITERAL,
    STANDARD,
    Dice,
    Ruleset,
    State,
    apply,
    exhaust,
    legal_actions,
    new_game,
    score,
)
from validator.records import dump_record
from validator.records.dice import DiceFile
from validator.rulesets import resolve
from validator.solver import Search, solve
from validator.solver.playout import random_game
from validator.solver.position import Game, transpose
from validator.solver.record import action_rounds, game_record
from validator.solver.search import CoreChoice, root_position

RULESETS: tuple[Ruleset, ...] = (
    STANDARD,
    BGA,
    LITERAL,
    resolve("standard+escape=20"),
    resolve("literal+escape=5"),
    resolve("standard+rings=2"),
    resolve("bga+rings=1+in-and-out"),
    resolve("standard+in-and-out"),
    resolve("standard+escape=40+rings=1+in-and-out"),
)

# The plain step searches under the rulesets whose searches are quick; the slow step under all.
_QUICK = {"standard", "bga", "standard+escape=20", "literal+escape=5", "standard+rings=2"}


def _quick(rules: Ruleset) -> bool:
    return rules.name in _QUICK


def _name(rules: Ruleset) -> str:
    return rules.name


FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def exhaustive(rows: Sequence[Dice], rules: Ruleset, state: State, row: int) -> int:
    """The best final score by trying every legal action of the engine (memoised)."""
    memo: dict[tuple[State, int], int] = {}

    def best(state: State, row: int) -> int:
        if state.over or row >= len(rows):
            return score(exhaust(state), rules)
        key = (state, row)
        if key not in memo:
            memo[key] = max(
                best(apply(state, rows[row], action, rules).state, row + 1)
                for action in legal_actions(state, rows[row], rules)
            )
        return memo[key]

    return best(state, row)


def compact_exhaustive(rows: Sequence[Dice], rules: Ruleset, state: State, row: int) -> int:
    """The same without pruning on the solver's compact positions (whose children are
    tested against the engine below): fast enough for longer games."""
    game = Game(rows, rules)
    memo: dict[tuple[int, int, int, int, int], int] = {}

    def best(position: tuple[int, int, int, int, int]) -> int:
        if position[4] >= len(rows):
            return 0
        if position not in memo:
            memo[position] = max(
                gain + (best(child) if child is not None else 0)
                for _, gain, child in game.children(*position)
            )
        return memo[position]

    if state.over or row >= len(rows):
        return score(exhaust(state), rules)
    return score(state, rules) + best(root_position(state, rules, row))


def random_rows(
    rng: random.Random, n: int, faces: Sequence[int] = (1, 2, 3, 4, 5, 6)
) -> list[Dice]:
    return [(rng.choice(faces), rng.choice(faces), rng.choice(faces)) for _ in range(n)]


@st.composite
def small_cases(draw: st.DrawFn) -> tuple[list[Dice], Ruleset]:
    faces = draw(st.sampled_from([(1, 2, 3, 4, 5, 6), (1, 2, 3, 4, 5, 6), (1, 6), (2, 3, 5)]))
    die = st.sampled_from(faces)
    rows: list[Dice] = draw(st.lists(st.tuples(die, die, die), min_size=1, max_size=3))
    return rows, draw(st.sampled_from(RULESETS))


@pytest.mark.slow
@FAST
@given(small_cases())
def test_solver_equals_exhaustive_search_from_the_start(case: tuple[list[Dice], Ruleset]) -> None:
    rows, rules = case
    start = new_game(rules.max_rings)
    exact = compact_exhaustive(rows, rules, start, 0)
    if len(rows) <= 2:
        assert exhaustive(rows, rules, start, 0) == exact
    game = Game(rows, rules)
    taken, pos, pc, _, row = root_position(start, rules, 0)
    assert (
        game.estimate(game.reachable(taken, pos), taken, pos, game.n - row)
        >= game.bound(taken, pos, pc, row)
        >= exact
    )
    solution = solve(rows, rules, time_limit=None)
    assert (solution.best_score, solution.upper_bound, solution.proven) == (exact, exact, True)
    assert_replays(rows, rules, start, 0, solution.actions, exact)


@pytest.mark.parametrize("core", ["python", pytest.param("compiled", marks=pytest.mark.slow)])
@pytest.mark.parametrize("rules", sweep(RULESETS, plain=_quick, ids=_name))
def test_mid_game_positions_exact_and_bounded(rules: Ruleset, core: CoreChoice) -> None:
    """Positions after a few random rounds on longer files: bound >= exact == solver,
    with the pure-Python search and with the compiled core."""
    rng = random.Random(rules.name)
    for n in range(6):
        rows = random_rows(rng, 14)
        steps = random_game(rows, rules, rng, rings=rules.max_rings)
        k = min(len(steps), rng.randint(5, 8))
        state = steps[k - 1].state if k else new_game(rules.max_rings)
        rows = rows[: k + 4]  # four rows left: exhaustive search stays quick
        exact = compact_exhaustive(rows, rules, state, k)
        if n < 2:
            engine_rows = rows[: k + 2]
            assert exhaustive(engine_rows, rules, state, k) == compact_exhaustive(
                engine_rows, rules, state, k
            )
        if not state.over:
            taken, pos, pc, _, row = root_position(state, rules, k)
            assert score(state, rules) + Game(rows, rules).bound(taken, pos, pc, row) >= exact
        solution = solve(rows, rules, state, k, time_limit=None, core=core)
        assert (solution.best_score, solution.proven) == (exact, True)
        assert_replays(rows, rules, state, k, solution.actions, exact)


def assert_replays(
    rows: Sequence[Dice],
    rules: Ruleset,
    state: State,
    row: int,
    actions: Sequence[object],
    want: int,
) -> None:
    for n, action in enumerate(actions):
        assert not state.over
        state = apply(state, rows[row + n], action, rules).state  # type: ignore[arg-type]
    if row + len(actions) >= len(rows):
        state = exhaust(state)
    assert state.over
    assert score(state, rules) == want


@pytest.mark.parametrize("rules", sweep(RULESETS, plain=_quick, ids=_name))
def test_compact_children_are_the_engine_outcomes(rules: Ruleset) -> None:
    """Every engine action leads to a compact child (and back), with the same score gain."""
    rng = random.Random(7)
    game_rows = random_rows(rng, 40)
    game = Game(game_rows, rules)
    for _ in range(15):
        steps = random_game(game_rows, rules, rng, rings=rules.max_rings)
        for k, step in enumerate(steps[:-1]):
            state, row = step.state, k + 1
            if state.over or row >= len(game_rows):
                continue
            dice = game_rows[row]
            expected = set()
            for action in legal_actions(state, dice, rules):
                after = apply(state, dice, action, rules).state
                gain = _gain(state, after, rules)
                child = None if after.over else root_position(after, rules, row + 1)
                expected.add((gain, child))
            found = {
                (gain, child) for _, gain, child in game.children(*root_position(state, rules, row))
            }
            assert found == expected


def _gain(before: State, after: State, rules: Ruleset) -> int:
    # Literal scoring counts a field once the burglar leaves it (its X), so the engine's
    # score difference is the compact gain under every ruleset.
    return score(after, rules) - score(before, rules)


def test_transpose_is_an_involution_on_the_board() -> None:
    rng = random.Random(3)
    for _ in range(100):
        mask = rng.getrandbits(36)
        assert transpose(transpose(mask)) == mask
        assert transpose(mask).bit_count() == mask.bit_count()
    assert transpose(1 << 1) == 1 << 6  # 1/2 <-> 2/1


@pytest.mark.slow
def test_symmetry_changes_nothing_but_the_work() -> None:
    rng = random.Random(11)
    for _ in range(5):
        rows = random_rows(rng, 9)
        root = root_position(new_game(), STANDARD, 0)
        with_sym = Search(rows, STANDARD).run(root, 0, time_limit=None)
        without = Search(rows, STANDARD, symmetry=False).run(root, 0, time_limit=None)
        assert with_sym[:2] == without[:2]


def test_time_limit_returns_a_legal_game_and_a_sound_bound() -> None:
    rows = random_rows(random.Random(5), 50)
    # Stopped by the clock past the opening round and its beam (a few thousand positions).
    solution = solve(rows, STANDARD, time_limit=0.15)
    assert solution.best_score <= solution.upper_bound
    assert solution.proven == (solution.best_score == solution.upper_bound)
    assert_replays(rows, STANDARD, new_game(), 0, solution.actions, solution.best_score)


def test_cancel_stops_the_search() -> None:
    rows = random_rows(random.Random(6), 50)
    cancel = threading.Event()
    cancel.set()
    solution = solve(rows, STANDARD, time_limit=None, cancel=cancel)
    assert solution.seconds < 5
    assert_replays(rows, STANDARD, new_game(), 0, solution.actions, solution.best_score)


def test_a_finished_game_is_its_own_answer() -> None:
    rows = [(1, 1, 1)]
    state = apply(new_game(), rows[0], legal_actions(new_game(), rows[0])[0]).state
    solution = solve(rows, STANDARD, state, 1)
    assert (solution.best_score, solution.proven, solution.actions) == (score(state), True, ())


@pytest.mark.parametrize(
    "rules", sweep(RULESETS[:4] + RULESETS[5:6] + RULESETS[7:], plain=2, ids=_name)
)
def test_solved_games_validate_to_their_score(rules: Ruleset, tmp_path: Path) -> None:
    """The record the solver's actions make is valid through the real checker."""
    rng = random.Random(rules.name + "record")
    rows = random_rows(rng, 7)
    dice = DiceFile(tuple(rows), "0" * 64, "dice.txt")
    solution = solve(rows, rules, time_limit=0.5)
    start = new_game(rules.max_rings)
    rounds = action_rounds(rows, rules, start, 0, solution.actions)
    record = game_record(rounds, rings=rules.max_rings, claimed_score=solution.best_score)
    for fmt, suffix in (("json", ".json"), ("yaml", ".yaml"), ("csv", ".csv")):
        path = tmp_path / f"best{suffix}"
        path.write_text(dump_record(record, fmt))
        result = Checker(dice, rules).check(path)
        assert result.verdict is Verdict.VALID, result.error
        assert result.score == solution.best_score
    data = json.loads(dump_record(record, "json"))
    for entry in data["rounds"]:
        assert "roll" in entry and "dice" in entry
        if "cross" in entry:
            assert "steps" in entry
            if "move" in entry:
                assert "path" in entry


@pytest.mark.slow
def test_many_solved_games_validate_in_every_record_format(tmp_path: Path) -> None:
    """Random small files under every ruleset: each game, in every record format, is
    valid with exactly the solver's score (escapes, stuck rounds, rings, rerolls)."""
    rng = random.Random(99)
    formats = {"yaml": ".yaml", "text": ".txt", "csv": ".csv", "json": ".json"}
    for _ in range(80):
        rules = rng.choice(RULESETS)
        faces = rng.choice([(1, 2, 3, 4, 5, 6), (1, 6), (2, 3, 5), (1, 2)])
        rows = random_rows(rng, rng.randint(3, 9), faces)
        dice = DiceFile(tuple(rows), "0" * 64, "dice.txt")
        solution = solve(rows, rules, time_limit=0.3)
        start = new_game(rules.max_rings)
        rounds = action_rounds(rows, rules, start, 0, solution.actions)
        record = game_record(rounds, rings=rules.max_rings, claimed_score=solution.best_score)
        for fmt, suffix in formats.items():
            path = tmp_path / f"best{suffix}"
            path.write_text(dump_record(record, fmt))
            result = Checker(dice, rules).check(path)
            assert result.verdict is Verdict.VALID, (fmt, rules.name, rows, result.error)
            assert result.score == solution.best_score
