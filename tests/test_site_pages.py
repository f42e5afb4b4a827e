"""The results site tells the truth (issue 38): each entry page named and titled by its
player, its standing (late, superseded, a copy) on the page and in its title, no late or
superseded entry that "wins", a link back to the leaderboard, every invalid or unreadable
row saying why, the deadline, the draw once made; every page in the site's language, one
stylesheet for all, and entry pages of at most 20 KB."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner
from mail_helpers import DICE, ROOT, inbox, write_mbox

from validator.check.file import Checker
from validator.cli import main
from validator.contest.mail import Source
from validator.language import i18n
from validator.render.site import DrawnEntry, PublishedDraw, SiteWriter

DEADLINE = "2026-12-20T23:59:59+01:00"
MAX_PAGE = 20 * 1024
"""The most bytes an entry page may take on disk (issue 38)."""


def _site(tmp: Path, *extra: str) -> Path:
    mbox = write_mbox(inbox(), tmp / "inbox.mbox")
    site = tmp / "site"
    args = ["batch", str(mbox), "--dice", str(DICE), "--deadline", DEADLINE, "-j", "1"]
    args += ["--site", str(site), "--name", "Winter challenge", *extra]
    result = CliRunner().invoke(main, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return site


@pytest.fixture(scope="module")
def english(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _site(tmp_path_factory.mktemp("en"), "--lang", "en")


@pytest.fixture(scope="module")
def german(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _site(tmp_path_factory.mktemp("de"), "--lang", "de")


def _all_pages(site: Path) -> list[tuple[str, str]]:
    """(player, text) of every entry page: the player is the page's <h1>."""
    pages = []
    for path in sorted((site / "entries").glob("*.html")):
        text = path.read_text(encoding="utf-8")
        found = re.search(r"<h1><bdi>(.*?)</bdi></h1>", text)
        assert found, path
        pages.append((found.group(1), text))
    return pages


def _pages(site: Path) -> dict[str, str]:
    """Each entry page's text by its player (the last one of a player who sent two)."""
    return dict(_all_pages(site))


def _title(text: str) -> str:
    found = re.search(r"<title>(.*?)</title>", text)
    assert found
    return found.group(1)


def test_entry_pages_are_named_and_titled_by_their_player(english: Path) -> None:
    pages = _pages(english)
    assert {"Alice Example", "Bernd Müller", "Chloé Durand", "Nora", "Oscar", "Sam"} <= set(pages)
    for player, text in pages.items():
        assert _title(text).startswith(player + " ("), _title(text)
        assert "inbox.mbox#" not in _title(text)
        assert '<a href="../index.html">' in text


def test_late_superseded_and_copies_say_so_and_never_win(english: Path) -> None:
    pages = _pages(english)
    late = pages["Nora"]
    assert "late" in _title(late)
    assert "Sent after the deadline (December 20, 2026" in late
    assert "not ranked and not in the draw" in late
    # Alice's first mail is superseded by her second (the same game, 340 points).
    alice = [
        text
        for player, text in _all_pages(english)
        if player == "Alice Example" and '"verdict valid"' in text
    ]
    assert len(alice) == 2
    superseded = [text for text in alice if "Superseded:" in text]
    assert len(superseded) == 1
    assert "superseded" in _title(superseded[0])
    for text in (superseded[0], late):
        # Neither the verdict line (the replay's summary) nor a sentence says it wins.
        assert "wins the challenge" not in text and "wins Road to 300" not in text
    assert "Rank " not in superseded[0]
    assert "a copy" in _title(pages["Oscar"])
    assert "The same game as Alice Example" in pages["Oscar"]
    assert "wins" not in pages["Oscar"]  # ranked, but the organizer decides about copies


def test_a_ranked_game_of_300_wins_and_says_its_rank(tmp_path: Path) -> None:
    # The mailbox's games of 300 are copies of each other: a game of 300 sent once.
    entries = tmp_path / "entries"
    entries.mkdir()
    (entries / "alice.txt").write_bytes((ROOT / "examples" / "alice.txt").read_bytes())
    site = tmp_path / "site"
    args = ["site", str(entries), "--dice", str(DICE), "-o", str(site), "--lang", "en"]
    result = CliRunner().invoke(main, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    (text,) = _pages(site).values()
    assert "wins the challenge" in text
    assert re.search(r"Rank 1 on the leaderboard", text)
    assert "rank 1" in _title(text)


def test_every_invalid_or_unreadable_row_says_why(english: Path) -> None:
    index = (english / "index.html").read_text(encoding="utf-8")
    rows = re.findall(r'<tr class="(invalid|malformed)">(.*?)</tr>', index, re.S)
    assert rows
    for _kind, row in rows:
        assert re.search(r'<span class="note">E\d{3}: [^<]{8,}</span>', row), row


def test_an_unreadable_entry_quotes_the_line_it_wrote_and_labels_the_help(english: Path) -> None:
    # Sam typed `ot` for `->`: the page shows his line as he wrote it, then the line the
    # reader suggests, marked as help (never shown as if it were what he wrote).
    problem = re.search(r'<section class="card problem".*?</section>', _pages(english)["Sam"], re.S)
    assert problem
    quoted = re.search(r"<br><code>\d+ \| ([^<]*)</code><br>help: ([^<]*)</li>", problem.group(0))
    assert quoted, problem.group(0)
    assert " ot " in quoted.group(1) and " ot " not in quoted.group(2)


def test_the_deadline_is_on_the_index(english: Path, german: Path) -> None:
    assert "Deadline for records: December 20, 2026" in (english / "index.html").read_text()
    assert "20. Dezember 2026" in (german / "index.html").read_text()


def test_every_page_speaks_the_sites_language(german: Path) -> None:
    pages = _pages(german)
    for text in pages.values():
        assert '<html lang="de">' in text
        assert "Zur Rangliste" in text or "Rangliste" in text
        assert "The leaderboard" not in text and "Round by round" not in text
    assert "verspätet" in _title(pages["Nora"])


def test_one_stylesheet_and_small_pages(english: Path) -> None:
    assert (english / "site.css").is_file()
    pages = [english / "index.html", *sorted((english / "entries").glob("*.html"))]
    for path in pages:
        text = path.read_text(encoding="utf-8")
        assert "<style" not in text, path
        assert 'rel="stylesheet" href="' in text
    sizes = {p.name: p.stat().st_size for p in pages[1:]}
    assert max(sizes.values()) <= MAX_PAGE, sizes
    # The boards share their pieces: one empty sheet per page, whatever its rounds.
    text = pages[1].read_text(encoding="utf-8")
    assert text.count('id="g"') == 1 and text.count("<rect") == 36


def draw_site(tmp_path: Path) -> Path:
    """A site of two entries whose draw is made: Bob won (SiteWriter's `published`)."""
    folder = tmp_path / "entries"
    folder.mkdir()
    record = (Path(__file__).resolve().parent.parent / "examples" / "alice.yaml").read_text()
    (folder / "alice.yaml").write_text(record, encoding="utf-8")
    (folder / "bob.yaml").write_text(record.replace("Alice", "Bob"), encoding="utf-8")
    source = Source.find(folder, 1 << 20)
    checker = Checker.create(DICE, None, root=source.root)
    batch = source.check(checker, 1, min_score=300)
    drawn = PublishedDraw(
        seed="2026-12-21 lottery",
        eligible=(
            DrawnEntry("alice.yaml", "Alice", "a" * 64),
            DrawnEntry("bob.yaml", "Bob", "b" * 64),
        ),
        winners=("bob.yaml",),
        command='road300 draw results.json --winners 1 --seed "2026-12-21 lottery"',
        list_sha256="c" * 64,
        made=datetime(2026, 12, 21, 12, 0, tzinfo=UTC),
    )
    site = tmp_path / "site"
    writer = SiteWriter(
        site, batch, name="Test", dice=DICE, rules=None, draw=(1, drawn.seed), published=drawn,
        lang=i18n.DEFAULT,
    )  # fmt: skip
    for item in source.items():
        writer.add(source.reading(checker, item))
    writer.finish()
    return site


def test_the_draw_once_made_is_on_the_index(tmp_path: Path) -> None:
    site = draw_site(tmp_path)
    index = (site / "index.html").read_text(encoding="utf-8")
    assert "The draw was made on December 21, 2026" in index
    assert "The seed: 2026-12-21 lottery." in index
    assert "a" * 64 in index and "b" * 64 in index
    assert "road300 draw results.json --winners 1 --seed &#34;2026-12-21 lottery&#34;" in index
    won = re.search(r'<tr class="winner">(.*?)</tr>', index, re.S)
    assert won and "1st" in won.group(1) and "Bob" in won.group(1)
    assert index.index("a" * 64) < index.index("b" * 64)  # the draw's order


def test_site_with_entries_writes_the_site_batch_writes(tmp_path: Path) -> None:
    """`road300 site SOURCE` and `batch SOURCE --site` write the same pages (one writer);
    the announcement's folder becomes the results site, play.html with it."""
    mbox = write_mbox(inbox("alice-first", "german-qp", "late", "illegal"), tmp_path / "in.mbox")
    common = ["--dice", str(DICE), "--deadline", DEADLINE, "--name", "Winter challenge"]
    runner = CliRunner()
    announced = runner.invoke(
        main, ["site", str(DICE), "-o", str(tmp_path / "a"), "--organizer", "c@org.example"]
    )
    assert announced.exit_code == 0, announced.output
    assert (tmp_path / "a" / "play.html").is_file()
    by_site = runner.invoke(main, ["site", str(mbox), *common, "-o", str(tmp_path / "a")])
    assert by_site.exit_code == 0, by_site.output
    assert "Rank" not in by_site.stdout  # no results table: the site only
    by_batch = runner.invoke(
        main, ["batch", str(mbox), *common, "--site", str(tmp_path / "b"), "-j", "1"]
    )
    assert by_batch.exit_code == 0, by_batch.output
    made = sorted(p.relative_to(tmp_path / "b") for p in (tmp_path / "b").rglob("*") if p.is_file())
    assert {"index.html", "site.css", "play.html", "dice.txt"} <= {str(p) for p in made}
    for rel in made:
        assert (tmp_path / "a" / rel).read_bytes() == (tmp_path / "b" / rel).read_bytes(), rel
    index = (tmp_path / "a" / "index.html").read_text(encoding="utf-8")
    assert '<a href="play.html">' in index
    assert "c@org.example" not in (tmp_path / "a" / "play.html").read_text(encoding="utf-8")


def test_site_needs_a_dice_file_or_entries(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["site", "-o", str(tmp_path / "s")])
    assert result.exit_code == 2
    assert "give the dice file (SOURCE or --dice)" in result.output


def test_site_with_a_contest_file(tmp_path: Path) -> None:
    """The contest file gives `site SOURCE` its dice file, name, deadline and language."""
    (tmp_path / "dice.txt").write_bytes(DICE.read_bytes())
    contest = tmp_path / "road300.toml"
    contest.write_text(
        'name = "Heidelberger Winter"\ndice = "dice.txt"\n'
        'deadline = 2026-12-20T23:59:59+01:00\nlang = "de"\n',
        encoding="utf-8",
    )
    mbox = write_mbox(inbox("alice-first", "late"), tmp_path / "in.mbox")
    out = tmp_path / "site"
    result = CliRunner().invoke(
        main, ["site", str(mbox), "--contest", str(contest), "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    index = (out / "index.html").read_text(encoding="utf-8")
    assert '<html lang="de">' in index and "Heidelberger Winter: Ergebnisse" in index
    assert "Einsendeschluss: 20. Dezember 2026" in index
    late = _pages(out)["Nora"]
    assert "verspätet" in _title(late) and "Heidelberger Winter" in _title(late)


def test_a_draw_as_the_ledger_keeps_it_is_shown_as_made() -> None:
    """`PublishedDraw.of`: the running challenge's record of a draw (contest/ledger.py)."""
    from validator.contest.ledger import DrawRecord

    Listed = dict[str, str | int | None]
    alice: Listed = {"player": "Alice", "file": "inbox#1", "score": 340, "game": "a" * 64}
    bob: Listed = {"player": "Bob", "file": "inbox#2", "score": 310, "game": "b" * 64}
    record = DrawRecord(
        "2026-12-21T12:00:00+00:00", "lottery", 1, [alice, bob], [bob], "road300 draw r.json"
    )
    drawn = PublishedDraw.of(record)
    assert drawn.eligible == (
        DrawnEntry("inbox#1", "Alice", "a" * 64),
        DrawnEntry("inbox#2", "Bob", "b" * 64),
    )
    assert drawn.winners == ("inbox#2",) and drawn.seed == "lottery"
    assert drawn.made == datetime(2026, 12, 21, 12, 0, tzinfo=UTC)
    assert drawn.command == "road300 draw r.json"
