"""Screenshots of `road300 report` pages for docs/report.md, taken with headless Chromium.

Run: python tools/screenshot_report.py [--out docs] [--pdf]
Writes docs/report-valid.png and docs/report-invalid.png (desktop, 1400 px wide),
docs/report-invalid-phone.png (390 px) and, with --pdf, report-*.pdf next to them. Needs
Debian's chromium (.ci/install-chromium.sh); the examples are the repository's own.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from validator.check import Checker  # noqa: E402
from validator.render.html import render_html  # noqa: E402
from validator.report import build_report  # noqa: E402

CHALLENGE = ROOT / "examples" / "challenge.txt"
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
    raise SystemExit("no Chromium found: run .ci/install-chromium.sh")


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
    result = Checker.create(CHALLENGE, None).check(record)
    page = folder / (record.stem + ".html")
    page.write_text(render_html(build_report(result)), encoding="utf-8")
    return page


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs")
    parser.add_argument("--pdf", action="store_true", help="also print each page to A4 PDF")
    args = parser.parse_args()
    browser = chromium()
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
            if args.pdf:
                pdf = args.out / (record.stem + ".pdf")
                run(
                    browser,
                    page,
                    folder / "profile",
                    f"--print-to-pdf={pdf}",
                    "--no-pdf-header-footer",
                )
                print(f"wrote {pdf}")


if __name__ == "__main__":
    main()
