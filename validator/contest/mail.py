"""E-mail as a batch source: an mbox file, a Maildir folder, or `.eml` files in a folder.

Each message is at most one entry. Its record is the one attachment a record format claims
(by name or by content), else the block of dice lines in its body (contest/body.py finds
it). An mbox is split in bounded pieces (contest/mbox.py), messages are parsed with the
standard library's `email` (policy `default`), every part bounded by the size cap before
it is decoded; bounces and auto-replies are neither entries nor answered; archives and
forwarded messages are never opened, nothing in a message is run or fetched, and no
attachment is ever written anywhere. Workers get a message's bytes and send back one small
`Arrival`, as contest/batch.py's workers do for files.
"""

from __future__ import annotations

import errno
import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from email.header import decode_header, make_header
from email.headerregistry import BaseHeader, HeaderRegistry
from email.message import EmailMessage, Message
from email.parser import BytesHeaderParser, BytesParser
from email.policy import EmailPolicy, compat32
from email.utils import getaddresses, parsedate_to_datetime
from pathlib import Path
from typing import TYPE_CHECKING, Literal, Protocol, TypeVar

from validator.check.replay import Result, malformed
from validator.contest.batch import (
    Batch,
    Checked,
    Entry,
    Found,
    Skipped,
    check_entries,
    collect,
    file_result,
    find_entries,
    fingerprint,
    shown_name,
)
from validator.contest.body import find_records, html_text, language_of
from validator.contest.config import CONTROLS, LINE_BREAKS, about_size, exact_size
from validator.contest.mbox import Span, spans
from validator.contest.origin import MailSource
from validator.engine import STANDARD
from validator.engine.phrase import N_, Items, Phrase, phrase, plural
from validator.errors import Diagnostic
from validator.language import i18n
from validator.records import RECORD_FORMATS, format_of, sniff_format
from validator.records.source import read_head

if TYPE_CHECKING:
    from validator.check.file import Checker

Kind = Literal["mbox", "maildir", "eml"]
_T = TypeVar("_T")

EML_SUFFIX = ".eml"

MESSAGE_FACTOR = 8
"""A whole message may be this many times the size cap (attachments are encoded, and a
photo may come along); a larger one is malformed, read no further than its headers."""
MIN_MESSAGE_BYTES = 16 * 1024 * 1024
HEADER_BYTES = 64 * 1024
"""How much of an oversized message is read to learn its headers."""
MAX_PARTS = 200
MAX_DEPTH = 20
NAME_CHARS = 120
"""An attachment's name is cut to this many characters."""

ARCHIVE_SUFFIXES = frozenset(
    {".zip", ".tar", ".gz", ".tgz", ".bz2", ".tbz", ".tbz2", ".xz", ".txz", ".7z", ".rar"}
    | {".zst", ".lz", ".lzma", ".cab", ".jar", ".z"}
)
ARCHIVE_TYPES = frozenset(
    {
        "application/zip", "application/x-zip-compressed", "application/gzip",
        "application/x-gzip", "application/x-tar", "application/x-7z-compressed",
        "application/x-rar-compressed", "application/vnd.rar", "application/x-bzip2",
        "application/x-xz", "application/zstd",
    }
)  # fmt: skip
_SNIFFED_TYPES = ("text/", "application/octet-stream", "application/json", "application/yaml")
"""Attachments whose name says nothing are recognised by content only if of these types."""


class _Registry(HeaderRegistry):
    """The standard header registry, making each header class once (the standard one
    makes a new class on every header read)."""

    def __init__(self) -> None:
        super().__init__()
        self._made: dict[str, type[BaseHeader]] = {}

    def __getitem__(self, name: str) -> type[BaseHeader]:
        made = self._made.get(name.lower())
        if made is None:
            made = self._made[name.lower()] = super().__getitem__(name)
        return made


class _Policy(EmailPolicy):
    """`email.policy.default`, with each header value parsed once: a part's Content-Type is
    read a dozen times while a message is looked through, and header objects are
    immutable. The cache is bounded, and a message never sees another's headers wrongly:
    the same name and raw value always parse to the same header."""

    def header_fetch_parse(self, name: str, value: str) -> str:
        if hasattr(value, "name"):
            return value
        key = (name.lower(), value)
        parsed = _PARSED.get(key)
        if parsed is None:
            if len(_PARSED) >= _PARSED_MAX:
                _PARSED.clear()
            parsed = _PARSED[key] = super().header_fetch_parse(name, value)
        return parsed


_PARSED: dict[tuple[str, str], str] = {}
_PARSED_MAX = 4096
POLICY = _Policy(header_factory=_Registry())
"""What messages are read with: the email package's `default` policy (see _Policy)."""


class MailError(Exception):
    """The mailbox cannot be read at all (not an mbox, unreadable); exit status 2."""


@dataclass(frozen=True, slots=True)
class Mailbox:
    """A source of messages: what it is, where, and the label its entries' files begin with."""

    kind: Kind
    path: Path
    label: str
    """`inbox.mbox`, the Maildir's folder name; for `.eml` files unused (each file is one)."""
    eml_files: tuple[str, ...] = ()
    """For kind `eml`: the message files, relative to `path`."""


@dataclass(frozen=True, slots=True)
class RawMessage:
    """One message as it comes out of the mailbox: its bytes (only its headers when it is
    over the cap), what its entries are named, and where a `dice_file:` is looked for."""

    file: str
    data: bytes
    folder: Path
    size: int | None = None
    """Set when the message is over the cap: its size, or a lower bound."""
    split: bool = False
    """An mbox's message after the first that began at a `From ` line (not where the
    previous one's Content-Length ended): it may be a forgery inside that one's body."""


@dataclass(frozen=True, slots=True)
class Arrival:
    """What a worker sends back for one message: small and picklable."""

    checked: Checked
    message_id: str | None
    address: str | None
    date: datetime | None
    has_record: bool
    """False: no record found; `checked.skipped` says why (not an entry)."""


@dataclass(frozen=True, slots=True)
class Candidate:
    """A part that holds (or may hold) the record."""

    part: str
    """`body` or the attachment's name."""
    fmt: str | None
    data: bytes | None
    """None when the part is over the cap."""
    size: int
    first_line: int = 1


# -- Finding the messages ------------------------------------------------------------------


def open_mailbox(path: Path, eml_files: Iterable[str] = ()) -> Mailbox | None:
    """The mailbox at `path`, or None when it is a plain folder of record files (or a file
    that is no mbox). `eml_files` are a folder's `.eml` files, relative to it."""
    if path.is_dir():
        if (path / "cur").is_dir() and (path / "new").is_dir():
            return Mailbox("maildir", path, path.resolve().name or "Maildir")
        files = tuple(sorted(eml_files))
        return Mailbox("eml", path, path.name, files) if files else None
    if path.is_file() and path.suffix.lower() == EML_SUFFIX:
        return Mailbox("eml", path.parent, path.name, (path.name,))
    if path.is_file() and path.suffix.lower() not in RECORD_FORMATS:
        try:
            with path.open("rb") as handle:
                head = handle.read(5)
        except OSError as exc:
            raise MailError(f"{path}: cannot read it: {exc.strerror}") from None
        if head == b"From " or (head == b"" and path.suffix.lower() in (".mbox", ".mbx")):
            return Mailbox("mbox", path, path.name)  # an empty .mbox: a mailbox of none
        if path.suffix.lower() in (".mbox", ".mbx"):
            raise MailError(f"{path}: not an mbox file (it does not start with a From line)")
    return None


def message_cap(max_bytes: int) -> int:
    return max(MESSAGE_FACTOR * max_bytes, MIN_MESSAGE_BYTES)


class Messages:
    """The messages of a mailbox in a stable order (an mbox's own, a Maildir's by file
    name, `.eml` files by path), each read no further than the cap; `len` counts them."""

    def __init__(self, box: Mailbox, max_bytes: int) -> None:
        self.box = box
        self.cap = message_cap(max_bytes)
        self.spans: list[Span] = []
        self.keys: list[str] = []
        if box.kind == "eml":
            return
        try:
            if box.kind == "mbox":
                self.spans = spans(box.path)
            else:
                self.keys = _maildir_messages(box.path)
        except OSError as exc:
            raise MailError(f"{box.path}: cannot read the mailbox: {exc.strerror}") from None

    def __len__(self) -> int:
        if self.box.kind == "mbox":
            return len(self.spans)
        return len(self.box.eml_files) if self.box.kind == "eml" else len(self.keys)

    def __iter__(self) -> Iterator[RawMessage]:
        box, cap = self.box, self.cap
        if box.kind == "eml":
            for rel in box.eml_files:
                yield self._file(f"{rel}#1", rel, (box.path / rel).parent)
            return
        if box.kind == "maildir":
            folder = box.path.resolve()
            for n, rel in enumerate(self.keys, start=1):
                yield self._file(f"{box.label}#{n}", rel, folder)
            return
        folder = box.path.resolve().parent
        try:
            handle = os.open(box.path, os.O_RDONLY | os.O_CLOEXEC)
        except OSError as exc:
            for n in range(1, len(self.spans) + 1):
                yield RawMessage(f"{box.label}#{n}", b"", folder, size=-(exc.errno or 1))
            return
        try:
            for n, span in enumerate(self.spans, start=1):
                file = f"{box.label}#{n}"
                try:
                    # No more than the cap of any message: a larger one is read no further
                    # than its headers (`_bounded`), whatever its size.
                    data = os.pread(handle, min(span.size, cap + 1), span.start)
                except OSError as exc:
                    yield RawMessage(file, b"", folder, size=-(exc.errno or 1))
                    continue
                raw = _bounded(file, data, cap, folder)
                if raw.size is not None:
                    raw = replace(raw, size=span.size)
                yield replace(raw, split=span.split)
        finally:
            os.close(handle)

    def _file(self, file: str, rel: str, folder: Path) -> RawMessage:
        """The message in the file `rel` of the mailbox's folder (an `.eml` file, a Maildir's
        `new/NAME`), read as a record file is: no link followed, no FIFO or device read
        (nor waited for)."""
        try:
            data = read_head(Path(rel), self.cap + 1, self.box.path)
        except OSError as exc:
            return RawMessage(file, b"", folder, size=-(exc.errno or 1))
        return _bounded(file, data, self.cap, folder)


def _maildir_messages(path: Path) -> list[str]:
    """A Maildir's messages, `new/NAME` and `cur/NAME:2,FLAGS`, in the order of their
    unique names (as mailbox.Maildir keys them): links and all, for the reading to refuse
    them rather than to pass over them in silence; dot files are not messages."""
    found: list[str] = []
    for sub in ("new", "cur"):
        with os.scandir(path / sub) as entries:
            found += [f"{sub}/{e.name}" for e in entries if not e.name.startswith(".")]
    return sorted(found, key=lambda rel: (rel.split("/", 1)[1].split(":", 1)[0], rel))


MAX_HEADER_CHARS = 2_000
"""The longest Subject, Date or Message-ID read (a subject is far shorter; decoding 80,000
encoded words took the email package seconds). From is never cut: see MAX_FROM_CHARS."""
MAX_FROM_CHARS = 4_000
"""The longest From read, whole: a cut one may end inside its address
(`<bob@victim.example.attacker.example>` read as bob@victim.example), so a longer one
gives no sender at all (no reply, and it supersedes nothing)."""
MAX_FIELD_BYTES = 16 * 1024
"""The longest header line (with its continuations) of any part that a message may have
to be read: the email package's parse of 60,000 parameters took half a minute."""
MAX_PARAMETERS = 100
"""The most `;` and `(` a Content-* header field may hold (a real one has a handful): the
email package's parse of 16,000 `;` took 0.75 s a part, and 4,000 nested `(` exceeded
its recursion limit."""
MAX_HEADERS_BYTES = 256 * 1024
"""The most header text all the parts of a message may hold together (199 parts with
16 KiB fields each cost the email package over a minute)."""


def _raw_meta(data: bytes, split: bool = False) -> Meta:
    """The headers an entry keeps of a message that is not read further, without the
    email package's parse of its header values: even a headers-only parse reads the
    Content-Type's parameters at its end (compat32 splits them as plain text)."""
    # Its header block only: even a headers-only parse splits the whole message into lines
    # (500,000 bare-CR parts: 200 MB).
    ends = [data.find(blank) for blank in (b"\n\n", b"\r\n\r\n", b"\r\r")]
    end = min([e + 4 for e in ends if e >= 0] + [MAX_HEADERS_BYTES])
    return _meta(BytesHeaderParser(policy=compat32).parsebytes(data[:end]), split)


def _too_heavy(data: bytes) -> Phrase | None:
    """Why a message must not be parsed whole, or None: a header field of some part far
    longer than any mail needs, or all its parts' headers together; a Content-* field
    with far more parameters or comments than any mail needs; or far more multipart or
    message parts than are ever read (the parse recurses into nested parts). Lines end
    as the email package ends them: at LF, CRLF or a bare CR."""
    folded = data.lower()  # `MULTIPART/MIXED` nests as deep as `multipart/mixed`
    nested = folded.count(b"multipart/") + folded.count(b"message/")
    boundaries = data.count(b"\n--") + data.count(b"\r--")
    if nested > 2 * MAX_PARTS or boundaries > 10 * MAX_PARTS:
        return phrase(
            N_("the message has far more parts than the {n} read; it was not read"), n=MAX_PARTS
        )
    total = field = marks = 0
    content = crowded = False  # a Content-* field (their parameters are parsed); too many
    in_headers = True  # the message's own, then each part's after its boundary line
    for line in data.splitlines():
        if in_headers:
            if not line:
                in_headers, field, marks = False, 0, 0
                continue
            if line[:1] in (b" ", b"\t"):
                field += len(line)
            else:
                field, marks, content = len(line), 0, line[:8].lower() == b"content-"
            if content:
                marks += line.count(b";") + line.count(b"(")
            total += len(line)
            if field > MAX_FIELD_BYTES or total > MAX_HEADERS_BYTES:
                return phrase(
                    N_("the headers of the message are longer than {n} bytes; it was not read"),
                    n=MAX_FIELD_BYTES if field > MAX_FIELD_BYTES else MAX_HEADERS_BYTES,
                )
            crowded = crowded or marks > MAX_PARAMETERS
        elif line.startswith(b"--"):
            in_headers = True
    if crowded:  # said after the lengths: a header too long is too long whatever it holds
        return phrase(
            N_(
                "a Content header of the message has more than {n} parameters and "
                "comments; it was not read"
            ),
            n=MAX_PARAMETERS,
        )
    return None


def _unreadable(error: int) -> Phrase:
    """Why a message file could not be read, from its error number."""
    if error == errno.ELOOP:
        return phrase(N_("the message file is a symbolic link; links are not followed"))
    if error == errno.EINVAL:
        return phrase(N_("the message file is not a regular file (a device, FIFO or socket)"))
    return phrase(N_("the message cannot be read (error {error})"), error=error)


def _bounded(file: str, data: bytes, cap: int, folder: Path) -> RawMessage:
    if len(data) <= cap:
        return RawMessage(file, data, folder)
    return RawMessage(file, header_of(data), folder, size=len(data))


def header_of(data: bytes) -> bytes:
    """A message's headers: up to its blank line, no further than HEADER_BYTES."""
    end = data.find(b"\n\n", 0, HEADER_BYTES)
    end2 = data.find(b"\r\n\r\n", 0, HEADER_BYTES)
    return data[: min(e for e in (end, end2, HEADER_BYTES) if e >= 0)]


# -- One message ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Reading:
    """One message read and checked: its entry's Result (None: no record, see `skipped`)."""

    file: str
    """The entry's file (`inbox.mbox#3/game.yaml`), or the message's (`inbox.mbox#3`)."""
    message_file: str
    meta: Meta
    part: str
    result: Result | None
    skipped: str | None = None
    language: str | None = None
    """The language the message's body is written in (body.language_of), when it tells."""
    why: Phrase | None = None
    """Why no record was found (`skipped` without its `no record:`), for the reply."""
    answer: bool = True
    """False for a message no reply may go to (a bounce, an auto-reply: `unanswered`)."""

    def reply_language(
        self, site: str | None, contest: str | None, environ: Mapping[str, str]
    ) -> i18n.Language:
        """The language of the reply to this message and of the entry's report page, in
        the documented order (`i18n.choose`): the record's own language, else the body's,
        else `site` (`batch --lang`), else `contest` (the contest file's `lang`), else the
        locale's (`environ`), else English."""
        return i18n.choose(
            record=self.result.language if self.result is not None else None,
            body=self.language,
            site=site,
            contest=contest,
            environ=environ,
        )

    def arrival(self) -> Arrival:
        meta = self.meta
        if self.result is None:
            checked = Checked(self.file, None, skipped=self.skipped)
            return Arrival(checked, meta.message_id, meta.address, meta.datetime, False)
        entry = Entry.of(self.result, self.file)
        player = entry.player or meta.name or meta.address
        entry = replace(entry, player=player, source=meta.source(self.part))
        checked = Checked(self.file, entry, fingerprint(self.result))
        return Arrival(checked, meta.message_id, meta.address, meta.datetime, True)


def check_message(checker: Checker, raw: RawMessage) -> Arrival:
    """Read one message and check its record; never raises, whatever the message holds."""
    return read_message(checker, raw, language=False).arrival()


def read_message(checker: Checker, raw: RawMessage, *, language: bool = True) -> Reading:
    """Read one message and check its record; never raises, whatever the message holds.
    With `language` the body's language too (for the reply; ranking needs none)."""
    try:
        return _read_message(checker, raw, language)
    except Exception as exc:  # a bug (or an email package surprise) costs one entry
        message = f"the validator failed on this message ({type(exc).__name__}); please report it"
        rules = checker.rules or STANDARD
        result = malformed(Diagnostic.said("E001", message, raw.file), rules, raw.file)
        return Reading(raw.file, raw.file, Meta(), "body", result)


def _read_message(checker: Checker, raw: RawMessage, language: bool) -> Reading:
    rules = checker.rules or STANDARD

    lang: str | None = None

    def refused(file: str, code: str, problem: Phrase, meta: Meta, part: str = "body") -> Reading:
        diagnostic = Diagnostic(code, problem, file)
        result = malformed(diagnostic, rules, file)
        return Reading(file, raw.file, meta, part, result, language=lang)

    if raw.size is not None:
        meta = _raw_meta(raw.data, raw.split)
        if raw.size < 0:
            return refused(raw.file, "E001", _unreadable(-raw.size), meta)
        if meta.unanswered is not None:
            return _unanswered(raw, meta)
        problem = phrase(
            N_("the message is more than {cap} bytes; it was not read beyond its headers"),
            cap=message_cap(checker.max_bytes),
        )
        return refused(raw.file, "E001", problem, meta)
    heavy = _too_heavy(raw.data)
    if heavy is not None:  # parsing it would cost minutes (the email package's own parse)
        meta = _raw_meta(raw.data, raw.split)
        if meta.unanswered is not None:
            return _unanswered(raw, meta)
        return refused(raw.file, "E001", heavy, meta)
    message = BytesParser(policy=POLICY).parsebytes(raw.data)
    assert isinstance(message, EmailMessage)
    meta = _meta(message, raw.split)
    if meta.unanswered is not None:
        return _unanswered(raw, meta)
    body = Body.of(message, checker.max_bytes)  # its text made once, for both uses
    lang = language_of(body.text) if language and body.text is not None else None
    found, notes = candidates(message, body, checker.max_bytes)
    if not found:
        why = phrase(N_("no attachment a record format reads, and no dice lines in the body"))
        if notes:
            why = phrase(N_("{reason} ({notes})"), reason=why, notes=Items(tuple(notes), "; "))
        skipped = str(phrase(N_("no record: {reason}"), reason=why))
        return Reading(raw.file, raw.file, meta, "body", None, skipped, lang, why)
    if len(found) > 1:
        problem = plural(
            len(found),
            "the message holds {n} record ({parts}); send one record per message",
            "the message holds {n} records ({parts}); send one record per message",
            parts=Items(tuple(_part_label(c) for c in found)),
        )
        return refused(raw.file, "E008", problem, meta)
    record = found[0]
    file = raw.file if record.part == "body" else f"{raw.file}/{record.part}"
    if record.data is None:
        problem = phrase(
            N_("the {part} is {size}, more than the {cap} allowed; it was not read"),
            part=_part_label(record),
            size=about_size(record.size),
            cap=exact_size(checker.max_bytes),
        )
        return refused(file, "E001", problem, meta, record.part)
    result = checker.check_data(record.data, raw.folder / "message", file, record.fmt, mailed=True)
    return Reading(file, raw.file, meta, record.part, result, language=lang)


def _unanswered(raw: RawMessage, meta: Meta) -> Reading:
    """A message that is no entry and gets no reply (`Meta.unanswered` says why)."""
    assert meta.unanswered is not None
    why = meta.unanswered
    return Reading(raw.file, raw.file, meta, "body", None, str(why), None, why, answer=False)


def _part_label(c: Candidate) -> Phrase:
    if c.part != "body":
        return phrase(N_("attachment {name}"), name=c.part)
    if c.first_line <= 1:
        return phrase(N_("body"))
    return phrase(N_("body from line {line}"), line=c.first_line)


@dataclass(frozen=True, slots=True)
class Meta:
    message_id: str | None = None
    address: str | None = None
    name: str | None = None
    datetime: datetime | None = None
    subject: str | None = None
    unanswered: Phrase | None = None
    """Why no reply may go to the message: a machine sent it (a bounce, an auto-reply),
    or it looks forged (`unanswered`)."""

    def source(self, part: str) -> MailSource:
        date = self.datetime.isoformat() if self.datetime is not None else None
        return MailSource(self.message_id, self.address, self.name, date, part)


def one_line(text: str) -> str:
    """Decoded header text with its line breaks and control characters (bidi controls too)
    turned into spaces, and raw 8-bit bytes decoded (`eight_bit`): what may go into a
    header of a reply or a field of the results."""
    return " ".join(CONTROLS.sub(" ", LINE_BREAKS.sub(" ", eight_bit(text))).split())


_ESCAPED = re.compile("[\udc80-\udcff]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def eight_bit(text: str) -> str:
    """Header text with the raw 8-bit bytes the email package keeps as lone surrogates
    (`J\\udcc3\\udcbcrgen`, common in real mail) decoded as UTF-8, else as Latin-1; no
    lone surrogate is left, for none can be written as UTF-8."""
    if not _SURROGATE.search(text):
        return text
    try:
        text = text.encode("utf-8", "surrogateescape").decode("utf-8")
    except UnicodeEncodeError:
        pass  # surrogates that are no escaped bytes
    except UnicodeDecodeError:
        text = _ESCAPED.sub(lambda c: chr(ord(c[0]) - 0xDC00), text)
    return _SURROGATE.sub("\ufffd", text)


_META_HEADERS = ("message-id", "from", "date", "subject", "auto-submitted")
MACHINES = frozenset({"mailer-daemon", "postmaster"})
"""The local parts of the addresses bounces come from (RFC 5321's postmaster)."""


def _meta(message: Message, split: bool = False) -> Meta:
    """The headers an entry keeps, decoded with the email package's utilities from their
    raw text (the header registry's full parse costs more than checking the record)."""
    raw: dict[str, str] = {}
    for key, value in message.raw_items():
        folded = key.lower()
        if folded in _META_HEADERS and folded not in raw:
            # From whole (a cut one may end inside its address), the others cut.
            raw[folded] = eight_bit(str(value)[: None if folded == "from" else MAX_HEADER_CHARS])
    message_id = one_line(raw.get("message-id", "")) or None
    name, address = None, None
    if "from" in raw and len(raw["from"]) <= MAX_FROM_CHARS:
        name, address = _sender(one_line(raw["from"]))
    when = None
    if "date" in raw:
        try:
            when = parsedate_to_datetime(one_line(raw["date"]))
        except (TypeError, ValueError, IndexError, OverflowError):
            when = None
        if when is not None and when.tzinfo is None:
            when = when.replace(tzinfo=UTC)
    subject = one_line(decoded(raw["subject"])) or None if "subject" in raw else None
    meta = Meta(message_id, address, name, when, subject)
    return replace(meta, unanswered=unanswered(meta, raw.get("auto-submitted"), split))


def unanswered(meta: Meta, auto_submitted: str | None, split: bool) -> Phrase | None:
    """Why a message must get no reply, or None. A machine sent it: a bounce (from
    mailer-daemon@ or postmaster@), or `Auto-Submitted` other than `no` (RFC 3834: an
    auto-reply, a notification), and answering it starts a loop between machines. Or the
    mbox split it off the message before at a `From ` line of that one's body (`split`)
    and it has no Date and no Message-ID of its own: a message forged inside another,
    from any address it likes."""
    local = meta.address.rsplit("@", 1)[0].casefold() if meta.address else ""
    if local in MACHINES:
        return phrase(
            N_("a message from {sender}, a bounce: it is no entry and gets no reply"),
            sender=local + "@",
        )
    value = one_line(auto_submitted).split(";")[0].strip().casefold() if auto_submitted else ""
    if value and value != "no":
        return phrase(
            N_("an automatic message (Auto-Submitted: {value}): it is no entry and gets no reply"),
            value=value[:40],
        )
    if split and meta.message_id is None and meta.datetime is None:
        return phrase(
            N_(
                "no Date and no Message-ID of its own: it looks split off the message before "
                'it at a line starting with "From " in that one\'s body, so it is no entry '
                "and gets no reply"
            )
        )
    return None


def _sender(value: str) -> tuple[str | None, str | None]:
    """(display name, address) of a From header. `getaddresses` is quick but gives up on
    some names mail clients write (`=?utf-8?q?Zed[x]Br?= <zed@...>`: the bracket in an
    encoded word); then the header registry's parse, slower and more forgiving, reads it,
    and the last resort reads a name before one <address>, so that the sender still
    gets a reply and a resubmission still supersedes.

    The sender is one address: a From that reads as more than one (`bob@victim.example
    <eve@evil.example>`, a display name that looks like an address) is the address in
    its angle brackets when it is written `name <address>`, and no sender otherwise, so
    that a reply never goes to a third party named in the header. Without angle brackets
    a From holds one address: two (`a@x.example b@x.example`) name no sender, and what is
    read must be one address (`"a@x.example, b@x.example"` is none)."""
    if "<" not in value and value.count("@") > 1:
        return None, None
    name, address = _parsed_sender(value)
    if address is not None and _ADDRESS.fullmatch(address) is None:
        return None, None
    return name, address


_ADDRESS = re.compile(r"[^\s@,;<>\"]+@[^\s@,;<>\"]+")


def _parsed_sender(value: str) -> tuple[str | None, str | None]:
    """`_sender`'s reading, before its address is checked to be one address."""
    try:
        pairs = getaddresses([value])
    except Exception:
        pairs = []
    if len(pairs) > 1 and sum(1 for p in pairs if p[1]) > 1:
        return _angle_sender(value)
    if pairs and "@" in pairs[0][1]:
        return one_line(decoded(pairs[0][0])) or None, one_line(pairs[0][1]) or None
    try:
        found = POLICY.header_factory("from", value).addresses
    except Exception:
        found = ()
    if len(found) > 1:
        return _angle_sender(value)
    if found and "@" in found[0].addr_spec:
        return one_line(found[0].display_name) or None, one_line(found[0].addr_spec) or None
    return _angle_sender(value)


def _angle_sender(value: str) -> tuple[str | None, str | None]:
    """A From read as lenient mail clients read it: a name, then one <address>
    (`Zed[x]Br <zed@...>`, unquoted specials that no parser accepts); else no sender."""
    angle = _ANGLE_ADDRESS.fullmatch(value.strip())
    if angle is None:
        return None, None
    return one_line(decoded(angle[1].strip().strip('"'))) or None, angle[2]


_ANGLE_ADDRESS = re.compile(r"([^<>]*)<([^<>\s@\\\"]+@[^<>\s@\\\"]+)>")


def decoded(text: str) -> str:
    """Header text with its encoded words (`=?utf-8?q?...?=`) decoded; as it is when they
    cannot be (an unknown charset, broken encoding)."""
    if "=?" not in text:
        return text
    try:
        return str(make_header(decode_header(text)))
    except Exception:
        return text


@dataclass(frozen=True, slots=True)
class Body:
    """A message's body (its plain, else HTML, text part) and the text it shows, made once
    for both the record and the language (an HTML body's text is the dearest part)."""

    part: Message | None
    size: int
    """Its decoded size, estimated from the encoded payload."""
    text: str | None
    """None: no body, one over the size cap, or no text in it."""

    @classmethod
    def of(cls, message: EmailMessage, max_bytes: int) -> Body:
        try:
            part = message.get_body(preferencelist=("plain", "html"))
        except Exception:
            part = None
        if part is None:
            return cls(None, 0, None)
        size = _encoded_size(part)
        if not isinstance(part, EmailMessage) or size > max_bytes:
            return cls(part, size, None)
        return cls(part, size, _body_text(part))


def candidates(
    message: EmailMessage, body: Body, max_bytes: int
) -> tuple[list[Candidate], list[Phrase]]:
    """The parts that may hold the record: the attachments a record format claims, else the
    records found in the body; and notes on what was passed over (an archive, ...)."""
    notes: list[Phrase] = []
    found: list[Candidate] = []
    for leaf in _leaves(message, notes):
        if leaf is body.part:
            continue
        found.extend(_attachment(leaf, max_bytes, notes))
    if found:
        return found, notes
    if isinstance(body.part, EmailMessage):
        found.extend(_body(body, max_bytes))
    return found, notes


def _leaves(message: Message, notes: list[Phrase]) -> Iterator[Message]:
    """The message's leaf parts, depth-first, never inside a forwarded message."""
    stack: list[tuple[Message, int]] = [(message, 0)]
    count = 0
    while stack:
        part, depth = stack.pop()
        count += 1
        if count > MAX_PARTS:
            notes.append(phrase(N_("parts after the first {n} were not read"), n=MAX_PARTS))
            return
        if part.get_content_maintype() == "message":
            notes.append(phrase(N_("a forwarded message is not read")))
            continue
        if part.is_multipart():
            if depth >= MAX_DEPTH:
                notes.append(phrase(N_("parts nested too deeply were not read")))
                continue
            payload = part.get_payload()
            if isinstance(payload, list):
                stack.extend((p, depth + 1) for p in reversed(payload) if isinstance(p, Message))
            continue
        yield part


def attachment_name(part: Message) -> str | None:
    """The attachment's file name as it may be shown: its last path component, without
    control characters, cut to NAME_CHARS; None for a part with no name."""
    try:
        raw = part.get_filename()
    except Exception:
        raw = None
    if raw is None:
        return None
    name = one_line(str(raw)).replace("\\", "/").split("/")[-1].strip()
    name = name.lstrip(".") or "attachment"
    return name[:NAME_CHARS]


def _encoded_size(part: Message) -> int:
    """The decoded size of a part, estimated from its encoded payload without decoding it."""
    payload = part.get_payload()
    size = len(payload) if isinstance(payload, str | bytes) else 0
    if str(part.get("Content-Transfer-Encoding", "")).strip().lower() == "base64":
        size = size * 3 // 4
    return size


def _attachment(part: Message, max_bytes: int, notes: list[Phrase]) -> list[Candidate]:
    name = attachment_name(part)
    disposition = part.get_content_disposition()
    if name is None and disposition != "attachment":
        return []  # an inline part: the body's alternative, an inline picture
    shown = name or "attachment"
    ctype = part.get_content_type()
    suffix = os.path.splitext(shown)[1].lower()
    if suffix in ARCHIVE_SUFFIXES or ctype in ARCHIVE_TYPES:
        notes.append(
            phrase(N_("the archive {name} is not opened: attach the record itself"), name=shown)
        )
        return []
    fmt = format_of(shown) if suffix in RECORD_FORMATS else None
    if fmt is None and not ctype.startswith(_SNIFFED_TYPES):
        return []
    size = _encoded_size(part)
    if size > max_bytes:
        return [Candidate(shown, fmt, None, size)]
    data = _content(part)
    if data is None:
        notes.append(phrase(N_("the attachment {name} cannot be decoded"), name=shown))
        return []
    if len(data) > max_bytes:
        return [Candidate(shown, fmt, None, len(data))]
    if fmt is None:
        fmt = sniff_format(data)
        if fmt is None:
            return []
    elif fmt == "text" and sniff_format(data) is None and not _has_dice_lines(data):
        # `.txt` names notes as often as records: one without a dice line is no record.
        notes.append(phrase(N_("the attachment {name} holds no dice lines"), name=shown))
        return []
    return [Candidate(shown, fmt, data, len(data))]


def _has_dice_lines(data: bytes) -> bool:
    return bool(find_records(data.decode("utf-8", "replace")))


def _content(part: Message) -> bytes | None:
    """A part's bytes; text in its declared charset comes back as UTF-8."""
    try:
        if part.get_content_maintype() == "text" and part.get_content_charset():
            assert isinstance(part, EmailMessage)
            text = part.get_content()
            if isinstance(text, str):
                return text.encode("utf-8", "surrogateescape")
        data = part.get_payload(decode=True)
    except Exception:
        return None
    return data if isinstance(data, bytes) else None


def _body(body: Body, max_bytes: int) -> list[Candidate]:
    size = body.size
    if size > max_bytes:
        return [Candidate("body", "text", None, size)]
    if body.text is None:
        return []
    records = find_records(body.text)
    return [
        Candidate("body", "text", r.text.encode("utf-8", "surrogateescape"), size, r.first_line)
        for r in records
    ]


def _body_text(body: EmailMessage) -> str | None:
    """The text the body shows (an HTML body's text), or None when it has none. A body
    that declares no charset is read as UTF-8, else Windows-1252, as an attachment is:
    8-bit text sent without one (`Grüße` in Latin-1) is common, and the email package's
    ASCII default would turn each such letter into a replacement character."""
    try:
        content = _payload_text(body) if body.get_param("charset") is None else None
        if content is None:
            content = body.get_content()
    except Exception:  # an unknown charset: read the bytes as UTF-8, else Windows-1252
        content = _payload_text(body)
    if isinstance(content, bytes):
        content = content.decode("utf-8", "replace")
    if not isinstance(content, str):
        return None
    if body.get_content_subtype() == "html":
        content = html_text(content)
    return content


def _payload_text(part: Message) -> str | None:
    from validator.records.source import decode_text

    try:
        data = part.get_payload(decode=True)
        return decode_text(data, "body").text if isinstance(data, bytes) else None
    except Exception:  # ReadError (binary, not text), or the email package's own
        return None


# -- Many messages -------------------------------------------------------------------------

WINDOW = 256
"""Messages handed to the pool at a time: memory stays bounded by the window, not the box."""


def check_messages(
    checker: Checker, messages: Iterable[RawMessage], jobs: int = 1
) -> Iterator[Arrival]:
    """Check every message, in order; with `jobs` > 1 in a process pool."""
    from validator.system.pool import pooled

    yield from pooled(check_message, (checker,), messages, jobs, 16, WINDOW)


# -- Deadline and resubmissions ------------------------------------------------------------


def settle(
    arrivals: Iterable[Arrival], deadline: datetime | None
) -> tuple[list[Checked], list[Skipped]]:
    """The entries with `late` and `superseded` decided, and the messages with no record.

    With a deadline, a message dated after it (or not dated at all) is late. Of the
    entries one address sent in time, the latest counts (on equal dates the later in the
    mailbox), the earlier ones are superseded."""
    entries: list[tuple[Checked, Arrival]] = []
    skipped: list[Skipped] = []
    for a in arrivals:
        if not a.has_record:
            skipped.append(Skipped(a.checked.file, a.checked.skipped or "", a.message_id))
        else:
            entries.append((a.checked, a))
    latest: dict[str, int] = {}
    late: set[int] = set()
    for n, (_, a) in enumerate(entries):
        if deadline is not None and (a.date is None or a.date > deadline):
            late.add(n)
            continue
        if a.address is None:
            continue
        key = a.address.casefold()
        best = latest.get(key)
        if best is None or _when(entries[best][1]) <= _when(a):
            latest[key] = n
    counting = set(latest.values())
    out: list[Checked] = []
    for n, (checked, a) in enumerate(entries):
        entry = checked.entry
        assert entry is not None
        superseded = n not in late and a.address is not None and n not in counting
        entry = replace(entry, late=n in late, superseded=superseded)
        out.append(replace(checked, entry=entry))
    return out, skipped


def _when(a: Arrival) -> datetime:
    return a.date or datetime.min.replace(tzinfo=UTC)


# -- A batch's source: record files, messages, or both -------------------------------------


class MessageList(Protocol):
    """Messages that can be counted and read in order, as `Messages` can."""

    def __len__(self) -> int: ...

    def __iter__(self) -> Iterator[RawMessage]: ...


@dataclass
class Source:
    """What `road300 batch SOURCE` checks: the record files of a folder, and the messages
    of an mbox file, a Maildir, or the `.eml` files among the folder's records."""

    path: Path
    root: Path
    """The folder record files are relative to, and a record's `dice_file` must be in."""
    found: Found
    box: Mailbox | None
    messages: Messages | MessageList | None
    """A mailbox's messages, or those of a running challenge's ledger (contest/ledger.py)."""
    entry_files: list[str] | None = None
    """After `check`: the record files that became entries (the others need no page)."""

    @classmethod
    def find(cls, path: Path, max_bytes: int, exclude: dict[Path, str] | None = None) -> Source:
        """Raises BatchError (no such folder, a file that is no mailbox) or MailError."""
        if path.is_file():
            box = open_mailbox(path)
            if box is None:
                find_entries(path, exclude)  # raises BatchError: a file, not a folder
                raise AssertionError("find_entries accepted a file")  # pragma: no cover
            return cls(path, path.parent.resolve(), Found([], []), box, Messages(box, max_bytes))
        found = find_entries(path, exclude)
        # The folder walk lists every file for its content to decide; `.eml` files are
        # messages, whatever a record reader would make of them.
        eml = [f for f in found.files if f.lower().endswith(EML_SUFFIX)]
        box = open_mailbox(path, eml)
        if box is None:
            return cls(path, path.resolve(), found, None, None)
        if box.kind == "maildir":
            found = Found([], [])  # cur/, new/ and tmp/ hold messages only
        else:
            taken = set(eml)
            found = Found([f for f in found.files if f not in taken], found.skipped)
        return cls(path, path.resolve(), found, box, Messages(box, max_bytes))

    @property
    def count(self) -> int:
        """Record files and messages to check."""
        return len(self.found.files) + (len(self.messages) if self.messages else 0)

    def check(
        self,
        checker: Checker,
        jobs: int,
        *,
        min_score: int,
        deadline: datetime | None = None,
        on_result: Callable[[object], None] | None = None,
    ) -> Batch:
        """Check everything and rank it; messages get `late` and `superseded` first."""

        def tap(items: Iterable[_T]) -> Iterator[_T]:
            for item in items:
                if on_result is not None:
                    on_result(item)
                yield item

        files = list(tap(check_entries(checker, self.root, self.found.files, jobs)))
        # check_entries keeps the order of the files it is given.
        self.entry_files = [f for f, c in zip(self.found.files, files, strict=True) if c.entry]
        arrivals: list[Arrival] = []
        if self.messages is not None:
            arrivals = list(tap(check_messages(checker, self.messages, jobs)))
        mail, skipped = settle(arrivals, deadline)
        found = Found(self.found.files, [*self.found.skipped, *skipped])
        return collect(found, [*files, *mail], min_score=min_score)

    def items(self) -> Iterator[str | RawMessage]:
        """Every record file that is an entry (its name) and every message, in the order
        they were checked."""
        yield from self.found.files if self.entry_files is None else self.entry_files
        if self.messages is not None:
            yield from self.messages

    def reading(self, checker: Checker, item: str | RawMessage) -> Reading:
        """One item of `items` read and checked again, with its Result (for the results
        site and the replies, which need more than the entry)."""
        if isinstance(item, RawMessage):
            return read_message(checker, item)
        # Read as the batch read it (its name as every output shows it).
        name = shown_name(item)
        result = file_result(checker, self.root, item)
        if isinstance(result, str):
            return Reading(name, name, Meta(), "file", None, result)
        return Reading(name, name, Meta(), "file", result)
