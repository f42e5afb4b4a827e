"""A challenge run end to end from a real mailbox: `road300 contest run` against a real
Dovecot (tests/dovecot.py) and the aiosmtpd server of the plain tests
(tests/contest_helpers.py), both on loopback with their own certificates. Mail arrives in
stages by IMAP APPEND; after each stage the run answers the new mail, and however the
runs go (a refused recipient, a dropped connection, a run killed while sending, two runs at
once, the folder made again with a new UIDVALIDITY), every message is answered exactly
once."""

from __future__ import annotations

import json
import signal
import socket
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from conftest import CliRun, run_in_process
from contest_helpers import SMTP_PASSWORD, SMTP_USER, SmtpServer, senders, started, with_wait
from dovecot import Dovecot
from mail_helpers import DICE, Mail, inbox

pytestmark = pytest.mark.slow

ORGANIZER = "Winter challenge <challenge@organizers.example>"
FOLDER = "Winter entries"


@pytest.fixture
def smtp(smtp_server: SmtpServer) -> SmtpServer:
    smtp_server.reset()
    return smtp_server


@pytest.fixture
def challenge(
    tmp_path: Path, dovecot: Dovecot, smtp: SmtpServer, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """A challenge folder whose contest file fetches from Dovecot's FOLDER (IMAPS) and
    sends through the SMTP server (STARTTLS), trusting both certificates (one ca_file);
    the passwords in the environment only."""
    with dovecot.client() as imap:
        imap.delete(f'"{FOLDER}"')  # a folder of this test's own
        assert imap.create(f'"{FOLDER}"')[0] == "OK"
    (tmp_path / "dice.txt").write_bytes(DICE.read_bytes())
    (tmp_path / "ca.pem").write_bytes(dovecot.cert.read_bytes() + smtp.cert.read_bytes())
    (tmp_path / "road300.toml").write_text(
        'name = "Winter"\ndice = "dice.txt"\n'
        f'organizer = "{ORGANIZER}"\n'
        "deadline = 2026-12-20T23:59:59+01:00\n"
        "[mail]\n"
        f'imap = "{dovecot.address(FOLDER)}"\n'
        f'smtp = "smtp://{SMTP_USER}@127.0.0.1:{smtp.port}"\n'
        'ca_file = "ca.pem"\n',
        encoding="utf-8",
    )
    monkeypatch.setenv("HOME", str(tmp_path / "home"))  # no ~/.netrc
    monkeypatch.setenv("ROAD300_IMAP_PASSWORD", dovecot.password)
    monkeypatch.setenv("ROAD300_SMTP_PASSWORD", SMTP_PASSWORD)
    return tmp_path


def mails(*keys: str) -> list[Mail]:
    made = inbox(*keys)
    for mail in made:
        mail.message.as_bytes()  # a multipart message's boundary is fixed from here on
    return made


class Runs:
    """`road300 contest ...` in the challenge folder, every output kept (to look for the
    passwords in)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.said: list[str] = []

    def __call__(self, *args: str) -> CliRun:
        run = run_in_process(["contest", *args], self.folder)
        self.said += [run.stdout, run.stderr]
        assert "Traceback" not in run.stderr, run.stderr
        return run

    def ok(self, *args: str) -> str:
        run = self(*args)
        assert run.status == 0, run.stderr
        return run.stderr

    def status(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(self.ok_out("status", "--format", "json"))
        return data

    def ok_out(self, *args: str) -> str:
        run = self(*args)
        assert run.status == 0, run.stderr
        return run.stdout


def answered(smtp: SmtpServer) -> Counter[str]:
    """How many replies the SMTP server took to each message (by In-Reply-To)."""
    return Counter(smtp.headers("In-Reply-To"))


def ids(batch: list[Mail]) -> list[str]:
    return [str(m.message["Message-ID"]) for m in batch]


def test_a_challenge_from_a_real_mailbox_answers_every_message_exactly_once(
    challenge: Path, dovecot: Dovecot, smtp: SmtpServer
) -> None:
    road300 = Runs(challenge)
    first = mails("alice-first", "german-qp", "attach-yaml")
    second = mails("question", "typo", "illegal")
    third = mails("french-b64", "attach-sniffed", "html-only")
    fourth = mails("alice-resubmission", "late")

    # 1. A dry run: replies written, nothing sent.
    dovecot.deliver(FOLDER, *(m.data for m in first))
    said = road300.ok("run")
    assert "fetched 3 new, checked 3, 3 new replies, 3 not sent (a dry run" in said
    assert sorted(p.name for p in (challenge / "replies").glob("reply-*.eml")) == [
        "reply-0001.eml",
        "reply-0002.eml",
        "reply-0003.eml",
    ]
    assert smtp.received == []

    # 2. --send sends them, over STARTTLS with AUTH; nothing new is fetched.
    said = road300.ok("run", "--send")
    assert "fetched 0 new, checked 0, 0 new replies, sent 3, failed 0, 0 not sent" in said
    assert smtp.logins == [SMTP_USER]
    assert answered(smtp) == Counter(ids(first))

    # 3. New mail; the server refuses one recipient for good and drops the connection
    # at the next: the refused reply fails, the dropped one and the rest wait.
    dovecot.deliver(FOLDER, *(m.data for m in second))
    mia, sam, tom = senders(second)
    smtp.refuse.add(mia)
    smtp.drop.add(sam)
    said = road300.ok("run", "--send")
    assert "fetched 3 new, checked 3, 3 new replies, sent 0, failed 1, 2 not sent" in said
    label = f"imaps://organizer@127.0.0.1:{dovecot.imaps_port}/{FOLDER}"
    assert f"the reply to {label}#4 was refused for good: 550 5.1.1 <{mia}>" in said
    said = road300.ok("run", "--send")  # mia's is not tried again
    assert "fetched 0 new, checked 0, 0 new replies, sent 2, failed 0, 0 not sent" in said
    assert [to for to, _ in smtp.received][-2:] == [sam, tom]
    assert answered(smtp) == Counter(ids(first) + ids(second)[1:])

    # 4. A run killed (SIGKILL) while the server holds the second reply of the new mail;
    # meanwhile a second run waits for the ledger, then stops naming the first.
    dovecot.deliver(FOLDER, *(m.data for m in third))
    held = senders(third)[1]
    smtp.hold.add(held)
    with started(challenge, "run", "--send") as proc:
        assert smtp.holding.wait(120), proc.stderr.read() if proc.stderr else ""
        busy = with_wait(0.2, lambda: road300("run", "--send"))
        assert busy.status == 2
        assert f"process {proc.pid} on {socket.gethostname()}" in busy.stderr
        proc.send_signal(signal.SIGKILL)
        proc.wait(30)
    smtp.hold.clear()
    smtp.release()  # the server drops the message whose client went away mid-DATA
    assert answered(smtp)[ids(third)[0]] == 1 and answered(smtp)[ids(third)[1]] == 0
    said = road300.ok("run", "--send")
    assert "fetched 0 new, checked 0, 0 new replies, sent 2, failed 0, 0 not sent" in said
    assert answered(smtp) == Counter(ids(first) + ids(second)[1:] + ids(third))

    # 5. The folder is made again (a new UIDVALIDITY) and holds the same mail, as a
    # restored server would, and two new messages: only those two are answered.
    validity = dovecot.uidvalidity(FOLDER)
    dovecot.recreate(FOLDER)
    assert dovecot.uidvalidity(FOLDER) != validity
    dovecot.deliver(FOLDER, *(m.data for m in first + second + third + fourth))
    said = road300.ok("run", "--send")
    assert "fetched 2 new, checked 2, 2 new replies, sent 2, failed 0, 0 not sent" in said
    said = road300.ok("run", "--send")
    assert "fetched 0 new, checked 0, 0 new replies, sent 0, failed 0, 0 not sent" in said

    # Every message answered exactly once but the refused one; each reply to its sender.
    everyone = first + second + third + fourth
    assert answered(smtp) == Counter(m for m in ids(everyone) if m != ids(second)[0])
    assert len(set(smtp.message_ids())) == len(smtp.received) == len(everyone) - 1
    by_reply = dict(zip(smtp.headers("In-Reply-To"), (to for to, _ in smtp.received), strict=True))
    for mail, sender in zip(everyone, senders(everyone), strict=True):
        if mail is not second[0]:
            assert by_reply[str(mail.message["Message-ID"])] == sender

    data = road300.status()
    assert data == {
        "messages": 11,
        "entries": 10,
        "skipped": 1,
        "verdicts": {"valid": 8, "invalid": 1, "incomplete": 0, "malformed": 1},
        "late": 1,
        "superseded": 1,
        "replies": {"written": 11, "sent": 10, "failed": 1, "unsent": 0},
        "last_fetch": data["last_fetch"],
    }
    assert isinstance(data["last_fetch"], str) and data["last_fetch"].startswith("20")
    assert f"failed: {label}#4: 550 5.1.1" in road300.ok_out("status")

    # The passwords are in no output and nowhere in the ledger's files.
    stored = b"".join(p.read_bytes() for p in challenge.glob("road300.db*"))
    for secret in (dovecot.password, SMTP_PASSWORD):
        assert secret.encode() not in stored
        assert not any(secret in text for text in road300.said)
    assert all(SMTP_PASSWORD.encode() not in data for _, data in smtp.received)


def test_a_mail_server_that_cannot_be_used_is_one_line_and_exit_2(
    challenge: Path, dovecot: Dovecot, monkeypatch: pytest.MonkeyPatch
) -> None:
    road300 = Runs(challenge)
    dovecot.deliver(FOLDER, mails("alice-first")[0].data)
    toml = challenge / "road300.toml"
    file = str(toml.resolve())

    monkeypatch.setenv("ROAD300_IMAP_PASSWORD", "wrong " + dovecot.password)
    run = road300("run", "--send")
    assert run.status == 2 and run.stdout == ""
    (line,) = run.stderr.splitlines()
    assert line.startswith(f"road300: error: {file}: [mail] imap: 127.0.0.1:")
    assert "the login as organizer failed" in line
    assert not (challenge / "site").exists() and not (challenge / "replies").exists()

    monkeypatch.setenv("ROAD300_IMAP_PASSWORD", dovecot.password)
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    toml.write_text(toml.read_text().replace(f":{dovecot.imaps_port}/", f":{port}/"))
    run = road300("run")
    assert run.status == 2
    assert run.stderr == (
        f"road300: error: {file}: [mail] imap: 127.0.0.1:{port}: cannot connect: "
        "Connection refused\n"
    )
    for text in road300.said:
        assert dovecot.password not in text

    # --watch is not stopped by it: the run goes on, and the next one tries again.
    with started(challenge, "run", "--watch") as proc:
        assert proc.stderr is not None
        lines: list[str] = []
        while not lines or not lines[-1].startswith("road300: fetched "):
            line = proc.stderr.readline()
            assert line, "".join(lines)
            lines.append(line)
        assert lines[0] == (
            f"road300: {file}: [mail] imap: fetching stopped: 127.0.0.1:{port}: cannot "
            "connect: Connection refused; the rest is fetched by the next run\n"
        )
        assert "fetched 0 new, checked 0, 0 new replies, 0 not sent" in lines[-1]
        assert proc.poll() is None  # waiting for the next round
        proc.send_signal(signal.SIGINT)
        rest = proc.stderr.read()
        assert proc.wait(30) == 0, rest
    assert dovecot.password not in "".join(lines) + rest
