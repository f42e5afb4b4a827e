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


@pytest.mark.parametrize("encoding", ["latin-1", "utf-8"])
def test_an_8bit_body_without_a_charset_is_read_as_its_letters(
    encoding: str, tmp_path: Path
) -> None:
    """A body with 8-bit letters and no charset (`Grüße` in Latin-1 or UTF-8, sent as
    plain `text/plain`) was read as ASCII: each such letter became a replacement
    character, and a German record with umlauts in its words was malformed. It is read
    as UTF-8, else Windows-1252, as an attachment is."""
    record = "Spielerin: Jördis\n" + ALICE.decode().split("claimed_score: 340\n", 1)[1].replace(
        "reroll", "neu würfeln"
    )
    body = ("Hallo, hier mein Spiel (Grüße!):\n\n" + record + "\nViele Grüße\n").encode(encoding)
    box = write_box(
        tmp_path / "inbox.mbox", message(b"J <j@players.example>", body, ctype=b"text/plain")
    )
    (entry,) = results(box)["entries"]
    assert (entry["verdict"], entry["score"], entry["player"]) == ("valid", 340, "Jördis")


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
        (b"eve@players.example bob@players.example", None, None),
        (b'"eve@players.example, bob@players.example"', None, None),
        (b"eve@players.example (Eve)", "eve@players.example", "Eve"),
    ],
    ids=[
        "name-like-address",
        "no-space",
        "comment",
        "two-mailboxes",
        "two-angles",
        "quoted",
        "two-bare",
        "quoted-list",
        "bare-with-comment",
    ],
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


# -- 5. 6. 12. Output folders: whole, one writer, no link followed -------------------------


def _games(count: int, first: int) -> list[bytes]:
    """`count` messages from distinct senders, each a different legal game in its body
    (each game made once a process)."""
    from mail_helpers import game

    out = []
    for n in range(first, first + count):
        record = game(n, "text", f"Player {n}").encode()
        out.append(message(b"P%d <p%d@players.example>" % (n, n), record, n=n))
    return out


def _tree(folder: Path) -> dict[str, bytes]:
    """Every file under `folder` (relative name: bytes); a link as its target."""
    out: dict[str, bytes] = {}
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder).as_posix()
        if path.is_symlink():
            out[rel] = b"-> " + os.fsencode(os.readlink(path))
        elif path.is_file():
            out[rel] = path.read_bytes()
    return out


def _publishing(box: Path, site: Path, replies: Path) -> subprocess.Popen[bytes]:
    args = ["batch", str(box), "--dice", str(CHALLENGE), "--jobs", "1"]
    args += ["--site", str(site), "--replies", str(replies), "--organizer", ORGANIZER]
    return subprocess.Popen(
        cli_command(args),
        env=_env(),
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )


def _writing(proc: subprocess.Popen[bytes], parent: Path, before: dict[str, bytes]) -> None:
    """Wait until the run has written a page of the site: into a folder being made beside
    it, or (as runs that write in place do) a file of the site changed."""
    site = parent / "site"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        if any(parent.glob(".site.*.new/entries/*.html")) or _tree(site) != before:
            return
        time.sleep(0.005)
    raise AssertionError("the run never wrote the site")


@pytest.mark.parametrize(
    "sig",
    [signal.SIGTERM, pytest.param(signal.SIGINT, marks=pytest.mark.slow)],
    ids=lambda s: signal.Signals(s).name,
)
def test_an_interrupted_run_leaves_the_site_and_replies_as_they_were(
    sig: int, tmp_path: Path
) -> None:
    """Ctrl-C or SIGTERM while the site and the replies were written left the old index
    linking to pages the new run had rewritten, and replies of both runs. Each folder is
    made beside the old one and swapped in whole."""
    site, replies = tmp_path / "site", tmp_path / "replies"
    old = write_box(tmp_path / "old.mbox", *_games(3, 100))
    first = run("batch", old, *ARGS, "--site", site, "--replies", replies, "--organizer", ORGANIZER)
    assert first.exit_code == 0, first.output
    site_before, replies_before = _tree(site), _tree(replies)
    new = write_box(tmp_path / "new.mbox", *_games(16, 200))
    proc = _publishing(new, site, replies)
    _writing(proc, tmp_path, site_before)  # a page into the new site (16 take a while)
    assert proc.poll() is None, "the run ended before the signal: give it more messages"
    os.killpg(proc.pid, sig)
    _, err = proc.communicate(timeout=60)
    # SIGTERM ends the run as an exit (143); Ctrl-C as click's "Aborted!" (1).
    assert proc.returncode == (143 if sig == signal.SIGTERM else 1), err.decode(errors="replace")
    assert b"Traceback" not in err
    assert _tree(site) == site_before
    assert _tree(replies) == replies_before
    leftovers = [p.name for p in tmp_path.iterdir() if p.name.startswith(".")]
    assert all(name.endswith(".lock") for name in leftovers), leftovers


def test_a_second_writer_of_the_same_folders_is_refused(tmp_path: Path) -> None:
    """Two runs writing the same --site and --replies left index and pages, replies and
    replies.mbox disagreeing, or one failed on a file the other deleted. The second is
    refused (exit 2, naming the folder) and the first writes its folders whole."""
    site, replies = tmp_path / "site", tmp_path / "replies"
    box = write_box(tmp_path / "inbox.mbox", *_games(12, 200))
    other = write_box(tmp_path / "other.mbox", *_games(2, 100))
    proc = _publishing(box, site, replies)
    try:
        _writing(proc, tmp_path, {})  # then 11 pages and their replies to go
        second = run(
            "batch", other, *ARGS, "--site", site, "--replies", replies, "--organizer", ORGANIZER
        )
    finally:
        _, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err.decode(errors="replace")
    assert second.exit_code == 2, second.output
    assert f"{site}: another road300 run is writing it (process {proc.pid} holds" in second.output
    assert sorted(p.name for p in (site / "entries").iterdir()) == [
        f"{n:04d}.html" for n in range(1, 13)
    ]
    assert len(list(replies.glob("reply-*.eml"))) == len(mailbox.mbox(replies / "replies.mbox"))
    assert len(list(replies.glob("reply-*.eml"))) == 12


def test_no_write_into_an_output_folder_follows_a_planted_link(tmp_path: Path) -> None:
    """`ln -s elsewhere/victim.txt replies/reply-0001.eml` made the next run overwrite
    victim.txt: writes into the output folders never follow a link (the folders are
    made anew, what is ours is never carried over, the rest is carried as it is)."""
    site, replies = tmp_path / "site", tmp_path / "replies"
    box = write_box(tmp_path / "inbox.mbox", message(b"Alice <alice@players.example>"))
    out = ("--site", site, "--replies", replies, "--organizer", ORGANIZER)
    assert run("batch", box, *ARGS, *out).exit_code == 0
    victims = {}
    for n, planted in enumerate(
        (replies / "reply-0001.eml", replies / "replies.mbox", site / "index.html",
         site / "entries" / "0001.html", site / "dice.txt")
    ):  # fmt: skip
        victim = tmp_path / f"victim{n}.txt"
        victim.write_text("precious")
        planted.unlink()
        planted.symlink_to(victim)
        victims[planted] = victim
    (replies / "notes").symlink_to(tmp_path / "victim0.txt")  # not ours: carried as a link
    result = run("batch", box, *ARGS, *out)
    assert result.exit_code == 0, result.output
    for planted, victim in victims.items():
        assert victim.read_text() == "precious"
        assert planted.is_file() and not planted.is_symlink()
    assert (replies / "notes").is_symlink()
    assert reply_to(replies / "reply-0001.eml") == ["alice@players.example"]


# -- 9. 13. The mailbox: giant messages, bounces, forged From lines -----------------------


def test_a_giant_sparse_mbox_is_read_in_bounded_pieces(tmp_path: Path) -> None:
    """A 2 GB sparse mbox was read as one 2 GB line: 4.3 GB of memory, or a MemoryError
    traceback under a limit. Read in pieces, its giant message is one malformed entry and
    the message before it is checked as ever, in well under the memory limit set here."""
    import resource

    path = tmp_path / "inbox.mbox"
    with path.open("wb") as handle:
        handle.write(b"From alice@players.example Mon Dec  7 10:00:00 2026\n")
        handle.write(message(b"Alice <alice@players.example>", n=1) + b"\n")
        handle.write(b"From bob@players.example Mon Dec  7 10:00:00 2026\n")
        handle.write(message(b"Bob <bob@players.example>", b"", n=2))
        handle.truncate(2 * 1024**3)

    def limited() -> None:
        limit = 1_200 * 1024**2
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    args = ["batch", str(path), "--dice", str(CHALLENGE), "--jobs", "1", "--format", "json"]
    started = time.monotonic()
    proc = subprocess.run(
        cli_command(args),
        env=_env(),
        cwd=ROOT,
        capture_output=True,
        timeout=120,
        check=False,
        preexec_fn=limited,  # a limit of this child only, set before it runs
    )
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")
    assert time.monotonic() - started < 30
    alice, bob = json.loads(proc.stdout)["entries"]
    assert alice["verdict"] == "valid"
    assert bob["verdict"] == "malformed" and "it was not read beyond" in bob["error"]["message"]
    assert bob["source"]["from"] == "bob@players.example"


def test_bounces_and_auto_replies_are_skipped_and_never_answered(tmp_path: Path) -> None:
    """A bounce from mailer-daemon@ or postmaster@ quoting an entry, and an auto-reply
    (Auto-Submitted other than `no`, RFC 3834) became entries and got replies: answering a
    machine starts a loop. They are listed as skipped, unanswered."""
    box = write_box(
        tmp_path / "inbox.mbox",
        message(b"Alice <alice@players.example>", n=1),
        message(b"Mail Delivery System <MAILER-DAEMON@mx.players.example>", n=2),
        message(b"postmaster@players.example", n=3),
        message(b"Bob <bob@players.example>", extra=b"Auto-Submitted: auto-replied\n", n=4),
        message(b"Carl <carl@players.example>", extra=b"Auto-Submitted: no\n", n=5),
    )
    replies = tmp_path / "replies"
    result = run(
        "batch", box, *ARGS, "--format", "json", "--replies", replies, "--organizer", ORGANIZER
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert [e["source"]["from"] for e in data["entries"]] == [
        "alice@players.example",
        "carl@players.example",
    ]
    skipped = {s["file"]: s["reason"] for s in data["skipped"]}
    assert "a bounce" in skipped["inbox.mbox#2"] and "a bounce" in skipped["inbox.mbox#3"]
    assert "Auto-Submitted: auto-replied" in skipped["inbox.mbox#4"]
    sent = [reply_to(p) for p in sorted(replies.glob("reply-*.eml"))]
    assert sent == [["alice@players.example"], ["carl@players.example"]]
    for n in (2, 3, 4):
        assert f"no reply to inbox.mbox#{n}: " in result.stderr


FORGED = (
    b"Hello, my game is below.\n\n"
    b"From eve@evil.example Mon Dec  7 10:00:00 2026\n"  # not escaped as >From
    b"From: Bob <bob@victim.example>\nSubject: my game\n\n"
)


@pytest.mark.parametrize("length", [True, False], ids=["content-length", "no-length"])
def test_an_unescaped_from_line_forges_no_message(length: bool, tmp_path: Path) -> None:
    """An unescaped `From ` line inside a body split the message into a second one, from
    any address it liked, which was answered. A Content-Length the mailbox gives is used;
    without one, a split with no Date and no Message-ID of its own is flagged, unanswered."""
    body = FORGED + ALICE
    extra = b"Content-Length: %d\n" % len(body) if length else b""
    data = b"From alice@players.example Mon Dec  7 10:00:00 2026\n"
    data += message(b"Alice <alice@players.example>", body, extra=extra) + b"\n"
    data += b"From carl@players.example Mon Dec  7 10:00:00 2026\n"
    data += message(b"Carl <carl@players.example>", n=2) + b"\n"
    (tmp_path / "inbox.mbox").write_bytes(data)
    replies = tmp_path / "replies"
    result = run(
        "batch", tmp_path / "inbox.mbox", *ARGS, "--format", "json",
        "--replies", replies, "--organizer", ORGANIZER,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    found = json.loads(result.stdout)
    senders = [e["source"]["from"] for e in found["entries"]]
    sent = sorted(reply_to(p)[0] for p in replies.glob("reply-*.eml"))
    assert "bob@victim.example" not in senders and "bob@victim.example" not in sent
    assert "carl@players.example" in senders and "carl@players.example" in sent
    if length:  # the body read whole: Alice's record is in it
        assert senders == ["alice@players.example", "carl@players.example"]
    else:
        (forged,) = [s for s in found["skipped"] if s["file"] == "inbox.mbox#2"]
        assert "looks split off the message before it" in forged["reason"]


# -- 4. 7. 8. 11. What a message costs ----------------------------------------------------

HEADERS = message(b"Eve <eve@players.example>", b"").split(b"MIME-Version")[0]


def _read(data: bytes) -> tuple[float, str]:
    """One message read as a batch reads it: the CPU seconds it took, and what it became
    (the first error's message, or why it was skipped)."""
    from validator.check.file import Checker
    from validator.contest.mail import RawMessage, read_message

    checker = Checker.create(CHALLENGE, None, root=ROOT)
    started = time.process_time()
    reading = read_message(checker, RawMessage("inbox.mbox#1", data, ROOT))
    spent = time.process_time() - started
    error = reading.result.error if reading.result is not None else None
    return spent, error.message if error is not None else reading.skipped or "valid"


@pytest.mark.parametrize(
    "html",
    ["<x" * 50_000, '<a b="' * 20_000, "<!--" * 50_000, "<![CDATA[" * 20_000, "<" + "a" * 200_000],
    ids=["unclosed-tags", "unclosed-quotes", "comments", "cdata", "one-long-tag"],
)
def test_an_html_body_costs_linear_time_and_is_made_text_once(
    html: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A text/html body of `<x` 50,000 times (100 KB) cost 9.6 s in the HTML-to-text step,
    800 KB of CDATA-like text 514 s, and it was made text twice per reading. Linear now,
    and once: the record and the language read the same text."""
    from validator.contest import mail
    from validator.contest.body import html_text as real

    made: list[int] = []

    def counted(text: str) -> str:
        made.append(len(text))
        return real(text)

    monkeypatch.setattr(mail, "html_text", counted)
    data = HEADERS + b"MIME-Version: 1.0\nContent-Type: text/html; charset=utf-8\n\n"
    record = b"<p>" + ALICE.replace(b"\n", b"<br>") + b"</p>"
    spent, said = _read(data + record + html.encode())
    assert said == "valid" and len(made) == 1
    assert spent < 1.0, f"{spent:.2f} s"


def test_the_html_text_is_what_a_browser_shows() -> None:
    from validator.contest.body import html_text

    text = html_text(
        "<style>p { x: '<p>' }</style><SCRIPT>if (a<b) { '</p>' }</SCRIPT><!-- <p>1: 6 6 6 -->"
        "<P class=a>1: 1 4 6<BR/>2: 5 5 3</P><pre>3:  4 4 1</pre><table><tr><td>a</td><td>b"
        "</td></tr></table>x &lt;y&gt; &amp; <![CDATA[ 6 6 6 ]]>z"
    )
    assert [line for line in text.splitlines() if line] == [
        "1: 1 4 6",
        "2: 5 5 3",
        "3:  4 4 1",
        "a b",
        "x <y> & z",
    ]


def _parts(count: int, newline: bytes, ctype: bytes = b"text/plain") -> bytes:
    body = (
        b"--b" + newline + b"Content-Type: " + ctype + newline + newline + b"hi" + newline
    ) * count
    head = HEADERS + b'MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="b"\n\n'
    return head + body + b"--b--" + newline


@pytest.mark.parametrize(
    ("data", "said"),
    [
        # Bare CR line ends: the parts guard counted `\n--` only (500,000 parts: 8.5 s).
        (_parts(200_000, b"\r"), "far more parts than the 200 read"),
        # A Content-Type of 16,000 `;` in each of 15 parts (0.75 s a part).
        (_parts(15, b"\n", b"text/plain" + b";" * 16_000), "more than 100 parameters"),
        # Nesting written in capitals: the guard counted `multipart/` in lower case only.
        (
            HEADERS
            + b'Content-Type: MULTIPART/MIXED; boundary="b0"\n\n'
            + b"".join(
                b'--b%d\nContent-Type: MULTIPART/MIXED; boundary="b%d"\n\n' % (n, n + 1)
                for n in range(1_000)
            ),
            "far more parts than the 200 read",
        ),
        (
            HEADERS
            + b"Content-Type: MESSAGE/RFC822\n\n"
            + b"Content-Type: Message/Rfc822\n\n" * 1_000,
            "far more parts than the 200 read",
        ),
        # 4,000 `(` in a Content-Type: the parse of its comments recursed until it failed.
        (HEADERS + b"Content-Type: text/plain" + b"(" * 4_000 + b"\n\nhi\n", "parameters"),
    ],
    ids=["bare-cr-parts", "semicolons", "upper-case-nesting", "upper-case-forwards", "parens"],
)
def test_mime_that_costs_more_than_linear_time_is_refused_quickly(data: bytes, said: str) -> None:
    spent, message_ = _read(data)
    assert said in message_ and "please report it" not in message_
    assert spent < 1.0, f"{spent:.2f} s"


# -- 10. The site's address scrub ---------------------------------------------------------


def test_the_site_hides_every_sender_in_one_pass_whatever_their_number(tmp_path: Path) -> None:
    """The scrub ran one pattern per sender over every page: 150 senders cost 63.6 s of
    CPU for the site, 2,000 would take hours. One pass a page now, and it still hides
    every sender's address as written, in other case, or HTML-escaped, also where it is
    no address in shape (a host without a dot, a quote in it, a letter whose lower case
    is two letters: "İ" is "i" and a combining dot)."""
    from dataclasses import replace

    from validator.contest.batch import Batch
    from validator.contest.draw import load_results
    from validator.render.site import SiteWriter

    box = write_box(tmp_path / "inbox.mbox", message(b"Alice <alice@players.example>"))
    out = tmp_path / "results.json"
    assert run("batch", box, *ARGS, "--output", out).exit_code == 0
    (alice,) = load_results(out)
    assert alice.source is not None
    odd = [
        "bob@localhost",
        "o'neil&co@players.example",
        "Zed.Q@Players.Example",
        "d'İris@players.example",
    ]
    addresses = odd + [f"p{n}.player@host{n % 13}.example" for n in range(2_000)]
    entries = tuple(
        replace(alice, file=f"inbox.mbox#{n}", source=replace(alice.source, address=a))
        for n, a in enumerate(addresses, start=1)
    )
    writer = SiteWriter(
        tmp_path / "site",
        Batch(entries, (), ()),
        name=None,
        dice=None,
        rules=None,
        draw=(None, None),
    )
    shown = (
        "<p>mail BOB@LOCALHOST or o&#x27;neil&amp;co@players.example or zed.q@players.example"
        " or d&#x27;İris@players.example</p>"
    )
    page = (shown + "<div>1: 1 4 6 p1999.player@host9.exampl</div>" * 4_000)[:200_000]
    started = time.process_time()
    blotted = writer.blot(page + "p1999.player@host10.example", "[hidden]")
    spent = time.process_time() - started
    assert blotted.startswith("<p>mail [hidden] or [hidden] or [hidden] or [hidden]</p>")
    assert blotted.endswith("[hidden]") and "@localhost" not in blotted
    assert spent < 1.0, f"{spent:.2f} s"


def test_a_run_killed_in_the_middle_of_the_swap_loses_no_folder(tmp_path: Path) -> None:
    """A run killed outright (SIGKILL, nothing to hold it back) between the swap's two
    renames left the old site only in its hidden `.site.XXXX.old` folder: the next run
    takes it back, carries over what it holds, and leaves nothing hidden behind."""
    site = tmp_path / "site"
    left = tmp_path / ".site.k1ll3d.old" / "folder"
    (left / "entries").mkdir(parents=True)
    (left / "CNAME").write_text("results.example")
    (left / "entries" / "0007.html").write_text("an earlier run's page")
    (tmp_path / ".site.k1ll3d.new").mkdir()  # the new one it was about to swap in
    box = write_box(tmp_path / "inbox.mbox", message(b"Alice <alice@players.example>"))
    result = run("batch", box, *ARGS, "--site", site)
    assert result.exit_code == 0, result.output
    assert (site / "CNAME").read_text() == "results.example"
    assert sorted(p.name for p in (site / "entries").iterdir()) == ["0001.html"]
    assert "removed 1 report page of an earlier run" in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == [".site.lock"]
