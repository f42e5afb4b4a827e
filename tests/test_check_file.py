"""Checker.check reads a record once: one parse per file, with or without --dice."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from validator.check import file as check_file
from validator.check.file import Checker
from validator.check.replay import Verdict
from validator.records import dump_record, parse_record
from validator.records.dice import read_dice

ROOT = Path(__file__).resolve().parent.parent
CHALLENGE = ROOT / "examples" / "challenge.txt"
ALICE = ROOT / "examples" / "alice.yaml"


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[int | None]:
    """The max_rounds of every parse Checker.check makes."""
    seen: list[int | None] = []

    def counting(*args: Any, **kwargs: Any) -> Any:
        seen.append(kwargs.get("max_rounds"))
        return parse_record(*args, **kwargs)

    monkeypatch.setattr(check_file, "parse_record", counting)
    return seen


@pytest.mark.parametrize("dice", [None, CHALLENGE])
def test_a_record_is_parsed_once(dice: Path | None, parses: list[int | None]) -> None:
    result = Checker.create(dice, None).check(ALICE)
    assert result.verdict is Verdict.VALID
    assert len(parses) == 1


def test_rounds_beyond_the_dice_file_are_cut_at_the_same_bound(
    tmp_path: Path, parses: list[int | None]
) -> None:
    """A record longer than its dice file: read once, cut one round after the last row
    (that round is a round after the end), as a bounded read with --dice gives."""
    rows = read_dice(CHALLENGE).rows
    record = parse_record(ALICE.read_text(encoding="utf-8"), "yaml", source="alice.yaml")
    extra = record.rounds[-1]
    longer = record.__class__(
        rounds=(*record.rounds, *(extra for _ in range(len(rows) + 5))),
        dice_file="challenge.txt",
    )
    path = tmp_path / "long.yaml"
    path.write_text(dump_record(longer, "yaml"), encoding="utf-8")
    (tmp_path / "challenge.txt").write_bytes(CHALLENGE.read_bytes())
    alone = Checker.create(None, None).check(path)
    assert len(parses) == 1
    given = Checker.create(CHALLENGE, None).check(path)
    assert parses[-1] == len(rows) + 1
    assert alone.verdict is given.verdict is Verdict.INVALID
    assert alone.error is not None and given.error is not None
    assert (alone.error.code, alone.error.line) == (given.error.code, given.error.line)
    assert alone.record is not None and given.record is not None
    assert alone.record.rounds == given.record.rounds


def test_an_unreadable_round_past_the_end_is_a_round_after_the_end(
    tmp_path: Path, parses: list[int | None]
) -> None:
    """Only a record that cannot be read whole is read again, up to the bound: garbage
    beyond the dice file's rows stays a round after the end (E106), not E0xx."""
    rows = read_dice(CHALLENGE).rows
    text = ALICE.read_text(encoding="utf-8")
    filler = "  - {reroll: true}\n" * (len(rows) + 2)
    path = tmp_path / "broken.yaml"
    path.write_text(text + filler + "  - {cross: [9, 9]}\n", encoding="utf-8")
    (tmp_path / "challenge.txt").write_bytes(CHALLENGE.read_bytes())
    result = Checker.create(None, None).check(path)
    assert result.verdict is Verdict.INVALID, result.error
    assert result.error is not None and result.error.code == "E106"
    assert len(parses) == 3  # whole (refused), header, then up to the bound
