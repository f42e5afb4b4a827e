"""Commands never write over their own input or a file they were not asked to replace, and
write only the form their output's suffix names; play refuses to run without a terminal."""

from __future__ import annotations

import shutil
from pathlib import Path

from click.testing import CliRunner

from validator.cli import main

ROOT = Path(__file__).resolve().parent.parent
ALICE = ROOT / "examples" / "alice.yaml"
CHALLENGE = ROOT / "examples" / "challenge.txt"


def run(*args: str | Path) -> tuple[int, str]:
    out = CliRunner().invoke(main, [str(a) for a in args])
    return out.exit_code, out.output


def test_report_never_writes_over_its_record(tmp_path: Path) -> None:
    record = tmp_path / "mine.yaml"
    shutil.copy(ALICE, record)
    before = record.read_bytes()
    code, out = run("report", record, "--dice", CHALLENGE, "--format", "md", "-o", record)
    assert code == 2 and "is an input of this command" in out
    assert record.read_bytes() == before


def test_dice_is_written_as_text_and_not_over_an_existing_file(tmp_path: Path) -> None:
    code, out = run("dice", "--rows", "3", "--seed", "s", "--output", tmp_path / "d.json")
    assert code == 2 and "name it .txt" in out
    path = tmp_path / "d.txt"
    assert run("dice", "--rows", "3", "--seed", "s", "--output", path)[0] == 0
    first = path.read_text()
    code, out = run("dice", "--rows", "3", "--seed", "other", "--output", path)
    assert code == 2 and "exists" in out and path.read_text() == first
    assert run("dice", "--rows", "3", "--seed", "other", "--output", path, "--force")[0] == 0
    assert path.read_text() != first


def test_convert_writes_the_form_its_suffix_names(tmp_path: Path) -> None:
    code, out = run("convert", ALICE, "--to", "text", "-o", tmp_path / "x.yaml")
    assert code == 2 and "the suffix .yaml names the yaml format, not text" in out
    assert run("convert", ALICE, "--to", "text", "-o", tmp_path / "x.txt")[0] == 0


def test_play_needs_a_terminal(tmp_path: Path) -> None:
    code, out = run("play", CHALLENGE, "--output", tmp_path / "g.yaml")
    assert code == 2 and "needs a terminal" in out


def test_a_record_of_rounds_only_without_dice_says_the_dice_file_is_missing(
    tmp_path: Path,
) -> None:
    (tmp_path / "r.txt").write_text("1: 1 4 6 x 1/4 -> 1/1\n")
    (tmp_path / "r.csv").write_text("cross,move\n1/4,1/1\n")
    for name in ("r.txt", "r.csv"):
        code, out = run("validate", tmp_path / name)
        assert code == 1 and "E004 no dice file" in out, out
        code, out = run("validate", tmp_path / name, "--dice", CHALLENGE)
        assert code == 0, out


def test_convert_replays_as_validate_does(tmp_path: Path) -> None:
    record = tmp_path / "r.yaml"
    record.write_text("dice_file: /etc/passwd\nrounds:\n  - {cross: 1/4, move: 1/1}\n")
    code, out = run("convert", record, "--to", "text")
    assert code == 1 and "E005 dice_file: an absolute path is not allowed" in out
    assert "root:" not in out
    record.write_text("rules: house.yaml\nrounds:\n  - {cross: 1/4, move: 1/1}\n")
    code, out = run("convert", record, "--to", "text", "--dice", CHALLENGE)
    assert code == 1 and "--rules" in out
