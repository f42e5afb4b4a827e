"""The words every output uses for the game: end reasons, round kinds, ordinals, plurals.

One place for each phrase, so that a report, the terminal, the explanation and the game
screen say the same thing the same way: every sentence is one format string with named
placeholders (never an f-string), passed through `_`; every count goes through `plural`
(`ngettext`). A leaf: it imports only the engine and `i18n`, so any layer that writes
sentences for people may use it.
"""

from __future__ import annotations

from validator.engine import END_BRIEF, End
from validator.engine.phrase import N_
from validator.language import i18n
from validator.language.i18n import _, ngettext


def plural(n: int, one: str, many: str, **values: object) -> str:
    """`one` or `many` for the count `n` (through ngettext), with `{n}` and the other
    named placeholders filled in: `plural(3, "{n} step", "{n} steps")` is `3 steps`."""
    return ngettext(one, many, n).format(n=i18n.number(n), **values)


# --- counts --------------------------------------------------------------------------


def steps(n: int) -> str:
    """`1 step`, `3 steps`."""
    return plural(n, "{n} step", "{n} steps")


def points(n: int) -> str:
    """`1 point`, `315 points`."""
    return plural(n, "{n} point", "{n} points")


def rounds(n: int) -> str:
    return plural(n, "{n} round", "{n} rounds")


def dice_rolls(n: int) -> str:
    return plural(n, "{n} dice roll", "{n} dice rolls")


def fields(n: int) -> str:
    return plural(n, "{n} field", "{n} fields")


def rings(n: int) -> str:
    """`no ring`, `1 ring`, `2 rings` (magic rings)."""
    return _("no ring") if n == 0 else plural(n, "{n} ring", "{n} rings")


# --- ordinals ------------------------------------------------------------------------

_ORDINAL_WORDS = (
    "first",
    "second",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
    "tenth",
)
"""English says small ordinals in words; other languages write `4.` or `4e`."""


def ordinal(n: int) -> str:
    """`first` ... `tenth` in words, then `11th`, `21st`: English; `4.` in German, `4e`
    in French (i18n.ordinal)."""
    if i18n.current() == "en" and 1 <= n <= len(_ORDINAL_WORDS):
        return _ORDINAL_WORDS[n - 1]
    return i18n.ordinal(n)


# --- how a game ended ----------------------------------------------------------------

_END_REASON: dict[End, str] = {
    End.NO_MOVE: N_("the movement die had no legal move"),
    End.REROLLS: N_("forced rerolls ended it"),
    End.DICE_EXHAUSTED: N_("the dice file ran out"),
    End.ESCAPED: N_("the burglar escaped through a corner"),
}


def end_reason(end: End) -> str:
    """How the game ended, as a clause: `the movement die had no legal move`."""
    return _(_END_REASON[end])


def end_brief(end: End) -> str:
    """How the game ended in a few words, for a one-line summary: `no legal move`."""
    return _(END_BRIEF[end])


def game_over(end: End, roll: int | None) -> str:
    """`no legal move on roll 23`: the end in a summary line."""
    if roll is None:
        return end_brief(end)
    return _("{end} on roll {roll}").format(end=end_brief(end), roll=roll)


# --- what a round was ----------------------------------------------------------------

_ROUND_KIND: dict[str, str] = {
    "play": N_("move"),
    "stuck": N_("stuck: no move possible"),
    "reroll": N_("forced reroll"),
    "ring": N_("magic ring spent"),
    "escape": N_("escaped through a corner"),
    "leave": N_("left the board through a corner"),
}


def round_kind(kind: str) -> str:
    """What a replayed round was (its `RoundResult.kind`), in a few words."""
    return _(_ROUND_KIND[kind])


# --- the analysis ----------------------------------------------------------------------


def analysis_marks() -> str:
    """The key to the analysis's marks after a round's title."""
    return _("?! inaccuracy, ? mistake, ?? blunder (by points lost)")
