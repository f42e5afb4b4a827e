"""`road300 play` on the screen: whole games played by keys (Textual's pilot), undo, resume,
Ctrl-C, the mouse, the help panel and NO_COLOR."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from validator.check.file import Checker
from validator.check.replay import Verdict
from validator.engine import Field, Play, RingReroll
from validator.tui.app import PlayApp, cell_origin, ring_keys
from validator.tui.drive import keys_for
from validator.tui.game import GameSession, Option
from validator.tui.start import start_game

ROOT = Path(__file__).resolve().parent.parent
CHALLENGE = ROOT / "examples" / "challenge.txt"
SIZE = (80, 24)
ALL_FIELDS = [Field(r, c) for r in range(1, 7) for c in range(1, 7)]

Policy = Callable[[GameSession, random.Random], list[str]]

pytestmark = pytest.mark.usefixtures("quick_pilot")


def screen_text(app: PlayApp) -> str:
    """The screen as plain text, one line per terminal row."""
    strips = app.screen._compositor.render_strips()
    return "\n".join("".join(segment.text for segment in strip) for strip in strips)


def short_dice(tmp_path: Path, rows: int) -> Path:
    """The first `rows` rolls of the example challenge, so that a game ends quickly."""
    lines = [x for x in CHALLENGE.read_text().splitlines() if x[:1].isdigit()][:rows]
    path = tmp_path / f"short{rows}.txt"
    path.write_text("\n".join(lines) + "\n")
    return path


def make_app(
    tmp_path: Path, rules: str | None = None, dice: Path = CHALLENGE, **kwargs: object
) -> PlayApp:
    output = tmp_path / "game.yaml"
    start = start_game(dice, rules, output=output, **kwargs)  # type: ignore[arg-type]
    return PlayApp(
        start.game,
        start.record_file,
        dice_name=start.dice_name,
        ask_rings=start.ask_rings,
        welcome=start.welcome,
    )


def prefer(*kinds: str) -> Policy:
    """Random choices, but an option of one of `kinds` whenever the roll offers one."""

    def choose(game: GameSession, rng: random.Random) -> list[str]:
        if "ring" in kinds and game.ring_allowed:
            return ["r"]
        # The first two walks to each field only: cycling further costs key presses, not cover.
        pairs = [(c, o) for c in game.crosses() for o in _first_walks(game.options(c), 2)]
        wanted = [(c, o) for c, o in pairs if o.kind in kinds]
        cross, option = rng.choice(wanted or pairs)
        return keys_for(game, cross, option)

    return choose


def _first_walks(options: list[Option], most: int) -> list[Option]:
    count: dict[object, int] = {}
    kept = []
    for o in options:
        count[o.target, o.kind] = count.get((o.target, o.kind), 0) + 1
        if count[o.target, o.kind] <= most:
            kept.append(o)
    return kept


async def play_by_keys(pilot: Pilot[Any], app: PlayApp, policy: Policy, seed: int) -> int:
    """Play the game to its end by pressing keys; returns the number of choices made."""
    rng = random.Random(seed)
    choices = 0
    while not app.game.over:
        rounds = len(app.game.rounds)
        await pilot.press(*policy(app.game, rng))
        assert len(app.game.rounds) > rounds, screen_text(app)
        choices += 1
    await pilot.pause()
    return choices


def phase(app: PlayApp) -> str:
    """The phase of the round (read through a call, so that mypy does not pin it down)."""
    return app.choice.phase


def shown_score(app: PlayApp) -> int:
    line = next(x for x in screen_text(app).splitlines() if "Score " in x)
    return int(line.split("Score ")[1].split()[0])


def check_finished(app: PlayApp, path: Path, rules: str | None, dice: Path = CHALLENGE) -> None:
    """The written record validates, with the score the screen shows and its verdict line."""
    result = Checker.create(dice, rules).check(path)
    assert result.verdict is Verdict.VALID, result.error
    assert result.score == shown_score(app) == app.game.score
    screen = screen_text(app)
    assert f"Check: valid: {result.score} points, game over" in screen
    assert app.result is not None and app.result.score == result.score


GAMES = [
    ("standard", prefer("move")),
    ("bga", prefer("move")),
    ("standard+escape=20", prefer("escape")),
    ("bga+rings=2", prefer("ring", "move")),
    ("standard+in-and-out", prefer("leave")),
]


def test_short_game_by_keys(tmp_path: Path) -> None:
    """A whole game on the first 4 rolls (the quick suite's one; the full games are slow)."""
    dice = short_dice(tmp_path, 4)

    async def run() -> None:
        app = make_app(tmp_path, "standard", dice)
        async with app.run_test(size=SIZE) as pilot:
            assert await play_by_keys(pilot, app, prefer("move"), seed=4) == 4
            check_finished(app, tmp_path / "game.yaml", "standard", dice)
            assert "the dice file ran out on roll 4" in screen_text(app)

    asyncio.run(run())


@pytest.mark.slow
@pytest.mark.parametrize(
    ("rules", "policy"), GAMES, ids=["standard", "bga", "escape", "rings", "in-and-out"]
)
def test_whole_game_by_keys(rules: str, policy: Policy, tmp_path: Path) -> None:
    async def run() -> None:
        app = make_app(tmp_path, rules)
        async with app.run_test(size=SIZE) as pilot:
            if app.ask_rings:
                await pilot.press("2")
                assert app.game.rings == 2
            await play_by_keys(pilot, app, policy, seed=1)
            check_finished(app, tmp_path / "game.yaml", rules)
            kinds = {type(r.step.action).__name__ for r in app.game.rounds}
            exits = {getattr(r.step.action, "exit", None) for r in app.game.rounds}
            if "rings" in rules:
                assert "RingReroll" in kinds
            if "escape" in rules:
                assert "escape" in exits and app.game.state.end is not None
            if "in-and-out" in rules:
                assert "leave" in exits

    asyncio.run(run())


@pytest.mark.slow
def test_whole_game_by_mouse(tmp_path: Path) -> None:
    """Click the cross-out, click the field, click it again to confirm the walk shown."""

    async def run() -> None:
        app = make_app(tmp_path, "standard")
        rng = random.Random(5)
        async with app.run_test(size=SIZE) as pilot:
            for _ in range(4):
                cross = rng.choice(app.game.crosses())
                option: Option = rng.choice(app.game.options(cross))
                await pilot.click("#board", offset=_offset(cross.field))
                assert phase(app) == "move"
                if option.target is None:
                    await pilot.press("enter")
                    break
                await pilot.click("#board", offset=_offset(option.target))
                assert phase(app) == "walk" and app.choice.target == option.target
                await pilot.click("#board", offset=_offset(option.target))
                if app.game.over:
                    break
            assert len([r for r in app.game.rounds if not r.auto]) >= 1
            result = Checker.create(CHALLENGE, None).check(tmp_path / "game.yaml")
            assert result.ok and len(result.rounds) == len(app.game.rounds)

    asyncio.run(run())


def _offset(field: object) -> tuple[int, int]:
    x, y = cell_origin(field)  # type: ignore[arg-type]
    return x + 2, y + 1  # the board's border and padding


@pytest.mark.slow
def test_arrows_enter_and_walk_cycling(tmp_path: Path) -> None:
    async def run() -> None:
        app = make_app(tmp_path)
        async with app.run_test(size=SIZE) as pilot:
            # Roll 1 is 1 4 6; the cursor starts on the first cross-out, 1/4 (moves 6).
            assert str(app.cursor) == "1/4"
            await pilot.press("tab")
            assert str(app.cursor) == "1/6"
            await pilot.press("shift+tab", "enter")
            assert phase(app) == "move" and app.choice.cross is not None
            assert str(app.choice.cross.field) == "1/4" and app.choice.cross.die == 6
            # Arrows move to 3/3 from wherever the cursor went: go home first.
            await pilot.press(*["up"] * 6, *["left"] * 6)
            assert str(app.cursor) == "1/1"
            await pilot.press("down", "down", "right", "right", "enter")
            assert phase(app) == "walk" and str(app.choice.target) == "3/3"
            walks = app.choice.at_target()
            assert len(walks) > 1
            first = app.choice.walk_index
            await pilot.press("w")
            assert app.choice.walk_index == first + 1
            screen = screen_text(app)
            assert f"Walk 2 of {len(walks)}" in screen
            await pilot.press("W", "escape")
            assert phase(app) == "move"
            await pilot.press("escape")
            assert phase(app) == "cross" and app.game.rounds == []
            # A field that is not a cross-out is refused with a message, not a crash.
            await pilot.press("2", "/", "2")
            assert "2/2 is not a cross-out of this roll" in screen_text(app)
            assert app.game.rounds == []

    asyncio.run(run())


@pytest.mark.slow
def test_undo_redo_by_keys_rewrite_the_record(tmp_path: Path) -> None:
    async def run() -> None:
        app = make_app(tmp_path)
        out = tmp_path / "game.yaml"
        async with app.run_test(size=SIZE) as pilot:
            policy = prefer("move")
            rng = random.Random(2)
            for _ in range(3):
                await pilot.press(*policy(app.game, rng))
            three = out.read_text()
            await pilot.press("u", "u")
            assert _rounds(out) == 1 and len(app.game.rounds) == 1
            await pilot.press("ctrl+z")
            assert _rounds(out) == 0 and app.game.rounds == []
            # A record of no rounds is still a record (incomplete), not a malformed file.
            assert Checker.create(CHALLENGE, None).check(out).verdict is Verdict.INCOMPLETE
            await pilot.press("u")
            assert "nothing to undo" in screen_text(app)
            await pilot.press("y", "ctrl+y", "y")
            assert out.read_text() == three
            await pilot.press("y")
            assert "nothing to redo" in screen_text(app)

    asyncio.run(run())


def _rounds(path: Path) -> int:
    return sum(1 for line in path.read_text().splitlines() if line.startswith("  - "))


@pytest.mark.slow
def test_ctrl_c_mid_game_keeps_the_record_and_resume_finishes_it(tmp_path: Path) -> None:
    out = tmp_path / "game.yaml"
    dice = short_dice(tmp_path, 5)

    async def first() -> None:
        app = make_app(tmp_path, "bga", dice)
        async with app.run_test(size=SIZE) as pilot:
            rng = random.Random(9)
            for _ in range(2):
                await pilot.press(*prefer("move")(app.game, rng))
            await pilot.press("ctrl+c")
            assert app.return_value is None and not app.is_running

    async def second() -> None:
        app = make_app(tmp_path, None, dice, resume=out)
        assert len(app.game.rounds) == 2 and app.game.rules.name == "bga"
        async with app.run_test(size=SIZE) as pilot:
            assert "Resumed game.yaml" in screen_text(app)
            await play_by_keys(pilot, app, prefer("move"), seed=3)
            check_finished(app, out, None, dice)

    asyncio.run(first())
    result = Checker.create(dice, None).check(out)
    assert result.verdict is Verdict.INCOMPLETE and len(result.rounds) == 2
    asyncio.run(second())


@pytest.mark.slow  # a whole Textual app (the plain step drives one game and the 80x24 screen)
def test_help_panel_takes_the_keys_while_open(tmp_path: Path) -> None:
    async def run() -> None:
        app = make_app(tmp_path)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("question_mark")
            assert "How a round goes" in screen_text(app)
            await pilot.press("enter")  # turns to the keys; plays nothing
            assert "The keys (road300 play" in screen_text(app)
            await pilot.press("enter")  # closes the panel; plays nothing
            assert "The keys (road300 play" not in screen_text(app)
            assert phase(app) == "cross"
            await pilot.press("f1", "u")  # u turns the page: it undoes nothing
            assert phase(app) == "cross" and "nothing to undo" not in screen_text(app)
            assert "The keys (road300 play" in screen_text(app)
            await pilot.press("escape")  # closes from either page
            assert "The keys (road300 play" not in screen_text(app)
            await pilot.press("f1", "escape")
            assert "How a round goes" not in screen_text(app) and phase(app) == "cross"

    asyncio.run(run())


@pytest.mark.slow
def test_rings_are_asked_and_a_ring_is_offered_only_when_legal(tmp_path: Path) -> None:
    async def run() -> None:
        app = make_app(tmp_path, "standard+rings=3")
        async with app.run_test(size=SIZE) as pilot:
            assert "How many rings do you declare?" in screen_text(app)
            await pilot.press("enter", "9", "1")
            assert app.game.rings == 1 and "rings: 1" in (tmp_path / "game.yaml").read_text()
            assert "r: spend a ring (1 left)" in screen_text(app)
            await pilot.press("r")
            assert isinstance(app.game.rounds[-1].step.action, RingReroll)
            await pilot.press("r")
            assert "no magic ring can be spent now" in screen_text(app)
            assert "Rings left 0 of 1" in screen_text(app)

    asyncio.run(run())


def test_no_color_keeps_every_meaning_in_symbols(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NO_COLOR", "1")

    async def run() -> None:
        app = make_app(tmp_path)
        async with app.run_test(size=SIZE) as pilot:
            assert app.no_color
            board = screen_text(app)
            assert "[+ 20 ]" in board  # the cursor on 1/4, a cross-out
            assert board.count("+ ") >= 6  # 1 4 6: six cross-outs, each marked
            await pilot.press("enter", "3", "3")
            board = screen_text(app)
            assert "# XX" in board  # the field crossed out this round
            assert "*" in board  # reachable fields
            assert "6 " in board and "1 " in board  # the walk's steps, numbered

    asyncio.run(run())


def test_screen_fits_80_by_24(tmp_path: Path) -> None:
    async def run() -> None:
        app = make_app(tmp_path, "bga+rings=3+escape=20")
        async with app.run_test(size=SIZE) as pilot:
            # At 80x24 the top line says nothing of the terminal's size (smaller, it does).
            assert "the game needs" not in screen_text(app)
            await pilot.press("3")
            await pilot.press("enter", "1", "4", "3", "3")
            lines = screen_text(app).splitlines()
            assert len(lines) == 24 and all(len(line) <= 80 for line in lines)
            text = "\n".join(lines)
            for part in ("Roll 1 of 80", "Score 0", "Passes 0/3 in total", "Rings left 3 of 3"):
                assert part in text
            assert "Walk 1 of" in text and "Enter confirm" in text

    asyncio.run(run())


def test_a_terminal_too_small_says_so_on_the_top_line(tmp_path: Path) -> None:
    """Below 80x24 the keys and the prompt are cut off: the top line, which stays, says
    why (at 80x24 it does not: test_screen_fits_80_by_24)."""

    async def run() -> None:
        app = make_app(tmp_path)
        async with app.run_test(size=(60, 20)):
            first = screen_text(app).splitlines()[0]
            assert "Terminal 60x20: the game needs 80x24" in first, first

    asyncio.run(run())


# --- 80x24: what must stay on screen (issue 21) ----------------------------------------

# Roll 1 crosses out 1/1 and enters; rolls 2-4 offer only 1/1 again: three forced rerolls,
# which a pass limit of 5 lets the game survive; roll 5 is played with a hint.
REROLLS = "1: 1 1 1\n2: 1 1 1\n3: 1 1 1\n4: 1 1 1\n5: 2 3 4\n6: 5 6 2\n7: 3 3 5\n"


def _reroll_game(tmp_path: Path, hint: float | None) -> PlayApp:
    dice = tmp_path / "rerolls.txt"
    dice.write_text(REROLLS)
    rules = tmp_path / "five.yaml"
    rules.write_text("name: five\nbase: standard\npass_limit: 5\n")
    start = start_game(dice, str(rules), output=tmp_path / "game.yaml")
    return PlayApp(start.game, start.record_file, dice_name=start.dice_name, hint_seconds=hint)


@pytest.mark.slow  # a whole Textual app (the plain step drives one game and the 80x24 screen)
def test_forced_rerolls_and_a_hint_leave_the_prompt_on_screen(tmp_path: Path) -> None:
    async def run() -> None:
        app = _reroll_game(tmp_path, hint=0.3)
        async with app.run_test(size=SIZE) as pilot:
            await app.workers.wait_for_complete()
            await pilot.press("1", "1", "6", "6", "enter")
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert app.game.row == 4, "rolls 2-4 were forced rerolls"
            lines = screen_text(app).splitlines()
            assert len(lines) == 24 and all(len(line) <= 80 for line in lines)
            screen = "\n".join(lines)
            # The three notices are one line, the hint and the whole prompt are shown.
            assert "! rolls 2-4: no cross-out, forced rerolls (3/5 in a row)" in screen
            assert screen.count("forced reroll") == 1
            assert "Hint" in screen and "cross out" in screen
            prompt = app._prompt().splitlines()
            assert prompt and all(line[:60] in screen for line in prompt), screen
            # The side panel: the score so far, and no warning (two more are allowed).
            assert f"Score {app.game.score} so far" in screen
            assert "reroll ends" not in screen

    asyncio.run(run())


@pytest.mark.slow  # a whole Textual app (the plain step drives one game and the 80x24 screen)
def test_the_side_panel_warns_when_the_next_reroll_ends_the_game(tmp_path: Path) -> None:
    dice = tmp_path / "two.txt"
    dice.write_text("1: 1 1 1\n2: 1 1 1\n3: 1 1 1\n4: 2 3 4\n5: 5 6 2\n")

    async def run() -> None:
        app = make_app(tmp_path, "standard", dice)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("1", "1", "6", "6", "enter")
            screen = screen_text(app)
            assert "Rerolls in a row 2/3" in screen
            assert "! next reroll ends game" in screen

    asyncio.run(run())


@pytest.mark.slow  # a whole Textual app (the plain step drives one game and the 80x24 screen)
def test_game_over_keeps_score_and_verdict_on_screen(tmp_path: Path) -> None:
    async def run() -> None:
        app = _reroll_game(tmp_path, hint=None)
        async with app.run_test(size=SIZE) as pilot:
            await play_by_keys(pilot, app, prefer("move"), seed=7)
            screen = screen_text(app)
            assert app.game.over and app.result is not None
            assert f"Game over (the dice file ran out): {app.game.score} points." in screen
            assert f"Check: valid: {app.result.score} points, game over" in screen
            assert "Record: " in screen
            assert f"Score {app.game.score} final" in screen

    asyncio.run(run())


@pytest.mark.slow  # a whole Textual app (the plain step drives one game and the 80x24 screen)
def test_undo_mid_round_steps_back_within_the_round(tmp_path: Path) -> None:
    async def run() -> None:
        app = make_app(tmp_path)
        async with app.run_test(size=SIZE) as pilot:
            rng = random.Random(3)
            await pilot.press(*prefer("move")(app.game, rng))
            assert len(app.game.rounds) == 1
            first = app.game.rounds[0].step
            cross = app.game.crosses()[0]
            option = app.game.options(cross)[0]
            keys = keys_for(app.game, cross, option)
            await pilot.press(*keys[:-1])  # the cross-out, the field: the walk is shown
            assert phase(app) == "walk"
            await pilot.press("u")
            assert phase(app) == "move" and len(app.game.rounds) == 1
            assert f"undid the choice of {option.target}" in screen_text(app)
            await pilot.press("u")
            assert phase(app) == "cross" and app.game.rounds[0].step == first
            assert f"undid the cross-out of {cross.field} (still roll 2)" in screen_text(app)
            await pilot.press("u")
            assert app.game.rounds == []
            assert f"undid roll 1: cross out {first.action.cross}" in screen_text(app)  # type: ignore[union-attr]
            await pilot.press("y")  # redo names what it played again, as undo does
            assert f"redid roll 1: cross out {first.action.cross}" in screen_text(app)  # type: ignore[union-attr]

    asyncio.run(run())


@pytest.mark.slow  # a whole Textual app (the plain step drives one game and the 80x24 screen)
def test_the_hint_is_marked_on_the_board_and_h_hides_it(tmp_path: Path) -> None:
    async def run() -> None:
        app = _reroll_game(tmp_path, hint=0.3)
        async with app.run_test(size=SIZE) as pilot:
            await app.workers.wait_for_complete()
            await pilot.pause()
            best = app.hint_action
            assert isinstance(best, Play)
            board = app.board_text().plain
            assert board.count("H") == 1 and "H" in screen_text(app)
            letters = app._hint_marks()
            assert letters[best.cross] == "H"
            if best.move is not None and best.move != best.cross:
                assert letters[best.move] == "h"
            await pilot.press("h")
            assert "H" not in app.board_text().plain
            assert "hint's marks (H, h) hidden" in screen_text(app)
            await pilot.press("h")
            assert app.board_text().plain.count("H") == 1

    asyncio.run(run())


def test_the_rings_question_names_its_keys() -> None:
    assert ring_keys(1) == "1"
    assert ring_keys(2) == "1 or 2"
    assert ring_keys(3) == "1, 2 or 3"


def board_cell(app: PlayApp, field: Field) -> str:
    """The seven characters of one field on the board, as the screen draws them."""
    from validator.tui.app import CELL, LABEL

    line = app.board_text().plain.splitlines()[1 + 2 * (field.row - 1)].ljust(LABEL + 6 * CELL)
    start = LABEL + (field.col - 1) * CELL
    return line[start : start + CELL]


def test_the_hint_letters_stand_beside_the_fields_own_marks(tmp_path: Path) -> None:
    """With --hint, the hinted cross-out keeps its `+` beside its `H`, and once it is
    chosen the hinted field keeps its `*` beside its `h`: "Choose a field marked *" shows
    the `*` there too. (The first five rows of the challenge: the marks are the same on any
    file, and on five rows the search proves its ranking at once, where on eight it
    searched for the whole 0.3 s, and on the whole file a second.)"""

    async def run() -> None:
        start = start_game(short_dice(tmp_path, 5), None, output=tmp_path / "game.yaml")
        app = PlayApp(start.game, start.record_file, dice_name=start.dice_name, hint_seconds=0.3)
        async with app.run_test(size=SIZE) as pilot:
            await app.workers.wait_for_complete()
            await pilot.pause()
            best = app.hint_action
            assert isinstance(best, Play) and best.move is not None
            away = next(f for f in ALL_FIELDS if f not in (best.cross, best.move))
            app.cursor = away  # the cursor's brackets are not what is tested
            cross = board_cell(app, best.cross)
            assert cross == f" + {best.cross.value:>2}H ", cross
            # On these dice the hinted field may be crossed out too: its `+` stays as well.
            crossable = "+" if best.move in [c.field for c in app.game.crosses()] else " "
            assert board_cell(app, best.move) == f" {crossable} {best.move.value:>2}h "
            await pilot.press(*str(best.cross.row), *str(best.cross.col))
            assert phase(app) == "move"
            app.cursor = away
            shown = board_cell(app, best.move)
            assert shown == f" * {best.move.value:>2}h ", shown
            assert "marked *" in screen_text(app)
            await pilot.press("h")  # hidden: the * stays
            assert board_cell(app, best.move) == f" * {best.move.value:>2}  "

    asyncio.run(run())


@pytest.mark.parametrize(
    ("rules", "rerolls"),
    [(None, "a forced reroll; 3 in a row end the game."), ("bga", "3 in the whole game end it.")],
)
def test_help_gives_the_rules_and_the_marks_then_the_keys(
    tmp_path: Path, rules: str | None, rerolls: str
) -> None:
    """`?` first says how a round goes (its steps, how the game ends under the game's
    rules) and what every mark means, then the keys; both pages fit the 80x24 screen."""

    async def run() -> None:
        app = make_app(tmp_path, rules)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("question_mark")
            screen = screen_text(app)
            lines = screen.splitlines()
            assert len(lines) == 24 and all(len(line) <= 80 for line in lines)
            said = " ".join(screen.replace("│", " ").split())
            for words in (
                "1. Three dice are rolled. Cross out a free field that two of them name",
                "The third die is how far you move.",
                "2. From your second move on, the field you start from gets its X.",
                "3. Walk exactly that many steps, up, down, left or right",
                "the field you end on gets a circle and scores its points",
                "move enters the board through a corner.",
                rerolls,
                "When the moving die has no walk, the game ends. Aim: 300 points.",
                "+ a field you may cross out",
                "* a field the moving die reaches",
                "(30) circled: your points",
                "H, h the hint: cross-out, field",
            ):
                assert words in said, words
            assert "Enter, Space" not in said
            await pilot.press("x")
            assert "Enter, Space choose the field under the cursor" in " ".join(
                screen_text(app).replace("│", " ").split()
            )
            await pilot.press("x")
            assert "Enter, Space" not in screen_text(app) and phase(app) == "cross"

    asyncio.run(run())
