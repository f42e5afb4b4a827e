"""`road300 contest run`, `status`, `export` and `recheck` against real parts: an SQLite
ledger on disk, a local mbox delivered in stages, and an SMTP server (aiosmtpd) on
loopback with STARTTLS and AUTH (tests/contest_helpers.py), which refuses one recipient
for good, defers one, drops a connection, and holds a message while the run is killed."""

from __future__ import annotations

import html
import json
import mailbox
import os
import shutil
import signal
import socket
import sqlite3
import stat
import sys
import time
from collections.abc import Iterator
from email import policy
from email.parser import BytesParser
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from conftest import CliRun, run_in_process
from contest_helpers import SMTP_PASSWORD as PASSWORD
from contest_helpers import SMTP_USER as USER
from contest_helpers import SmtpServer as Server
from contest_helpers import senders, started, with_wait
from mail_helpers import DICE, Mail, inbox, write_eml, write_maildir

ROOT = Path(__file__).resolve().parent.parent
ORGANIZER = "Winter challenge <challenge@organizers.example>"

pytest.importorskip("aiosmtpd")
if shutil.which("openssl") is None:  # pragma: no cover - the CI image has it
    pytest.skip("the openssl command makes the test certificate", allow_module_level=True)


@pytest.fixture
def server(smtp_server: Server) -> Server:
    smtp_server.reset()
    return smtp_server


# -- A challenge ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def mails() -> list[Mail]:
    """Mail whose bytes stay the same (a multipart one gets its boundary when written)."""
    made = inbox("alice-first", "german-qp", "attach-yaml", "question", "typo", "illegal")
    for mail in made:
        mail.message.as_bytes()  # the boundaries are fixed from here on
    return made


def contest(tmp_path: Path, server: Server | None = None, *, ca: bool = True) -> Path:
    """A challenge folder: its dice, an empty mbox and the contest file."""
    shutil.copy(DICE, tmp_path / "dice.txt")
    (tmp_path / "inbox.mbox").write_bytes(b"")
    smtp = ""
    if server is not None:
        smtp = f'smtp = "smtp://{USER}@127.0.0.1:{server.port}"\n'
        if ca:
            shutil.copy(server.cert, tmp_path / "ca.pem")
            smtp += 'ca_file = "ca.pem"\n'
    (tmp_path / "road300.toml").write_text(
        'name = "Winter"\ndice = "dice.txt"\n'
        f'organizer = "{ORGANIZER}"\n'
        "deadline = 2026-12-20T23:59:59+01:00\n"
        f'[mail]\nsource = "inbox.mbox"\n{smtp}',
        encoding="utf-8",
    )
    return tmp_path


def deliver(folder: Path, *mails: Mail) -> None:
    """Append messages to the challenge's mbox, as a mail server delivers them."""
    box = mailbox.mbox(folder / "inbox.mbox")
    box.lock()
    try:
        for mail in mails:
            box.add(mail.data)
        box.flush()
    finally:
        box.unlock()
        box.close()


def road300(folder: Path, *args: str) -> CliRun:
    return run_in_process(["contest", *args], folder)


def watched(monkeypatch: pytest.MonkeyPatch, folder: Path, *args: str) -> CliRun:
    """`road300 contest run --watch ARGS` in this process for two rounds: Ctrl-C comes
    while it waits after the second (test_watch_runs_until_ctrl_c sends a real one to a
    process of its own)."""
    from validator.contest.config import DEFAULT_POLL

    real = time.sleep
    waits: list[float] = []

    def sleep(seconds: float) -> None:
        if seconds != DEFAULT_POLL:  # not the wait between rounds
            return real(seconds)
        waits.append(seconds)
        if len(waits) == 2:
            raise KeyboardInterrupt
        return None

    monkeypatch.setattr(time, "sleep", sleep)
    run = road300(folder, "run", "--watch", *args)
    monkeypatch.setattr(time, "sleep", real)
    assert len(waits) == 2, run.stderr
    return run


def status(folder: Path) -> dict[str, Any]:
    run = road300(folder, "status", "--format", "json")
    assert run.status == 0, run.stderr
    data: dict[str, Any] = json.loads(run.stdout)
    return data


@pytest.fixture(autouse=True)
def _no_netrc(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No netrc, the SMTP password in the environment, and no system CA: the test server
    is trusted through ca_file alone (or not at all), and each TLS context skips reading
    the system's CA bundle (20 ms of CPU a context)."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("ROAD300_SMTP_PASSWORD", PASSWORD)
    monkeypatch.setenv("SSL_CERT_FILE", os.devnull)
    monkeypatch.setenv("SSL_CERT_DIR", str(tmp_path / "no-certificates"))


# -- Tests ------------------------------------------------------------------------------------


def test_a_dry_run_then_mail_in_stages_answers_each_message_once(
    tmp_path: Path, mails: list[Mail]
) -> None:
    folder = contest(tmp_path)
    toml = folder / "road300.toml"
    toml.write_text('base_url = "https://example.org/winter/"\n' + toml.read_text())
    deliver(folder, *mails[:3])
    first = road300(folder, "run")
    assert first.status == 0, first.stderr
    assert "fetched 3 new, checked 3, 3 new replies, 3 not sent (a dry run" in first.stderr
    ledger = folder / "road300.db"
    assert stat.S_IMODE(ledger.stat().st_mode) == 0o600
    db = sqlite3.connect(ledger)
    assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    assert db.execute("PRAGMA user_version").fetchone() == (1,)
    db.close()
    ids = {p.name: _header(p, "Message-ID") for p in (folder / "replies").glob("reply-*.eml")}
    assert sorted(ids) == ["reply-0001.eml", "reply-0002.eml", "reply-0003.eml"]

    again = road300(folder, "run")  # nothing new: nothing checked, no reply made again
    assert "fetched 0 new, checked 0, 0 new replies, 3 not sent" in again.stderr
    deliver(folder, *mails[3:])
    third = road300(folder, "run")
    assert "fetched 3 new, checked 3, 3 new replies, 6 not sent" in third.stderr
    after = {p.name: _header(p, "Message-ID") for p in (folder / "replies").glob("reply-*.eml")}
    assert len(after) == 6 and all(after[name] == mid for name, mid in ids.items())
    assert len(set(after.values())) == 6
    # Each reply goes to its sender, and answers its message.
    for n, mail in enumerate(mails, start=1):
        reply = (folder / "replies" / f"reply-{n:04d}.eml").read_bytes()
        parsed = BytesParser(policy=policy.default).parsebytes(reply)
        assert [a.addr_spec for a in parsed["To"].addresses] == [
            mail.message["From"].addresses[0].addr_spec
        ]
        assert parsed["In-Reply-To"] == mail.message["Message-ID"]
        body = parsed.get_body(preferencelist=("plain",))
        assert body is not None and "https://example.org/winter/" in body.get_content()
    assert (folder / "site" / "index.html").is_file()
    assert len(list((folder / "site" / "entries").glob("*.html"))) == 5  # the question: none

    data = status(folder)
    assert data == {
        "messages": 6,
        "entries": 5,
        "skipped": 1,
        "verdicts": {"valid": 3, "invalid": 1, "incomplete": 0, "malformed": 1},
        "late": 0,
        "superseded": 0,
        "replies": {"written": 6, "sent": 0, "failed": 0, "unsent": 6},
        "last_fetch": data["last_fetch"],
    }
    assert data["last_fetch"].startswith("20")
    text = road300(folder, "status")
    assert "Replies: 6 written, 0 sent, 0 failed, 6 not sent" in text.stdout


def test_the_results_site_shows_public_address_alone(tmp_path: Path, mails: list[Mail]) -> None:
    """public_address is the one address on the site ("the address to send to", and
    play.html's mail link); the organizer's and the senders' stay off it."""
    folder = contest(tmp_path)
    toml = folder / "road300.toml"
    public = 'public_address = "Entries <entries@organizers.example>"\n'
    text = public + toml.read_text().replace("2026-12-20", "2999-12-20")  # still to come
    toml.write_text(text, encoding="utf-8")
    deliver(folder, *mails[:3])
    run = road300(folder, "run")
    assert run.status == 0, run.stderr
    index = (folder / "site" / "index.html").read_text(encoding="utf-8")
    assert "<p>Send your record to entries@organizers.example.</p>" in index
    assert index.count("@") == 1  # the organizer's and the senders' addresses are not shown
    play = (folder / "site" / "play.html").read_text(encoding="utf-8")
    assert 'href="mailto:entries@organizers.example"' in play and "challenge@" not in play
    # Once the deadline has passed, the site no longer asks for records.
    toml.write_text(text.replace("2999-12-20", "2020-12-20"), encoding="utf-8")
    assert road300(folder, "recheck").status == 0  # the next run rewrites the site
    assert road300(folder, "run").status == 0
    index = (folder / "site" / "index.html").read_text(encoding="utf-8")
    assert "Send your record" not in index and "@" not in index
    assert "mailto:" not in (folder / "site" / "play.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("kind", ["maildir", "eml"])
def test_a_maildir_or_a_folder_of_eml_files_is_fetched_once_a_message(
    tmp_path: Path, mails: list[Mail], kind: str
) -> None:
    folder = contest(tmp_path)
    box = folder / "inbox"
    toml = folder / "road300.toml"
    toml.write_text(toml.read_text().replace('"inbox.mbox"', '"inbox"'))
    write = write_maildir if kind == "maildir" else write_eml
    write(mails[:2], box)
    assert "fetched 2 new, checked 2" in road300(folder, "run").stderr
    shutil.rmtree(box)
    write(mails[:3], box)  # the same two, and one more
    assert "fetched 1 new, checked 1, 1 new reply" in road300(folder, "run").stderr
    assert status(folder)["messages"] == 3


def test_export_is_what_batch_writes_for_the_same_mailbox(
    tmp_path: Path, mails: list[Mail]
) -> None:
    folder = contest(tmp_path)
    deliver(folder, *mails)
    assert road300(folder, "run").status == 0
    exported = road300(folder, "export", "-o", "results.json")
    assert exported.status == 0, exported.stderr
    batch = run_in_process(
        ["batch", "inbox.mbox", "--deadline", "2026-12-20T23:59:59+01:00", "-o", "batch.json"],
        folder,
    )
    assert batch.status == 0, batch.stderr
    assert (folder / "results.json").read_bytes() == (folder / "batch.json").read_bytes()
    assert stat.S_IMODE((folder / "results.json").stat().st_mode) == 0o600


def test_send_over_starttls_with_auth_once_then_only_the_new(
    tmp_path: Path, mails: list[Mail], server: Server
) -> None:
    folder = contest(tmp_path, server)
    deliver(folder, *mails[:2])
    run = road300(folder, "run", "--send")
    assert run.status == 0, run.stderr
    assert "sent 2, failed 0, 0 not sent" in run.stderr
    assert server.logins == [USER]
    assert sorted(to for to, _ in server.received) == sorted(senders(mails[:2]))
    assert PASSWORD not in run.stderr + run.stdout
    assert PASSWORD.encode() not in (folder / "road300.db").read_bytes()

    deliver(folder, mails[2])
    assert road300(folder, "run", "--send").status == 0
    assert len(server.received) == 3  # only the new reply was sent
    assert len(set(server.message_ids())) == 3
    assert status(folder)["replies"] == {"written": 3, "sent": 3, "failed": 0, "unsent": 0}


def test_a_refused_recipient_fails_for_good_a_deferred_one_waits(
    tmp_path: Path, mails: list[Mail], server: Server
) -> None:
    folder = contest(tmp_path, server)
    deliver(folder, *mails[:3])
    first, second, third = senders(mails[:3])
    server.refuse.add(first)
    server.defer.add(second)
    run = road300(folder, "run", "--send")
    assert run.status == 0, run.stderr
    assert [to for to, _ in server.received] == [third]
    assert "no such user here" in run.stderr and "stays unsent" in run.stderr
    data = status(folder)
    assert data["replies"] == {"written": 3, "sent": 1, "failed": 1, "unsent": 1}
    text = road300(folder, "status").stdout
    assert "failed: inbox.mbox#1: 550 5.1.1" in text

    server.defer.clear()
    server.refuse.clear()  # a failed reply is not tried again, even when it would pass now
    assert road300(folder, "run", "--send").status == 0
    assert [to for to, _ in server.received] == [third, second]
    assert status(folder)["replies"] == {"written": 3, "sent": 2, "failed": 1, "unsent": 0}


def test_a_dropped_connection_leaves_the_rest_for_the_next_run(
    tmp_path: Path, mails: list[Mail], server: Server
) -> None:
    folder = contest(tmp_path, server)
    deliver(folder, *mails[:3])
    server.drop.add(senders(mails[:3])[1])
    run = road300(folder, "run", "--send")
    assert run.status == 0, run.stderr
    assert len(server.received) == 1
    assert status(folder)["replies"]["unsent"] == 2
    assert road300(folder, "run", "--send").status == 0
    assert sorted(to for to, _ in server.received) == sorted(senders(mails[:3]))
    assert len(set(server.message_ids())) == 3


def test_certificates_are_verified_against_ca_file(server: Server) -> None:
    """A self-signed certificate fails verification unless ca_file names it; only a
    loopback server without ca_file is not verified."""
    import smtplib
    import ssl

    from validator.contest.mailurl import MailURLError, tls_context

    def starttls(context: ssl.SSLContext) -> None:
        with smtplib.SMTP("127.0.0.1", server.port, timeout=10) as client:
            client.starttls(context=context)
            assert client.noop()[0] == 250

    with pytest.raises(ssl.SSLCertVerificationError):
        starttls(tls_context(None))
    starttls(tls_context(server.cert))
    starttls(tls_context(None, loopback=True))
    with pytest.raises(MailURLError, match="not a PEM certificate"):
        tls_context(Path(__file__))


def test_the_draw_waits_for_the_deadline_and_is_recorded(tmp_path: Path, mails: list[Mail]) -> None:
    from datetime import UTC, datetime, timedelta

    folder = contest(tmp_path)
    toml = folder / "road300.toml"
    later = (datetime.now(UTC) + timedelta(days=30)).isoformat(timespec="seconds")
    toml.write_text(toml.read_text().replace("2026-12-20T23:59:59+01:00", later))
    deliver(folder, *mails)
    assert road300(folder, "run").status == 0
    assert b"Thanks a lot" in (folder / "road300.db").read_bytes()  # alice's mail, kept
    assert road300(folder, "export", "-o", "results.json").status == 0
    draw = ["draw", "results.json", "--winners", "1", "--seed", "lottery 17 23"]
    early = run_in_process(draw, folder)
    assert early.status == 2 and "has not passed" in early.stderr

    toml.write_text(toml.read_text().replace(f"deadline = {later}\n", ""))
    done = run_in_process(draw, folder)
    assert done.status == 0, done.stderr
    assert "recorded the draw in" in done.stderr
    from validator.contest.ledger import Ledger

    with Ledger.open(folder / "road300.db", writer=False) as ledger:
        (record,) = ledger.draws()
    assert record.seed == "lottery 17 23" and record.winners == 1
    files = [str(e["file"]) for e in record.eligible]
    assert files == sorted(files)
    assert record.eligible and all(isinstance(e["game"], str) for e in record.eligible)
    assert record.drawn[0] in record.eligible
    assert record.command.startswith("road300 draw results.json --winners 1 --seed")
    assert f"Winners:\n  1. {record.drawn[0]['player']}" in done.stdout
    assert "repeat it: road300 draw results.json" in road300(folder, "status").stdout

    # The site shows the draw: its seed, the eligible games in order, the winner and
    # the command that repeats it.
    site = (folder / "site" / "index.html").read_bytes()
    page = html.unescape(site.decode())
    assert "The seed: lottery 17 23." in page and record.command in page
    games = [str(e["game"]) for e in record.eligible]
    assert [page.index(g) for g in games] == sorted(page.index(g) for g in games)
    winner = page.index(str(record.drawn[0]["game"]))
    assert str(record.drawn[0]["player"]) in page[winner - 400 : winner]

    # The results are final: no message's bytes are kept, the site stays as it was.
    assert "the bytes of 6 messages are deleted from the ledger" in done.stderr
    assert b"Thanks a lot" not in (folder / "road300.db").read_bytes()
    late = inbox("late")[0]
    deliver(folder, late)
    after = road300(folder, "run")
    assert after.status == 0 and "fetched 1 new, checked 1, 1 new reply" in after.stderr
    assert (folder / "site" / "index.html").read_bytes() == site
    assert "rechecked 0 messages (7 no longer kept" in road300(folder, "recheck").stderr


def test_a_draw_from_an_export_older_than_the_ledger_is_refused(
    tmp_path: Path, mails: list[Mail]
) -> None:
    folder = contest(tmp_path)
    toml = folder / "road300.toml"
    toml.write_text(toml.read_text().replace("deadline = 2026-12-20T23:59:59+01:00\n", ""))
    deliver(folder, mails[0])  # alice's valid 340: a draw can be made
    assert road300(folder, "run").status == 0
    assert road300(folder, "export", "-o", "results.json").status == 0
    deliver(folder, mails[1])  # more mail, checked by a later run
    assert road300(folder, "run").status == 0
    draw = ["draw", "results.json", "--winners", "1", "--seed", "lottery 17 23"]
    stale = run_in_process(draw, folder)
    assert stale.status == 2 and "does not hold the results of" in stale.stderr
    assert "make it again with road300 contest export -o results.json" in stale.stderr
    assert "Winners" not in stale.stdout  # refused before anything is drawn
    assert road300(folder, "export", "-o", "results.json").status == 0
    done = run_in_process(draw, folder)
    assert done.status == 0 and "recorded the draw in" in done.stderr


def test_a_run_killed_while_sending_sends_no_reply_twice_but_the_one_in_flight(
    tmp_path: Path, mails: list[Mail], server: Server
) -> None:
    folder = contest(tmp_path, server)
    deliver(folder, *mails[:3])
    who = senders(mails[:3])
    server.hold.add(who[1])
    with started(folder, "run", "--send") as proc:
        assert server.holding.wait(60), proc.stderr.read() if proc.stderr else ""
        # A second run meanwhile waits a moment for the ledger, then names its holder.
        busy = with_wait(0.2, lambda: road300(folder, "run"))
        assert busy.status == 2
        assert f"process {proc.pid} on {socket.gethostname()}" in busy.stderr
        proc.send_signal(signal.SIGKILL)
        proc.wait(30)
    server.hold.clear()
    server.release()  # the server drops a message whose client went away mid-DATA
    assert [to for to, _ in server.received] == [who[0]]
    db = sqlite3.connect(folder / "road300.db")
    states = [s for (s,) in db.execute("SELECT state FROM replies ORDER BY seq")]
    db.close()
    assert states == ["sent", "sending", "unsent"]

    again = road300(folder, "run", "--send")
    assert again.status == 0, again.stderr
    assert [to for to, _ in server.received] == who  # the one in flight sent again
    assert len(set(server.message_ids())) == 3
    assert status(folder)["replies"] == {"written": 3, "sent": 3, "failed": 0, "unsent": 0}


def test_watch_runs_until_ctrl_c(tmp_path: Path, mails: list[Mail]) -> None:
    folder = contest(tmp_path)
    deliver(folder, mails[0])
    with started(folder, "run", "--watch") as proc:
        assert proc.stderr is not None
        lines: list[str] = []
        while not lines or "fetched" not in lines[-1]:
            line = proc.stderr.readline()
            assert line, "".join(lines)
            lines.append(line)
        assert "fetched 1 new, checked 1, 1 new reply, 1 not sent" in lines[-1]
        proc.send_signal(signal.SIGINT)  # Ctrl-C while it waits for the next round
        rest = proc.stderr.read()
        assert proc.wait(30) == 0, rest
        assert "road300: stopped" in rest
    assert status(folder)["messages"] == 1


def test_an_smtp_server_down_stops_a_run_but_not_the_watching(
    tmp_path: Path, mails: list[Mail], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server that cannot be used at all: one run stops (exit 2, naming the contest
    file and [mail] smtp); --watch says so and tries again next round."""
    with socket.socket() as unused:  # a loopback port nobody listens on
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]
    folder = contest(tmp_path)
    toml = folder / "road300.toml"
    toml.write_text(toml.read_text() + f'smtp = "smtp://{USER}@127.0.0.1:{port}"\n')
    deliver(folder, mails[0])
    once = road300(folder, "run", "--send")
    assert once.status == 2 and f"{toml}: [mail] smtp: smtp://" in once.stderr
    assert "cannot connect" in once.stderr and "the replies stay unsent" in once.stderr
    assert status(folder)["replies"]["unsent"] == 1
    watching = watched(monkeypatch, folder, "--send")
    assert watching.status == 0, watching.stderr
    rounds = watching.stderr.split("road300: fetched ")
    assert len(rounds) == 3 and rounds[2].endswith("\nroad300: stopped\n")
    for said, summary in pairwise(rounds):  # each round says it
        assert "the replies stay unsent until the next run" in said
        assert summary.startswith("0 new, checked 0, 0 new replies, sent 0, failed 0, 1 not sent")


def test_contest_file_mistakes_are_said_before_anything_is_fetched(
    tmp_path: Path, mails: list[Mail]
) -> None:
    folder = contest(tmp_path)
    deliver(folder, mails[0])
    toml = folder / "road300.toml"
    plain = toml.read_text()
    no_smtp = road300(folder, "run", "--send")
    assert no_smtp.status == 2 and "--send needs smtp under [mail]" in no_smtp.stderr
    assert not (folder / "road300.db").exists()  # said before the run fetched anything
    toml.write_text(plain + 'ca_file = "missing.pem"\n')
    line = plain.count("\n") + 1
    missing = road300(folder, "run")
    assert missing.status == 2, missing.stderr
    assert f"{toml}:{line}: mail.ca_file: {folder / 'missing.pem'} does not exist" in (
        missing.stderr
    )
    assert "Traceback" not in missing.stderr and not (folder / "road300.db").exists()


def test_ctrl_c_during_a_run_exits_2_and_the_next_run_goes_on(
    tmp_path: Path, mails: list[Mail]
) -> None:
    folder = contest(tmp_path)
    deliver(folder, *mails)
    with started(folder, "run") as proc:
        assert proc.stderr is not None
        while not (folder / "road300.db").exists():  # the run is under way
            assert proc.poll() is None, proc.stderr.read()
            time.sleep(0.005)  # leaves the core to the run
        proc.send_signal(signal.SIGINT)
        rest = proc.stderr.read()
        code = proc.wait(30)
    # Checking six messages and writing their reports takes far longer than the signal.
    assert code == 2 and "stopped before the run ended: nothing is lost" in rest, rest
    assert "Traceback" not in rest
    again = road300(folder, "run")
    assert again.status == 0, again.stderr
    assert status(folder)["replies"]["written"] == len(mails)


def test_a_mailbox_gone_stops_a_run_but_not_the_watching(
    tmp_path: Path, mails: list[Mail], monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = contest(tmp_path)
    deliver(folder, mails[0])
    assert road300(folder, "run").status == 0
    (folder / "inbox.mbox").rename(folder / "inbox.old")  # rotated away by the mail system
    gone = road300(folder, "run")
    assert gone.status == 2, gone.stderr
    said = f"{folder / 'road300.toml'}: [mail] source: {folder / 'inbox.mbox'}: no such mailbox"
    assert said in gone.stderr and "Traceback" not in gone.stderr
    watching = watched(monkeypatch, folder)
    assert watching.status == 0, watching.stderr
    rounds = watching.stderr.split("road300: fetched ")
    assert len(rounds) == 3 and rounds[2].endswith("\nroad300: stopped\n")
    for said, summary in pairwise(rounds):  # each round says it
        assert "fetching stopped" in said and "no such mailbox" in said
        assert summary.startswith("0 new, checked 0, 0 new replies")
    assert "Traceback" not in watching.stderr
    assert status(folder)["messages"] == 1


def test_a_message_that_gets_no_reply_is_said_once(tmp_path: Path, mails: list[Mail]) -> None:
    """As `batch --replies` says it: the run that checks it names the message and why;
    later runs, which make no reply for it, say nothing of it again."""
    folder = contest(tmp_path)
    (two,) = inbox("alice-first")  # a copy of its own, changed here
    two.message.replace_header("From", "Eve <eve@players.example>, bob@players.example")
    two.message.replace_header("Message-ID", "<two-senders@players.example>")
    deliver(folder, mails[1], two)
    first = road300(folder, "run")
    assert first.status == 0, first.stderr
    assert "road300: no reply to inbox.mbox#2: " in first.stderr
    assert "1 new reply" in first.stderr
    again = road300(folder, "run")
    assert again.status == 0 and "no reply to" not in again.stderr


def test_export_never_overwrites_the_mailbox_nor_publishes_addresses(
    tmp_path: Path, mails: list[Mail]
) -> None:
    folder = contest(tmp_path)
    deliver(folder, *mails[:2])
    assert road300(folder, "run").status == 0
    box = (folder / "inbox.mbox").read_bytes()
    for target, said in (
        ("inbox.mbox", "inbox.mbox: is an input of this command"),
        ("dice.txt", "dice.txt: is an input of this command"),
        ("site/results.json", "lies inside the site folder"),
    ):
        refused = road300(folder, "export", "-o", target)
        assert refused.status == 2 and said in refused.stderr, refused.stderr
    assert (folder / "inbox.mbox").read_bytes() == box
    assert not (folder / "site" / "results.json").exists()
    assert road300(folder, "export", "-o", "results.json").status == 0


@pytest.mark.parametrize(
    ("keys", "said"),
    [
        ('site = "out"\nreplies = "out"\n', "are one folder or one holds the other"),
        ('site = "out"\nreplies = "out/replies"\n', "are one folder or one holds the other"),
        ('replies = "site/replies"\n', "are one folder or one holds the other"),
        ('state = "site/road300.db"\n', "lies inside the site folder"),
        ('state = "replies/road300.db"\n', "lies inside the replies folder"),
    ],
)
def test_the_site_the_replies_and_the_ledger_each_have_their_own_place(
    tmp_path: Path, mails: list[Mail], keys: str, said: str
) -> None:
    """The replies (addresses) and the ledger (every message) never go into the site,
    which is published as it is; nothing is fetched or written when they would."""
    folder = contest(tmp_path)
    deliver(folder, mails[0])
    toml = folder / "road300.toml"
    toml.write_text(keys + toml.read_text(), encoding="utf-8")
    refused = road300(folder, "run")
    assert refused.status == 2 and said in refused.stderr, refused.stderr
    assert f"{toml}: " in refused.stderr and "Traceback" not in refused.stderr
    assert not list(folder.glob("**/*.db")) and not list(folder.glob("**/index.html"))


def test_recheck_keeps_the_replies_and_marks_the_site_for_rewriting(
    tmp_path: Path, mails: list[Mail]
) -> None:
    folder = contest(tmp_path)
    deliver(folder, *mails[:2])
    assert road300(folder, "run").status == 0
    before = (folder / "replies" / "reply-0001.eml").read_bytes()
    run = road300(folder, "recheck")
    assert run.status == 0, run.stderr
    assert "rechecked 2 messages: 0 changed" in run.stderr
    index = folder / "site" / "index.html"
    index.unlink()
    (folder / "replies" / "reply-0001.eml").unlink()  # as a run stopped before writing it
    assert road300(folder, "run").status == 0
    assert index.is_file()
    assert (folder / "replies" / "reply-0001.eml").read_bytes() == before


def test_a_fetch_cut_short_keeps_what_came_and_where_to_go_on(tmp_path: Path) -> None:
    """A server that goes away in the middle of a fetch: the messages stored before stay,
    with the cursor after the last of them, for the next run to go on from."""
    from validator.cli.contest_run import fetch
    from validator.contest.incoming import Incoming
    from validator.contest.ledger import Ledger

    class GoingAway:
        label = "INBOX"

        def fetch(self, cursor: str | None) -> Iterator[Incoming]:
            assert cursor == (None if not seen else "7:2")
            yield Incoming("imap:7:1", b"Subject: one\n\nbody\n", cursor="7:1")
            yield Incoming("imap:7:2", b"Subject: two\n\nbody\n", cursor="7:2")
            raise ConnectionResetError("the server went away")

    seen: list[str] = []
    with Ledger.open(tmp_path / "road300.db", writer=True) as ledger:
        new, why = fetch(ledger, GoingAway())
        assert (new, why) == (2, "ConnectionResetError: the server went away")
        assert ledger.cursor("INBOX") == "7:2" and ledger.last_fetch() is None
        assert [s.file for s in ledger.messages()] == ["INBOX#1", "INBOX#2"]
        seen.append("again")
        new, why = fetch(ledger, GoingAway())
        assert new == 0 and ledger.count() == 2  # the same messages are not stored twice
        # The same bytes under another key (the folder's UIDVALIDITY changed): known.
        assert ledger.add("INBOX", "imap:8:1", b"Subject: one\n\nbody\n") is None
        assert ledger.add("INBOX", "imap:8:3", b"Subject: three\n\nbody\n") == "INBOX#3"


def test_the_commands_need_a_contest_file_and_a_ledger(tmp_path: Path) -> None:
    none = road300(tmp_path, "status")
    assert none.status == 2 and "no contest file" in none.stderr
    folder = contest(tmp_path)
    missing = road300(folder, "status")
    assert missing.status == 2 and "no ledger yet" in missing.stderr
    (folder / "road300.toml").write_text(
        (folder / "road300.toml").read_text() + 'imap = "imaps://me@mail.example/INBOX"\n'
    )
    both = road300(folder, "run")
    assert both.status == 2 and "imap or source, not both" in both.stderr
    mixed = (folder / "road300.toml").read_text().split("imap")[0]
    (folder / "road300.toml").write_text(mixed.replace('"inbox.mbox"', '"replies"'))
    (folder / "replies").mkdir()
    looping = road300(folder, "run")
    assert (
        looping.status == 2
        and "replies" in looping.stderr
        and "read what it writes" in looping.stderr
    )
    (folder / "road300.toml").write_text(mixed)
    assert road300(folder, "run").status == 0
    db = sqlite3.connect(folder / "road300.db")
    db.execute("PRAGMA user_version = 99")
    db.close()
    newer = road300(folder, "status")
    assert newer.status == 2 and "written by a newer road300 (schema 99" in newer.stderr
    for name in ("road300.db-wal", "road300.db-shm"):
        (folder / name).unlink(missing_ok=True)
    (folder / "road300.db").write_bytes(b"not a database at all, but long enough" * 100)
    broken = road300(folder, "run")
    assert broken.status == 2 and "not a road300 ledger" in broken.stderr
    (folder / "road300.db").unlink()
    other = sqlite3.connect(folder / "road300.db")  # another program's database
    other.execute("CREATE TABLE notes (text)")
    other.commit()
    other.close()
    for command in ("status", "run"):
        foreign = road300(folder, command)
        assert foreign.status == 2 and "an SQLite file, but not a road300 ledger" in foreign.stderr


# -- Helpers ----------------------------------------------------------------------------------


def _header(path: Path, name: str) -> str:
    return str(BytesParser(policy=policy.default).parsebytes(path.read_bytes())[name])


assert sys.version_info >= (3, 11)


# -- docs/contest.md ------------------------------------------------------------------------


def test_the_docs_run_a_challenge_as_they_show(
    tmp_path: Path, mails: list[Mail], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The contest file keys of "Running a challenge from a mailbox" (with a local mbox
    for the IMAP folder), and its first runs and status, printing what the docs show."""
    import re

    doc = (ROOT / "docs" / "contest.md").read_text(encoding="utf-8")
    section = doc.split("## 5. Running a challenge from a mailbox", 1)[1].split("\n## ", 1)[0]
    (keys,) = re.findall(r"^```toml\n(.*?)^```$", section, re.M | re.S)
    consoles = re.findall(r"^```console\n(.*?)^```$", section, re.M | re.S)
    folder = contest(tmp_path)
    top, mail = keys.split("[mail]\n")
    assert 'imap = "imaps://' in mail
    mail = re.sub(r"^imap = .*$", 'source = "inbox.mbox"', mail, flags=re.M)
    base = (folder / "road300.toml").read_text().split("[mail]")[0]
    (folder / "road300.toml").write_text(f"{base}{top}[mail]\n{mail}")
    monkeypatch.delenv("ROAD300_SMTP_PASSWORD")
    for block, delivered in zip(consoles[:3], (mails[:3], mails[3:], ()), strict=True):
        deliver(folder, *delivered)
        command, *shown = block.splitlines()
        assert command.startswith("$ road300 contest ")
        run = road300(folder, *command.split()[3:])
        assert run.status == 0, run.stderr
        lines = (run.stdout + run.stderr).replace(f"{folder.resolve()}/", "").splitlines()
        fetch = [n for n, line in enumerate(shown) if line.startswith("Last fetch: ")]
        for n in fetch:  # the time of this run
            assert lines[n].startswith("Last fetch: 20")
            lines[n] = shown[n]
        assert lines == shown
