"""The contest file (`road300.toml` found beside the source, or named by --contest): a challenge's
settings in one place, read with `tomllib`, every mistake named with its file and line.

Commands take its values as their options' defaults, so an option given on the command
line always wins (validator/cli/contest_file.py does that for click).
"""

from __future__ import annotations

import difflib
import math
import re
import tomllib
from dataclasses import dataclass
from datetime import date, datetime, time
from email.utils import parseaddr
from pathlib import Path

from validator.contest.mailurl import Kind, MailURL, MailURLError, parse_mail_url
from validator.engine.phrase import N_, Phrase, phrase, plural
from validator.language import i18n

FILE_NAME = "road300.toml"
"""The name a contest file is found by, beside the source or in the current folder."""

MAX_CONTEST_BYTES = 256 * 1024

TOP_KEYS = (
    "name", "dice", "rules", "deadline", "organizer", "lang", "max_size", "draw",
    "state", "site", "replies", "base_url", "public_address", "mail",
)  # fmt: skip
DRAW_KEYS = ("winners", "seed")
MAIL_KEYS = ("imap", "smtp", "source", "ca_file", "poll")
"""`[mail]`: where `road300 contest run` fetches (imap, or a local mailbox: source) and
sends (smtp) the challenge's mail (docs/contest.md)."""
STATE_FILE = "road300.db"
SITE_FOLDER = "site"
REPLIES_FOLDER = "replies"
"""Where `contest run` keeps its ledger and writes the site and the replies when the
contest file does not say (relative to it)."""
DEFAULT_POLL = 300

_UNITS: dict[str, int] = {"": 1, "B": 1} | {
    prefix + unit: base**power
    for power, prefix in enumerate("KMG", start=1)
    for unit, base in (("", 1024), ("B", 1000), ("IB", 1024))
}


def parse_size(value: str) -> int:
    """Bytes from `1048576`, `512KiB`, `4MiB`, `1 MB`, `2GiB`; ValueError otherwise."""
    text = value.strip().upper().replace(" ", "")
    number = text.rstrip("KMGIB")
    unit = text[len(number) :]
    if not number.isdigit() or unit not in _UNITS or int(number) == 0:
        raise ValueError(f"{value!r} is not a size like 1048576, 512KiB or 4MiB")
    return int(number) * _UNITS[unit]


def size_text(size: int) -> str:
    """`size` bytes as `parse_size` reads them back: `2GiB`, `512MiB`, `1536KiB`, `100`."""
    for unit in ("GiB", "MiB", "KiB"):
        factor = _UNITS[unit.upper()]
        if size >= factor and size % factor == 0:
            return f"{size // factor}{unit}"
    return str(size)


def about_size(size: int) -> Phrase:
    """An estimated size as a person says it: `about 1.2 MB`, `about 84 kB`, `about 900
    bytes` (decimal units, two figures: an estimate is no more exact than that)."""
    if size >= 999_500:
        tenths = round(size / 100_000)
        if tenths >= 100:
            return phrase(N_("about {whole} MB"), whole=round(size / 1_000_000))
        return phrase(N_("about {whole}.{tenth} MB"), whole=tenths // 10, tenth=tenths % 10)
    if size >= 1000:
        return phrase(N_("about {whole} kB"), whole=round(size / 1000))
    return plural(size, "about {n} byte", "about {n} bytes")


def exact_size(size: int) -> Phrase:
    """A limit as it was set: `1 MiB`, `512 KiB`, `65000 bytes`."""
    text = size_text(size)
    if text.isdigit():
        return plural(size, "{n} byte", "{n} bytes")
    return phrase(N_("{whole} {unit}"), whole=text.rstrip("KMGiB"), unit=text.lstrip("0123456789"))


LINE_BREAKS = re.compile(r"[\r\n\u2028\u2029\x85]+")
CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]")
"""C0, DEL, C1 and the bidi controls: nothing a header, a name or a terminal should hold."""


def organizer_problem(text: str) -> str | None:
    """Why `text` cannot be the organizer (the From of the replies, the address the site
    publishes), or None when it is one `Name <address>` or address: the one check of
    every --organizer and of the contest file's `organizer` key."""
    from email.utils import getaddresses

    if LINE_BREAKS.search(text) or CONTROLS.search(text):
        return "holds a line break or a control character: give one address on one line"
    if len(getaddresses([text])) > 1:
        return "holds more than one address: give one"
    if "@" not in _address(text):
        return "is not an e-mail address"
    return None


def _address(text: str) -> str:
    """The address part of `Name <address>`, or "" when the email package cannot write it."""
    from email.headerregistry import Address

    name, addr = parseaddr(text)
    try:
        return str(Address(display_name=name, addr_spec=addr).addr_spec) if addr else ""
    except Exception:
        return ""


class ContestError(Exception):
    """The contest file cannot be used; the message starts with `FILE:LINE:`."""


@dataclass(frozen=True, slots=True)
class Contest:
    """A contest file's settings; None where the file does not say."""

    path: Path
    name: str | None = None
    dice: Path | None = None
    """Resolved against the contest file's folder."""
    rules: str | None = None
    deadline: datetime | None = None
    organizer: str | None = None
    lang: str | None = None
    max_size: int | None = None
    winners: int | None = None
    seed: str | None = None
    state: Path | None = None
    """The ledger of `contest run` (resolved like `dice`; `state_file` gives the default)."""
    site: Path | None = None
    replies: Path | None = None
    base_url: str | None = None
    public_address: str | None = None
    imap: MailURL | None = None
    smtp: MailURL | None = None
    source: Path | None = None
    """A local mailbox (mbox, Maildir, a folder of `.eml` files) instead of `imap`."""
    ca_file: Path | None = None
    poll: int | None = None

    @property
    def state_file(self) -> Path:
        return self.state or self.path.parent / STATE_FILE

    @property
    def site_folder(self) -> Path:
        return self.site or self.path.parent / SITE_FOLDER

    @property
    def replies_folder(self) -> Path:
        return self.replies or self.path.parent / REPLIES_FOLDER

    def defaults(self) -> dict[str, object]:
        """Option name -> value, for the options this file gives a default."""
        values: dict[str, object] = {
            "dice": self.dice,
            "rules": self.rules,
            "deadline": self.deadline,
            "organizer": self.organizer,
            "contest_name": self.name,
            "max_size": None if self.max_size is None else str(self.max_size),
            "winners": self.winners,
            "seed": self.seed,
        }
        return {k: v for k, v in values.items() if v is not None}


def find_contest(source: Path | None, cwd: Path | None = None) -> Path | None:
    """`road300.toml` in SOURCE (a folder), beside it, or in the current folder."""
    places: list[Path] = []
    if source is not None:
        if source.is_dir():
            places.append(source)
        places.append(source.parent)
    places.append(cwd or Path.cwd())
    for folder in places:
        candidate = folder / FILE_NAME
        if candidate.is_file():
            return candidate
    return None


def load_contest(path: Path) -> Contest:
    """Read and check a contest file; raises ContestError naming the file and line."""
    try:
        if path.stat().st_size > MAX_CONTEST_BYTES:
            raise ContestError(f"{path}: more than {MAX_CONTEST_BYTES} bytes; not a contest file")
        text = path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        raise ContestError(f"{path}: no such contest file") from None
    except UnicodeDecodeError:
        raise ContestError(f"{path}: not UTF-8 text") from None
    except OSError as exc:
        raise ContestError(f"{path}: cannot read it: {exc.strerror}") from None
    return parse_contest(text, path)


def parse_contest(text: str, path: Path) -> Contest:
    """Check the text of a contest file (`path` names it in messages); raises ContestError
    naming the file and line."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        at = re.search(r"\(at line (\d+), column (\d+)\)", message)
        if at:
            message = message[: at.start()].strip()
            raise ContestError(f"{path}:{at[1]}:{at[2]}: not valid TOML: {message}") from None
        raise ContestError(f"{path}: not valid TOML: {message}") from None
    return _Checker(path, text).contest(data)


class _Checker:
    def __init__(self, path: Path, text: str) -> None:
        self.path = path
        self.lines = text.splitlines()

    def line_of(self, key: str, section: str = "") -> int:
        current = ""
        for n, line in enumerate(self.lines, start=1):
            stripped = line.strip()
            header = re.match(r"\[\s*([^\]]+?)\s*\]", stripped)
            if header:
                current = header[1].strip('"')
                if section == "" and key == current:
                    return n
                continue
            if current == section and re.match(rf'"?{re.escape(key)}"?\s*=', stripped):
                return n
        return 1

    def fail(self, key: str, message: str, section: str = "") -> ContestError:
        shown = f"{section}.{key}" if section else key
        return ContestError(f"{self.path}:{self.line_of(key, section)}: {shown}: {message}")

    def unknown(self, data: dict[str, object], known: tuple[str, ...], section: str = "") -> None:
        for key in data:
            if key not in known:
                close = difflib.get_close_matches(key, known, n=1)
                hint = f"; did you mean {close[0]!r}?" if close else ""
                raise self.fail(
                    key, f"unknown key{hint} (known: {', '.join(known)})", section
                ) from None

    def text(self, data: dict[str, object], key: str, section: str = "") -> str | None:
        value = data.get(key)
        if value is None:
            return None
        if not isinstance(value, str) or not value.strip():
            raise self.fail(key, f"must be a non-empty string, not {value!r}", section)
        return value

    def rules(self, data: dict[str, object]) -> str | None:
        """The ruleset, checked here so that a mistake names this file and line (not the
        --rules it stands in for); a rules file is relative to this file, as `dice` is."""
        from validator.rulesets.expansions import RulesError
        from validator.rulesets.files import is_rules_file
        from validator.rulesets.names import resolve

        rules = self.text(data, "rules")
        if rules is None:
            return None
        try:
            resolve(rules, self.path.parent)
        except RulesError as exc:
            raise self.fail("rules", str(exc)) from None
        base, plus, rest = rules.strip().partition("+")
        if is_rules_file(base) and not Path(base).is_absolute():
            return f"{self.path.parent / base}{plus}{rest}"
        return rules

    def language(self, data: dict[str, object]) -> str | None:
        lang = self.text(data, "lang")
        if lang is not None and not i18n.is_language(lang):
            known = ", ".join(i18n.LANGUAGES)
            raise self.fail("lang", f"{lang!r} is not a language road300 speaks ({known})")
        return lang

    def contest(self, data: dict[str, object]) -> Contest:
        self.unknown(data, TOP_KEYS)

        def place(key: str, section: dict[str, object] = data, name: str = "") -> Path | None:
            text = self.text(section, key, name)
            return None if text is None else self.path.parent / text

        dice = place("dice")
        deadline = data.get("deadline")
        if deadline is not None:
            if not isinstance(deadline, datetime):
                kind = (
                    "a date without a time, or a time without a date: give"
                    if isinstance(deadline, date | time)
                    else "not"
                )
                raise self.fail(
                    "deadline",
                    f"{kind} a TOML datetime with offset, like 2026-12-20T23:59:59+01:00",
                )
            if deadline.tzinfo is None:
                raise self.fail(
                    "deadline", "needs its offset, like 2026-12-20T23:59:59+01:00 (or Z for UTC)"
                )
        organizer = self.address(data, "organizer")
        size = data.get("max_size")
        max_size = None
        if size is not None:
            try:
                if isinstance(size, bool) or not isinstance(size, int | str):
                    raise ValueError(f"{size!r} is not a size like 1048576, 512KiB or 4MiB")
                max_size = size if isinstance(size, int) and size > 0 else parse_size(str(size))
            except ValueError as exc:
                raise self.fail("max_size", str(exc)) from None
        draw = data.get("draw", {})
        if not isinstance(draw, dict):
            raise self.fail("draw", "must be a table: [draw] with winners and seed")
        self.unknown(draw, DRAW_KEYS, "draw")
        winners = self.number(draw, "winners", "draw", "a whole number of 1 or more", 1, math.inf)
        seed = draw.get("seed")
        if seed is not None and not isinstance(seed, str | int):
            raise self.fail("seed", f"must be text, not {seed!r}", "draw")
        mail = self.mail(data)
        public = self.address(data, "public_address")
        base_url = self.text(data, "base_url")
        if base_url is not None and not re.fullmatch(r"https?://[^\s<>\"]+", base_url):
            raise self.fail("base_url", f"{base_url!r} is not an address like https://example.org/")
        return Contest(
            path=self.path,
            name=self.text(data, "name"),
            dice=dice,
            rules=self.rules(data),
            deadline=deadline,
            organizer=organizer,
            lang=self.language(data),
            max_size=max_size,
            winners=winners,
            seed=None if seed is None else str(seed),
            state=place("state"),
            site=place("site"),
            replies=place("replies"),
            base_url=base_url,
            public_address=public,
            imap=self.server(mail, "imap"),
            smtp=self.server(mail, "smtp"),
            source=place("source", mail, "mail"),
            ca_file=self.ca_file(place("ca_file", mail, "mail")),
            poll=self.number(mail, "poll", "mail", "seconds from 10 to 86400", 10, 86400),
        )

    def address(self, data: dict[str, object], key: str) -> str | None:
        """An address of the organizers (`organizer_problem` says what one is)."""
        text = self.text(data, key)
        problem = None if text is None else organizer_problem(text)
        if problem is not None:
            raise self.fail(key, f"{text!r} {problem}")
        return text

    def number(
        self, data: dict[str, object], key: str, section: str, what: str, low: int, high: float
    ) -> int | None:
        """A whole number from `low` to `high`; `what` says what it must be."""
        value = data.get(key)
        if value is None or (type(value) is int and low <= value <= high):
            return value
        raise self.fail(key, f"must be {what}, not {value!r}", section)

    def mail(self, data: dict[str, object]) -> dict[str, object]:
        mail = data.get("mail", {})
        if not isinstance(mail, dict):
            raise self.fail("mail", "must be a table: [mail] with imap or source, and smtp")
        self.unknown(mail, MAIL_KEYS, "mail")
        if mail.get("imap") is not None and mail.get("source") is not None:
            raise self.fail("source", "give imap or source, not both", "mail")
        return mail

    def server(self, mail: dict[str, object], kind: Kind) -> MailURL | None:
        text = self.text(mail, kind, "mail")
        if text is None:
            return None
        try:
            return parse_mail_url(text, kind)
        except MailURLError as exc:
            raise self.fail(kind, str(exc), "mail") from None

    def ca_file(self, path: Path | None) -> Path | None:
        """`[mail] ca_file`, a file that is there (said at its line, not after a run)."""
        if path is not None and not path.is_file():
            missing = "is not a file" if path.exists() else "does not exist"
            raise self.fail("ca_file", f"{path} {missing}: a PEM file of certificates", "mail")
        return path


DEADLINE_EXAMPLE = "2026-12-20T23:59:59+01:00"
ORGANIZER_EXAMPLE = '"Winter challenge <challenge@organizers.example>"'
SEED_EXAMPLE = '"2026-12-21 lottery 17 23 42"'
UNSET_DEADLINE = f"# deadline = {DEADLINE_EXAMPLE}"
UNSET_ORGANIZER = f"# organizer = {ORGANIZER_EXAMPLE}"
"""The lines `road300 contest init` writes for a value it was not given: an example,
commented out, so that no made-up deadline or address is taken for the organizer's."""

TEMPLATE = """\
# The contest file of a Road to 300 challenge (docs/contest.md).
# road300 validate, report, batch, draw and solve read it when it is named with
# --contest FILE, or found as road300.toml beside the source or in the current folder.
# An option given on the command line always wins over a value here.

name = "{name}"

# The official dice file, relative to this file; its SHA-256 is shown on the results site.
dice = "{dice}"

# The ruleset: standard, bga or literal, with expansions (see `road300 rules`).
rules = "standard"

# Mails dated after this are late: checked and shown, but not ranked or drawn.
# A TOML datetime with its offset. Until it is set, no mail is late.
{deadline}

# The From: of the replies (`road300 batch --replies DIR` needs it).
{organizer}

# The language of the results site (en, de or fr), and of the replies whose record and
# mail body do not tell their own (docs/languages.md).
lang = "en"

# Records, and every part of a mail, larger than this are refused before they are read.
max_size = "1MiB"

# For `road300 contest run` (docs/contest.md, "Running a challenge from a mailbox"): its
# ledger, and where it writes the results site and the replies (relative to this file).
# state = "road300.db"
# site = "site"
# replies = "replies"
# base_url = "https://example.org/winter/"   # the site's public address, linked in replies
# public_address = "entries@organizers.example"   # shown on the site as where to send records

[draw]
# How many prizes `road300 draw` gives out.
winners = 3
# Any text, announced before the draw (a date, a lottery number): write it here once it is
# announced. Until then the site says it is still to come, and `road300 draw` asks for one.
# seed = {seed_example}

# Where `road300 contest run` fetches the entries and sends the replies. The passwords are
# never written here: ROAD300_IMAP_PASSWORD and ROAD300_SMTP_PASSWORD, or ~/.netrc.
# [mail]
# imap = "imaps://challenge@mail.example:993/INBOX"   # or source = "inbox.mbox"
# smtp = "smtps://challenge@mail.example:465"
# poll = 300                                          # seconds between runs with --watch
"""
