"""`road300 contest run`, `status`, `export` and `recheck`: a challenge run from its
contest file, again and again, its state kept in the ledger (contest/ledger.py).

One run: fetch the messages the ledger does not hold (IMAP, or a local mailbox), check each
new one once (mail.check_message) and store what it found, rank every entry again
(mail.settle, batch.collect), make one reply for each new message (render/replies.py, with
a Message-ID the ledger gives it), write the replies folder and the results site
(batch_mail.publish), and with --send send every unsent reply (contest/smtp.py).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from validator.cli.common import fail_usage
from validator.cli.output import counted, say
from validator.render.sanitize import plain_text

if TYPE_CHECKING:
    from validator.check.file import Checker
    from validator.contest.batch import Batch, Entry
    from validator.contest.config import Contest
    from validator.contest.draw import Outcome
    from validator.contest.incoming import Fetcher
    from validator.contest.ledger import Ledger
    from validator.contest.smtp import Sent


def the_contest() -> Contest:
    """The contest file the command read, or stop (exit 2): these commands need one."""
    from validator.cli.contest_file import current_contest
    from validator.contest.config import FILE_NAME, Contest

    contest = current_contest()
    if not isinstance(contest, Contest):
        fail_usage(
            f"no contest file: give --contest FILE, or run it where {FILE_NAME} is "
            "(`road300 contest init` writes one; docs/contest.md)"
        )
    return contest


@contextmanager
def opened(contest: Contest, *, writer: bool) -> Iterator[Ledger]:
    """The contest's ledger, or stop (exit 2) saying why it cannot be had (another run
    writes it: the message names that run)."""
    from validator.contest.ledger import Ledger, LedgerError

    try:
        ledger = Ledger.open(contest.state_file, writer=writer)
    except LedgerError as exc:
        fail_usage(plain_text(str(exc)))
    try:
        yield ledger
    finally:
        ledger.close()


def make_fetcher(contest: Contest, max_bytes: int) -> Fetcher:
    """Where the run's messages come from: `[mail] imap`, else `[mail] source`."""
    from validator.contest.mail import MailError

    if contest.imap is not None:
        from validator.contest.mailurl import IMAP_PASSWORD, password

        try:  # validator/contest/imap.py: the IMAP fetcher (written apart from this module)
            from validator.contest.imap import ImapFetcher  # type: ignore[import-not-found,unused-ignore]
        except ImportError:
            fail_usage(
                f"{contest.path}: [mail] imap: fetching over IMAP is not available in this "
                "road300; give a local mailbox as [mail] source"
            )
        fetcher: Fetcher = ImapFetcher(
            contest.imap, password(contest.imap, IMAP_PASSWORD), contest.ca_file, max_bytes
        )
        return fetcher
    if contest.source is None:
        fail_usage(
            f"{contest.path}: no mail to fetch: set imap (or source, a local mailbox) under "
            "[mail] (docs/contest.md)"
        )
    from validator.contest.local import LocalFetcher

    try:
        return LocalFetcher(contest.source, max_bytes)
    except MailError as exc:
        fail_usage(plain_text(str(exc)))


def make_checker(contest: Contest) -> Checker:
    from validator.check.file import Checker, UsageError

    try:
        return Checker.create(
            contest.dice, contest.rules, root=contest.path.parent, max_bytes=contest.max_size
        )
    except UsageError as exc:
        fail_usage(exc.message)


def ranked(ledger: Ledger, contest: Contest) -> Batch:
    """Every checked message of the ledger ranked, as `road300 batch` ranks a mailbox."""
    from validator.contest.batch import Found, collect
    from validator.contest.mail import settle

    entries, skipped = settle(ledger.arrivals(), contest.deadline)
    return collect(Found([], skipped), entries)


@dataclass
class Done:
    """What one run did, for its summary."""

    fetched: int = 0
    checked: int = 0
    replies: int = 0
    sent: int = 0
    failed: int = 0
    unsent: int = 0


def run(contest: Contest, *, send: bool) -> Done:
    """One run of the challenge (see the module's docstring)."""
    from validator.cli.batch_mail import output_folders_locked
    from validator.records.source import MAX_BYTES

    organizer = contest.organizer
    if not organizer:
        fail_usage(f"{contest.path}: set organizer, the From: of the replies (docs/contest.md)")
    max_bytes = contest.max_size or MAX_BYTES
    checker = make_checker(contest)
    fetcher = make_fetcher(contest, max_bytes)
    site = contest.site_folder
    done = Done()
    folders = output_folders_locked(site, contest.replies_folder)
    with opened(contest, writer=True) as ledger, folders:
        done.fetched = fetch(ledger, fetcher)
        done.checked = check_new(ledger, checker)
        batch = ranked(ledger, contest)
        done.replies = make_replies(ledger, contest, checker, batch)
        write_replies(ledger, contest, batch)
        if done.checked or ledger.is_stale() or not (site / "index.html").is_file():
            write_site(ledger, contest, checker, batch)
            ledger.stale(False)
        if send:
            sent = send_replies(ledger, contest)
            done.sent, done.failed = sent.sent, len(sent.failed)
        done.unsent = ledger.reply_counts()["unsent"]
        from validator.render import batch_out

        say(batch_out.one_line(batch, fetcher.label))
    return done


def fetch(ledger: Ledger, fetcher: Fetcher) -> int:
    """Store every message the ledger does not hold yet, each at once (a run stopped at
    any moment loses none); how many were new."""
    new = 0
    for incoming in fetcher.fetch(ledger.cursor(fetcher.label)):
        stored = ledger.add(
            fetcher.label,
            incoming.key,
            incoming.data,
            size=incoming.size,
            split=incoming.split,
            cursor=incoming.cursor,
        )
        new += stored is not None
    ledger.fetched()
    return new


def check_new(ledger: Ledger, checker: Checker) -> int:
    """Check each message not checked yet, once, storing what it found."""
    from validator.contest.mail import check_message

    count = 0
    for stored in ledger.messages(unchecked=True):
        if stored.raw is None:
            continue
        ledger.checked(stored.seq, check_message(checker, stored.raw))
        count += 1
    return count


def make_replies(ledger: Ledger, contest: Contest, checker: Checker, batch: Batch) -> int:
    """Make the reply to each checked message that has none in the ledger yet, with the
    Message-ID the ledger gives it, and store it unsent; how many were made."""
    import tempfile

    from validator.cli.batch_mail import answer
    from validator.render.pages import page_of
    from validator.render.replies import ReplyWriter

    pending = set(ledger.unanswered())
    if not pending:
        return 0
    from validator.contest.mail import read_message

    assert contest.organizer is not None
    langs = (None, contest.lang)
    dice_name = contest.dice.name if contest.dice else None
    made = 0
    with tempfile.TemporaryDirectory(prefix=".road300-replies.") as scratch:
        writer = ReplyWriter(
            Path(scratch), batch, contest.organizer, contest=contest.name, deadline=contest.deadline
        )
        domain = writer.organizer.domain or "road300.invalid"
        for stored in ledger.messages():
            if stored.seq not in pending or stored.raw is None:
                continue
            reading = read_message(checker, stored.raw)
            lang = reading.reply_language(*langs, os.environ)
            page = page_of(reading, dice_name, langs)
            message_id = ledger.message_id(stored.seq, domain)
            refused = len(writer.refused)
            reply = answer(writer, reading, page, lang, message_id)
            if reply is None:
                why = writer.refused[-1].reason if len(writer.refused) > refused else None
                ledger.replied(
                    stored.seq, message_id, None, recipient=None, sender=None, reason=why
                )
                continue
            ledger.replied(
                stored.seq,
                message_id,
                reply[1],
                recipient=reply[0],
                sender=writer.organizer.addr_spec,
            )
            made += 1
    return made


def write_replies(ledger: Ledger, contest: Contest, batch: Batch) -> None:
    """The replies folder made anew from the ledger: every reply made so far, sent or not,
    as `reply-N.eml` (N: the message's number in the ledger), and replies.mbox."""
    from validator.records.atomic import NewFolder, replace_folders
    from validator.render.replies import ReplyWriter, replies_file

    assert contest.organizer is not None
    try:
        folder = NewFolder(contest.replies_folder, replies_file)
        with replace_folders([folder]):
            writer = ReplyWriter(folder.path, batch, contest.organizer)
            for reply in ledger.replies():
                if reply.data is not None:
                    writer.keep(reply.data, reply.seq)
            writer.finish()
    except OSError as exc:
        fail_usage(f"cannot write {exc.filename or 'the replies'}: {exc.strerror}")


def write_site(ledger: Ledger, contest: Contest, checker: Checker, batch: Batch) -> None:
    """The results site rewritten from every message of the ledger, as `batch --site`
    writes it (batch_mail.publish)."""
    from validator.cli.batch_mail import publish
    from validator.contest.batch import Found
    from validator.contest.mail import Source

    raws = [s.raw for s in ledger.messages() if s.raw is not None and s.arrival is not None]
    root = contest.path.parent.resolve()
    source = Source(contest.path.parent, root, Found([], []), None, raws)
    notes = publish(
        source,
        checker,
        batch,
        site=contest.site_folder,
        replies=None,
        organizer=contest.organizer,
        name=contest.name,
        dice=contest.dice,
        deadline=contest.deadline,
        lang=contest.lang,
    )
    for line in notes:
        say(line)


def send_replies(ledger: Ledger, contest: Contest) -> Sent:
    """Send every unsent reply over `[mail] smtp`; stop (exit 2) when the server cannot
    be used at all (nothing is lost: the replies stay unsent)."""
    from validator.contest import smtp
    from validator.contest.mailurl import SMTP_PASSWORD, MailURLError, password

    url = contest.smtp
    if url is None:
        fail_usage(f"{contest.path}: --send needs smtp under [mail] (docs/contest.md)")
    if not ledger.replies("unsent") and not ledger.replies("sending"):
        return smtp.Sent()
    try:
        server = smtp.connect(url, password(url, SMTP_PASSWORD), contest.ca_file)
    except (smtp.SendError, MailURLError) as exc:
        fail_usage(plain_text(f"{exc}; the replies stay unsent"))
    try:
        sent = smtp.send_all(ledger, server)
    finally:
        smtp.quit_quietly(server)
    for file, answer in sent.failed:
        say(plain_text(f"the reply to {file} was refused for good: {answer}"))
    for file, why in sent.deferred:
        say(plain_text(f"the reply to {file} stays unsent for the next run: {why}"))
    return sent


def status_of(ledger: Ledger, contest: Contest) -> tuple[dict[str, object], list[tuple[str, str]]]:
    """`contest status --format json`'s object (docs/contest.md: fixed fields), and the
    replies that failed with the server's answers."""
    batch = ranked(ledger, contest)
    s = batch.summary()
    replies = ledger.reply_counts()
    data: dict[str, object] = {
        "messages": ledger.count(),
        "entries": s.entries,
        "skipped": s.skipped,
        "verdicts": {
            "valid": s.valid,
            "invalid": s.invalid,
            "incomplete": s.incomplete,
            "malformed": s.malformed,
        },
        "late": sum(1 for e in batch.entries if e.late),
        "superseded": sum(1 for e in batch.entries if e.superseded),
        "replies": {
            "written": sum(n for state, n in replies.items() if state != "none"),
            "sent": replies["sent"],
            "failed": replies["failed"],
            "unsent": replies["unsent"] + replies["sending"],
        },
        "last_fetch": ledger.last_fetch(),
    }
    failed = [(r.file, r.reason or "") for r in ledger.replies("failed")]
    return data, failed


def status_text(data: dict[str, object], failed: list[tuple[str, str]]) -> Iterator[str]:
    """`contest status` for people."""
    verdicts = data["verdicts"]
    replies = data["replies"]
    assert isinstance(verdicts, dict) and isinstance(replies, dict)
    yield (
        f"Messages: {data['messages']} ({data['entries']} entries, "
        f"{data['skipped']} without a record)"
    )
    yield "Verdicts: " + ", ".join(f"{n} {verdict}" for verdict, n in verdicts.items())
    yield f"Late: {data['late']}, superseded: {data['superseded']}"
    yield (
        f"Replies: {replies['written']} written, {replies['sent']} sent, "
        f"{replies['failed']} failed, {replies['unsent']} not sent"
    )
    for file, reason in failed:
        yield plain_text(f"  failed: {file}: {reason}")
    yield f"Last fetch: {data['last_fetch'] or 'never'}"


def recheck_all(contest: Contest) -> Iterator[str]:
    """Check every message whose bytes the ledger keeps again, store what was found, and
    say what changed."""
    from validator.contest.mail import check_message

    checker = make_checker(contest)
    with opened(contest, writer=True) as ledger:
        changed = count = 0
        for stored in ledger.messages():
            if stored.raw is None:
                continue
            arrival = check_message(checker, stored.raw)
            count += 1
            before = stored.arrival.checked.entry if stored.arrival is not None else None
            after = arrival.checked.entry
            was = (before.verdict.value, before.score) if before else None
            now = (after.verdict.value, after.score) if after else None
            if was != now:
                changed += 1
                yield plain_text(f"{stored.file}: {_said(was)} -> {_said(now)}")
            ledger.checked(stored.seq, arrival)
        ledger.stale()
    yield (
        f"rechecked {counted(count, 'message', 'messages')}: {changed} changed; "
        "the next `road300 contest run` rewrites the site"
    )


def _said(outcome: tuple[str, int | None] | None) -> str:
    if outcome is None:
        return "no record"
    verdict, score = outcome
    return verdict if score is None else f"{verdict} ({score} points)"


# -- The draw of a running challenge ------------------------------------------------------------


def _running() -> Contest | None:
    """The contest file the command read, when `contest run` keeps its ledger."""
    from validator.cli.contest_file import current_contest
    from validator.contest.config import Contest

    contest = current_contest()
    if isinstance(contest, Contest) and contest.state_file.is_file():
        return contest
    return None


def draw_allowed() -> None:
    """Stop `road300 draw` (exit 2) before the deadline of a running challenge: mail
    may still come that changes who takes part."""
    from datetime import UTC, datetime

    contest = _running()
    if contest is None or contest.deadline is None:
        return
    if datetime.now(UTC) <= contest.deadline:
        fail_usage(
            f"the deadline of {contest.path} ({contest.deadline.isoformat()}) has not passed: "
            "entries may still come; draw after it"
        )


def record_draw(outcome: Outcome) -> None:
    """Keep a draw of a running challenge in its ledger: the seed, the eligible entries
    in the draw's order (player, file, game hash), the winners and the command."""
    import shlex

    from validator.contest.ledger import DrawRecord, LedgerError
    from validator.contest.ledger import now as stamp

    contest = _running()
    drawn = outcome.drawn
    if contest is None or drawn is None:
        return
    with opened(contest, writer=True) as ledger:
        games = ledger.fingerprints()

        def listed(entry: Entry) -> dict[str, str | int | None]:
            return {
                "player": entry.player_name,
                "file": entry.file,
                "score": entry.score,
                "game": games.get(entry.file),
            }

        try:
            ledger.record_draw(
                DrawRecord(
                    stamp(),
                    outcome.seed,
                    outcome.options.winners,
                    [listed(e) for e in drawn.eligible],
                    [listed(e) for e in drawn.winners],
                    shlex.join(outcome.command_line()),
                )
            )
        except LedgerError as exc:
            fail_usage(plain_text(str(exc)))
    say(f"recorded the draw in {contest.state_file}")
