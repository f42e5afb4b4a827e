"""`validate` and a record's own dice file: a relative path may leave the record's folder
(a player checks their own record), an absolute path, a device or a FIFO may not; every
refusal is that record's `malformed` result and quotes nothing of the file."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from validator.check.file import Checker
from validator.cli import main
from validator.errors import Verdict

CHALLENGE = Path(__file__).resolve().parent.parent / "examples" / "challenge.txt"
ROUND = "rounds:\n  - {cross: [1, 4], move: [1, 1]}\n"


def record(folder: Path, dice_file: str, name: str = "r.yaml") -> Path:
    path = folder / name
    path.write_text(f"dice_file: {dice_file}\n{ROUND}", encoding="utf-8")
    return path


def test_a_relative_path_may_leave_the_records_folder(tmp_path: Path) -> None:
    shutil.copy(CHALLENGE, tmp_path / "challenge.txt")
    (tmp_path / "me").mkdir()
    result = Checker().check(record(tmp_path / "me", "../challenge.txt"))
    assert result.verdict is Verdict.INCOMPLETE


@pytest.mark.parametrize("target", ["/etc/passwd", "/dev/zero", "~/challenge.txt"])
def test_absolute_paths_and_devices_are_refused(tmp_path: Path, target: str) -> None:
    result = Checker().check(record(tmp_path, target))
    assert result.verdict is Verdict.MALFORMED
    assert result.error is not None and result.error.line == 1
    assert "root:" not in result.error.message


def test_a_fifo_or_a_folder_is_refused_without_waiting(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "dice.txt")
    (tmp_path / "folder.txt").mkdir()
    for name in ("dice.txt", "folder.txt"):
        result = Checker().check(record(tmp_path, name))
        assert result.verdict is Verdict.MALFORMED
        assert result.error is not None and result.error.code == "D001"
    os.mkfifo(tmp_path / "fifo.yaml")
    assert Checker().check(tmp_path / "fifo.yaml").verdict is Verdict.MALFORMED


def test_a_file_that_is_no_dice_file_is_named_by_line_only(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("fine\nSECRET-CONTENT here\n", encoding="utf-8")
    result = Checker().check(record(tmp_path, "notes.txt"))
    assert result.verdict is Verdict.MALFORMED and result.error is not None
    assert "line 1" in result.error.message
    assert "SECRET" not in result.error.message and "fine" not in result.error.message


def test_a_missing_dice_file_does_not_stop_the_other_records(tmp_path: Path) -> None:
    shutil.copy(CHALLENGE, tmp_path / "challenge.txt")
    bad = record(tmp_path, "missing.txt", "nodice.yaml")
    good = record(tmp_path, "challenge.txt", "ok.yaml")
    out = CliRunner().invoke(main, ["validate", str(bad), str(good)], env={"NO_COLOR": "1"})
    assert out.exit_code == 1
    assert "nodice.yaml: malformed" in out.stdout
    assert "ok.yaml: incomplete" in out.stdout
    assert "2 records: 1 incomplete, 1 malformed" in out.stdout


def test_a_bad_dice_option_still_stops_the_command(tmp_path: Path) -> None:
    good = record(tmp_path, "challenge.txt")
    out = CliRunner().invoke(main, ["validate", str(good), "--dice", str(tmp_path / "no.txt")])
    assert out.exit_code == 2


def test_each_record_naming_a_bad_dice_file_gets_its_own_diagnostic(tmp_path: Path) -> None:
    checker = Checker()
    first = checker.check(record(tmp_path, "missing.txt", "a.yaml"))
    (tmp_path / "b.yaml").write_text(f"player: B\ndice_file: missing.txt\n{ROUND}")
    second = checker.check(tmp_path / "b.yaml")
    assert first.error is not None and second.error is not None
    assert (first.error.file, first.error.line) == (str(tmp_path / "a.yaml"), 1)
    assert (second.error.file, second.error.line) == (str(tmp_path / "b.yaml"), 2)
    assert second.error.excerpt == "dice_file: missing.txt"


def test_reading_stops_one_round_after_the_dice_file(tmp_path: Path) -> None:
    rows = len(CHALLENGE.read_text().split("\n"))
    shutil.copy(CHALLENGE, tmp_path / "challenge.txt")
    many = "".join("  - {reroll: true}\n" for _ in range(rows * 50))
    (tmp_path / "long.yaml").write_text(f"dice_file: challenge.txt\nrounds:\n{many}")
    result = Checker().check(tmp_path / "long.yaml")
    assert result.verdict is Verdict.INVALID
    assert result.record is not None and len(result.record.rounds) <= rows + 1


def test_a_record_may_not_name_a_rules_file(tmp_path: Path) -> None:
    shutil.copy(CHALLENGE, tmp_path / "challenge.txt")
    (tmp_path / "house.yaml").write_text("base: bga\n")
    path = tmp_path / "r.yaml"
    path.write_text(f"rules: house.yaml\ndice_file: challenge.txt\n{ROUND}")
    result = Checker().check(path)
    assert result.verdict is Verdict.MALFORMED and result.error is not None
    assert result.error.code == "E005" and "--rules" in result.error.message
    assert result.error.excerpt == "rules: house.yaml"
    # Read but not checked: the record is kept (its player, its claim).
    assert result.record is not None and result.record.rules == "house.yaml"
    path.write_text(f"rules: spring-contest\ndice_file: challenge.txt\n{ROUND}")
    refused = Checker().check(path)
    unknown = refused.error
    assert unknown is not None and "rules file" not in unknown.message
    assert "--rules" in unknown.hint
    assert refused.record is not None and refused.record.rules == "spring-contest"
