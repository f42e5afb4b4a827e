"""`road300 draw`: pick prize winners among the entries with 300 or more, reproducibly."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import click

from validator.cli.common import EXIT_FAILED, EXIT_OK, fail_usage


@click.command("draw")
@click.argument("results", type=click.Path(path_type=Path, dir_okay=False))
@click.option("--winners", "-n", type=click.IntRange(min=1), default=1, show_default=True)
@click.option(
    "--seed",
    required=True,
    help="Any text, announced before the draw (a date, a lottery number); the same seed "
    "and results give the same winners on any machine.",
)
@click.option(
    "--min-score",
    type=click.IntRange(min=0),
    default=300,
    show_default=True,
    help="The score an entry needs to take part (valid entries only).",
)
def command(results: Path, winners: int, seed: str, min_score: int) -> None:
    """Draw winners among the valid entries with at least 300 points in RESULTS, the
    output of `road300 batch --output results.json` (or .csv).

    \b
    Example:
      road300 draw results.json --winners 3 --seed "2024-06-01 lottery 17 23 42"

    The draw sorts the eligible files, then orders them by SHA-256 of the seed, the
    list and each file (see docs/batch.md), so anyone can check it.
    Exit status: 0 winners drawn, 1 no entry can take part, 2 unusable results file.
    """
    from validator.draw import DrawError, draw, eligible, file_sha256, load_results

    try:
        entries = load_results(results)
    except DrawError as exc:
        fail_usage(str(exc))
    candidates = eligible(entries, min_score)
    if not candidates:
        click.echo(
            f"{results}: no entry is valid with {min_score} points or more "
            f"({len(entries)} entries); nobody can be drawn."
        )
        sys.exit(EXIT_FAILED)
    result = draw(candidates, seed, winners)
    out = click.echo
    out(f"Results: {results} (SHA-256 {file_sha256(results)})")
    out(
        f"Eligible: {len(result.eligible)} valid entries with {min_score}+ points "
        f"(SHA-256 of the sorted list {result.list_sha256})"
    )
    out(f"Seed: {seed!r}")
    if winners > len(result.eligible):
        out(f"Only {len(result.eligible)} eligible for {winners} prizes: every one wins.")
    out("Winners:")
    for n, c in enumerate(result.winners, start=1):
        who = f"{c.player}  " if c.player else ""
        out(f"  {n}. {who}{c.file}  ({c.score} points)")
    copied = [c for c in result.eligible if c.copies]
    if copied:
        out(
            f"Note: {len(copied)} eligible entries are copies of another entry "
            f"({', '.join(c.file for c in copied)}); remove them from {results} first if "
            "they may not take part."
        )
    command_line = ["road300", "draw", str(results), "--winners", str(winners), "--seed", seed]
    if min_score != 300:
        command_line += ["--min-score", str(min_score)]
    out("Re-run the draw: " + shlex.join(command_line))
    sys.exit(EXIT_OK)
