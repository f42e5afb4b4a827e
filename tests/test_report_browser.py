"""The HTML report in a real browser: headless Chromium takes a screenshot and logs nothing.

Chromium writes every console message (errors, blocked resources, CSP violations) to
stderr as `...:CONSOLE:...` lines with --enable-logging=stderr; a page with a deliberate
error checks that this channel works before the report is judged by it.
Skipped only when no Chromium is installed (CI installs it: .ci/install-debian.sh).
"""

from __future__ import annotations

import os
import re
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest

from validator.check.file import Checker
from validator.render.html import render_html
from validator.report.model import build_report

ROOT = Path(__file__).resolve().parent.parent
WIDTH, HEIGHT = 1200, 2000
CANDIDATES = ("/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome", "chrome")


def find_chromium() -> str | None:
    override = os.environ.get("CHROMIUM")
    if override:
        return override
    for name in CANDIDATES:
        found = shutil.which(name)
        if found:
            return found
    return None


CHROMIUM = find_chromium()
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        CHROMIUM is None,
        reason="no Chromium found (looked for /usr/bin/chromium, chromium, chromium-browser, "
        "google-chrome; set CHROMIUM=/path or install Debian's chromium, as .ci/run does)",
    ),
]


def chromium(page: Path, tmp: Path, *args: str) -> subprocess.CompletedProcess[str]:
    assert CHROMIUM is not None
    command = [
        CHROMIUM,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--no-first-run",
        "--disable-sync",
        "--hide-scrollbars",
        f"--user-data-dir={tmp / 'profile'}",
        "--enable-logging=stderr",
        "--v=0",
        *args,
        page.as_uri(),
    ]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)


def console_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if ":CONSOLE" in line]


# --- PNG, read with the standard library ---------------------------------------------


def png_size_and_pixels(data: bytes) -> tuple[int, int, list[bytes]]:
    """(width, height, rows of raw pixel bytes) of an 8-bit RGB or RGBA PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos = 8
    idat = b""
    width = height = bpp = 0
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind = data[pos + 4 : pos + 8]
        body = data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and colour in (2, 6) and interlace == 0, (depth, colour, interlace)
            bpp = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows: list[bytes] = []
    prev = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind_ = raw[start]
        line = bytearray(raw[start + 1 : start + 1 + stride])
        for i in range(stride):
            left = line[i - bpp] if i >= bpp else 0
            up = prev[i]
            corner = prev[i - bpp] if i >= bpp else 0
            if kind_ == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind_ == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind_ == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind_ == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                pred = left if pa <= pb and pa <= pc else up if pb <= pc else corner
                line[i] = (line[i] + pred) & 0xFF
        rows.append(bytes(line))
        prev = line
    return width, height, [bytes(r) for r in rows]


def colours(rows: list[bytes], bpp: int, step: int = 7) -> dict[bytes, int]:
    """Pixel colours counted on a sparse grid (every `step`-th pixel and row)."""
    seen: dict[bytes, int] = {}
    for row in rows[::step]:
        for x in range(0, len(row) - bpp + 1, bpp * step):
            pixel = row[x : x + 3]
            seen[pixel] = seen.get(pixel, 0) + 1
    return seen


# --- the tests -----------------------------------------------------------------------


def test_console_errors_are_seen(tmp_path: Path) -> None:
    """The control: a page that fetches from the network and runs a script is caught."""
    page = tmp_path / "bad.html"
    page.write_text(
        '<!DOCTYPE html><html><head><meta http-equiv="Content-Security-Policy" '
        "content=\"default-src 'none'\"></head><body><p>bad</p>"
        '<img src="https://example.invalid/x.png"><script>console.error("boom")</script>'
        "</body></html>",
        encoding="utf-8",
    )
    run = chromium(page, tmp_path, "--dump-dom")
    assert run.returncode == 0, run.stderr[-2000:]
    assert "<p>bad</p>" in run.stdout
    assert len(console_lines(run.stderr)) >= 2, run.stderr[-2000:]


@pytest.mark.parametrize("record", ["alice.yaml", "alice-invalid"])
def test_report_renders_in_chromium(record: str, tmp_path: Path) -> None:
    source = ROOT / "examples" / "alice.yaml"
    if record == "alice-invalid":
        text = source.read_text(encoding="utf-8").replace("move: [6, 1], steps: 2", "move: [6, 6]")
        source = tmp_path / "alice-invalid.yaml"
        source.write_text(text.replace("Alice Example", "<script>alert(1)</script>"), "utf-8")
    checker = Checker.create(ROOT / "examples" / "challenge.txt", None)
    report = build_report(checker.check(source))
    page = tmp_path / "report.html"
    page.write_text(render_html(report), encoding="utf-8")

    shot = tmp_path / "report.png"
    run = chromium(page, tmp_path, f"--screenshot={shot}", f"--window-size={WIDTH},{HEIGHT}")
    assert run.returncode == 0, run.stderr[-2000:]
    assert console_lines(run.stderr) == []
    width, height, rows = png_size_and_pixels(shot.read_bytes())
    assert (width, height) == (WIDTH, HEIGHT)
    bpp = len(rows[0]) // width
    seen = colours(rows, bpp)
    # Not blank: many colours, and the commonest (the background) is far from everything.
    assert len(seen) > 50, f"only {len(seen)} colours in the screenshot"
    assert max(seen.values()) < 0.9 * sum(seen.values())

    dom = chromium(page, tmp_path, "--dump-dom")
    assert dom.returncode == 0
    assert console_lines(dom.stderr) == []
    assert "<script" not in dom.stdout.lower()
    assert dom.stdout.count('class="board"') >= len(report.played)
    if record == "alice-invalid":
        assert 'id="illegal-step"' in dom.stdout
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in dom.stdout


# --- every example at desktop and phone width, and printed ---------------------------

EXAMPLES = [
    ROOT / "examples" / "alice.yaml",
    *sorted((ROOT / "examples" / "invalid").glob("*.yaml")),
]
MAX_PAGES = 4
"""A 22-round game (every example is one) prints on at most this many A4 pages."""

# Test harness only (the report itself runs no script): lists elements whose text runs
# out of their box, and whether the page scrolls sideways; the result goes into the DOM.
_OVERFLOW_PROBE = """<script>
const bad = [];
for (const el of document.querySelectorAll("main *")) {
  if (el instanceof SVGElement || el.closest(".table-wrap, .chart-fig, svg, .sr")) continue;
  if (el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1) {
    bad.push(el.tagName + "." + el.className + ": " + el.textContent.trim().slice(0, 40));
  }
}
if (document.documentElement.scrollWidth > window.innerWidth + 1) bad.push("page scrolls sideways");
document.body.setAttribute("data-overflow", JSON.stringify(bad));
</script>"""


def _page(record: Path, tmp: Path, html: str | None = None) -> Path:
    if html is None:
        result = Checker.create(ROOT / "examples" / "challenge.txt", None).check(record)
        html = render_html(build_report(result))
    page = tmp / (record.stem + ".html")
    page.write_text(html, encoding="utf-8")
    return page


def pdf_pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page\b(?!s)", pdf))


def _print(page: Path, tmp: Path) -> int:
    pdf = tmp / (page.stem + ".pdf")
    run = chromium(page, tmp, f"--print-to-pdf={pdf}", "--no-pdf-header-footer")
    assert run.returncode == 0, run.stderr[-2000:]
    return pdf_pages(pdf.read_bytes())


@pytest.mark.parametrize("record", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_every_example_fits_desktop_phone_and_a4(record: Path, tmp_path: Path) -> None:
    # Messages name the record by its path, so the page must wrap long ones wherever the
    # project happens to live (a CI checkout under a deeper folder than a developer's).
    deep = tmp_path / "an-organizer-s-rather-long-folder-name" / "entries-received-this-week"
    deep.mkdir(parents=True)
    copy = deep / record.name
    copy.write_bytes(record.read_bytes())
    html = render_html(
        build_report(Checker.create(ROOT / "examples" / "challenge.txt", None).check(copy))
    )
    probe = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", html)
    probe = probe.replace("</body>", _OVERFLOW_PROBE + "</body>")
    page = _page(record, tmp_path, probe)
    for width in (1400, 390):
        run = chromium(page, tmp_path, "--dump-dom", f"--window-size={width},1200")
        assert run.returncode == 0, run.stderr[-2000:]
        found = re.search(r'data-overflow="([^"]*)"', run.stdout)
        assert found is not None, "the probe did not run"
        assert found.group(1) == "[]", (width, found.group(1).replace("&quot;", '"'))

    pages = _print(_page(record, tmp_path, html), tmp_path)
    assert 1 <= pages <= MAX_PAGES, pages
    start = html.find('<section class="card illegal"')
    if start >= 0:
        # Everything up to the end of the illegal step (or error) alone fits on one page,
        # so in the whole report it is on page 1.
        end = html.index("</section>", start) + len("</section>")
        head = html[:end] + "</main></body></html>"
        assert _print(_page(record.with_name("head-" + record.name), tmp_path, head), tmp_path) == 1


def test_page_count_sees_a_long_page(tmp_path: Path) -> None:
    """The control: a page taller than an A4 sheet prints on more than one page."""
    page = tmp_path / "long.html"
    page.write_text("<!DOCTYPE html><p>" + "<br>line" * 400 + "</p>", encoding="utf-8")
    assert _print(page, tmp_path) > 1
