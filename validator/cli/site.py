"""`road300 site`: the challenge's site before results exist: the announcement and the
dice file's game in the browser (play.html)."""

from __future__ import annotations

import hashlib
import os
import re
import stat
import sys
from datetime import datetime
from pathlib import Path

import click

from validator.cli.batch_mail import DateTime, checked_organizer
from validator.cli.common import EXIT_OK, fail_usage, language, pages_lang_option


@click.command("site")
@click.argument("dice", type=click.Path(path_type=Path))
@click.option(
    "--rules",
    metavar="NAME",
    help="The ruleset the game page plays and the rules text says: standard, bga or "
    "literal (the page offers no expansions). Default: standard.",
)
@click.option(
    "--name", default="Road to 300 challenge", show_default=True, help="The challenge's name."
)
@click.option(
    "--deadline",
    type=DateTime(),
    help="When records must be in: ISO 8601 with offset, like 2026-12-20T23:59:59+01:00; "
    "shown in the site's language.",
)
@click.option(
    "--organizer",
    metavar="ADDRESS",
    help="The address to send records to; shown on the pages and used by the mail link. "
    "Give it only when it may be published.",
)
@pages_lang_option
@click.option(
    "-o",
    "--output",
    "out_dir",
    type=click.Path(path_type=Path, file_okay=False),
    required=True,
    help="The folder to write index.html, play.html and a copy of the dice file into "
    "(made when missing).",
)
@click.option(
    "--force",
    is_flag=True,
    help="Replace an index.html, play.html or a different dice file copy already there.",
)
def command(
    dice: Path,
    rules: str | None,
    name: str,
    deadline: datetime | None,
    organizer: str | None,
    lang: str | None,
    out_dir: Path,
    force: bool,
) -> None:
    """Write the challenge's site for DICE: index.html (the announcement: the name, the
    deadline, the dice file and its SHA-256, where to send records, the rules and how a
    record looks, in the site's language), play.html (the dice file's game in any browser,
    offline, writing the record to send) and a copy of the dice file.

    \b
    Example:
      road300 site challenge.txt --name "Winter challenge" --deadline 2026-12-20T23:59:59+01:00 \\
          --organizer challenge@example.org --lang de -o site

    Exit status: 0 written, 2 bad options, an unreadable dice file, or an existing page
    or a different copy of the dice file without --force.
    """
    from validator.check.file import Checker, UsageError, load_dice
    from validator.engine import STANDARD
    from validator.render.play import PLAY_FILE, Challenge, render_announcement, render_play
    from validator.system.atomic import write_bytes, write_file

    try:
        checker = Checker.create(None, rules)
        dice_file = load_dice(dice, "give the dice file")
    except UsageError as exc:
        fail_usage(exc.message)
    ruleset = checker.rules or STANDARD
    address = None
    if organizer is not None:
        address = str(checked_organizer(organizer).addr_spec)
    if ruleset.can_leave or ruleset.rings:
        fail_usage(
            f"--rules {rules}: the browser game plays standard, bga and literal, without expansions"
        )
    pages = {"index.html": render_announcement, PLAY_FILE: render_play}
    # The dice file is published beside the pages, under its own name when that is a plain
    # file name (and not one of the pages'), else as dice.txt.
    published = dice.name
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]{0,80}", published) or published in pages:
        published = "dice.txt"
    try:
        data = dice.read_bytes()
    except OSError as exc:
        fail_usage(f"{dice}: cannot read it: {exc.strerror or exc}")
    if hashlib.sha256(data).hexdigest() != dice_file.sha256:
        fail_usage(f"{dice}: the dice file changed while it was read; run again")
    if not force:
        # A link there counts as there (it is replaced, never followed); the dice copy
        # only when it differs from the dice file.
        there = [p for p in (*pages, published) if os.path.lexists(out_dir / p)]
        there = [p for p in there if p in pages or not _same_file(out_dir / p, data)]
        if there:
            fail_usage(f"{out_dir / there[0]} exists; give --force to replace it")
    challenge = Challenge(
        name=name,
        rows=tuple(dice_file.rows),
        sha256=dice_file.sha256,
        dice_name=published,
        rules=ruleset,
        deadline=deadline,
        organizer=address,
    )
    lang_code = language(lang)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        # follow=False: a link planted in the folder is replaced, never written through.
        for page, render in pages.items():
            write_file(out_dir / page, render(challenge, lang_code), follow=False)
        write_bytes(out_dir / published, data, follow=False)
    except OSError as exc:
        fail_usage(f"{out_dir}: cannot write the site: {exc.strerror or exc}")
    wrote = f"{out_dir / 'index.html'}, {out_dir / PLAY_FILE} and {out_dir / published}"
    click.echo(f"road300: wrote {wrote}", err=True)
    sys.exit(EXIT_OK)


def _same_file(path: Path, data: bytes) -> bool:
    """Whether `path` is a regular file (not a link) that holds exactly `data`."""
    try:
        status = os.lstat(path)
        if not stat.S_ISREG(status.st_mode) or status.st_size != len(data):
            return False
        return path.read_bytes() == data
    except OSError:
        return False
