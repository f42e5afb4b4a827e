"""Snapshots of the `road300 play` screen at its key moments (pytest-textual-snapshot).

Update them after a deliberate change of the screen with `pytest --snapshot-update`, and
look at the SVGs in tests/__snapshots__/ before committing them.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from validator.tui.app import PlayApp
from validator.tui.start import start_game

# 1 1 1 crosses out 1/1 and moves 1 onto a corner; the second 1 1 1 is a forced reroll;
# 3 4 6 is the last roll, so the game ends after it (the dice file ran out).
DICE = "1: 1 1 1\n2: 1 1 1\n3: 3 4 6\n"

Compare = Callable[..., bool]

# Each snapshot starts the app and renders an SVG: the slow step runs them.
pytestmark = pytest.mark.slow

MOMENTS = {
    "start": [],
    "cross-out-chosen": ["1", "1"],
    "walk-chosen": ["1", "1", "6", "6"],
    "forced-reroll": ["1", "1", "6", "6", "enter"],
    "game-over": ["1", "1", "6", "6", "enter", "4", "6", "6", "3", "enter"],
    "help": ["question_mark"],
}


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> PlayApp:
    # Relative names, so that the screen (and the snapshot) is the same in every folder.
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("NO_COLOR", raising=False)
    Path("snap.txt").write_text(DICE)
    start = start_game(Path("snap.txt"), "standard", output=Path("game.yaml"))
    return PlayApp(start.game, start.record_file, dice_name=start.dice_name)


@pytest.mark.parametrize("moment", list(MOMENTS))
def test_screen(moment: str, app: PlayApp, snap_compare: Compare) -> None:
    assert snap_compare(app, press=MOMENTS[moment], terminal_size=(80, 24))
    if moment == "game-over":
        # The game shown is a valid record, and the screen shows its check.
        assert app.result is not None and app.result.verdict.value == "valid"
        assert Path("game.yaml").read_text().count("  - ") == 3


def test_screen_without_colour(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, snap_compare: Compare
) -> None:
    """NO_COLOR: the walk chosen reads the same from its symbols alone."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("NO_COLOR", "1")
    Path("snap.txt").write_text(DICE)
    start = start_game(Path("snap.txt"), "standard", output=Path("game.yaml"))
    app = PlayApp(start.game, start.record_file, dice_name=start.dice_name)
    assert app.no_color
    assert snap_compare(app, press=MOMENTS["walk-chosen"], terminal_size=(80, 24))
