"""The HTML report's layout for long games, its words for each picture, and text widths."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from validator.check.file import Checker
from validator.cli import main
from validator.engine import Field, State
from validator.render import svg
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
    ended = re.findall(r'class="num"[^>]*>([\d,]+)<', final)
    # A corner left through many times shows its first moves and "+N"; its title lists all.
    left = re.findall(r"<title>left here: move ([\d, ]+)</title>", final)
    shown = [int(n) for text in ended for n in text.split(",")]
    exits = [int(n) for text in left for n in text.split(", ")]
    assert sorted(shown + exits) == [n for n, _ in report.moves]
    assert sorted(exits) == sorted(report.exits)
    badges = re.findall(r'class="exit-num"[^>]*>([\d,+]+)<', final)
    assert len(badges) == len(left)
    for badge, text in zip(badges, left, strict=True):
        numbers = text.split(", ")
        parts = badge.split(",")
        if parts[-1].startswith("+"):
            assert parts[:-1] == numbers[: len(parts) - 1]
            assert int(parts[-1][1:]) == len(numbers) - (len(parts) - 1)
        else:
            assert parts == numbers


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


# --- marks that never mislead, room for every label (issue 21) --------------------------


def _svg_of(page: str, cls: str) -> str:
    start = page.index(f'class="{cls}"')
    start = page.rindex("<svg", 0, start)
    return page[start : page.index("</svg>", start) + 6]


def test_an_invalid_records_sheet_is_not_called_final() -> None:
    record = ROOT / "examples" / "invalid" / "e206-path-illegal.yaml"
    report = build_report(Checker.create(CHALLENGE, None).check(record))
    page = render_html(report)
    board = _svg_of(page, "board final")
    assert "Final sheet" not in board and "The final sheet" not in page
    last = report.rounds[-1].round.roll
    assert f"Sheet after roll {last} · " in board
    assert "the illegal step is not on it" in page


def test_an_escaped_burglar_is_drawn_off_the_board() -> None:
    report = _golden_report("escape")
    root = ET.fromstring(_svg_of(render_html(report), "board final"))
    tokens = [g for g in root.iter(f"{SVG}g") if "burglar" in (g.get("class") or "")]
    assert [g.get("class") for g in tokens] == ["burglar outside"]
    circle = next(tokens[0].iter(f"{SVG}circle"))
    x, y = float(circle.get("cx") or 0), float(circle.get("cy") or 0)
    board = (svg.MARGIN, svg.MARGIN + 6 * svg.CELL)
    assert not (board[0] < x < board[1] and board[0] < y < board[1]), (x, y)


def test_leaving_for_nothing_with_a_field_in_reach_gets_the_diamond() -> None:
    report = _golden_report("in-and-out")
    page = render_html(report)
    leaves = [rr for rr in report.played if rr.round.kind == "leave" and rr.note.best]
    assert leaves
    for rr in leaves:
        at = page.index(f'id="roll-{rr.round.roll}"')
        card = page[page.rindex("<article", 0, at) : page.index("</article>", at)]
        assert "missed-best" in card and "◆" in card


def test_no_diamond_beside_the_analysis() -> None:
    from validator.report.analysis import AnalysisView, run_analysis

    checker = Checker.create(GOLDEN / "dice.txt", None)
    report = build_report(checker.check(GOLDEN / "short.yaml"))
    assert checker.dice is not None
    view = run_analysis(report, checker.dice.rows, time_limit=1.0)
    assert isinstance(view, AnalysisView)
    plain, analysed = render_html(report), render_html(report, view)
    assert any(rr.note.took_best is False for rr in report.played)
    assert "missed-best" in plain and "◆" in plain
    assert "missed-best" not in analysed and "◆" not in analysed


def test_runs_of_rerolls_share_one_cell_of_the_grid() -> None:
    layout = ROOT / "tests" / "layout"
    report = build_report(
        Checker.create(layout / "long-dice.txt", None).check(layout / "long.yaml")
    )
    assert len(report.rounds) == 40 and report.rerolls >= 20
    page = render_html(report)
    cards = page[page.index('<div class="rounds">') :]
    cells = re.findall(r'^  (<div class="run">|<article class="card round)', cards, re.M)
    assert cells.count('<div class="run">') == 13
    # Never two runs side by side, and every one-line round is inside a run.
    assert '<div class="run">\n  <div class="run">' not in "\n  ".join(cells)
    assert cards.count('class="card round minor') == report.rerolls


def test_the_markdown_facts_have_a_header_row_of_words() -> None:
    from validator.render.markdown import render_markdown

    report = build_report(Checker.create(CHALLENGE, None).check(ROOT / "examples" / "alice.yaml"))
    text = render_markdown(report)
    assert "| | |" not in text
    lines = text.splitlines()
    header = lines.index("| --- | --- |") - 1
    assert all(cell.strip() for cell in lines[header].strip("|").split("|"))


def test_exits_leave_the_row_numbers_clear_and_badges_inside() -> None:
    for corner in (Field(1, 1), Field(1, 6), Field(6, 1), Field(6, 6)):
        cx, cy = svg.centre(corner)
        ex, ey = svg._exit_point(corner)
        label_x = svg.MARGIN - 11
        # Where the exit line passes the row numbers' column, it is above (row 1) or below
        # (row 6) the number's glyphs (baseline cy + 4, about 8 px tall).
        if corner.col == 1:
            t = (cx - label_x) / (cx - ex)
            y = cy + (ey - cy) * t
            assert y < cy - 6 if corner.row == 1 else y > cy + 6, (corner, y)
        side = 2 * svg.MARGIN + 6 * svg.CELL
        assert 0 < ex < side
    page = svg.board(State(), exit_numbers={Field(1, 1): [11, 23, 24, 25]})
    root = ET.fromstring(page)
    rect = next(r for r in root.iter(f"{SVG}rect") if r.get("class") == "exit-bg")
    assert float(rect.get("x") or -1) >= 0
    assert "11,+3" in page and "left here: move 11, 23, 24, 25" in page


def test_a_score_at_the_top_of_the_chart_keeps_its_label_whole() -> None:
    for compact in (False, True):
        root = ET.fromstring(svg.score_chart([(1, 150), (2, 300)], compact=compact))
        label = next(t for t in root.iter(f"{SVG}text") if t.get("class") == "score-last")
        assert float(label.get("y") or 0) - 12 >= 0


def test_the_better_walk_runs_beside_the_played_one() -> None:
    walk = (Field(1, 2), Field(1, 3))
    page = svg.board(
        State(),
        walks=[svg.Walk(walk, Field(1, 1)), svg.Walk(walk, Field(1, 1), style="alt")],
    )
    root = ET.fromstring(page)
    lines = {p.get("class"): p.get("points") for p in root.iter(f"{SVG}polyline")}
    played = [tuple(map(float, xy.split(","))) for xy in (lines["walk"] or "").split()]
    better = [tuple(map(float, xy.split(","))) for xy in (lines["alt"] or "").split()]
    assert len(played) == len(better)
    for (x0, y0), (x1, y1) in zip(played, better, strict=True):
        assert (x1 - x0, y1 - y0) == (svg.ALT_OFFSET, svg.ALT_OFFSET)
