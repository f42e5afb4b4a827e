"""Ranking this round's legal choices by the best final score each still allows.

The seam for `road300 play --hint`: the evaluator is passed in, so that the solver
(validator.solver) can be plugged in as `lambda state, row: solve(rows, rules, state, row,
time_limit=...).best_score` without this module knowing it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from validator.engine import Action, Play, Reroll, RingReroll, State, score
from validator.tui.game import GameSession

Evaluator = Callable[[State, int], int]
"""(position after a choice, 0-based next dice row) -> the best final score from there."""


@dataclass(frozen=True, slots=True)
class Ranked:
    action: Action
    best: int
    """The best final score this choice still allows."""
    loss: int
    """Points lost against the best choice of the round (0 for the best)."""


def rank_actions(
    game: GameSession, evaluate: Evaluator, *, deadline: float | None = None
) -> list[Ranked]:
    """The legal actions of the round, best first; a choice that ends the game is worth its
    final score and is not evaluated further.

    With a `deadline` (a `time.monotonic()` value), choices are evaluated in the order of
    the points they take at once, and those not reached by then are left out: the ranking
    then covers the most promising choices only."""
    import time

    after = [(action, *game.after(action)) for action in game.actions()]
    after.sort(key=lambda a: -score(a[1], game.rules))
    valued: list[tuple[Action, int]] = []
    for action, state, row in after:
        if deadline is not None and valued and time.monotonic() > deadline:
            break
        value = score(state, game.rules) if state.over else evaluate(state, row)
        valued.append((action, value))
    if not valued:
        return []
    top = max(v for _, v in valued)
    ranked = [Ranked(a, v, top - v) for a, v in valued]
    return sorted(ranked, key=lambda r: r.loss)


def solver_evaluator(game: GameSession, seconds: float) -> Evaluator:
    """The solver as an evaluator: the best final score from a position within `seconds`
    (a lower bound when the search does not finish; the best it found)."""
    from validator.solver import solve

    def evaluate(state: State, row: int) -> int:
        return solve(game.rows, game.rules, state, row, time_limit=seconds).best_score

    return evaluate


def describe(action: Action) -> str:
    """A choice in words: `cross out 3/4, move to 5/5`."""
    if isinstance(action, Reroll):
        return "the forced reroll"
    if isinstance(action, RingReroll):
        return "spend a ring"
    assert isinstance(action, Play)
    text = f"cross out {action.cross}"
    if action.exit is not None and action.move is not None:
        return text + f", {action.exit} through {action.move}"
    if action.move is None:
        return text + " (no move: the game ends)"
    return text + f", move to {action.move}"


def hint_text(ranked: list[Ranked], shown: int = 3, choices: int | None = None) -> str:
    """`Hint: cross out 3/4, move to 5/5 (best total 312). Others lose: ...`; `choices` is
    how many the round had, when the ranking covers fewer."""
    if not ranked:
        return ""
    best = ranked[0]
    text = f"Hint: {describe(best.action)} (best total {best.best})."
    if choices is not None and choices > len(ranked):
        text = text.replace("Hint:", f"Hint ({len(ranked)} of {choices} choices ranked):", 1)
    others = [r for r in ranked[1:] if r.loss > 0][:shown]
    ties = sum(1 for r in ranked[1:] if r.loss == 0)
    if ties:
        text += f" {ties} other choice{'s' if ties > 1 else ''} as good."
    if others:
        text += " Others lose: " + "; ".join(f"{describe(r.action)} -{r.loss}" for r in others)
        if len(ranked) - 1 - ties > len(others):
            text += f"; worst -{ranked[-1].loss}"
    return text
