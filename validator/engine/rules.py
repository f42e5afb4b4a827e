"""Rulesets as data: the switches the engine reads, and the named rulesets.

A ruleset never copies engine code; every variant is a value of `Ruleset` and the
engine branches on its fields. See docs/rules.md for each ruling and its source.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

PassCounting = Literal["in-a-row", "total"]
Scoring = Literal["all-circles", "crossed-circles"]

MAX_RINGS = 3


@dataclass(frozen=True, slots=True)
class Ruleset:
    """Every switch that changes how a game is played or scored."""

    name: str = "standard"
    # How forced rerolls ("passes") end the game: `pass_limit` of them in a row, or in total.
    pass_counting: PassCounting = "in-a-row"
    pass_limit: int = 3
    # all-circles: every circled field scores; crossed-circles: only fields with X and circle.
    scoring: Scoring = "all-circles"
    # Escape!: None when not in play, else the bonus for leaving through a corner.
    escape_bonus: int | None = None
    # The magic rings!: the most rings a record may declare; 0 when not in play.
    max_rings: int = 0
    # In and Out!: leave through a corner and re-enter through one next round.
    in_and_out: bool = False

    def __post_init__(self) -> None:
        if self.pass_limit < 1:
            raise ValueError("pass_limit must be at least 1")
        if not 0 <= self.max_rings <= MAX_RINGS:
            raise ValueError(f"max_rings must be 0-{MAX_RINGS}")
        if self.escape_bonus is not None and self.escape_bonus < 0:
            raise ValueError("escape_bonus must not be negative")

    @property
    def escape(self) -> bool:
        return self.escape_bonus is not None

    @property
    def rings(self) -> bool:
        return self.max_rings > 0

    @property
    def can_leave(self) -> bool:
        """Whether any move may end by leaving the board through a corner."""
        return self.escape or self.in_and_out


STANDARD = Ruleset()
BGA = Ruleset(name="bga", pass_counting="total")
LITERAL = Ruleset(name="literal", scoring="crossed-circles")

RULESETS: dict[str, Ruleset] = {r.name: r for r in (STANDARD, BGA, LITERAL)}
