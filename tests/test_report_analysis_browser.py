"""An analysed report (`road300 report --analyze`) in headless Chromium: no console
message, nothing overflowing its box at desktop and phone width, the better choice and the
points-lost line drawn (purple pixels in the screenshot), and the illegal step of an
invalid record still on the first printed page.

Slow (a browser per check): run with `pytest -m slow`. Skipped without Chromium.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_report_browser import (
    _OVERFLOW_PROBE,
    CHROMIUM,
    chromium,
    colours,
    console_lines,
    pdf_pages,
    png_size_and_pixels,
)

from validator.check.file import Checker
from validator.render.html import render_html
from validator.report.analysis import AnalysisView, run_analysis
from validator.report.model import build_report

GOLDEN = Path(__file__).resolve().parent / "golden"
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(CHROMIUM is None, reason="no Chromium found (see test_report_browser)"),
]
PURPLE = bytes((0x8E, 0x3B, 0x8E))


def _html(name: str) -> str:
    checker = Checker.create(GOLDEN / "dice.txt", None)
    report = build_report(checker.check(GOLDEN / name))
    assert checker.dice is not None
    view = run_analysis(report, checker.dice.rows, time_limit=1.0)
    assert isinstance(view, AnalysisView)
    return render_html(report, view)


@pytest.mark.parametrize("name", ["short.yaml", "short-invalid.yaml"])
def test_analysed_page_renders_fits_and_prints(name: str, tmp_path: Path) -> None:
    html = _html(name)
    page = tmp_path / "analysed.html"
    page.write_text(html, encoding="utf-8")
    shot = tmp_path / "analysed.png"
    run = chromium(page, tmp_path, f"--screenshot={shot}", "--window-size=1200,2400")
    assert run.returncode == 0, run.stderr[-2000:]
    assert console_lines(run.stderr) == []
    width, _, rows = png_size_and_pixels(shot.read_bytes())
    seen = colours(rows, len(rows[0]) // width, step=1)
    assert seen.get(PURPLE, 0) > 50, "no purple: the better choice or points lost not drawn"

    probe = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", html)
    probed = tmp_path / "probe.html"
    probed.write_text(probe.replace("</body>", _OVERFLOW_PROBE + "</body>"), encoding="utf-8")
    for window in (1400, 390):
        dom = chromium(probed, tmp_path, "--dump-dom", f"--window-size={window},1200")
        assert dom.returncode == 0, dom.stderr[-2000:]
        found = re.search(r'data-overflow="([^"]*)"', dom.stdout)
        assert found is not None, "the probe did not run"
        assert found.group(1) == "[]", (window, found.group(1).replace("&quot;", '"'))

    pdf = tmp_path / "analysed.pdf"
    run = chromium(page, tmp_path, f"--print-to-pdf={pdf}", "--no-pdf-header-footer")
    assert run.returncode == 0, run.stderr[-2000:]
    assert 1 <= pdf_pages(pdf.read_bytes()) <= 4
    start = html.find('<section class="card illegal"')
    if start >= 0:
        end = html.index("</section>", start) + len("</section>")
        head = tmp_path / "head.html"
        head.write_text(html[:end] + "</main></body></html>", encoding="utf-8")
        run = chromium(head, tmp_path, f"--print-to-pdf={pdf}", "--no-pdf-header-footer")
        assert pdf_pages(pdf.read_bytes()) == 1
