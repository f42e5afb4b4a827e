"""Screenshots of `road300 site` for docs/contest.md, taken with headless Chromium through
Playwright: docs/site-announcement-phone.png (index.html) and docs/site-play-phone.png
(play.html in the middle of a game, a cross-out chosen and a walk shown), both 390 px wide;
and the site with results of a small mailbox made here (valid, late, superseded, a copy,
an illegal step): docs/contest-site.png (the leaderboard at 1280 px),
docs/contest-site-phone.png (at 390 px), docs/site-entry.png and docs/site-entry-phone.png
(the late entry's page at 1280 and 390 px).

Run: python tools/screenshot_site.py [--out docs]   (in the project's venv, with the `test`
extra and Debian's chromium: .ci/install-debian.sh; deterministic: the same game each time)
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
CHALLENGE = ROOT / "examples" / "challenge.txt"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    out: Path = parser.parse_args().out
    chromium: str = parser.parse_args().chromium
    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "site"
        options = ["--name", "Winter challenge", "--deadline", "2026-12-20T23:59:59+01:00"]
        options += ["--organizer", "challenge@organizers.example"]
        subprocess.run(
            [sys.executable, "-m", "validator", "site", str(CHALLENGE), "-o", str(site), *options],
            check=True,
            cwd=ROOT,
        )
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=ARGS)
            context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
            page = context.new_page()
            page.goto((site / "index.html").as_uri())
            page.screenshot(path=str(out / "site-announcement-phone.png"), full_page=True)
            page.goto((site / "play.html").as_uri())
            for _ in range(5):  # five rounds: the first cross-out that leaves a move, far walks
                page.locator('[data-legal="true"]:not(.dead)').first.click()
                page.locator('[data-legal="true"]').last.click()
            page.locator('[data-legal="true"]:not(.dead)').first.click()
            page.locator('[data-legal="true"]').last.hover()
            page.screenshot(path=str(out / "site-play-phone.png"), full_page=True)
            results = Path(tmp) / "results"
            subprocess.run(
                [sys.executable, "-m", "validator", "site", str(write_inbox(Path(tmp))),
                 "--dice", str(CHALLENGE), "-o", str(results), *options[:4]],
                check=True, cwd=ROOT,
            )  # fmt: skip
            late = next(
                p for p in sorted((results / "entries").glob("*.html")) if "(valid, late)" in (
                    p.read_text(encoding="utf-8"))
            )  # fmt: skip
            for width, suffix in ((1280, ""), (390, "-phone")):
                context = browser.new_context(viewport={"width": width, "height": 900})
                page = context.new_page()
                page.goto((results / "index.html").as_uri())
                page.screenshot(path=str(out / f"contest-site{suffix}.png"), full_page=True)
                page.goto(late.as_uri())
                page.screenshot(path=str(out / f"site-entry{suffix}.png"), full_page=width > 400)
                context.close()
            browser.close()


PLAYERS = ("Alice Example", "Bernd Müller", "Chloé Durand", "Dora", "Emil", "Fay", "Gus")


def write_inbox(folder: Path) -> Path:
    """A small mailbox of entries: random legal games through the engine, one mail each,
    then Alice again (her first entry is superseded), Oscar with Alice's game (a copy),
    Nora after the deadline (late) and Tom with an illegal step."""
    import mailbox
    import random
    from datetime import datetime, timedelta, timezone
    from email.message import EmailMessage
    from email.utils import format_datetime

    from validator.engine import STANDARD
    from validator.records import dump_record
    from validator.records.dice import read_dice
    from validator.solver.playout import random_game, to_record

    rows = read_dice(CHALLENGE).rows
    tz = timezone(timedelta(hours=1))
    box = mailbox.mbox(folder / "inbox.mbox")
    sent = [(name, seed) for seed, name in enumerate(PLAYERS)]
    sent += [("Alice Example", 7), ("Oscar", 7), ("Nora", 8)]
    for n, (name, seed) in enumerate(sent):
        game = random_game(rows, STANDARD, random.Random(seed))
        m = EmailMessage()
        m["From"] = f"{name} <{name.split()[0].lower()}@players.example>"
        m["To"] = "challenge@organizers.example"
        day = 21 if name == "Nora" else 5 + n
        m["Date"] = format_datetime(datetime(2026, 12, day, 10, 0, tzinfo=tz))
        m["Subject"] = "My game"
        m["Message-ID"] = f"<m{n}@players.example>"
        record = dump_record(to_record(game, player=name), "yaml")
        m.set_content("My record is attached.\n")
        m.add_attachment(record.encode(), "application", "octet-stream", filename="game.yaml")
        box.add(m)
    m = EmailMessage()
    m["From"] = "Tom <tom@players.example>"
    m["To"] = "challenge@organizers.example"
    m["Date"] = format_datetime(datetime(2026, 12, 14, 10, 0, tzinfo=tz))
    m["Subject"] = "Game"
    m["Message-ID"] = "<tom@players.example>"
    m.set_content("Attached.\n")
    illegal = ROOT / "examples" / "invalid" / "e205-move-unreachable.yaml"
    m.add_attachment(illegal.read_bytes(), "application", "octet-stream", filename="tom.yaml")
    box.add(m)
    box.close()
    return folder / "inbox.mbox"


if __name__ == "__main__":
    main()
