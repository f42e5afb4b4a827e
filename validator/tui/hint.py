"""Ranking this round's legal choices by the best final score each still allows.

The seam for `road300 play --hint`: the evaluator is passed in, so that the solver
(validator.solver) can be plugged in as `lambda state, row: solve(rows, rules, state, row,
time_limit=...).best_score` without this module knowing it.

What is ranked is decided by counts, never by the clock: every choice when the round has
at most `FEW`, else the `FEW` that take the most points at once. A position ranked once is
remembered (`Hints`), so that the same position always shows the same ranking, however
long the solver had the second time.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

from validator.engine import Action, Play, Reroll, RingReroll, State, score
from validator.tui.game import GameSession

Evaluator = Callable[[State, int], int]
"""(position after a choice, 0-based next dice row) -> the best final score from there."""

FEW = 12
"""A round with at most this many choices has every one ranked; a bigger round its `FEW`
most promising (the most points at once, ties in the engine's order)."""


@dataclass(frozen=True, slots=True)
class Ranked:
    action: Action
    best: int
    """The best final score this choice still allows."""
    loss: int
    """Points lost against the best choice of the round (0 for the best)."""


def rank_actions(
    game: GameSession, evaluate: Evaluator, *, most: int | None = None
) -> list[Ranked]:
    """The legal actions of the round, best first (ties in the engine's order); a choice
    that ends the game is worth its final score and is not evaluated further.

    With `most`, only that many are evaluated: those that take the most points at once
    (ties in the engine's order), so that the same position always ranks the same ones."""
    after = [(i, action, *game.after(action)) for i, action in enumerate(game.actions())]
    after.sort(key=lambda a: (-score(a[2], game.rules), a[0]))
    if most is not None:
        after = after[: max(1, most)]
    valued = [
        (i, action, score(state, game.rules) if state.over else evaluate(state, row))
        for i, action, state, row in after
    ]
    if not valued:
        return []
    top = max(v for _, _, v in valued)
    valued.sort(key=lambda a: (top - a[2], a[0]))
    return [Ranked(a, v, top - v) for _, a, v in valued]


def solver_evaluator(
    game: GameSession,
    seconds: float | None,
    nodes: int | None = None,
    cancel: threading.Event | None = None,
) -> Evaluator:
    """The solver as an evaluator: the best final score from a position within `seconds`
    and `nodes` positions of search (a lower bound when the search does not finish; the
    best it found). With `nodes` and no `seconds`, the same on every machine. `cancel`
    stops it at once (the game is ending)."""
    from validator.solver import solve

    def evaluate(state: State, row: int) -> int:
        found = solve(
            game.rows, game.rules, state, row, time_limit=seconds, nodes=nodes, cancel=cancel
        )
        return found.best_score

    return evaluate


@dataclass(frozen=True, slots=True)
class Hint:
    """A round's ranking and how many choices the round had."""

    ranked: tuple[Ranked, ...]
    choices: int

    @property
    def best(self) -> Action | None:
        return self.ranked[0].action if self.ranked else None

    def text(self) -> str:
        return hint_text(list(self.ranked), choices=self.choices)


class Hints:
    """The rankings of the positions seen in one game, so that a position shown again
    (after an undo, a redo, a step back) shows the ranking it showed first."""

    LIMIT = 512

    def __init__(self, seconds: float | None, nodes: int | None = None) -> None:
        self.seconds = seconds
        self.nodes = nodes
        """Positions of search for one round (shared by its choices), or None."""
        self._known: dict[tuple[State, int], Hint] = {}
        self.cancel = threading.Event()
        """Set when the game ends: a search still running stops at once, unremembered."""

    def known(self, game: GameSession) -> Hint | None:
        return self._known.get((game.state, game.row))

    def rank(self, game: GameSession) -> Hint:
        """This position's hint: remembered, or ranked now (the solver's time for the
        round shared by the choices ranked)."""
        key = (game.state, game.row)
        found = self._known.get(key)
        if found is not None:
            return found
        choices = len(game.actions())
        share = max(1, min(choices, FEW))  # the choices ranked share the round's budget
        evaluate = solver_evaluator(
            game,
            None if self.seconds is None else self.seconds / share,
            None if self.nodes is None else max(1, self.nodes // share),
            self.cancel,
        )
        hint = Hint(tuple(rank_actions(game, evaluate, most=FEW)), choices)
        if self.cancel.is_set():  # cut short: not the ranking to show again
            return hint
        if len(self._known) >= self.LIMIT:
            self._known.clear()
        return self._known.setdefault(key, hint)


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


def short(action: Action) -> str:
    """A choice in few characters, for the list of the others: `3/4 -> 5/5`."""
    if isinstance(action, Reroll):
        return "reroll"
    if isinstance(action, RingReroll):
        return "a ring"
    assert isinstance(action, Play)
    if action.exit is not None and action.move is not None:
        return f"{action.cross} -> {action.exit} at {action.move}"
    if action.move is None:
        return f"{action.cross} (no move)"
    return f"{action.cross} -> {action.move}"


def hint_text(ranked: list[Ranked], shown: int = 3, choices: int | None = None) -> str:
    """`Hint: cross out 3/4, move to 5/5 (best total 312). Others (cross-out -> field): ...`;
    `choices` is how many the round had, when the ranking covers fewer. The worst choice
    ranked is named with what it loses."""
    if not ranked:
        return ""
    best = ranked[0]
    text = f"Hint: {describe(best.action)} (best total {best.best})."
    if choices is not None and choices > len(ranked):
        compared = f"compared the {len(ranked)} of your {choices} choices that score most now"
        text = text.replace("Hint:", f"Hint ({compared}):", 1)
    others = [r for r in ranked[1:] if r.loss > 0]
    ties = len(ranked) - 1 - len(others)
    if ties:
        text += f" {ties} other choice{'s' if ties > 1 else ''} as good."
    if others:
        listed = others[:shown]
        text += " Others lose: " + ", ".join(f"{short(r.action)} -{r.loss}" for r in listed)
        if len(others) > len(listed):
            worst = others[-1]
            text += f"; worst {short(worst.action)} -{worst.loss}"
        text += "."
    return text
