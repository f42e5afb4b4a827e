"""`road300 play --hint`: the solver's best choice for the round and what the others lose."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from test_play_app import screen_text, short_dice

from validator.engine import STANDARD, Play
from validator.solver import solve
from validator.tui.app import PlayApp
from validator.tui.game import GameSession
from validator.tui.hint import FEW, Hints, hint_text, rank_actions, solver_evaluator
from validator.tui.start import start_game

pytestmark = pytest.mark.usefixtures("quick_pilot")


@pytest.mark.slow
def test_the_ranking_agrees_with_the_solver(tmp_path: Path) -> None:
    start = start_game(short_dice(tmp_path, 6), None, output=tmp_path / "g.yaml")
    game: GameSession = start.game
    ranked = rank_actions(game, solver_evaluator(game, 0.2))
    assert ranked and ranked[0].loss == 0
    assert [r.loss for r in ranked] == sorted(r.loss for r in ranked)
    assert ranked[0].best == solve(game.rows, STANDARD, time_limit=5.0).best_score
    text = hint_text(ranked)
    best = ranked[0].action
    assert isinstance(best, Play) and text.startswith(f"Hint: cross out {best.cross}")
    if ranked[-1].loss:
        assert f"-{ranked[-1].loss}" in text


def test_the_hint_is_shown_on_screen(tmp_path: Path) -> None:
    start = start_game(short_dice(tmp_path, 5), None, output=tmp_path / "g.yaml")
    app = PlayApp(start.game, start.record_file, dice_name=start.dice_name, hint_seconds=0.5)

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await app.workers.wait_for_complete()
            await pilot.pause()
            shown = " ".join(screen_text(app).split())
            assert re.search(
                r"Hint( \(compared the \d+ of your \d+ choices that score most now\))?: cross out",
                shown,
            )

    asyncio.run(run())


def test_without_hint_no_solver_runs(tmp_path: Path) -> None:
    start = start_game(short_dice(tmp_path, 5), None, output=tmp_path / "g.yaml")
    app = PlayApp(start.game, start.record_file, dice_name=start.dice_name)

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert not app.workers and "Hint" not in screen_text(app)

    asyncio.run(run())


def test_a_count_not_the_clock_decides_what_is_ranked(tmp_path: Path) -> None:
    start = start_game(short_dice(tmp_path, 4), None, output=tmp_path / "g.yaml")
    game: GameSession = start.game
    choices = len(game.actions())
    assert choices > FEW, "roll 1 of the challenge has many choices"
    ranked = rank_actions(game, lambda state, row: 0, most=1)
    assert len(ranked) == 1
    # Said in a player's words: which choices were compared, not "ranked".
    assert hint_text(ranked, choices=choices).startswith(
        f"Hint (compared the 1 of your {choices} choices that score most now):"
    )
    # A slow evaluator changes nothing: FEW are ranked, the most points at once first.
    hint = Hints(0.05).rank(game)
    assert len(hint.ranked) == FEW and hint.choices == choices
    # A round with few choices has every one ranked.
    few = GameSession(game.rows[:1], game.rules)
    assert len(few.actions()) == choices
    small = GameSession([(1, 1, 1)], game.rules)
    assert 1 < len(small.actions()) <= FEW
    assert len(Hints(0.05).rank(small).ranked) == len(small.actions())


@pytest.mark.slow  # two rankings by the solver
def test_the_same_position_ranks_the_same_twice(tmp_path: Path) -> None:
    start = start_game(short_dice(tmp_path, 6), None, output=tmp_path / "g.yaml")
    game: GameSession = start.game
    hints = Hints(0.3)
    first = hints.rank(game)
    assert hints.rank(game) is first and hints.known(game) is first
    # Ranked afresh (no memory), the 5 rows left are searched to the end: the same again.
    again = Hints(0.3).rank(game)
    assert again.text() == first.text()
    assert [r.action for r in again.ranked] == [r.action for r in first.ranked]


@pytest.mark.slow  # two rankings by the solver
def test_the_hint_of_a_position_shown_again_is_the_one_shown_first(tmp_path: Path) -> None:
    start = start_game(short_dice(tmp_path, 5), None, output=tmp_path / "g.yaml")
    app = PlayApp(start.game, start.record_file, dice_name=start.dice_name, hint_seconds=0.3)

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await app.workers.wait_for_complete()
            await pilot.pause()
            shown = app.hint
            assert shown.startswith("Hint")
            best = app.hint_action
            assert isinstance(best, Play)
            await pilot.press(*f"{best.cross.row}{best.cross.col}")
            await pilot.press("u")  # back within the round: the same position
            assert app.hint == shown
            await pilot.press("escape")
            cross = app.game.crosses()[0]
            option = app.game.options(cross)[0]
            from validator.tui.drive import keys_for

            await pilot.press(*keys_for(app.game, cross, option))
            await app.workers.wait_for_complete()
            await pilot.press("u")  # a whole round undone: the hint comes back at once
            assert app.hint == shown

    asyncio.run(run())


def test_hint_nodes_rank_the_same_with_no_time_limit(tmp_path: Path) -> None:
    """--hint-nodes: a node budget per round and no time limit, so the ranking is the
    same on every machine (tests/test_solver_clock.py shows it for searches that do not
    finish; here the budget goes through)."""
    start = start_game(short_dice(tmp_path, 4), None, output=tmp_path / "g.yaml")
    game: GameSession = start.game
    first = Hints(None, nodes=1000).rank(game)
    again = Hints(None, nodes=1000).rank(game)
    assert [(r.action, r.best) for r in again.ranked] == [(r.action, r.best) for r in first.ranked]
    assert first.ranked and first.text() == again.text()
