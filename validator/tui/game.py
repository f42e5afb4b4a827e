"""One game being played on a dice file: the position, undo and redo, and the ways to finish
a round once a cross-out is chosen.

No Textual here; the app only draws a `GameSession` and turns keys into its calls. Every
rule is the engine's, and a round ends the game exactly as the replay does it: the round
on the last dice row exhausts the state (`engine.apply_row`, which the replay and the
solver's lines use too), and forced rerolls play themselves. (The solver's
`solver.position.Game` is another thing: the rules on compact positions.)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from validator.check.replay import RoundResult
from validator.engine import (
    FIELD_AT,
    Action,
    Cross,
    Dice,
    Field,
    Play,
    RingReroll,
    Ruleset,
    State,
    Turn,
    all_walks,
    apply_row,
    available_crosses,
    blocked_after,
    counted_passes,
    exit_kinds,
    forced_rerolls,
    game_goes_on,
    legal_actions,
    new_game,
    roll_text,
    score,
)
from validator.solver.playout import Step

OptionKind = Literal["move", "leave", "escape", "stuck"]
Walk = tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Option:
    """One legal way to finish the round after a cross-out: the action and the walk it takes."""

    kind: OptionKind
    target: Field | None
    """The field moved to, or the corner left through; None when no move can be made."""
    walk: tuple[Field, ...]
    action: Play


@dataclass(frozen=True, slots=True)
class Round:
    """A dice row as played: `auto` rounds are the forced rerolls that played themselves."""

    step: Step
    before: State
    auto: bool


class GameSession:
    """The dice rows, the ruleset and the rounds played so far, with undo and redo."""

    def __init__(
        self, rows: Sequence[Dice], rules: Ruleset, rings: int = 0, rounds: Sequence[Round] = ()
    ) -> None:
        if not rows:
            raise ValueError("a game needs at least one dice row")
        self.rows = tuple(rows)
        self.rules = rules
        self.rings = rings
        self.start = new_game(rings)
        self.rounds: list[Round] = list(rounds)
        self._redo: list[Action] = []
        self.notices: list[str] = []
        """What the last change did by itself (forced rerolls), for the screen."""
        self._auto()

    # --- the position ------------------------------------------------------------

    @property
    def state(self) -> State:
        return self.rounds[-1].step.state if self.rounds else self.start

    @property
    def row(self) -> int:
        """0-based index of the next dice row to play (every played row is a round)."""
        return len(self.rounds)

    @property
    def over(self) -> bool:
        return self.state.over

    @property
    def dice(self) -> Dice | None:
        """This round's dice, or None when the game is over."""
        return None if self.over or self.row >= len(self.rows) else self.rows[self.row]

    @property
    def score(self) -> int:
        return score(self.state, self.rules)

    def declare_rings(self, rings: int) -> None:
        """Set the magic rings declared at the start (only before the first round)."""
        if self.rounds:
            raise ValueError("rings are declared before the first round")
        self.rings = rings
        self.start = new_game(rings)

    def actions(self) -> list[Action]:
        dice = self.dice
        return [] if dice is None else list(_legal_actions(self.state, dice, self.rules))

    def crosses(self) -> tuple[Cross, ...]:
        dice = self.dice
        return () if dice is None else available_crosses(self.state, dice)

    @property
    def goes_on(self) -> bool:
        """Whether some cross-out of this roll leaves a legal move (else the game ends now,
        unless a ring is spent)."""
        dice = self.dice
        return dice is not None and game_goes_on(self.state, dice, self.rules)

    @property
    def ring_allowed(self) -> bool:
        return any(isinstance(a, RingReroll) for a in self.actions())

    def options(self, cross: Cross) -> list[Option]:
        return list(_options(self.state, cross, self.rules))

    # --- changing it -------------------------------------------------------------

    def play(self, action: Action) -> None:
        """Play the player's `action` on this round's dice (IllegalAction if it breaks a rule),
        then the forced rerolls that follow; forgets what could be redone."""
        self._play(action)
        self._redo.clear()

    def undo(self) -> bool:
        """Take back the last choice the player made, with the forced rerolls after it."""
        if not self.can_undo:
            return False
        while self.rounds[-1].auto:
            self.rounds.pop()
        self._redo.append(self.rounds.pop().step.action)
        self.notices = []
        return True

    def redo(self) -> bool:
        if not self._redo:
            return False
        self._play(self._redo.pop())
        return True

    @property
    def can_undo(self) -> bool:
        return any(not r.auto for r in self.rounds)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    def after(self, action: Action) -> tuple[State, int]:
        """The position and next row that `action` would lead to, forced rerolls included,
        without playing it (what a hint evaluates)."""
        probe = GameSession(self.rows, self.rules, self.rings, self.rounds)
        probe.start = self.start
        probe._play(action)
        return probe.state, probe.row

    def steps(self) -> list[Step]:
        return [r.step for r in self.rounds]

    def _play(self, action: Action) -> None:
        self.notices = []
        if self.dice is None:
            raise ValueError("the game is over")
        self._take(apply_row(self.state, self.rows, self.row, action, self.rules), auto=False)
        self._auto()

    def _take(self, turn: Turn, *, auto: bool) -> None:
        """Go on past the next dice row, which `turn` played."""
        walk = _fields(turn.walk or ())
        die = turn.cross.die if turn.cross else None
        step = Step(self.row + 1, self.rows[self.row], turn.action, turn.state, walk, die)
        self.rounds.append(Round(step, self.state, auto))

    def _auto(self) -> None:
        """Forced rerolls play themselves, as they do when the replay plays on after a
        record (both take them from `engine.forced_rerolls`)."""
        kind = "in a row" if self.rules.pass_counting == "in-a-row" else "in total"
        for turn in forced_rerolls(self.state, self.rows, self.row, self.rules):
            dice = self.rows[self.row]
            self._take(turn, auto=True)
            self.notices.append(
                f"roll {self.row} ({roll_text(dice)}): no field can be crossed out, "
                f"forced reroll ({counted_passes(turn.state, self.rules)} of "
                f"{self.rules.pass_limit} {kind})"
            )


def rounds_from_replay(result_rounds: Sequence[RoundResult]) -> list[Round]:
    """The rounds of a replayed record as a game's rounds (the rows the replay played by
    itself, forced rerolls, count as automatic ones)."""
    return [
        Round(
            Step(r.roll, r.dice, r.played, r.state, r.walk, r.cross.die if r.cross else None),
            r.before,
            auto=r.record_round is None,
        )
        for r in result_rounds
    ]


# --- computed once per position: the screen is drawn after every key --------------------

_legal_actions = lru_cache(maxsize=64)(legal_actions)


@lru_cache(maxsize=64)
def _options(state: State, cross: Cross, rules: Ruleset) -> tuple[Option, ...]:
    """Every legal way to finish the round after `cross`: each end field with every walk to
    it, each corner to leave through, or the single "stuck" option when none exists.

    The engine's one walk search (`all_walks`) finds them, legal by construction; its
    witness walk (the one `walks` gives) comes first, the others in order.
    """
    blocked = blocked_after(state, cross.field)
    start, die = state.pos, cross.die
    found: list[Option] = []
    for end, each in sorted(all_walks(blocked, start, die).items()):
        target = FIELD_AT[end]
        for walk in _ordered(each):
            path = _fields(walk)
            found.append(Option("move", target, path, Play(cross.field, target, path=path)))
    kinds = exit_kinds(rules)
    if kinds:
        for corner, each in sorted(all_walks(blocked, start, die, exit=True).items()):
            target = FIELD_AT[corner]
            for walk in _ordered(each):
                for kind in kinds:
                    path = _fields(walk)
                    action = Play(cross.field, target, exit=kind, path=path)
                    found.append(Option(kind, target, path, action))
    return tuple(found) or (Option("stuck", None, (), Play(cross.field)),)


def _ordered(each: list[Walk]) -> list[Walk]:
    """The witness walk (found first) first, then the others in order."""
    return [each[0], *sorted(set(each[1:]))]


def _fields(walk: Sequence[int]) -> tuple[Field, ...]:
    return tuple(FIELD_AT[i] for i in walk)
