"""The terminal renderer's content: the caret under the offending value, the source line as
read (never re-read from disk), the board with its legend, the help line, the summary."""

from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path

from rich.console import Console

from validator.check.file import Checker
from validator.check.replay import Result
from validator.engine import STANDARD
from validator.errors import Diagnostic, Verdict
from validator.render.terminal import _diagnostic, render

ROOT = Path(__file__).resolve().parent.parent
CHALLENGE = ROOT / "examples" / "challenge.txt"


def shown(draw: object, *args: object) -> list[str]:
    buffer = io.StringIO()
    console = Console(file=buffer, width=200, no_color=True, highlight=False, soft_wrap=True)
    draw(console, *args)  # type: ignore[operator]
    return buffer.getvalue().splitlines()


def test_caret_covers_the_value_in_flow_yaml() -> None:
    line = "  - {roll: 3, cross: [6, 1], move: [6, 3]}"
    col = line.index("[6, 1]") + 1
    d = replace(
        Diagnostic.said("E203", "taken", "r.yaml", 7, col, hint="available: 1/6"), excerpt=line
    )
    out = shown(_diagnostic, d)
    assert out[0] == "r.yaml:7:" + str(col) + ": E203 taken"
    assert out[2] == "7 | " + line
    caret = out[3]
    assert caret.index("^") == len("7 | ") + col - 1
    assert caret.count("^") == len("[6, 1]")
    assert out[-1] == "  help: available: 1/6"


def test_the_source_line_comes_from_what_was_read(tmp_path: Path) -> None:
    record = tmp_path / "r.yaml"
    record.write_text(
        (ROOT / "examples" / "invalid" / "e203-cross-taken.yaml").read_text(encoding="utf-8"),
        encoding="utf-8",
    )
    result = Checker.create(CHALLENGE, None).check(record)
    record.write_text("# changed after reading\n" * 40, encoding="utf-8")
    out = "\n".join(shown(render, result))
    assert "changed after reading" not in out
    assert "cross: [6, 1]" in out


def test_the_board_and_its_legend_are_shown() -> None:
    result = Checker.create(CHALLENGE, None).check(
        ROOT / "examples" / "invalid" / "e205-move-unreachable.yaml"
    )
    out = shown(render, result)
    header = next(i for i, line in enumerate(out) if line.split() == list("123456"))
    rows = out[header + 1 : header + 7]
    assert [r.split()[0] for r in rows] == ["1", "2", "3", "4", "5", "6"]
    legend = out[header + 7]
    assert "@ the burglar" in legend and "! the recorded move (illegal)" in legend
    assert sum(r.count("!") for r in rows) == 1


def test_a_diagnostic_without_a_line_has_no_source_block() -> None:
    d = Diagnostic.said("E107", "the record claims 1 points", "r.yaml")
    out = shown(_diagnostic, d)
    assert out == ["r.yaml: E107 the record claims 1 points"]


def test_summary_of_a_malformed_record() -> None:
    result = Result(
        "r.yaml", Verdict.MALFORMED, STANDARD, error=Diagnostic.said("E002", "bad", "r.yaml")
    )
    out = shown(render, result)
    assert out[0] == "r.yaml: malformed: the record could not be read (E002 syntax)"
