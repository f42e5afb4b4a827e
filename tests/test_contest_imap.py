"""ImapFetcher against a real Dovecot on loopback (tests/dovecot.py): mail delivered in
stages with APPEND is fetched once each, by UIDVALIDITY and UID, and nothing on the
server changes; refusals (a wrong password, an untrusted certificate, no such folder, a
silent server) are one clear ImapError each. The address and its TLS are mailurl.py's
(tests/test_mailurl.py); the whole run against Dovecot is tests/test_contest_imap_run.py."""

from __future__ import annotations

import itertools
import os
import re
import signal
import socket
import ssl
from dataclasses import replace
from pathlib import Path

import pytest
from dovecot import PASSWORD, UTF8_PASSWORD, UTF8_USER, Dovecot, make_certificate
from mail_helpers import DICE, inbox

from validator.check.file import Checker
from validator.contest.imap import ImapError, ImapFetcher
from validator.contest.incoming import Incoming
from validator.contest.mail import HEADER_BYTES, RawMessage, check_message
from validator.contest.mailurl import MailURL, parse_mail_url
from validator.records.dice import read_dice

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
CAP = 256 * 1024
_FOLDERS = itertools.count(1)


@pytest.fixture
def folder(dovecot: Dovecot) -> str:
    """A new, empty folder of the test's own."""
    name = f"Entries {next(_FOLDERS)}"
    with dovecot.client() as imap:
        assert imap.create(f'"{name}"')[0] == "OK"
    return name


def message(n: int, body: str = "", extra: bytes = b"") -> bytes:
    text = body or f"Hello, this is message {n}.\r\n"
    return (
        f"From: Player {n} <player{n}@players.example>\r\n"
        "To: challenge@organizers.example\r\n"
        f"Subject: game {n}\r\n"
        f"Message-ID: <m{n}@players.example>\r\n".encode()
        + extra
        + b"\r\n"
        + text.encode()
    )


def fetcher(dovecot: Dovecot, folder: str, **kwargs: object) -> ImapFetcher:
    server = kwargs.pop("server", None) or dovecot.server(folder)
    password = kwargs.pop("password", PASSWORD)
    ca_file = kwargs.pop("ca_file", dovecot.cert)
    assert not kwargs
    return ImapFetcher(server, password, ca_file, CAP)  # type: ignore[arg-type]


def fetch(f: ImapFetcher, cursor: str | None) -> tuple[list[Incoming], str | None]:
    got = list(f.fetch(cursor))
    return got, (got[-1].cursor if got else cursor)


def test_fetch_in_stages_only_the_new_and_nothing_on_the_server_changes(
    dovecot: Dovecot, folder: str
) -> None:
    first = dovecot.deliver(folder, *(message(n) for n in range(1, 4)))
    before = dovecot.snapshot(folder)
    f = fetcher(dovecot, folder)
    validity = dovecot.uidvalidity(folder)

    got, cursor = fetch(f, None)
    assert [g.key for g in got] == [f"imap:{validity}:{uid}" for uid in first]
    assert [g.cursor for g in got] == [f"{validity}:{uid}" for uid in first]
    assert [g.data for g in got] == [m[2] for m in before]
    assert all(g.size is None for g in got)

    # Nothing newer: `UID SEARCH UID n+1:*` still matches the last message; not fetched.
    again, same = fetch(f, cursor)
    assert again == [] and same == cursor

    second = dovecot.deliver(folder, message(4), message(5))
    got2, cursor2 = fetch(f, cursor)
    assert [g.key for g in got2] == [f"imap:{validity}:{uid}" for uid in second]
    third = dovecot.deliver(folder, message(6))
    got3, _ = fetch(f, cursor2)
    assert [g.key for g in got3] == [f"imap:{validity}:{third[0]}"]
    # From the start again: all six, the same keys and bytes.
    everything, _ = fetch(f, None)
    assert [g.key for g in everything] == [g.key for g in got + got2 + got3]

    after = dovecot.snapshot(folder)
    assert len(after) == 6
    assert after[:3] == before  # the same UIDs, flags and bytes
    assert all(b"\\Seen" not in flags for _, flags, _ in after)


def test_a_fetched_mail_is_checked_as_a_mailbox_message_is(dovecot: Dovecot, folder: str) -> None:
    mail = inbox("alice-first")[0]
    dovecot.deliver(folder, mail.data)
    (got,) = fetcher(dovecot, folder).fetch(None)
    checker = Checker(dice=read_dice(DICE))
    arrival = check_message(checker, RawMessage(got.key, got.data, Path.cwd()))
    assert arrival.has_record
    assert arrival.address == "alice@players.example"
    assert arrival.checked.entry is not None and arrival.checked.entry.score == 340


def test_a_new_uidvalidity_starts_from_the_beginning(dovecot: Dovecot, folder: str) -> None:
    dovecot.deliver(folder, message(1), message(2))
    f = fetcher(dovecot, folder)
    old = dovecot.uidvalidity(folder)
    _, cursor = fetch(f, None)
    assert cursor is not None and cursor.startswith(f"{old}:")

    dovecot.recreate(folder)
    dovecot.deliver(folder, message(3))
    new = dovecot.uidvalidity(folder)
    assert new != old
    got, cursor2 = fetch(f, cursor)
    # UID 1 under the new UIDVALIDITY is older than the cursor's UID 2, yet it is new.
    assert [g.key for g in got] == [f"imap:{new}:1"]
    assert got[0].data == message(3)
    assert cursor2 == f"{new}:1"


def test_a_message_over_the_cap_is_its_header_and_the_fetch_goes_on(
    dovecot: Dovecot, folder: str
) -> None:
    huge = message(2, body="x" * 76 + "\r\n") + b"y" * 76 * (CAP // 70) + b"\r\n"
    eight_bit = message(3, extra=b"Subject: caf\xe9 \xff\xfe \x1b[2J\r\nX-Odd: \x00\x01\r\n")
    tricky = message(4, body="* 5 FETCH (UID 99 BODY[] {3}\r\nabc)\r\n")
    uids = dovecot.deliver(folder, message(1), huge, eight_bit, tricky, message(5))
    held = {uid: data for uid, _, data in dovecot.snapshot(folder)}
    got = list(fetcher(dovecot, folder).fetch(None))
    assert [int(g.key.rsplit(":", 1)[1]) for g in got] == uids

    over = got[1]
    assert over.size is not None and over.size == len(huge) > CAP
    assert over.data.startswith(b"From: Player 2") and b"yyyy" not in over.data
    assert len(over.data) <= HEADER_BYTES
    # Dovecot keeps the 8-bit bytes (a NUL it stores as 0x80): fetched as it holds them.
    assert got[2].data == held[uids[2]] and b"caf\xe9 \xff\xfe \x1b[2J" in got[2].data
    assert got[2].size is None
    assert got[3].data == tricky
    assert got[4].data == message(5)


def test_a_header_over_the_header_bytes_is_cut(dovecot: Dovecot, folder: str) -> None:
    long_header = b"".join(b"X-Filler-%d: %s\r\n" % (i, b"z" * 70) for i in range(3000))
    big = message(1, extra=long_header, body="w" * CAP)
    dovecot.deliver(folder, big)
    (got,) = fetcher(dovecot, folder).fetch(None)
    assert got.size == len(big)
    assert len(got.data) <= HEADER_BYTES and got.data.startswith(b"From: Player 1")


def test_many_messages_in_windows_and_batches(dovecot: Dovecot, folder: str) -> None:
    from validator.contest import imap

    uids = dovecot.deliver(folder, *(message(n) for n in range(1, 31)))
    gone = {uids[i] for i in (7, 8, 9, 10, 11, 17, 29)}  # holes in the UIDs, the last one too
    dovecot.expunge(folder, sorted(gone))
    f = fetcher(dovecot, folder)
    answers: list[int] = []
    search = ImapFetcher._search

    def counted(self: ImapFetcher, imap_: object, window: str) -> list[int]:
        found = search(self, imap_, window)  # type: ignore[arg-type]
        answers.append(len(found))
        return found

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(imap, "SEARCH_WINDOW", 4)
        mp.setattr(imap, "SIZE_BATCH", 3)
        mp.setattr(imap, "BODY_BATCH_COUNT", 2)
        mp.setattr(ImapFetcher, "_search", counted)
        got = list(f.fetch(f"{dovecot.uidvalidity(folder)}:{uids[4]}"))
        everything = list(f.fetch(None))
    left = [u for u in uids if u not in gone]
    assert [int(g.key.rsplit(":", 1)[1]) for g in got] == [u for u in left if u > uids[4]]
    assert [g.data for g in got] == [message(n) for n, u in enumerate(uids, 1) if u in left][5:]
    assert [int(g.key.rsplit(":", 1)[1]) for g in everything] == left
    assert len(answers) > 6 and max(answers) <= 4


def test_stopping_early_logs_out(dovecot: Dovecot, folder: str) -> None:
    dovecot.deliver(folder, message(1), message(2))
    stream = fetcher(dovecot, folder).fetch(None)
    first = next(stream)
    stream.close()
    assert first.data == message(1)
    assert len(dovecot.snapshot(folder)) == 2


def test_starttls_and_plain_to_loopback(dovecot: Dovecot, folder: str, tmp_path: Path) -> None:
    """`imap://` to a loopback host is `plain` (mailurl.py): STARTTLS when the server
    offers it, as Dovecot does, its certificate verified when ca_file is given."""
    dovecot.deliver(folder, message(1))
    assert parse_mail_url(dovecot.address(folder, "plain"), "imap") == dovecot.server(
        folder, "plain"
    )
    other, _ = make_certificate(tmp_path, "other")
    for security in ("starttls", "plain"):
        server = dovecot.server(folder, security)
        (got,) = fetcher(dovecot, folder, server=server).fetch(None)
        assert got.data == message(1), security
        text = refusal(fetcher(dovecot, folder, server=server, ca_file=other))
        assert "TLS certificate is not trusted" in text, security  # STARTTLS was used


def test_a_password_that_is_not_ascii(dovecot: Dovecot, folder: str) -> None:
    server = replace(dovecot.server("INBOX"), user=UTF8_USER)
    f = fetcher(dovecot, "INBOX", server=server, password=UTF8_PASSWORD)
    assert list(f.fetch(None)) == []
    wrong = fetcher(dovecot, "INBOX", server=server, password=UTF8_PASSWORD + "x")
    with pytest.raises(ImapError, match="the login as treasurer failed"):
        list(wrong.fetch(None))


def refusal(f: ImapFetcher) -> str:
    with pytest.raises(ImapError) as caught:
        list(f.fetch(None))
    text = str(caught.value)
    assert PASSWORD not in text and "Traceback" not in text
    return text


def test_refusals_are_clear_and_never_show_the_password(
    dovecot: Dovecot, folder: str, tmp_path: Path
) -> None:
    where = f"127.0.0.1:{dovecot.imaps_port}"
    text = refusal(fetcher(dovecot, folder, password="wrong " + PASSWORD))
    assert text.startswith(f"{where}: the login as organizer failed: ")
    assert "AUTHENTICATIONFAILED" in text

    assert refusal(fetcher(dovecot, folder, password=None)).startswith(
        f"{where}: no password for organizer (set ROAD300_IMAP_PASSWORD"
    )

    text = refusal(fetcher(dovecot, "No such folder"))
    assert text.startswith(f"{where}, folder 'No such folder': the folder cannot be opened: ")

    other, _ = make_certificate(tmp_path, "other")
    text = refusal(fetcher(dovecot, folder, ca_file=other))
    assert text.startswith(f"{where}: the server's TLS certificate is not trusted (")
    assert "add its CA with ca_file" in text
    starttls = dovecot.server(folder, "starttls")
    text = refusal(fetcher(dovecot, folder, server=starttls, ca_file=other))
    assert "TLS certificate is not trusted" in text
    by_name = replace(dovecot.server(folder), host="localhost")
    text = refusal(fetcher(dovecot, folder, server=by_name))
    assert "not trusted (Hostname mismatch" in text, text

    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    text = refusal(fetcher(dovecot, folder, server=replace(dovecot.server(folder), port=port)))
    assert text == f"127.0.0.1:{port}: cannot connect: Connection refused"


def test_a_silent_server_times_out(dovecot: Dovecot) -> None:
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(1)  # connections are accepted by the kernel and never answered
        server = MailURL("imaps", "organizer", "127.0.0.1", silent.getsockname()[1], "INBOX", "tls")
        f = ImapFetcher(server, PASSWORD, dovecot.cert, CAP, timeout=0.5)
        assert refusal(f).endswith(": cannot connect: no answer within 0.5 s")


def test_a_loopback_server_without_ca_file_is_not_verified_any_other_is(
    dovecot: Dovecot, folder: str
) -> None:
    """mailurl.tls_context's one exception: a loopback server without ca_file (its
    connection never leaves the machine); with ca_file, or to any other host, the
    certificate and its host name are checked."""
    dovecot.deliver(folder, message(1))
    (got,) = fetcher(dovecot, folder, ca_file=None).fetch(None)
    assert got.data == message(1)
    remote = parse_mail_url("imap://organizer@192.0.2.7/INBOX", "imap")
    assert remote.security == "starttls" and not remote.loopback
    from validator.contest.mailurl import tls_context

    context = tls_context(None, loopback=remote.loopback)
    assert context.verify_mode == ssl.CERT_REQUIRED and context.check_hostname


def test_a_cursor_that_is_not_one(dovecot: Dovecot, folder: str) -> None:
    with pytest.raises(ImapError, match=r"cursor 'imap:1:2': not UIDVALIDITY:UID"):
        list(fetcher(dovecot, folder).fetch("imap:1:2"))


def test_the_label_names_the_server_and_never_the_password(dovecot: Dovecot) -> None:
    f = fetcher(dovecot, "Entries")
    assert f.label == f"imaps://organizer@127.0.0.1:{dovecot.imaps_port}/Entries"
    assert PASSWORD not in repr(f) and PASSWORD not in f.label
    inbox_default = fetcher(dovecot, "x", server=replace(dovecot.server(None)))
    assert inbox_default.label.endswith("/INBOX")
    port = dovecot.imap_port
    assert (
        dovecot.address("Entries 1")
        == f"imaps://organizer@127.0.0.1:{dovecot.imaps_port}/Entries%201"
    )
    assert dovecot.address("INBOX", "plain") == f"imap://organizer@127.0.0.1:{port}/INBOX"


def test_the_docs_show_the_refusals_as_they_are_said(
    dovecot: Dovecot, folder: str, tmp_path: Path
) -> None:
    """docs/contest.md's examples of refusals are what is said (after `contest run`'s
    prefix, which tests/test_contest_imap_run.py checks), but for the server's address,
    the user, the folder, the time-out and the server's timing."""
    doc = (ROOT / "docs" / "contest.md").read_text(encoding="utf-8")
    section = doc.split("### Fetching over IMAP", 1)[1].split("\n### ", 1)[0]
    block = re.findall(r"^```text\n(.*?)^```$", section, re.M | re.S)[0].splitlines()
    prefix = "road300: error: /srv/winter/road300.toml: [mail] imap: "
    assert len(block) == 4 and all(line.startswith(prefix) for line in block)
    shown = [line.removeprefix(prefix) for line in block]
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(1)
        server = MailURL("imaps", "organizer", "127.0.0.1", silent.getsockname()[1], "INBOX", "tls")
        other, _ = make_certificate(tmp_path, "other")
        said = [
            refusal(fetcher(dovecot, folder, ca_file=other)),
            refusal(fetcher(dovecot, folder, password="wrong")),
            refusal(fetcher(dovecot, folder + " gone")),
            refusal(ImapFetcher(server, PASSWORD, dovecot.cert, CAP, timeout=0.5)),
        ]
    free = {
        "mail.example.org:993": r"127\.0\.0\.1:\d+",
        "as challenge": "as organizer",
        "'Entries'": "'[^']+'",
        ": Entries": ": .+",
        "60 s": r"[\d.]+ s",
        "(0.001 + 0.000 secs)": r"\([\d.+ ]+ secs\)",
    }
    for line in shown:
        pattern = "".join(
            free.get(part, re.escape(part))
            for part in re.split(f"({'|'.join(map(re.escape, free))})", line)
        )
        assert any(re.fullmatch(pattern, text) for text in said), (line, pattern, said)


def test_a_folder_named_in_any_script(dovecot: Dovecot) -> None:
    """Folder names travel in modified UTF-7 (RFC 3501, 5.1.3; its own example here)."""
    dovecot.deliver("Einsendungen &ANw- &U,BTFw- &ZeVnLIqe- a&-b", message(1))
    f = fetcher(dovecot, "Einsendungen Ü 台北 日本語 a&b")
    assert [g.data for g in f.fetch(None)] == [message(1)]


def test_a_server_that_stops_answering_mid_fetch(dovecot: Dovecot, folder: str) -> None:
    """The session's own imap process is stopped (SIGSTOP) after the first message: the
    next batch times out as one ImapError, and what was yielded before stays yielded."""
    from validator.contest import imap

    dovecot.deliver(folder, message(1), message(2), message(3))
    server = dovecot.server(folder)
    f = ImapFetcher(server, PASSWORD, dovecot.cert, CAP, timeout=1.0)
    got: list[Incoming] = []
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(imap, "BODY_BATCH_COUNT", 1)
        before = len(dovecot.logins())
        stream = f.fetch(None)
        got.append(next(stream))
        pid = dovecot.session_pid(before)
        os.kill(pid, signal.SIGSTOP)
        try:
            with pytest.raises(ImapError) as caught:
                got.extend(stream)
        finally:
            os.kill(pid, signal.SIGCONT)
    assert str(caught.value) == (
        f"127.0.0.1:{dovecot.imaps_port}, folder '{folder}': UID FETCH failed: no answer within 1 s"
    )
    assert [g.data for g in got] == [message(1)]
