"""The report as a person sees it, measured in headless Chromium at 390 px (a phone),
1280 px and in print emulation (the page's print rules applied on screen at A4's printable
width): no element runs out of its card or the viewport, no text is clipped, no scroll box
hides content, no SVG text leaves its picture; and the analysed 40-roll game prints on at
most 4 A4 pages with its summary on page 1.

Pages: a valid game, one invalid record per part (dice, cross-out, path, move, score), an
expansion game that leaves the board (In and Out!) and one that escapes, and a 40-roll game
with --analyze; and in German and French (longer words) the pages with the most words: the
illegal path's key, the expansion game and the analysed 40-roll game. Slow (a browser per
check): run with `pytest -m slow`; skipped without Chromium. Screenshots of each page are
written to the test's folder, for a person to look at when a check fails.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from functools import cache, partial
from html import escape
from pathlib import Path

import pytest
from test_report_browser import CHROMIUM, chromium, console_lines, pdf_pages

from validator.check.file import Checker
from validator.language import i18n
from validator.render.html import render_html
from validator.report.analysis import AnalysisView, run_analysis
from validator.report.model import build_report

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"
LAYOUT = ROOT / "tests" / "layout"
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(CHROMIUM is None, reason="no Chromium found (see test_report_browser)"),
]

PRINT_WIDTH = 711
"""A4's printable width in CSS pixels (210 mm less the page's 2 x 11 mm margins)."""

# Test harness only (the report itself runs no script): measures the laid-out page and puts
# what it found into the DOM, which --dump-dom prints.
PROBE = """<script>
(() => {
const bad = [];
const vw = document.documentElement.clientWidth;
const say = (what, el, extra) => {
  if (bad.length < 40) bad.push(what + ": " + el.tagName + "." + (el.getAttribute("class") || "")
    + " " + (el.textContent || "").trim().slice(0, 40) + (extra ? " " + extra : ""));
};
const hidden = (el) => el.closest(".sr") || (el.closest("details:not([open])")
  && !el.closest("summary") && el.tagName !== "DETAILS");
const shown = (el) => el.getClientRects().length > 0 && !hidden(el);
const clips = (el) => {
  const s = getComputedStyle(el);
  return s.overflowX !== "visible" || s.overflowY !== "visible";
};
const inside = (r, box, slack) => r.left >= box.left - slack && r.right <= box.right + slack
  && r.top >= box.top - slack && r.bottom <= box.bottom + slack;
if (document.documentElement.scrollWidth > vw + 1) bad.push("the page scrolls sideways");
for (const el of document.querySelectorAll("main *")) {
  if (!shown(el) || (el instanceof SVGElement && el.tagName !== "svg")) continue;
  const r = el.getBoundingClientRect();
  if (r.width === 0 && r.height === 0) continue;
  if (r.left < -1 || r.right > vw + 1) say("outside the viewport", el, Math.round(r.right));
  const card = el.parentElement && el.parentElement.closest(".card");
  if (card && !inside(r, card.getBoundingClientRect(), 1)) say("out of its card", el);
  if (clips(el) && (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1)
      && el.clientWidth > 0) say("hides content (scrolls or clips)", el);
}
// Every text node is drawn where it can be seen: inside each clipping box around it.
const walker = document.createTreeWalker(document.querySelector("main"), NodeFilter.SHOW_TEXT);
for (let node = walker.nextNode(); node; node = walker.nextNode()) {
  const el = node.parentElement;
  if (!node.textContent.trim() || !el || !shown(el) || el.closest("svg")) continue;
  const range = document.createRange();
  range.selectNodeContents(node);
  for (const r of range.getClientRects()) {
    for (let box = el; box && box !== document.body; box = box.parentElement) {
      if (clips(box) && !inside(r, box.getBoundingClientRect(), 1)) {
        say("text clipped", el, "by " + box.tagName + "." + box.className);
        break;
      }
    }
  }
}
// SVG text stays inside its picture (a label cut in half at the top of the chart).
for (const t of document.querySelectorAll("main svg text")) {
  if (!shown(t)) continue;
  const svg = t.ownerSVGElement, vb = svg.viewBox.baseVal, b = t.getBBox();
  const m = t.getCTM() ? svg.getCTM().inverse().multiply(t.getCTM()) : null;
  const p = (x, y) => m ? new DOMPoint(x, y).matrixTransform(m) : {x, y};
  const corners = [p(b.x, b.y), p(b.x + b.width, b.y + b.height), p(b.x, b.y + b.height),
                   p(b.x + b.width, b.y)];
  for (const c of corners) {
    if (c.x < vb.x - 1 || c.x > vb.x + vb.width + 1 || c.y < vb.y - 1
        || c.y > vb.y + vb.height + 1) { say("svg text out of its picture", t); break; }
  }
}
window.parent.document.body.setAttribute("data-fit", JSON.stringify(bad));
})();
</script>"""


def _report_html(
    dice: Path, record: Path, *, analyse: bool = False, lang: i18n.Language = "en"
) -> str:
    checker = Checker.create(dice, None)
    with i18n.speaking(lang):
        report = build_report(checker.check(record, record.name))
        view = None
        if analyse:
            assert checker.dice is not None
            found = run_analysis(report, checker.dice.rows, time_limit=0.2)
            assert isinstance(found, AnalysisView)
            view = found
        return render_html(report, view)


@cache
def long_analysed(lang: i18n.Language = "en") -> str:
    return _report_html(LAYOUT / "long-dice.txt", LAYOUT / "long.yaml", analyse=True, lang=lang)


CHALLENGE = ROOT / "examples" / "challenge.txt"
INVALID = ROOT / "examples" / "invalid"
PAGES: dict[str, Callable[[], str]] = {
    "valid": lambda: _report_html(CHALLENGE, ROOT / "examples" / "alice.yaml"),
    "dice": lambda: _report_html(CHALLENGE, INVALID / "e101-dice-mismatch.yaml"),
    "cross": lambda: _report_html(CHALLENGE, INVALID / "e203-cross-taken.yaml"),
    "path": lambda: _report_html(CHALLENGE, INVALID / "e206-path-illegal.yaml"),
    "move": lambda: _report_html(CHALLENGE, INVALID / "e205-move-unreachable.yaml"),
    "score": lambda: _report_html(CHALLENGE, INVALID / "e107-score-mismatch.yaml"),
    "in-and-out": lambda: _report_html(GOLDEN / "challenge.txt", GOLDEN / "in-and-out.yaml"),
    "escape": lambda: _report_html(GOLDEN / "challenge.txt", GOLDEN / "escape.yaml"),
    "long-analysed": long_analysed,
    **{
        f"{lang}-{name}": page
        for lang in ("de", "fr")
        for name, page in (
            (
                "path",
                partial(_report_html, CHALLENGE, INVALID / "e206-path-illegal.yaml", lang=lang),
            ),
            (
                "in-and-out",
                partial(
                    _report_html, GOLDEN / "challenge.txt", GOLDEN / "in-and-out.yaml", lang=lang
                ),
            ),
            ("long-analysed", partial(long_analysed, lang)),
        )
    },
}
VIEWS = {"phone": 390, "desktop": 1280, "print": PRINT_WIDTH}


def measured(html: str, view: str, tmp: Path) -> list[str]:
    """What the probe found wrong with `html` in `view`; a screenshot is left beside."""
    page = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", html)
    if view == "print":
        # Print emulation: the print rules apply on screen, at A4's printable width.
        page = page.replace("@media print {", "@media all {")
    width = VIEWS[view]
    plain = tmp / f"{view}.html"
    plain.write_text(page, encoding="utf-8")
    shot = chromium(plain, tmp, f"--screenshot={tmp / view}.png", f"--window-size={width},3000")
    assert shot.returncode == 0, shot.stderr[-2000:]
    # Headless Chromium's --dump-dom lays a page out at least 500 px wide: the page goes
    # in a frame of the view's width, and the probe inside it reports to the frame's parent.
    probed = tmp / f"{view}-probe.html"
    inner = page.replace("</body>", PROBE + "</body>")
    probed.write_text(
        '<!DOCTYPE html><html><body style="margin:0"><iframe style="border:0;'
        f'width:{width}px;height:1200px" srcdoc="{escape(inner, quote=True)}"></iframe>'
        "</body></html>",
        encoding="utf-8",
    )
    run = chromium(probed, tmp, "--dump-dom", f"--window-size={max(width, 800)},1300")
    assert run.returncode == 0, run.stderr[-2000:]
    found = re.search(r'data-fit="([^"]*)"', run.stdout)
    assert found is not None, "the probe did not run: " + "\n".join(console_lines(run.stderr))
    problems: list[str] = json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&"))
    return problems


@pytest.mark.parametrize("view", list(VIEWS))
@pytest.mark.parametrize("name", list(PAGES))
def test_nothing_overflows_or_is_clipped(name: str, view: str, tmp_path: Path) -> None:
    assert measured(PAGES[name](), view, tmp_path) == [], f"{name} at {view} ({tmp_path})"


def test_the_probe_sees_overflow_clipping_and_a_cut_label(tmp_path: Path) -> None:
    """The control: a page with each fault the probe looks for gets each one reported."""
    html = (
        "<!DOCTYPE html><html><head><style>.card{width:200px;border:1px solid}</style></head>"
        '<body><main><div class="card"><p style="white-space:nowrap">'
        + "word "
        * 40
        + '</p></div><div class="card" style="overflow:hidden;height:20px"><p>one<br>two<br>'
        "three</p></div>"
        '<svg viewBox="0 0 100 40" width="100" height="40"><text x="50" y="4">cut</text></svg>'
        "</main></body></html>"
    )
    problems = "\n".join(measured(html, "desktop", tmp_path))
    assert "out of its card" in problems
    assert "hides content" in problems and "text clipped" in problems
    assert "svg text out of its picture" in problems


def test_the_analysed_long_game_prints_on_four_pages_summary_first(tmp_path: Path) -> None:
    html = long_analysed()
    assert html.count('class="card round minor reroll"') >= 20, "a game with many rerolls"
    page = tmp_path / "long.html"
    page.write_text(html, encoding="utf-8")
    pdf = tmp_path / "long.pdf"
    run = chromium(page, tmp_path, f"--print-to-pdf={pdf}", "--no-pdf-header-footer")
    assert run.returncode == 0, run.stderr[-2000:]
    assert 1 <= pdf_pages(pdf.read_bytes()) <= 4
    # The header and the game at a glance alone fit one page: they are page 1.
    end = html.index('<section class="card analysis-card"')
    head = tmp_path / "head.html"
    head.write_text(html[:end] + "</main></body></html>", encoding="utf-8")
    run = chromium(head, tmp_path, f"--print-to-pdf={pdf}", "--no-pdf-header-footer")
    assert run.returncode == 0 and pdf_pages(pdf.read_bytes()) == 1
