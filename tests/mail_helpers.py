"""A contest inbox written with the email package: every kind of mail an organizer gets,
and the same messages as an mbox file, a Maildir and a folder of .eml files."""

from __future__ import annotations

import copy
import functools
import mailbox
import random
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from email import policy
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path

from validator.engine import STANDARD
from validator.records import dump_record, read_record
from validator.records.dice import read_dice
from validator.solver.playout import random_game, to_record

ROOT = Path(__file__).resolve().parent.parent
DICE = ROOT / "examples" / "challenge.txt"
ALICE = ROOT / "examples" / "alice.txt"
ILLEGAL = ROOT / "examples" / "invalid" / "e205-move-unreachable.yaml"
TZ = timezone(timedelta(hours=1))
DEADLINE = datetime(2026, 12, 20, 23, 59, 59, tzinfo=TZ)
MAX_SIZE = 64 * 1024
HOSTILE_NAME = "Evil \x1b[2J\x1b]0;pwned\x07 \u202egnp.exe"
HOSTILE_SUBJECT = "=?utf-8?q?hello=0D=0ABcc=3A_victim=40example.org?="


@dataclass(frozen=True)
class Mail:
    key: str
    """What the message is, for the tests' expectations."""
    message: EmailMessage
    raw: bytes = b""
    """The message's bytes when they are not the message's own serialization."""

    @property
    def data(self) -> bytes:
        return self.raw or self.message.as_bytes()


@functools.cache
def game(seed: int, fmt: str, player: str | None) -> str:
    """A random legal game on the challenge dice, written in `fmt` (the same for the same
    arguments, so it is made once a process: a string, which no test can change)."""
    rows = read_dice(DICE).rows
    record = to_record(random_game(rows, STANDARD, random.Random(seed)), player=player or "")
    return dump_record(record, fmt)


@functools.cache
def alice(fmt: str, player: str = "Alice Example") -> str:
    record = read_record(ALICE)
    from dataclasses import replace

    return dump_record(replace(record, player=player, dice_file=None), fmt)


def _message(
    n: int, name: str, address: str, day: int, subject: str = "My Road to 300 game"
) -> EmailMessage:
    m = EmailMessage(policy=policy.default)
    m["From"] = Address(display_name=name, addr_spec=address) if name else address
    m["To"] = "challenge@organizers.example"
    m["Subject"] = subject
    m["Date"] = format_datetime(datetime(2026, 12, day, 9, n % 60, tzinfo=TZ))
    m["Message-ID"] = f"<msg{n}@players.example>"
    return m


def body_block(record_text: str) -> str:
    """The rows of an annotated record without its comment line."""
    return "\n".join(line for line in record_text.splitlines() if not line.startswith("#"))


def inbox(*keys: str) -> list[Mail]:
    """Every kind of mail (or those of `keys`, in the inbox's order), as new messages of
    the caller's own (a test may change them): deep copies of the mails made once a
    process, as far into the inbox as the keys asked for (copying costs a tenth of
    making them again)."""
    wanted = set(keys)
    while not wanted or not wanted <= {m.key for m in _MADE}:
        mail = next(_MAKING, None)
        if mail is None:
            break
        _MADE.append(mail)
    # A mail that failed to be made ends the generator early: never a shorter inbox.
    assert wanted or _MADE_ALL, "the inbox was not made whole"
    unknown = wanted - {m.key for m in _MADE}
    assert not unknown, unknown
    return copy.deepcopy([m for m in _MADE if not wanted or m.key in wanted])


def _making() -> Iterator[Mail]:
    """The inbox's mails in order, each made when it is asked for."""
    # 1 English body between a greeting and a signature
    m = _message(1, "Alice Example", "alice@players.example", 3)
    m.set_content(
        "Hi organizers,\n\nhere is my game, 340 points I think!\n\n"
        + body_block(alice("text"))
        + "\n\nThanks a lot,\nAlice\n-- \nAlice Example\nalice@players.example\n"
    )
    yield Mail("alice-first", m)
    # 2 German body, quoted-printable latin-1, a header line Spieler:
    m = _message(2, "Bernd Müller", "bernd@players.example", 4, "Mein Spiel")
    block = body_block(game(2, "text", None))
    m.set_content(
        "Hallo zusammen,\n\nhier mein Spiel:\n\nSpieler: Bernd Müller\n"
        + block
        + "\n\nViele Grüße\nBernd\n-- \nBernd Müller, Heidelberg\n",
        charset="iso-8859-1",
        cte="quoted-printable",
    )
    yield Mail("german-qp", m)
    # 3 French body, base64, with a total line
    m = _message(3, "Chloé Durand", "chloe@players.example", 5, "Ma partie")
    text = game(3, "text", "Chloé Durand")
    score = read_record_score(text)
    m.set_content(
        "Bonjour,\n\nvoici ma partie :\n\n"
        + body_block(text)
        + f"\nTotal: {score}\n\nCordialement,\nChloé\n-- \nChloé Durand\n",
        cte="base64",
    )
    yield Mail("french-b64", m)
    # 4-7 attachments in every record format
    for n, (fmt, ext, name) in enumerate(
        [
            ("yaml", "yaml", "Dora"),
            ("json", "json", "Emil"),
            ("csv", "csv", "Fay"),
            ("text", "txt", "Gus"),
        ],
        start=4,
    ):
        m = _message(n, name, f"{name.lower()}@players.example", 6)
        m.set_content("Hello, my record is attached.\n")
        m.add_attachment(
            game(n, fmt, name).encode(), "application", "octet-stream", filename=f"game.{ext}"
        )
        yield Mail(f"attach-{fmt}", m)
    # 8 an attachment whose name says nothing, recognised by content
    m = _message(8, "Hana", "hana@players.example", 6)
    m.set_content("See attachment.\n")
    m.add_attachment(
        game(8, "yaml", "Hana").encode(), "application", "octet-stream", filename="record"
    )
    yield Mail("attach-sniffed", m)
    # 9 HTML only
    m = _message(9, "Ivo", "ivo@players.example", 7)
    rows = body_block(game(9, "text", "Ivo")).splitlines()
    m.set_content(
        "<html><head><style>p{color:red}</style><script>alert(1)</script></head><body>"
        "<p>Hello!</p><p>My game:</p><div>"
        + "<br>".join(rows)
        + '</div><p>Bye <img src="http://tracker.example/x.png"></p></body></html>',
        subtype="html",
    )
    yield Mail("html-only", m)
    # 10 multipart/alternative: read once, from its plain part
    m = _message(10, "Jan", "jan@players.example", 7)
    text = body_block(game(10, "text", "Jan"))
    m.set_content("Hi,\n\n" + text + "\n\nJan\n")
    m.add_alternative("<p>Hi,</p><pre>" + text + "</pre><p>Jan</p>", subtype="html")
    yield Mail("alternative", m)
    # 11 a reply quoting an older record
    m = _message(11, "Kim", "kim@players.example", 8, "Re: My Road to 300 game")
    old = body_block(game(110, "text", "Kim"))
    m.set_content(
        "Here is my real game:\n\n"
        + body_block(game(11, "text", "Kim"))
        + "\n\nOn Mon, 7 Dec 2026 at 10:00, Kim <kim@players.example> wrote:\n"
        + "\n".join("> " + line for line in old.splitlines())
        + "\n"
    )
    yield Mail("quoting", m)
    # 12 two records in one mail
    m = _message(12, "Leo", "leo@players.example", 8)
    m.set_content("Two games, pick the better one!\n")
    m.add_attachment(game(12, "yaml", "Leo").encode(), "text", "plain", filename="first.yaml")
    m.add_attachment(game(120, "text", "Leo").encode(), "text", "plain", filename="second.txt")
    yield Mail("two-records", m)
    # 13 a question without a record
    m = _message(13, "Mia", "mia@players.example", 9, "Question")
    m.set_content("Hello, do forced rerolls count as rounds? Thanks, Mia\n")
    yield Mail("question", m)
    # 14 Alice's resubmission, before the deadline
    m = _message(14, "Alice Example", "Alice@Players.example", 10, "Corrected game")
    m.add_attachment(alice("yaml").encode(), "application", "octet-stream", filename="alice.yaml")
    yield Mail("alice-resubmission", m)
    # 15 a late mail
    m = _message(15, "Nora", "nora@players.example", 21)
    m.set_content("Sorry I am late:\n\n" + body_block(game(15, "text", "Nora")) + "\n")
    yield Mail("late", m)
    # 16 a copy of Alice's game under another name
    m = _message(16, "Oscar", "oscar@players.example", 11)
    m.add_attachment(alice("json", "Oscar").encode(), "application", "json", filename="oscar.json")
    yield Mail("copy", m)
    # 17 a hostile display name and subject
    m = EmailMessage(policy=policy.default)
    m["From"] = Address(display_name=HOSTILE_NAME, addr_spec="evil@players.example")
    m["To"] = "challenge@organizers.example"
    m["Date"] = format_datetime(datetime(2026, 12, 12, 9, 0, tzinfo=TZ))
    m["Message-ID"] = "<msg17@players.example>"
    m.set_content(body_block(game(17, "text", None)) + "\n")
    del m["Subject"]
    # The hostile subject goes in raw (the email package would write the header it hides).
    raw = m.as_bytes().replace(
        b"\nMessage-ID:", b"\nSubject: " + HOSTILE_SUBJECT.encode() + b"\nMessage-ID:", 1
    )
    yield Mail("hostile", m, raw)
    # 18 an attachment named ../../x.yaml
    m = _message(18, "Pat", "pat@players.example", 12)
    m.add_attachment(
        game(18, "yaml", "Pat").encode(), "application", "octet-stream", filename="../../x.yaml"
    )
    yield Mail("traversal", m)
    # 19 an oversized part
    m = _message(19, "Quin", "quin@players.example", 12)
    m.set_content("Big one.\n")
    big = game(19, "yaml", "Quin") + "# padding\n" * (MAX_SIZE // 8)
    m.add_attachment(big.encode(), "application", "octet-stream", filename="big.yaml")
    yield Mail("oversized", m)
    # 20 a zip, never opened
    m = _message(20, "Rosa", "rosa@players.example", 13)
    m.set_content("My game is in the zip.\n")
    m.add_attachment(b"PK\x03\x04" + b"\0" * 100, "application", "zip", filename="game.zip")
    yield Mail("zip", m)
    # 21 a typo in a body record: an error at its line, with did-you-mean
    m = _message(21, "Sam", "sam@players.example", 13)
    lines = body_block(game(21, "text", "Sam")).splitlines()
    bad = next(i for i, line in enumerate(lines) if "->" in line)
    lines[bad] = lines[bad].replace("->", "ot", 1)
    m.set_content("Hi!\n\n" + "\n".join(lines) + "\n\nSam\n")
    yield Mail("typo", m)
    # 22 an illegal step, attached
    m = _message(22, "Tom", "tom@players.example", 14)
    m.add_attachment(ILLEGAL.read_bytes(), "application", "octet-stream", filename="tom.yaml")
    yield Mail("illegal", m)
    _MADE_ALL.append(True)


_MAKING = _making()
_MADE: list[Mail] = []
_MADE_ALL: list[bool] = []
"""Not empty once the generator has made its last mail."""


def read_record_score(text: str) -> int:
    from validator.check.replay import replay
    from validator.records import parse_record

    record = parse_record(text, "text", source="x.txt")
    result = replay(read_dice(DICE).rows, record, STANDARD)
    assert result.score is not None
    return result.score


def write_mbox(mails: list[Mail], path: Path) -> Path:
    box = mailbox.mbox(path, create=True)
    for mail in mails:
        box.add(mail.data)
    box.flush()
    box.close()
    return path


def write_maildir(mails: list[Mail], path: Path) -> Path:
    box = mailbox.Maildir(path, create=True)
    for n, mail in enumerate(mails, start=1):
        # Maildir keys sort by name: give them the mailbox's order.
        key = box.add(mail.data)
        name = f"{n:05d}.road300"
        (path / "new" / key).rename(path / "new" / name)
    return path


def write_eml(mails: list[Mail], path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    for n, mail in enumerate(mails, start=1):
        (path / f"{n:03d}-{mail.key}.eml").write_bytes(mail.data)
    return path
