"""Every message's reply (slow: each attaches its entry's HTML report): it parses back with
the email package with exactly the listed headers, and says what the player needs to know."""

from __future__ import annotations

from email import policy
from email.parser import BytesParser
from pathlib import Path
from typing import Any

import pytest
from mail_helpers import HOSTILE_NAME, Mail, inbox, write_mbox
from test_mail import ARGS, ORGANIZER, run

pytestmark = [pytest.mark.slow]


@pytest.fixture(scope="module")
def mails() -> list[Mail]:
    return inbox()


@pytest.fixture(scope="module")
def mbox(mails: list[Mail], tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_mbox(mails, tmp_path_factory.mktemp("mbox") / "inbox.mbox")


REPLY_HEADERS = {
    "From",
    "To",
    "Subject",
    "Date",
    "Message-ID",
    "In-Reply-To",
    "References",
    "MIME-Version",
    "Content-Type",
}


@pytest.fixture(scope="module")
def replies(mbox: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("replies")
    result = run("batch", mbox, *ARGS, "--replies", folder, "--organizer", ORGANIZER, "-j", "1")
    assert result.exit_code == 0, result.output
    return folder


def _parse(path: Path) -> Any:
    return BytesParser(policy=policy.default).parsebytes(path.read_bytes())


def test_every_reply_parses_back_with_exactly_its_headers(mails: list[Mail], replies: Path) -> None:
    files = sorted(replies.glob("reply-*.eml"))
    assert len(files) == len(mails)
    for path, mail in zip(files, mails, strict=True):
        reply = _parse(path)
        assert set(reply.keys()) == REPLY_HEADERS, (path.name, reply.keys())
        assert len(reply.keys()) == len(REPLY_HEADERS)
        original = mail.message
        assert reply["To"].addresses[0].addr_spec == original["From"].addresses[0].addr_spec
        assert reply["From"].addresses[0].addr_spec == "challenge@organizers.example"
        assert reply["In-Reply-To"] == original["Message-ID"]
        assert reply["References"] == original["Message-ID"]
        assert reply["Subject"].startswith("Re: ")
        assert not path.read_bytes().count(b"\nBcc:")


def test_the_hostile_subject_adds_no_header(mails: list[Mail], replies: Path) -> None:
    n = next(i for i, m in enumerate(mails, start=1) if m.key == "hostile")
    reply = _parse(replies / f"reply-{n:04d}.eml")
    assert reply["Subject"] == "Re: hello Bcc: victim@example.org"
    assert reply["Bcc"] is None
    name = reply["To"].addresses[0].display_name
    assert "\x1b" not in name and "\u202e" not in name and "pwned" in name
    assert HOSTILE_NAME not in reply.get_body(("plain",)).get_content()


def _body(replies: Path, mails: list[Mail], key: str) -> tuple[str, Any]:
    n = next(i for i, m in enumerate(mails, start=1) if m.key == key)
    reply = _parse(replies / f"reply-{n:04d}.eml")
    return reply.get_body(("plain",)).get_content(), reply


def test_reply_bodies(mails: list[Mail], replies: Path) -> None:
    text, reply = _body(replies, mails, "alice-resubmission")
    assert "Your record is valid: 340 points." in text and "ranked 1 of" in text
    assert [p.get_filename() for p in reply.iter_attachments()] == ["report.html"]
    text, _ = _body(replies, mails, "alice-first")
    assert "superseded" in text and "ranked" not in text
    text, _ = _body(replies, mails, "late")
    assert "after the deadline" in text
    text, _ = _body(replies, mails, "illegal")
    assert "The first illegal step is on roll 4" in text and "E205" in text
    assert "Available cross-outs" in text
    text, _ = _body(replies, mails, "typo")
    assert "did you mean 'to'" in text and "of your message" in text
    text, reply = _body(replies, mails, "question")
    assert "We found no record in your message" in text
    assert list(reply.iter_attachments()) == []


def test_replies_mbox_holds_every_reply(replies: Path) -> None:
    import mailbox

    box = mailbox.mbox(replies / "replies.mbox", create=False)
    assert len(box) == len(list(replies.glob("reply-*.eml")))
    box.close()
