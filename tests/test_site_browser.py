"""Every page of a generated challenge site in headless Chromium: 0 axe-core violations at a
phone's and a desktop's width (the results site in English and German with every kind of
entry, and the announcement with play.html), and the leaderboard's score chart whole and
legible at 390 px (no label cut off, none smaller than 11 px).

axe-core comes from the npm registry into a cache folder (`AXE_DIR`), once: the test fails,
never skips, when it cannot be had (give it with ROAD300_AXE_DIR, a folder holding
node_modules/axe-core/axe.min.js). Skipped only when Playwright or Chromium is missing, as
every browser test (see test_report_browser)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from mail_helpers import DICE, inbox, write_mbox
from test_report_browser import CHROMIUM
from test_site_pages import draw_site

from validator.cli import main

ROOT = Path(__file__).resolve().parent.parent
AXE_VERSION = "4.10.2"
AXE_DIR = Path(
    os.environ.get("ROAD300_AXE_DIR")
    or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    / "road300"
    / f"axe-core-{AXE_VERSION}"
)
WIDTHS = (390, 1280)

playwright_api = pytest.importorskip("playwright.sync_api")

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(CHROMIUM is None, reason="no Chromium found (see test_report_browser)"),
]


def axe_script() -> Path:
    """axe.min.js, installed with npm into AXE_DIR when it is not there yet."""
    script = AXE_DIR / "node_modules" / "axe-core" / "axe.min.js"
    if script.is_file():
        return script
    npm = shutil.which("npm")
    if npm is None:
        pytest.fail(
            f"axe-core {AXE_VERSION} is needed and npm is not installed to fetch it: install "
            "npm (.ci/install-debian.sh npm npm), or give ROAD300_AXE_DIR, a folder holding "
            "node_modules/axe-core/axe.min.js"
        )
    done = subprocess.run(
        [npm, "install", "--prefix", str(AXE_DIR), "--no-save", "--no-audit", "--no-fund",
         "--no-package-lock", f"axe-core@{AXE_VERSION}"],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    if done.returncode != 0 or not script.is_file():
        pytest.fail(
            f"npm could not install axe-core {AXE_VERSION} into {AXE_DIR} "
            f"(exit {done.returncode}): {done.stderr[-800:]}"
        )
    return script


@pytest.fixture(scope="module")
def axe() -> str:
    return axe_script().read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_api.sync_playwright() as p:
        launched = p.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
        )
        yield launched
        launched.close()


def _results(tmp: Path, lang: str) -> Path:
    mbox = write_mbox(inbox(), tmp / "inbox.mbox")
    site = tmp / "site"
    args = ["batch", str(mbox), "--dice", str(DICE), "--deadline", "2026-12-20T23:59:59+01:00"]
    args += ["--site", str(site), "--name", "Winter challenge", "--lang", lang, "-j", "1"]
    args += ["--par", "--par-nodes", "2000"]
    result = CliRunner().invoke(main, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return site


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    made = [_results(tmp_path_factory.mktemp(lang), lang) for lang in ("en", "de")]
    announcement = tmp_path_factory.mktemp("announcement") / "site"
    done = subprocess.run(
        [sys.executable, "-m", "validator", "site", str(DICE), "-o", str(announcement),
         "--name", "Winter challenge", "--deadline", "2026-12-20T23:59:59+01:00",
         "--organizer", "challenge@organizers.example"],
        capture_output=True, text=True, check=False, cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return [*made, announcement, draw_site(tmp_path_factory.mktemp("draw"))]


def _violations(browser: Any, axe: str, page_path: Path, width: int) -> list[str]:
    # The pages' policy lets no script run: axe goes in past it, as a browser extension would.
    context = browser.new_context(viewport={"width": width, "height": 900}, bypass_csp=True)
    try:
        page = context.new_page()
        page.goto(page_path.as_uri())
        page.add_script_tag(content=axe)
        found = page.evaluate(
            "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
            ".map(v => `${v.id} (${v.impact}): ${v.nodes.length} nodes, first ` +"
            " JSON.stringify(v.nodes[0].target))"
        )
        wide = page.evaluate("document.documentElement.scrollWidth")
        overflow = [f"wider than the screen: {wide} px"] if wide > width else []
        return [str(v) for v in found] + overflow
    finally:
        context.close()


def test_no_axe_violation_on_any_page_nor_one_wider_than_the_screen(
    browser: Any, axe: str, sites: list[Path]
) -> None:
    pages = [p for site in sites for p in sorted(site.rglob("*.html"))]
    # Two results sites of 20-odd entries each, the announcement, a site whose draw is made.
    assert len(pages) > 40
    found = {
        f"{page.relative_to(page.parents[1] if page.parent.name == 'entries' else page.parent)}"
        f" ({page.parents[2 if page.parent.name == 'entries' else 1].name}) at {width}": v
        for page in pages
        for width in WIDTHS
        if (v := _violations(browser, axe, page, width))
    }
    assert found == {}


def test_the_check_finds_the_nested_links_of_an_image(
    browser: Any, axe: str, tmp_path: Path
) -> None:
    """The check can fail: links inside an `<svg role="img">` (the old score chart)."""
    page = tmp_path / "bad.html"
    page.write_text(
        '<!DOCTYPE html><html lang="en"><head><title>t</title></head><body><main>'
        '<svg role="img" aria-label="chart"><a href="#x"><rect width="9" height="9"/></a>'
        "</svg></main></body></html>",
        encoding="utf-8",
    )
    assert any(v.startswith("nested-interactive") for v in _violations(browser, axe, page, 390))


def test_the_score_chart_is_whole_and_legible_on_a_phone(browser: Any, sites: list[Path]) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 900})
    try:
        page = context.new_page()
        page.goto((sites[0] / "index.html").as_uri())
        texts = page.evaluate(
            """() => { const svg = document.querySelector('svg.chart');
                const box = svg.getBoundingClientRect();
                return [...svg.querySelectorAll('text')].map(t => {
                  const r = t.getBoundingClientRect();
                  return {text: t.textContent, left: r.left - box.left, right: box.right - r.right,
                          size: parseFloat(getComputedStyle(t).fontSize) * box.width /
                                svg.viewBox.baseVal.width}; }); }"""
        )
        assert any(t["text"] == "par" for t in texts)
        for t in texts:
            assert t["left"] >= 0 and t["right"] >= 0, t  # inside the picture: not cut off
            assert t["size"] >= 11, t  # as shown: at least 11 px
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
    finally:
        context.close()
