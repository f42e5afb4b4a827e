"""Every example through every report format: no "(s)", no phrase said twice, no Python
escapes, and the words the issue asked for (rings left, the fields a reroll found taken)."""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from tiers import covering

from validator.check.file import Checker
from validator.render.html import render_html
from validator.render.markdown import render_markdown
from validator.render.report_text import render_plain
from validator.report.model import Report, build_report

ROOT = Path(__file__).resolve().parent.parent
CHALLENGE = ROOT / "examples" / "challenge.txt"
ACCEPTANCE = Path(__file__).resolve().parent / "acceptance"


def _cases() -> list[tuple[str, Path, Path | None, str | None]]:
    """(id, record, dice file, rules) for each example and acceptance case."""
    cases: list[tuple[str, Path, Path | None, str | None]] = []
    for record in sorted((ROOT / "examples").glob("alice.*")):
        cases.append((record.name, record, CHALLENGE, None))
    for record in sorted((ROOT / "examples" / "invalid").glob("*.yaml")):
        cases.append((record.stem, record, CHALLENGE, None))
    for case in sorted(p for p in ACCEPTANCE.iterdir() if (p / "expected.yaml").is_file()):
        expected: dict[str, Any] = yaml.safe_load((case / "expected.yaml").read_text("utf-8"))
        (record,) = [p for p in case.iterdir() if p.stem == "record"]
        extra: list[str] = expected.get("args", [])
        rules = next((a for i, a in enumerate(extra) if i and extra[i - 1] == "--rules"), None)
        dice = case / "dice.txt" if expected.get("dice_option", True) else None
        cases.append((f"acceptance/{case.name}", record, dice, rules))
    return cases


CASES = _cases()

# "cross-out(s)", "1 step(s)"; a plural after the number one ("1 dice rolls").
PLURAL_GUESS = re.compile(r"\w\(s\)|\b1 (?:dice rolls|steps|fields|rounds|rerolls|rings)\b")
# Python's escapes of a character that is printable text (a ZWJ shown as \u200d).
PY_ESCAPE = re.compile(r"\\u200[cd]|\\N\{")
# "invalid: invalid:", "MALFORMED: malformed:": a word said twice around a colon.
DOUBLED_WORD = re.compile(r"\b([A-Za-z]{3,})\W{0,3}:\W{1,6}\1\s*:", re.IGNORECASE)
# The same clause of three or more words twice in one line ("the replay scores 340").
DOUBLED_CLAUSE = re.compile(r"\b((?:\w+ ){2,}\w+)\b.*\b\1\b")


def clause_words(line: str) -> str:
    """The words of a line for the doubled-clause check: no numbers, fields or asides in
    parentheses (lists of fields and values repeat by nature)."""
    return " ".join(re.sub(r"\([^)]*\)|[^A-Za-z ]+", " ", line).split())


def visible_text(page: str) -> str:
    """The words a reader of the page sees: no style sheet, no tags, entities decoded."""
    page = re.sub(r"<style>.*?</style>", "", page, flags=re.S)
    page = re.sub(r"<title>.*?</title>", "", page, flags=re.S)
    page = re.sub(r"<[^>]+>", "\n", page)
    return html.unescape(page)


RENDER: dict[str, Callable[[Report], str]] = {
    "text": render_plain,
    "md": render_markdown,
    "html": lambda report: visible_text(render_html(report)),
}


def reports(record: Path, dice: Path | None, rules: str | None) -> dict[str, str]:
    """The report of `record` in every format, as a reader sees it."""
    result = Checker.create(dice, rules).check(record, record.name)
    report = build_report(result)
    return {fmt: render(report) for fmt, render in RENDER.items()}


@pytest.mark.parametrize(
    ("name", "record", "dice", "rules", "fmt"),
    covering(CASES, RENDER, ids=lambda case, fmt: f"{case[0]}-{fmt}"),
)
def test_wording(name: str, record: Path, dice: Path | None, rules: str | None, fmt: str) -> None:
    result = Checker.create(dice, rules).check(record, record.name)
    text = RENDER[fmt](build_report(result))
    assert text.strip(), (name, fmt)
    for line in text.splitlines():
        assert not PLURAL_GUESS.search(line), (fmt, line)
        assert not PY_ESCAPE.search(line), (fmt, line)
        assert not DOUBLED_WORD.search(line), (fmt, line)
        # Board rows and the move table repeat numbers by nature; clauses are words.
        words = clause_words(line)
        assert not DOUBLED_CLAUSE.search(words), (fmt, line)
    assert "With The magic rings!" not in text


@pytest.mark.parametrize(
    "line",
    [
        "invalid: invalid: first illegal step",
        "**MALFORMED**: malformed: the record",
        "the record claims 350 points, but the replay scores 340; the replay scores 340",
        "6 cross-out(s) available",
        "22 in the record, 1 dice rolls replayed",
    ],
)
def test_the_checks_catch_what_the_issue_found(line: str) -> None:
    words = clause_words(line)
    assert PLURAL_GUESS.search(line) or DOUBLED_WORD.search(line) or DOUBLED_CLAUSE.search(words)


def test_forced_reroll_names_the_taken_fields() -> None:
    text = reports(ROOT / "examples" / "alice.yaml", CHALLENGE, None)["md"]
    rerolls = [line for line in text.splitlines() if "forced reroll (" in line]
    assert rerolls
    assert all(re.search(r"\d/\d has (an X|a circle)", line) for line in rerolls), rerolls


def test_ring_rounds_say_how_many_rings_are_left() -> None:
    case = ACCEPTANCE / "e212-ring-none-left"
    text = reports(case / "record.yaml", case / "dice.txt", "standard+rings=3")["text"]
    assert re.search(
        r"magic ring was spent: this roll was not played \((no|1|\d) rings? left\)", text
    )


def test_an_emoji_in_a_bad_value_is_shown_as_written(tmp_path: Path) -> None:
    """E005 quotes the bad value; a joined emoji stays one emoji, not Python's \\u200d."""
    family = "\U0001f469\u200d\U0001f469\u200d\U0001f467"
    record = tmp_path / "emoji.yaml"
    record.write_text(
        f'player: Test\nrounds:\n  - {{cross: [1, "{family}"], move: [1, 1]}}\n', "utf-8"
    )
    for fmt, text in reports(record, CHALLENGE, None).items():
        assert "E005" in text, fmt
        assert not PY_ESCAPE.search(text), fmt
        assert family in text, fmt
