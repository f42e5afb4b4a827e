"""The one wording module: ordinals, plurals and end reasons, the same for every output."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from validator.engine import End
from validator.language import wording

PACKAGE = Path(__file__).resolve().parent.parent / "validator"


@pytest.mark.parametrize(
    ("n", "text"),
    [(1, "first"), (3, "third"), (4, "fourth"), (10, "tenth"), (11, "11th"), (12, "12th"),
     (13, "13th"), (21, "21st"), (22, "22nd"), (23, "23rd"), (101, "101st"), (111, "111th")],
)  # fmt: skip
def test_ordinals(n: int, text: str) -> None:
    assert wording.ordinal(n) == text


def test_plurals_go_through_one_helper() -> None:
    assert wording.steps(1) == "1 step" and wording.steps(3) == "3 steps"
    assert wording.points(1) == "1 point" and wording.points(315) == "315 points"
    assert wording.rings(0) == "no ring" and wording.rings(2) == "2 rings"
    assert wording.plural(2, "{n} {what}", "{n} {what}s", what="die") == "2 dies"


def test_every_end_has_its_words() -> None:
    for end in End:
        assert wording.end_reason(end) and wording.end_brief(end)
    assert wording.game_over(End.NO_MOVE, 23) == "no legal move on roll 23"


def test_the_ordinal_is_the_same_in_the_report_and_in_the_rules_description() -> None:
    """`fourth` once said `4th` in the report: both now come from the wording module."""
    from validator.engine import BGA
    from validator.report.model import how_to_read
    from validator.rulesets import describe

    rules = BGA.__class__(name="house", pass_counting="total", pass_limit=4)
    meanings = [s.meaning for s in describe(rules)]
    assert any("the fourth counted forced reroll" in m for m in meanings)

    class _Result:
        def __init__(self) -> None:
            self.rules = rules

    class _Report:
        result = _Result()

    text = " ".join(how_to_read(_Report()))  # type: ignore[arg-type]
    assert "the fourth forced reroll of the game" in text


def test_no_other_module_keeps_an_end_of_game_table() -> None:
    """The end reasons are written once: no module but the wording one spells them out."""
    phrase = "the movement die had no legal move"
    holders = [
        path.relative_to(PACKAGE).as_posix()
        for path, text in ((p, p.read_text(encoding="utf-8")) for p in PACKAGE.rglob("*.py"))
        if phrase in text  # only a file with the words can hold them as a string
        and any(
            isinstance(node, ast.Constant) and node.value == phrase
            for node in ast.walk(ast.parse(text))
        )
    ]
    assert holders == ["language/wording.py"]
