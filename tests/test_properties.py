"""Property tests: random legal games from the engine are valid in every record format,
and a single mutation of one is reported at the dice row it breaks.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

import pytest
from hypothesis import strategies as st
from tiers import given_tiered

from validator.check.replay import Result, Verdict, replay
from validator.engine import (
    BGA,
    LITERAL,
    STANDARD,
    Dice,
    End,
    Field,
    Play,
    Reroll,
    Ruleset,
    State,
    available_crosses,
    blocked_after,
    new_game,
    score,
    walks,
)
from validator.records import dump_record, parse_record
from validator.records.record import Record, RecordRound
from validator.solver.playout import Step, random_game, to_record

FORMATS = ("yaml", "json", "text", "csv")
"""Every record format, named here rather than read from the registry: a format whose
reader is lost fails these tests instead of leaving them."""
# Formats that cannot hold a record without each round's roll and dice.
NEEDS_DETAILS = {"text"}
EXTENSION = {"yaml": "yaml", "json": "json", "text": "txt", "csv": "csv"}


@st.composite
def dice_rows(draw: st.DrawFn) -> list[Dice]:
    """Rows of three dice; some from a few faces only, so that forced rerolls come up."""
    faces = draw(st.one_of(st.just([1, 2, 3, 4, 5, 6]), st.lists(st.integers(1, 6), min_size=1)))
    die = st.sampled_from(faces)
    rows: list[Dice] = draw(st.lists(st.tuples(die, die, die), min_size=1, max_size=45))
    return rows


rulesets = st.sampled_from([STANDARD, BGA, LITERAL])
seeds = st.integers(0, 2**32 - 1)


def _game(rows: Sequence[Dice], rules: Ruleset, seed: int) -> list[Step]:
    return random_game(rows, rules, random.Random(seed))


def _final(steps: Sequence[Step]) -> State:
    return steps[-1].state


def _round_trip(record: Record, fmt: str) -> Record:
    text = dump_record(record, fmt)
    return parse_record(text.encode("utf-8"), fmt, source=f"game.{EXTENSION[fmt]}")


def _valid(result: Result, steps: Sequence[Step], rules: Ruleset) -> None:
    final = _final(steps)
    assert result.error is None, result.error
    assert result.verdict is Verdict.VALID
    assert result.score == score(final, rules)
    # A game the rows ran out on before it ended is over by the dice file.
    assert result.end is (final.end or End.DICE_EXHAUSTED)
    assert result.end_roll == steps[-1].roll


@pytest.mark.parametrize("fmt", FORMATS)
@given_tiered(
    plain=8, thorough=60, rows=dice_rows(), seed=seeds, rules=rulesets, details=st.booleans()
)
def test_random_games_are_valid(
    fmt: str, rows: list[Dice], seed: int, rules: Ruleset, details: bool
) -> None:
    steps = _game(rows, rules, seed)
    record = to_record(steps, with_details=details or fmt in NEEDS_DETAILS)
    _valid(replay(rows, _round_trip(record, fmt), rules), steps, rules)


# --- mutations ------------------------------------------------------------------------

ALL_FIELDS = [Field(r, c) for r in range(1, 7) for c in range(1, 7)]


def _before(steps: Sequence[Step], i: int) -> State:
    return steps[i - 1].state if i else new_game()


Mutation = tuple[RecordRound, set[str]]
"""The mutated round and the error codes it may give."""


def _mutate_cross(steps: Sequence[Step], entry: RecordRound, i: int, pick: int) -> Mutation:
    """Round i crosses out a field that is not available."""
    available = {c.field for c in available_crosses(_before(steps, i), steps[i].dice)}
    options = [f for f in ALL_FIELDS if f not in available]
    new = replace(entry, cross=options[pick % len(options)])
    if entry.reroll:
        # A forced reroll row has no available field, so any cross-out is illegal.
        return replace(new, reroll=False, move=Field(1, 1)), {"E204"}
    # A field that is a pair of the dice but taken may leave another die than `steps`.
    return new, {"E202", "E203", "E102"}


def _mutate_move(steps: Sequence[Step], entry: RecordRound, i: int, pick: int) -> Mutation:
    """Round i moves to a field its movement die cannot reach."""
    step, before = steps[i], _before(steps, i)
    assert isinstance(step.action, Play) and step.die is not None
    blocked = blocked_after(before, step.action.cross)
    reachable = {Field.at(x) for x in walks(blocked, before.pos, step.die)}
    options = [f for f in ALL_FIELDS if f not in reachable]
    # With a recorded path, the path now ends elsewhere than the move.
    codes = {"E206"} if entry.path is not None else {"E205"}
    return replace(entry, move=options[pick % len(options)]), codes


def _mutate_dice(steps: Sequence[Step], entry: RecordRound, i: int, pick: int) -> Mutation:
    """Round i gives other dice than its row (not just another order)."""
    rolls = [(a, b, c) for a in range(1, 7) for b in range(a, 7) for c in range(b, 7)]
    other = [d for d in rolls if sorted(d) != sorted(steps[i].dice)]
    return replace(entry, dice=other[pick % len(other)]), {"E101"}


def _mutate_steps(steps: Sequence[Step], entry: RecordRound, i: int, pick: int) -> Mutation:
    """Round i gives another movement die than its cross-out leaves."""
    wrong = [d for d in range(1, 7) if d != steps[i].die]
    return replace(entry, steps=wrong[pick % len(wrong)]), {"E102"}


MUTATIONS = {
    # name: (mutation, whether it applies only to rounds that cross out)
    "cross": (_mutate_cross, False),
    "move": (_mutate_move, True),
    "dice": (_mutate_dice, False),
    "steps": (_mutate_steps, True),
}


@given_tiered(
    plain=15,
    thorough=60,
    rows=dice_rows(),
    seed=seeds,
    rules=rulesets,
    details=st.booleans(),
    which=st.integers(0, 10_000),
    pick=st.integers(0, 10_000),
    kind=st.sampled_from(sorted(MUTATIONS)),
    fmt=st.sampled_from(["yaml", "json"]),
)
def test_mutation_is_reported_at_its_row(
    rows: list[Dice],
    seed: int,
    rules: Ruleset,
    details: bool,
    which: int,
    pick: int,
    kind: str,
    fmt: str,
) -> None:
    steps = _game(rows, rules, seed)
    record = to_record(steps, with_details=details)
    mutate, plays_only = MUTATIONS[kind]
    rounds = [i for i, s in enumerate(steps) if isinstance(s.action, Play) or not plays_only]
    if not rounds:
        return
    i = rounds[which % len(rounds)]
    entry, codes = mutate(steps, record.rounds[i], i, pick)
    mutated = replace(record, rounds=(*record.rounds[:i], entry, *record.rounds[i + 1 :]))
    result = replay(rows, _round_trip(mutated, fmt), rules)
    assert result.verdict is Verdict.INVALID
    assert result.error is not None
    assert result.error.code in codes, result.error
    # Rounds before i are untouched, so nothing earlier can fail.
    assert (result.error.roll, result.error.round) == (steps[i].roll, i + 1)
    assert result.score is None


@given_tiered(
    plain=10,
    thorough=60,
    rows=dice_rows(),
    seed=seeds,
    rules=rulesets,
    details=st.booleans(),
    which=st.integers(0, 999),
)
def test_dropped_round(
    rows: list[Dice], seed: int, rules: Ruleset, details: bool, which: int
) -> None:
    steps = _game(rows, rules, seed)
    if len(steps) < 2:
        return
    i = which % (len(steps) - 1)  # never the last round: the record may then just be shorter
    record = to_record(steps, with_details=details)
    rounds = record.rounds[:i] + record.rounds[i + 1 :]
    mutated = replace(record, rounds=tuple(replace(r, number=n) for n, r in enumerate(rounds, 1)))
    result = replay(rows, _round_trip(mutated, "yaml"), rules)
    forced = isinstance(steps[i].action, Reroll)
    if details and forced:
        # Skipping a forced reroll row is allowed: the same game, the same score.
        _valid(result, steps, rules)
    elif details:
        # The next round names its row, so the dropped row is skipped: not a forced reroll.
        assert result.error is not None and result.error.code == "E105", result.error
        assert (result.error.roll, result.error.round) == (steps[i].roll, i + 1)
    elif result.verdict is Verdict.INVALID:
        # Later rounds slide one row earlier: rows before the dropped one are untouched.
        assert result.error is not None and result.error.roll is not None
        assert result.error.roll >= steps[i].roll
