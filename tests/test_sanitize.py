"""Every text channel neutralises untrusted text: terminal, plain text, Markdown, CSV.
One list of hostile strings (tests/hostile_strings.py) runs through each channel."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from hostile_strings import FORMULA_START, HOSTILE, RAW_CONTROL

from validator.cli import main
from validator.render.sanitize import csv_cell, markdown_text, plain_text, terminal_text

ROOT = Path(__file__).resolve().parent.parent
CHALLENGE = ROOT / "examples" / "challenge.txt"
ALLOWED_IN_OUTPUT = "\n"


def raw_controls(text: str, allowed: str = "") -> list[str]:
    return [c for c in text if c in RAW_CONTROL and c not in allowed]


@pytest.mark.parametrize("text", HOSTILE)
def test_plain_and_terminal_text_show_controls_as_escapes(text: str) -> None:
    for channel in (plain_text, terminal_text):
        out = channel(text)
        assert raw_controls(out) == []
    assert plain_text("\x1b") == "\\x1b" and plain_text("\u202e") == "\\u202e"
    assert terminal_text("[bold]x[/]") != "[bold]x[/]"  # markup stays text


@pytest.mark.parametrize("text", HOSTILE)
def test_csv_cells_never_start_a_formula(text: str) -> None:
    cell = csv_cell(text)
    assert isinstance(cell, str)
    assert not cell.startswith(FORMULA_START)
    assert raw_controls(cell) == []


@pytest.mark.parametrize(
    ("value", "cell"),
    [(340, 340), (-5, -5), (None, ""), ("-5", "-5"), ("+3", "+3"), ("1.5", "1.5"), ("x", "x")],
)
def test_csv_numbers_stay_numbers(value: str | int | None, cell: str | int) -> None:
    assert csv_cell(value) == cell


def test_escapes_are_visible() -> None:
    assert plain_text("\x1b[2J\u202e") == "\\x1b[2J\\u202e"
    assert csv_cell("\t=1") == "'\\x09=1"


@pytest.mark.parametrize("text", HOSTILE)
def test_markdown_text_is_inert(text: str) -> None:
    out = markdown_text(text)
    assert raw_controls(out) == []
    assert "<" not in out and "\n" not in out


@pytest.mark.parametrize("name", HOSTILE)
def test_no_channel_of_validate_or_report_prints_a_raw_control(name: str, tmp_path: Path) -> None:
    shutil.copy(CHALLENGE, tmp_path / "challenge.txt")
    record = tmp_path / "r.yaml"
    # A bad cross-out, so that the diagnostic quotes the line with the name in it.
    record.write_text(
        "player: " + json.dumps(name) + "\ndice_file: challenge.txt\n"
        "rounds:\n  - {cross: [6, 6], move: [1, 1]}  # " + json.dumps(name) + "\n",
        encoding="utf-8",
    )
    runner = CliRunner()
    for args in (
        ["validate", str(record)],
        ["report", str(record), "--format", "text"],
        ["report", str(record), "--format", "md"],
    ):
        result = runner.invoke(main, args, env={"NO_COLOR": "1"})
        assert result.exit_code == 1, result.output
        assert raw_controls(result.output, ALLOWED_IN_OUTPUT) == [], args


@pytest.mark.parametrize("name", ["x;+1+1", "a; =cmd|' /C calc'!A0", "=x;@y", "a;b"])
def test_a_cell_guards_what_follows_a_semicolon_and_draw_reads_it_back(name: str) -> None:
    """A German or French spreadsheet splits a CSV line on `;`: `x;+1+1` became a formula
    cell there. Each piece that would start one gets its `'`; draw takes them off again."""
    from validator.contest.draw import _unguard
    from validator.render.sanitize import csv_cell

    cell = str(csv_cell(name))
    for piece in cell.split(";"):
        assert not piece.lstrip(" ").startswith(("=", "+", "-", "@")), cell
    assert _unguard(cell) == name
