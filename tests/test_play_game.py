"""`road300 play` without the screen: the choices offered, undo and redo, the record written."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from validator.check.file import Checker
from validator.check.replay import Verdict
from validator.engine import Play, Reroll, RingReroll, State, apply, legal_actions, score
from validator.records.dice import read_dice
from validator.rulesets import record_name as record_rules_name
from validator.rulesets import resolve
from validator.tui.game import GameSession, rounds_from_replay
from validator.tui.hint import rank_actions
from validator.tui.save import RecordFile
from validator.tui.start import StartError, start_game

CHALLENGE = Path(__file__).resolve().parent.parent / "examples" / "challenge.txt"

RULES = ["standard", "bga", "literal", "standard+escape=20", "bga+rings=2", "standard+in-and-out"]


def random_play(game: GameSession, rng: random.Random, limit: int = 200) -> None:
    """Play the game to its end with random choices made the way the screen makes them."""
    while not game.over and limit:
        limit -= 1
        if game.ring_allowed and rng.random() < 0.1:
            game.play(RingReroll())
            continue
        cross = rng.choice(game.crosses())
        game.play(rng.choice(game.options(cross)).action)


@pytest.mark.parametrize("spec", RULES)
def test_options_are_exactly_the_legal_actions(spec: str) -> None:
    rules = resolve(spec)
    rows = read_dice(CHALLENGE).rows
    rng = random.Random(spec)
    ends = 0
    for _ in range(3):
        game = GameSession(rows, rules, rings=rules.max_rings)
        while not game.over:
            state, dice = game.state, game.dice
            assert dice is not None
            legal = legal_actions(state, dice, rules)
            expected = {(a.cross, a.move, a.exit) for a in legal if isinstance(a, Play)}
            offered = set()
            moves = False
            for cross in game.crosses():
                options = game.options(cross)
                walks = [(o.kind, o.walk) for o in options]
                assert len(walks) == len(set(walks)), "a walk is offered twice"
                for o in options:
                    # Every walk shown is one the engine accepts, ending where it says.
                    turn = apply(state, dice, o.action, rules)
                    assert turn.walk is not None or o.kind == "stuck"
                    offered.add((o.action.cross, o.action.move, o.action.exit))
                    moves = moves or o.kind != "stuck"
            assert offered == expected
            assert game.goes_on == moves
            ends += not moves
            assert game.ring_allowed == any(isinstance(a, RingReroll) for a in legal)
            random_play_one(game, rng)
    # (With Escape! a corner is nearly always in reach, so random games escape instead.)
    assert ends or rules.escape, "some position where no cross-out leaves a move was seen"


def random_play_one(game: GameSession, rng: random.Random) -> None:
    cross = rng.choice(game.crosses())
    game.play(rng.choice(game.options(cross)).action)


def test_a_field_shows_every_walk_to_it() -> None:
    # First move with a 3 onto 2/2 (after crossing out 1/5 with 1 5 3): from a corner,
    # 1/1 -> 1/2 -> 2/2 and 1/1 -> 2/1 -> 2/2, nothing else.
    game = GameSession([(1, 5, 3)], resolve("standard"))
    cross = next(c for c in game.crosses() if str(c.field) == "1/5")
    to_22 = [o.walk for o in game.options(cross) if str(o.target) == "2/2"]
    assert sorted(" ".join(map(str, w)) for w in to_22) == ["1/1 1/2 2/2", "1/1 2/1 2/2"]


def test_forced_rerolls_play_themselves_and_the_last_row_ends_the_game() -> None:
    # 1 1 1 crosses out 1/1; then 1 1 1 twice more are forced rerolls; 2 2 2 is the last row.
    rows = [(1, 1, 1), (1, 1, 1), (1, 1, 1), (2, 2, 2)]
    game = GameSession(rows, resolve("standard"))
    cross = game.crosses()[0]
    game.play(next(o for o in game.options(cross) if str(o.target) == "6/6").action)
    assert [r.auto for r in game.rounds] == [False, True, True]
    assert [type(r.step.action) for r in game.rounds[1:]] == [Reroll, Reroll]
    assert len(game.notices) == 2 and "forced reroll (2 of 3 in a row)" in game.notices[1]
    assert game.row == 3 and not game.over
    cross = game.crosses()[0]
    game.play(game.options(cross)[0].action)
    assert game.over and game.state.end is not None and game.state.end.value == "dice-exhausted"


def test_three_forced_rerolls_end_the_game() -> None:
    rows = [(1, 1, 1)] * 4 + [(2, 2, 2)]
    game = GameSession(rows, resolve("standard"))
    game.play(game.options(game.crosses()[0])[0].action)
    assert game.over and game.state.end is not None and game.state.end.value == "rerolls"
    assert game.dice is None and game.actions() == []


def test_undo_and_redo_any_number_of_steps() -> None:
    rows = read_dice(CHALLENGE).rows
    game = GameSession(rows, resolve("standard"))
    random_play(game, random.Random(7))
    states: list[State] = [r.step.state for r in game.rounds if not r.auto]
    end, played = game.state, len(game.rounds)
    undone = 0
    while game.undo():
        undone += 1
    assert undone == len(states) and game.rounds == [] and game.state == game.start
    assert not game.can_undo and game.can_redo
    while game.redo():
        pass
    assert game.state == end and len(game.rounds) == played
    # A new choice after an undo forgets what could be redone.
    game.undo()
    game.undo()
    cross = game.crosses()[-1]
    game.play(game.options(cross)[-1].action)
    assert not game.can_redo


def test_undo_leaves_forced_rerolls_before_the_first_choice() -> None:
    rows = [(1, 1, 1), (1, 1, 1), (3, 3, 3)]
    game = GameSession(rows, resolve("standard"))
    game.play(game.options(game.crosses()[0])[0].action)
    assert len(game.rounds) == 2
    assert game.undo() and game.rounds == []


@pytest.mark.parametrize("spec", RULES)
def test_written_record_is_valid_and_replays_to_the_same_rounds(spec: str, tmp_path: Path) -> None:
    rules = resolve(spec)
    dice = read_dice(CHALLENGE)
    game = GameSession(dice.rows, rules, rings=rules.max_rings)
    random_play(game, random.Random(spec))
    out = tmp_path / "game.yaml"
    record_file = RecordFile(out, CHALLENGE, dice.sha256, spec, record_rules_name(rules), "Ann")
    record_file.write(game)
    assert [p.name for p in tmp_path.iterdir()] == ["game.yaml"], "no temporary file is left"
    result = record_file.verify()
    assert result.verdict is Verdict.VALID, result.error
    assert result.score == game.score == score(game.state, rules)
    text = out.read_text()
    assert f"claimed_score: {game.score}" in text and "player: Ann" in text
    assert result.record is not None and result.record.rules == rules.name
    # Without --rules, the record's own rules: gives the same verdict.
    assert Checker.create(CHALLENGE, None).check(out).verdict is Verdict.VALID
    rebuilt = rounds_from_replay(result.rounds)
    assert [r.step for r in rebuilt] == game.steps()


def test_text_form_is_written_on_request(tmp_path: Path) -> None:
    dice = read_dice(CHALLENGE)
    game = GameSession(dice.rows, resolve("standard"))
    random_play(game, random.Random(3))
    out = tmp_path / "g.yaml"
    RecordFile(out, CHALLENGE, dice.sha256, None, "standard", text=True).write(game)
    text = (tmp_path / "g.txt").read_text()
    assert text.startswith("# Road to 300 record, annotated dice file")
    assert Checker.create(CHALLENGE, None).check(tmp_path / "g.txt").verdict is Verdict.VALID


def test_house_rules_file_is_not_named_by_the_record(tmp_path: Path) -> None:
    house = tmp_path / "house.yaml"
    house.write_text("name: house\nbase: bga\npass_limit: 4\n")
    rules = resolve(str(house))
    assert record_rules_name(rules) is None
    assert record_rules_name(resolve("bga+escape=5")) == "bga+escape=5"


def test_rank_actions_orders_choices_by_what_they_lose() -> None:
    rows = read_dice(CHALLENGE).rows
    game = GameSession(rows, resolve("standard"))

    def evaluate(state: State, row: int) -> int:
        return score(state)  # the score after the choice alone: a stand-in for the solver

    ranked = rank_actions(game, evaluate)
    assert len(ranked) == len(game.actions())
    assert ranked[0].loss == 0 and ranked[0].best == max(r.best for r in ranked)
    assert all(r.loss == ranked[0].best - r.best for r in ranked)
    assert ranked[-1].loss > 0
    assert game.rounds == [], "ranking plays nothing"


def test_start_refuses_bad_inputs_with_a_message(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("1 2 3\n7 7 7\n")
    cases = [
        (dict(dice=tmp_path / "missing.txt"), "missing.txt"),
        (dict(dice=bad), "bad.txt:2"),
        (dict(dice=CHALLENGE, rules="nonsense"), "unknown ruleset"),
        (dict(dice=CHALLENGE, rings=2), "has no magic rings"),
        (dict(dice=CHALLENGE, rules="standard+rings=2", rings=3), "declare 1 to 2"),
        (dict(dice=CHALLENGE, output=tmp_path / "g.json"), "name it .yaml"),
    ]
    for kwargs, words in cases:
        with pytest.raises(StartError) as info:
            start_game(**kwargs)  # type: ignore[arg-type]
        assert words in info.value.message


def test_start_never_overwrites_and_resumes_a_saved_game(tmp_path: Path) -> None:
    out = tmp_path / "g.yaml"
    first = start_game(CHALLENGE, output=out, player="Bo")
    game = first.game
    for _ in range(5):
        cross = game.crosses()[0]
        game.play(game.options(cross)[0].action)
    first.record_file.write(game)
    with pytest.raises(StartError, match="exists"):
        start_game(CHALLENGE, output=out)
    again = start_game(CHALLENGE, resume=out)
    assert again.game.steps() == game.steps() and again.record_file.path == out
    assert again.record_file.player == "Bo" and "5 roll(s) replayed" in again.welcome


def test_resume_refuses_an_invalid_record_with_its_diagnostic(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("rounds:\n  - {cross: 6/6, move: 1/1}\n")
    with pytest.raises(StartError) as info:
        start_game(CHALLENGE, resume=bad)
    assert info.value.result is not None and info.value.result.error is not None
    assert info.value.result.error.code == "E202"


def test_rings_are_asked_until_declared(tmp_path: Path) -> None:
    out = tmp_path / "g.yaml"
    assert start_game(CHALLENGE, "bga+rings=2", output=out).ask_rings
    # Quit at the question: the saved record declares none yet, so resuming asks again.
    resumed = start_game(CHALLENGE, resume=out)
    assert resumed.ask_rings and resumed.game.rules.max_rings == 2
    declared = start_game(CHALLENGE, "bga+rings=2", output=tmp_path / "h.yaml", rings=1)
    assert not declared.ask_rings and declared.game.state.rings_left == 1
    assert "rings: 1" in (tmp_path / "h.yaml").read_text()
    assert not start_game(CHALLENGE, output=tmp_path / "i.yaml").ask_rings


def test_text_form_never_overwrites_the_dice_file_or_a_stranger(tmp_path: Path) -> None:
    dice = tmp_path / "challenge.txt"
    dice.write_bytes(CHALLENGE.read_bytes())
    with pytest.raises(StartError, match="the dice file"):
        start_game(dice, output=tmp_path / "challenge.yaml", text=True)
    assert dice.read_bytes() == CHALLENGE.read_bytes()
    (tmp_path / "notes.txt").write_text("my notes\n")
    with pytest.raises(StartError, match="exists"):
        start_game(CHALLENGE, output=tmp_path / "notes.yaml", text=True)
    first = start_game(CHALLENGE, output=tmp_path / "g.yaml", text=True)
    assert (tmp_path / "g.txt").exists() and first.record_file.text
    # Resuming with --text may rewrite the text form it wrote itself.
    assert start_game(CHALLENGE, resume=tmp_path / "g.yaml", text=True).record_file.text
