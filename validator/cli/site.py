"""`road300 site`: the challenge's site. Before results exist, the announcement and the
dice file's game in the browser (play.html); with the entries (SOURCE), the site with the
results, the very site `batch --site` writes (one writer: validator/render/site.py)."""

from __future__ import annotations

import hashlib
import os
import re
import stat
import sys
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import click

from validator.cli.batch_mail import DateTime, checked_organizer, lock_output_folders
from validator.cli.common import EXIT_OK, fail_usage, gather, language, pages_lang_option
from validator.cli.contest_file import ContestCommand, contest_option, current_contest


@dataclass(frozen=True, slots=True)
class SiteOptions:
    """The options of `road300 site`, as click parsed them (`--help` says what each is)."""

    source: Path | None
    dice: Path | None
    rules: str | None
    contest_name: str | None
    deadline: datetime | None
    organizer: str | None
    lang: str | None
    out_dir: Path
    force: bool


@click.command("site", cls=ContestCommand)
@contest_option
@click.argument("source", metavar="[SOURCE]", required=False, type=click.Path(path_type=Path))
@click.option(
    "--dice",
    type=click.Path(path_type=Path),
    help="The dice file (text, CSV, YAML or JSON); SOURCE may be it instead, for the "
    "announcement. Default: the contest file's.",
)
@click.option(
    "--rules",
    metavar="NAME",
    help="The ruleset the game page plays and the rules text says: standard, bga or "
    "literal (the page offers no expansions). Default: standard.",
)
@click.option(
    "--name",
    "contest_name",
    metavar="TEXT",
    help="The challenge's name (the contest file's). Default: Road to 300 challenge.",
)
@click.option(
    "--deadline",
    type=DateTime(),
    help="When records must be in: ISO 8601 with offset, like 2026-12-20T23:59:59+01:00; "
    "shown in the site's language. With SOURCE, a message dated later is late.",
)
@click.option(
    "--organizer",
    metavar="ADDRESS",
    help="The address to send records to; shown on the announcement and used by the mail "
    "link. Give it only when it may be published. Default: the contest file's "
    "public_address (never its organizer), which the site with results shows too.",
)
@pages_lang_option
@click.option(
    "-o",
    "--output",
    "out_dir",
    type=click.Path(path_type=Path, file_okay=False),
    required=True,
    help="The folder to write the site into (made when missing).",
)
@click.option(
    "--force",
    is_flag=True,
    help="The announcement: replace an index.html, play.html or a different dice file "
    "copy already there. (The site with results replaces the folder's pages always.)",
)
@gather(SiteOptions)
def command(o: SiteOptions) -> None:
    """Write the challenge's site into DIR (-o).

    Without entries, the announcement: index.html (the name, the deadline, the dice file
    and its SHA-256, where to send records, the rules and how a record looks, in the
    site's language), play.html (the dice file's game in any browser, offline, writing the
    record to send) and a copy of the dice file; SOURCE, or --dice, is the dice file.

    With SOURCE the entries (a folder, an mbox, a Maildir, .eml files, as `road300 batch`
    reads them), the site with the results, as `batch --site` writes it: the leaderboard,
    a page for each entry, the dice file, play.html, and how the draw is made. A contest
    file (--contest, or road300.toml) gives the defaults.

    \b
    Examples:
      road300 site challenge.txt --name "Winter challenge" --deadline 2026-12-20T23:59:59+01:00 \\
          --organizer challenge@example.org --lang de -o site
      road300 site inbox.mbox --dice challenge.txt --deadline 2026-12-20T23:59:59+01:00 -o site

    Exit status: 0 written, 2 bad options, an unreadable dice file or SOURCE, another run
    writing DIR, or (the announcement) an existing page or a different copy of the dice
    file without --force.
    """
    if o.source is not None and not _is_dice(o.source, o.dice):
        sys.exit(_results(o, o.source))
    announced = o.source or o.dice
    if announced is None:
        fail_usage(
            "give the dice file (SOURCE or --dice) for the announcement, or the entries "
            "(SOURCE) for the site with results"
        )
    _announce(o, announced)


def _address_to_send_to(organizer: str | None) -> str | None:
    """The address the announcement publishes: --organizer when given on the command
    line (the organizer chose to publish it), else the contest file's public_address;
    never the contest file's organizer (the From: of the replies) by itself."""
    from click.core import ParameterSource

    source = click.get_current_context().get_parameter_source("organizer")
    if organizer is None or source is not ParameterSource.COMMANDLINE:
        contest = current_contest()
        organizer = contest.public_address if contest is not None else None
    return None if organizer is None else str(checked_organizer(organizer).addr_spec)


def _is_dice(source: Path, dice: Path | None) -> bool:
    """Whether SOURCE is the dice file (the announcement): a file that is no mailbox (a
    folder, an mbox or .eml file is the entries). Stops (exit 2) when --dice names
    another file."""
    from validator.contest.mail import MailError, open_mailbox

    if not source.is_file():
        return False
    try:
        if open_mailbox(source) is not None:
            return False
    except MailError:
        return False  # the results' run says what is wrong with it
    if dice is not None and not (dice.is_file() and os.path.samefile(source, dice)):
        fail_usage(f"{source} and --dice {dice}: give the dice file once (SOURCE is the entries)")
    return True


def _results(o: SiteOptions, source: Path) -> int:
    """The site with results: `batch SOURCE --site DIR` without the results table."""
    from validator.cli.batch import BatchOptions, run

    options = BatchOptions(
        folder=source, dice=o.dice, rules=o.rules, fmt=None, output=None, wide=False, jobs=None,
        strict=False, min_score=300, par=False, par_time=None, par_nodes=None, max_size=None,
        deadline=o.deadline, site=o.out_dir, replies=None, organizer=o.organizer,
        contest_name=o.contest_name, lang=o.lang, results=False,
    )  # fmt: skip
    return run(options)


def _announce(o: SiteOptions, dice: Path) -> None:
    from validator.check.file import Checker, UsageError, load_dice
    from validator.engine import STANDARD
    from validator.render.play import Challenge, render_announcement, render_play
    from validator.render.shared import PLAY_FILE, site_assets
    from validator.system.atomic import write_bytes, write_file

    try:
        checker = Checker.create(None, o.rules)
        dice_file = load_dice(dice, "give the dice file")
    except UsageError as exc:
        fail_usage(exc.message)
    ruleset = checker.rules or STANDARD
    address = _address_to_send_to(o.organizer)
    if ruleset.can_leave or ruleset.rings:
        fail_usage(
            f"--rules {o.rules}: the browser game plays standard, bga and literal, "
            "without expansions"
        )
    pages = {"index.html": render_announcement, PLAY_FILE: render_play}
    # The dice file is published beside the pages, under its own name when that is a plain
    # file name (and not one of the pages'), else as dice.txt.
    published = dice.name
    taken = {*pages, *site_assets()}
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]{0,80}", published) or published in taken:
        published = "dice.txt"
    try:
        data = dice.read_bytes()
    except OSError as exc:
        fail_usage(f"{dice}: cannot read it: {exc.strerror or exc}")
    if hashlib.sha256(data).hexdigest() != dice_file.sha256:
        fail_usage(f"{dice}: the dice file changed while it was read; run again")
    out_dir = o.out_dir
    if not o.force:
        # A link there counts as there (it is replaced, never followed); the dice copy
        # only when it differs from the dice file.
        there = [p for p in (*pages, published) if os.path.lexists(out_dir / p)]
        there = [p for p in there if p in pages or not _same_file(out_dir / p, data)]
        if there:
            fail_usage(f"{out_dir / there[0]} exists; give --force to replace it")
    challenge = Challenge(
        name=o.contest_name or "Road to 300 challenge",
        rows=tuple(dice_file.rows),
        sha256=dice_file.sha256,
        dice_name=published,
        rules=ruleset,
        deadline=o.deadline,
        organizer=address,
    )
    contest = current_contest()
    lang_code = language(o.lang if o.lang is not None or contest is None else contest.lang)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        fail_usage(f"{out_dir}: cannot make it: {exc.strerror or exc}")
    lock_output_folders(out_dir)  # as batch --site: one run writes a site at a time
    try:
        # follow=False: a link planted in the folder is replaced, never written through.
        for page, render in pages.items():
            write_file(out_dir / page, render(challenge, lang_code), follow=False)
        for name, text in site_assets().items():
            write_file(out_dir / name, text, follow=False)
        write_bytes(out_dir / published, data, follow=False)
    except OSError as exc:
        fail_usage(f"{out_dir}: cannot write the site: {exc.strerror or exc}")
    wrote = f"{out_dir / 'index.html'}, {out_dir / PLAY_FILE} and {out_dir / published}"
    click.echo(f"road300: wrote {wrote} (styled and run by site.css, site.js)", err=True)
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
