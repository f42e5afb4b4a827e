"""play.html in headless Chromium (Playwright): whole games played by clicking through the
fixed testing hooks at a phone's and a desktop's width, the record validated by
`road300 validate` as the same game and score; undo, resume after a reload, keys, and no
request leaving the page. Skipped when Playwright or Chromium is missing."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_report_browser import CHROMIUM

ROOT = Path(__file__).resolve().parent.parent
DICE = ROOT / "tests" / "perft" / "challenge.txt"

playwright_api = pytest.importorskip("playwright.sync_api")

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(CHROMIUM is None, reason="no Chromium found (see test_report_browser)"),
]


def write_site(out: Path, *args: str) -> Path:
    done = subprocess.run(
        [sys.executable, "-m", "validator", "site", str(DICE), "-o", str(out), *args],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    return out / "play.html"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_api.sync_playwright() as p:
        launched = p.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        yield launched
        launched.close()


class Watched:
    """A page with every request and console message it makes noted."""

    def __init__(self, browser: Any, url: str, width: int) -> None:
        self.context = browser.new_context(
            viewport={"width": width, "height": 900}, has_touch=width < 500
        )
        self.page = self.context.new_page()
        self.requests: list[str] = []
        self.console: list[str] = []
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.on("console", lambda m: self.console.append(f"{m.type}: {m.text}"))
        self.page.on("pageerror", lambda e: self.console.append(f"pageerror: {e}"))
        self.page.goto(url)

    def phase(self) -> str:
        return str(self.page.get_attribute("body", "data-phase"))

    def legal(self) -> list[str]:
        return [
            str(e.get_attribute("data-field"))
            for e in self.page.query_selector_all('[data-legal="true"]')
        ]

    def click(self, field: str) -> None:
        self.page.click(f'[data-field="{field}"]')

    def record(self) -> str:
        return str(self.page.input_value("#record"))

    def score(self) -> int:
        return int(self.page.text_content("#score") or "")


def play_out(w: Watched, rounds: int = 200) -> None:
    """Click legal fields until the game is over: a cross-out that leaves a move first,
    in `move` the last destination offered (the walk shown is taken)."""
    for _ in range(rounds):
        phase = w.phase()
        if phase == "over":
            return
        legal = w.legal()
        assert legal, f"no legal field in phase {phase}"
        if phase == "cross":
            alive = [
                str(e.get_attribute("data-field"))
                for e in w.page.query_selector_all('[data-legal="true"]:not(.dead)')
            ]
            w.click((alive or legal)[0])
        else:
            w.page.hover(f'[data-field="{legal[-1]}"]')
            assert w.page.query_selector_all(".walk"), "the walk is shown before it is taken"
            w.click(legal[-1])
    raise AssertionError("the game did not end")


def validate(record: str, tmp: Path) -> dict[str, Any]:
    path = tmp / "record.txt"
    path.write_text(record, encoding="utf-8")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "validator",
            "validate",
            str(path),
            "--dice",
            str(DICE),
            "--format",
            "json",
        ],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )
    result: dict[str, Any] = json.loads(done.stdout)
    return result


@pytest.mark.parametrize("width", [390, 1280])
def test_a_whole_game_by_clicking_validates(browser: Any, tmp_path: Path, width: int) -> None:
    page = write_site(tmp_path / "site", "--organizer", "challenge@example.org")
    w = Watched(browser, page.as_uri(), width)
    assert w.phase() == "cross" and w.score() == 0
    play_out(w)
    result = validate(w.record(), tmp_path)
    assert result["verdict"] == "valid", (result, w.record())
    assert result["score"] == w.score() > 0
    # The page, then the site's one stylesheet and script beside it: nothing else.
    beside = [(page.parent / name).as_uri() for name in ("site.css", "site.js")]
    assert sorted(w.requests) == sorted([page.as_uri(), *beside]), "no request leaves the site"
    assert w.console == []
    mail = w.page.get_attribute("#mail", "href") or ""
    assert mail.startswith("mailto:challenge@example.org?subject=")
    assert "x%20" in mail  # the record is in the body
    w.page.screenshot(path=str(tmp_path / f"play-{width}.png"), full_page=True)
    for url in (page.as_uri(), (page.parent / "index.html").as_uri()):
        w.page.goto(url)
        wide = w.page.evaluate("document.documentElement.scrollWidth")
        assert wide <= width, f"{url} is {wide} px wide at {width} px"
    w.context.close()


def test_undo_and_reload_resume(browser: Any, tmp_path: Path) -> None:
    page = write_site(tmp_path / "site")
    w = Watched(browser, page.as_uri(), 390)
    first = w.legal()[0]
    w.click(first)
    assert w.phase() == "move"
    # Before any destination is pointed at (a phone), the walk to the first one is shown.
    numbered = {
        int(cell.eval_on_selector(".step", "e => e.textContent")): cell.get_attribute("data-field")
        for cell in w.page.query_selector_all(".walk")
    }
    assert numbered and numbered[max(numbered)] in w.legal()
    w.page.click('[data-action="undo"]')
    assert w.phase() == "cross" and w.legal()[0] == first
    for _ in range(3):  # three rounds: cross-out and move
        w.click(
            w.page.query_selector_all('[data-legal="true"]:not(.dead)')[0].get_attribute(
                "data-field"
            )
        )
        w.click(w.legal()[0])
    before, score = w.record(), w.score()
    assert len([line for line in before.splitlines() if line[:1].isdigit()]) >= 3
    w.page.reload()
    assert (w.record(), w.score()) == (before, score), "a reload resumes the game"
    w.page.click('[data-action="undo"]')
    shorter = w.record()
    assert shorter != before and before.startswith(shorter.rsplit("\n", 2)[0])
    w.context.close()


def test_keys_play_and_undo(browser: Any, tmp_path: Path) -> None:
    page = write_site(tmp_path / "site")
    w = Watched(browser, page.as_uri(), 1280)
    target = w.legal()[0]
    w.page.focus('[data-field="1/1"]')
    w.page.keyboard.type(target.replace("/", ""))  # "34": row 3, column 4
    assert w.phase() == "move"
    w.page.keyboard.press("Escape")
    assert w.phase() == "cross"
    w.page.keyboard.type(target.replace("/", ""))
    w.page.keyboard.type(w.legal()[0].replace("/", ""))
    assert w.phase() in ("cross", "over") and " -> " in w.record()
    w.page.keyboard.press("u")
    assert " -> " not in w.record()
    w.context.close()


@pytest.mark.parametrize("lang", ["de", "fr"])
def test_the_page_speaks_the_site_language(browser: Any, tmp_path: Path, lang: str) -> None:
    page = write_site(tmp_path / "site", "--lang", lang)
    w = Watched(browser, page.as_uri(), 390)
    assert w.page.get_attribute("html", "lang") == lang
    undo = w.page.text_content('[data-action="undo"]')
    assert undo in {"de": ["Rückgängig"], "fr": ["Annuler"]}[lang]
    play_out(w)
    result = validate(w.record(), tmp_path)
    assert result["verdict"] == "valid" and result["score"] == w.score(), w.record()
    w.context.close()
