"""The HTML report's layout for long games, its words for each picture, and text widths."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from validator.check.file import Checker
from validator.cli import main
from validator.render.html import render_html
from validator.report.model import Report, build_report, describe_round, move_cell, round_words

ROOT = Path(__file__).resolve().parent.parent
CHALLENGE = ROOT / "examples" / "challenge.txt"
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def alice() -> tuple[Report, str]:
    report = build_report(Checker.create(CHALLENGE, None).check(ROOT / "examples" / "alice.yaml"))
    return report, render_html(report)


def test_round_index_marks_rerolls_and_the_end(alice: tuple[Report, str]) -> None:
    report, page = alice
    nav = page[page.index('<nav class="rolls"') : page.index("</nav>")]
    links = re.findall(r'<a href="#roll-(\d+)"', nav)
    assert [int(n) for n in links] == [rr.round.roll for rr in report.rounds]
    assert nav.count("↻") == report.rerolls
    assert nav.count("■") == 1
    assert "forced reroll" in nav  # in words as well as by symbol
    assert 'href="#top"' in nav


def test_move_table_has_a_row_per_roll(alice: tuple[Report, str]) -> None:
    report, page = alice
    table = page[page.index('<table class="moves">') : page.index("</table>")]
    rows = re.findall(r"<tr class=\"(\w+)\"><th scope=\"row\">.*?</tr>", table)
    assert len(rows) == len(report.rounds)
    last = report.rounds[-1].round
    assert f"<td>{last.score}</td></tr>" in table


def test_reroll_rounds_are_one_line(alice: tuple[Report, str]) -> None:
    report, page = alice
    assert page.count('class="card round minor reroll"') == report.rerolls
    assert page.count('<article class="card round') == len(report.played)


def test_chart_points_link_to_rounds(alice: tuple[Report, str]) -> None:
    _, page = alice
    chart = page[page.index('<svg xmlns="http://www.w3.org/2000/svg" class="chart"') :]
    chart = chart[: chart.index("</svg>") + 6]
    root = ET.fromstring(chart)
    hrefs = [a.get("href") for a in root.iter(f"{SVG}a")]
    assert hrefs and all(h and h.startswith("#roll-") for h in hrefs)
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert "points" in texts and "dice roll" in texts


def test_every_board_says_its_round_in_words(alice: tuple[Report, str]) -> None:
    report, page = alice
    for rr in report.played:
        words = round_words(rr)
        assert f"<title>{words}</title>" in page
        assert f"crossed out {rr.round.cross.field}" in words  # type: ignore[union-attr]
        assert f"{rr.round.score} points" in words
    assert "<title>The final sheet, 340 points. Moves in order: 1. 1/1 (30)" in page


def test_final_sheet_is_large_on_a_desktop(alice: tuple[Report, str]) -> None:
    _, page = alice
    assert re.search(r"svg\.board\.final \{ max-width: (\d+)px", page)
    width = int(re.search(r"svg\.board\.final \{ max-width: (\d+)px", page).group(1))  # type: ignore[union-attr]
    assert width >= 420


def test_text_wraps_at_80_columns_when_not_a_terminal() -> None:
    result = CliRunner().invoke(
        main,
        [
            "report",
            str(ROOT / "examples" / "invalid" / "e205-move-unreachable.yaml"),
            "--format",
            "text",
        ],
        env={"NO_COLOR": "1", "COLUMNS": None},
    )
    lines = result.output.splitlines()
    long = [line for line in lines if len(line) > 80 and " " in line.strip()]
    assert not long, long[:3]
    # Wrapped at 80, not narrower: the prose fills the lines.
    assert max(len(line) for line in lines) > 70


GOLDEN = Path(__file__).resolve().parent / "golden"


def _golden_report(name: str) -> Report:
    record = GOLDEN / f"{name}.yaml"
    return build_report(Checker.create(None, None).check(record, record.name))


def test_every_move_keeps_its_number_on_the_final_sheet() -> None:
    report = _golden_report("in-and-out")
    assert report.exits, "the game leaves the board"
    page = render_html(report)
    final = page[page.index('class="board final"') :]
    final = final[: final.index("</svg>")]
    numbers = re.findall(r'class="(num|exit-num)"[^>]*>([\d,]+)<', final)
    shown = sorted(int(n) for _, text in numbers for n in text.split(","))
    assert shown == [n for n, _ in report.moves]
    left = sorted(int(n) for kind, text in numbers if kind == "exit-num" for n in text.split(","))
    assert left == sorted(report.exits)


def test_leave_escape_and_stuck_rows_read_differently() -> None:
    inout, escape = _golden_report("in-and-out"), _golden_report("escape")
    rounds = {rr.round.kind: rr for report in (inout, escape) for rr in report.rounds}
    assert {"leave", "escape", "stuck"} <= set(rounds)
    cells = {kind: move_cell(rr.round) for kind, rr in rounds.items()}
    assert cells["leave"].startswith("out at ")
    assert cells["escape"].startswith("escaped at ")
    assert cells["stuck"] == "no move"
    assert any(line.startswith("Escape bonus: +20") for line in describe_round(rounds["escape"]))


def test_print_layout_is_a4_with_colours_kept(alice: tuple[Report, str]) -> None:
    _, page = alice
    assert "@page { size: A4" in page
    assert "print-color-adjust: exact" in page
    invalid = render_html(
        build_report(
            Checker.create(CHALLENGE, None).check(
                ROOT / "examples" / "invalid" / "e205-move-unreachable.yaml"
            )
        )
    )
    # The illegal step comes right after the header, before any other section.
    assert invalid.index('id="illegal-step"') < invalid.index("The game at a glance")
