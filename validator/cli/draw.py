"""`road300 draw`: pick prize winners among the entries with 300 or more, reproducibly."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from validator.cli.common import EXIT_FAILED, EXIT_OK, fail_usage
from validator.cli.contest_file import ContestCommand, contest_option
from validator.cli.output import counted

if TYPE_CHECKING:
    from validator.contest.batch import Entry


@click.command("draw", cls=ContestCommand)
@contest_option
@click.argument("results", type=click.Path(path_type=Path, dir_okay=False))
@click.option(
    "--winners",
    "-n",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="How many winners to draw (prizes); when fewer entries take part, every one wins.",
)
@click.option(
    "--seed",
    help="Any text, announced before the draw (a date, a lottery number); the same seed "
    "and results give the same winners on any machine. Default: the contest file's "
    "seed (under [draw]); the draw needs one of them.",
)
@click.option(
    "--min-score",
    type=click.IntRange(min=0),
    default=300,
    show_default=True,
    help="The score an entry needs to take part (valid entries only).",
)
@click.option(
    "--exclude-copies",
    is_flag=True,
    help="Leave out every entry whose game another entry of RESULTS played too.",
)
@click.option(
    "--keep-first",
    is_flag=True,
    help="With --exclude-copies: keep the first entry of each copied game, by file name "
    "with numbers as numbers (for mail the mailbox's order; name files by date of arrival "
    "to make that the first sent).",
)
@click.option(
    "--one-per-player",
    is_flag=True,
    help="At most one ticket per player (names compared ignoring case and spaces): each "
    "player's first entry by file name.",
)
def command(
    results: Path,
    winners: int,
    seed: str | None,
    min_score: int,
    exclude_copies: bool,
    keep_first: bool,
    one_per_player: bool,
) -> None:
    """Draw winners among the valid entries with at least 300 points in RESULTS, the
    output of `road300 batch --output results.json` (or .csv).

    \b
    Example:
      road300 draw results.json --winners 3 --seed "2024-06-01 lottery 17 23 42"

    The draw sorts the eligible files, then orders them by SHA-256 of the seed, the
    list and each file (see docs/batch.md), so anyone can check it.

    Exit status: 0 winners drawn, 1 no entry can take part, 2 no seed or an unusable
    results file.
    """
    from validator.contest import draw as drawing
    from validator.render.sanitize import plain_text as safe

    if keep_first and not exclude_copies:
        fail_usage("--keep-first goes with --exclude-copies")
    if seed is None:
        from validator.cli.contest_file import where_to_set
        from validator.contest.config import SEED_EXAMPLE

        fail_usage(
            "no seed for the draw: announce one before it, then "
            + where_to_set("--seed TEXT", "draw.seed", SEED_EXAMPLE)
        )
    try:
        entries = drawing.load_results(results)
    except drawing.DrawError as exc:
        fail_usage(safe(str(exc)))
    candidates = eligible = drawing.eligible(entries, min_score)
    left_out = drawing.not_counting(entries, min_score)
    not_counting = len(left_out)
    copies_left = players_left = 0
    if exclude_copies:
        candidates, left = drawing.exclude_copies(candidates, entries, keep_first=keep_first)
        left_out += left
        copies_left = len(left)
    if one_per_player:
        candidates, left = drawing.one_per_player(candidates)
        left_out += left
        players_left = len(left)
    out = click.echo
    if not candidates:
        if left_out:
            out(f"Left out: {len(left_out)}")
            for gone in left_out:
                out(f"  {safe(gone.entry.file)}: {safe(gone.reason)}")
        out(
            nobody_drawn(
                str(results),
                len(entries),
                min_score,
                eligible,
                copies_left,
                players_left,
                not_counting,
            )
        )
        sys.exit(EXIT_FAILED)
    result = drawing.draw(candidates, seed, winners)
    out(f"Results: {safe(str(results))} (SHA-256 {drawing.file_sha256(results)})")
    out(
        f"Eligible: {counted(len(result.eligible), 'valid entry', 'valid entries')} "
        f"with {min_score}+ points "
        f"(SHA-256 of the sorted list {result.list_sha256})"
    )
    if left_out:
        out(f"Left out: {len(left_out)}")
        for gone in left_out:
            out(f"  {safe(gone.entry.file)}: {safe(gone.reason)}")
    out(f"Seed: {safe(repr(seed))}")
    if winners > len(result.eligible):
        out(f"Only {len(result.eligible)} eligible for {winners} prizes: every one wins.")
    out("Winners:")
    for n, c in enumerate(result.winners, start=1):
        who = f"{safe(c.player)}  " if c.player else ""
        out(f"  {n}. {who}{safe(c.file)}  ({c.score} points)")
    copies = [] if exclude_copies else drawing.copied(result.eligible, entries)
    if copies:
        out(
            f"Note: {len(copies)} eligible entries played the same game as another entry of "
            f"{safe(str(results))} ({', '.join(safe(c.file) for c in copies)}); give "
            "--exclude-copies (and --keep-first) if copies may not take part."
        )
    command_line = ["road300", "draw", str(results), "--winners", str(winners), "--seed", seed]
    if min_score != 300:
        command_line += ["--min-score", str(min_score)]
    flags = (
        ("--exclude-copies", exclude_copies),
        ("--keep-first", keep_first),
        ("--one-per-player", one_per_player),
    )
    command_line += [flag for flag, on in flags if on]
    out("Re-run the draw: " + safe(shlex.join(command_line)))
    sys.exit(EXIT_OK)


def nobody_drawn(
    results: str,
    entries: int,
    min_score: int,
    eligible: list[Entry],
    copies: int,
    players: int,
    not_counting: int = 0,
) -> str:
    """Why nobody can be drawn: no entry is valid with enough points, or every one that is
    was left out (late or superseded, by --exclude-copies or --one-per-player), as many
    as each reason."""
    from validator.render.sanitize import plain_text as safe

    where = f"{safe(results)}: "
    if not eligible and not not_counting:
        return (
            f"{where}no entry is valid with {min_score} points or more "
            f"({counted(entries, 'entry', 'entries')}); nobody can be drawn."
        )
    if not eligible:
        n = not_counting
        return (
            f"{where}{n} {'entry is' if n == 1 else 'entries are'} valid with {min_score} points "
            f"or more ({counted(entries, 'entry', 'entries')} in all), but "
            f"{'it is' if n == 1 else 'every one is'} late or superseded (listed above); "
            "nobody can be drawn. Is the deadline right?"
        )
    why = []
    if copies:
        why.append(f"{copies} as {'a copy' if copies == 1 else 'copies'} (--exclude-copies)")
    if players:
        why.append(f"{players} as another entry of the same player (--one-per-player)")
    n = len(eligible)
    return (
        f"{where}{n} {'entry is' if n == 1 else 'entries are'} valid with {min_score} points "
        f"or more, but {'it was' if n == 1 else 'all were'} left out: {', '.join(why)}; "
        "nobody can be drawn."
    )
