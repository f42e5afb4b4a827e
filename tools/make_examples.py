"""Regenerate examples/: the challenge dice file from a fixed seed, a winning game, and
the invalid examples made by changing that game (`INVALID`).

Run: python tools/make_examples.py   (deterministic: the same files every time)
     python tools/make_examples.py --invalid   (only the invalid examples, from alice.yaml)
"""

from __future__ import annotations

import random
import re
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from validator.engine import STANDARD, score
from validator.records import dump_record
from validator.solver.playout import beam_game, to_record

SEED = "road300-example-challenge"
ROWS = 80
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
INVALID_DIR = EXAMPLES / "invalid"

Lines = list[str]


def _header(key: str, value: str) -> Callable[[Lines], Lines]:
    """Add `key: value` to the record's header."""

    def change(lines: Lines) -> Lines:
        at = lines.index("rounds:")
        return [*lines[:at], f"{key}: {value}", *lines[at:]]

    return change


def _round(roll: int, new: str) -> Callable[[Lines], Lines]:
    """Replace the round on dice row `roll` by `new` (flow YAML, without the dash)."""

    def change(lines: Lines) -> Lines:
        found = [n for n, line in enumerate(lines) if line.startswith(f"  - {{roll: {roll},")]
        assert len(found) == 1, roll
        return [*lines[: found[0]], f"  - {new}", *lines[found[0] + 1 :]]

    return change


def _first_rounds(new: list[str]) -> Callable[[Lines], Lines]:
    """Put `new` rounds before the first round."""

    def change(lines: Lines) -> Lines:
        at = lines.index("rounds:") + 1
        return [*lines[:at], *(f"  - {r}" for r in new), *lines[at:]]

    return change


SHORT_DICE = "e104-twenty-rows.txt"
"""The dice file of the E104 example: the challenge's first 20 rows only."""


def _drop_rounds(*rolls: int) -> Callable[[Lines], Lines]:
    """Leave out the rounds on these dice rows."""
    names = tuple(f"  - {{roll: {roll}," for roll in rolls)
    return lambda lines: [line for line in lines if not line.startswith(names)]


INVALID: list[tuple[str, str, list[Callable[[Lines], Lines]]]] = [
    (
        "e104-roll-missing.yaml",
        f"E104 roll 21: the dice file {SHORT_DICE} ends with two forced rerolls (rows 19 "
        "and 20); the next round names row 21",
        [
            lambda lines: [line.replace("../challenge.txt", SHORT_DICE) for line in lines],
            _drop_rounds(19, 20),
        ],
    ),
    (
        "e108-dice-checksum.yaml",
        "E108 roll none: dice_sha256 is not the SHA-256 of ../challenge.txt",
        [_header("dice_sha256", "deadbeef" * 8)],
    ),
    (
        "e109-rings-declared.yaml",
        "E109 roll none: 2 rings declared, but the standard ruleset has no magic rings",
        [_header("rings", "2")],
    ),
    (
        "e208-exit-not-allowed.yaml",
        "E208 roll 2: leaves the board (escape) without the Escape! expansion",
        [_round(2, "{roll: 2, cross: [3, 5], move: escape}")],
    ),
    (
        "e209-exit-unreachable.yaml",
        "E209 roll 8: with Escape!, no free corner is within the 4 steps of roll 8",
        [
            _header("rules", "standard+escape=20"),
            _round(8, "{roll: 8, cross: [1, 5], move: escape}"),
        ],
    ),
    (
        "e211-ring-not-allowed.yaml",
        "E211 roll 21: a ring reroll without The magic rings!",
        [_round(21, "{roll: 21, ring: true}")],
    ),
    (
        "e212-ring-none-left.yaml",
        "E212 roll 2: one ring declared and spent on roll 1; round 2 spends another",
        [
            _header("rules", "standard+rings=3"),
            _header("rings", "1"),
            _first_rounds(["{roll: 1, ring: true}", "{roll: 2, ring: true}"]),
        ],
    ),
    (
        "e213-ring-on-reroll.yaml",
        "E213 roll 19: roll 19 (5 5 5) is a forced reroll: no ring can be spent on it",
        [
            _header("rules", "standard+rings=3"),
            _header("rings", "1"),
            _round(19, "{roll: 19, ring: true}"),
        ],
    ),
]
"""Invalid examples made from alice.yaml: file name, what the first line says (`CODE roll
N: what is wrong`, which tests/test_acceptance.py checks), and the changes."""


def invalid_examples() -> dict[str, str]:
    """File name -> text of each example in INVALID (and the E104 example's dice file)."""
    alice = (EXAMPLES / "alice.yaml").read_text(encoding="utf-8").splitlines()
    alice = [
        line.replace("dice_file: challenge.txt", "dice_file: ../challenge.txt") for line in alice
    ]
    out = {}
    for name, comment, changes in INVALID:
        lines = alice
        for change in changes:
            lines = change(lines)
        out[name] = "\n".join([f"# {comment}", *lines]) + "\n"
    rows = (EXAMPLES / "challenge.txt").read_text(encoding="utf-8").splitlines()
    numbered = [line for line in rows if re.match(r"\d+:", line)]
    out[SHORT_DICE] = "# the first 20 rows of ../challenge.txt\n" + "\n".join(numbered[:20]) + "\n"
    return out


def write_invalid_examples() -> None:
    for name, text in invalid_examples().items():
        (INVALID_DIR / name).write_text(text, encoding="utf-8")


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
    write_invalid_examples()


if __name__ == "__main__":
    if "--invalid" in sys.argv[1:]:
        write_invalid_examples()
    else:
        main()
