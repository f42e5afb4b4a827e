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
from validator.tui.hint import hint_text, rank_actions, solver_evaluator
from validator.tui.start import start_game


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
            assert re.search(r"Hint( \(\d+ of \d+ choices ranked\))?: cross out", screen_text(app))

    asyncio.run(run())


def test_without_hint_no_solver_runs(tmp_path: Path) -> None:
    start = start_game(short_dice(tmp_path, 5), None, output=tmp_path / "g.yaml")
    app = PlayApp(start.game, start.record_file, dice_name=start.dice_name)

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert not app.workers and "Hint" not in screen_text(app)

    asyncio.run(run())


def test_a_deadline_ranks_the_most_promising_choices_only(tmp_path: Path) -> None:
    import time

    start = start_game(short_dice(tmp_path, 6), None, output=tmp_path / "g.yaml")
    game: GameSession = start.game
    choices = len(game.actions())
    assert choices > 1
    ranked = rank_actions(game, solver_evaluator(game, 0.05), deadline=time.monotonic() - 1)
    assert len(ranked) == 1
    assert hint_text(ranked, choices=choices).startswith(f"Hint (1 of {choices} choices ranked):")
