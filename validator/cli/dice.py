"""`road300 dice`: write a new challenge dice file from a seed, reproducibly."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import click

from validator.cli.common import EXIT_OK, fail_usage, write_output


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
@click.option("--rows", type=click.IntRange(min=1, max=100_000), required=True)
@click.option("--seed", required=True, help="Any text; the same seed gives the same rolls.")
@click.option(
    "--output",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Write the dice file here (.txt) instead of printing it.",
)
@click.option("--force", is_flag=True, help="Replace an existing --output file.")
def command(rows: int, seed: str, output: Path | None, force: bool) -> None:
    """Write a new challenge dice file: ROWS rolls of three dice, one roll per line.

    \b
    Example:
      road300 dice --rows 60 --seed "spring cup 2025" --output challenge.txt
      road300 solve challenge.txt --stats

    Exit status: 0 written, 2 bad options or an unwritable --output.
    """
    if output is not None and output.suffix.lower() not in ("", ".txt"):
        fail_usage(f"{output}: dice files are written as plain text; name it .txt")
    text = dice_text(rows, seed)
    write_output(output, text, "the dice file", overwrite=force)
    if output is not None and str(output) != "-":
        click.echo(f"wrote {rows} rolls to {output}")
    sys.exit(EXIT_OK)
