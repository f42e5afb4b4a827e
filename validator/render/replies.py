"""The replies of `road300 batch --replies DIR`: one RFC 5322 message per message received,
as a `.eml` file a mail client opens and sends, and all of them in `replies.mbox`.

A reply goes To the sender, From the organizer, with `Subject: Re: ...`, and `In-Reply-To`
and `References` naming the message answered. Every header value is built with the email
package from decoded text whose line breaks are removed (mail.one_line), and an address
the email package cannot parse gets no reply: nothing a sender writes can add a header.
The body says the verdict and score, or the first illegal step in the text report's own
words, or why no record was found; late and superseded notes, the rank when known; the
entry's HTML report is attached. Each reply speaks its sender's language
(`Reading.reply_language`: the record's, else the body's, else `batch --lang`, else the
contest file's `lang`, else the locale's; docs/languages.md); its Subject is that
language's text on one line, which the email package encodes.
"""

from __future__ import annotations

import mailbox
import os
import re
import tempfile
from contextlib import suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from email import policy
from email.headerregistry import Address
from email.message import EmailMessage
from email.parser import BytesHeaderParser
from email.utils import format_datetime, make_msgid, parseaddr
from pathlib import Path

from validator.check.replay import Verdict
from validator.contest.batch import Batch, Entry, file_order
from validator.contest.config import organizer_problem
from validator.contest.mail import Reading, decoded, one_line
from validator.engine import roll_text
from validator.errors import Diagnostic
from validator.language import i18n
from validator.records.text_record import EXAMPLE
from validator.render import texts
from validator.render.shared import more_errors
from validator.render.texts import say
from validator.report.model import build_report, help_text
from validator.system.atomic import PRIVATE, sigterm_exits, write_bytes

_MSG_ID = re.compile(r"<[^<>\s@]+@[^<>\s@]+>")
REPLY_ERRORS = 10
"""The reading problems a reply lists (validate lists them all)."""
_REPLY_NAME = re.compile(r"reply-[0-9]{4,}\.eml")
"""The replies' file names (`add`)."""
_REPLIES_FILES = re.compile(r"reply-[0-9]{4,}\.eml|replies\.mbox|\..*\.tmp")


def reply_file(rel: str) -> bool:
    """Whether `rel` (relative to the replies folder) is a reply (`reply-0001.eml`)."""
    return _REPLY_NAME.fullmatch(rel) is not None


def replies_file(rel: str) -> bool:
    """Whether `rel` is a file a reply writer makes (a temporary one too); a new replies
    folder carries over everything else (system/atomic.NewFolder)."""
    return _REPLIES_FILES.fullmatch(rel) is not None


MAX_SUBJECT = 200
_REPLY_PREFIXES = ("re:", "aw:", "re :")
"""A subject that is already a reply's (`Re:`, German `AW:`, French `RE :`) is kept."""


@dataclass(frozen=True, slots=True)
class Refused:
    """A message that gets no reply, and why (an address that cannot be written)."""

    file: str
    reason: str


def header_text(text: str) -> str:
    """Sender text for a header of a reply: on one line, and with no encoded word left in
    it. The email package decodes the encoded words of a value it is given, so text that
    decodes to another encoded word holding a line break (or one our decoding left as it
    was, beside an unknown charset) would become a new header line: `=?` is broken up."""
    for _ in range(3):  # an encoded word inside one: decode what it holds too
        if "=?" not in text:
            break
        text = decoded(text)
    return one_line(text).replace("=?", "= ?")


def address_of(name: str | None, address: str | None) -> Address | None:
    """The sender as a header address, or None when the email package cannot write it."""
    if not address:
        return None
    try:
        shown = Address(display_name=header_text(name or ""), addr_spec=one_line(address))
        str(shown)
    except Exception:  # the email package refuses it: no reply rather than a bad header
        return None
    if not _ADDRESS.fullmatch(shown.addr_spec):  # an ASCII host name after the @ (IDNA)
        return None
    return shown


_ADDRESS = re.compile(r"[^\s@<>()\[\],;:\\\"]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*")


def organizer_address(text: str) -> Address | None:
    """The organizer (`Name <address>` or an address) as the From of the replies, or None
    when it is none (`organizer_problem` says why) or no address the email package can
    write."""
    if organizer_problem(text) is not None:
        return None
    name, addr = parseaddr(one_line(text))
    return address_of(name, addr)


REPLY_HEADERS = (
    "From", "To", "Subject", "Date", "Message-ID", "In-Reply-To", "References",
    "MIME-Version", "Content-Type",
)  # fmt: skip
"""Every header a reply has at its top, each once (docs/contest.md)."""


def _head(data: bytes) -> bytes:
    """A message's bytes up to its first empty line, where its headers end at the latest:
    what a header parser reads of it (without going through every line of the body)."""
    end = data.find(b"\n\n")
    return data if end < 0 else data[: end + 2]


def _addressed_to(data: bytes, address: str) -> bool:
    """Whether a reply, read back, goes to `address` and to it alone."""
    to = BytesHeaderParser(policy=policy.default).parsebytes(_head(data))["To"]
    found = getattr(to, "addresses", ())
    return [a.addr_spec for a in found] == [address]


def _only_our_headers(data: bytes, written: list[str]) -> bool:
    """Whether a reply, read back, has exactly the headers `written` at its top, in that
    order, each once and each one of REPLY_HEADERS: the last check that nothing a sender
    wrote added one (or ended the headers early)."""
    headers = BytesHeaderParser(policy=policy.compat32).parsebytes(_head(data))
    names = [name.lower() for name in headers]
    allowed = {name.lower() for name in REPLY_HEADERS}
    return (
        names == [name.lower() for name in written]
        and len(set(names)) == len(names)
        and set(names) <= allowed
        and not headers.defects
    )


class ReplyWriter:
    """Writes the reply to each message as it comes, and replies.mbox at the end."""

    def __init__(
        self,
        folder: Path,
        batch: Batch,
        organizer: str,
        *,
        contest: str | None = None,
        deadline: datetime | None = None,
        now: datetime | None = None,
        site_url: str | None = None,
    ) -> None:
        self.folder = folder
        self.entries = {e.file: e for e in batch.entries}
        self.ranked = sum(1 for e in batch.entries if e.ranked)
        self.goal = batch.min_score
        found = organizer_address(organizer)
        if found is None:
            raise ValueError(f"{organizer!r} is not an e-mail address")
        self.organizer = found
        self.contest = contest
        self.deadline = deadline
        self.site_url = site_url
        """The results site's public address (`base_url`), for a link in every reply."""
        self.now = now or datetime.now(UTC)
        self.written: list[Path] = []
        self.refused: list[Refused] = []
        folder.mkdir(parents=True, exist_ok=True)

    def add(self, reading: Reading, page: str | None, lang: i18n.Language = i18n.DEFAULT) -> None:
        """Write the reply to the message of `reading` in `lang` (its sender's language,
        `Reading.reply_language`), with `page` (the entry's HTML report) attached."""
        made = self.make(reading, page, lang)
        if made is not None:
            self.keep(made[1])

    def keep(self, data: bytes, number: int | None = None) -> None:
        """Write a reply made by `make` to the folder, as `reply-NUMBER.eml` (default:
        the next number), for replies.mbox too."""
        number = number if number is not None else len(self.written) + 1
        path = self.folder / f"reply-{number:04d}.eml"  # _REPLY_NAME
        write_bytes(path, data, private=True)  # whole or not at all; it holds addresses
        self.written.append(path)

    def make(
        self,
        reading: Reading,
        page: str | None,
        lang: i18n.Language = i18n.DEFAULT,
        *,
        message_id: str | None = None,
    ) -> tuple[str, bytes] | None:
        """The reply to the message of `reading` (see `add`): its recipient's address and
        its bytes, with `message_id` (default: a new one); None when it gets none (the
        reason is added to `refused`)."""
        meta = reading.meta
        to = address_of(meta.name, meta.address)
        if to is None:
            self.refused.append(Refused(reading.message_file, "no address to reply to"))
            return None
        entry = self.entries.get(reading.file) if reading.result is not None else None
        message = EmailMessage(policy=policy.default)
        message["From"] = self.organizer
        message["To"] = to
        with i18n.speaking(lang):
            message["Subject"] = self.subject(meta.subject)
            body = self.body(reading, entry, to.display_name)
        message["Date"] = format_datetime(self.now)
        message["Message-ID"] = message_id or make_msgid("road300", self.organizer.domain or None)
        if meta.message_id and _MSG_ID.fullmatch(meta.message_id):
            message["In-Reply-To"] = meta.message_id
            message["References"] = meta.message_id
        message.set_content(body)
        if page is not None:
            message.add_attachment(page.encode("utf-8"), "text", "html", filename="report.html")
        else:
            message.make_mixed()  # every reply has the same headers, attachment or not
        data = message.as_bytes()
        if not _addressed_to(data, to.addr_spec):
            # The email package folds a long name holding specials (`Mallory [2J AAA...`)
            # so that it no longer reads back: its first word came out as the address.
            message.replace_header("To", Address(addr_spec=to.addr_spec))
            data = message.as_bytes()
        # Never expected (header_text stops it): a sender's text made or ended a header.
        if not _only_our_headers(data, list(message.keys())):
            self.refused.append(Refused(reading.message_file, "its headers would not be safe"))
            return None
        return to.addr_spec, data

    @staticmethod
    def subject(theirs: str | None) -> str:
        """`Re:` and the sender's subject (as it is when it has one), in the current
        language, on one line and cut to MAX_SUBJECT characters."""
        subject = header_text(theirs or "")[:MAX_SUBJECT]
        if not subject:
            return one_line(say("reply.subject.none"))
        if subject.casefold().startswith(_REPLY_PREFIXES):
            return subject
        return one_line(say("reply.subject", subject=subject))

    def body(self, reading: Reading, entry: Entry | None, name: str) -> str:
        """The reply's text in the current language, paragraph by paragraph, from the
        sentences in texts.py."""
        greeting = say("reply.greeting", name=name) if name else say("reply.greeting.anonymous")
        result = reading.result
        paragraphs = [greeting]
        if result is None or entry is None:  # nothing was checked: thanks for the message
            paragraphs.append(self._thanks("reply.thanks.message"))
            reason = i18n.say(reading.why) if reading.why is not None else reading.skipped
            paragraphs.append(say("reply.skipped", reason=reason or ""))
            paragraphs.append(say("reply.skipped.how", example=EXAMPLE))
        else:
            paragraphs.append(self._thanks("reply.thanks"))
            paragraphs.extend(self._verdict(reading, entry))
            paragraphs.extend(self._go_on(reading, entry))
            if entry.late:
                paragraphs.append(
                    say("reply.late", deadline=i18n.when(self.deadline, zone=True))
                    if self.deadline is not None and entry.source and entry.source.date
                    else say("reply.late.undated")
                )
            if entry.superseded:
                paragraphs.append(say("reply.superseded"))
            copied = self._copied(entry)
            if copied is not None:
                paragraphs.append(say(copied))
            if entry.rank is not None:
                paragraphs.append(say("reply.rank", rank=entry.rank, ranked=self.ranked))
            if entry.verdict is Verdict.MALFORMED:
                paragraphs.append(say("reply.report.malformed"))
            elif build_report(result).illegal is not None:
                paragraphs.append(say("reply.report.illegal"))
            else:
                paragraphs.append(say("reply.report"))
        if self.site_url:
            paragraphs.append(say("reply.results", url=self.site_url))
        organizer = self.organizer.display_name or self.organizer.addr_spec
        paragraphs.append(say("reply.closing", organizer=organizer))
        return "\n\n".join(paragraphs) + "\n"

    def _thanks(self, key: str) -> str:
        """The thanks of `key`, naming the contest when it has a name (`key.contest`)."""
        return say(f"{key}.contest", name=self.contest) if self.contest else say(key)

    def _copied(self, entry: Entry) -> str | None:
        """What to say when another sender's entry played the same game (a resubmission of
        one's own game is no copy to mention): to the first of them to arrive (the
        mailbox's order, as `draw --keep-first` takes it; a Date is the sender's to write),
        that a later entry is a copy of theirs; to a later one, that theirs is a copy."""
        mine = entry.source.address.casefold() if entry.source and entry.source.address else None
        others = []
        for file in entry.copies:
            other = self.entries.get(file)
            theirs = other.source.address if other is not None and other.source else None
            if theirs is None or theirs.casefold() != mine:
                others.append(file)
        if not others:
            return None
        first = min([entry.file, *others], key=file_order)
        return "reply.copy.original" if first == entry.file else "reply.copy.later"

    def _verdict(self, reading: Reading, entry: Entry) -> list[str]:
        result = reading.result
        assert result is not None
        if entry.verdict is Verdict.VALID:
            out = [say("reply.valid", points=texts.points(entry.score or 0))]
            if (entry.score or 0) >= self.goal:
                out.append(say("reply.valid.goal", points=texts.points(self.goal)))
            return out
        if entry.verdict is Verdict.INCOMPLETE:
            return [say("reply.incomplete", points=texts.points(entry.score or 0))]
        report = build_report(result)
        error = result.error
        part = (
            say("reply.part.body")
            if reading.part == "body"
            else say("reply.part.attachment", name=reading.part)
        )
        x = report.illegal
        if x is not None:
            # In words, where the player's own message has it (never the mailbox's name for
            # it); the board is drawn in the attached report, not in a mail's plain text.
            step = (
                say("reply.illegal.step", step=x.where, dice=roll_text(x.dice))
                if x.roll and x.dice is not None
                else say("reply.illegal.record")
            )
            told = [self._problem(x.error, part), *(f"- {note}" for note in x.legal)]
            return [say("reply.invalid"), step + "\n" + "\n".join(told)]
        out = [
            say("reply.malformed" if entry.verdict is Verdict.MALFORMED else "reply.invalid.whole")
        ]
        if error is None:
            return out
        # Every reading problem, as validate lists them, so that one reply is enough to
        # mend the record (up to REPLY_ERRORS; the report lists the rest).
        errors = result.errors
        out.extend(self._problem(e, part) for e in errors[:REPLY_ERRORS])
        more = more_errors(result, left_out=len(errors[REPLY_ERRORS:]))
        if more:
            out.append(more)
        return out

    def _go_on(self, reading: Reading, entry: Entry) -> list[str]:
        """For an invalid or incomplete entry that still counts: the roll to go on from,
        and that a corrected record may be sent (until the deadline, when there is one)."""
        result = reading.result
        if result is None or entry.late or entry.superseded:
            return []
        out: list[str] = []
        if entry.verdict is Verdict.INVALID:
            roll = result.error.roll if result.error is not None else None
            if roll is not None:
                out.append(say("reply.go_on.invalid", roll=roll))
        elif entry.verdict is Verdict.INCOMPLETE:
            last = max((r.roll for r in result.rounds), default=0)
            out.append(say("reply.go_on.incomplete", roll=last + 1))
        else:
            return []
        if self.deadline is not None:
            out.append(say("reply.resend.deadline", deadline=i18n.when(self.deadline, zone=True)))
        else:
            out.append(say("reply.resend"))
        return out

    @staticmethod
    def _problem(error: Diagnostic, part: str) -> str:
        """One problem of the record: its code, message, where (in `part`) and help."""
        message = i18n.message(error)
        if error.line is None:
            text = say("reply.error.in", code=error.code, message=message, part=part)
        else:
            where = (
                say("reply.where.line", line=error.line, part=part)
                if error.col is None
                else say("reply.where.column", line=error.line, col=error.col, part=part)
            )
            text = say("reply.error.at", code=error.code, message=message, where=where)
        if error.hint:
            text += "\n" + say("reply.error.help", hint=help_text(i18n.hint(error)))
        return text

    def finish(self) -> int:
        """Write replies.mbox (whole, then renamed into place); the number of replies."""
        target = self.folder / "replies.mbox"
        with sigterm_exits():
            # A unique temporary name: two runs never share one, and an interrupted run
            # leaves the old replies.mbox as it was and no temporary file.
            fd, name = tempfile.mkstemp(prefix=".replies.mbox.", suffix=".tmp", dir=self.folder)
            os.close(fd)
            temporary = Path(name)
            try:
                # No lock: no other process knows the temporary name.
                box = mailbox.mbox(temporary, create=True)
                try:
                    for path in self.written:
                        box.add(path.read_bytes())
                finally:
                    box.close()  # flushes
                os.chmod(temporary, PRIVATE)  # it holds the players' addresses
                os.replace(temporary, target)
            except BaseException:
                with suppress(FileNotFoundError):
                    temporary.unlink()
                raise
        return len(self.written)
