"""`road300 contest`: set up a challenge (`road300 contest init` writes its contest file)."""

from __future__ import annotations

from pathlib import Path

import click

from validator.cli.common import fail_usage


@click.group("contest")
def command() -> None:
    """Set up a challenge run from a contest file (see docs/contest.md).

    Exit status: 0 done, 2 the command could not run (a file that exists without
    --force, or one that cannot be written).
    """


@command.command("init")
@click.argument(
    "file", type=click.Path(path_type=Path, dir_okay=False), default=Path("road300.toml")
)
@click.option(
    "--name",
    default="Road to 300 challenge",
    show_default=True,
    help="The contest's name (the results site's title).",
)
@click.option(
    "--dice",
    default="dice.txt",
    show_default=True,
    help="The official dice file, relative to FILE.",
)
@click.option(
    "--organizer",
    metavar="ADDRESS",
    help="The From: of the replies. Default: left out (commented), for you to set before "
    "`batch --replies`.",
)
@click.option(
    "--deadline",
    metavar="DATETIME",
    help="ISO 8601 with offset: mails dated later are late. Default: left out (commented): "
    "no mail is late until it is set.",
)
@click.option("--force", is_flag=True, help="Overwrite FILE if it exists.")
def init(
    file: Path, name: str, dice: str, organizer: str | None, deadline: str | None, force: bool
) -> None:
    """Write a commented contest file to FILE (default road300.toml, which the commands find
    in the current folder and beside their source), once it is checked to read back.

    Exit status: 0 written, 2 FILE exists (give --force), an option's value would not read
    back (nothing is written), or FILE cannot be written.
    """
    import json
    from datetime import datetime

    from validator.cli.output import Target
    from validator.contest.config import (
        SEED_EXAMPLE,
        TEMPLATE,
        UNSET_DEADLINE,
        UNSET_ORGANIZER,
        ContestError,
        parse_contest,
    )

    target = Target.of(file, "the contest file", precious=True, force=force, named_by="FILE")
    target.check()
    deadline_line = UNSET_DEADLINE
    if deadline is not None:
        try:
            when = datetime.fromisoformat(deadline)
        except ValueError:
            fail_usage(f"--deadline: {deadline!r} is not ISO 8601, like 2026-12-20T23:59:59+01:00")
        if when.tzinfo is None:
            fail_usage("--deadline: give its offset, like 2026-12-20T23:59:59+01:00")
        deadline_line = f"deadline = {when.isoformat()}"
    # JSON strings are TOML basic strings: quotes and backslashes stay text.
    text = TEMPLATE.format(
        name=json.dumps(name)[1:-1],
        dice=json.dumps(dice)[1:-1],
        organizer=UNSET_ORGANIZER if organizer is None else f"organizer = {json.dumps(organizer)}",
        deadline=deadline_line,
        seed_example=SEED_EXAMPLE,
    )
    try:  # checked before it is written: a refused file is not left behind
        parse_contest(text, file)
    except ContestError as exc:
        fail_usage(f"{exc} (from the options given); nothing was written")
    target.write(text)
    unset = [key for key, value in (("deadline", deadline), ("organizer", organizer)) if not value]
    if unset:
        keys = " and ".join(unset)
        click.echo(f"{file}: {keys} left commented out: set {'them' if len(unset) > 1 else 'it'}")
    click.echo(f"{file}: edit it, then run road300 batch MAILBOX (docs/contest.md)")
