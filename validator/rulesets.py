"""Naming a ruleset: a built-in name with expansions (`bga+escape=20+rings=3`).

`resolve` turns what a user typed after --rules (or a record's `rules:`) into a Ruleset.
"""

from __future__ import annotations

from validator.engine import RULESETS, Ruleset
from validator.engine.rules import MAX_RINGS

EXPANSIONS = ("escape", "rings", "in-and-out")


class RulesError(ValueError):
    """A ruleset name or rules file that cannot be used; the message says why."""


def resolve(spec: str) -> Ruleset:
    """`NAME[+escape=BONUS][+rings[=N]][+in-and-out]` -> Ruleset; raises RulesError."""
    base, *parts = [p.strip() for p in spec.strip().split("+")]
    if base not in RULESETS:
        raise RulesError(
            f"unknown ruleset {base!r}; choose one of: {', '.join(RULESETS)} "
            f"(with expansions: {', '.join('+' + e for e in EXPANSIONS)})"
        )
    escape: int | None = None
    rings: int | None = None
    in_and_out = False
    for part in parts:
        name, _, value = part.partition("=")
        if name == "escape":
            if not value.isdigit():
                raise RulesError("the Escape! expansion needs its bonus: escape=POINTS (no default)")
            escape = int(value)
        elif name == "rings":
            rings = int(value) if value.isdigit() else MAX_RINGS
            if not 1 <= rings <= MAX_RINGS:
                raise RulesError(f"rings={value}: a player may declare 1 to {MAX_RINGS} rings")
        elif name == "in-and-out" and not value:
            in_and_out = True
        else:
            raise RulesError(f"unknown expansion {part!r}; choose from: {', '.join(EXPANSIONS)}")
    return RULESETS[base].with_expansions(
        escape_bonus=escape, max_rings=rings, in_and_out=in_and_out
    )
