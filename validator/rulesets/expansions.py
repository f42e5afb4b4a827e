"""The expansions (Escape!, The magic rings!, In and Out!): one `Expansion` object each,
holding its spec syntax, rules-file key, the `Ruleset` switch it sets and its texts.

Everything else in `validator.rulesets` loops over `EXPANSIONS` (like python-chess's
`VARIANTS`): a new expansion is a `Ruleset` field that the engine reads, one `Expansion`
subclass here and its entry in `EXPANSIONS`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Annotated, Any, ClassVar, Self

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    StrictBool,
    StrictInt,
    model_validator,
)
from pydantic import Field as Constraint

from validator.engine import STANDARD, Ruleset
from validator.engine.rules import MAX_RINGS
from validator.language.i18n import _

MAX_ESCAPE_BONUS = 10_000


class RulesError(ValueError):
    """A ruleset name or rules file that cannot be used; the message says why (and where)."""


# --- the expansions -------------------------------------------------------------------


class Expansion(ABC):
    """One expansion: everything about it, from its spec syntax to its describe text.

    Its state in a ruleset is the one `Ruleset` field named by `switch`; the expansion is
    in play when that field differs from the standard ruleset's (where it is off).
    """

    key: ClassVar[str]
    """Its name after `+` in a ruleset spec: `standard+KEY[=VALUE]`."""
    title: ClassVar[str]
    """Its name in the sources."""
    switch: ClassVar[str]
    """The `Ruleset` field it sets."""
    file_key: ClassVar[str]
    """Its key under `expansions:` in a rules file."""
    spec_syntax: ClassVar[str]
    file_syntax: ClassVar[str]
    record_syntax: ClassVar[str]
    """How a record uses it."""
    summary: ClassVar[str]
    """What it changes, for the list of `road300 rules`."""

    def value(self, rules: Ruleset) -> object:
        return getattr(rules, self.switch)

    def in_play(self, rules: Ruleset) -> bool:
        return bool(self.value(rules) != getattr(STANDARD, self.switch))

    @abstractmethod
    def parse_value(self, text: str | None) -> object:
        """The switch value for `KEY=TEXT` in a spec (`text` None for a bare `KEY`);
        raises RulesError."""

    @abstractmethod
    def spec_part(self, rules: Ruleset) -> str:
        """This expansion as it is in play in `rules`, as a spec part (`escape=20`)."""

    @abstractmethod
    def meaning(self, rules: Ruleset) -> str:
        """What its switch's value in `rules` means in play (on or off)."""

    @abstractmethod
    def sentence(self, rules: Ruleset) -> str:
        """One sentence for a reader who never read the rules; only while in play."""

    @abstractmethod
    def file_field(self) -> tuple[Any, Any]:
        """(type, default) of its key under `expansions:` in a rules file (a pydantic field)."""

    @abstractmethod
    def from_file(self, value: Any) -> object:
        """The switch value for the validated rules-file entry `value`."""

    @abstractmethod
    def to_file(self, rules: Ruleset) -> object:
        """Its rules-file entry while in play in `rules`."""

    entry: ClassVar[type[BaseModel] | None] = None
    """The model of its rules-file entry when that is a mapping."""

    def file_subkeys(self) -> tuple[str, ...]:
        """The keys allowed inside its rules-file entry, for "known:" in messages."""
        return tuple(self.entry.model_fields) if self.entry else ()


_ESCAPE_NEEDS_BONUS = (
    "the Escape! expansion needs its bonus: escape: {bonus: POINTS} "
    "(the sources give no number, so there is no default)"
)


class _FileEntry(BaseModel):
    """An expansion's mapping in a rules file; `problem` says what is wrong with it as a whole."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    def problem(self) -> str | None:
        return None

    @model_validator(mode="after")
    def _whole(self) -> Self:
        problem = self.problem()
        if problem is not None:
            raise ValueError(problem)
        return self


class _EscapeFile(_FileEntry):
    bonus: Annotated[StrictInt, Constraint(ge=0, le=MAX_ESCAPE_BONUS)] | None = Constraint(
        default=None, description="points added when the burglar escapes (no default)"
    )

    def problem(self) -> str | None:
        return _ESCAPE_NEEDS_BONUS if self.bonus is None else None


def _escape_shorthand(value: Any) -> Any:
    # `escape: true` cannot stand for a bonus: the sources give none.
    if value is True or (isinstance(value, int) and not isinstance(value, bool)):
        raise ValueError(_ESCAPE_NEEDS_BONUS)
    return None if value is False else value


class Escape(Expansion):
    key = "escape"
    title = "Escape!"
    switch = "escape_bonus"
    file_key = "escape"
    spec_syntax = "+escape=BONUS"
    file_syntax = "escape: {bonus: BONUS}"
    record_syntax = "move: escape (optional path: the walk to the corner)"
    entry = _EscapeFile
    summary = (
        "Escape!: a move may leave through a free corner within the movement die (leftover "
        "steps ignored); the game ends and BONUS points are added. The bonus has no default."
    )

    def parse_value(self, text: str | None) -> int:
        if text is None or not text.strip():
            raise RulesError("the Escape! expansion needs its bonus: escape=POINTS (no default)")
        if not text.isdigit():
            raise RulesError(
                f"escape={text}: the bonus is a whole number of points, 0 to {MAX_ESCAPE_BONUS}"
            )
        bonus = int(text)
        if bonus > MAX_ESCAPE_BONUS:
            raise RulesError(f"escape={text}: the bonus is 0 to {MAX_ESCAPE_BONUS} points")
        return bonus

    def spec_part(self, rules: Ruleset) -> str:
        return f"escape={rules.escape_bonus}"

    def meaning(self, rules: Ruleset) -> str:
        if rules.escape_bonus is None:
            return "not in play: no move may leave the board"
        return (
            "a move may leave through a free corner within the movement die; the game ends "
            f"and {rules.escape_bonus} bonus points are added (record: move: escape)"
        )

    def sentence(self, rules: Ruleset) -> str:
        return _(
            "With Escape! the burglar may leave the board through a free corner: the game ends "
            "and {bonus} bonus points are added."
        ).format(bonus=rules.escape_bonus)

    def file_field(self) -> tuple[Any, Any]:
        return (Annotated[_EscapeFile | None, BeforeValidator(_escape_shorthand)], None)

    def from_file(self, value: Any) -> int | None:
        return value.bonus if isinstance(value, _EscapeFile) else None

    def to_file(self, rules: Ruleset) -> object:
        return {"bonus": rules.escape_bonus}


class _RingsFile(_FileEntry):
    max: StrictInt = Constraint(
        default=MAX_RINGS, description=f"the most rings a record may declare, 1-{MAX_RINGS}"
    )

    def problem(self) -> str | None:
        if 1 <= self.max <= MAX_RINGS:
            return None
        return f"a player may declare 1 to {MAX_RINGS} magic rings, not {self.max}"


def _rings_shorthand(value: Any) -> Any:
    if value is True:
        return {}
    return None if value is False else value


class MagicRings(Expansion):
    key = "rings"
    title = "The magic rings!"
    switch = "max_rings"
    file_key = "rings"
    spec_syntax = f"+rings[=N]  (N 1-{MAX_RINGS}, default {MAX_RINGS})"
    file_syntax = "rings: {max: N}"
    record_syntax = "rings: N in the header; ring: true on a row rerolled with a ring"
    entry = _RingsFile
    summary = (
        "The magic rings!: a record declares up to N rings (rings: N); instead of playing a "
        "roll where a field could be crossed out, a ring rerolls it (ring: true). Not a pass."
    )

    def parse_value(self, text: str | None) -> int:
        if not text:
            return MAX_RINGS
        if not text.isdigit() or not 1 <= int(text) <= MAX_RINGS:
            raise RulesError(f"rings={text}: a player may declare 1 to {MAX_RINGS} rings")
        return int(text)

    def spec_part(self, rules: Ruleset) -> str:
        return f"rings={rules.max_rings}"

    def meaning(self, rules: Ruleset) -> str:
        n = rules.max_rings
        if not n:
            return "not in play: a record may declare no rings"
        return (
            f"a record may declare {'1 ring' if n == 1 else f'1-{n} rings'} (rings: N); a ring "
            "rerolls a roll that could be played (ring: true); it is not a pass and resets the "
            "passes in a row"
        )

    def sentence(self, rules: Ruleset) -> str:
        return _(
            "With the magic rings expansion the player may spend a ring to skip a roll instead of "
            "playing it."
        )

    def file_field(self) -> tuple[Any, Any]:
        return (Annotated[_RingsFile | None, BeforeValidator(_rings_shorthand)], None)

    def from_file(self, value: Any) -> int:
        return value.max if isinstance(value, _RingsFile) else 0

    def to_file(self, rules: Ruleset) -> object:
        return {"max": rules.max_rings}


class InAndOut(Expansion):
    key = "in-and-out"
    title = "In and Out!"
    switch = "in_and_out"
    file_key = "in_and_out"
    spec_syntax = "+in-and-out"
    file_syntax = "in_and_out: true"
    record_syntax = "move: leave (optional path: the walk to the corner)"
    summary = (
        "In and Out!: a move may leave through a free corner (move: leave); the game goes on, "
        "and the next move re-enters through a free corner as the first move does."
    )

    def parse_value(self, text: str | None) -> bool:
        if text is not None:
            raise RulesError(f"in-and-out={text}: the In and Out! expansion takes no value")
        return True

    def spec_part(self, rules: Ruleset) -> str:
        return "in-and-out"

    def meaning(self, rules: Ruleset) -> str:
        if not rules.in_and_out:
            return "not in play"
        return (
            "a move may leave through a free corner (record: move: leave); the next move "
            "re-enters through a free corner, with no start-field X that round"
        )

    def sentence(self, rules: Ruleset) -> str:
        return _(
            "With In and Out! the burglar may leave through a free corner and comes back in "
            "through a corner next round."
        )

    def file_field(self) -> tuple[Any, Any]:
        return (StrictBool, False)

    def from_file(self, value: Any) -> bool:
        return bool(value)

    def to_file(self, rules: Ruleset) -> object:
        return True


EXPANSIONS: tuple[Expansion, ...] = (Escape(), MagicRings(), InAndOut())
"""Every expansion, in the order they are named, listed and described."""


def find_expansion(key: str) -> Expansion:
    """The expansion named `key` in a spec (`escape`, `rings`, `in-and-out`)."""
    for expansion in EXPANSIONS:
        if expansion.key == key:
            return expansion
    raise RulesError(
        f"unknown expansion {key!r}; choose from: {', '.join(x.key for x in EXPANSIONS)}"
    )


def expansion_sentences(rules: Ruleset) -> tuple[str, ...]:
    """One sentence for each expansion in play, for the report's rules text."""
    return tuple(x.sentence(rules) for x in EXPANSIONS if x.in_play(rules))
