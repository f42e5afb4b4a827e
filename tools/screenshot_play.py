"""Regenerate docs/play.svg: the `road300 play` screen in the middle of a game on the example
challenge, with a cross-out chosen and a walk drawn.

Run: python tools/screenshot_play.py   (deterministic: the same game every time)
"""

from __future__ import annotations

import asyncio
import os
import random
import tempfile
from pathlib import Path

from validator.tui.app import PlayApp
from validator.tui.drive import keys_for
from validator.tui.start import start_game

ROOT = Path(__file__).resolve().parent.parent
CHALLENGE = ROOT / "examples" / "challenge.txt"
OUTPUT = ROOT / "docs" / "play.svg"
ROUNDS = 9
SEED = 300


async def screenshot(folder: Path) -> None:
    os.environ.pop("NO_COLOR", None)
    start = start_game(CHALLENGE, "standard", output=folder / "my-game.yaml", player="Alice")
    app = PlayApp(start.game, start.record_file, dice_name=CHALLENGE.name)
    rng = random.Random(SEED)
    async with app.run_test(size=(80, 24)) as pilot:
        while len(app.game.rounds) < ROUNDS and not app.game.over:
            # The field worth most among those that keep the game going: a plausible game.
            game = app.game
            pairs = [(c, o) for c in game.crosses() for o in game.options(c)]
            going = [(c, o) for c, o in pairs if not game.after(o.action)[0].over] or pairs
            best = max(o.target.value if o.target else 0 for _, o in going)
            cross, option = rng.choice(
                [(c, o) for c, o in going if (o.target.value if o.target else 0) == best]
            )
            await pilot.press(*keys_for(game, cross, option))
        # The next round: a cross-out chosen, a field chosen, its second walk drawn.
        game = app.game
        moves = [(c, o) for c in game.crosses() for o in game.options(c) if o.kind == "move"]
        cross, target = max(
            moves, key=lambda m: sum(o.target == m[1].target for c, o in moves if c == m[0])
        )
        keys = keys_for(game, cross, target)[:-1]
        await pilot.press(*keys, "w")
        await pilot.pause()
        app.save_screenshot(OUTPUT.name, path=str(OUTPUT.parent))


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(screenshot(Path(tmp)))
    print(f"wrote {OUTPUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
