"""What each decision of a record cost: the best total reachable before and after every
round, the points lost, a mark like a chess engine's (?!, ?, ??), and the better choice."""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from validator.check.replay import Result
from validator.engine import Action, Dice, Ruleset, State, exhaust, score
from validator.solver.search import Search, root_position, to_actions

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

    @property
    def proven(self) -> bool:
        return self.best >= self.upper


@dataclass(frozen=True, slots=True)
class RoundAnalysis:
    round: int
    """1-based record round."""
    roll: int
    before: State
    best_before: int
    best_after: int
    cost: int
    proven: bool
    mark: Mark | None
    better: Action | None
    """The first action of a best continuation, when the recorded choice cost points."""


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


def analyze(
    rows: Sequence[Dice],
    rules: Ruleset,
    result: Result,
    *,
    time_limit: float | None = 1.0,
    cancel: threading.Event | None = None,
) -> Analysis:
    """Analyse the record rounds of a replay (valid or incomplete) on its dice rows.

    `time_limit` is per position. Values only grow backwards along the played game (the
    rest of the played game is one continuation), so a cost is never negative.
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
        _value(search, rows, state, row, time_limit, cancel) for state, row in reversed(positions)
    ][::-1]
    # The played line reaches at least what is reachable after its next round.
    lower = [v.best for v in values]
    for k in range(len(lower) - 2, -1, -1):
        lower[k] = max(lower[k], lower[k + 1])
    rounds = []
    for k, r in enumerate(played):
        cost = lower[k] - lower[k + 1]
        proven = lower[k] >= values[k].upper and lower[k + 1] >= values[k + 1].upper
        better = values[k].line[0] if cost > 0 and values[k].line else None
        rounds.append(
            RoundAnalysis(
                round=r.record_round or k + 1,
                roll=r.roll,
                before=r.before,
                best_before=lower[k],
                best_after=lower[k + 1],
                cost=cost,
                proven=proven,
                mark=mark_of(cost),
                better=better,
            )
        )
    first = values[0]
    return Analysis(
        rounds=tuple(rounds),
        played_score=result.score,
        best_score=lower[0],
        best_proven=lower[0] >= first.upper,
        best_line=first.line if first.best >= lower[0] else (),
        first_row=positions[0][1],
        seconds=time.monotonic() - started,
    )


def _value(
    search: Search,
    rows: Sequence[Dice],
    state: State,
    row: int,
    time_limit: float | None,
    cancel: threading.Event | None,
) -> Value:
    rules = search.rules
    if state.over or row >= len(rows):
        final = score(exhaust(state), rules)
        return Value(final, final, ())
    best, upper, codes = search.run(
        root_position(state, rules, row), score(state, rules), time_limit=time_limit, cancel=cancel
    )
    actions, final = to_actions(rows, rules, state, row, codes)
    assert final == best
    return Value(best, upper, tuple(actions))
