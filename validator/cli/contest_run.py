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
    from validator.contest.incoming import Fetcher, Incoming
    from validator.contest.ledger import Ledger
    from validator.contest.mail import Reading
    from validator.contest.smtp import Sent
    from validator.language.i18n import Language
    from validator.render.replies import ReplyWriter


def the_contest() -> Contest:
    """The contest file the command read, or stop (exit 2): these commands need one."""
    from validator.cli.contest_file import current_contest
    from validator.contest.config import FILE_NAME

    contest = current_contest()
    if contest is None:
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


def check_folders(contest: Contest) -> None:
    """Stop (exit 2) before anything is fetched when the site and the replies share a
    folder (or one holds the other), or the ledger lies in one of them: the site is
    published as it is, the replies hold the players' addresses, the ledger every
    message, and each run replaces both folders whole."""
    from validator.cli.output import same_or_inside

    site, replies, state = contest.site_folder, contest.replies_folder, contest.state_file
    if same_or_inside(replies, site) or same_or_inside(site, replies):
        fail_usage(
            f"{contest.path}: site ({site}) and replies ({replies}) are one folder or one "
            "holds the other; the site is published as it is, and the replies hold the "
            "players' addresses: give each a folder of its own"
        )
    for key, folder in (("site", site), ("replies", replies)):
        if same_or_inside(state, folder):
            fail_usage(
                f"{contest.path}: state ({state}) lies inside the {key} folder ({folder}), "
                "which every run replaces (and the site is published): keep the ledger, "
                "which holds every message, outside it"
            )


def make_fetcher(contest: Contest, max_bytes: int, watch: bool = False) -> Fetcher:
    """Where the run's messages come from: `[mail] imap`, else `[mail] source`; each
    message is read no further than the cap of a whole message for records of `max_bytes`
    (mail.message_cap), and over it as its header only. A local mailbox that is not
    there (moved away for a moment) stops the run, or with `watch` fetches nothing this
    round."""
    from validator.contest.mail import MailError

    if contest.imap is not None:
        from validator.contest.imap import ImapFetcher
        from validator.contest.mail import message_cap
        from validator.contest.mailurl import IMAP_PASSWORD, password

        url = contest.imap
        return ImapFetcher(
            url, password(url, IMAP_PASSWORD), contest.ca_file, message_cap(max_bytes)
        )
    if contest.source is None:
        fail_usage(
            f"{contest.path}: no mail to fetch: set imap (or source, a local mailbox) under "
            "[mail] (docs/contest.md)"
        )
    from validator.cli.output import same_or_inside

    for key, folder in (("site", contest.site_folder), ("replies", contest.replies_folder)):
        if same_or_inside(folder, contest.source) or same_or_inside(contest.source, folder):
            fail_usage(
                f"{contest.path}: {key} ({folder}) is the mailbox [mail] source, lies inside "
                "it or holds it: the next run would read what it writes as mail"
            )
    from validator.contest.local import LocalFetcher

    try:
        return LocalFetcher(contest.source, max_bytes)
    except MailError as exc:
        if not watch:
            fail_usage(plain_text(f"{contest.path}: [mail] source: {exc}"))
        return _Unavailable(contest.source.name, str(exc))


@dataclass(frozen=True)
class _Unavailable:
    """The `Fetcher` of a local mailbox that cannot be read this round (`--watch`)."""

    label: str
    problem: str

    def fetch(self, cursor: str | None) -> Iterator[Incoming]:
        from validator.contest.incoming import FetchError

        raise FetchError(self.problem)
        yield  # a generator, as every fetcher's fetch is


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
    fetch_error: str | None = None
    """Why the fetch stopped early (the server went away): what was fetched is kept."""


def run(contest: Contest, *, send: bool, watch: bool = False) -> Done:
    """One run of the challenge (see the module's docstring). A mail server from which
    nothing could be fetched (refused, unreachable) stops the run (exit 2) before anything
    is written, unless it `watch`es: then the run goes on, and the next one tries again."""
    from validator.cli.batch_mail import output_folders_locked
    from validator.records.source import MAX_BYTES

    if not contest.organizer:
        fail_usage(f"{contest.path}: set organizer, the From: of the replies (docs/contest.md)")
    if send and contest.smtp is None:  # said before anything is fetched
        fail_usage(f"{contest.path}: --send needs smtp under [mail] (docs/contest.md)")
    check_folders(contest)
    max_bytes = contest.max_size or MAX_BYTES
    checker = make_checker(contest)
    fetcher = make_fetcher(contest, max_bytes, watch)
    done = Done()
    folders = output_folders_locked(contest.site_folder, contest.replies_folder)
    with opened(contest, writer=True) as ledger, folders:
        done.fetched, done.fetch_error = fetch(ledger, fetcher)
        if done.fetch_error is not None:
            where = f"{contest.path}: [mail] {'imap' if contest.imap else 'source'}"
            if not done.fetched and not watch:
                fail_usage(f"{where}: {done.fetch_error}")
            say(
                f"{where}: fetching stopped: {done.fetch_error}; the rest is fetched by the "
                "next run"
            )
        done.checked = check_new(ledger, checker)
        if done.checked:  # until the site is written (a run stopped before writes it)
            ledger.stale()
        batch, done.replies, _ = settle(ledger, contest, checker)
        if send:
            sent = send_replies(ledger, contest, watch)
            done.sent, done.failed = sent.sent, len(sent.failed)
        done.unsent = len(ledger.to_send())
        from validator.render import batch_out

        say(batch_out.one_line(batch, fetcher.label))
    return done


def settle(ledger: Ledger, contest: Contest, checker: Checker) -> tuple[Batch, int, int]:
    """Rank every entry, make the reply to each message that has none, and write the site
    when it changed (with the draw, once made) and the replies folder; the ranked batch,
    how many replies were made and how many messages' bytes were deleted. Once a draw is
    made and shown, the results are final: the site stays as it is, and the messages'
    bytes are deleted once answered."""
    from validator.cli.batch_mail import publish
    from validator.contest.batch import Found
    from validator.contest.mail import Source
    from validator.render.site import PublishedDraw
    from validator.system.pool import PAGES_PER_WORKER, default_jobs

    batch = ranked(ledger, contest)
    draws = ledger.draws()
    final = ledger.is_final()
    with Replying(ledger, contest, batch) as replying:
        if not final and (
            ledger.is_stale()
            or replying.pending
            or not (contest.site_folder / "index.html").is_file()
        ):
            # The results site rewritten from every message of the ledger, as `batch
            # --site` writes it.
            root = contest.path.parent.resolve()
            messages = ledger.raw_messages()
            publish(
                Source(contest.path.parent, root, Found([], []), None, messages),
                checker,
                batch,
                site=contest.site_folder,
                replies=None,
                organizer=contest.organizer,
                name=contest.name,
                dice=contest.dice,
                deadline=contest.deadline,
                jobs=default_jobs(ledger.count(), PAGES_PER_WORKER),
                lang=contest.lang,
                on_page=replying.page,
                published=PublishedDraw.of(draws[-1]) if draws else None,
            )
            ledger.stale(False)
        replying.rest(checker)  # any the site did not read (none, unless it failed)
    forgotten = ledger.finalize() if draws else 0
    if replying.made or not _replies_written(ledger, contest.replies_folder):
        write_replies(ledger, contest, batch)
    return batch, replying.made, forgotten


def fetch(ledger: Ledger, fetcher: Fetcher) -> tuple[int, str | None]:
    """Store every message the ledger does not hold yet, each at once (a run stopped at
    any moment loses none); how many were new, and why fetching stopped early (a mail
    server that went away or answered nonsense), else None."""
    from validator.contest.incoming import FetchError
    from validator.contest.ledger import LedgerError

    new = 0
    try:
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
    except (LedgerError, MemoryError):
        raise
    except FetchError as exc:  # says itself what went wrong, on one line
        return new, plain_text(str(exc)[:300])
    except Exception as exc:  # the server's failure costs this fetch, never what is stored
        return new, plain_text(f"{type(exc).__name__}: {exc}"[:300])
    ledger.fetched()
    return new, None


def check_new(ledger: Ledger, checker: Checker) -> int:
    """Check each message not checked yet, once (in a process pool when they are many),
    storing what each check found as it comes."""
    from validator.cli.batch import progress
    from validator.cli.common import make_console
    from validator.contest.mail import RawMessage, check_messages
    from validator.system.pool import default_jobs

    seqs = ledger.unchecked()

    def raws() -> Iterator[RawMessage]:
        for seq in seqs:
            raw = ledger.message(seq).raw
            assert raw is not None  # `unchecked` lists messages with their bytes
            yield raw

    err = make_console(stderr=True)
    checked = check_messages(checker, raws(), default_jobs(len(seqs)))
    with progress(err, len(seqs) if err.is_terminal else 0) as advance:
        for seq, arrival in zip(seqs, checked, strict=True):
            ledger.checked(seq, arrival)
            if advance is not None:
                advance(arrival)
    return len(seqs)


class Replying:
    """Makes the reply to each checked message that has none in the ledger yet, with the
    Message-ID the ledger gives it, and stores it unsent (or that it gets none, and why):
    from the pages the site is written with (`page`), else reading the message again
    (`rest`). A context manager: its scratch folder goes when the block ends."""

    def __init__(self, ledger: Ledger, contest: Contest, batch: Batch) -> None:
        self.ledger = ledger
        self.contest = contest
        self.batch = batch
        self.pending = {ledger.message(seq).file: seq for seq in ledger.unanswered()}
        self.made = 0
        self.writer: ReplyWriter | None = None

    def __enter__(self) -> Replying:
        import tempfile

        from validator.render.replies import ReplyWriter

        if self.pending:
            c = self.contest
            assert c.organizer is not None
            self._scratch = tempfile.TemporaryDirectory(prefix=".road300-replies.")
            folder = Path(self._scratch.name)
            self.writer = ReplyWriter(
                folder,
                self.batch,
                c.organizer,
                contest=c.name,
                deadline=c.deadline,
                site_url=c.base_url,
            )
        return self

    def __exit__(self, *_: object) -> None:
        if self.writer is not None:
            self._scratch.cleanup()

    def page(self, reading: Reading, page: str | None, lang: Language) -> None:
        """The reply to the message of `reading`, when it has none yet."""
        from validator.cli.batch_mail import answer

        seq = self.pending.pop(reading.message_file, None)
        if seq is None or self.writer is None:
            return
        writer, ledger = self.writer, self.ledger
        message_id = ledger.message_id(seq, writer.organizer.domain or "road300.invalid")
        refused = len(writer.refused)
        reply = answer(writer, reading, page, lang, message_id)
        if reply is None:
            why = writer.refused[-1].reason if len(writer.refused) > refused else None
            ledger.replied(seq, message_id, None, recipient=None, sender=None, reason=why)
            if why:  # said once, when decided, as `batch --replies` says it
                say(plain_text(f"no reply to {reading.message_file}: {why}"))
            return
        to, data = reply
        ledger.replied(seq, message_id, data, recipient=to, sender=writer.organizer.addr_spec)
        self.made += 1

    def rest(self, checker: Checker) -> None:
        """The replies of the messages the site did not read (each read again here)."""
        from validator.contest.mail import read_message
        from validator.render.html import render_html
        from validator.render.pages import page_of

        langs = (None, self.contest.lang)
        dice = self.contest.dice.name if self.contest.dice else None
        for seq in sorted(self.pending.values()):
            raw = self.ledger.message(seq).raw
            if raw is None:
                continue
            reading = read_message(checker, raw)
            self.page(
                reading,
                page_of(reading, dice, render_html, langs),
                reading.reply_language(*langs, os.environ),
            )


def _replies_written(ledger: Ledger, folder: Path) -> bool:
    """Whether the replies folder holds every reply the ledger has made (a run stopped
    after making one and before writing the folder leaves it short)."""
    if not (folder / "replies.mbox").is_file():
        return False
    return all((folder / f"reply-{seq:04d}.eml").is_file() for seq in ledger.written())


def write_replies(ledger: Ledger, contest: Contest, batch: Batch) -> None:
    """The replies folder made anew from the ledger: every reply made so far, sent or not,
    as `reply-N.eml` (N: the message's number in the ledger), and replies.mbox."""
    from validator.render.replies import ReplyWriter, replies_file
    from validator.system.atomic import NewFolder, replace_folders

    assert contest.organizer is not None
    try:
        folder = NewFolder(contest.replies_folder, replies_file)
        with replace_folders([folder]):
            writer = ReplyWriter(folder.path, batch, contest.organizer)
            for seq in ledger.written():
                reply = ledger.reply(seq)
                assert reply.data is not None
                writer.keep(reply.data, seq)
            writer.finish()
    except OSError as exc:
        fail_usage(f"cannot write {exc.filename or 'the replies'}: {exc.strerror}")


def send_replies(ledger: Ledger, contest: Contest, watch: bool = False) -> Sent:
    """Send every unsent reply over `[mail] smtp`; when the server cannot be used at all,
    stop (exit 2), or with `watch` say so and leave them to the next run (nothing is lost:
    the replies stay unsent)."""
    from validator.contest import smtp
    from validator.contest.mailurl import SMTP_PASSWORD, MailURLError, password

    url = contest.smtp
    assert url is not None  # `run` refuses --send without it, before anything is fetched
    if not ledger.to_send():
        return smtp.Sent()
    try:
        server = smtp.connect(url, password(url, SMTP_PASSWORD), contest.ca_file)
    except (smtp.SendError, MailURLError) as exc:
        problem = plain_text(f"{contest.path}: [mail] smtp: {exc}; the replies stay unsent")
        if not watch:
            fail_usage(problem)
        say(f"{problem} until the next run")
        return smtp.Sent()
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


def draw_lines(ledger: Ledger) -> Iterator[str]:
    """The draws the ledger records, for `contest status`."""
    for draw in ledger.draws():
        winners = ", ".join(f"{w['player']} ({w['file']})" for w in draw.drawn)
        yield plain_text(
            f"Draw {draw.at}: seed {draw.seed!r}, {len(draw.eligible)} eligible, winners: {winners}"
        )
        yield plain_text(f"  repeat it: {draw.command}")


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
        changed = count = ledger_gone = 0
        for stored in ledger.messages():
            if stored.raw is None:
                ledger_gone += 1
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
        drawn = bool(ledger.draws())
    gone = f" ({ledger_gone} no longer kept: the draw is made)" if ledger_gone else ""
    site = (
        "the site stays as it is" if drawn else "the next `road300 contest run` rewrites the site"
    )
    yield f"rechecked {counted(count, 'message', 'messages')}{gone}: {changed} changed; {site}"


def _said(outcome: tuple[str, int | None] | None) -> str:
    if outcome is None:
        return "no record"
    verdict, score = outcome
    return verdict if score is None else f"{verdict} ({score} points)"


# -- The draw of a running challenge ------------------------------------------------------------


def _running() -> Contest | None:
    """The contest file the command read, when `contest run` keeps its ledger."""
    from validator.cli.contest_file import current_contest

    contest = current_contest()
    if contest is not None and contest.state_file.is_file():
        return contest
    return None


def draw_allowed(outcome: Outcome) -> None:
    """Stop `road300 draw` (exit 2) before anything is said of a draw: before the deadline
    of a running challenge (mail may still come that changes who takes part), and when its
    results file is not what the ledger holds now (an export made before a later run, or
    before the deadline was changed)."""
    from datetime import UTC, datetime

    contest = _running()
    if contest is None:
        return
    if contest.deadline is not None and datetime.now(UTC) <= contest.deadline:
        fail_usage(
            f"the deadline of {contest.path} ({contest.deadline.isoformat()}) has not passed: "
            "entries may still come; draw after it"
        )
    results = outcome.results
    given = {_standing(e) for e in outcome.entries}
    with opened(contest, writer=False) as ledger:
        now = {_standing(e) for e in ranked(ledger, contest).entries}
    differ = sorted(given ^ now)
    if differ:
        fail_usage(
            f"{results} does not hold the results of {contest.state_file} as they are now "
            f"({counted(len(differ), 'entry differs', 'entries differ')}, such as "
            f"{plain_text(differ[0][0])}): make it again with road300 contest export -o "
            f"{results}, then draw"
        )


def _standing(entry: Entry) -> tuple[str, str, int | None, bool, bool]:
    """What decides whether an entry takes part in the draw."""
    return (entry.file, entry.verdict.value, entry.score, entry.late, entry.superseded)


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
    from validator.cli.batch_mail import output_folders_locked

    folders = output_folders_locked(contest.site_folder, contest.replies_folder)
    with opened(contest, writer=True) as ledger, folders:
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
        if not ledger.is_final():  # the site shows this draw; the first one is final
            ledger.stale()
        forgotten = settle(ledger, contest, make_checker(contest))[2]
    if forgotten:
        say(
            f"the results are final: the bytes of {counted(forgotten, 'message', 'messages')} "
            "are deleted from the ledger (contest recheck no longer checks them), and "
            "contest run leaves the site as it is"
        )
