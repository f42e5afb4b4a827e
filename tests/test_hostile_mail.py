"""Issue 35: hostile and odd mail, round three. A test per finding, each with messages the
test writes as bytes: 8-bit headers, From headers that name two addresses or are cut, HTML
and MIME that cost more than linear time, mailboxes with forged or giant messages,
bounces, and output folders interrupted, shared by two runs, or holding planted links."""

from __future__ import annotations

import json
import mailbox
import os
import signal
import subprocess
import time
from email import policy
from email.parser import BytesParser
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import CHALLENGE, EXAMPLES, ROOT, _env, cli_command

from validator.cli import main

ALICE = (EXAMPLES / "alice.txt").read_bytes()
"""A valid record (340 points on the challenge dice), typed into a body."""
ORGANIZER = "Winter Challenge <challenge@organizers.example>"
ARGS = ("--dice", CHALLENGE, "--jobs", "1")


def message(
    sender: bytes,
    body: bytes = ALICE,
    *,
    extra: bytes = b"",
    n: int = 1,
    ctype: bytes = b"text/plain; charset=utf-8",
    date: bytes = b"Mon, 7 Dec 2026 10:00:00 +0100",
) -> bytes:
    """A message as raw bytes: `sender` as its From, whatever bytes it holds."""
    return (
        b"From: " + sender + b"\nTo: challenge@organizers.example\nSubject: my game\n"
        b"Message-ID: <m" + str(n).encode() + b"@players.example>\nDate: " + date + b"\n"
        + extra + b"MIME-Version: 1.0\nContent-Type: " + ctype + b"\n\n" + body
    )  # fmt: skip


def write_box(path: Path, *messages: bytes) -> Path:
    box = mailbox.mbox(path)
    for data in messages:
        box.add(data)
    box.close()
    return path


def run(*args: object) -> Any:
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def results(source: Path, *more: object) -> dict[str, Any]:
    result = run("batch", source, *ARGS, "--format", "json", *more)
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def reply_to(path: Path) -> list[str]:
    reply = BytesParser(policy=policy.default).parsebytes(path.read_bytes())
    return [a.addr_spec for a in reply["To"].addresses]


# -- 1. An 8-bit display name ------------------------------------------------------------


def test_an_8bit_display_name_is_decoded_and_stops_nothing(tmp_path: Path) -> None:
    """Raw UTF-8 and Latin-1 bytes in a From (common in real mail) ended `--replies` in a
    traceback, with no results, site or replies.mbox; without it the JSON held lone
    surrogates. Each is decoded (UTF-8, else Latin-1) and every entry is answered."""
    box = write_box(
        tmp_path / "inbox.mbox",
        message(b'"J\xc3\xbcrgen" <j@players.example>', n=1),
        message(b"Fran\xe7oise <f@players.example>", n=2),
        message(b"Subject-less <s@players.example>", extra=b"X-Note: caf\xc3\xa9\n", n=3),
    )
    site, replies = tmp_path / "site", tmp_path / "replies"
    data = results(box, "--site", site, "--replies", replies, "--organizer", ORGANIZER)
    names = [e["source"]["name"] for e in data["entries"]]
    assert names == ["Jürgen", "Françoise", "Subject-less"]
    assert [e["player"] for e in data["entries"]][:2] == ["Alice Example"] * 2
    assert all(e["verdict"] == "valid" for e in data["entries"])
    assert len(mailbox.mbox(replies / "replies.mbox")) == 3
    reply = BytesParser(policy=policy.default).parsebytes((replies / "reply-0001.eml").read_bytes())
    assert reply["To"].addresses[0].display_name == "Jürgen"
    assert "Jürgen" in reply.get_body().get_content()  # type: ignore[union-attr]
    assert (site / "index.html").is_file()


# -- 2. and 3. The sender's address ------------------------------------------------------


def test_the_address_is_read_from_the_whole_from_header(tmp_path: Path) -> None:
    """From was cut at 2,000 characters before it was parsed: a long display name ended
    the cut inside `<bob@victim.example.attacker.example>`, the reply went to Bob and
    the message superseded Bob's real entry."""
    name = b"B" * (1_999 - len("From: ") - 2)
    forged = name + b" <bob@victim.example.attacker.example>"
    box = write_box(
        tmp_path / "inbox.mbox",
        message(b"Bob <bob@victim.example>", n=1, date=b"Mon, 7 Dec 2026 10:00:00 +0100"),
        message(forged, n=2, date=b"Tue, 8 Dec 2026 10:00:00 +0100"),
    )
    replies = tmp_path / "replies"
    data = results(box, "--replies", replies, "--organizer", ORGANIZER)
    bob, other = data["entries"]
    assert other["source"]["from"] == "bob@victim.example.attacker.example"
    assert bob["source"]["from"] == "bob@victim.example" and not bob["superseded"]
    assert reply_to(replies / "reply-0002.eml") == ["bob@victim.example.attacker.example"]


def test_a_from_too_long_to_trust_names_no_sender(tmp_path: Path) -> None:
    """A From longer than MAX_FROM_CHARS is refused, never cut: no address, no reply, and
    it supersedes no one."""
    from validator.contest.mail import MAX_FROM_CHARS

    forged = b"B" * MAX_FROM_CHARS + b" <bob@victim.example>"
    box = write_box(
        tmp_path / "inbox.mbox",
        message(b"Bob <bob@victim.example>", n=1),
        message(forged, n=2, date=b"Tue, 8 Dec 2026 10:00:00 +0100"),
    )
    replies = tmp_path / "replies"
    result = run("batch", box, *ARGS, "--replies", replies, "--organizer", ORGANIZER)
    assert result.exit_code == 0, result.output
    assert "no reply to inbox.mbox#2: no address to reply to" in result.output
    assert [reply_to(p) for p in sorted(replies.glob("reply-*.eml"))] == [["bob@victim.example"]]


@pytest.mark.parametrize(
    ("sender", "address", "name"),
    [
        (b"bob@victim.example <eve@evil.example>", "eve@evil.example", "bob@victim.example"),
        (b"bob@victim.example<eve@evil.example>", "eve@evil.example", "bob@victim.example"),
        (b"bob@victim.example (Bob) <eve@evil.example>", "eve@evil.example", None),
        (b"Eve <eve@evil.example>, bob@victim.example", None, None),
        (b"Bob <bob@victim.example> <eve@evil.example>", None, None),
        (b'"bob@victim.example" <eve@evil.example>', "eve@evil.example", "bob@victim.example"),
    ],
    ids=["name-like-address", "no-space", "comment", "two-mailboxes", "two-angles", "quoted"],
)
def test_the_sender_is_the_address_in_angle_brackets(
    sender: bytes, address: str | None, name: str | None, tmp_path: Path
) -> None:
    """A display name that looks like an address is a name: the reply goes to the address
    in angle brackets, or to nobody when the header names two senders."""
    box = write_box(tmp_path / "inbox.mbox", message(sender))
    replies = tmp_path / "replies"
    (entry,) = results(box, "--replies", replies, "--organizer", ORGANIZER)["entries"]
    assert entry["source"]["from"] == address
    if name is not None:
        assert entry["source"]["name"] == name
    sent = [reply_to(p) for p in sorted(replies.glob("reply-*.eml"))]
    assert sent == ([[address]] if address else [])
