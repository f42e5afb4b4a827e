"""The explanation model: what each illegal step marks, and that every renderer draws the
same marks (terminal, text report, Markdown, HTML)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from validator.check.explain import BoardMark, Explanation, explain
from validator.check.file import Checker
from validator.cli import main
from validator.engine import Field
from validator.render.board_text import board_lines
from validator.render.html import render_html
from validator.report.model import build_report

ROOT = Path(__file__).resolve().parent.parent
CHALLENGE = ROOT / "examples" / "challenge.txt"
INVALID = sorted((ROOT / "examples" / "invalid").glob("*.yaml"))


def explained(path: Path) -> Explanation | None:
    return explain(Checker.create(CHALLENGE, None).check(path))


# What the record did wrong is marked on the part that was wrong, and only there.
EXPECTED = {
    "e101-dice-mismatch": ("dice", {BoardMark.CROSS, BoardMark.REACH, BoardMark.MOVE_OK}),
    "e102-steps-mismatch": ("steps", {BoardMark.CROSS, BoardMark.REACH, BoardMark.MOVE_OK}),
    "e103-roll-used": ("roll", {BoardMark.USED, BoardMark.BURGLAR}),
    "e106-after-end": ("round", {BoardMark.WRONG, BoardMark.BURGLAR}),
    "e202-cross-not-dice": ("cross", {BoardMark.WRONG, BoardMark.OPTION}),
    "e203-cross-taken": ("cross", {BoardMark.WRONG, BoardMark.OPTION}),
    "e204-cross-on-reroll": ("cross", {BoardMark.WRONG}),
    "e205-move-unreachable": ("move", {BoardMark.WRONG, BoardMark.CROSS, BoardMark.REACH}),
    # The one-step path runs onto this round's X: that step is the wrong one, and the
    # recorded move itself is legal.
    "e206-path-illegal": ("path", {BoardMark.WRONG, BoardMark.MOVE_OK}),
    "e207-move-missing": ("move", {BoardMark.CROSS, BoardMark.REACH}),
    "e201-reroll-not-forced": ("reroll", {BoardMark.OPTION}),
    "e105-skipped-row": ("roll", {BoardMark.OPTION}),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_part_is_marked_where_it_was_wrong(name: str) -> None:
    x = explained(ROOT / "examples" / "invalid" / f"{name}.yaml")
    assert x is not None
    part, required = EXPECTED[name]
    assert x.part == part
    present = {m for _, m in x.marks}
    assert required <= present, present
    if BoardMark.WRONG not in required:
        assert BoardMark.WRONG not in present
    # The legend explains exactly the marks on the board.
    assert {m for m, _ in x.legend} == present
    assert x.legal


def test_only_the_path_wrong_says_the_move_is_right() -> None:
    x = explained(ROOT / "examples" / "invalid" / "e206-path-illegal.yaml")
    assert x is not None and x.recorded_path and x.legal_walk
    assert any("only the path is wrong" in s for s in x.legal)
    assert x.fields(BoardMark.WRONG) == (Field(5, 1),)  # step 1 enters this round's X
    assert x.fields(BoardMark.MOVE_OK) == (Field(6, 2),)


def test_every_example_with_a_roll_has_a_board_and_its_line() -> None:
    for path in INVALID:
        x = explained(path)
        # Whole-record errors (no roll), and a round whose dice row the file lacks: no board.
        if path.stem.startswith(("e104", "e107", "e108", "e109")):
            assert x is None
            continue
        assert x is not None, path.stem
        assert x.quote and x.quote.strip().startswith("- {roll:"), path.stem
        assert x.legal and x.problem.endswith("."), path.stem
        expected = (
            "after roll 4, the last one played"
            if x.part == "roll" and x.fields(BoardMark.USED)
            else f"before roll {x.roll}"
        )
        assert x.board_title == expected, path.stem
        assert x.label().startswith(f"The board {expected}.")


def test_whole_record_errors_have_no_board() -> None:
    assert explained(ROOT / "examples" / "invalid" / "e107-score-mismatch.yaml") is None
    assert explained(ROOT / "examples" / "alice.yaml") is None


@pytest.mark.parametrize("path", INVALID, ids=[p.stem for p in INVALID])
def test_every_renderer_draws_the_same_marks(path: Path) -> None:
    x = explained(path)
    if x is None:
        return
    # The grid lines are the same everywhere; the legend may wrap at the text's width, so
    # each of its entries is looked for in the words of the output.
    board = [line.rstrip() for line in board_lines(x.board, x.symbols())]
    runner = CliRunner()
    for args in (
        ["validate", str(path), "--dice", str(CHALLENGE)],
        ["report", str(path), "--dice", str(CHALLENGE), "--format", "text"],
        ["report", str(path), "--dice", str(CHALLENGE), "--format", "md"],
    ):
        out = runner.invoke(main, args, env={"NO_COLOR": "1"}).stdout
        lines = [line.strip() for line in out.splitlines()]
        for expected in board:
            assert expected.strip() in lines, (args[0], expected)
        words = " ".join(out.split())
        for symbol, text in x.legend_text().items():
            assert f"{symbol} {text}" in words, (args[0], symbol, text)
    html = render_html(build_report(Checker.create(CHALLENGE, None).check(path)))
    section = html[html.index('id="illegal-step"') :]
    section = section[: section.index("</section>")]
    assert section.count('class="option"') == len(x.fields(BoardMark.OPTION))
    assert section.count('class="reach"') == len(x.fields(BoardMark.REACH))
    assert section.count('class="exit"') == len(x.fields(BoardMark.EXIT))
    assert section.count('class="right"') == len(x.fields(BoardMark.MOVE_OK))
    assert section.count('class="used"') == len(x.fields(BoardMark.USED))
    assert section.count('class="bang"') == len(x.fields(BoardMark.WRONG))
    assert ('class="wrong"' in section) == bool(x.fields(BoardMark.WRONG) or x.recorded_path)
    # The caption names every kind of mark on the board, and nothing else.
    caption = section[section.index("<figcaption>") : section.index("</figcaption>")]
    x_elsewhere = x.cross is not None and x.mark_of(x.cross.field) is not BoardMark.CROSS
    drawn = len(x.legend) + bool(x.legal_walk) + bool(x.recorded_path) + x_elsewhere
    assert caption.count("<li>") == drawn


def test_a_field_has_one_mark_and_the_wrong_one_wins() -> None:
    x = explained(ROOT / "examples" / "invalid" / "e203-cross-taken.yaml")
    assert x is not None
    fields = [f for f, _ in x.marks]
    assert len(fields) == len(set(fields))
    wrong = x.fields(BoardMark.WRONG)
    assert wrong == (Field(6, 1),)


@pytest.mark.parametrize("fmt", ["text", "md"])
def test_the_board_shows_the_x_the_words_speak_of(fmt: str) -> None:
    """E206 onto the field crossed out this round: the report says 5/1 "has an X", so its
    board shows that X under the bad step's `!` (it once showed `25!` without one)."""
    path = ROOT / "examples" / "invalid" / "e206-path-illegal.yaml"
    x = explained(path)
    assert x is not None and x.cross is not None and x.cross.field == Field(5, 1)
    assert x.mark_of(Field(5, 1)) is BoardMark.WRONG
    assert x.board.mark(Field(5, 1)) == "X" and x.before.mark(Field(5, 1)) == ""
    args = ["report", str(path), "--dice", str(CHALLENGE), "--format", fmt]
    out = CliRunner().invoke(main, args, env={"NO_COLOR": "1"}).stdout
    assert "enters 5/1, which has an X or a circle" in out
    row = next(line for line in out.splitlines() if line.strip().startswith("5 "))
    assert row.split()[1] == "X25!", row


def test_a_legal_cross_out_keeps_its_plus_on_the_board_before() -> None:
    """Where the cross-out shows its own `+`, the board stays the position before the roll."""
    for path in INVALID:
        x = explained(path)
        if x is not None and x.cross is not None and x.mark_of(x.cross.field) is BoardMark.CROSS:
            assert x.board == x.before
