"""Screenshots of `road300 report` pages for docs/report.md, taken with headless Chromium.

Run: python tools/screenshot_report.py [--out docs] [--print]   (in the project's venv)
Writes docs/report-valid.png and docs/report-invalid.png (desktop, 1400 px wide),
docs/report-invalid-phone.png (390 px), docs/report-analysed.png and
docs/report-analysed-rounds.png (`report --analyze` of tests/golden/short.yaml, whose 7-row
dice file the search proves at once; the second shows only the round cards) and, with
--print, the first A4 page of each report as Chromium prints it, report-print-*.png
(needs poppler's pdftoppm). The analysed 40-roll game of tests/layout/ (its forced rerolls
in runs) gives docs/report-long-phone.png (390 px) and, with --print, its four printed pages
side by side as report-print-long-*.png.
Needs Debian's chromium (.ci/install-debian.sh); the examples are the repository's own.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import tempfile
from pathlib import Path

from validator.check.file import Checker
from validator.render.html import render_html
from validator.report.analysis import run_analysis
from validator.report.model import build_report

ROOT = Path(__file__).resolve().parent.parent

CHALLENGE = ROOT / "examples" / "challenge.txt"
SHORT = ROOT / "tests" / "golden" / "short.yaml"
LONG = ROOT / "tests" / "layout" / "long.yaml"
# Hides everything above the round cards, for a picture of the cards alone.
ROUNDS_ONLY = "header.card, .pictures, .analysis-card, .howto, .table-wrap, h2 { display: none; }"
ANALYSED = (
    # (file name, window width, window height, only the round cards)
    ("report-analysed.png", 1400, 1900, False),
    ("report-analysed-rounds.png", 1100, 1250, True),
)
SHOTS = (
    # (file name, record, window width, window height)
    ("report-valid.png", ROOT / "examples" / "alice.yaml", 1400, 1500),
    ("report-invalid.png", ROOT / "examples" / "invalid" / "e206-path-illegal.yaml", 1400, 1100),
    (
        "report-invalid-phone.png",
        ROOT / "examples" / "invalid" / "e206-path-illegal.yaml",
        390,
        1600,
    ),
)


def chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    raise SystemExit("no Chromium found: install Debian's chromium, as .ci/run does")


def run(browser: str, page: Path, profile: Path, *args: str) -> None:
    command = [
        browser,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--hide-scrollbars",
        "--no-first-run",
        "--disable-background-networking",
        f"--user-data-dir={profile}",
        *args,
        page.as_uri(),
    ]
    subprocess.run(command, check=True, capture_output=True, timeout=120)


def page_for(record: Path, folder: Path) -> Path:
    # Named as from the repository's root, as a user would type it.
    result = Checker.create(CHALLENGE, None).check(record, str(record.relative_to(ROOT)))
    page = folder / (record.stem + ".html")
    page.write_text(render_html(build_report(result)), encoding="utf-8")
    return page


def analysed_page(folder: Path, rounds_only: bool) -> Path:
    """The page `road300 report tests/golden/short.yaml --analyze` writes."""
    checker = Checker.create(SHORT.parent / "dice.txt", None)
    result = checker.check(SHORT, "short.yaml")
    report = build_report(result)
    assert checker.dice is not None
    html = render_html(report, run_analysis(report, checker.dice.rows, time_limit=1.0))
    if rounds_only:
        html = html.replace("</style>", ROUNDS_ONLY + "\n</style>", 1)
    page = folder / ("short-analysed-rounds.html" if rounds_only else "short-analysed.html")
    page.write_text(html, encoding="utf-8")
    return page


def long_page(folder: Path) -> Path:
    """The page `road300 report tests/layout/long.yaml --analyze` writes (the search has a
    short time per position here: the picture is about the layout)."""
    checker = Checker.create(LONG.parent / "long-dice.txt", None)
    report = build_report(checker.check(LONG, "long.yaml"))
    assert checker.dice is not None
    html = render_html(report, run_analysis(report, checker.dice.rows, time_limit=0.3))
    page = folder / "long.html"
    page.write_text(html, encoding="utf-8")
    return page


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs")
    parser.add_argument(
        "--print", action="store_true", help="also show each report's first printed A4 page"
    )
    args = parser.parse_args()
    browser = chromium()
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for name, record, width, height in SHOTS:
            page = page_for(record, folder)
            shot = args.out / name
            run(
                browser,
                page,
                folder / "profile",
                f"--screenshot={shot}",
                f"--window-size={width},{height}",
            )
            print(f"wrote {shot}")
        for name, width, height, rounds_only in ANALYSED:
            shot = args.out / name
            page = analysed_page(folder, rounds_only)
            size = f"--window-size={width},{height}"
            run(browser, page, folder / "profile", f"--screenshot={shot}", size)
            print(f"wrote {shot}")
        long = long_page(folder)
        shot = args.out / "report-long-phone.png"
        run(browser, long, folder / "profile", f"--screenshot={shot}", "--window-size=390,1800")
        print(f"wrote {shot}")
        if args.print:
            for record in dict.fromkeys(record for _, record, _, _ in SHOTS):
                print_pages(browser, page_for(record, folder), folder, args.out)
            print_pages(browser, long, folder, args.out, every=True)


def print_pages(browser: str, page: Path, folder: Path, out: Path, *, every: bool = False) -> None:
    """The page printed to A4 and, with poppler's pdftoppm, its first page (`every`: each
    page, numbered) as PNG."""
    pdf = folder / (page.stem + ".pdf")
    run(browser, page, folder / "profile", f"--print-to-pdf={pdf}", "--no-pdf-header-footer")
    if shutil.which("pdftoppm") is None:
        print("no pdftoppm (poppler-utils): the printed pages are not shown")
        return
    stem = out / f"report-print-{page.stem}"
    if every:
        command = ["pdftoppm", "-r", "50", "-png", str(pdf), str(stem)]
        subprocess.run(command, check=True, timeout=120)
        print(f"wrote {stem}-*.png")
        return
    command = ["pdftoppm", "-r", "60", "-png", "-f", "1", "-l", "1", "-singlefile"]
    subprocess.run([*command, str(pdf), str(stem)], check=True, timeout=120)
    print(f"wrote {stem}.png")


if __name__ == "__main__":
    main()
