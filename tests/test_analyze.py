"""`analyze`: costs are never negative, values chain from round to round, a best game
costs nothing, and a deliberately bad choice is marked."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from validator.check.replay import Result, replay
from validator.cli import main
from validator.cli.dice import dice_text
from validator.engine import STANDARD, Dice, Ruleset, apply, legal_actions, new_game
from validator.records import dump_record
from validator.records.dice import parse_dice
from validator.solver import solve
from validator.solver.analysis import MARKS, Analysis, analyze, mark_of
from validator.solver.record import action_rounds, game_record

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = json.loads((ROOT / "schemas" / "analyze.schema.json").read_text())


def rows_of(seed: str, n: int = 8) -> tuple[Dice, ...]:
    return parse_dice(dice_text(n, seed).encode(), "dice.txt").rows


def replayed(rows: tuple[Dice, ...], rules: Ruleset, actions: list[object]) -> Result:
    rounds = action_rounds(rows, rules, new_game(rules.max_rings), 0, actions)  # type: ignore[arg-type]
    return replay(rows, game_record(rounds, rings=rules.max_rings), rules)


def check_invariants(analysis: Analysis) -> None:
    for r in analysis.rounds:
        assert r.cost == r.best_before - r.best_after >= 0
        assert r.mark == mark_of(r.cost)
        assert (r.better is not None) == (r.cost > 0)
    for a, b in zip(analysis.rounds, analysis.rounds[1:], strict=False):
        if a.proven and b.proven:
            assert a.best_after == b.best_before
    assert analysis.best_score >= analysis.played_score


@pytest.mark.parametrize("seed", ["a", "b", "c"])
def test_a_best_game_costs_nothing(seed: str) -> None:
    rows = rows_of(seed)
    best = solve(rows, STANDARD, time_limit=None)
    result = replayed(rows, STANDARD, list(best.actions))
    analysis = analyze(rows, STANDARD, result, time_limit=None)
    check_invariants(analysis)
    assert [r.cost for r in analysis.rounds] == [0] * len(analysis.rounds)
    assert all(r.proven for r in analysis.rounds)
    assert analysis.played_score == analysis.best_score == best.best_score


@pytest.mark.slow
@pytest.mark.parametrize("seed", ["b", "c"])
def test_a_deliberately_bad_choice_is_marked(seed: str) -> None:
    rows = rows_of(seed)
    best = solve(rows, STANDARD, time_limit=None)
    # Play the best game's first round, then the choice with the worst outcome, then
    # the best continuation from there.
    state = apply(new_game(), rows[0], best.actions[0]).state
    worst = min(
        legal_actions(state, rows[1]),
        key=lambda a: solve(rows, STANDARD, apply(state, rows[1], a).state, 2).best_score,
    )
    after = apply(state, rows[1], worst).state
    rest = solve(rows, STANDARD, after, 2, time_limit=None)
    result = replayed(rows, STANDARD, [best.actions[0], worst, *rest.actions])
    analysis = analyze(rows, STANDARD, result, time_limit=None)
    check_invariants(analysis)
    bad = analysis.rounds[1]
    assert bad.cost == best.best_score - rest.best_score > 0
    assert bad.mark is not None and bad.better is not None
    assert analysis.played_score == rest.best_score


def test_marks_run_from_small_to_large_losses() -> None:
    assert mark_of(0) is None
    assert [mark_of(t) for t, _ in MARKS] == [m for _, m in MARKS]
    assert mark_of(MARKS[-1][0] - 1) is None


def test_cli_json_follows_the_schema_and_md_renders(tmp_path: Path) -> None:
    rows = rows_of("cli")
    dice = tmp_path / "dice.txt"
    dice.write_text(dice_text(8, "cli"))
    best = solve(rows, STANDARD, time_limit=None)
    record = tmp_path / "entry.yaml"
    rounds = action_rounds(rows, STANDARD, new_game(), 0, best.actions)
    record.write_text(dump_record(game_record(rounds[:4]), "yaml"))  # incomplete on purpose
    runner = CliRunner()
    out = runner.invoke(main, ["analyze", str(record), "--dice", str(dice), "--format", "json"])
    assert out.exit_code == 0, out.output
    payload = json.loads(out.stdout)
    assert set(payload) == set(SCHEMA["required"])
    assert len(payload["rounds"]) == 4
    for r in payload["rounds"]:
        assert set(r) == set(SCHEMA["$defs"]["AnalysisRoundOut"]["required"])
    # An incomplete record's last best_after is the best total still reachable.
    assert payload["rounds"][-1]["best_after"] == payload["best_score"] == best.best_score
    md = runner.invoke(main, ["analyze", str(record), "--dice", str(dice), "--format", "md"])
    assert md.exit_code == 0 and "| round | roll |" in md.stdout


def test_cli_refuses_an_invalid_record() -> None:
    result = CliRunner().invoke(
        main,
        [
            "analyze",
            str(ROOT / "examples" / "invalid" / "e203-cross-taken.yaml"),
            "--dice",
            str(ROOT / "examples" / "challenge.txt"),
        ],
    )
    assert result.exit_code == 1
    assert "E203" in result.stderr
