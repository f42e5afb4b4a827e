"""`road300 convert` and `road300 explain`, run in-process."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from validator.check.replay import replay
from validator.cli import main
from validator.records import FORMAT_NAMES, parse_record, read_record
from validator.records.dice import read_dice
from validator.rulesets import resolve

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
EXTENSION = {"yaml": "yaml", "json": "json", "text": "txt", "csv": "csv"}
ROWS = read_dice(EXAMPLES / "challenge.txt").rows


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def _game(text: str, fmt: str) -> tuple[str, int | None, list[tuple[object, ...]]]:
    record = parse_record(text, fmt, source=f"r.{fmt}")
    result = replay(ROWS, record, resolve("standard"))
    return (
        result.verdict.value,
        result.score,
        [(r.roll, r.kind, r.cross, r.move) for r in result.rounds],
    )


@pytest.mark.parametrize("source", FORMAT_NAMES)
@pytest.mark.parametrize("target", FORMAT_NAMES)
def test_convert_round_trips_every_example(source: str, target: str) -> None:
    path = EXAMPLES / f"alice.{EXTENSION[source]}"
    status, there, _ = _run("convert", str(path), "--to", target)
    assert status == 0
    want = _game(path.read_text(encoding="utf-8"), source)
    assert want[:2] == ("valid", 340)
    assert _game(there, target) == want


def test_convert_complete_fills_every_round(tmp_path: Path) -> None:
    shutil.copy(EXAMPLES / "challenge.txt", tmp_path)
    full = read_record(EXAMPLES / "alice.yaml")
    terse = "dice_file: challenge.txt\nrounds:\n" + "".join(
        "  - {reroll: true}\n"
        if r.reroll
        else f"  - {{cross: {r.cross}" + (f", move: {r.move}" if r.move else "") + "}\n"
        for r in full.rounds
    )
    (tmp_path / "terse.yaml").write_text(terse, encoding="utf-8")
    status, _, err = _run("convert", str(tmp_path / "terse.yaml"), "--to", "text")
    assert status == 1 and "--complete" in err  # the text form needs rolls and dice
    out = tmp_path / "full.txt"
    status, _, _ = _run(
        "convert", str(tmp_path / "terse.yaml"), "--to", "text", "--complete", "-o", str(out)
    )
    assert status == 0
    record = read_record(out)
    assert all(None not in (r.roll, r.dice, r.steps, r.path) for r in record.rounds if r.move)
    assert [(r.roll, r.dice, r.cross, r.move, r.steps) for r in record.rounds] == [
        (r.roll, r.dice, r.cross, r.move, r.steps) for r in full.rounds
    ]
    result = replay(ROWS, record, resolve("standard"))
    assert (result.verdict.value, result.score) == ("valid", 340)


def test_a_record_with_an_illegal_step_is_not_converted() -> None:
    path = EXAMPLES / "invalid" / "e203-cross-taken.yaml"
    status, out, err = _run("convert", str(path), "--to", "csv", "--dice",
                            str(EXAMPLES / "challenge.txt"))  # fmt: skip
    assert status == 1 and out == ""
    assert "E203" in err and "not converted" in err


def test_an_unreadable_record_is_not_converted(tmp_path: Path) -> None:
    (tmp_path / "bad.txt").write_text("1: 1 4 6 x 1/4 moev 1/1\n", encoding="utf-8")
    status, out, err = _run("convert", str(tmp_path / "bad.txt"), "--to", "yaml")
    assert (status, out) == (1, "")
    assert "bad.txt:1:16: E002" in err and "1: 1 4 6 x 1/4 move 1/1" in err
