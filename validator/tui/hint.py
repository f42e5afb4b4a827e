"""Ranking this round's legal choices by the best final score each still allows.

The seam for `road300 play --hint`: the evaluator is passed in, so that the solver
(validator.solver) can be plugged in as `lambda state, row: solve(rows, rules, state, row,
time_limit=...).best_score` without this module knowing it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from validator.engine import Action, State, score
from validator.tui.game import Game

Evaluator = Callable[[State, int], int]
"""(position after a choice, 0-based next dice row) -> the best final score from there."""


@dataclass(frozen=True, slots=True)
class Ranked:
    action: Action
    best: int
    """The best final score this choice still allows."""
    loss: int
    """Points lost against the best choice of the round (0 for the best)."""


def rank_actions(game: Game, evaluate: Evaluator) -> list[Ranked]:
    """Every legal action of the round, best first; a choice that ends the game is worth its
    final score and is not evaluated further."""
    valued: list[tuple[Action, int]] = []
    for action in game.actions():
        state, row = game.after(action)
        value = score(state, game.rules) if state.over else evaluate(state, row)
        valued.append((action, value))
    if not valued:
        return []
    top = max(v for _, v in valued)
    ranked = [Ranked(a, v, top - v) for a, v in valued]
    return sorted(ranked, key=lambda r: r.loss)
