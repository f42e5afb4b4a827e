"""`road300 draw`: pick prize winners among the entries with 300 or more, reproducibly."""

from __future__ import annotations

import shlex
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import click

from validator.cli.common import EXIT_FAILED, EXIT_OK, fail_usage
from validator.cli.contest_file import ContestCommand, contest_option
from validator.cli.output import counted

if TYPE_CHECKING:
    from validator.contest.draw import Outcome


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

    With a contest run by `road300 contest run` (its ledger exists), the draw is refused
    before the contest's deadline, and recorded in the ledger: the seed, the eligible
    entries in order (players and their games' hashes), the winners and this command.

    Exit status: 0 winners drawn, 1 no entry can take part, 2 no seed, an unusable
    results file, or the deadline of a running contest not passed yet.
    """
    from validator.contest import draw as drawing
    from validator.render.sanitize import plain_text as safe

    try:
        options = drawing.DrawOptions(
            winners, min_score, exclude_copies, keep_first, one_per_player
        )
    except drawing.DrawError as exc:
        fail_usage(str(exc))
    if seed is None:
        from validator.cli.contest_file import where_to_set
        from validator.contest.config import SEED_EXAMPLE

        fail_usage(
            "no seed for the draw: announce one before it, then "
            + where_to_set("--seed TEXT", "draw.seed", SEED_EXAMPLE)
        )
    from validator.cli.contest_run import draw_allowed, record_draw

    try:
        outcome = drawing.run(results, seed, options)
    except drawing.DrawError as exc:
        fail_usage(safe(str(exc)))
    draw_allowed(outcome)
    for line in report(outcome):
        click.echo(line)
    record_draw(outcome)
    sys.exit(EXIT_OK if outcome.drawn is not None else EXIT_FAILED)


def report(outcome: Outcome) -> Iterator[str]:
    """What `road300 draw` prints of a draw: the results' and the list's checksums, who
    was left out and why, the seed, the winners, and the command that draws them again;
    or why nobody could be drawn."""
    from validator.contest.draw import file_sha256
    from validator.render.sanitize import plain_text as safe

    options, results, drawn = outcome.options, safe(str(outcome.results)), outcome.drawn
    left_out = [f"Left out: {len(outcome.left_out)}"] if outcome.left_out else []
    left_out += [f"  {safe(gone.entry.file)}: {safe(gone.reason)}" for gone in outcome.left_out]
    if drawn is None:
        yield from left_out
        yield nobody_drawn(outcome)
        return
    yield f"Results: {results} (SHA-256 {file_sha256(outcome.results)})"
    yield (
        f"Eligible: {counted(len(drawn.eligible), 'valid entry', 'valid entries')} "
        f"with {options.min_score}+ points "
        f"(SHA-256 of the sorted list {drawn.list_sha256})"
    )
    yield from left_out
    yield f"Seed: {safe(repr(outcome.seed))}"
    if options.winners > len(drawn.eligible):
        yield f"Only {len(drawn.eligible)} eligible for {options.winners} prizes: every one wins."
    yield "Winners:"
    for n, c in enumerate(drawn.winners, start=1):
        who = f"{safe(c.player)}  " if c.player else ""
        yield f"  {n}. {who}{safe(c.file)}  ({c.score} points)"
    if outcome.copies:
        yield (
            f"Note: {len(outcome.copies)} eligible entries played the same game as another "
            f"entry of {results} ({', '.join(safe(c.file) for c in outcome.copies)}); give "
            "--exclude-copies (and --keep-first) if copies may not take part."
        )
    yield "Re-run the draw: " + safe(shlex.join(outcome.command_line()))


def nobody_drawn(outcome: Outcome) -> str:
    """Why nobody can be drawn: no entry is valid with enough points, or every one that is
    was left out (late or superseded, by --exclude-copies or --one-per-player), as many
    as each reason."""
    from validator.render.sanitize import plain_text as safe

    where = f"{safe(str(outcome.results))}: "
    entries, min_score = len(outcome.entries), outcome.options.min_score
    eligible, copies, players = outcome.eligible, outcome.copies_left, outcome.players_left
    not_counting = outcome.not_counting
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
