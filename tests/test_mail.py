"""Contest entries by e-mail: an inbox written with the email package (tests/mail_helpers.py)
checked as an mbox, a Maildir and a folder of .eml files, its deadline and resubmissions,
the replies and the results site's files."""

from __future__ import annotations

import base64
import json
import mailbox
import os
import re
from email import policy
from email.parser import BytesParser
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner
from mail_helpers import (
    DEADLINE,
    DICE,
    ILLEGAL,
    MAX_SIZE,
    Mail,
    _message,
    alice,
    body_block,
    game,
    inbox,
    read_record_score,
    write_eml,
    write_maildir,
    write_mbox,
)
from tiers import examples

from validator.cli import main
from validator.contest.body import find_records, html_text
from validator.contest.draw import eligible, load_results

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = json.loads((ROOT / "schemas" / "batch.schema.json").read_text())
ORGANIZER = "Winter Challenge <challenge@organizers.example>"
ARGS = ["--dice", str(DICE), "--max-size", f"{MAX_SIZE}", "--deadline", DEADLINE.isoformat()]


def run(*args: object) -> Any:
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


@pytest.fixture(scope="module")
def mails() -> list[Mail]:
    return inbox()


@pytest.fixture(scope="module")
def mbox(mails: list[Mail], tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_mbox(mails, tmp_path_factory.mktemp("mbox") / "inbox.mbox")


def batch(source: Path, *more: object) -> dict[str, Any]:
    result = run("batch", source, *ARGS, "--format", "json", "--jobs", "1", *more)
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def reply_text(path: Path) -> str:
    """The plain text of a reply `batch --replies` wrote, as a mail client shows it."""
    reply = BytesParser(policy=policy.default).parsebytes(path.read_bytes())
    part = reply.get_body(("plain",))
    assert part is not None, path
    return str(part.get_content())


@pytest.fixture(scope="module")
def results(mbox: Path) -> dict[str, Any]:
    return batch(mbox)


def by_key(mails: list[Mail], data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    ids = {m.message["Message-ID"]: m.key for m in mails}
    return {ids[e["source"]["message_id"]]: e for e in data["entries"]}


def test_every_kind_of_mail(mails: list[Mail], results: dict[str, Any]) -> None:
    entries = by_key(mails, results)
    skipped = {s["message_id"]: s for s in results["skipped"]}
    assert len(entries) + len(skipped) == len(mails)
    for key in ("german-qp", "french-b64", "html-only", "alternative", "quoting", "hostile"):
        assert entries[key]["verdict"] == "valid", (key, entries[key]["error"])
        assert entries[key]["source"]["part"] == "body"
    assert entries["german-qp"]["player"] == "Bernd Müller"
    assert entries["french-b64"]["player"] == "Chloé Durand"
    assert entries["french-b64"]["claimed_score"] == entries["french-b64"]["score"]
    # The quoted older record is not read: the score is the new game's.
    assert entries["quoting"]["score"] == read_record_score(game(11, "text", "Kim"))
    for fmt, ext in (("yaml", "yaml"), ("json", "json"), ("csv", "csv"), ("text", "txt")):
        e = entries[f"attach-{fmt}"]
        assert e["verdict"] == "valid", e["error"]
        assert e["source"]["part"] == f"game.{ext}"
        assert re.fullmatch(rf"inbox\.mbox#\d+/game\.{ext}", e["file"])
    assert entries["attach-sniffed"]["verdict"] == "valid"
    assert entries["attach-sniffed"]["source"]["part"] == "record"


def test_two_records_oversized_typo_and_illegal(mails: list[Mail], results: dict[str, Any]) -> None:
    entries = by_key(mails, results)
    two = entries["two-records"]
    assert two["verdict"] == "malformed" and two["error"]["code"] == "E008"
    assert "first.yaml" in two["error"]["message"] and "second.txt" in two["error"]["message"]
    big = entries["oversized"]
    assert big["verdict"] == "malformed" and big["error"]["code"] == "E001"
    assert "not read" in big["error"]["message"]
    typo = entries["typo"]
    assert typo["verdict"] == "malformed"
    assert "did you mean 'to'" in typo["error"]["message"]
    part = next(m for m in mails if m.key == "typo").message.get_body()
    assert part is not None
    body = part.get_content()
    assert " ot " in body.splitlines()[typo["error"]["line"] - 1]
    assert entries["illegal"]["verdict"] == "invalid"
    assert entries["illegal"]["error"]["code"] == "E205"


def test_questions_and_archives_are_skipped_with_their_message_id(
    mails: list[Mail], results: dict[str, Any]
) -> None:
    ids = {m.key: m.message["Message-ID"] for m in mails}
    skipped = {s["message_id"]: s for s in results["skipped"]}
    assert set(skipped) == {ids["question"], ids["zip"]}
    assert skipped[ids["question"]]["reason"].startswith("no record")
    assert "game.zip is not opened" in skipped[ids["zip"]]["reason"]
    assert results["summary"]["skipped"] == 2


def test_deadline_resubmission_and_copies(mails: list[Mail], results: dict[str, Any]) -> None:
    entries = by_key(mails, results)
    first, second = entries["alice-first"], entries["alice-resubmission"]
    assert first["superseded"] and first["rank"] is None and not first["late"]
    assert not second["superseded"] and second["rank"] == 1
    late = entries["late"]
    assert late["late"] and late["rank"] is None and late["verdict"] == "valid"
    assert entries["copy"]["file"] in second["copies"]
    assert first["file"] in entries["copy"]["copies"]
    ranked = [e for e in results["entries"] if e["rank"] is not None]
    assert all(not e["late"] and not e["superseded"] for e in ranked)
    assert set(results["summary"]["reached"]) == {second["file"], entries["copy"]["file"]}


def test_without_a_deadline_nothing_is_late(mails: list[Mail], mbox: Path) -> None:
    result = run(
        "batch", mbox, "--dice", DICE, "--max-size", MAX_SIZE, "-j", "1", "--format", "json"
    )
    assert result.exit_code == 0, result.output
    entries = by_key(mails, json.loads(result.stdout))
    assert not entries["late"]["late"] and entries["late"]["rank"] is not None


def test_hostile_names_and_attachment_names(mails: list[Mail], results: dict[str, Any]) -> None:
    entries = by_key(mails, results)
    hostile = entries["hostile"]
    for text in (hostile["player"], hostile["source"]["name"]):
        assert not re.search("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]", text), text
    assert "pwned" in hostile["player"]
    traversal = entries["traversal"]
    assert traversal["source"]["part"] == "x.yaml"
    assert traversal["file"].endswith("/x.yaml") and ".." not in traversal["file"]


def test_the_sources_fields(mails: list[Mail], results: dict[str, Any]) -> None:
    jsonschema.Draft202012Validator(SCHEMA).validate(results)
    entries = by_key(mails, results)
    source = entries["german-qp"]["source"]
    assert source == {
        "kind": "email",
        "message_id": "<msg2@players.example>",
        "from": "bernd@players.example",
        "name": "Bernd Müller",
        "date": "2026-12-04T09:02:00+01:00",
        "part": "body",
    }
    assert entries["german-qp"]["file"] == "inbox.mbox#2"


def _projection(data: dict[str, Any]) -> tuple[list[tuple[Any, ...]], list[Any]]:
    keys = ("verdict", "score", "rank", "late", "superseded", "player", "end")
    entries = sorted(
        (e["source"]["message_id"], e["source"]["part"], *(e[k] for k in keys))
        for e in data["entries"]
    )
    return entries, sorted(s["message_id"] for s in data["skipped"])


def test_mbox_maildir_and_eml_folder_give_the_same_entries(
    mails: list[Mail], results: dict[str, Any], tmp_path: Path
) -> None:
    maildir = batch(write_maildir(mails, tmp_path / "Maildir"))
    eml = batch(write_eml(mails, tmp_path / "eml"))
    assert _projection(maildir) == _projection(results)
    assert _projection(eml) == _projection(results)
    assert {e["file"].split("#")[0] for e in maildir["entries"]} == {"Maildir"}
    assert any(e["file"].startswith("002-german-qp.eml#1") for e in eml["entries"])


def test_a_txt_attachment_without_dice_lines_is_no_record(tmp_path: Path) -> None:
    (first,) = inbox("alice-first")
    mail = first.message
    mail.add_attachment("Some notes about my game.\n", filename="notes.txt")
    data = batch(write_mbox([Mail("notes", mail)], tmp_path / "inbox.mbox"))
    (entry,) = data["entries"]
    assert entry["source"]["part"] == "body" and entry["verdict"] == "valid"


def test_a_body_in_an_unknown_charset_is_still_read(tmp_path: Path) -> None:
    (mail,) = inbox("alice-first")
    raw = mail.data.replace(b'charset="utf-8"', b'charset="x-no-such-charset"', 1)
    assert raw != mail.data
    data = batch(write_mbox([Mail("charset", mail.message, raw)], tmp_path / "inbox.mbox"))
    (entry,) = data["entries"]
    assert entry["verdict"] == "valid" and entry["score"] == 340


def test_one_eml_file_is_a_source_too(mails: list[Mail], tmp_path: Path) -> None:
    folder = write_eml(mails[1:2], tmp_path / "one")
    (path,) = folder.glob("*.eml")
    data = batch(path)
    assert [e["file"] for e in data["entries"]] == [f"{path.name}#1"]
    assert data["entries"][0]["player"] == "Bernd Müller"


def test_a_folder_may_mix_records_and_eml_files(mails: list[Mail], tmp_path: Path) -> None:
    folder = write_eml(mails[:3], tmp_path / "entries")
    (folder / "zoe.yaml").write_text(game(99, "yaml", "Zoe"))
    (folder / "notes.md").write_text("not a record\n")
    data = batch(folder)
    files = {e["file"] for e in data["entries"]}
    assert "zoe.yaml" in files and "001-alice-first.eml#1" in files
    assert [s["file"] for s in data["skipped"]] == ["notes.md"]
    zoe = next(e for e in data["entries"] if e["file"] == "zoe.yaml")
    assert zoe["source"] is None and not zoe["late"]


def test_the_draw_leaves_out_late_and_superseded(mbox: Path, tmp_path: Path) -> None:
    out = tmp_path / "results.json"
    result = run("batch", mbox, *ARGS, "--output", out, "--jobs", "1")
    assert result.exit_code == 0, result.output
    entries = load_results(out)
    assert any(e.late for e in entries) and any(e.superseded for e in entries)
    files = {e.file for e in eligible(entries, min_score=0)}
    assert files and all(not (e.late or e.superseded) for e in entries if e.file in files)
    drawn = run("draw", out, "--winners", "20", "--seed", "s", "--min-score", "0")
    assert drawn.exit_code == 0, drawn.output
    late = next(e.file for e in entries if e.late)
    superseded = next(e.file for e in entries if e.superseded)
    won = re.findall(r"^  \d+\. .*?(\S+)  \(\d+ points\)$", drawn.output, re.M)
    assert won and late not in won and superseded not in won
    # Said why, where the draw lists what it left out.
    assert f"  {late}: late: its message is dated after the deadline, or not dated" in drawn.output
    assert f"  {superseded}: superseded: the same sender sent a later entry in time" in drawn.output


def test_the_draw_reads_late_and_superseded_back_from_csv(mbox: Path, tmp_path: Path) -> None:
    out = tmp_path / "results.csv"
    assert run("batch", mbox, *ARGS, "--output", out, "--jobs", "1").exit_code == 0
    entries = load_results(out)
    assert sum(e.late for e in entries) == 1 and sum(e.superseded for e in entries) == 1
    assert "@players.example>" in out.read_text()  # the Message-IDs
    assert "alice@players.example" not in out.read_text().lower()


def test_a_message_over_the_cap_is_read_no_further_than_its_headers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import validator.contest.mail as mail_module

    monkeypatch.setattr(mail_module, "MIN_MESSAGE_BYTES", 1)
    mails = inbox("alice-first")
    path = write_mbox(mails, tmp_path / "big.mbox")
    data = batch(path, "--max-size", "100")
    (entry,) = data["entries"]
    assert (
        entry["verdict"] == "malformed"
        and "not read beyond its headers" in (entry["error"]["message"])
    )
    assert entry["source"]["message_id"] == "<msg1@players.example>"


# -- Replies (every mail's reply: tests/test_mail_replies.py, slow) -----------------------


def test_a_reply_to_a_hostile_mail_has_exactly_its_headers(tmp_path: Path) -> None:
    mails = inbox("hostile", "question")
    path = write_mbox(mails, tmp_path / "inbox.mbox")
    out = tmp_path / "replies"
    result = run("batch", path, *ARGS, "--replies", out, "--organizer", ORGANIZER, "-j", "1")
    assert result.exit_code == 0, result.output
    question, hostile = (
        BytesParser(policy=policy.default).parsebytes(p.read_bytes())
        for p in sorted(out.glob("reply-*.eml"))
    )
    for reply in (hostile, question):
        assert set(reply.keys()) == {
            "From", "To", "Subject", "Date", "Message-ID", "In-Reply-To", "References",
            "MIME-Version", "Content-Type",
        }  # fmt: skip
    assert hostile["Subject"] == "Re: hello Bcc: victim@example.org"
    assert hostile["Bcc"] is None and hostile["In-Reply-To"] == "<msg17@players.example>"
    name = hostile["To"].addresses[0].display_name
    assert "\x1b" not in name and "\u202e" not in name and "pwned" in name
    assert [p.get_filename() for p in hostile.iter_attachments()] == ["report.html"]
    text = question.get_body(("plain",))
    assert text is not None and "We found no record" in text.get_content()
    # Nothing was checked, so the reply does not say it was.
    assert "thank you for your message" in text.get_content()
    assert "entry" not in text.get_content().split("\n\n")[1], text.get_content()
    assert "We checked it" not in text.get_content()


def _ew(text: str) -> str:
    return "=?utf-8?b?" + base64.b64encode(text.encode()).decode() + "?="


def _the_reply(sender: str, subject: str, tmp_path: Path) -> bytes:
    """The one reply to a mail from `sender` (a From value) with Alice's game in its body."""
    body = (ROOT / "examples" / "alice.txt").read_text(encoding="utf-8")
    raw = (
        f"From: {sender}\nSubject: {subject}\nMessage-ID: <m@p.example>\n"
        "Date: Mon, 1 Dec 2025 10:00:00 +0000\nContent-Type: text/plain; charset=utf-8\n\n" + body
    )
    box = mailbox.mbox(tmp_path / "inbox.mbox")
    box.add(raw.encode("utf-8"))
    box.close()
    out = tmp_path / "replies"
    result = run(
        "batch", tmp_path / "inbox.mbox", *ARGS, "--replies", out, "--organizer", ORGANIZER
    )
    assert result.exit_code == 0, result.output
    (reply,) = out.glob("reply-*.eml")
    return reply.read_bytes()


@pytest.mark.parametrize(
    ("sender", "subject"),
    [
        # An encoded word holding another one, which holds a line break and a header.
        ("Eve <a0@players.example>", _ew("=?utf-8?q?nested=0D=0ABcc:_victim@x.example?=")),
        # A line break in an encoded word beside one of an unknown charset.
        ("Eve <a1@players.example>", "=?utf-8?q?hi=0D=0ABcc:_victim@x.example?= =?x-bogus?q?z?="),
        # The same in the display name, and a body written through the subject.
        (_ew("=?utf-8?q?Eve=0D=0ABcc:_victim@x.example?=") + " <a3@players.example>", "dn"),
        ("Eve <a5@players.example>", "=?utf-8?q?hi=0D=0A=0D=0AInjected_body?= =?x-bogus?q?z?="),
    ],
)
def test_no_encoded_word_a_sender_nests_adds_a_header(
    sender: str, subject: str, tmp_path: Path
) -> None:
    """The email package decodes the encoded words of a header value it is given: text
    that decodes to another one (or that our decoding left, beside an unknown charset)
    became a Bcc line, or body text, in the reply."""
    data = _the_reply(sender, subject, tmp_path)
    parsed = BytesParser(policy=policy.default).parsebytes(data)
    assert set(parsed.keys()) == {
        "From", "To", "Subject", "Date", "Message-ID", "In-Reply-To", "References",
        "MIME-Version", "Content-Type",
    }  # fmt: skip
    assert b"\nBcc:" not in data and b"\nInjected" not in data
    assert "victim" not in " ".join(a.addr_spec for a in parsed["To"].addresses)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="links and named pipes are POSIX")
def test_a_maildir_follows_no_link_and_reads_no_fifo(mails: list[Mail], tmp_path: Path) -> None:
    """A message in new/ or cur/ that is a link (to a file outside, to /etc/passwd) was
    read through it, and a FIFO there held the batch for ever; both are refused now."""
    box = write_maildir(mails[:1], tmp_path / "Maildir")
    outside = tmp_path / "outside.eml"
    outside.write_bytes(bytes(mails[0].message).replace(b"Alice Example", b"SECRETMARK"))
    (box / "new" / "1.link").symlink_to(outside)
    (box / "cur" / "2.link:2,S").symlink_to("/etc/passwd")
    os.mkfifo(box / "new" / "3.fifo")
    data = batch(box)
    said = {e["file"]: e["error"]["message"] if e["error"] else None for e in data["entries"]}
    assert len(said) == 4 and list(said.values()).count(None) == 1, said
    assert sorted(m for m in said.values() if m) == [
        "the message file is a symbolic link; links are not followed",
        "the message file is a symbolic link; links are not followed",
        "the message file is not a regular file (a device, FIFO or socket)",
    ]
    assert "SECRETMARK" not in json.dumps(data) and "root:" not in json.dumps(data)


def test_no_address_reaches_the_site_not_even_of_a_sender_without_an_entry(
    mails: list[Mail], tmp_path: Path
) -> None:
    """Carol only asked a question (no entry, so her address was not among those hidden);
    another record names her address as its player: it stood in that entry's page."""
    question = _message(40, "Carol", "carol@victim.example", 4)
    question.set_content("Hello, how do I take part?\n")
    naming = _message(41, "Eve", "eve@players.example", 4)
    rows = body_block(alice("text")).replace(
        "player: Alice Example", "player: carol@victim.example"
    )
    naming.set_content("Hi,\n\n" + rows + "\n")
    path = write_mbox([Mail("q", question), Mail("n", naming)], tmp_path / "inbox.mbox")
    site = tmp_path / "site"
    assert run("batch", path, *ARGS, "--site", site).exit_code == 0
    pages = [p.read_text(encoding="utf-8") for p in site.rglob("*.html")]
    assert len(pages) == 3  # the leaderboard, the entry's page and play.html
    assert not any(re.search(r"[\w.+-]+@[\w-]+\.[\w.-]+", page) for page in pages)
    # The entry whose record names an address as its player is named by its number.
    assert any("<h1><bdi>Player 1</bdi></h1>" in page for page in pages)


def test_a_mailed_record_never_has_its_dice_file_read(tmp_path: Path) -> None:
    """Without --dice, a mailed `dice_file: next-dice.txt` was read from the mailbox's
    folder (the organizer's): one row of a secret file in the reply, and which files exist
    by the code they gave."""
    (tmp_path / "next-dice.txt").write_text((ROOT / "examples" / "challenge.txt").read_text())
    text = (ROOT / "examples" / "alice.txt").read_text(encoding="utf-8")
    mails = []
    for n, named in enumerate(("next-dice.txt", "no-such-file.txt")):
        mail = _message(50 + n, "Eve", f"eve{n}@players.example", 4)
        rows = body_block(text).replace("dice_file: challenge.txt", f"dice_file: {named}")
        mail.set_content("Hi,\n\n" + rows + "\n")
        mails.append(Mail(named, mail))
    path = write_mbox(mails, tmp_path / "inbox.mbox")
    result = run("batch", path, "--format", "json", "--jobs", "1")
    assert result.exit_code == 0, result.output
    errors = [e["error"] for e in json.loads(result.stdout)["entries"]]
    assert [e["code"] for e in errors] == ["E004", "E004"]  # the same, file or no file
    assert all("mailed record" in e["message"] for e in errors)


def _raw_mail(headers: str, body: str) -> bytes:
    head = "From: Eve <eve@players.example>\nSubject: x\nMessage-ID: <h@p.example>\n"
    return (head + "Date: Mon, 1 Dec 2025 10:00:00 +0000\n" + headers + "\n" + body).encode()


def test_a_long_line_in_a_body_is_no_header(tmp_path: Path) -> None:
    """Only header blocks count towards the header limits: a body line of `key: ...`
    longer than any header may be (a pasted minified JSON) is read as body."""
    body = (
        "Hello,\n\nnote: " + "x" * 40_000 + "\n\n" + (ROOT / "examples" / "alice.txt").read_text()
    )
    box = mailbox.mbox(tmp_path / "inbox.mbox")
    box.add(_raw_mail("Content-Type: text/plain; charset=utf-8\n", body))
    box.close()
    (entry,) = batch(tmp_path / "inbox.mbox")["entries"]
    assert entry["verdict"] == "valid", entry["error"]


@pytest.mark.parametrize(
    ("data", "said"),
    [
        # 20,000 parameters: the email package's parse of them grows faster than linearly
        # (60,000 took 40 s and 500 MB, even for a headers-only parse).
        (
            _raw_mail("Content-Type: text/plain" + "; a=b" * 20_000 + "\n", "hi\n"),
            "the headers of the message are longer than",
        ),
        # 1,000 multipart parts nested in each other: the parse recursed until it failed.
        (
            _raw_mail(
                'Content-Type: multipart/mixed; boundary="b0"\n',
                "".join(
                    f'--b{n}\nContent-Type: multipart/mixed; boundary="b{n + 1}"\n\n'
                    for n in range(1_000)
                ),
            ),
            "far more parts than the",
        ),
        # 1,000 forwarded messages nested in each other: the same recursion.
        (
            _raw_mail(
                "Content-Type: message/rfc822\n",
                "Content-Type: message/rfc822\n\n" * 1_000 + "hi\n",
            ),
            "far more parts than the",
        ),
        # 20 parts with 15 KiB headers each: no field over its limit, all of them over theirs.
        (
            _raw_mail(
                'Content-Type: multipart/mixed; boundary="b"\n',
                "".join(
                    "--b\nContent-Type: text/plain" + "; a=b" * 3_000 + "\n\nhi\n"
                    for _ in range(20)
                )
                + "--b--\n",
            ),
            "the headers of the message are longer than",
        ),
    ],
    ids=["parameters", "nesting", "forwarded", "many-headers"],
)
def test_a_message_too_heavy_to_parse_is_refused_and_still_answered(
    data: bytes, said: str, tmp_path: Path
) -> None:
    box = mailbox.mbox(tmp_path / "inbox.mbox")
    box.add(data)
    box.close()
    (entry,) = batch(tmp_path / "inbox.mbox")["entries"]
    assert entry["verdict"] == "malformed" and said in entry["error"]["message"]
    assert entry["source"]["from"] == "eve@players.example"  # so that a reply goes out


def test_replies_need_an_organizer_and_a_mailbox(mbox: Path, tmp_path: Path) -> None:
    result = run("batch", mbox, *ARGS, "--replies", tmp_path / "r")
    assert result.exit_code == 2 and "--organizer" in result.output
    folder = tmp_path / "entries"
    folder.mkdir()
    result = run("batch", folder, *ARGS, "--replies", tmp_path / "r", "--organizer", ORGANIZER)
    assert result.exit_code == 2 and "mbox" in result.output
    # An organizer that would smuggle a header, or name two From addresses, is refused.
    for organizer, says in (
        ("a@example.org, c@example.org", "holds more than one address"),
        ("x@y.example\nBcc: z@evil.example", "holds a line break or a control character"),
    ):
        result = run("batch", mbox, *ARGS, "--replies", tmp_path / "r", "--organizer", organizer)
        assert result.exit_code == 2 and f"--organizer: {organizer!r} {says}" in result.output
        assert not (tmp_path / "r").exists()


def test_the_results_never_overwrite_the_mailbox(mbox: Path, tmp_path: Path) -> None:
    """A real mbox often has no suffix: `--output` naming it is refused, the mbox kept."""
    box = tmp_path / "Inbox"
    box.write_bytes(mbox.read_bytes())
    result = run("batch", box, *ARGS, "--format", "json", "--output", box)
    assert result.exit_code == 2 and "is an input of this command" in result.output
    assert box.read_bytes() == mbox.read_bytes()


def test_site_and_replies_stay_out_of_the_source_and_the_replies_out_of_the_site(
    mails: list[Mail], tmp_path: Path
) -> None:
    folder = write_eml(mails, tmp_path / "eml")
    before = sorted(p.name for p in folder.iterdir())
    into_source = run("batch", folder, *ARGS, "--replies", folder, "--organizer", ORGANIZER)
    assert into_source.exit_code == 2 and "--replies" in into_source.output
    holding_it = run("batch", folder, *ARGS, "--site", tmp_path)
    assert holding_it.exit_code == 2 and "--site" in holding_it.output
    # Inside the source: the next run read the replies (and their reports) as entries.
    inside = run("batch", folder, *ARGS, "--replies", folder / "r", "--organizer", ORGANIZER)
    assert inside.exit_code == 2 and "lies inside" in inside.output
    site = tmp_path / "site"
    for replies in (site, site / "replies"):
        published = run(
            "batch", folder, *ARGS, "--site", site, "--replies", replies, "--organizer", ORGANIZER
        )
        assert published.exit_code == 2 and "addresses" in published.output
    assert sorted(p.name for p in folder.iterdir()) == before and not site.exists()


def test_a_second_run_leaves_no_reply_or_page_of_the_first(
    mails: list[Mail], tmp_path: Path
) -> None:
    """Into the same folders, a run with fewer messages removes the earlier run's replies
    and report pages that it did not write again, and nothing else there."""
    site, replies = tmp_path / "site", tmp_path / "replies"
    out = ("--site", site, "--replies", replies, "--organizer", ORGANIZER, "--jobs", "1")
    # Three messages, then one: the second run removes two replies (each reply and page is
    # a report to render, so no more messages than that).
    more = write_mbox(mails[:3], tmp_path / "more.mbox")
    assert run("batch", more, *ARGS, *out).exit_code == 0
    assert len(list(replies.glob("reply-*.eml"))) == 3
    pages_before = len(list((site / "entries").iterdir()))
    (replies / "notes.txt").write_text("mine")
    (replies / "reply-draft.eml").write_text("mine")
    fewer = write_mbox(mails[:1], tmp_path / "fewer.mbox")
    results = tmp_path / "results.json"
    again = run("batch", fewer, *ARGS, *out, "--format", "json", "--output", results)
    assert again.exit_code == 0, again.output
    kept = sorted(p.name for p in replies.iterdir())
    assert kept == ["notes.txt", "replies.mbox", "reply-0001.eml", "reply-draft.eml"]
    assert "removed 2 replies of an earlier run" in again.stderr
    pages = sorted(p.name for p in (site / "entries").iterdir())
    entries = json.loads(results.read_text())["entries"]
    assert pages == [f"{n:04d}.html" for n in range(1, len(entries) + 1)]
    assert len(pages) < pages_before and "report pages of an earlier run" in again.stderr


# -- Bodies --------------------------------------------------------------------------------


def test_greetings_signatures_and_quotes_are_not_the_record() -> None:
    body = (
        "Bonjour,\n\nJoueur: Chloé\n1: 1 4 6   x 1/4 -> 1/1 (6)\n2: 5 5 3\nTotal: 30\n\n"
        "Cordialement\n-- \n1: 1 4 6 x 1/4\n"
    )
    (record,) = find_records(body)
    assert (record.first_line, record.last_line) == (3, 6)
    assert record.text.splitlines()[0] == "" and "Cordialement" not in record.text
    for attribution in (
        "On Mon, 7 Dec 2026 at 10:00, Kim <kim@x.example> wrote:",
        "Am 07.12.2026 um 10:00 schrieb Kim <kim@x.example>:",
        "Le 7 déc. 2026 à 10:00, Kim <kim@x.example> a écrit :",
    ):
        text = f"1: 1 4 6 x 1/4 -> 1/1\n\n{attribution}\n1: 2 2 2 x 2/2\n"
        assert len(find_records(text)) == 1, attribution
    assert find_records("> 1: 1 4 6 x 1/4 -> 1/1\n") == []
    assert find_records("315 points!\nThanks\n") == []
    assert len(find_records("1: 1 4 6 x 1/4\nplayer: B\n1: 1 4 6 x 1/4\n")) == 2


def test_html_bodies_become_lines_and_nothing_runs() -> None:
    text = html_text(
        "<head><script>evil()</script></head><p>Hi</p><div>1: 1 4 6<br>2: 5 5 3</div>"
        "<blockquote>1: 6 6 6</blockquote>&amp;"
    )
    assert "evil" not in text and "6 6 6" not in text
    assert [line for line in text.splitlines() if line] == ["Hi", "1: 1 4 6", "2: 5 5 3", "&"]


def test_a_sender_without_an_address_gets_no_reply(tmp_path: Path) -> None:
    mail = inbox("alice-first")[0].message
    del mail["From"]
    mail["From"] = "undisclosed-recipients:;"
    path = write_mbox([Mail("no-address", mail)], tmp_path / "inbox.mbox")
    out = tmp_path / "replies"
    result = run("batch", path, *ARGS, "--replies", out, "--organizer", ORGANIZER, "-j", "1")
    assert result.exit_code == 0, result.output
    assert list(out.glob("*.eml")) == []
    assert "no reply to inbox.mbox#1: no address to reply to" in result.output


def test_a_name_getaddresses_gives_up_on_is_still_the_sender(tmp_path: Path) -> None:
    """`=?utf-8?q?Zed[x]Br?= <zed@...>`, a bracket in an encoded name, defeats
    `getaddresses`: the sender was lost, so a resubmission did not supersede the first
    entry and nobody got a reply."""
    mails = []
    for n, day in enumerate(("Thu, 10 Dec 2026 12:00:00 +0100", "Fri, 11 Dec 2026 12:00:00 +0100")):
        mail = inbox("alice-first")[0].message
        for header in ("From", "Date", "Message-ID"):
            del mail[header]
        mail["From"] = "=?utf-8?q?Zed[x]Br?= <zed@players.example>"
        mail["Date"] = day
        mail["Message-ID"] = f"<zed{n}@players.example>"
        mails.append(Mail(f"zed{n}", mail))
    path = write_mbox(mails, tmp_path / "inbox.mbox")
    entries = batch(path)["entries"]
    assert {e["source"]["from"] for e in entries} == {"zed@players.example"}
    assert {e["source"]["name"] for e in entries} == {"Zed[x]Br"}
    assert sorted(e["superseded"] for e in entries) == [False, True]
    out = tmp_path / "replies"
    result = run("batch", path, *ARGS, "--replies", out, "--organizer", ORGANIZER, "-j", "1")
    assert result.exit_code == 0 and len(list(out.glob("reply-*.eml"))) == 2, result.output
    reply = BytesParser(policy=policy.default).parsebytes((out / "reply-0001.eml").read_bytes())
    assert reply["To"].addresses[0].addr_spec == "zed@players.example"


def test_a_reply_lists_every_reading_problem_as_validate_does(tmp_path: Path) -> None:
    """Three problems in one typed record: the reply names all three, each with its line
    (the player should not need three rounds of mail to mend one record)."""
    rows = body_block(alice("text")).splitlines()
    broken = [row.replace(" path ", " pth ", 1) if row.startswith("3:") else row for row in rows]
    broken = ["playr: Gina" if row.startswith("player:") else row for row in broken]
    broken.append("23: 1 1 1   x 2/9 -> 1/1")
    mail = _message(1, "Gina", "gina@players.example", 3)
    mail.set_content("Hello,\n\n" + "\n".join(broken) + "\n\nGina\n")
    path = write_mbox([Mail("gina", mail)], tmp_path / "inbox.mbox")
    codes = [e["code"] for e in batch(path)["entries"][0]["errors"]]
    assert len(codes) >= 3, codes
    out = tmp_path / "replies"
    result = run("batch", path, *ARGS, "--replies", out, "--organizer", ORGANIZER, "-j", "1")
    assert result.exit_code == 0, result.output
    reply = BytesParser(policy=policy.default).parsebytes((out / "reply-0001.eml").read_bytes())
    body = reply.get_body(("plain",)).get_content()  # type: ignore[union-attr]
    said = [line for line in body.splitlines() if re.match(r"E\d{3} ", line)]
    assert [line.split()[0] for line in said] == codes, body
    assert all("(at line " in line for line in said), body


def test_a_hostile_body_is_read_no_further_than_its_bounds() -> None:
    from validator.contest.body import MAX_BODY_LINES, MAX_RECORDS

    # Twice as many lines as a body is read, each pair of them a record.
    assert len(find_records("player: x\n1: 1 2 3\n" * MAX_BODY_LINES)) == MAX_RECORDS
    late = "Hi\n" * MAX_BODY_LINES + "1: 1 4 6 x 1/4 -> 1/1\n"
    assert find_records(late) == []
    assert len(find_records("Hi\n" * (MAX_BODY_LINES - 1) + "1: 1 4 6 x 1/4\n")) == 1
    # Past its bound a body is not even split into lines (one more is read, as an
    # attribution may wrap onto it).
    from validator.contest.body import own_lines

    assert len(own_lines("Hi\r\n" * (10 * MAX_BODY_LINES))) == MAX_BODY_LINES + 1
    assert own_lines("Hi\nthere\n") == ["Hi", "there", ""]


def test_every_verdict_and_end_has_its_words_for_the_site() -> None:
    from validator.check.replay import Verdict
    from validator.engine import End
    from validator.render.texts import TEXTS

    for verdict in Verdict:
        assert f"site.verdict.{verdict.value}" in TEXTS
    for end in End:
        assert f"site.end.{end.value}" in TEXTS


def test_every_text_uses_named_placeholders_only() -> None:
    import string

    from validator.render.texts import TEXTS

    for key, text in TEXTS.items():
        for _, field, spec, conversion in string.Formatter().parse(text):
            if field is not None:
                assert field.isidentifier(), (key, field)
                assert not spec and not conversion, key


@pytest.mark.parametrize("every", examples(9, 3))
def test_broken_messages_become_results_never_errors(tmp_path: Path, every: int) -> None:
    """Every `every`-th mail of the inbox, cut and spoilt in 15 ways."""
    from validator.check.file import Checker
    from validator.contest.mail import RawMessage, read_message

    checker = Checker.create(DICE, None, root=tmp_path, max_bytes=MAX_SIZE)
    for mail in inbox()[::every]:
        data = mail.data
        for cut in (0, 7, len(data) // 3, len(data) // 2, len(data) - 5):
            for broken in (
                data[:cut],
                data[:cut] + b"\x00\xff" * 50,
                data.replace(b"\n", b"\r", 40),
            ):
                reading = read_message(checker, RawMessage("x#1", broken, tmp_path))
                assert (reading.result is None) == (reading.skipped is not None)
                if reading.result is not None and reading.result.error is not None:
                    assert "validator failed" not in reading.result.error.message, mail.key


def test_the_table_marks_late_and_superseded(mbox: Path) -> None:
    result = run("batch", mbox, *ARGS, "--jobs", "1", "--format", "table")
    assert result.exit_code == 0, result.output
    assert re.search(r"inbox\.mbox#1 \(copy, superseded\)", result.stdout)
    assert re.search(r"inbox\.mbox#15 \(late\)", result.stdout)
    assert "Not ranked: 1 late, 1 superseded" in result.stdout


def test_a_site_of_record_files_has_a_page_for_every_entry_and_none_for_others(
    tmp_path: Path,
) -> None:
    """Record files are read again for the site as the batch read them (the shown name,
    one bounded open that follows no link): a file name that is not UTF-8 still gets its
    page, and a file that is no record gets none."""
    folder = tmp_path / "entries"
    folder.mkdir()
    alice = (
        (ROOT / "examples" / "alice.yaml").read_bytes().replace(b"dice_file: challenge.txt\n", b"")
    )
    (folder / "plain.yaml").write_bytes(alice)
    (folder.joinpath(b"caf\xe9.yaml".decode("utf-8", "surrogateescape"))).write_bytes(alice)
    (folder / "README.md").write_text("# notes\n")
    site = tmp_path / "site"
    dice = ROOT / "examples" / "challenge.txt"
    result = run("batch", folder, "--dice", dice, "--site", site, "-j", "1")
    assert result.exit_code == 0, result.output
    index = (site / "index.html").read_text()
    pages = sorted(p.name for p in (site / "entries").iterdir())
    assert len(pages) == 2, pages
    for page in pages:
        assert f"entries/{page}" in index


def test_the_last_check_of_a_reply_refuses_headers_it_did_not_write() -> None:
    """The read-back check (replies._only_our_headers): an extra header, a repeated one,
    or a blank line that pushes the rest into the body all fail it."""
    from validator.render.replies import _only_our_headers

    written = ["From", "To", "Subject"]
    good = b"From: a@b.example\nTo: c@d.example\nSubject: x\n\nbody\n"
    assert _only_our_headers(good, written)
    assert not _only_our_headers(
        good.replace(b"Subject: x\n", b"Subject: x\nBcc: e@f.example\n"), written
    )
    assert not _only_our_headers(good.replace(b"To:", b"\nTo:"), written)  # headers end early
    assert not _only_our_headers(good.replace(b"To:", b"\r\nTo:"), written)  # at a CR LF too
    assert not _only_our_headers(good.replace(b"\n\nbody", b"\nBcc: e@f.example"), written)
    assert not _only_our_headers(b"From: a\nFrom: b\nTo: c\nSubject: x\n\n", written)


def test_a_reply_goes_only_to_an_ascii_host_name() -> None:
    """`jose@exämple.com` was written as `jose@=?utf-8?q?ex=C3=A4mple?=.com`, a broken
    address; a domain must be an ASCII host name (IDNA) for a reply to go out."""
    from validator.render.replies import address_of

    assert address_of("Jose", "jose@example.com") is not None
    assert address_of("Jose", "jose@exämple.com") is None
    assert address_of("Jose", "x@host?==?x-bogus") is None


def test_a_reply_to_a_long_name_with_specials_still_goes_to_its_sender(tmp_path: Path) -> None:
    """`Mallory \\x1b[2J AAA...` folded by the email package read back as the address
    `Mallory`: the reply then goes to the address alone, and the greeting keeps the name."""
    name = "Mallory \x1b[2J " + "A" * 300
    data = _the_reply(f"{name} <mallory@evil.example>", "x", tmp_path)
    parsed = BytesParser(policy=policy.default).parsebytes(data)
    assert [a.addr_spec for a in parsed["To"].addresses] == ["mallory@evil.example"]
    text = parsed.get_body(("plain",))
    assert text is not None and text.get_content().startswith("Hello Mallory")


@pytest.mark.parametrize(("lang", "said"), [("en", "about 1.2 MB"), ("de", "etwa 1,2 MB")])
def test_a_refused_attachment_gives_its_size_as_an_estimate(
    tmp_path: Path, lang: str, said: str
) -> None:
    """A 1,201,243-byte attachment over a 1 MiB cap: its size is estimated from the encoded
    text without decoding it (1,217,051 here), so it is said as an estimate, as a person
    reads it, never as an exact count of bytes."""
    m = _message(1, "Quin", "quin@players.example", 3)
    m.set_content("Big.\n")  # no word that tells a language: the site's decides
    data = (game(1, "yaml", "Quin") + "# padding padding\n" * 70_000).encode()[:1_201_243]
    assert len(data) == 1_201_243
    m.add_attachment(data, "application", "octet-stream", filename="big.yaml")
    mbox = write_mbox([Mail("big", m)], tmp_path / "inbox.mbox")
    replies = tmp_path / "replies"
    result = run(
        "batch", mbox, "--dice", DICE, "--max-size", "1MiB", "-j", "1", "--lang", lang,
        "--replies", replies, "--organizer", ORGANIZER, "--format", "json",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    (entry,) = json.loads(result.stdout)["entries"]
    assert entry["error"]["message"] == (  # the JSON's words, whatever the language
        "the attachment big.yaml is about 1.2 MB, more than the 1 MiB allowed; it was not read"
    )
    text = " ".join(reply_text(replies / "reply-0001.eml").split())
    assert said in text and "1217051" not in text and "bytes or more" not in text


def test_every_file_holding_addresses_is_the_owners_alone(tmp_path: Path) -> None:
    """The replies (each .eml and replies.mbox) and a mailbox's results hold senders'
    addresses: mode 600 whatever the umask, also when they replace a readable file; the
    results of a folder of records keep the usual mode. (Three messages: an entry, one
    that is no entry and a malformed one; every other kind is written the same way.)"""
    mails = inbox("alice-first", "question", "typo")
    mbox = write_mbox(mails, tmp_path / "inbox.mbox")
    results = tmp_path / "results.json"
    results.write_text("{}")
    results.chmod(0o644)
    replies = tmp_path / "replies"
    previous = os.umask(0o022)
    try:
        out = run(
            "batch", mbox, *ARGS, "-j", "1", "--output", results,
            "--replies", replies, "--organizer", ORGANIZER,
        )  # fmt: skip
        assert out.exit_code == 0, out.output
        folder = tmp_path / "entries"
        folder.mkdir()
        (folder / "alice.yaml").write_text(alice("yaml"))
        plain = tmp_path / "plain.json"
        assert run("batch", folder, "--dice", DICE, "-j", "1", "--output", plain).exit_code == 0
    finally:
        os.umask(previous)
    written = [results, replies / "replies.mbox", *sorted(replies.glob("reply-*.eml"))]
    assert len(written) == len(mails) + 2
    assert {oct(p.stat().st_mode & 0o777) for p in written} == {oct(0o600)}
    assert plain.stat().st_mode & 0o777 == 0o644


def test_a_deadline_before_every_message_is_warned_about_and_counted(
    mails: list[Mail], mbox: Path, tmp_path: Path
) -> None:
    """A deadline in the past of all mails (a wrong year): batch warns, its summary line
    counts the late entries, and the draw says they are left out as late, not that no
    entry is valid with 300 points."""
    out = tmp_path / "results.json"
    early = "2025-12-20T23:59:59+01:00"
    result = run("batch", mbox, *ARGS, "--deadline", early, "--output", out, "-j", "1")
    assert result.exit_code == 0, result.output
    entries = load_results(out)
    assert entries and all(e.late for e in entries)
    stderr = " ".join(result.stderr.split())
    first = min(e.source.date for e in entries if e.source is not None and e.source.date)
    assert (
        f"Warning: the deadline {early} is before every message (the earliest is dated "
        f"{first}): every dated entry ({len(entries)}) is late, none is ranked or drawn."
    ) in stderr
    assert f"not ranked: {len(entries)} late, 0 superseded" in stderr
    in_time = run("batch", mbox, *ARGS, "--output", tmp_path / "in-time.json", "-j", "1")
    assert "Warning: the deadline" not in in_time.stderr
    assert "not ranked: 1 late, 1 superseded" in in_time.stderr
    reached = [e for e in entries if e.verdict.value == "valid" and (e.score or 0) >= 300]
    assert reached
    drawn = run("draw", out, "--seed", "s")
    assert drawn.exit_code == 1
    said = " ".join(drawn.output.split())
    assert "no entry is valid with 300 points or more" not in said
    assert (
        f"{len(reached)} {'entry is' if len(reached) == 1 else 'entries are'} valid with 300 "
        f"points or more ({len(entries)} entries in all), but"
    ) in said
    assert "late or superseded (listed above); nobody can be drawn." in said
    for e in reached:
        assert f"{e.file}: late: its message is dated after the deadline" in said


def test_a_reply_says_the_illegal_step_in_words_where_the_player_wrote_it(
    tmp_path: Path,
) -> None:
    """The first illegal step of a record typed into the body and of one attached: where
    the player's own message has it ("line 16 ... of your message", "of the attachment
    tom.yaml"), never the mailbox's name for it (`inbox.mbox#2:16:44`), and no board drawn
    in text: that is the attached report's."""
    from validator.records import dump_record, parse_record

    illegal = ILLEGAL.read_text()
    m = _message(1, "Tom", "tom@players.example", 3)
    m.add_attachment(illegal.encode(), "application", "octet-stream", filename="tom.yaml")
    record = parse_record(illegal, "yaml")
    block = body_block(dump_record(record, "text"))
    body = "Hi!\n\nMy game:\n\n" + block + "\n\nTom\n"
    typed = _message(2, "Tina", "tina@players.example", 3)
    typed.set_content(body)
    mbox = write_mbox([Mail("attached", m), Mail("typed", typed)], tmp_path / "inbox.mbox")
    replies = tmp_path / "replies"
    out = run("batch", mbox, *ARGS, "-j", "1", "--replies", replies, "--organizer", ORGANIZER)
    assert out.exit_code == 0, out.output
    line = 1 + next(n for n, text in enumerate(body.splitlines()) if text.startswith("4:"))
    wheres = {
        "reply-0001.eml": "(at line 9, column 47 of the attachment tom.yaml)",
        "reply-0002.eml": f"(at line {line}, column ",
    }
    for name, where in wheres.items():
        text = reply_text(replies / name)
        assert "The first illegal step is on roll 4, record round 4 (dice 5 1 1):" in text
        assert "E205 6/3 cannot be reached in exactly 1 step " + where in text, text
        assert "of your message)" in text if name == "reply-0002.eml" else True
        assert "- Available cross-outs: 1/5 (moves 1), 5/1 (moves 1)." in text
        assert "inbox.mbox" not in text
        assert "@ the burglar" not in text and "(X30)" not in text, text
        assert "and the board before the illegal step." in text


def test_the_original_and_the_copy_are_told_apart(tmp_path: Path) -> None:
    """Hanna sends a game, Copy Cat the same game later (under another name): Hanna is told
    that a later entry copies hers, Copy Cat that theirs is a copy of an earlier one; which
    came first is the mailbox's order, as `draw --keep-first` takes it."""
    first = _message(1, "Hanna", "hanna@players.example", 3)
    first.add_attachment(alice("yaml", "Hanna").encode(), "application", "yaml", filename="h.yaml")
    later = _message(2, "Copy Cat", "cat@players.example", 2)  # dated earlier: not what counts
    later.add_attachment(
        alice("json", "Copy Cat").encode(), "application", "json", filename="c.json"
    )
    mbox = write_mbox([Mail("hanna", first), Mail("cat", later)], tmp_path / "inbox.mbox")
    replies = tmp_path / "replies"
    out = run("batch", mbox, *ARGS, "-j", "1", "--replies", replies, "--organizer", ORGANIZER)
    assert out.exit_code == 0, out.output
    said = {}
    for name in ("reply-0001.eml", "reply-0002.eml"):
        said[name] = " ".join(reply_text(replies / name).split())
    assert (
        "Another player sent the very same game after you did: that entry is marked as a copy "
        "of yours." in said["reply-0001.eml"]
    )
    assert (
        "Another player sent the very same game before you did: your entry is marked as a copy "
        "of theirs." in said["reply-0002.eml"]
    )
    assert "before you did" not in said["reply-0001.eml"]
    assert "after you did" not in said["reply-0002.eml"]
