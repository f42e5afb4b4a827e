"""`road300 report --analyze`: golden files per format, the marks and better choices where
the record lost points, invalid and malformed records, Ctrl-C, and the report without
--analyze untouched (its own goldens, tests/test_report.py).

Refresh the golden files after an intended change with `REFRESH_GOLDEN=1 pytest
tests/test_report_analysis.py` and review the diff. The dice file is the report goldens'
7-row one, so the search proves every value at once and the output is the same each run.
"""

from __future__ import annotations

import os
import re
import threading
from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner
from tiers import sweep

from validator.check.file import Checker
from validator.cli import main
from validator.engine import Field
from validator.render.html import render_html
from validator.render.markdown import render_markdown
from validator.render.report_text import render_plain
from validator.report.analysis import AnalysisView, run_analysis
from validator.report.model import Report, build_report

GOLDEN = Path(__file__).resolve().parent / "golden"
REFRESH = os.environ.get("REFRESH_GOLDEN") == "1"


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), env={"NO_COLOR": "1", "COLUMNS": "100"})
    return result.exit_code, result.output


def _compare_golden(out: str, golden: str) -> None:
    expected = GOLDEN / "analysis" / golden
    if REFRESH or not expected.exists():
        expected.parent.mkdir(exist_ok=True)
        expected.write_text(out, encoding="utf-8")
        if not REFRESH:
            pytest.fail(f"{golden} did not exist and was written; review and commit it")
    assert out == expected.read_text(encoding="utf-8"), (
        f"analysis/{golden} differs; if the change is intended, run "
        f"REFRESH_GOLDEN=1 pytest {__file__}"
    )


CASES = [
    (stem, fmt, f"{stem}.{ext}", status)
    for stem, status in (("short", 0), ("short-invalid", 1))
    for fmt, ext in (("html", "html"), ("md", "md"), ("text", "txt"))
]


@pytest.mark.parametrize(
    ("stem", "fmt", "golden", "status"),
    sweep(CASES, plain=lambda case: case[1] == "text", unpack=True),
)
def test_golden(
    stem: str, fmt: str, golden: str, status: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(GOLDEN)
    code, out = run("report", f"{stem}.yaml", "--analyze", "--format", fmt)
    assert code == status, out
    _compare_golden(out, golden)


@cache
def _analysed(name: str) -> tuple[Report, AnalysisView]:
    """The analysis of a golden record, searched once per test process."""
    return _view(name)


def _view(name: str, cancel: threading.Event | None = None) -> tuple[Report, AnalysisView]:
    checker = Checker.create(GOLDEN / "dice.txt", None)
    report = build_report(checker.check(GOLDEN / name))
    assert checker.dice is not None
    view = run_analysis(report, checker.dice.rows, time_limit=1.0, cancel=cancel)
    assert isinstance(view, AnalysisView), view
    return report, view


def test_a_bad_choice_gets_its_mark_and_the_better_choice_on_its_board() -> None:
    """short.yaml's first round crosses out 1/1 (30) and walks to 3/6 (20), where crossing
    out 1/4 or 4/1 (moves 1) and stepping onto the corner 1/6, 6/1 or 6/6 (30 each, equally
    good: the solver's tie-break picks 4/1 and 6/6) keeps 30 more points reachable: a
    mistake."""
    report, view = _analysed("short.yaml")
    first = view.marks[1]
    assert (first.mark, first.symbol, first.cost) == ("mistake", "?", 30)
    assert first.proven and first.best_before - first.best_after == first.cost
    assert first.better is not None
    assert first.better.cross == Field(4, 1) and first.better.end == Field(6, 6)
    # Rounds without a loss get no mark and no better choice.
    assert view.marks[3].mark is None and view.marks[3].better is None

    html = render_html(report, view)
    card = html[html.index('id="roll-1"') : html.index('id="roll-2"')]
    assert 'class="amark mistake"' in card and "? -30" in card
    assert "Better (purple): cross out 4/1, move to 6/6 (30)." in card
    # On the board: a purple X on 4/1 and the diamond on 6/6, in the style of no other mark.
    from validator.render import svg

    x, y = svg.MARGIN + 0.5 * svg.CELL, svg.MARGIN + 3.5 * svg.CELL
    assert f'class="alt" d="M{x - 12:g} {y - 12:g}' in card
    assert re.search(r'<polygon class="alt" points="[^"]*"', card)
    assert '<polyline class="alt"' in card  # the better walk, entering at 6/6
    # The round index and the move table carry the mark too.
    nav = html[html.index('<nav class="rolls"') : html.index("</nav>")]
    assert re.search(r'href="#roll-1"[^>]*>1.*?\?</span><span class="sr"> mistake, 30 points', nav)
    start = html.index('id="moves"')
    table = html[start : html.index("</table>", start)]
    assert '<td class="acell">? -30</td>' in table

    text = render_plain(report, analysis=view)
    assert "Roll 1, move 1: 20 points (? mistake, 30 points lost)" in text
    # The better cross-out and end on the board (6/6 was walked through this round).
    assert "20#" in text and "30~*" in text
    md = render_markdown(report, view)
    assert "- Better: cross out 4/1, move to 6/6 (30)." in md


def test_the_best_line_costs_nothing_and_scores_the_best() -> None:
    _, view = _analysed("short.yaml")
    assert view.best is not None and view.best.score == view.best_score == 190
    assert view.best_proven and view.played_score == 150
    # Points lost so far only grow, and end at the difference.
    lost = [v for _, v in view.lost]
    assert lost == sorted(lost) and lost[-1] == view.points_lost == 40
    best = view.best
    checker = Checker.create(GOLDEN / "dice.txt", None)
    assert checker.dice is not None
    again = run_analysis(best, checker.dice.rows, time_limit=1.0)
    assert isinstance(again, AnalysisView)
    assert all(m.cost == 0 and m.mark is None for m in again.marks.values())


def test_an_invalid_record_is_analysed_up_to_its_illegal_step() -> None:
    report, view = _analysed("short-invalid.yaml")
    assert sorted(view.marks) == [1, 2, 3]
    assert view.stopped and "before the illegal step" in view.scope
    # (the command line's exit status 1 for it is pinned by its golden)
    out = render_plain(report, analysis=view)
    assert "The analysis covers the 3 record rounds before the illegal step." in out


@pytest.mark.parametrize("fmt", ["html", "md", "text"])
def test_a_malformed_record_leaves_the_analysis_out_with_a_reason(fmt: str, tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("player: [unclosed\n", encoding="utf-8")
    code, out = run(
        "report", str(bad), "--dice", str(GOLDEN / "dice.txt"), "--analyze", "--format", fmt
    )
    assert code == 1 and "Traceback" not in out
    assert "left out: the record could not be read" in out


def test_a_first_round_already_illegal_leaves_the_analysis_out(tmp_path: Path) -> None:
    text = (GOLDEN / "short.yaml").read_text(encoding="utf-8")
    bad = tmp_path / "first.yaml"
    bad.write_text(text.replace("move: [3, 6], steps: 4", "move: [3, 5], steps: 4"), "utf-8")
    code, out = run("report", str(bad), "--dice", str(GOLDEN / "dice.txt"), "--analyze")
    assert code == 1 and "Traceback" not in out
    assert "Analysis: left out: the record's first round is already illegal." in out


def test_ctrl_c_gives_what_the_search_found_so_far() -> None:
    """A cancelled search (what Ctrl-C does) still gives a whole report, marked as such."""
    cancel = threading.Event()
    cancel.set()
    report, view = _view("short.yaml", cancel)
    assert view.interrupted
    html = render_html(report, view)
    assert "the analysis was interrupted (Ctrl-C)" in html
    for m in view.marks.values():
        assert m.cost >= 0 and m.best_before >= m.best_after


def test_no_analysis_no_change() -> None:
    """Without --analyze nothing of the analysis appears (the goldens pin the rest)."""
    checker = Checker.create(GOLDEN / "dice.txt", None)
    report = build_report(checker.check(GOLDEN / "short.yaml"))
    for out in (render_html(report), render_markdown(report), render_plain(report)):
        assert "nalysis" not in out and "best line" not in out.lower()


@pytest.mark.parametrize("stem", ["short", "short-invalid"])
def test_analysed_wording(stem: str) -> None:
    """The analysed reports keep the report's wording rules: no "(s)", no Python escapes,
    no phrase said twice in a row."""
    for golden in (GOLDEN / "analysis").glob(f"{stem}.*"):
        text = golden.read_text(encoding="utf-8")
        assert "(s)" not in text and "\\u" not in text, golden
        assert not re.search(r"\b(\w+ \w+) \1\b", text), golden


@pytest.mark.parametrize("name", ["escape", "in-and-out"])
def test_a_better_exit_is_drawn_leaving_through_its_corner(name: str) -> None:
    """A better choice that leaves the board: its walk is the engine's, to the corner, and
    its arrow goes off the board there (no diamond: the burglar ends on no field)."""
    from validator.engine import Exit, Play
    from validator.render import svg
    from validator.report.analysis import better_choice

    checker = Checker.create(GOLDEN / "challenge.txt", None)
    result = checker.check(GOLDEN / f"{name}.yaml")
    exits = [r for r in result.rounds if r.kind in ("escape", "leave") and r.cross is not None]
    assert exits, f"{name}.yaml has no exit to compare with"
    for r in exits:
        assert r.cross is not None
        corner = r.walk[-1] if r.walk else r.before.position
        assert corner is not None
        kind: Exit = "escape" if r.kind == "escape" else "leave"
        better = better_choice(r, Play(r.cross.field, corner, exit=kind))
        assert better.leaves and better.end == corner and better.walk == r.walk
        assert f"through the corner {corner}" in better.text
        picture = svg.board(
            r.before,
            walks=[svg.Walk(better.walk, better.start, better.leaves, style="alt")],
        )
        assert "alt-head" in picture or not better.walk


def test_an_incomplete_record_counts_points_lost_so_far(tmp_path: Path) -> None:
    """The first four rounds of short.yaml: 30 + 5 points lost, against 155 still reachable."""
    lines = (GOLDEN / "short.yaml").read_text(encoding="utf-8").splitlines()
    partial = tmp_path / "partial.yaml"
    partial.write_text("\n".join(lines[:7]) + "\n", encoding="utf-8")
    checker = Checker.create(GOLDEN / "dice.txt", None)
    report = build_report(checker.check(partial))
    assert checker.dice is not None
    view = run_analysis(report, checker.dice.rows, time_limit=1.0)
    assert isinstance(view, AnalysisView) and view.incomplete
    assert view.points_lost == 35 and view.marks[4].best_after == 155
    assert "35 points lost so far" in view.summary


def test_analysis_colours_are_readable_in_every_scheme() -> None:
    """WCAG AA for the analysis's purple: text (marks, the better choice, the move table's
    column) at least 4.5:1 on the card and on its tint, in the light, dark and print schemes."""
    from test_report_contrast import TEMPLATE, contrast, schemes

    css = TEMPLATE.read_text(encoding="utf-8")
    extra: dict[str, dict[str, str]] = {}
    for media, body in re.findall(r"(@media[^{]*\{\s*)?body\s*\{\s*(--alt[^}]*)\}", css):
        name = "dark" if "dark" in media else "print" if "print" in media else "light"
        extra[name] = dict(re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{6})", body))
    assert set(extra) == {"light", "dark", "print"}
    for name, colours in schemes().items():
        alt, tint = extra[name]["alt"], extra[name]["alt-tint"]
        for background in (colours["card"], colours["bg"], tint):
            assert contrast(alt, background) >= 4.5, (name, alt, background)
        assert contrast(colours["card"], alt) >= 4.5, name  # a blunder's badge


def test_time_limit_without_analyze_is_refused() -> None:
    code, out = run("report", str(GOLDEN / "short.yaml"), "--time-limit", "2")
    assert code == 2 and "use it with --analyze" in out


def test_a_node_budget_gives_the_same_report_and_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    """`report --analyze --nodes N`: with no time limit the same HTML on every run (and
    machine), which names the budget, and a best not proven says the budget stopped it;
    --nodes without --analyze is refused."""
    monkeypatch.chdir(GOLDEN)
    args = ("report", "short.yaml", "--analyze", "--nodes", "300", "--format", "html")
    (code, first), (_, again) = run(*args), run(*args)
    assert code == 0 and first == again
    assert "searched for up to 300 positions, a budget that gives the same values" in first
    code, out = run("report", "short.yaml", "--analyze", "--nodes", "5", "--format", "text")
    assert code == 0 and "(not proven within the budget of positions)" in out
    assert "within the budget of positions, not proven the highest" in " ".join(out.split())
    assert "time limit" not in out
    code, out = run("report", "short.yaml", "--nodes", "300")
    assert code == 2 and "use it with --analyze" in out


def test_no_higher_field_note_where_the_analysis_finds_no_loss() -> None:
    """agreed.yaml's roll 5 moves to 6/5 (25) with 1/6 (30) in reach, and the analysis finds
    that it loses nothing: with the analysis, no note holds the move against the higher
    field (neither the sentence nor the ◆); without it, the note says "highest in reach"."""
    report, view = _view("agreed.yaml")
    mark = view.marks[5]
    assert (mark.cost, mark.mark) == (0, None)
    (fifth,) = [rr for rr in report.rounds if rr.round.roll == 5]
    assert fifth.note.took_best is False
    said = "Moved to 6/5 (25); the highest in reach was 1/6 (30)."
    plain = render_plain(report)
    assert said in plain and "the best in reach" not in plain
    for out in (render_plain(report, analysis=view), render_markdown(report, view)):
        section = out[out.index("Roll 5") : out.index("Roll 6")]
        assert "in reach was" not in section and "would have reached" not in section
        assert "a best choice" in section
    html = render_html(report, view)
    card = html[html.index('id="roll-5"') : html.index('id="roll-6"')]
    assert "in reach was" not in card and "◆" not in card
    unanalysed = render_html(report)
    card = unanalysed[unanalysed.index('id="roll-5"') : unanalysed.index('id="roll-6"')]
    assert said in card and "◆" in card
