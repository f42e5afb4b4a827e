"""`analyze`: costs are never negative, values chain from round to round, a best game
costs nothing, and a deliberately bad choice is marked."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from tiers import sweep

from validator.check.replay import Result, replay
from validator.cli import main
from validator.cli.dice import dice_text
from validator.engine import STANDARD, Action, Dice, Ruleset, apply, legal_actions, new_game
from validator.records import dump_record
from validator.records.dice import parse_dice
from validator.solver import Solution, solve
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
        # A mark only for a proven loss (issue 20): the exact cost, or the loss proven.
        assert r.upper_before >= r.best_before and r.upper_after >= r.best_after
        assert r.cost_at_least == (r.cost if r.proven else max(0, r.best_before - r.upper_after))
        assert r.mark == mark_of(r.cost_at_least)
        assert (r.better is not None) == (r.cost > 0)
    for a, b in zip(analysis.rounds, analysis.rounds[1:], strict=False):
        if a.proven and b.proven:
            assert a.best_after == b.best_before
    assert analysis.best_score >= analysis.played_score


@pytest.mark.parametrize("seed", sweep(["a", "b", "c"]))
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


def _degraded(
    monkeypatch: pytest.MonkeyPatch, rows: tuple[Dice, ...], row: int, extra_upper: int = 0
) -> None:
    """Make the analysis's search of the position at dice row `row` answer what a search
    stopped early could: a random legal game from there (and a bound `extra_upper` above
    the true one), as a short time limit does on a long file."""
    import random

    from validator.engine import exhaust, score
    from validator.solver import analysis as module

    real = module._value

    def value(search, rows_, state, at, time_limit, nodes, cancel):  # type: ignore[no-untyped-def]
        found = real(search, rows_, state, at, time_limit, nodes, cancel)
        if at != row or state.over:
            return found
        rng = random.Random(7)
        line: list[Action] = []
        while not state.over and at + len(line) < len(rows):
            action = rng.choice(legal_actions(state, rows[at + len(line)]))
            state = apply(state, rows[at + len(line)], action).state
            line.append(action)
        total = score(exhaust(state), STANDARD)
        assert total < found.best, "the degraded answer must be worse"
        return module.Value(total, found.upper + extra_upper, tuple(line))

    monkeypatch.setattr(module, "_value", value)


def _best_game_analysed(
    monkeypatch: pytest.MonkeyPatch, seed: str, degraded_row: int
) -> tuple[tuple[Dice, ...], Solution, Analysis]:
    """A proven best game as the record, analysed with one position's search degraded."""
    rows = rows_of(seed)
    best = solve(rows, STANDARD, time_limit=None)
    result = replayed(rows, STANDARD, list(best.actions))
    _degraded(monkeypatch, rows, degraded_row)
    analysis = analyze(rows, STANDARD, result, time_limit=None)
    check_invariants(analysis)
    return rows, best, analysis


def test_a_better_choice_is_never_the_recorded_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """The search before round 1 finds a best game that plays the recorded round 1, and the
    search after it (stopped early) finds less: round 1 cost nothing, since the first
    game continues from there."""
    _, best, analysis = _best_game_analysed(monkeypatch, "b", 1)
    first = analysis.rounds[0]
    assert (first.cost, first.better, first.mark) == (0, None, None)
    assert first.best_after == first.best_before == best.best_score


def test_the_best_line_scores_the_best_total(monkeypatch: pytest.MonkeyPatch) -> None:
    """When the search from the first roll finds less than a later one, the best line is
    the played game up to there and the later line: it scores the best total."""
    from validator.engine import exhaust, score

    rows, best, analysis = _best_game_analysed(monkeypatch, "c", 0)
    assert analysis.best_score == best.best_score
    state = new_game()
    for n, action in enumerate(analysis.best_line):
        state = apply(state, rows[n], action).state
    assert score(exhaust(state), STANDARD) == analysis.best_score
    assert analysis.best_line[0] == best.actions[0]


def test_an_unproven_round_is_marked_only_by_its_proven_loss(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A record off the best line, whose third position's search stops early: the rounds
    next to it are not proven and get no mark (their loss proven is 0), whatever their
    cost estimate."""
    import random

    rows = rows_of("a")
    rng = random.Random(5)
    state = new_game()
    actions: list[Action] = []
    while not state.over and len(actions) < len(rows):
        actions.append(rng.choice(legal_actions(state, rows[len(actions)])))
        state = apply(state, rows[len(actions) - 1], actions[-1]).state
    result = replayed(rows, STANDARD, list(actions))
    _degraded(monkeypatch, rows, 2, extra_upper=100)
    analysis = analyze(rows, STANDARD, result, time_limit=None)
    check_invariants(analysis)
    unproven = [r for r in analysis.rounds if not r.proven]
    assert unproven  # the rounds next to the degraded position
    for r in unproven:
        assert r.cost_at_least == 0 and r.mark is None


@pytest.mark.parametrize("seconds", [0.02, pytest.param(0.3, marks=pytest.mark.slow)])
def test_e205s_stated_best_is_the_score_of_its_best_line(seconds: float) -> None:
    """Issue 16: analysing the rounds before E205's illegal step stated a best of 370 and
    drew a best line of 365. Whatever the time limit, the line scores the best stated."""
    from validator.check.file import Checker
    from validator.engine import exhaust, score
    from validator.report.analysis import analysable

    record = ROOT / "examples" / "invalid" / "e205-move-unreachable.yaml"
    checker = Checker.create(None, None)
    result = checker.check(record)
    analysed = analysable(result)
    assert not isinstance(analysed, str) and result.record is not None
    assert result.record.dice_file is not None
    from validator.check.file import load_dice

    rows = load_dice((record.parent / result.record.dice_file).resolve()).rows
    analysis = analyze(rows, analysed.rules, analysed, time_limit=seconds)
    check_invariants(analysis)
    state = analysed.rounds[0].before if analysed.rounds else new_game()
    for n, action in enumerate(analysis.best_line):
        state = apply(state, rows[analysis.first_row + n], action, analysed.rules).state
    assert score(exhaust(state), analysed.rules) == analysis.best_score


def test_the_text_tables_bounds_start_in_the_better_column() -> None:
    """A round not proven and with no better choice had its bounds under `mark`."""
    from validator.render.analyze_out import render_text

    def row(n: int, better: dict[str, object] | None) -> dict[str, object]:
        return {
            "round": n, "roll": n, "best_before": 350, "best_after": 345, "cost": 5,
            "proven": False, "upper_before": 440, "upper_after": 430, "cost_at_least": 0,
            "mark": None, "better": better,
        }  # fmt: skip

    payload = {
        "record": "r.yaml", "played_score": 345, "best_score": 350, "best_proven": False,
        "points_lost": 5, "clock_stopped": 0,
        "rounds": [row(1, {"cross": [4, 6], "move": [1, 1]}), row(2, None)],
    }  # fmt: skip
    lines = render_text(payload).splitlines()
    column = lines[1].index("better")
    assert lines[2][column:].startswith("x 4/6 -> 1/1  (before 350-440"), lines
    assert lines[3][column:].startswith("(before 350-440, after 345-430"), lines


def test_the_analyze_command_only_parses_options_for_its_run(tmp_path: Path) -> None:
    """`cli.analyze.run` analyses from its typed options, without click: the same file
    as the command; an illegal record exits 1 and writes nothing. (A game of 7 rows: what
    is tested is the options' way in, not the search, which costs a second on 60 rows.)"""
    from validator.cli.analyze import AnalyzeOptions, run

    record, dice = ROOT / "tests" / "golden" / "short.yaml", ROOT / "tests" / "golden" / "dice.txt"
    argv = [str(record), "--dice", str(dice), "--nodes", "400", "-o", str(tmp_path / "a.md")]
    assert CliRunner().invoke(main, ["analyze", *argv]).exit_code == 0
    options = AnalyzeOptions(record, dice, None, None, 400, None, tmp_path / "b.md")
    assert run(options) == 0
    assert (tmp_path / "b.md").read_bytes() == (tmp_path / "a.md").read_bytes()
    assert b"short.yaml" in (tmp_path / "a.md").read_bytes()
    bad = ROOT / "examples" / "invalid" / "e203-cross-taken.yaml"
    challenge = ROOT / "examples" / "challenge.txt"
    refused = AnalyzeOptions(bad, challenge, None, None, 400, None, tmp_path / "c.md")
    assert run(refused) == 1 and not (tmp_path / "c.md").exists()


@pytest.mark.parametrize(
    ("record", "dice"),
    [
        ("examples/alice.yaml", "examples/challenge.txt"),
        ("tests/golden/rings.yaml", "tests/golden/challenge.txt"),
        ("tests/golden/escape.yaml", "tests/golden/challenge.txt"),
    ],
)
def test_the_best_stated_is_never_below_the_played_game(record: str, dice: str) -> None:
    """Issue 34, item 8: with the weakest search there is (cancelled before it starts:
    one greedy game from each position), `analyze` and `report --analyze` still state a
    best of at least the played game's score; where nothing better was found, they say
    the played game is the best known."""
    import threading

    from validator.check.file import Checker
    from validator.cli.analyze import analysis_dict
    from validator.render.analyze_out import render_text
    from validator.report.analysis import run_analysis
    from validator.report.model import build_report

    checker = Checker.create(ROOT / dice, None)
    assert checker.dice is not None
    result = checker.check(ROOT / record)
    assert result.score is not None
    stop = threading.Event()
    stop.set()
    analysis = analyze(checker.dice.rows, result.rules, result, time_limit=None, cancel=stop)
    check_invariants(analysis)
    view = run_analysis(
        build_report(result), checker.dice.rows, time_limit=None, nodes=1, cancel=stop
    )
    assert not isinstance(view, str)
    assert view.best_score >= view.played_score == result.score
    assert view.best is not None and view.best.shown_score >= result.score
    text = render_text(analysis_dict(analysis, record)).splitlines()[0]
    if analysis.best_score == result.score:
        assert text.startswith(
            f"{record}: played {result.score}, best {result.score} (the played game, the best "
            "known; not proven): 0 points lost"
        )
        assert view.summary == (
            f"Played {result.score}; no better game was found (not proven within the "
            "budget of positions): the played game is the best known."
        )
    else:
        lost = analysis.best_score - result.score
        assert text.startswith(f"{record}: played {result.score}, best {analysis.best_score} (")
        assert f": {lost} points lost" in text


def test_a_search_that_finds_less_than_the_played_game_states_the_played_game(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 34, item 8, forced: every position's search (the last one's too) answers
    that it found no game at all. The best stated is still the finished game's score,
    its line the played game, and both outputs say the played game is the best known.
    (The 7-row golden game: each position's search is the same code on any file, and on
    alice's 60 rows it cost a second.)"""
    from validator.check.file import Checker
    from validator.cli.analyze import analysis_dict
    from validator.engine import exhaust, score
    from validator.render.analyze_out import render_text
    from validator.report.analysis import run_analysis
    from validator.report.model import build_report
    from validator.solver import analysis as module

    real = module._value

    def found_nothing(search, rows_, state, at, time_limit, nodes, cancel):  # type: ignore[no-untyped-def]
        return module.Value(0, real(search, rows_, state, at, time_limit, nodes, cancel).upper, ())

    monkeypatch.setattr(module, "_value", found_nothing)
    checker = Checker.create(ROOT / "tests" / "golden" / "dice.txt", None)
    assert checker.dice is not None
    rows = checker.dice.rows
    result = checker.check(ROOT / "tests" / "golden" / "short.yaml")
    analysis = analyze(rows, result.rules, result, time_limit=None, nodes=1000)
    check_invariants(analysis)
    assert analysis.best_score == analysis.played_score == result.score == 150
    assert [r.cost for r in analysis.rounds] == [0] * len(analysis.rounds)
    state = new_game()
    for n, action in enumerate(analysis.best_line):
        state = apply(state, rows[n], action).state
    assert score(exhaust(state), result.rules) == 150
    assert render_text(analysis_dict(analysis, "short.yaml")).splitlines()[0] == (
        "short.yaml: played 150, best 150 (the played game, the best known; not proven): "
        "0 points lost"
    )
    view = run_analysis(build_report(result), rows, time_limit=None, nodes=1000)
    assert not isinstance(view, str)
    assert view.summary == (
        "Played 150; no better game was found (not proven within the budget of positions): "
        "the played game is the best known."
    )
    assert view.best is not None and view.best.shown_score == 150
