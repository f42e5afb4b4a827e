"""`road300 contest`: set up a challenge (`road300 contest init` writes its contest file)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import click

from validator.cli.common import EXIT_USAGE, fail_usage
from validator.cli.contest_file import ContestCommand, contest_option
from validator.cli.output import output_option


@click.group("contest")
def command() -> None:
    """Set up a challenge (init), and run it from its contest file, its state kept in a
    ledger (run, status, export, recheck); see docs/contest.md.

    Exit status: 0 done, 2 the command could not run (each command's --help says when).
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
    click.echo(
        f"{file}: edit it, then run road300 batch MAILBOX, or road300 contest run with its "
        "[mail] keys (docs/contest.md)"
    )


# -- A challenge run from its contest file (cli/contest_run.py) ------------------------------

_RUN_EXIT = """
    Exit status: 0 done, 2 the command could not run (no contest file or no ledger, a
    mistake in the contest file, another run writing the ledger, a mail server that cannot
    be used)."""


@command.command("run", cls=ContestCommand)
@contest_option
@click.option(
    "--send",
    is_flag=True,
    help="Send every unsent reply over [mail] smtp (without it: a dry run, the replies "
    "are written to the replies folder and listed as not sent).",
)
@click.option(
    "--watch",
    is_flag=True,
    help="Run again every [mail] poll seconds (default 300) until Ctrl-C.",
)
def run(send: bool, watch: bool) -> None:
    """Run the challenge once: fetch the new mail ([mail] imap, or the local mailbox
    [mail] source), check each new message once, rank every entry again, make one reply
    for each new message, rewrite the replies folder and the results site, and with
    --send send the replies not sent yet. The state is kept in the ledger (state, default
    road300.db beside the contest file); run it as often as you like (cron, or --watch).

    Exit status: 0 done, 2 the command could not run, or not all of it (no contest file,
    a mistake in it, another run writing the ledger, a mail server that cannot be used or
    went away while fetching: nothing is lost, the next run goes on).
    """
    import sys
    import time

    from validator.cli.contest_run import run as run_once
    from validator.cli.contest_run import the_contest
    from validator.cli.output import say
    from validator.contest.config import DEFAULT_POLL
    from validator.system.atomic import sigterm_exits

    contest = the_contest()
    poll = contest.poll or DEFAULT_POLL
    try:
        while True:
            with sigterm_exits():
                done = run_once(contest, send=send, watch=watch)
            sent = f", sent {done.sent}, failed {done.failed}" if send else ""
            say(
                f"fetched {done.fetched} new, checked {done.checked}, "
                f"{done.replies} new {'reply' if done.replies == 1 else 'replies'}{sent}, "
                f"{done.unsent} not sent"
                + ("" if send else " (a dry run: give --send to send them)")
            )
            if not watch:
                if done.fetch_error is not None:
                    sys.exit(EXIT_USAGE)
                break
            time.sleep(poll)
    except KeyboardInterrupt:
        if watch:  # how watching ends
            say("stopped")
        else:  # a run cut short did not do all of it (exit 2), as a cron job should learn
            say("stopped before the run ended: nothing is lost, the next run goes on")
            sys.exit(EXIT_USAGE)


@command.command("status", cls=ContestCommand)
@contest_option
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="text for people; json (fixed fields, docs/contest.md) for programs.",
)
def status(fmt: str) -> None:
    """What the ledger holds: messages, entries by verdict, late, superseded, replies
    written, sent, failed (with the server's answers) and not sent, the last fetch, and
    the draws made (with the command that repeats each).
    """
    import json

    from validator.cli.contest_run import (
        draw_lines,
        opened,
        status_of,
        status_text,
        the_contest,
    )

    contest = the_contest()
    with opened(contest, writer=False) as ledger:
        data, failed = status_of(ledger, contest)
        draws = list(draw_lines(ledger))
    if fmt == "json":
        click.echo(json.dumps(data, ensure_ascii=False))
    else:
        for line in [*status_text(data, failed), *draws]:
            click.echo(line)


@command.command("export", cls=ContestCommand)
@contest_option
@output_option("the results as `road300 batch --format json` writes them")
def export(output: Path | None) -> None:
    """The results of the ledger's entries in the JSON of `road300 batch --format json`
    (for `road300 draw`, or programs); it holds the senders' addresses.
    """
    from validator.cli.batch import _write
    from validator.cli.contest_run import opened, ranked, the_contest
    from validator.cli.output import Target, same_or_inside
    from validator.render.registry import BATCH

    contest = the_contest()
    # Never over the mailbox, the dice or the ledger; never into the site, published as it
    # is, as the results hold the senders' addresses.
    inputs = [contest.state_file, contest.path, contest.source, contest.dice, contest.ca_file]
    target = Target.of(output, "the results", inputs=[p for p in inputs if p is not None])
    target = dataclasses.replace(target, private=True)
    if target.path is not None and same_or_inside(target.path, contest.site_folder):
        fail_usage(
            f"{output}: lies inside the site folder {contest.site_folder}, which is published "
            "as it is; the results hold the senders' addresses: write them to another file"
        )
    target.check()
    with opened(contest, writer=False) as ledger:
        batch = ranked(ledger, contest)
    _write(batch, str(contest.state_file), target, BATCH["json"], wide=False)


@command.command("recheck", cls=ContestCommand)
@contest_option
def recheck() -> None:
    """Check every message of the ledger again (after an upgrade of road300 or a change
    of the rules), and say which verdicts changed. Replies already made stay as they are;
    the next `contest run` rewrites the site.
    """
    from validator.cli.contest_run import recheck_all, the_contest
    from validator.cli.output import say

    contest = the_contest()
    for line in recheck_all(contest):
        say(line)


for _command in (status, export, recheck):
    _command.help = (_command.help or "") + _RUN_EXIT
