"""The results site and the replies of `road300 batch` in English, German and French: each
reply in its sender's language in the documented order (docs/languages.md), the site in
`--lang`'s or the contest file's, no English prose left in a German or French page or reply,
golden files of the site's index page and of one reply per language, and machine outputs
that never change with the language.

Refresh the golden files after an intended change with `REFRESH_GOLDEN=1 pytest
tests/test_contest_languages.py -k golden -m "slow or not slow"` (the German ones are in the
slow step) and review the diff (tests/golden/lang/site/).
"""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from mail_helpers import ILLEGAL, Mail, _message, write_mbox
from test_report_languages import _compare as compare
from test_report_languages import english_words
from tiers import sweep

from validator import __version__
from validator.cli import main
from validator.contest.body import PROSE, language_of
from validator.language import i18n

ROOT = Path(__file__).resolve().parent.parent
DICE = ROOT / "examples" / "challenge.txt"
ALICE = (ROOT / "examples" / "alice.txt").read_text(encoding="utf-8")
ORGANIZER = "Winter challenge <challenge@organizers.example>"
ARGS = ["--dice", str(DICE), "--deadline", "2026-12-20T23:59:59+01:00", "-j", "1"]

_PLAY = re.compile(r"x (\S+) -> (\S+) \((\d+)\) path (.*)")
_CROSS = re.compile(r"x (\S+) \(\d+\)")
"""A round whose movement die has no move: its field crossed out only."""
_WORDS = {
    "de": ("Raum {0} gestrichen nach {1} ({2} Schritte) Weg {3}", "neu gewürfelt", "Spieler",
           "Raum {0} gestrichen"),
    "fr": ("case {0} barrée vers {1} ({2} pas) chemin {3}", "relance", "joueur",
           "case {0} barrée"),
    "en": ("crossed out {0}, moved to {1} ({2} steps) path {3}", "reroll", "player",
           "crossed out {0}"),
    None: ("x {0} -> {1} ({2})", "-", "", "x {0}"),
}  # fmt: skip


def alice_in(lang: str | None, player: str = "") -> str:
    """Alice's valid game (340 points) as a text record written with `lang`'s words (None:
    numbers and signs only), with a `player:` line in that language when `player` is set."""
    play, reroll, key, cross = _WORDS[lang]
    rows = []
    for line in ALICE.splitlines():
        row = re.match(r"(\d+: \d \d \d)\s+(.*)", line)
        if row is None:
            continue
        m, only = _PLAY.fullmatch(row[2]), _CROSS.fullmatch(row[2])
        said = play.format(*m.groups()) if m else cross.format(only[1]) if only else reroll
        rows.append(f"{row[1]}   {said}")
    header = f"{key}: {player}\n" if player and key else ""
    return header + "\n".join(rows) + "\n"


@dataclass(frozen=True)
class Case:
    key: str
    name: str
    body: str
    attachments: tuple[tuple[str, bytes], ...] = ()
    subject: str = "My Road to 300 game"


CASES = (
    # The record's own language: German words in the body.
    Case("de-record", "Anna", "Hallo,\n\nhier mein Spiel:\n\n" + alice_in("de", "Anna")
         + "\nViele Grüße\nAnna\n", subject="Mein Spiel"),
    # A French record file, attached to an English mail.
    Case("fr-file", "Chloé", "Hi, my record is attached.\n",
         (("partie.txt", alice_in("fr", "Chloé").encode()),)),
    # No language in the record (YAML): the German body decides.
    Case("de-body", "Bernd", "Hallo,\n\nanbei mein Ergebnis.\n\nViele Grüße\nBernd\n",
         (("spiel.yaml", (ROOT / "examples" / "alice.yaml").read_bytes()),)),
    # Neither the record (numbers and signs) nor the body (nothing else) tells.
    Case("signs", "Dana", alice_in(None)),
    # English words in the record.
    Case("en-record", "Eve", "Hello,\n\n" + alice_in("en", "Eve") + "\nCheers, Eve\n"),
    # A German question without a record.
    Case("de-question", "Fritz", "Hallo, wie kann ich mitmachen? Danke und viele Grüße\n",
         subject="Frage"),
    # A French mail holding an illegal game, and a French mail with two records.
    Case("fr-illegal", "Gaël", "Bonjour, voici ma partie.\n",
         (("partie.yaml", ILLEGAL.read_bytes()),)),
    Case("fr-two", "Hélène", "Bonjour, voici mes deux parties, merci !\n",
         (("une.yaml", (ROOT / "examples" / "alice.yaml").read_bytes()),
          ("deux.txt", alice_in("fr").encode()))),
)  # fmt: skip
KEYS = [c.key for c in CASES]


def _mail(n: int, case: Case) -> Mail:
    m: EmailMessage = _message(
        n, case.name, f"{case.key}@players.example", 10 + n % 5, case.subject
    )
    m.set_content(case.body)
    for filename, data in case.attachments:
        m.add_attachment(data, "application", "octet-stream", filename=filename)
    return Mail(case.key, m)


@pytest.fixture(scope="module")
def mbox(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("inbox")
    mails = [_mail(n, c) for n, c in enumerate(CASES, start=1)]
    return write_mbox(mails, folder / "inbox.mbox")


def run(*args: object, env: dict[str, str] | None = None) -> Any:
    result = CliRunner().invoke(main, [str(a) for a in args], env=env, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result


def publish(mbox: Path, out: Path, *extra: object, env: dict[str, str] | None = None) -> Path:
    """Run batch on the inbox with a site and replies into `out`; `out`."""
    if out.exists():
        shutil.rmtree(out)
    _REPLIES.pop(out, None)
    run("batch", mbox, *ARGS, "--site", out / "site", "--replies", out / "replies",
        "--organizer", ORGANIZER, "--name", "Winter challenge", *extra, env=env)  # fmt: skip
    return out


_REPLIES: dict[Path, dict[str, Any]] = {}
"""The replies of each published folder, parsed once for the tests that read them (none
changes a message; `publish` forgets a folder it writes again)."""


def replies(out: Path) -> dict[str, Any]:
    """The replies by case."""
    if out not in _REPLIES:
        files = sorted((out / "replies").glob("reply-*.eml"))
        assert len(files) == len(CASES)
        parsed = [BytesParser(policy=policy.default).parsebytes(p.read_bytes()) for p in files]
        _REPLIES[out] = dict(zip(KEYS, parsed, strict=True))
    return dict(_REPLIES[out])


def body_of(reply: Any) -> str:
    return str(reply.get_body(("plain",)).get_content())


GREETING = {"en": "Hello ", "de": "Hallo ", "fr": "Bonjour "}


def language(reply: Any) -> str:
    """The language a reply speaks, from its greeting (checked again by the prose scan)."""
    found = [lang for lang, word in GREETING.items() if body_of(reply).startswith(word)]
    assert len(found) == 1, body_of(reply)[:200]
    return found[0]


@pytest.fixture(scope="module")
def english_contest(mbox: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return publish(mbox, tmp_path_factory.mktemp("en"), "--lang", "en")


@pytest.fixture(scope="module")
def french_contest(mbox: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site and replies of `--lang fr`: the prose scan's and golden files' French
    contest, and the fallback test's (which only reads it)."""
    return publish(mbox, tmp_path_factory.mktemp("fr"), "--lang", "fr")


# French first: the plain step's French contest is the one the fallback test reads too.
@pytest.fixture(scope="module", params=sweep(["fr", "de"]))
def spoken(
    request: pytest.FixtureRequest, mbox: Path, tmp_path_factory: pytest.TempPathFactory
) -> tuple[str, Path]:
    lang = str(request.param)
    if lang == "fr":
        return lang, request.getfixturevalue("french_contest")
    return lang, publish(mbox, tmp_path_factory.mktemp(lang), "--lang", lang)


# --- each reply in its sender's language ------------------------------------------------


def test_each_reply_speaks_its_senders_language_in_an_english_contest(
    english_contest: Path,
) -> None:
    spoken = {key: language(reply) for key, reply in replies(english_contest).items()}
    assert spoken == {
        "de-record": "de",  # the record's own words
        "fr-file": "fr",  # the attached record's words beat the English body
        "de-body": "de",  # a YAML record: the body's words
        "signs": "en",  # nothing tells: the site's language
        "en-record": "en",
        "de-question": "de",
        "fr-illegal": "fr",
        "fr-two": "fr",
    }


def test_a_german_mail_entry_gets_a_german_reply(english_contest: Path) -> None:
    reply = replies(english_contest)["de-record"]
    assert reply["Subject"] == "Re: Mein Spiel"
    body = body_of(reply)
    assert "Dein Protokoll ist gültig: 340 Punkte." in body
    assert "Du hast 300 Punkte erreicht: gut gespielt!" in body
    assert "Deine Einsendung steht auf Platz" in body
    assert body.rstrip().endswith("Viele Grüße\nWinter challenge")


def test_a_french_record_file_gets_a_french_reply_in_an_english_contest(
    english_contest: Path,
) -> None:
    body = body_of(replies(english_contest)["fr-file"])
    assert "Merci pour votre participation à Winter challenge." in body
    assert "Votre relevé est valide : 340 points." in body


def test_a_reply_to_no_record_says_why_in_the_senders_language(english_contest: Path) -> None:
    reply = replies(english_contest)["de-question"]
    assert reply["Subject"] == "Re: Frage"
    body = body_of(reply)
    assert "Wir haben in deiner Nachricht kein Protokoll gefunden: kein Anhang" in body
    assert "7: 3 4 6   x 3/4 -> 5/5 (6)" in body  # the example line, as it is


def test_the_site_language_is_the_fallback(french_contest: Path) -> None:
    """`--lang fr`: the site is French, and so is the reply whose record and body do not
    tell; a reply with its own language keeps it."""
    got = replies(french_contest)
    assert language(got["signs"]) == "fr"
    assert (language(got["de-record"]), language(got["en-record"])) == ("de", "en")
    index = (french_contest / "site" / "index.html").read_text(encoding="utf-8")
    assert '<html lang="fr">' in index and "<title>Winter challenge : résultats</title>" in index


@pytest.mark.parametrize(
    ("case", "site", "environ", "expected"),
    [
        ("de-record", "fr", {"LANG": "en_US"}, "de"),  # 2. the record's own language
        ("fr-file", "en", {}, "fr"),  # ... beats the English body
        ("de-body", "fr", {"LANG": "fr_FR"}, "de"),  # 3. the body's (a YAML record)
        ("signs", "fr", {"LANG": "de_DE.UTF-8"}, "fr"),  # 4. the site's
        ("signs", None, {"LANG": "de_DE.UTF-8"}, "de"),  # 5. the locale's
        ("signs", None, {"LC_ALL": "C"}, "en"),  # 6. English
        ("en-record", "de", {"LANG": "de_DE.UTF-8"}, "en"),  # English words stay English
        ("de-question", "fr", {}, "de"),  # no record: the body's
    ],
)
def test_each_step_of_the_order_for_one_message(
    case: str, site: str | None, environ: dict[str, str], expected: str, tmp_path: Path
) -> None:
    from validator.check.file import Checker
    from validator.contest.mail import RawMessage, read_message

    n = KEYS.index(case)
    data = _mail(n + 1, CASES[n]).data
    checker = Checker.create(DICE, None, root=tmp_path, max_bytes=1 << 20)
    reading = read_message(checker, RawMessage("inbox.mbox#1", data, tmp_path))
    assert reading.reply_language(site, None, environ) == expected
    assert reading.reply_language(None, site, environ) == expected  # the contest file's


@pytest.mark.parametrize(
    ("greeting", "expected"),
    [("Hallo,\n\nhier mein Spiel:\n\n", "de"), ("Bonjour,\n\nvoici ma partie :\n\n", "fr")],
)
def test_the_annotated_forms_keywords_are_no_english(
    greeting: str, expected: str, tmp_path: Path
) -> None:
    """`reroll`, `path` and `player:` are the annotated form's syntax, not English: Alice's
    file pasted under a German (French) greeting has no language, and the body decides."""
    from validator.check.file import Checker
    from validator.contest.mail import RawMessage, read_message

    m = _message(1, "Anna", "anna@players.example", 10, "Mein Spiel")
    m.set_content(greeting + ALICE)
    checker = Checker.create(DICE, None, root=tmp_path, max_bytes=1 << 20)
    reading = read_message(checker, RawMessage("inbox.mbox#1", m.as_bytes(), tmp_path))
    assert reading.reply_language("en", None, {"LANG": "en_US"}) == expected


@pytest.mark.slow
def test_the_locale_decides_when_nothing_else_does(mbox: Path, tmp_path: Path) -> None:
    """No --lang, no contest file, LANG=de_DE.UTF-8: the site and the reply nothing else
    decides are German; an English record still gets an English reply."""
    got = replies(publish(mbox, tmp_path, env={"LANG": "de_DE.UTF-8"}))
    assert language(got["signs"]) == "de"
    assert language(got["en-record"]) == "en"
    assert language(got["fr-file"]) == "fr"
    assert '<html lang="de">' in (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    # And without a locale: English.
    got = replies(publish(mbox, tmp_path / "c", env={"LANG": "C.UTF-8"}))
    assert language(got["signs"]) == "en"


@pytest.mark.slow
def test_the_contest_files_lang_beats_the_locale_and_loses_to_lang(
    mbox: Path, tmp_path: Path
) -> None:
    contest = tmp_path / "contest.toml"
    contest.write_text('lang = "fr"\n', encoding="utf-8")
    german = {"LANG": "de_DE.UTF-8"}
    got = replies(publish(mbox, tmp_path / "a", "--contest", contest, env=german))
    assert language(got["signs"]) == "fr"
    assert '<html lang="fr">' in (tmp_path / "a" / "site" / "index.html").read_text()
    got = replies(publish(mbox, tmp_path / "b", "--contest", contest, "--lang", "en", env=german))
    assert language(got["signs"]) == "en"
    assert '<html lang="en">' in (tmp_path / "b" / "site" / "index.html").read_text()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Hallo,\nanbei mein Spiel.\n\nViele Grüße\nAnna\n", "de"),
        ("Bonjour,\nvoici ma partie, merci !\n", "fr"),
        ("Hi,\nhere is my game, thanks!\n", "en"),
        (alice_in(None), None),  # numbers and signs only
        # The annotated form's keywords (`path`, `reroll`, `player:`, `claimed_score:`)
        # are no English: one German word decides.
        ("Hallo,\n" + ALICE.split("\n", 1)[1], "de"),
        ("", None),
        ("und the", None),  # a tie
        # The quoted message and the signature do not count.
        ("Hi, here is my game.\n\nAm 1. Dez. schrieb Bob:\n> Hallo und danke, anbei\n", "en"),
        ("Hi, my game.\n-- \nMit freundlichen Grüßen und danke, anbei das Spiel\n", "en"),
    ],
)
def test_the_language_of_a_body(text: str, expected: str | None) -> None:
    assert language_of(text) == expected


def test_the_prose_words_belong_to_one_language_each() -> None:
    from validator.records.language import WORDS

    langs = list(PROSE)
    for a in langs:
        for b in langs:
            if a != b:
                assert not PROSE[a] & PROSE[b], (a, b, PROSE[a] & PROSE[b])
                assert not PROSE[a] & WORDS[b], (a, b, PROSE[a] & WORDS[b])


def test_a_hostile_body_costs_bounded_work() -> None:
    assert language_of("und " * 2_000_000) == "de"  # read no further than its bounds


# --- no English prose -------------------------------------------------------------------


def test_no_english_prose_on_the_site_or_in_the_replies(spoken: tuple[str, Path]) -> None:
    lang, out = spoken
    index = (out / "site" / "index.html").read_text(encoding="utf-8")
    assert f'<html lang="{lang}">' in index
    assert english_words(index) == set()
    # Each entry's page speaks its entry's language: all but the English record's.
    pages = [p.read_text(encoding="utf-8") for p in sorted((out / "site").glob("entries/*"))]
    spoken_pages = [p for p in pages if '<html lang="en">' not in p]
    assert len(pages) == len(spoken_pages) + 1 == len(CASES) - 1  # the question has none
    for page in spoken_pages:
        assert english_words(page) == set()
    # Every reply not in English (the English record's follows its record).
    scanned = 0
    subjects = {c.key: c.subject for c in CASES}
    for key, reply in replies(out).items():
        if language(reply) != "en":
            scanned += 1
            ours = reply["Subject"].replace(subjects[key], "")  # the sender's words are theirs
            assert english_words(body_of(reply) + "\n" + ours) == set(), (key, lang)
    assert scanned == len(CASES) - 1


def test_the_scan_finds_english_on_the_english_site(english_contest: Path) -> None:
    """The scan above can fail: the English site and replies are full of its words."""
    index = (english_contest / "site" / "index.html").read_text(encoding="utf-8")
    assert {"the", "record", "every"} <= english_words(index)
    body = body_of(replies(english_contest)["signs"])
    assert {"the", "record"} <= english_words(body)


# --- golden files -----------------------------------------------------------------------


def _compare(text: str, name: str) -> None:
    """The report goldens' comparison, with the version number left out."""
    compare(text.replace(f"road300 {__version__}", "road300 VERSION"), f"site/{name}")


def _golden(lang: str, out: Path) -> None:
    _compare((out / "site" / "index.html").read_text(encoding="utf-8"), f"{lang}/index.html")
    reply = replies(out)["fr-illegal" if lang == "fr" else "de-record" if lang == "de" else "signs"]
    _compare(f"Subject: {reply['Subject']}\n\n{body_of(reply)}", f"{lang}/reply.txt")


def test_golden_site_and_reply(spoken: tuple[str, Path]) -> None:
    _golden(*spoken)


def test_golden_site_and_reply_english(english_contest: Path) -> None:
    _golden("en", english_contest)


# --- machine outputs --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fmt", "to_file"),
    # The plain step writes each format once and each way once (JSON to a file, CSV to
    # stdout); the slow step the other two.
    sweep(
        [("json", True), ("csv", False), ("json", False), ("csv", True)],
        plain=2,
        unpack=True,
        ids=lambda v: f"{v[0]}-{'file' if v[1] else 'stdout'}",
    ),
)
def test_machine_outputs_never_change_with_the_language(
    fmt: str, to_file: bool, mbox: Path, tmp_path: Path
) -> None:
    outputs: dict[str, bytes] = {}
    for lang in ("en", "de", "fr", None):
        extra = ("--lang", lang) if lang else ()
        if to_file:
            path = tmp_path / f"{lang}.{fmt}"
            run("batch", mbox, *ARGS, "--output", path, *extra)
            outputs[str(lang)] = path.read_bytes()
        else:
            outputs[str(lang)] = run("batch", mbox, *ARGS, "--format", fmt, *extra).stdout_bytes
    assert outputs["de"] == outputs["None"] == outputs["en"] == outputs["fr"]
    assert b"6/3 cannot be reached in exactly 1 step" in outputs["de"]  # English, as said
    if fmt == "json":
        assert b'"reason": "no record: no attachment a record format reads' in outputs["de"]


def test_the_site_and_reply_numbers_are_the_languages() -> None:
    with i18n.speaking("de"):
        from validator.render import texts

        assert texts.points(1234) == "1.234 Punkte"
        assert texts.entries(1) == "1 Einsendung"
        assert texts.winners(1) == "einen Gewinner"
    with i18n.speaking("fr"):
        assert texts.points(1) == "1 point"
        assert texts.counts(0, 1, 2, 3).startswith("0 valide, 1 incomplète, 2 invalides")


@pytest.mark.parametrize(
    ("lang", "theirs", "expected"),
    [
        ("fr", None, "Re: votre participation à Road to 300"),
        ("de", "", "Re: deine Einsendung zu Road to 300"),
        ("de", "Mein Spiel\r\nBcc: victim@example.org", "Re: Mein Spiel Bcc: victim@example.org"),
        ("fr", "AW: Mein Spiel", "AW: Mein Spiel"),
        ("de", "RE : Ma partie", "RE : Ma partie"),
        ("de", "Ergebnis für Heidelberg", "Re: Ergebnis für Heidelberg"),
    ],
)
def test_a_translated_subject_is_one_header_encoded_by_email(
    lang: i18n.Language, theirs: str | None, expected: str
) -> None:
    from validator.render.replies import ReplyWriter

    with i18n.speaking(lang):
        subject = ReplyWriter.subject(theirs)
    assert subject == expected
    message = EmailMessage(policy=policy.default)
    message["Subject"] = subject
    message.set_content("x")
    raw = message.as_bytes()
    assert raw.isascii()  # RFC 2047 encoded words, no raw UTF-8 in a header
    head = raw.split(b"\n\n", 1)[0]
    assert sum(line.startswith(b"Subject:") for line in head.splitlines()) == 1
    assert b"\nBcc:" not in raw
    parsed = BytesParser(policy=policy.default).parsebytes(raw)
    assert parsed["Subject"] == expected and parsed["Bcc"] is None


@pytest.mark.parametrize(
    ("body", "site", "said"),
    [
        ("two versions, sorry\n", "de", "en"),
        ("Sorry, I sent two games. Which one counts?\n", "fr", "en"),
        ("zwei Versionen, Entschuldigung\n", "en", "de"),
        ("deux versions, désolé\n", "de", "fr"),
    ],
)
def test_a_short_mail_is_answered_in_its_own_words(
    tmp_path: Path, body: str, site: str, said: str
) -> None:
    """A few words are enough when they are clear: a short English mail ("two versions,
    sorry") with two records gets an English reply under `--lang de`, not the site's."""
    assert language_of(body) == said
    m = _message(1, "Ivy", "ivy@players.example", 10)
    m.set_content(body)
    alice = (ROOT / "examples" / "alice.yaml").read_bytes()
    for name in ("one.yaml", "two.yaml"):
        m.add_attachment(alice, "application", "octet-stream", filename=name)
    mbox = write_mbox([Mail("short", m)], tmp_path / "inbox.mbox")
    out = tmp_path / "out"
    run("batch", mbox, *ARGS, "--lang", site, "--replies", out, "--organizer", ORGANIZER)
    (path,) = sorted(out.glob("reply-*.eml"))
    assert language(BytesParser(policy=policy.default).parsebytes(path.read_bytes())) == said
