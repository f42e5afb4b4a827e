"""`road300 solve` and `road300 dice` through the command line: the JSON contract, the
record that validates to exactly the best score, --from, --stats and the exit status."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from validator.cli import main
from validator.cli.dice import dice_text
from validator.engine import STANDARD
from validator.records import dump_record
from validator.records.dice import read_dice
from validator.solver.playout import random_game, to_record

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = json.loads((ROOT / "schemas" / "solve.schema.json").read_text())


@pytest.fixture
def dice(tmp_path: Path) -> Path:
    path = tmp_path / "dice.txt"
    path.write_text(dice_text(6, "cli tests"))
    return path


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout


def test_json_fields_and_the_record_validates_to_the_best_score(dice: Path, tmp_path: Path) -> None:
    code, out = run("solve", str(dice), "--format", "json", "--time-limit", "20")
    assert code == 0
    payload = json.loads(out)
    assert set(payload) == set(SCHEMA["required"])
    assert payload["proven"] and payload["best_score"] == payload["upper_bound"]
    for entry in payload["record"]["rounds"]:
        assert {"roll", "dice"} <= set(entry)
        if "cross" in entry:
            assert "steps" in entry
    record = tmp_path / "best.json"
    record.write_text(json.dumps(payload["record"]))
    code, out = run("validate", str(record), "--dice", str(dice), "--format", "json")
    verdict = json.loads(out)
    assert (code, verdict["verdict"], verdict["score"]) == (0, "valid", payload["best_score"])


@pytest.mark.parametrize("suffix", [".yaml", ".txt", ".csv"])
def test_output_writes_the_format_its_suffix_names(dice: Path, tmp_path: Path, suffix: str) -> None:
    out_file = tmp_path / f"best{suffix}"
    result = CliRunner().invoke(
        main, ["solve", str(dice), "--time-limit", "5", "-o", str(out_file)]
    )
    assert result.exit_code == 0 and f"road300: wrote the best game to {out_file}" in result.stderr
    code, out = run("validate", str(out_file), "--dice", str(dice), "--format", "json")
    assert code == 0 and json.loads(out)["verdict"] == "valid"


def test_from_keeps_the_given_rounds(dice: Path, tmp_path: Path) -> None:
    rows = read_dice(dice).rows
    steps = random_game(rows, STANDARD, random.Random(4))[:3]
    partial = tmp_path / "partial.yaml"
    given = to_record(steps)
    partial.write_text(dump_record(given, "yaml"))
    code, out = run("solve", str(dice), "--from", str(partial), "--format", "json")
    assert code == 0
    rounds = json.loads(out)["record"]["rounds"]
    kept = json.loads(dump_record(given, "json"))["rounds"]
    assert rounds[: len(kept)] == kept


def test_invalid_from_record_exits_1_with_its_diagnostic(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main,
        [
            "solve",
            str(ROOT / "examples" / "challenge.txt"),
            "--from",
            str(ROOT / "examples" / "invalid" / "e203-cross-taken.yaml"),
        ],
    )
    assert result.exit_code == 1
    assert "E203" in result.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["solve", "missing-dice.txt"],
        ["solve", "{dice}", "--output", "best.exe"],
        ["solve", "{dice}", "--rules", "nosuchrules"],
        ["solve", "{dice}", "--stats", "--from", "{dice}"],
        ["dice", "--rows", "0", "--seed", "x"],
    ],
)
def test_bad_options_exit_2(dice: Path, args: list[str]) -> None:
    result = CliRunner().invoke(main, [a.format(dice=dice) for a in args])
    assert result.exit_code == 2, result.output


@pytest.mark.slow
def test_stats_reports_beam_and_random_play(dice: Path) -> None:
    code, out = run("solve", str(dice), "--stats", "--games", "10", "--format", "json")
    assert code == 0
    stats = json.loads(out)["stats"]
    assert set(stats) == set(SCHEMA["properties"]["stats"]["required"])
    assert stats["games"] == 10
    best = json.loads(out)["best_score"]
    assert stats["random_median"] <= stats["random_p90"] <= best
    assert stats["beam_score"] <= best


def test_dice_files_are_reproducible_and_readable(tmp_path: Path) -> None:
    path = tmp_path / "new.txt"
    code, _ = run("dice", "--rows", "60", "--seed", "spring", "--output", str(path))
    assert code == 0
    rows = read_dice(path).rows
    assert len(rows) == 60 and all(1 <= d <= 6 for row in rows for d in row)
    assert path.read_text() == dice_text(60, "spring")
    assert dice_text(60, "autumn") != dice_text(60, "spring")
    code, out = run("dice", "--rows", "3", "--seed", "spring")
    assert out.splitlines()[1:] == path.read_text().splitlines()[1:4]
