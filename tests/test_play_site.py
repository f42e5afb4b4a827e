"""`road300 site DICE -o DIR`: the announcement and play.html, checked without a browser
(tests/test_play_page_browser.py plays the page in Chromium)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner

from validator.cli import main
from validator.records.dice import read_dice

ROOT = Path(__file__).resolve().parent.parent
DICE = ROOT / "tests" / "perft" / "challenge.txt"


def site(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["site", *args], env={"NO_COLOR": "1"})
    return result.exit_code, result.stdout + result.stderr


def test_play_html_is_whole_and_offline(tmp_path: Path) -> None:
    code, out = site(str(DICE), "-o", str(tmp_path), "--organizer", "c@example.org")
    assert code == 0, out
    assert f"road300: wrote {tmp_path / 'index.html'}" in out
    page = (tmp_path / "play.html").read_text(encoding="utf-8")
    csp = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', page)
    assert csp is not None
    policy = csp.group(1)
    assert "default-src 'none'" in policy and "connect-src 'none'" in policy
    # No inline script or style: the site's one script and stylesheet, from the site alone.
    assert "script-src 'self'" in policy and "style-src 'self'" in policy
    assert re.findall(r"<script[^>]*>", page) == [
        '<script type="application/json" id="game-data">',
        '<script src="site.js">',
    ]
    assert "<style" not in page and '<link rel="stylesheet" href="site.css">' in page
    rules = (ROOT / "validator" / "engine" / "rules.js").read_text(encoding="utf-8")
    script = (tmp_path / "site.js").read_text(encoding="utf-8")
    assert script.startswith(rules) and "data-phase" in script
    assert "body.play #board" in (tmp_path / "site.css").read_text(encoding="utf-8")
    assert not re.search(r"""(?:src|href)=["']?(?:https?:)?//""", page)
    assert "unsafe-inline" not in policy
    data = json.loads(re.search(r'id="game-data">(.*?)</script>', page, re.S).group(1))  # type: ignore[union-attr]
    dice = read_dice(DICE)
    assert data["rows"] == [list(r) for r in dice.rows]
    assert data["sha256"] == dice.sha256 and data["organizer"] == "c@example.org"
    assert 'data-action="undo"' in page and 'id="record"' in page and 'id="score"' in page
    # The board is a group of buttons: an ARIA grid would need rows around its cells.
    assert 'id="board" role="group"' in page and "gridcell" not in page


def test_the_announcement_names_what_to_send_where(tmp_path: Path) -> None:
    args = ["--name", "Winter <cup>", "--deadline", "2026-12-20T23:59:59+01:00"]
    organizer = ["--organizer", "Cup Team <c@example.org>"]
    code, out = site(str(DICE), "-o", str(tmp_path), *args, *organizer)
    assert code == 0, out
    index = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert "<h1>Winter &lt;cup&gt;</h1>" in index
    assert "December 20, 2026" in index and read_dice(DICE).sha256 in index
    assert "Cup Team" not in index  # only the address is published
    assert "c@example.org" in index and 'href="play.html"' in index
    assert 'href="challenge.txt" download' in index
    assert (tmp_path / "challenge.txt").read_bytes() == DICE.read_bytes()
    assert "Walk exactly that many steps" in index and "3 in a row end the game" in index
    code, out = site(str(DICE), "-o", str(tmp_path / "quiet"))
    assert code == 0, out
    # No address is published that the organizer did not give.
    assert "@" not in (tmp_path / "quiet" / "index.html").read_text(encoding="utf-8")
    quiet = (tmp_path / "quiet" / "play.html").read_text(encoding="utf-8")
    assert 'id="mail"' not in quiet and '"organizer": null' in quiet


def test_the_announcement_publishes_public_address_never_the_organizer(tmp_path: Path) -> None:
    """With a contest file, the address to send to is its public_address; its organizer
    (the From: of the replies) is published only when given as --organizer."""
    toml = tmp_path / "road300.toml"
    toml.write_text('organizer = "Cup Team <team@example.org>"\n', encoding="utf-8")
    contest = ["--contest", str(toml)]
    code, out = site(str(DICE), "-o", str(tmp_path / "quiet"), *contest)
    assert code == 0, out
    assert "@" not in (tmp_path / "quiet" / "index.html").read_text(encoding="utf-8")
    toml.write_text(
        toml.read_text() + 'public_address = "Entries <entries@example.org>"\n', encoding="utf-8"
    )
    code, out = site(str(DICE), "-o", str(tmp_path / "public"), *contest)
    assert code == 0, out
    index = (tmp_path / "public" / "index.html").read_text(encoding="utf-8")
    assert "Send your record to entries@example.org." in index and "team@" not in index
    play = (tmp_path / "public" / "play.html").read_text(encoding="utf-8")
    assert 'href="mailto:entries@example.org"' in play and "team@" not in play
    given = ["--organizer", "c@example.org"]  # the command line wins, as for every key
    code, out = site(str(DICE), "-o", str(tmp_path / "given"), *contest, *given)
    assert code == 0, out
    index = (tmp_path / "given" / "index.html").read_text(encoding="utf-8")
    assert "Send your record to c@example.org." in index and "entries@" not in index


def test_the_pages_speak_the_site_language(tmp_path: Path) -> None:
    code, out = site(str(DICE), "-o", str(tmp_path), "--lang", "de")
    assert code == 0, out
    page = (tmp_path / "play.html").read_text(encoding="utf-8")
    assert '<html lang="de">' in page and ">Rückgängig<" in page
    assert "Wähle ein Feld zum Streichen." in page and '"reroll_word": "neuwurf"' in page
    assert "Im Browser spielen" in (tmp_path / "index.html").read_text(encoding="utf-8")
    code, out = site(
        str(DICE),
        "-o",
        str(tmp_path / "de2"),
        "--lang",
        "de",
        "--deadline",
        "2026-12-20T23:59+01:00",
    )
    assert code == 0 and "20. Dezember 2026" in (tmp_path / "de2" / "index.html").read_text()
    # The score's label in each language's punctuation (French puts a space before a colon).
    code, out = site(str(DICE), "-o", str(tmp_path / "fr"), "--lang", "fr")
    french = (tmp_path / "fr" / "play.html").read_text(encoding="utf-8")
    assert code == 0 and 'Score : <output id="score">' in french
    assert 'Punkte: <output id="score">' in page


def test_refusals_write_nothing(tmp_path: Path) -> None:
    out_dir = tmp_path / "site"
    code, out = site(str(DICE), "-o", str(out_dir), "--rules", "standard+escape=20")
    assert code == 2 and "without expansions" in out and not out_dir.exists()
    code, out = site(str(DICE), "-o", str(out_dir), "--deadline", "20 December")
    assert code == 2 and "ISO 8601" in out and not out_dir.exists()
    code, out = site(str(DICE), "-o", str(out_dir), "--organizer", "not an address")
    assert code == 2 and "not an e-mail address" in out and not out_dir.exists()
    for organizer, says in (
        ("a@example.org, c@example.org", "holds more than one address"),
        ("x@y.example\nBcc: z@evil.example", "holds a line break or a control character"),
        ("x@y.example\x1b[2J", "holds a line break or a control character"),
    ):
        code, out = site(str(DICE), "-o", str(out_dir), "--organizer", organizer)
        assert code == 2 and f"--organizer: {organizer!r} {says}" in out and not out_dir.exists()
    bad = tmp_path / "bad.txt"
    bad.write_text("1 2 3\n7 7 7\n")
    code, out = site(str(bad), "-o", str(out_dir))
    assert code == 2 and "bad.txt:2:1: D002" in out and not out_dir.exists()
    assert "Traceback" not in out
    assert site(str(DICE), "-o", str(out_dir))[0] == 0
    (out_dir / "index.html").write_text("mine\n")
    code, out = site(str(DICE), "-o", str(out_dir))
    assert code == 2 and "--force" in out
    assert (out_dir / "index.html").read_text() == "mine\n"
    assert site(str(DICE), "-o", str(out_dir), "--force")[0] == 0
    assert (out_dir / "index.html").read_text() != "mine\n"


def test_the_record_template_is_read_by_validate(tmp_path: Path) -> None:
    """The announcement's record start, in each language, is the start of a legal game."""
    from validator.engine import STANDARD
    from validator.language import i18n
    from validator.render.play import Challenge, record_start

    dice = read_dice(DICE)
    challenge = Challenge("c", tuple(dice.rows), dice.sha256, "challenge.txt", STANDARD)
    for lang in ("en", "de", "fr"):
        with i18n.speaking(lang):
            text = record_start(challenge, rounds=8)
        assert len(text.splitlines()) == 9
        record = tmp_path / f"start-{lang}.txt"
        record.write_text(text, encoding="utf-8")
        result = CliRunner().invoke(
            main, ["validate", str(record), "--dice", str(DICE), "--format", "json"]
        )
        assert json.loads(result.stdout)["verdict"] == "incomplete", (lang, text)


def test_no_write_follows_a_link_planted_in_the_folder(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    out_dir = tmp_path / "site"
    out_dir.mkdir()
    (out_dir / "challenge.txt").symlink_to(victim)
    # A link where the dice copy goes is not the dice file: only --force replaces it.
    code, out = site(str(DICE), "-o", str(out_dir))
    assert code == 2 and f"{out_dir / 'challenge.txt'} exists" in out and "--force" in out
    assert victim.read_text() == "precious\n"
    for name in ("index.html", "play.html"):
        (out_dir / name).symlink_to(victim)
    code, out = site(str(DICE), "-o", str(out_dir), "--force")
    assert code == 0, out
    assert victim.read_text() == "precious\n"
    for name in ("index.html", "play.html", "challenge.txt"):
        assert not (out_dir / name).is_symlink(), name
    assert (out_dir / "challenge.txt").read_bytes() == DICE.read_bytes()
    assert "<html" in (out_dir / "play.html").read_text(encoding="utf-8")
    # A dangling link is there too: never replaced without --force.
    dangling = tmp_path / "quiet"
    dangling.mkdir()
    (dangling / "play.html").symlink_to(tmp_path / "made-outside.html")
    code, out = site(str(DICE), "-o", str(dangling))
    assert code == 2 and "play.html exists" in out
    assert not (tmp_path / "made-outside.html").exists()


def test_a_different_dice_copy_is_replaced_only_with_force(tmp_path: Path) -> None:
    copy = tmp_path / "challenge.txt"
    copy.write_text("1 2 3\n")
    code, out = site(str(DICE), "-o", str(tmp_path))
    assert code == 2 and f"{copy} exists; give --force" in out
    assert copy.read_text() == "1 2 3\n" and not (tmp_path / "index.html").exists()
    assert site(str(DICE), "-o", str(tmp_path), "--force")[0] == 0
    assert copy.read_bytes() == DICE.read_bytes()
    # The same bytes are no conflict: a run into a fresh folder with the copy already there.
    again = tmp_path / "again"
    again.mkdir()
    (again / "challenge.txt").write_bytes(DICE.read_bytes())
    code, out = site(str(DICE), "-o", str(again))
    assert code == 0, out
