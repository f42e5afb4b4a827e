"""The options of `road300 batch` for a contest run by e-mail (deadline, results site,
replies), and writing the site and the replies once the batch is ranked."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import click

from validator.cli.common import fail_usage
from validator.contest.config import ORGANIZER_EXAMPLE, organizer_problem
from validator.language.i18n import LANGUAGES
from validator.render.sanitize import plain_text

if TYPE_CHECKING:
    from email.headerregistry import Address

    from validator.check.file import Checker
    from validator.contest.batch import Batch
    from validator.contest.mail import Reading, Source
    from validator.language.i18n import Language
    from validator.render.replies import ReplyWriter
    from validator.render.site import PlayPage, PublishedDraw
    from validator.system.atomic import NewFolder

F = TypeVar("F", bound=Callable[..., object])


class DateTime(click.ParamType[datetime]):
    """An ISO 8601 date and time with its offset (`2026-12-20T23:59:59+01:00`, or `Z`)."""

    name = "DATETIME"

    def convert(
        self, value: object, param: click.Parameter | None, ctx: click.Context | None
    ) -> datetime:
        if isinstance(value, datetime):
            when = value
        else:
            try:
                when = datetime.fromisoformat(str(value))
            except ValueError:
                self.fail(f"{value!r} is not ISO 8601, like 2026-12-20T23:59:59+01:00", param, ctx)
        if when.tzinfo is None:
            self.fail(f"{value!r} needs its offset, like +01:00 (or Z for UTC)", param, ctx)
        return when


def mail_options(func: F) -> F:
    options = (
        click.option(
            "--deadline",
            type=DateTime(),
            help="ISO 8601 with offset: a message dated later is late (checked and shown, "
            "not ranked, left out of the draw).",
        ),
        click.option(
            "--site",
            type=click.Path(path_type=Path, file_okay=False),
            help="Write a static results site to DIR: index.html with the leaderboard and "
            "a report page per entry; no e-mail address appears on it.",
        ),
        click.option(
            "--replies",
            type=click.Path(path_type=Path, file_okay=False),
            help="Write a reply to every message to DIR (one .eml each, and replies.mbox), "
            "with the verdict, the first illegal step or why no record was found, and the "
            "entry's report attached. Needs --organizer.",
        ),
        click.option(
            "--organizer",
            metavar="ADDRESS",
            help="The From: of the replies (the contest file's organizer).",
        ),
        click.option(
            "--name",
            "contest_name",
            metavar="TEXT",
            help="The contest's name, the results site's title (the contest file's name).",
        ),
        click.option(
            "--lang",
            type=click.Choice(list(LANGUAGES)),
            default=None,
            help="The language of the results site (default: the contest file's lang, else "
            "the locale, else English), and of a reply whose record and mail body do not "
            "tell their own. JSON and CSV never change. See docs/languages.md.",
        ),
    )
    for option in reversed(options):
        func = option(func)
    return func


def check_mail_options(source: Source, replies: Path | None, organizer: str | None) -> None:
    """Stop (exit 2) on options that cannot work with this source."""
    if replies is not None:
        if source.messages is None:
            fail_usage("--replies answers e-mail: SOURCE must be an mbox, a Maildir or .eml files")
        if not organizer:
            from validator.cli.contest_file import where_to_set

            fail_usage(
                "--replies needs the replies' From: "
                + where_to_set("--organizer ADDRESS", "organizer", ORGANIZER_EXAMPLE)
            )
        checked_organizer(organizer)


def checked_organizer(organizer: str) -> Address:
    """The address of --organizer, or stop (exit 2) saying why it is none: a line break
    or a control character, more than one address, or no address."""
    from validator.render.replies import organizer_address

    found = organizer_address(organizer)
    if found is None:
        problem = organizer_problem(organizer) or "is not an e-mail address"
        fail_usage(f"--organizer: {organizer!r} {problem}")
    return found


def check_output_folders(source: Path, site: Path | None, replies: Path | None) -> None:
    """Stop (exit 2) before anything is read when the site or the replies would be
    written into the source folder (the next run would read them as entries), or the
    replies, which hold the players' addresses, into the site that is published as it
    is."""
    from validator.cli.output import same_or_inside

    for option, folder in (("--site", site), ("--replies", replies)):
        if folder is None or not source.is_dir():
            continue
        if same_or_inside(source, folder) or same_or_inside(folder, source):
            fail_usage(
                f"{option} {folder}: is the folder of entries SOURCE, holds it or lies inside "
                "it; write it to a folder of its own, outside SOURCE"
            )
    if site is not None and replies is not None and same_or_inside(replies, site):
        fail_usage(
            f"--replies {replies}: is the --site folder or inside it, which is published as it "
            "is; the replies hold the players' addresses: write them to another folder"
        )


def lock_output_folders(*folders: Path | None) -> None:
    """Hold the lock of every output folder until the command ends, or stop (exit 2)
    when another run writes one of them: two runs writing the same site or replies would
    leave them a mix of both."""
    if any(folder is not None for folder in folders):
        click.get_current_context().with_resource(output_folders_locked(*folders))


@contextmanager
def output_folders_locked(*folders: Path | None) -> Iterator[None]:
    """`lock_output_folders` for the length of a block."""
    from contextlib import ExitStack

    from validator.system.atomic import FolderBusy, folder_lock, lock_path

    with ExitStack() as locks:
        for folder in folders:
            if folder is None:
                continue
            try:
                locks.enter_context(folder_lock(folder))
            except FolderBusy as busy:
                who = f"process {busy.holder}" if busy.holder else "it"
                fail_usage(
                    f"{folder}: another road300 run is writing it ({who} holds "
                    f"{lock_path(folder)}); run again when that one has ended"
                )
            except OSError as exc:
                fail_usage(f"{folder}: cannot lock it ({lock_path(folder)}): {exc.strerror}")
        yield


def publish(
    source: Source,
    checker: Checker,
    batch: Batch,
    *,
    site: Path | None,
    replies: Path | None,
    organizer: str | None,
    name: str | None,
    dice: Path | None,
    deadline: datetime | None,
    jobs: int = 1,
    lang: str | None = None,
    on_page: Callable[[Reading, str | None, Language], None] | None = None,
    published: PublishedDraw | None = None,
) -> None:
    """Write the site and the replies, and say so on stderr. `lang` is `--lang`;
    `on_page` is called with each message read again, its page and its language (`contest
    run` makes its new replies so, from the pages the site needs anyway); `published` is
    the draw once made, shown on the site.

    Each folder is made anew beside the old one and swapped in when both are whole
    (system/atomic.replace_folders): an interrupted run leaves the old ones as they were;
    what the old ones hold that no writer makes is carried over."""
    import os

    from validator.cli.contest_file import current_contest
    from validator.cli.output import counted, say
    from validator.language import i18n
    from validator.render import replies as replying
    from validator.render import site as website
    from validator.render.html import render_html
    from validator.render.pages import pages
    from validator.system.atomic import replace_folders

    contest = current_contest()
    draw = (contest.winners, contest.seed) if contest is not None else (None, None)
    # The address to send to, published only when the organizer chose one to publish, and
    # while records may be sent: before the deadline and the draw.
    public = contest.public_address if contest is not None else None
    if published is not None or (deadline is not None and datetime.now(UTC) >= deadline):
        public = None
    address = None if public is None else str(checked_organizer(public).addr_spec)
    # The fallbacks of every page's and reply's language (docs/languages.md).
    langs = (lang, contest.lang if contest is not None else None)
    new_site, new_replies = _new_folders(site, replies)
    site_writer = reply_writer = None
    try:
        with replace_folders([f for f in (new_site, new_replies) if f is not None]):
            if new_site is not None:
                site_lang = i18n.choose(site=langs[0], contest=langs[1], environ=os.environ)
                site_writer = website.SiteWriter(
                    new_site.path,
                    batch,
                    name=name,
                    dice=dice,
                    rules=checker.rules,
                    draw=draw,
                    lang=site_lang,
                    deadline=deadline,
                    published=published,
                    play=_play_page(checker, name, deadline, site_lang, address),
                    address=address,
                )
            if new_replies is not None:
                reply_writer = replying.ReplyWriter(
                    new_replies.path, batch, organizer or "", contest=name, deadline=deadline
                )
            dice_name = dice.name if dice else None
            # Report pages for the replies only; the site's pages are its own, compact.
            render = render_html if reply_writer is not None or on_page is not None else None
            game = (website.entry_body, site_writer.lang) if site_writer is not None else None
            for reading, page, body in pages(source, checker, dice_name, render, jobs, langs, game):
                # The language of the entry's report (rendered by pages.py) and of its reply.
                lang = reading.reply_language(*langs, os.environ)
                if site_writer is not None:
                    site_writer.add(reading, body)
                if reply_writer is not None and reading.part != "file":
                    reply = answer(reply_writer, reading, page, lang)
                    if reply is not None:
                        reply_writer.keep(reply[1])
                if on_page is not None:
                    on_page(reading, page, lang)
            if site_writer is not None:
                site_writer.finish()
            written = reply_writer.finish() if reply_writer is not None else 0
    except OSError as exc:
        fail_usage(f"cannot write {exc.filename or 'the output'}: {exc.strerror}")
    if new_site is not None:
        say(f"wrote the results site to {site}/index.html")
        removed = sum(1 for rel in new_site.removed if website.report_page(rel))
        if removed:
            pages_ = counted(removed, "report page", "report pages")
            say(f"removed {pages_} of an earlier run from {site}/entries")
    if new_replies is not None and reply_writer is not None:
        sent = counted(written, "reply", "replies")
        say(f"wrote {sent} to {replies} (and {replies}/replies.mbox)")
        removed = sum(1 for rel in new_replies.removed if replying.reply_file(rel))
        if removed:
            say(f"removed {counted(removed, 'reply', 'replies')} of an earlier run from {replies}")
        for r in reply_writer.refused:
            say(f"no reply to {plain_text(r.file)}: {r.reason}")


def _play_page(
    checker: Checker,
    name: str | None,
    deadline: datetime | None,
    lang: Language,
    address: str | None = None,
) -> PlayPage | None:
    """play.html for the results site: the dice file's game, with its mail link only to
    `address` (the contest file's public_address); None without a dice file or for rules
    the page cannot play."""
    from validator.engine import STANDARD
    from validator.language import i18n
    from validator.render.play import Challenge, render_play
    from validator.render.texts import say

    dice, rules = checker.dice, checker.rules or STANDARD
    if dice is None or rules.can_leave or rules.rings:
        return None

    def page(copy_name: str) -> str:
        with i18n.speaking(lang):
            title = name or say("site.title.default")
        challenge = Challenge(
            title, tuple(dice.rows), dice.sha256, copy_name, rules, deadline, address
        )
        return render_play(challenge, lang)

    return page


def _new_folders(
    site: Path | None, replies: Path | None
) -> tuple[NewFolder | None, NewFolder | None]:
    """The new site and replies folders, made beside the old ones (exit 2 when one cannot be)."""
    from validator.render import replies as replying
    from validator.render import site as website
    from validator.system.atomic import NewFolder

    new_site = new_replies = None
    try:
        if site is not None:
            new_site = NewFolder(site, website.site_file)
        if replies is not None:
            new_replies = NewFolder(replies, replying.replies_file)
    except OSError as exc:
        for folder in (new_site, new_replies):
            if folder is not None:
                folder.discard()
        fail_usage(f"cannot write {exc.filename or 'the output'}: {exc.strerror}")
    return new_site, new_replies


def answer(
    writer: ReplyWriter,
    reading: Reading,
    page: str | None,
    lang: Language,
    message_id: str | None = None,
) -> tuple[str, bytes] | None:
    """The reply to one message (its recipient and bytes, `ReplyWriter.make`), or None
    when no reply may go to it (`Reading.answer`), the reason added to `writer.refused`; a
    message that defeats the reply's making costs its reply, never the run (a disk that
    fails is another matter: OSError goes on)."""
    from validator.render.replies import Refused

    if not reading.answer:  # a bounce, an auto-reply, a forgery: the reason says which
        why = reading.why if reading.why is not None else "it gets no reply"
        writer.refused.append(Refused(reading.message_file, str(why)))
        return None
    try:
        return writer.make(reading, page, lang, message_id=message_id)
    except OSError:
        raise
    except Exception as exc:
        why = f"the reply could not be made ({type(exc).__name__}); please report it"
        writer.refused.append(Refused(reading.message_file, why))
        return None
