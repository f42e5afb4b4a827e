"""One source for each fact: the engine's one walk search, its located bad step and the
exit corner, and the replay's rounds carrying what renderers read (checked against the
brute-force oracle of tests/engine_oracle.py, on random legal games)."""

from __future__ import annotations

import random

import pytest
from engine_oracle import Options, crosses
from engine_oracle import score as oracle_score

from validator.check.replay import replay
from validator.engine import (
    CORNERS,
    OUTSIDE,
    STANDARD,
    Cross,
    Field,
    Reach,
    Ruleset,
    State,
    all_walks,
    exit_corner,
    exit_walks,
    walk_fault,
    walks,
)
from validator.engine.board import NEIGHBOURS
from validator.rulesets import resolve
from validator.solver.playout import random_game, to_record

RULES = [
    "standard",
    "bga+escape=20",
    "standard+in-and-out",
    "bga+rings=2",
    "literal+escape=30",
]


def _rows(seed: int) -> list[tuple[int, int, int]]:
    rng = random.Random(seed)
    return [(rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6)) for _ in range(60)]


def _positions(seed: int) -> list[tuple[int, int]]:
    """(blocked, start) pairs met in a random game."""
    rows = _rows(seed)
    out = []
    for step in random_game(rows, STANDARD, random.Random(seed)):
        if step.state.pos != OUTSIDE:
            out.append((step.state.taken, step.state.pos))
    return out or [(0, OUTSIDE)]


@pytest.mark.parametrize("seed", range(6))
def test_every_walk_found_is_legal_and_the_witness_comes_first(seed: int) -> None:
    for blocked, start in _positions(seed)[:12]:
        for steps in range(1, 7):
            every = all_walks(blocked, start, steps)
            assert {end: found[0] for end, found in every.items()} == walks(blocked, start, steps)
            # Every walk, each once: the oracle's walks of exactly `steps`, and its exits.
            oracle = Options.of(blocked, start, steps)
            assert sorted(w for found in every.values() for w in found) == sorted(oracle.moves)
            exits = all_walks(blocked, start, steps, exit=True)
            assert sorted(w for found in exits.values() for w in found) == sorted(oracle.exits)
            for found in every.values():
                assert len(set(found)) == len(found)
                assert all(walk_fault(blocked, start, w, steps) is None for w in found)
            leaving = all_walks(blocked, start, steps, exit=True)
            witness = exit_walks(blocked, start, steps)
            assert {c: found[0] for c, found in leaving.items()} == witness
            for found in leaving.values():
                assert all(
                    walk_fault(blocked, start, w, steps, exit="escape") is None for w in found
                )


def _reference_bad_step(blocked: int, start: int, path: list[int], steps: int) -> int | None:
    """The first step that breaks a walk, written plainly: entering off a corner, not next
    to the field before, entered twice, onto an X or a circle; else the step past the die."""
    seen = {start}
    prev = start
    for n, cur in enumerate(path):
        if prev == OUTSIDE and cur not in CORNERS:
            return n
        if prev != OUTSIDE and cur not in NEIGHBOURS[prev]:
            return n
        if cur in seen or blocked >> cur & 1:
            return n
        seen.add(cur)
        prev = cur
    return steps if len(path) > steps else None


@pytest.mark.parametrize("seed", range(6))
def test_the_bad_step_is_the_first_step_that_breaks_the_walk(seed: int) -> None:
    rng = random.Random(seed)
    for blocked, start in _positions(seed)[:10]:
        for _ in range(40):
            steps = rng.randint(1, 6)
            path = [rng.randrange(36) for _ in range(rng.randint(1, 7))]
            if rng.random() < 0.5 and start != OUTSIDE:  # mostly walking, a slip somewhere
                path = [rng.choice(NEIGHBOURS[start])]
                for _ in range(rng.randint(0, 6)):
                    path.append(rng.choice(NEIGHBOURS[path[-1]]))
            fault = walk_fault(blocked, start, path, steps)
            expected = _reference_bad_step(blocked, start, path, steps)
            if fault is None:
                assert expected is None and len(path) == steps, (path, steps)
            else:
                assert fault[1] == expected, (path, steps, fault)


def test_the_exit_corner() -> None:
    assert exit_corner(Field(1, 2), (Field(1, 1),)) == Field(1, 1)
    assert exit_corner(Field(6, 6), ()) == Field(6, 6)
    assert exit_corner(5, (4, 3, 2, 1, 0)) == 0


def _same_as_the_oracle(got: Reach, before: State, cross: Cross, rules: Ruleset) -> None:
    """`got` names every field the movement die reaches and (when the ruleset lets the
    burglar leave) every corner it can leave through, each once with a legal walk."""
    options = Options.of(before.taken | 1 << cross.field.index, before.pos, cross.die)
    assert [f.index for f in got.ends] == sorted(options.ends())
    for end, walk in got.ends.items():
        assert tuple(f.index for f in walk) in options.moves and walk[-1] == end
    corners = {w[-1] if w else before.pos for w in options.exits} if rules.can_leave else set()
    assert [f.index for f in got.exits] == sorted(corners)
    for corner, walk in got.exits.items():
        assert tuple(f.index for f in walk) in options.exits
        assert (walk[-1] if walk else before.position) == corner


@pytest.mark.parametrize("spec", RULES)
def test_the_replay_carries_what_the_engine_would_say(spec: str) -> None:
    rules = resolve(spec)
    for seed in range(4):
        rows = _rows(seed)
        steps = random_game(rows, rules, random.Random(seed), rules.max_rings)
        record = to_record(steps, rings=rules.max_rings)
        result = replay(rows, record, rules)
        assert result.ok and result.rows == tuple(rows)
        for r, step in zip(result.rounds, steps, strict=True):
            # What the round carries, against the brute-force oracle (tests/engine_oracle.py).
            assert r.score == oracle_score(r.state, rules)
            free = crosses(r.before, r.dice)
            assert [(c.field.index, c.die) for c in r.available] == sorted(free.items())
            for cross in r.available:
                _same_as_the_oracle(r.options[cross.field], r.before, cross, rules)
            if r.cross is not None:
                _same_as_the_oracle(r.reach, r.before, r.cross, rules)
            if r.kind in ("escape", "leave"):
                start = r.before.position
                assert r.corner == exit_corner(start, r.walk)
                assert r.corner is not None and r.corner.index in CORNERS
                assert r.end_field == r.corner
            else:
                assert r.corner is None
                assert r.end_field == r.move == (r.state.position if r.kind == "play" else None)
            assert r.played == step.action
