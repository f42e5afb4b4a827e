"""A ruleset in words: each switch, its value and what it means in play (`road300 rules`)."""

from __future__ import annotations

from dataclasses import dataclass

from validator.engine import STANDARD, Ruleset
from validator.language.wording import ordinal
from validator.rulesets.expansions import EXPANSIONS

# --- describing a ruleset ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Switch:
    """One switch of a ruleset, its value, and what that value means in play."""

    key: str
    value: str
    meaning: str
    changed: bool
    """Whether it differs from the standard ruleset."""


SUMMARIES: dict[str, str] = {
    "standard": "the rulebook with the Heidelberg challenge: three forced rerolls in a row end "
    "the game; every circled field scores",
    "bga": "Board Game Arena: passes count in total, so the third forced reroll of the game "
    "ends it, in a row or not",
    "literal": "the rulebook's scoring to the letter: only fields with both an X and a circle "
    "score, so the last circle counts only when the game ended by a move that could not be made",
}


def describe(rules: Ruleset) -> list[Switch]:
    """Every switch of `rules`, with what its value means."""
    counting = (
        "only forced rerolls in a row count: a played round or a ring reroll resets the count"
        if rules.pass_counting == "in-a-row"
        else "every forced reroll of the game counts, in a row or not"
    )
    limit = f"the {ordinal(rules.pass_limit)} counted forced reroll ends the game"
    scoring = (
        "every circled field scores, the last one included"
        if rules.scoring == "all-circles"
        else "only fields with both an X and a circle score: the last circle counts only when "
        "it got its X (the game ended by a move that could not be made, or by leaving)"
    )
    values: list[tuple[str, object, str]] = [
        ("pass_counting", rules.pass_counting, counting),
        ("pass_limit", rules.pass_limit, limit),
        ("scoring", rules.scoring, scoring),
    ]
    values.extend((x.switch, x.value(rules), x.meaning(rules)) for x in EXPANSIONS)
    return [
        Switch(key, _value_text(value), meaning, value != getattr(STANDARD, key))
        for key, value, meaning in values
    ]


def _value_text(value: object) -> str:
    if value is None:
        return "off"
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)
