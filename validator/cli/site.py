"""`road300 site`: the challenge's site before results exist: the announcement and the
dice file's game in the browser (play.html)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from validator.cli.common import EXIT_OK, fail_usage, lang_option, language, rules_option


@click.command("site")
@click.argument("dice", type=click.Path(path_type=Path))
@rules_option
@click.option(
    "--name", default="Road to 300 challenge", show_default=True, help="The challenge's name."
)
@click.option(
    "--deadline", metavar="DATETIME", help="When records must be in, as it is to be shown."
)
@click.option(
    "--organizer",
    metavar="ADDRESS",
    help="The address to send records to; shown on the pages and used by the mail link. "
    "Give it only when it may be published.",
)
@lang_option
@click.option(
    "-o",
    "--output",
    "out_dir",
    type=click.Path(path_type=Path, file_okay=False),
    required=True,
    help="The folder to write index.html and play.html into (made when missing).",
)
@click.option("--force", is_flag=True, help="Replace an index.html or play.html already there.")
def command(
    dice: Path,
    rules: str | None,
    name: str,
    deadline: str | None,
    organizer: str | None,
    lang: str | None,
    out_dir: Path,
    force: bool,
) -> None:
    """Write the challenge's site for DICE: index.html (the announcement: the name, the
    deadline, the dice file and its SHA-256, where to send records) and play.html (the
    dice file's game in any browser, offline, writing the record to send).

    \b
    Example:
      road300 site challenge.txt --name "Winter challenge" --deadline "20 December, 23:59" \\
          --organizer challenge@example.org --lang de -o site

    Exit status: 0 written, 2 bad options, an unreadable dice file or an existing page
    without --force.
    """
    from validator.check.file import Checker, UsageError, load_dice
    from validator.engine import STANDARD
    from validator.records.atomic import write_file
    from validator.render.play import PLAY_FILE, Challenge, render_announcement, render_play

    try:
        checker = Checker.create(None, rules)
        dice_file = load_dice(dice, "give the dice file")
    except UsageError as exc:
        fail_usage(exc.message)
    ruleset = checker.rules or STANDARD
    if ruleset.can_leave or ruleset.rings:
        fail_usage(
            f"--rules {rules}: the browser game plays standard, bga and literal, without expansions"
        )
    pages = {"index.html": render_announcement, PLAY_FILE: render_play}
    if not force:
        there = [p for p in pages if (out_dir / p).exists()]
        if there:
            fail_usage(f"{out_dir / there[0]} exists; give --force to replace it")
    challenge = Challenge(
        name=name,
        rows=tuple(dice_file.rows),
        sha256=dice_file.sha256,
        dice_name=dice.name,
        rules=ruleset,
        deadline=deadline,
        organizer=organizer,
    )
    lang_code = language(lang)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        for page, render in pages.items():
            write_file(out_dir / page, render(challenge, lang_code))
    except OSError as exc:
        fail_usage(f"{out_dir}: cannot write the site: {exc.strerror or exc}")
    click.echo(f"road300: wrote {out_dir / 'index.html'} and {out_dir / PLAY_FILE}", err=True)
    sys.exit(EXIT_OK)
