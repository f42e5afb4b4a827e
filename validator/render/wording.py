"""The words every output uses for the game: end reasons, round kinds, ordinals, plurals.

One place for each phrase, so that a report, the terminal, the explanation and the game
screen say the same thing the same way. Written for translation: every sentence is one
format string with named placeholders (never an f-string), passed through `_`; every
count goes through `plural`, which is `ngettext` in waiting. The next step binds `_` and
`ngettext` to gettext; nothing else has to change.

A leaf: it imports only the engine's `End`, so any layer that writes sentences for people
(the explanation, the report model, the renderers, the game screen) may use it.
"""

from __future__ import annotations

from validator.engine import End


def _(message: str) -> str:
    """The translation hook (gettext's `_`): today the English text itself."""
    return message


def N_(message: str) -> str:
    """Marks a message for translation where it is defined; `_` translates it where used."""
    return message


def ngettext(one: str, many: str, n: int) -> str:
    """gettext's `ngettext`: the singular or the plural form of a message for `n`."""
    return one if n == 1 else many


def plural(n: int, one: str, many: str, **values: object) -> str:
    """`one` or `many` for the count `n`, with `{n}` and the other named placeholders
    filled in: `plural(3, "{n} step", "{n} steps")` is `3 steps`."""
    return ngettext(one, many, n).format(n=n, **values)


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


def cross_outs(n: int) -> str:
    """`1 cross-out`, `4 cross-outs`."""
    return plural(n, "{n} cross-out", "{n} cross-outs")


def rings(n: int) -> str:
    """`no ring`, `1 ring`, `2 rings` (magic rings)."""
    return _("no ring") if n == 0 else plural(n, "{n} ring", "{n} rings")


def reach_verb(n: int) -> str:
    """The verb after a number of steps: `1 step reaches`, `3 steps reach`."""
    return ngettext(_("reaches"), _("reach"), n)


def has_verb(n: int) -> str:
    """`1/1 has an X`, `1/1 and 6/1 have an X`."""
    return ngettext(_("has"), _("have"), n)


# --- ordinals ------------------------------------------------------------------------

_ORDINAL_WORDS = (
    N_("first"),
    N_("second"),
    N_("third"),
    N_("fourth"),
    N_("fifth"),
    N_("sixth"),
    N_("seventh"),
    N_("eighth"),
    N_("ninth"),
    N_("tenth"),
)


def ordinal(n: int) -> str:
    """`first` ... `tenth` in words, then `11th`, `21st`, `22nd`, `23rd`, `101st`."""
    if 1 <= n <= len(_ORDINAL_WORDS):
        return _(_ORDINAL_WORDS[n - 1])
    if n % 100 in (11, 12, 13):
        return _("{n}th").format(n=n)
    suffix = {1: N_("{n}st"), 2: N_("{n}nd"), 3: N_("{n}rd")}.get(n % 10, N_("{n}th"))
    return _(suffix).format(n=n)


# --- how a game ended ----------------------------------------------------------------

_END_REASON: dict[End, str] = {
    End.NO_MOVE: N_("the movement die had no legal move"),
    End.REROLLS: N_("forced rerolls ended it"),
    End.DICE_EXHAUSTED: N_("the dice file ran out"),
    End.ESCAPED: N_("the burglar escaped through a corner"),
}

_END_BRIEF: dict[End, str] = {
    End.NO_MOVE: N_("no legal move"),
    End.REROLLS: N_("forced rerolls"),
    End.DICE_EXHAUSTED: N_("the dice file ran out"),
    End.ESCAPED: N_("the burglar escaped"),
}


def end_reason(end: End) -> str:
    """How the game ended, as a clause: `the movement die had no legal move`."""
    return _(_END_REASON[end])


def end_brief(end: End) -> str:
    """How the game ended in a few words, for a one-line summary: `no legal move`."""
    return _(_END_BRIEF[end])


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
