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
from validator.contest.config import parse_size, size_text
from validator.engine import STANDARD
from validator.records import dump_record
from validator.records.dice import read_dice
from validator.render.solve_out import render_text
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
    assert "rounds are legal" not in result.stderr  # the note of a cut record only


def test_a_record_cut_from_a_finished_game_is_told_to_drop_its_claim(
    dice: Path, tmp_path: Path
) -> None:
    """solve's own --output claims its final score; the first rounds of it, given to
    --from, are refused (E107) with what to do about it."""
    best = tmp_path / "best.yaml"
    assert (
        CliRunner().invoke(main, ["solve", str(dice), "--nodes", "1", "-o", str(best)]).exit_code
        == 0
    )
    lines = best.read_text().splitlines()
    first = lines.index("rounds:") + 3
    cut = tmp_path / "cut.yaml"
    cut.write_text("\n".join(lines[:first]) + "\n")
    result = CliRunner().invoke(main, ["solve", str(dice), "--from", str(cut)])
    assert result.exit_code == 1
    assert "E107" in result.stderr
    assert "its rounds are legal" in result.stderr and "remove that line" in result.stderr
    cut.write_text("\n".join(line for line in lines[:first] if "claimed_score" not in line))
    assert (
        CliRunner().invoke(main, ["solve", str(dice), "--from", str(cut), "--nodes", "1"]).exit_code
        == 0
    )


@pytest.mark.parametrize(
    "args",
    [
        ["solve", "missing-dice.txt"],
        ["solve", "{dice}", "--output", "best.exe"],
        ["solve", "{dice}", "--rules", "nosuchrules"],
        ["solve", "{dice}", "--stats", "--from", "{dice}"],
        ["solve", "{dice}", "--memory", "lots"],
        ["solve", "{dice}", "--memory", "0"],
        ["solve", "{dice}", "--memory", "1KiB"],
        ["solve", "{dice}", "--memory", "99999999GiB"],
        ["solve", "{dice}", "--jobs", "0"],
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
    assert set(stats) == set(SCHEMA["$defs"]["SolveStatsOut"]["required"])
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


def test_without_the_fast_extra_each_search_command_says_so_once(
    dice: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A plain install (no numba): solve, analyze and batch --par still answer, in pure
    Python, and say once per process that road300[fast] would be faster."""
    from validator.solver import search

    monkeypatch.setattr(search, "fast_core_installed", lambda: False)
    record = tmp_path / "entries" / "game.yaml"
    record.parent.mkdir()
    steps = random_game(read_dice(dice).rows, STANDARD, random.Random(3))
    record.write_text(dump_record(to_record(steps), "yaml"))
    commands = [
        ["solve", str(dice), "--format", "json"],
        ["analyze", str(record), "--dice", str(dice), "--format", "json"],
        ["batch", str(record.parent), "--dice", str(dice), "--par", "--format", "json"],
    ]
    for args in commands:
        monkeypatch.setattr(search, "_fast_core_noted", False)  # as in a new process
        first = CliRunner().invoke(main, args)
        assert first.exit_code == 0, first.output
        assert first.stderr.count(search.FAST_CORE_NOTE) == 1, args
    again = CliRunner().invoke(main, commands[0])  # the same process: said already
    assert again.exit_code == 0 and search.FAST_CORE_NOTE not in again.stderr
    assert json.loads(again.stdout)["proven"]


def test_with_the_fast_extra_nothing_is_said(dice: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from validator.solver import search

    monkeypatch.setattr(search, "fast_core_installed", lambda: True)
    monkeypatch.setattr(search, "_fast_core_noted", False)
    result = CliRunner().invoke(main, ["solve", str(dice), "--format", "json"])
    assert result.exit_code == 0 and search.FAST_CORE_NOTE not in result.stderr


def test_auto_stays_in_python_when_numba_does_not_import(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from validator.solver import search

    monkeypatch.delenv(search.CORE_ENV, raising=False)
    monkeypatch.setitem(sys.modules, "numba", None)  # `import numba` raises ImportError
    monkeypatch.delitem(sys.modules, "validator.solver.core", raising=False)
    assert not search.fast_core_installed()
    rows = read_dice(ROOT / "examples" / "challenge.txt").rows
    auto = search.Search(rows, STANDARD)
    assert auto.core_choice == "auto"
    assert auto.compiled() is None
    chosen: str = auto.core_choice  # compiled() changed it
    assert chosen == "python"


def test_an_unproven_best_is_shown_as_at_least_with_its_bound() -> None:
    """Issue 20: a best score that is not proven is "at least X (bound Y)"."""
    challenge = ROOT / "examples" / "challenge.txt"
    code, out = run("solve", str(challenge), "--time-limit", "0.05")
    assert code == 0
    first = out.splitlines()[0]
    code, raw = run("solve", str(challenge), "--time-limit", "0.05", "--format", "json")
    payload = json.loads(raw)
    assert not payload["proven"]  # 80 rows from the first roll: far from proven in 0.05 s
    assert "best score at least " in first and " (bound " in first and "not proven" in first


def test_a_full_table_is_named_with_the_memory_that_repeats_the_answer() -> None:
    """A search that filled the compiled table depends on its size: the text names the
    --memory that repeats it beside the --nodes, and says so for a budget too."""
    payload = {
        "best_score": 380, "upper_bound": 440, "proven": False, "nodes": 5_000_000,
        "seconds": 9.5, "stopped": "time", "repeat_nodes": 4_999_000,
        "memory": 256 << 20, "table_full": True,
    }  # fmt: skip
    text = render_text(payload, dice="d.txt", continued=False, best_game=None)
    assert "--nodes 4999000 --jobs 1 --memory 256MiB gives this same answer on any machine" in (
        text
    )
    budget = render_text(
        payload | {"stopped": "nodes", "repeat_nodes": None},
        dice="d.txt", continued=False, best_game=None,
    )  # fmt: skip
    assert "filled its table (256MiB): the same budget gives this answer with --memory 256MiB" in (
        budget
    )
    proven = payload | {"stopped": None, "repeat_nodes": None, "proven": True, "upper_bound": 380}
    assert "--memory" not in render_text(proven, dice="d.txt", continued=False, best_game=None)
    roomy = render_text(
        payload | {"table_full": False}, dice="d.txt", continued=False, best_game=None
    )
    assert "--memory" not in roomy and "--nodes 4999000 --jobs 1 gives" in roomy


def test_a_split_search_names_its_jobs_or_that_no_budget_repeats_it() -> None:
    """A search split among threads repeats only with as many: the text names --jobs
    beside --nodes; when no budget repeats a clock-stopped answer, it says so."""
    payload = {
        "best_score": 380, "upper_bound": 440, "proven": False, "nodes": 5_000_000,
        "seconds": 9.5, "stopped": "time", "repeat_nodes": 4_999_000,
        "memory": 256 << 20, "table_full": False, "jobs": 2,
    }  # fmt: skip
    text = render_text(payload, dice="d.txt", continued=False, best_game=None)
    assert "--nodes 4999000 --jobs 2 gives this same answer on any machine" in text
    # One thread is named too: the command's default is two.
    one = render_text(payload | {"jobs": 1}, dice="d.txt", continued=False, best_game=None)
    assert "--nodes 4999000 --jobs 1 gives" in one
    lost = render_text(
        payload | {"repeat_nodes": None}, dice="d.txt", continued=False, best_game=None
    )
    assert "depends on the machine's speed, and no --nodes budget repeats it" in lost
    ctrl_c = render_text(payload | {"stopped": "cancel"}, dice="d.txt", continued=False,
                         best_game=None)  # fmt: skip
    assert "stopped by Ctrl-C, so this answer depends on when it came; --nodes 4999000" in ctrl_c


def test_sizes_read_back_as_written() -> None:
    for size in (100, 1536 << 10, 512 << 20, 2 << 30, 3 << 30):
        assert parse_size(size_text(size)) == size
    assert parse_size("2GiB") == parse_size("2 g") == 2 << 30
    assert parse_size("1GB") == 10**9


@pytest.mark.slow
def test_solve_memory_on_the_command_line_caps_the_table(dice: Path, tmp_path: Path) -> None:
    from validator.solver.core import warm_up

    warm_up()  # numba's cache filled, so that "auto" takes the compiled core
    long_dice = tmp_path / "long.txt"
    long_dice.write_text(dice_text(40, "memory cli"))
    args = ["solve", str(long_dice), "--nodes", "40000", "--memory", "16KiB"]
    code, out = run(*args, "--format", "json")
    payload = json.loads(out)
    assert code == 0 and payload["table_full"] and payload["memory"] == 16 << 10
    code, text = run(*args)
    assert "filled its table (16KiB)" in text
    code, out = run("solve", str(long_dice), "--nodes", "40000", "--format", "json")
    assert not json.loads(out)["table_full"]


def test_the_solve_command_only_parses_options_for_its_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`cli.solve.run` solves from its typed options, without click: the same answer and
    the same record as the command, continuing a partial record (its player kept)."""
    from validator.cli.common import SEARCH_JOBS
    from validator.cli.solve import SolveOptions
    from validator.cli.solve import run as run_solve

    half = tmp_path / "half.yaml"
    alice = (ROOT / "examples" / "alice.yaml").read_text(encoding="utf-8").splitlines()
    head = alice.index("rounds:")
    kept = [x for x in alice[:head] if not x.startswith("claimed_score")]
    half.write_text("\n".join(kept + alice[head : head + 6]) + "\n", encoding="utf-8")
    dice = str(ROOT / "examples" / "challenge.txt")
    code, out = run("solve", dice, "--from", str(half), "--nodes", "3000", "--format", "json")
    options = SolveOptions(
        dice=Path(dice),
        from_record=half,
        rules=None,
        time_limit=None,
        nodes=3000,
        memory=None,
        jobs=SEARCH_JOBS,
        fmt="json",
        output=None,
        stats=False,
        progress=False,
        games=1,
    )
    assert run_solve(options) == code == 0
    by_run, by_command = json.loads(capsys.readouterr().out), json.loads(out)
    for answer in (by_run, by_command):
        del answer["seconds"]
    assert by_run == by_command
    record = by_run["record"]
    assert record["player"] == "Alice Example" and record["rounds"][0]["roll"] == 1
    assert len(record["rounds"]) > 5 and record["claimed_score"] == by_run["best_score"]
