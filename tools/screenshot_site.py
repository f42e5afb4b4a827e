"""Screenshots of `road300 site` for docs/contest.md, taken with headless Chromium through
Playwright: docs/site-announcement-phone.png (index.html) and docs/site-play-phone.png
(play.html in the middle of a game, a cross-out chosen and a walk shown), both 390 px wide.

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
            browser.close()


if __name__ == "__main__":
    main()
