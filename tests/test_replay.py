"""Replay values in-process: rounds as replayed, rows played by themselves, the failure
position with what was legal there, and warnings. Expected values worked out by hand.
"""

from __future__ import annotations

from typing import Any

import pytest

from validator.check.replay import Result, Verdict, replay
from validator.engine import STANDARD, Dice, End, Field, Ruleset, parse_field
from validator.records import parse_record

# 2 1 1: cross 2/1, the 1 enters at 1/1.  1 2 5: from 1/1, 1/2 traps; 1/5 or 5/1 move 2.
TRAP: list[Dice] = [(2, 1, 1), (1, 2, 5), (3, 3, 3)]
# 6/6 crossed on roll 1, then 6 6 6 is a forced reroll.
PASSES: list[Dice] = [(6, 6, 1), (6, 6, 6), (6, 6, 6), (6, 6, 6), (1, 2, 3)]
# Roll 2 (1 2 1) only offers 1/2, which leaves the 1 no move from 1/1.
STUCK: list[Dice] = [(2, 1, 1), (1, 2, 1), (3, 3, 3)]

R1 = "  - {cross: 2/1, move: 1/1}\n"


def run(rows: list[Dice], rounds: str, header: str = "", rules: Any = STANDARD) -> Result:
    text = f"player: Test\n{header}rounds:\n{rounds}"
    return replay(rows, parse_record(text.encode(), "yaml", source="r.yaml"), rules)


def f(text: str) -> Field:
    return parse_field(text)


REPLAYS = [
    # (name, rows, rounds, verdict, score, end, end_roll, kinds, record rounds)
    ("stuck", TRAP, R1 + "  - {cross: 1/2}\n", Verdict.VALID, 30, End.NO_MOVE, 2,
     ["play", "stuck"], [1, 2]),
    ("stuck played by itself", STUCK, R1, Verdict.VALID, 30, End.NO_MOVE, 2,
     ["play", "stuck"], [1, None]),
    ("rerolls played by themselves", PASSES, "  - {cross: 6/6, move: 6/1}\n", Verdict.VALID,
     30, End.REROLLS, 4, ["play", "reroll", "reroll", "reroll"], [1, None, None, None]),
    ("skipped rerolls", PASSES, "  - {cross: 6/6, move: 6/1}\n  - {roll: 4, reroll: true}\n",
     Verdict.VALID, 30, End.REROLLS, 4, ["play", "reroll", "reroll", "reroll"], [1, None, None, 2]),
    ("incomplete", TRAP, R1, Verdict.INCOMPLETE, 30, None, None, ["play"], [1]),
    ("dice run out", TRAP[:1], R1, Verdict.VALID, 30, End.DICE_EXHAUSTED, 1, ["play"], [1]),
]  # fmt: skip


@pytest.mark.parametrize(
    ("rows", "rounds", "verdict", "score", "end", "end_roll", "kinds", "numbers"),
    [r[1:] for r in REPLAYS],
    ids=[r[0] for r in REPLAYS],
)
def test_replay(
    rows: list[Dice],
    rounds: str,
    verdict: Verdict,
    score: int,
    end: End | None,
    end_roll: int | None,
    kinds: list[str],
    numbers: list[int | None],
) -> None:
    result = run(rows, rounds)
    assert (result.verdict, result.score, result.end, result.end_roll) == (
        verdict,
        score,
        end,
        end_roll,
    )
    assert [r.kind for r in result.rounds] == kinds
    assert [r.record_round for r in result.rounds] == numbers
    assert [r.roll for r in result.rounds] == list(range(1, len(kinds) + 1))


def test_round_values() -> None:
    result = run(TRAP, R1 + "  - {cross: 5/1, move: 2/2}\n")
    first, second = result.rounds
    assert (first.walk, first.move, first.score) == ((f("1/1"),), f("1/1"), 30)
    assert first.cross is not None and (first.cross.field, first.cross.die) == (f("2/1"), 1)
    assert second.cross is not None and (second.cross.field, second.cross.die) == (f("5/1"), 2)
    assert second.walk == (f("1/2"), f("2/2"))
    assert (second.score, second.line, second.dice) == (45, 4, (1, 2, 5))
    assert second.state.mark(f("1/1")) == "XO"


def test_failure_shows_what_was_legal() -> None:
    result = run(TRAP, R1 + "  - {cross: 1/5, move: 3/3}\n")
    assert result.error is not None
    assert (result.error.code, result.error.roll, result.error.round) == ("E205", 2, 2)
    assert (result.error.line, result.score, result.end) == (4, None, None)
    # The message and hint as phrases too, for renderers in other languages.
    assert result.error.phrase is not None and result.error.hint_phrase is not None
    assert (
        str(result.error.phrase)
        == result.error.message
        == "3/3 cannot be reached in exactly 2 steps"
    )
    assert str(result.error.hint_phrase) == result.error.hint
    failure = result.failure
    assert failure is not None
    assert (failure.roll, failure.dice, failure.move) == (2, (1, 2, 5), f("3/3"))
    assert {c.field for c in failure.crosses} == {f(x) for x in ["1/2", "1/5", "2/5", "5/1", "5/2"]}
    assert failure.cross is not None and failure.cross.field == f("1/5")
    assert set(failure.reachable) == {f("1/3"), f("2/2")}
    assert failure.reachable[f("1/3")] == (f("1/2"), f("1/3"))
    assert failure.before.position == f("1/1")


def test_skipped_row_failure() -> None:
    result = run(TRAP, R1 + "  - {roll: 3, cross: 3/3, move: 1/3}\n")
    assert result.error is not None and result.failure is not None
    assert (result.error.code, result.error.roll, result.failure.roll) == ("E105", 2, 2)
    assert result.failure.crosses


def test_incomplete_warning_names_the_moves() -> None:
    result = run(TRAP, R1)
    (warning,) = result.warnings
    assert (warning.code, warning.roll) == ("W001", 2)
    # 1/2 is available but leaves no move; 2/1 is taken.
    assert warning.hint.endswith("1/5 (moves 2), 2/5 (moves 1), 5/1 (moves 2), 5/2 (moves 1)")


def test_col_row_is_transposed() -> None:
    result = run(TRAP, "  - {cross: [1, 2], move: [1, 1]}\n", header="coordinates: col-row\n")
    assert result.rounds[0].cross is not None
    assert result.rounds[0].cross.field == f("2/1")


CLAIMS = [
    # (name, header, verdict, code, line)
    ("right claim", "claimed_score: 30\n", Verdict.VALID, None, None),
    ("wrong claim", "claimed_score: 31\n", Verdict.INVALID, "E107", 2),
    ("zero claim", "claimed_score: 0\n", Verdict.INVALID, "E107", 2),
]


@pytest.mark.parametrize(
    ("header", "verdict", "code", "line"), [c[1:] for c in CLAIMS], ids=[c[0] for c in CLAIMS]
)
def test_claimed_score(header: str, verdict: Verdict, code: str | None, line: int | None) -> None:
    result = run(TRAP, R1 + "  - {cross: 1/2}\n", header=header)
    assert (result.verdict, result.score) == (verdict, 30)
    got = (result.error.code, result.error.line) if result.error else (None, None)
    assert got == (code, line)


def test_the_last_row_ends_the_game_in_that_rounds_own_state() -> None:
    from validator.check.replay import replay
    from validator.engine import STANDARD, End, Field
    from validator.records.record import Record, RecordRound

    record = Record(rounds=(RecordRound(1, 1, cross=Field(2, 1), move=Field(1, 1)),))
    result = replay([(2, 1, 1)], record, STANDARD)
    assert result.end is End.DICE_EXHAUSTED and result.end_roll == 1
    assert result.rounds[-1].state.end is End.DICE_EXHAUSTED


def test_a_path_on_a_round_without_a_move_is_an_illegal_walk() -> None:
    # Roll 2 crosses out 1/2: the 1 has no walk from 1/1, so no path can be legal.
    result = run(TRAP, R1 + "  - {cross: 1/2, path: [[2, 1]]}\n")
    assert result.verdict is Verdict.INVALID
    assert result.error is not None and result.error.code == "E206"
    assert result.error.roll == 2 and result.error.round == 2
    assert result.failure is not None and result.failure.part == "path"


def test_with_a_ring_left_a_stuck_row_does_not_end_the_game_by_itself() -> None:
    rings = Ruleset(name="standard+rings=1", max_rings=1)
    # Without rings the replay plays the stuck row 2 by itself: the game is over.
    assert run(STUCK, R1).verdict is Verdict.VALID
    with_ring = run(STUCK, R1, header="rings: 1\n", rules=rings)
    assert with_ring.verdict is Verdict.INCOMPLETE
    assert with_ring.warnings and with_ring.warnings[-1].hint == "1 magic ring is left to spend"
    # Shown as a round (cross-out, no move), the game ends there.
    ended = run(STUCK, R1 + "  - {cross: 1/2}\n", header="rings: 1\n", rules=rings)
    assert ended.verdict is Verdict.VALID and ended.end is End.NO_MOVE
    # Or the ring is spent and the game goes on with roll 3.
    spent = run(STUCK, R1 + "  - {ring: true}\n", header="rings: 1\n", rules=rings)
    assert [r.kind for r in spent.rounds][:2] == ["play", "ring"]


def test_dice_of_a_later_row_name_the_forced_reroll_the_record_left_out() -> None:
    result = run(
        PASSES,
        "  - {cross: 6/6, move: 6/1}\n  - {dice: [6, 6, 6], reroll: true}\n"
        "  - {dice: [6, 6, 6], reroll: true}\n  - {dice: [1, 2, 3], cross: 1/2, move: 5/1}\n",
    )
    assert result.error is not None and result.error.code == "E101"
    assert result.error.hint.startswith("1 2 3 is roll 5: roll 4 (6 6 6) was a forced reroll")


@pytest.mark.parametrize("spec", ["standard+escape=20", "standard+in-and-out"])
def test_a_row_only_an_exit_can_play_keeps_the_game_going(spec: str) -> None:
    """Roll 2 (1 2 1) offers only 1/2, whose 1 has no walk from 1/1; but the burglar stands
    on the corner 1/1 and may leave there. The replay must not play the row as stuck (the
    engine refuses that round, E207): the record is incomplete, and the replay ends."""
    from validator.rulesets import resolve

    result = run(STUCK, R1, rules=resolve(spec))
    assert (result.verdict, result.score, result.end) == (Verdict.INCOMPLETE, 30, None)
    assert [r.kind for r in result.rounds] == ["play"]
    (warning,) = result.warnings
    assert (warning.code, warning.roll) == ("W001", 2)
    assert warning.message == (
        "the record ends, but the game goes on: roll 2 (1 2 1) can still be played"
    )
    assert warning.hint == "cross-outs that leave a move: 1/2 (moves 1)"


def test_a_round_naming_the_row_just_past_the_file_is_e104() -> None:
    # Two rows, the second a forced reroll that may be skipped: roll 3 is the first row
    # the file does not have.
    rows: list[Dice] = [(6, 6, 1), (6, 6, 6)]
    result = run(rows, "  - {cross: 6/6, move: 6/1}\n  - {cross: 1/2, roll: 3, move: 5/1}\n")
    assert result.error is not None
    assert (result.error.code, result.error.roll, result.error.round) == ("E104", 3, 2)
    # The column is the `roll` key's, not the round's.
    assert (result.error.line, result.error.col) == (4, 18)
    assert result.error.message == "round 2 names roll 3, but the dice file has 2 rolls"
    assert result.error.excerpt == "  - {cross: 1/2, roll: 3, move: 5/1}"


def test_a_round_after_the_end_keeps_the_position_it_came_to() -> None:
    result = run(TRAP, R1 + "  - {cross: 1/2}\n  - {cross: 3/3, move: 3/4}\n")
    assert result.error is not None and result.failure is not None
    assert (result.error.code, result.error.roll, result.error.round) == ("E106", 3, 3)
    assert result.error.message == (
        "round 3 is recorded after the game ended (no legal move on roll 2)"
    )
    failure = result.failure
    assert (failure.roll, failure.dice, failure.part) == (3, (3, 3, 3), "round")
    assert failure.before == result.rounds[-1].state and failure.before.end is End.NO_MOVE
    assert (failure.attempted_cross, failure.move) == (f("3/3"), f("3/4"))


DICE_HINTS = [
    # (name, rows, the record's second round, hint)
    ("another row", TRAP, "  - {dice: [4, 4, 4], cross: 1/5, move: 1/3}\n", "roll 2 is 1 2 5"),
    # Only the three rows after it are searched: not row 1, not row 6.
    ("an earlier row", TRAP, "  - {dice: [2, 1, 1], cross: 1/5, move: 1/3}\n", "roll 2 is 1 2 5"),
    ("a row too far", [*TRAP, (4, 4, 4), (5, 5, 5), (6, 6, 2)],
     "  - {dice: [6, 6, 2], cross: 1/5, move: 1/3}\n", "roll 2 is 1 2 5"),
    ("a row left out", TRAP, "  - {dice: [3, 3, 3], cross: 3/3, move: 1/3}\n",
     "3 3 3 is roll 3, not roll 2 (1 2 5): was a row left out?"),
    ("a reroll left out", PASSES[:1] + PASSES[3:], "  - {dice: [1, 2, 3], cross: 1/2, move: 5/1}\n",
     "1 2 3 is roll 3: roll 2 (6 6 6) was a forced reroll; keep its line, or name the roll 3 "
     "in this round"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("rows", "second", "hint"), [d[1:] for d in DICE_HINTS], ids=[d[0] for d in DICE_HINTS]
)
def test_the_dice_hint_says_where_the_records_dice_are(
    rows: list[Dice], second: str, hint: str
) -> None:
    first = "  - {cross: 6/6, move: 6/1}\n" if rows[0] == (6, 6, 1) else R1
    result = run(rows, first + second)
    assert result.error is not None
    assert (result.error.code, result.error.roll, result.error.line) == ("E101", 2, 4)
    assert result.error.hint == hint


def test_too_many_rings_for_the_ruleset() -> None:
    rings = Ruleset(name="standard+rings=1", max_rings=1)
    result = run(STUCK, R1, header="rings: 2\n", rules=rings)
    assert result.error is not None
    assert (result.error.code, result.error.line, result.error.col) == ("E109", 2, 1)
    assert result.error.message == "the record declares 2 magic rings; the ruleset allows at most 1"
    assert result.rounds == ()


_CLAIM_80 = '{"player": "' + "P" * 45 + '", "claimed_score": 31,'
"""A first line of 80 characters."""


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        ('{\n  "player": "P31",\n  "claimed_score": 31,\n', '"claimed_score": 30,'),
        ('{"player": "P31", "claimed_score": 31, ', "claimed_score: 30"),
        # The claimed number elsewhere on the line first: the claim's own is changed.
        (
            '{"player": "31 Club", "claimed_score": 31,\n',
            '{"player": "31 Club", "claimed_score": 30,',
        ),
        (_CLAIM_80 + "\n", _CLAIM_80.replace("31,", "30,")),
        (_CLAIM_80.replace("P", "PP", 1) + "\n", "claimed_score: 30"),
    ],
    ids=["its own line", "a long line", "the number twice", "80 characters", "81 characters"],
)
def test_the_claimed_score_hint_is_the_records_line_with_the_score(text: str, hint: str) -> None:
    """The record's own line with the replayed score; a line of minified JSON (the whole
    record, over 80 characters) gives way to `claimed_score: N`."""
    assert len(_CLAIM_80) == 80
    rounds = '"rounds": [{"cross": [2, 1], "move": [1, 1]}, {"cross": [1, 2]}]}\n'
    record = parse_record((text + rounds).encode(), "json", source="r.json")
    result = replay(TRAP, record, STANDARD)
    assert result.error is not None and result.error.code == "E107"
    assert result.error.message == "the record claims 31 points, but the replay scores 30"
    assert result.error.hint == hint


def test_the_incomplete_warning_counts_the_rings_left() -> None:
    rings = Ruleset(name="standard+rings=2", max_rings=2)
    result = run(TRAP, R1, header="rings: 2\n", rules=rings)
    (warning,) = result.warnings
    assert (warning.code, warning.file, warning.roll, warning.line) == ("W001", "r.yaml", 2, None)
    assert warning.message == (
        "the record ends, but the game goes on: roll 2 (1 2 5) can still be played"
    )
    assert warning.hint == (
        "cross-outs that leave a move: 1/5 (moves 2), 2/5 (moves 1), 5/1 (moves 2), "
        "5/2 (moves 1); 2 magic rings are left to spend"
    )
    assert str(warning.phrase) == warning.message and str(warning.hint_phrase) == warning.hint


def test_a_malformed_result_keeps_what_it_is_given() -> None:
    from validator.check.replay import malformed
    from validator.errors import Diagnostic
    from validator.records.record import Record

    first = Diagnostic.said("E003", "unknown key", "r.yaml", 2, 1)
    second = Diagnostic.said("E005", "bad value", "r.yaml", 3, 4)
    alone = malformed(first, STANDARD)
    assert alone.rules is STANDARD
    assert (alone.source, alone.verdict, alone.error, alone.errors) == (
        "r.yaml",
        Verdict.MALFORMED,
        first,
        (first,),
    )
    assert (alone.reading_errors, alone.errors_omitted, alone.language, alone.record) == (
        (),
        0,
        None,
        None,
    )
    many = malformed(first, STANDARD, "s.yaml", more=(second,), omitted=7, language="de")
    assert (many.source, many.errors, many.errors_omitted) == ("s.yaml", (first, second), 7)
    assert (many.read_language, many.language) == ("de", "de")
    record = Record(rounds=(), player="P", language="fr")
    read = malformed(first, STANDARD, record=record)
    assert (read.record, read.language) == (record, "fr")
    nowhere = malformed(Diagnostic.said("E001", "unreadable"), STANDARD)
    assert nowhere.source == "<record>"


def test_each_failure_keeps_the_position_and_what_the_record_did() -> None:
    from validator.rulesets import resolve

    # Under Escape!, the corner the 2 could leave through (1/1, standing on it).
    escape = run(TRAP, R1 + "  - {cross: 1/5, move: 3/3}\n", rules=resolve("standard+escape=20"))
    assert escape.failure is not None and escape.failure.exits == {f("1/1"): ()}
    # A cross-out that was not available: nothing reached, the record's cross kept.
    taken = run(TRAP, R1 + "  - {cross: 2/1, move: 1/3}\n")
    assert taken.failure is not None and taken.error is not None
    assert (taken.error.code, taken.failure.part, taken.failure.cross) == ("E203", "cross", None)
    assert (taken.failure.reachable, taken.failure.exits) == ({}, {})
    assert (taken.failure.attempted_cross, taken.failure.move) == (f("2/1"), f("1/3"))
    # A reroll that was not forced: no cross-out attempted.
    reroll = run(TRAP, R1 + "  - {reroll: true}\n")
    assert reroll.failure is not None and reroll.error is not None
    assert (reroll.error.code, reroll.failure.part) == ("E201", "reroll")
    assert (reroll.failure.attempted_cross, reroll.failure.move, reroll.failure.path) == (
        None,
        None,
        None,
    )
    # The record's own dice, beside the row's.
    dice = run(TRAP, R1 + "  - {dice: [4, 4, 4], cross: 1/5, move: 1/3}\n")
    assert dice.failure is not None
    assert (dice.failure.dice, dice.failure.record_dice) == ((1, 2, 5), (4, 4, 4))
    # After the dice ran out there is no row: no dice, no cross-outs.
    after = run(TRAP[:1], R1 + "  - {cross: 1/5, move: 1/3}\n")
    assert after.failure is not None and after.error is not None
    assert (after.error.code, after.error.roll, after.failure.roll) == ("E106", 2, 2)
    assert (after.failure.dice, after.failure.crosses) == (None, ())


def test_the_third_skipped_reroll_ends_the_game_before_the_named_round() -> None:
    result = run(PASSES, "  - {cross: 6/6, move: 6/1}\n  - {roll: 5, cross: 1/2, move: 5/1}\n")
    assert result.error is not None and result.failure is not None
    assert (result.error.code, result.error.roll, result.error.round) == ("E106", 5, 2)
    assert result.error.message == (
        "round 2 is recorded after the game ended (forced rerolls on roll 4)"
    )
    assert (result.error.line, result.error.col) == (4, 5)
    assert [r.kind for r in result.rounds] == ["play", "reroll", "reroll", "reroll"]
    assert (result.failure.roll, result.failure.before.end) == (5, End.REROLLS)


def test_a_skipped_row_of_a_text_record_is_located_at_its_own_line() -> None:
    text = "player: Test\n1: 2 1 1   x 2/1 -> 1/1\n2: 1 2 5\n3: 3 3 3   x 3/3 -> 1/3\n"
    record = parse_record(text.encode(), "text", source="r.txt")
    result = replay(TRAP, record, STANDARD)
    assert result.error is not None
    assert (result.error.code, result.error.roll, result.error.round) == ("E105", 2, 2)
    assert (result.error.line, result.error.excerpt) == (3, "2: 1 2 5")


@pytest.mark.parametrize(
    ("second", "code", "col"),
    [
        ("{cross: 1/5, roll: 1, move: 1/3}", "E103", 18),
        ("{cross: 1/5, roll: 3, move: 1/3}", "E105", 18),
        ("{cross: 1/5, move: 1/3, steps: 3}", "E102", 29),
        ("{cross: 1/5, move: 1/3, dice: [1, 2, 6]}", "E101", 29),
    ],
)
def test_the_column_is_the_key_at_fault_wherever_it_stands(
    second: str, code: str, col: int
) -> None:
    result = run(TRAP, R1 + f"  - {second}\n")
    assert result.error is not None
    assert (result.error.code, result.error.line, result.error.col) == (code, 4, col)


def test_the_claimed_score_hint_of_a_record_without_text() -> None:
    from validator.records.record import Record, RecordRound

    rounds = (
        RecordRound(1, 1, cross=Field(2, 1), move=Field(1, 1)),
        RecordRound(2, 2, cross=Field(1, 2)),
    )
    result = replay(TRAP, Record(rounds=rounds, claimed_score=31), STANDARD)
    assert result.error is not None and result.error.code == "E107"
    assert (result.error.hint, result.error.line) == ("claimed_score: 30", None)


def test_the_result_keeps_the_final_state_and_the_dice_files_checksum() -> None:
    record = parse_record(f"player: Test\nrounds:\n{R1}".encode(), "yaml", source="r.yaml")
    result = replay(TRAP, record, STANDARD, dice_sha256="ab" * 32)
    assert result.final is not None and result.final == result.rounds[-1].state
    assert result.final.position == f("1/1")
    assert result.dice_sha256 == "ab" * 32
