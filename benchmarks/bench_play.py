"""Key-to-screen latency of `road300 play` on a 40-row dice file.

Target (issue #13): the screen answers each key in under 50 ms. Measured headless: from
the moment the app receives a key event to the moment the updated screen is handed to the
terminal driver, over whole games played by keys (arrows, Tab, typed fields, walk
cycling, confirmations, undo and redo).
Run: python benchmarks/bench_play.py [--games N]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from textual import events

from validator.tui.app import PlayApp
from validator.tui.drive import keys_for
from validator.tui.start import start_game

ROOT = Path(__file__).resolve().parent.parent
CHALLENGE = ROOT / "examples" / "challenge.txt"
ROWS = 40
TARGET_MS = 50.0


class TimedApp(PlayApp):
    """PlayApp that notes how long each key takes to reach the screen."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.latencies: list[float] = []
        self._key_at: float | None = None

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key) and self._key_at is None:
            self._key_at = time.perf_counter()
        await super().on_event(event)

    def _display(self, screen: Any, renderable: Any) -> None:
        super()._display(screen, renderable)
        if self._key_at is not None:
            self.latencies.append(time.perf_counter() - self._key_at)
            self._key_at = None


def dice_file(folder: Path) -> Path:
    lines = [x for x in CHALLENGE.read_text().splitlines() if x[:1].isdigit()][:ROWS]
    path = folder / "forty.txt"
    path.write_text("\n".join(lines) + "\n")
    return path


async def one_game(folder: Path, seed: int) -> list[float]:
    dice = dice_file(folder)
    start = start_game(dice, "standard", output=folder / f"game{seed}.yaml")
    app = TimedApp(start.game, start.record_file, dice_name=dice.name)
    rng = random.Random(seed)
    async with app.run_test(size=(80, 24)) as pilot:
        while not app.game.over:
            await pilot.press("tab", "shift+tab", "right", "left")
            cross = rng.choice(app.game.crosses())
            option = rng.choice(app.game.options(cross))
            keys = keys_for(app.game, cross, option)
            if len(app.game.rounds) % 7 == 3:
                keys += ["u", "y"]
            await pilot.press(*keys)
    return app.latencies


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=3)
    args = parser.parse_args()
    latencies: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(args.games):
            latencies += asyncio.run(one_game(Path(tmp), seed))
    ms = sorted(x * 1000 for x in latencies)
    p95 = ms[int(len(ms) * 0.95) - 1]
    verdict = "PASS" if p95 < TARGET_MS else "FAIL"
    print(f"{len(ms)} keys over {args.games} game(s) on a {ROWS}-row dice file")
    median = statistics.median(ms)
    print(f"median {median:.1f} ms, 95th percentile {p95:.1f} ms, max {ms[-1]:.1f} ms")
    print(f"95th percentile < {TARGET_MS:.0f} ms: {verdict}")
    return 0 if verdict == "PASS" else 1


if __name__ == "__main__":
    sys.exit(main())
