"""Naming a ruleset: a built-in name with expansions (`bga+escape=20+rings=3`) or a rules file.

`resolve` turns what a user typed after --rules (or a record's `rules:`) into a Ruleset;
`describe` says in words what each switch of a ruleset does, for `road300 rules`.
Each expansion is one `Expansion` object in `EXPANSIONS` (like python-chess's `VARIANTS`):
its spec syntax, rules-file key, the `Ruleset` switch it sets and its texts all live there,
and everything else in this module loops over them. A new expansion is a `Ruleset` field
that the engine reads, one `Expansion` subclass here and its entry in `EXPANSIONS`.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Annotated, Any, ClassVar, Literal, Self

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    StrictBool,
    StrictInt,
    ValidationError,
    create_model,
    model_validator,
)
from pydantic import Field as Constraint

from validator.engine import RULESETS, STANDARD, Ruleset
from validator.engine.rules import MAX_RINGS
from validator.errors import ReadError
from validator.records import yaml_source
from validator.render.i18n import _
from validator.render.wording import ordinal

RULES_FILE_SUFFIXES = (".yaml", ".yml")
MAX_RULES_FILE_BYTES = 64 * 1024
"""A rules file is a dozen lines; anything far larger is not one."""
MAX_ESCAPE_BONUS = 10_000
BASE_SWITCHES = ("pass_counting", "pass_limit", "scoring")
"""The switches that named rulesets and rules files set; the others belong to expansions."""


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
        if text is None or not text.isdigit():
            raise RulesError("the Escape! expansion needs its bonus: escape=POINTS (no default)")
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
        if not rules.max_rings:
            return "not in play: a record may declare no rings"
        return (
            f"a record may declare 1-{rules.max_rings} ring(s) (rings: N); a ring rerolls a "
            "roll that could be played (ring: true); it is not a pass and resets the passes "
            "in a row"
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


# --- naming a ruleset -----------------------------------------------------------------


def resolve(spec: str, base_dir: Path | None = None) -> Ruleset:
    """`NAME[+escape=BONUS][+rings[=N]][+in-and-out]` or `FILE.yaml[+...]` -> Ruleset.

    A relative rules file is looked up in `base_dir` (a record's folder) when given, else in
    the working directory. Raises RulesError; for a rules file the message starts with
    `file:line:col:`.
    """
    spec = spec.strip()
    if is_rules_file(spec):
        return load_rules_file(_place(spec, base_dir), spec)
    base, *parts = [p.strip() for p in spec.split("+")]
    if is_rules_file(base):
        ruleset = load_rules_file(_place(base, base_dir), base)
    elif base in RULESETS:
        ruleset = RULESETS[base]
    else:
        raise RulesError(
            f"unknown ruleset {base!r}; choose one of: {', '.join(RULESETS)} "
            f"(with expansions: {', '.join('+' + x.key for x in EXPANSIONS)}), or a rules file "
            "ending in .yaml"
        )
    chosen: dict[str, Any] = {}
    for part in parts:
        key, eq, text = part.partition("=")
        expansion = find_expansion(key.strip())
        chosen[expansion.key] = expansion.parse_value(text.strip() if eq else None)
    return with_expansions(ruleset, chosen)


def with_expansions(rules: Ruleset, values: Mapping[str, Any]) -> Ruleset:
    """`rules` with the expansions keyed in `values` set; the name gets their spec parts."""
    changed = rules
    parts = [rules.name]
    for expansion in EXPANSIONS:
        if expansion.key in values:
            changed = replace(changed, **{expansion.switch: values[expansion.key]})
            parts.append(expansion.spec_part(changed))
    return replace(changed, name="+".join(parts))


def _place(name: str, base_dir: Path | None) -> Path:
    path = Path(name)
    return base_dir / path if base_dir is not None and not path.is_absolute() else path


def is_rules_file(spec: str) -> bool:
    return spec.lower().endswith(RULES_FILE_SUFFIXES)


# --- rules files ---------------------------------------------------------------------


def load_rules_file(path: Path, source: str | None = None) -> Ruleset:
    """Read and validate a house-rules YAML file; raises RulesError naming file and line."""
    name = source or str(path)
    try:
        if path.stat().st_size > MAX_RULES_FILE_BYTES:
            raise RulesError(f"{name}: a rules file is at most {MAX_RULES_FILE_BYTES} bytes")
        data = path.read_bytes()
    except OSError as exc:
        raise RulesError(f"{name}: cannot read the rules file: {exc.strerror or exc}") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise RulesError(f"{name}: the rules file is not UTF-8 text (byte {exc.start})") from None
    return parse_rules(text, name)


def parse_rules(text: str, source: str) -> Ruleset:
    """A rules file's text -> Ruleset; `source` names the file in messages."""
    try:
        data, locations = yaml_source.load(text, source)
    except ReadError as exc:
        d = exc.diagnostic
        message = d.message.replace("in a record", "in a rules file")
        raise RulesError(f"{d.location()}: {message}") from None
    if data is None:
        raise RulesError(f"{source}:1:1: the rules file is empty; write at least `base: standard`")
    if not isinstance(data, dict):
        line, col = locations.get((), (1, 1))
        raise RulesError(
            f"{source}:{line}:{col}: a rules file is a mapping of switches "
            f"({', '.join(k for k in _KNOWN_KEYS[None] if k != 'name')})"
        )
    try:
        model = RulesFileModel.model_validate(data)
    except ValidationError as exc:
        raise RulesError(_error_text(exc, locations, source)) from None
    return model.ruleset(source)


def _error_text(
    exc: ValidationError, locations: dict[tuple[str | int, ...], tuple[int, int]], source: str
) -> str:
    err = exc.errors(include_url=False)[0]
    loc = tuple(p for p in err["loc"] if isinstance(p, int) or p in _ALL_KEYS)
    kind = err["type"]
    line, col = _locate(loc, locations)
    dotted = ".".join(str(p) for p in loc)
    if kind == "extra_forbidden":
        key = str(err["loc"][-1])
        line, col = _locate((*loc, key), locations)
        parent = loc[-1] if loc else None
        known = _KNOWN_KEYS.get(str(parent), _KNOWN_KEYS[None]) if parent else _KNOWN_KEYS[None]
        inside = f" in {dotted}" if dotted else ""
        return f"{source}:{line}:{col}: unknown switch {key!r}{inside}; known: {', '.join(known)}"
    if kind == "missing":
        return f"{source}:{line}:{col}: {dotted or 'the file'}: missing {err['loc'][-1]!r}"
    msg = str(err["msg"]).removeprefix("Value error, ")
    msg = re.sub(r" or instance of _?\w+", "", msg)
    got = err.get("input")
    shown = "" if isinstance(got, dict | list) or got is None else f" (got {got!r})"
    return f"{source}:{line}:{col}: {dotted + ': ' if dotted else ''}{msg}{shown}"


def _locate(
    path: tuple[str | int, ...], locations: dict[tuple[str | int, ...], tuple[int, int]]
) -> tuple[int, int]:
    for end in range(len(path), -1, -1):
        if path[:end] in locations:
            return locations[path[:end]]
    return (1, 1)


# The `expansions:` mapping of a rules file: one optional key per expansion.
_EXPANSION_FIELDS: dict[str, Any] = {x.file_key: x.file_field() for x in EXPANSIONS}
_ExpansionsFile = create_model(
    "_ExpansionsFile", __config__=ConfigDict(extra="forbid", frozen=True), **_EXPANSION_FIELDS
)


class RulesFileModel(BaseModel):
    """A house-rules file: a base ruleset and the switches it changes."""

    model_config = ConfigDict(extra="forbid", frozen=True, title="Road to 300 rules file")
    name: Annotated[str, Constraint(min_length=1, max_length=80)] | None = Constraint(
        default=None, description="the ruleset's name; default: the file name as given"
    )
    base: Literal["standard", "bga", "literal"] = Constraint(
        default="standard", description="the named ruleset the other switches change"
    )
    pass_counting: Literal["in-a-row", "total"] | None = Constraint(
        default=None, description="forced rerolls end the game counted in a row, or in total"
    )
    pass_limit: Annotated[StrictInt, Constraint(ge=1, le=99)] | None = Constraint(
        default=None, description="how many forced rerolls end the game (rulebook: 3)"
    )
    scoring: Literal["all-circles", "crossed-circles"] | None = Constraint(
        default=None,
        description="all-circles: every circle scores; crossed-circles: only X and circle",
    )
    # Built from EXPANSIONS at import, so mypy cannot see it as a class.
    expansions: _ExpansionsFile = Constraint(  # type: ignore[valid-type]
        default_factory=_ExpansionsFile,
        description=", ".join(x.file_key for x in EXPANSIONS),
    )

    def ruleset(self, default_name: str) -> Ruleset:
        switches: dict[str, Any] = {
            key: getattr(self, key) for key in BASE_SWITCHES if getattr(self, key) is not None
        }
        for x in EXPANSIONS:
            switches[x.switch] = x.from_file(getattr(self.expansions, x.file_key))
        return replace(RULESETS[self.base], name=self.name or default_name, **switches)


_KNOWN_KEYS: dict[str | None, tuple[str, ...]] = {
    None: tuple(RulesFileModel.model_fields),
    "expansions": tuple(x.file_key for x in EXPANSIONS),
    **{x.file_key: x.file_subkeys() for x in EXPANSIONS if x.file_subkeys()},
}
_ALL_KEYS = {k for keys in _KNOWN_KEYS.values() for k in keys}


def rules_file_schema() -> dict[str, Any]:
    """The JSON Schema of a rules file."""
    schema: dict[str, Any] = RulesFileModel.model_json_schema()
    return schema


def to_rules_file(rules: Ruleset) -> dict[str, Any]:
    """A ruleset as the plain data of a rules file that resolves back to it."""
    base = next(
        (
            name
            for name, r in RULESETS.items()
            if (r.pass_counting, r.pass_limit, r.scoring)
            == (rules.pass_counting, rules.pass_limit, rules.scoring)
        ),
        "standard",
    )
    out: dict[str, Any] = {"name": rules.name, "base": base}
    for key in BASE_SWITCHES:
        if getattr(rules, key) != getattr(RULESETS[base], key):
            out[key] = getattr(rules, key)
    expansions = {x.file_key: x.to_file(rules) for x in EXPANSIONS if x.in_play(rules)}
    if expansions:
        out["expansions"] = expansions
    return out


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


def record_name(rules: Ruleset) -> str | None:
    """The ruleset name a written record carries: its name when that names the same rules.

    A house rules file cannot be named by a record (the validator refuses that), so such a
    record names none and is checked with the same --rules.
    """
    if is_rules_file(rules.name.split("+")[0]):
        return None
    try:
        named = resolve(rules.name)
    except RulesError:
        return None
    return rules.name if same_rules(named, rules) else None


def same_rules(a: Ruleset, b: Ruleset) -> bool:
    """Whether two rulesets play the same, whatever they are called."""
    return replace(a, name="") == replace(b, name="")
