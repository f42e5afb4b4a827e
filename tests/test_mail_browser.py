"""The results site of `road300 batch --site`: its files hold no sender address and link
only inside the site, and in headless Chromium (as the report tests drive it) it logs
nothing and overflows nowhere, on a desktop and at 390 px, in English and in German (the
longer words)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from mail_helpers import DEADLINE, DICE, MAX_SIZE, Mail, inbox, write_mbox
from test_report_browser import _OVERFLOW_PROBE, CHROMIUM, chromium, console_lines

from validator.cli import main

pytestmark = [pytest.mark.slow]
needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium found")


@pytest.fixture(scope="module")
def mails() -> list[Mail]:
    return inbox()


@pytest.fixture(scope="module", params=["en", "de"])
def site(
    request: pytest.FixtureRequest, mails: list[Mail], tmp_path_factory: pytest.TempPathFactory
) -> Path:
    mbox = write_mbox(mails, tmp_path_factory.mktemp("mbox") / "inbox.mbox")
    folder = tmp_path_factory.mktemp("site")
    args = ["batch", str(mbox), "--dice", str(DICE), "--max-size", str(MAX_SIZE)]
    args += ["--deadline", DEADLINE.isoformat(), "--site", str(folder)]
    args += ["--name", "Winter <b>challenge</b>", "--par", "--par-time", "2"]
    args += ["--lang", str(request.param)]
    result = CliRunner().invoke(main, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return folder


def test_no_sender_address_on_the_site(mails: list[Mail], site: Path) -> None:
    addresses = {m.message["From"].addresses[0].addr_spec.lower() for m in mails}
    files = [p for p in site.rglob("*") if p.is_file()]
    assert len(files) > 10
    for path in files:
        text = path.read_text(encoding="utf-8").lower()
        for address in addresses:
            assert address not in text, (path.name, address)
        assert "@players.example" not in text, path.name
    index = (site / "index.html").read_text()
    assert "Winter &lt;b&gt;challenge&lt;/b&gt;" in index
    assert "Thanks a lot" not in index and "Viele Grüße" not in index
    assert "\x1b" not in index and "\u202e" not in index


def test_every_link_of_the_site_stays_inside_it(site: Path) -> None:
    pages = [site / "index.html", *sorted((site / "entries").glob("*.html"))]
    index = pages[0].read_text()
    assert index.count('class="link"') == len(pages) - 1 > 10
    for page in pages:
        for link in re.findall(r'(?:href|src)="([^"]+)"', page.read_text()):
            if link.startswith("#"):
                anchor = link[1:]
                assert f'id="{anchor}"' in page.read_text(), (page.name, link)
                continue
            assert not re.match(r"[a-z]+:|/", link), (page.name, link)
            # An entry page's ../index.html and ../site.css: relative, and inside the site.
            target = (page.parent / link.split("#")[0]).resolve()
            assert target.is_relative_to(site.resolve()) and target.is_file(), link


@needs_chromium
@pytest.mark.parametrize("width", [1280, 390])
def test_the_site_in_a_browser(site: Path, tmp_path: Path, width: int) -> None:
    page = site / "index.html"
    run = chromium(page, tmp_path, "--dump-dom", f"--window-size={width},1200")
    assert run.returncode == 0, run.stderr[-2000:]
    assert console_lines(run.stderr) == []
    html = page.read_text()
    probe = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", html)
    probed = site / "probe.html"
    probed.write_text(probe.replace("</body>", _OVERFLOW_PROBE + "</body>"))
    try:
        run = chromium(probed, tmp_path, "--dump-dom", f"--window-size={width},1200")
    finally:
        probed.unlink()
    found = re.search(r'data-overflow="([^"]*)"', run.stdout)
    assert found is not None, "the probe did not run"
    assert found.group(1) == "[]", (width, found.group(1).replace("&quot;", '"'))
    shot = tmp_path / "site.png"
    run = chromium(page, tmp_path, f"--screenshot={shot}", f"--window-size={width},1200")
    assert run.returncode == 0 and shot.read_bytes()[:4] == b"\x89PNG"
