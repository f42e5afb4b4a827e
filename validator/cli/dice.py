"""`road300 dice`: write a new challenge dice file from a seed, reproducibly."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import click

from validator.cli.common import EXIT_OK, fail_usage
from validator.cli.output import Target, output_option


def dice_text(rows: int, seed: str) -> str:
    """The dice file for a seed: a comment naming it, then one numbered roll per line.

    The same seed and row count give the same file on any machine (Python's Mersenne
    Twister seeded with the text)."""
    rng = random.Random(seed)
    lines = [f"# Road to 300 challenge: {rows} rolls from the seed {seed!r}"]
    for n in range(1, rows + 1):
        a, b, c = (rng.randint(1, 6) for _ in range(3))
        lines.append(f"{n}: {a} {b} {c}")
    return "\n".join(lines) + "\n"


@click.command("dice")
@click.option(
    "--rows",
    type=click.IntRange(min=1, max=100_000),
    required=True,
    help="How many rolls (rows) the file has; a challenge has about 50 to 80.",
)
@click.option("--seed", required=True, help="Any text; the same seed gives the same rolls.")
@output_option("the dice file (.txt)", precious=True)
def command(rows: int, seed: str, output: Path | None, force: bool) -> None:
    """Write a new challenge dice file: ROWS rolls of three dice, one roll per line.

    \b
    Example:
      road300 dice --rows 60 --seed "spring cup 2025" --output challenge.txt
      road300 solve challenge.txt --stats

    A dice file is precious (entries are checked against it): an existing --output file
    is replaced only with --force.

    Exit status: 0 written, 2 bad options, an existing --output without --force, or an
    unwritable --output.
    """
    target = Target.of(output, "the dice file", precious=True, force=force)
    if target.path is not None and target.path.suffix.lower() not in ("", ".txt"):
        fail_usage(f"{target.path}: dice files are written as plain text; name it .txt")
    target.write(dice_text(rows, seed), f"{rows} rolls")
    sys.exit(EXIT_OK)
