"""Rulesets and expansions: for every switch, one record whose verdict or score changes with it.

Each case is a short game on fixed dice rows, replayed under several rulesets through
`replay` and through `road300 validate --format json`; then property tests play random
legal games under every ruleset and expansion and check that they replay as valid.
"""

from __future__ import annotations

import dataclasses
import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import strategies as st
from tiers import given_tiered

from validator.check.replay import Result, replay
from validator.cli import main
from validator.engine import (
    BGA,
    LITERAL,
    STANDARD,
    Action,
    End,
    Field,
    Play,
    Reroll,
    Ruleset,
    State,
    apply,
    exhaust,
    new_game,
    score,
)
from validator.records import dump_record, parse_record
from validator.render.json_out import result_dict
from validator.rulesets import parse_rules, resolve
from validator.solver.playout import random_game, to_record

Dice = tuple[int, int, int]

# --- the games ------------------------------------------------------------------------

# Three forced rerolls, the first two in a row: (1,1,1) is a forced reroll once 1/1 has its X.
PASSES_ROWS: list[Dice] = [(1, 1, 1), (1, 1, 1), (1, 1, 1), (2, 2, 1), (1, 1, 1), (3, 3, 1)]
PASSES = """\
rounds:
  - {cross: 1/1, move: 6/6}
  - {reroll: true}
  - {reroll: true}
  - {cross: 2/2, move: 6/5}
  - {reroll: true}
  - {cross: 3/3, move: 6/4}
"""
PASSES_TO_5 = PASSES.rsplit("  - ", 1)[0]

# Stuck on the corner 6/1 in roll 3: 6/2 got its X in step 3, 5/1 is crossed out.
STUCK_ROWS: list[Dice] = [(4, 2, 4), (1, 2, 1), (3, 1, 5)]
STUCK = """\
claimed_score: 55
rounds:
  - {cross: 4/4, move: 6/2, path: [6/1, 6/2]}
  - {cross: 2/1, move: 6/1}
  - {cross: 5/1}
"""
# The same game when the dice file ends after roll 2: the last circle (6/1) has no X.
SHORT_ROWS = STUCK_ROWS[:2]
SHORT = STUCK.rsplit("  - ", 1)[0]
# Standing on the corner 6/1 in roll 3, the burglar leaves with k = 0 steps.
ESCAPE_ON_CORNER = """\
rounds:
  - {cross: 4/4, move: 6/2, path: [6/1, 6/2]}
  - {cross: 2/1, move: 6/1}
  - {cross: 5/1, move: escape}
"""
LEAVE_ON_CORNER = ESCAPE_ON_CORNER.replace("escape", "leave")

# Enter at 6/6 and walk to 6/5; in roll 2 leave through 6/6 after 1 of 3 steps.
EXIT_ROWS: list[Dice] = [(1, 1, 2), (2, 2, 3), (3, 3, 2)]
ESCAPE = """\
rounds:
  - {cross: 1/1, move: 6/5, path: [6/6, 6/5]}
  - {cross: 2/2, move: escape, steps: 3, path: [6/6]}
"""
ESCAPE_LONG = ESCAPE.replace("path: [6/6]}", "path: [5/5, 5/6, 6/6]}")
ESCAPE_TOO_FAR = ESCAPE.replace("path: [6/6]}", "path: [5/5, 4/5, 4/6, 5/6, 6/6]}")
ESCAPE_NOT_CORNER = ESCAPE.replace("path: [6/6]}", "path: [6/6, 5/6]}")
ESCAPE_THEN_PLAY = ESCAPE + "  - {cross: 3/3, move: 5/6}\n"
# In and Out!: leave through 6/6, then re-enter through the same corner (it stayed free).
IN_AND_OUT = """\
rounds:
  - {cross: 1/1, move: 6/5, path: [6/6, 6/5]}
  - {cross: 2/2, move: leave, path: [6/6]}
  - {cross: 3/3, move: 5/6, path: [6/6, 5/6]}
"""
REENTER_NOT_CORNER = IN_AND_OUT.replace("path: [6/6, 5/6]", "path: [6/5, 5/6]")

# The magic rings!: roll 2 could be played (2/2 is free) but is rerolled with a ring.
RING_ROWS: list[Dice] = [(1, 1, 1), (2, 2, 1), (2, 2, 1)]
RING = """\
rings: 1
rounds:
  - {cross: 1/1, move: 6/6}
  - {ring: true}
  - {cross: 2/2, move: 6/5}
"""
RING_TWO_DECLARED = RING.replace("rings: 1", "rings: 2")
RING_NONE_LEFT = RING.replace("  - {cross: 2/2, move: 6/5}", "  - {ring: true}")
RING_ON_REROLL = """\
rings: 1
rounds:
  - {cross: 1/1, move: 6/6}
  - {ring: true}
"""
RING_ON_REROLL_ROWS: list[Dice] = [(1, 1, 1), (1, 1, 1), (2, 2, 1)]
# A ring on the roll that would end the game (no move with 3/1/5), then play on.
RING_AVOIDS_END_ROWS: list[Dice] = [*STUCK_ROWS, (2, 2, 2)]
RING_AVOIDS_END = """\
rings: 3
rounds:
  - {cross: 4/4, move: 6/2, path: [6/1, 6/2]}
  - {cross: 2/1, move: 6/1}
  - {ring: true}
  - {cross: 2/2, move: 4/1, path: [5/1, 4/1]}
"""
# Two passes, a ring, a pass: not three in a row, but three in total.
RING_RESET_ROWS: list[Dice] = [(1, 1, 1), (1, 1, 1), (1, 1, 1), (2, 2, 1), (1, 1, 1), (2, 2, 1)]
RING_RESET = """\
rings: 1
rounds:
  - {cross: 1/1, move: 6/6}
  - {reroll: true}
  - {reroll: true}
  - {ring: true}
  - {reroll: true}
  - {cross: 2/2, move: 6/5}
"""

PASS_LIMIT_2 = "base: standard\npass_limit: 2\n"
TOTAL_4 = "base: bga\npass_limit: 4\n"
HOUSE = (
    "base: literal\npass_counting: total\nexpansions:\n  escape: {bonus: 40}\n  in_and_out: true\n"
)


@dataclass(frozen=True)
class Expect:
    rules: str
    """A ruleset spec, or `file:NAME` for one of the RULES_FILES."""
    verdict: str
    score: int | None
    end: str | None = None
    code: str | None = None
    roll: int | None = None


TIGHT = (
    "base: literal\npass_counting: total\npass_limit: 2\nexpansions:\n"
    "  escape: {bonus: 5}\n  rings: {max: 1}\n  in_and_out: true\n"
)
RULES_FILES = {"limit2": PASS_LIMIT_2, "total4": TOTAL_4, "house": HOUSE, "tight": TIGHT}


@dataclass(frozen=True)
class Case:
    id: str
    rows: list[Dice]
    record: str
    expect: tuple[Expect, ...]


CASES = [
    # pass_counting: three passes, not in a row.
    Case("passes-after-third", PASSES_ROWS, PASSES, (
        Expect("standard", "valid", 75, "dice-exhausted"),
        Expect("bga", "invalid", None, code="E106", roll=6),
        Expect("file:total4", "valid", 75, "dice-exhausted"),
    )),
    Case("passes-end-at-third", PASSES_ROWS, PASSES_TO_5, (
        Expect("standard", "incomplete", 55),
        Expect("bga", "valid", 55, "rerolls"),
        Expect("file:total4", "incomplete", 55),
    )),
    # pass_limit: two passes in a row end the game with pass_limit 2.
    Case("pass-limit", PASSES_ROWS, PASSES, (
        Expect("standard", "valid", 75, "dice-exhausted"),
        Expect("file:limit2", "invalid", None, code="E106", roll=4),
    )),
    # scoring: the last circle has its X only when the game ended by a move that could not be made.
    Case("literal-stuck", STUCK_ROWS, STUCK, (
        Expect("standard", "valid", 55, "no-move"),
        Expect("literal", "valid", 55, "no-move"),
    )),
    Case("literal-exhausted", SHORT_ROWS, SHORT, (
        Expect("standard", "valid", 55, "dice-exhausted"),
        Expect("literal", "invalid", 25, "dice-exhausted", code="E107"),
        Expect("file:house", "invalid", 25, "dice-exhausted", code="E107"),
    )),
    Case("literal-rerolls", PASSES_ROWS, PASSES_TO_5, (
        Expect("bga", "valid", 55, "rerolls"),
        Expect("bga+escape=1", "valid", 55, "rerolls"),
        Expect("file:house", "valid", 30, "rerolls"),
    )),
    # Escape!: leaving is a move only with the expansion; the bonus is the ruleset's.
    Case("escape", EXIT_ROWS, ESCAPE, (
        Expect("standard", "invalid", None, code="E208", roll=2),
        Expect("standard+in-and-out", "invalid", None, code="E208", roll=2),
        Expect("standard+escape=20", "valid", 45, "escaped"),
        Expect("standard+escape=0", "valid", 25, "escaped"),
        Expect("literal+escape=50", "valid", 75, "escaped"),
        Expect("file:house", "valid", 65, "escaped"),
    )),
    Case("escape-long-walk", EXIT_ROWS, ESCAPE_LONG, (
        Expect("standard+escape=20", "valid", 45, "escaped"),
    )),
    Case("escape-more-steps-than-die", EXIT_ROWS, ESCAPE_TOO_FAR, (
        Expect("standard+escape=20", "invalid", None, code="E206", roll=2),
    )),
    Case("escape-not-at-corner", EXIT_ROWS, ESCAPE_NOT_CORNER, (
        Expect("standard+escape=20", "invalid", None, code="E206", roll=2),
    )),
    Case("escape-ends-the-game", EXIT_ROWS, ESCAPE_THEN_PLAY, (
        Expect("standard+escape=20", "invalid", None, code="E106", roll=3),
    )),
    Case("escape-on-corner", STUCK_ROWS, ESCAPE_ON_CORNER, (
        Expect("standard", "invalid", None, code="E208", roll=3),
        Expect("standard+escape=10", "valid", 65, "escaped"),
        Expect("literal+escape=10", "valid", 65, "escaped"),
    )),
    # With Escape! in play, leaving is a legal move, so "no move" is no longer true.
    Case("stuck-but-could-escape", STUCK_ROWS, STUCK, (
        Expect("standard", "valid", 55, "no-move"),
        Expect("standard+escape=10", "invalid", None, code="E207", roll=3),
        Expect("standard+in-and-out", "invalid", None, code="E207", roll=3),
    )),
    # In and Out!: leave, then re-enter through a free corner as in the first move.
    Case("in-and-out", EXIT_ROWS, IN_AND_OUT, (
        Expect("standard", "invalid", None, code="E208", roll=2),
        Expect("standard+escape=20", "invalid", None, code="E208", roll=2),
        Expect("standard+in-and-out", "valid", 50, "dice-exhausted"),
        Expect("literal+in-and-out", "valid", 25, "dice-exhausted"),
        Expect("file:house", "valid", 25, "dice-exhausted"),
    )),
    Case("in-and-out-reenter-not-at-corner", EXIT_ROWS, REENTER_NOT_CORNER, (
        Expect("standard+in-and-out", "invalid", None, code="E206", roll=3),
    )),
    Case("leave-on-corner", STUCK_ROWS, LEAVE_ON_CORNER, (
        Expect("standard+in-and-out", "valid", 55, "dice-exhausted"),
        Expect("standard+escape=5", "invalid", None, code="E208", roll=3),
    )),
    # The magic rings!
    Case("ring", RING_ROWS, RING, (
        Expect("standard", "invalid", None, code="E109"),
        Expect("standard+rings=1", "valid", 55, "dice-exhausted"),
        Expect("bga+rings", "valid", 55, "dice-exhausted"),
    )),
    Case("ring-too-many-declared", RING_ROWS, RING_TWO_DECLARED, (
        Expect("standard+rings=1", "invalid", None, code="E109"),
        Expect("standard+rings=2", "valid", 55, "dice-exhausted"),
    )),
    Case("ring-none-left", RING_ROWS, RING_NONE_LEFT, (
        Expect("standard+rings=3", "invalid", None, code="E212", roll=3),
    )),
    Case("ring-on-forced-reroll", RING_ON_REROLL_ROWS, RING_ON_REROLL, (
        Expect("standard+rings", "invalid", None, code="E213", roll=2),
    )),
    Case("ring-avoids-the-end", RING_AVOIDS_END_ROWS, RING_AVOIDS_END, (
        Expect("standard", "invalid", None, code="E109"),
        Expect("standard+rings=2", "invalid", None, code="E109"),
        Expect("literal+rings=3", "valid", 55, "dice-exhausted"),
        Expect("standard+rings=3", "valid", 75, "dice-exhausted"),
    )),
    Case("ring-resets-passes-in-a-row", RING_RESET_ROWS, RING_RESET, (
        Expect("standard+rings=1", "valid", 55, "dice-exhausted"),
        Expect("bga+rings=1", "invalid", None, code="E106", roll=6),
    )),
]  # fmt: skip


def _ruleset(spec: str) -> Ruleset:
    if spec.startswith("file:"):
        name = spec.removeprefix("file:")
        return parse_rules(RULES_FILES[name], f"{name}.yaml")
    return resolve(spec)


def _replay(rows: list[Dice], text: str, rules: Ruleset) -> Result:
    return replay(rows, parse_record(text.encode(), "yaml", source="record.yaml"), rules)


def _fields(payload: dict[str, Any]) -> tuple[object, ...]:
    error = payload["error"]
    return (
        payload["verdict"],
        payload["score"],
        payload["end"],
        error and error["code"],
        error and error["roll"],
    )


def _expected(e: Expect) -> tuple[object, ...]:
    return (e.verdict, e.score, e.end, e.code, e.roll)


def _check_end(e: Expect) -> bool:
    # An invalid record stopped at an illegal step has no end to compare.
    return e.end is not None or e.verdict != "invalid"


PARAMS = [pytest.param(c, e, id=f"{c.id}[{e.rules}]") for c in CASES for e in c.expect]


@pytest.mark.parametrize(("case", "expect"), PARAMS)
def test_replay(case: Case, expect: Expect) -> None:
    result = _replay(case.rows, case.record, _ruleset(expect.rules))
    got = _fields(result_dict(result))
    if not _check_end(expect):
        got = (*got[:2], None, *got[3:])
    assert got == _expected(expect)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_cli(case: Case, tmp_path: Path) -> None:
    """The same verdicts through `road300 validate REC --dice D --rules X --format json`."""
    dice = tmp_path / "dice.txt"
    dice.write_text("".join(f"{a} {b} {c}\n" for a, b, c in case.rows))
    record = tmp_path / "record.yaml"
    record.write_text(case.record)
    for name, text in RULES_FILES.items():
        (tmp_path / f"{name}.yaml").write_text(text)
    runner = CliRunner()
    for expect in case.expect:
        spec = expect.rules
        if spec.startswith("file:"):
            spec = str(tmp_path / f"{spec.removeprefix('file:')}.yaml")
        args = ["validate", str(record), "--dice", str(dice), "--rules", spec, "--format", "json"]
        run = runner.invoke(main, args)
        payload = json.loads(run.output.splitlines()[0])
        got = _fields(payload)
        if not _check_end(expect):
            got = (*got[:2], None, *got[3:])
        assert got == _expected(expect), expect.rules
        assert run.exit_code == (0 if expect.verdict in ("valid", "incomplete") else 1)


# --- the engine against RULINGS.md, position by position ----------------------------


def _states(rows: list[Dice], text: str, spec: str) -> list[State]:
    result = _replay(rows, text, resolve(spec))
    assert result.error is None, result.error
    return [r.state for r in result.rounds]


def _bit(row: int, col: int) -> int:
    return 1 << Field(row, col).index


def test_escape_leaves_the_corner_unmarked_and_ends_the_game() -> None:
    after = _states(EXIT_ROWS, ESCAPE, "standard+escape=20")[-1]
    assert after.end is End.ESCAPED
    assert not after.taken & _bit(6, 6)
    # The start field got its X in step 3, before the burglar walked off.
    assert after.crossed & _bit(6, 5) and after.circled & _bit(6, 5)
    assert score(after, resolve("standard+escape=20")) == 25 + 20
    assert score(after, STANDARD) == 25


def test_escape_with_no_steps_from_a_corner() -> None:
    result = _replay(STUCK_ROWS, ESCAPE_ON_CORNER, resolve("standard+escape=10"))
    last = result.rounds[-1]
    assert last.kind == "escape" and last.walk == ()
    assert last.state.end is End.ESCAPED


def test_in_and_out_reenters_without_a_start_field_x() -> None:
    states = _states(EXIT_ROWS, IN_AND_OUT, "standard+in-and-out")
    left, back = states[1], states[2]
    assert left.position is None and left.end is None
    assert not left.taken & _bit(6, 6), "the corner left through stays free"
    # Re-entering: only the cross-out is new; there is no start field to X.
    assert back.crossed == left.crossed | _bit(3, 3)
    assert back.position == Field(5, 6)
    assert not back.taken & _bit(6, 6)


def test_bga_third_pass_in_total_ends() -> None:
    state = new_game()
    actions: list[Action] = [
        Play(Field(1, 1), Field(6, 6)),
        Reroll(),
        Reroll(),
        Play(Field(2, 2), Field(6, 5)),
        Reroll(),
    ]
    for dice, action in zip(PASSES_ROWS[:5], actions, strict=True):
        assert not state.over
        state = apply(state, dice, action, BGA).state
    assert state.end is End.REROLLS and state.passes == 3 and state.passes_in_row == 1


def test_literal_counts_the_last_circle_only_when_stuck() -> None:
    stuck = _states(STUCK_ROWS, STUCK, "literal")[-1]
    assert stuck.end is End.NO_MOVE
    assert score(stuck, LITERAL) == score(stuck, STANDARD) == 55
    short = exhaust(_states(SHORT_ROWS, SHORT, "standard")[-1])
    assert score(short, LITERAL) == 25 and score(short, STANDARD) == 55


def test_docs_examples_replay_as_stated() -> None:
    """The record examples in docs/rules.md are the games of this file."""
    docs = (Path(__file__).resolve().parent.parent / "docs" / "rules.md").read_text()
    blocks = [b.split("```", 1)[0] for b in docs.split("```yaml\n")[1:]]
    records = [b for b in blocks if "rounds:" in b]
    runs = [
        (EXIT_ROWS, "standard+escape=20", 45),
        (RING_ROWS, "standard+rings=1", 55),
        (EXIT_ROWS, "standard+in-and-out", 50),
    ]
    assert len(records) == len(runs)
    for text, (rows, spec, points) in zip(records, runs, strict=True):
        result = _replay(rows, text, resolve(spec))
        assert (result.verdict.value, result.score) == ("valid", points), text
    house = next(b for b in blocks if "rounds:" not in b)
    assert parse_rules(house, "docs.yaml").name == "spring-contest"


# --- property tests: random legal games replay as valid ------------------------------

VARIANTS = [
    "standard",
    "bga",
    "literal",
    "standard+escape=20",
    "standard+rings=3",
    "standard+in-and-out",
    "bga+escape=7+rings=2+in-and-out",
    "literal+in-and-out",
    "literal+escape=30+rings=1",
    "file:tight",
    "file:limit2",
]

dice_rows = st.lists(
    st.tuples(st.integers(1, 6), st.integers(1, 6), st.integers(1, 6)), min_size=1, max_size=40
)


@pytest.mark.parametrize("spec", VARIANTS)
@given_tiered(
    plain=5,
    thorough=25,
    rows=dice_rows,
    seed=st.integers(0, 2**32 - 1),
    ring_draw=st.integers(0, 3),
)
def test_random_games_replay_valid(spec: str, rows: list[Dice], seed: int, ring_draw: int) -> None:
    rules = _ruleset(spec)
    rings = min(ring_draw, rules.max_rings)
    steps = random_game(rows, rules, random.Random(seed), rings=rings)
    # to_record does not carry the declared rings; the record header must.
    record = dataclasses.replace(to_record(steps), rings=rings)
    text = dump_record(record, "yaml")
    result = replay(rows, parse_record(text.encode(), "yaml", source="random.yaml"), rules)
    final = exhaust(steps[-1].state)
    assert result.verdict.value == "valid", (result.error, text)
    assert result.score == score(final, rules)
    assert result.end is final.end


@given_tiered(plain=10, thorough=40, rows=dice_rows, seed=st.integers(0, 2**32 - 1))
def test_literal_scores_less_only_by_the_uncrossed_last_circle(rows: list[Dice], seed: int) -> None:
    steps = random_game(rows, STANDARD, random.Random(seed))
    record = to_record(steps)
    standard = replay(rows, record, STANDARD)
    literal = replay(rows, record, LITERAL)
    assert standard.verdict == literal.verdict
    final = exhaust(steps[-1].state)
    uncrossed = final.circled & ~final.crossed
    assert standard.score is not None and literal.score is not None
    if final.end is End.NO_MOVE:
        assert uncrossed == 0 and literal.score == standard.score
    else:
        assert standard.score - literal.score == sum(
            Field.at(i).value for i in range(36) if uncrossed >> i & 1
        )


@given_tiered(plain=10, thorough=40, rows=dice_rows, seed=st.integers(0, 2**32 - 1))
def test_bga_stops_a_standard_game_at_its_third_pass(rows: list[Dice], seed: int) -> None:
    steps = random_game(rows, STANDARD, random.Random(seed))
    result = replay(rows, to_record(steps), BGA)
    third = next((n for n, s in enumerate(steps, 1) if s.state.passes == 3), None)
    if third is None or third == len(steps):
        assert result.verdict.value == "valid"
    else:
        assert result.error is not None and result.error.code == "E106"
        assert result.error.round == third + 1
        assert result.error.roll == steps[third].roll
