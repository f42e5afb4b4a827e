"""What each decision of a record cost: the best total reachable before and after every
round, the points lost, a mark like a chess engine's (?!, ?, ??), and the better choice."""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from validator.check.replay import Result, Verdict
from validator.engine import Action, Dice, Ruleset, State, apply, exhaust, score
from validator.solver.search import Search, engine_action, root_position, to_actions

Mark = Literal["inaccuracy", "mistake", "blunder"]

# Points lost from which a round gets each mark; measured from random and strong games,
# see docs/solver.md ("Marks").
MARKS: tuple[tuple[int, Mark], ...] = ((40, "blunder"), (20, "mistake"), (5, "inaccuracy"))


def mark_of(cost: int) -> Mark | None:
    for threshold, mark in MARKS:
        if cost >= threshold:
            return mark
    return None


@dataclass(frozen=True, slots=True)
class Value:
    """The search's answer for one position: a game reaching `best`, and `upper`."""

    best: int
    upper: int
    line: tuple[Action, ...]
    clock: bool = False
    """Whether the time limit or cancel stopped the search (the value then depends on
    the machine's speed)."""


@dataclass(frozen=True, slots=True)
class RoundAnalysis:
    round: int
    """1-based record round."""
    roll: int
    before: State
    best_before: int
    best_after: int
    cost: int
    """best_before - best_after: exact when `proven`, else an estimate from lower bounds."""
    proven: bool
    mark: Mark | None
    """By `cost` when proven; else by `cost_at_least`, so that a mark is always earned."""
    better: Action | None
    """The first action of a best continuation, when the recorded choice cost points."""
    upper_before: int
    """Sound: no game from before this round scores more."""
    upper_after: int
    """Sound: no game after the recorded choice scores more."""
    cost_at_least: int
    """Proven loss: best_before - upper_after, or 0."""


@dataclass(frozen=True, slots=True)
class Analysis:
    rounds: tuple[RoundAnalysis, ...]
    played_score: int
    best_score: int
    best_proven: bool
    best_line: tuple[Action, ...]
    """A best game from the record's first position (its rows, in order)."""
    first_row: int
    """0-based dice row where `best_line` starts."""
    seconds: float
    clock_stopped: int = 0
    """How many of the searches (one per round, plus one) the time limit or cancel
    stopped: their values depend on the machine's speed (with a node budget and no
    time limit, none do)."""


def analyze(
    rows: Sequence[Dice],
    rules: Ruleset,
    result: Result,
    *,
    time_limit: float | None = 1.0,
    nodes: int | None = None,
    cancel: threading.Event | None = None,
) -> Analysis:
    """Analyse the record rounds of a replay (valid or incomplete) on its dice rows.

    `time_limit` and `nodes` (a budget of positions searched) are per position. Values
    only grow backwards along the played game (the rest of the played game is one
    continuation), so a cost is never negative.
    """
    started = time.monotonic()
    search = Search(rows, result.rules if result.rules else rules)
    played = [r for r in result.rounds if r.record_round is not None]
    assert result.final is not None and result.score is not None
    positions: list[tuple[State, int]] = [(r.before, r.roll - 1) for r in played]
    last = played[-1] if played else None
    positions.append((last.state, last.roll) if last else (result.final, len(result.rounds)))
    # Last position first: the table then holds the values along the played game, which
    # the searches of earlier positions meet on their recorded move.
    values = [
        _value(search, rows, state, row, time_limit, nodes, cancel)
        for state, row in reversed(positions)
    ][::-1]
    lower = [v.best for v in values]
    upper = [v.upper for v in values]
    lines = [v.line for v in values]
    rules = search.rules
    if result.verdict is Verdict.VALID and lower[-1] < result.score:
        # Never a best below a finished game: from its last position the played game is
        # one continuation (the forced rerolls the replay played), whatever the search
        # found; the passes below carry it to every earlier position.
        lower[-1] = result.score
        lines[-1] = tuple(_played(rows, search, positions[-1], result, (result.final, len(rows))))
    for k in range(len(values) - 1):
        # A line from position k that plays the recorded round(s) is a line from k + 1
        # (without it, the choice it starts with could come out as "better" than itself).
        steps = positions[k + 1][1] - positions[k][1]
        if lower[k] > lower[k + 1] and _reaches(rows, rules, positions[k], lines[k][:steps],
                                                positions[k + 1][0]):  # fmt: skip
            lower[k + 1], lines[k + 1] = lower[k], lines[k][steps:]
        # The game after the recorded choice is one of the games before it.
        upper[k + 1] = min(upper[k + 1], upper[k])
    for k in range(len(values) - 2, -1, -1):
        # The played rounds and then the line from k + 1 are a game from k.
        if lower[k + 1] > lower[k]:
            lower[k] = lower[k + 1]
            lines[k] = (
                *_played(rows, search, positions[k], result, positions[k + 1]),
                *lines[k + 1],
            )
    rounds = []
    for k, r in enumerate(played):
        cost = lower[k] - lower[k + 1]
        proven = lower[k] >= upper[k] and lower[k + 1] >= upper[k + 1]
        at_least = max(0, lower[k] - upper[k + 1])
        better = lines[k][0] if cost > 0 and lines[k] else None
        rounds.append(
            RoundAnalysis(
                round=r.record_round or k + 1,
                roll=r.roll,
                before=r.before,
                best_before=lower[k],
                best_after=lower[k + 1],
                cost=cost,
                proven=proven,
                mark=mark_of(cost if proven else at_least),
                better=better,
                upper_before=upper[k],
                upper_after=upper[k + 1],
                cost_at_least=cost if proven else at_least,
            )
        )
    return Analysis(
        rounds=tuple(rounds),
        played_score=result.score,
        best_score=lower[0],
        best_proven=lower[0] >= upper[0],
        best_line=lines[0],
        first_row=positions[0][1],
        seconds=time.monotonic() - started,
        clock_stopped=sum(v.clock for v in values),
    )


def _reaches(
    rows: Sequence[Dice],
    rules: Ruleset,
    start: tuple[State, int],
    actions: Sequence[Action],
    goal: State,
) -> bool:
    """Whether `actions` from `start` (a state and its 0-based row) end in `goal`."""
    state, row = start
    for n, action in enumerate(actions):
        if state.over:
            return False
        state = apply(state, rows[row + n], action, rules).state
    return goal in (state, exhaust(state))  # the replay exhausts the game on the last row


def _played(
    rows: Sequence[Dice],
    search: Search,
    start: tuple[State, int],
    result: Result,
    goal: tuple[State, int],
) -> list[Action]:
    """The engine actions of the replayed rounds from `start` to `goal` (forced rerolls
    the replay played by itself included), each the one the solver would give."""
    rules = search.rules
    state, row = start
    actions: list[Action] = []
    for r in result.rounds:
        if not row <= r.roll - 1 < goal[1]:
            continue
        position = root_position(state, rules, row)
        for code, _, _ in search.game.children(*position):
            action = engine_action(state, rows[row], code)
            after = apply(state, rows[row], action, rules).state
            if r.state in (after, exhaust(after)):
                actions.append(action)
                break
        else:
            raise AssertionError(f"no action of the solver's plays roll {r.roll}")
        state, row = r.state, row + 1
    return actions


def _value(
    search: Search,
    rows: Sequence[Dice],
    state: State,
    row: int,
    time_limit: float | None,
    nodes: int | None,
    cancel: threading.Event | None,
) -> Value:
    rules = search.rules
    if state.over or row >= len(rows):
        final = score(exhaust(state), rules)
        return Value(final, final, ())
    best, upper, codes = search.run(
        root_position(state, rules, row),
        score(state, rules),
        time_limit=time_limit,
        nodes=nodes,
        cancel=cancel,
    )
    actions, final = to_actions(rows, rules, state, row, codes)
    assert final == best
    return Value(best, upper, tuple(actions), search.stop_reason in ("time", "cancel"))
