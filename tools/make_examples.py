"""Regenerate examples/: the challenge dice file from a fixed seed and a winning game.

Run: python tools/make_examples.py   (deterministic: the same files every time)
"""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

from validator.engine import STANDARD, score
from validator.records import dump_record
from validator.solver.playout import beam_game, to_record

SEED = "road300-example-challenge"
ROWS = 80
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def dice_rows(seed: str = SEED, count: int = ROWS) -> list[tuple[int, int, int]]:
    rng = random.Random(seed)
    return [(rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6)) for _ in range(count)]


def main() -> None:
    rows = dice_rows()
    text = f"# Road to 300 example challenge: {ROWS} rolls from the seed {SEED!r}\n"
    text += "".join(f"{i}: {a} {b} {c}\n" for i, (a, b, c) in enumerate(rows, start=1))
    (EXAMPLES / "challenge.txt").write_text(text)
    game = beam_game(rows, STANDARD, width=400)
    final = score(game[-1].state, STANDARD)
    record = replace(
        to_record(game, player="Alice Example"),
        dice_file="challenge.txt",
        claimed_score=final,
    )
    for fmt, ext in (("yaml", "yaml"), ("json", "json"), ("text", "txt"), ("csv", "csv")):
        try:
            (EXAMPLES / f"alice.{ext}").write_text(dump_record(record, fmt))
        except ModuleNotFoundError:
            print(f"skipped {fmt}: no writer yet")
    print(f"winning game: {final} points in {len(game)} rounds")


if __name__ == "__main__":
    main()
