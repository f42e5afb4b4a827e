"""Naming a ruleset: a built-in name with expansions (`bga+escape=20+rings=3`) or a rules file.

`resolve` turns what a user typed after --rules (or a record's `rules:`) into a Ruleset;
`describe` says in words what each switch of a ruleset does, for `road300 rules`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    StrictBool,
    StrictInt,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic import Field as Constraint

from validator.engine import RULESETS, STANDARD, Ruleset
from validator.engine.rules import MAX_RINGS
from validator.errors import ReadError
from validator.readers import yaml_source

EXPANSIONS = ("escape", "rings", "in-and-out")
RULES_FILE_SUFFIXES = (".yaml", ".yml")
MAX_RULES_FILE_BYTES = 64 * 1024
"""A rules file is a dozen lines; anything far larger is not one."""


class RulesError(ValueError):
    """A ruleset name or rules file that cannot be used; the message says why (and where)."""


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
            f"(with expansions: {', '.join('+' + e for e in EXPANSIONS)}), or a rules file "
            "ending in .yaml"
        )
    escape: int | None = None
    rings: int | None = None
    in_and_out = False
    for part in parts:
        name, _, value = part.partition("=")
        if name == "escape":
            if not value.isdigit():
                raise RulesError(
                    "the Escape! expansion needs its bonus: escape=POINTS (no default)"
                )
            escape = int(value)
        elif name == "rings":
            rings = int(value) if value.isdigit() else MAX_RINGS
            if not 1 <= rings <= MAX_RINGS:
                raise RulesError(f"rings={value}: a player may declare 1 to {MAX_RINGS} rings")
        elif name == "in-and-out" and not value:
            in_and_out = True
        else:
            raise RulesError(f"unknown expansion {part!r}; choose from: {', '.join(EXPANSIONS)}")
    return ruleset.with_expansions(escape_bonus=escape, max_rings=rings, in_and_out=in_and_out)


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
            "(base, pass_counting, pass_limit, scoring, expansions)"
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


_KNOWN_KEYS: dict[str | None, tuple[str, ...]] = {
    None: ("name", "base", "pass_counting", "pass_limit", "scoring", "expansions"),
    "expansions": ("escape", "rings", "in_and_out"),
    "escape": ("bonus",),
    "rings": ("max",),
}
_ALL_KEYS = {k for keys in _KNOWN_KEYS.values() for k in keys}
_ESCAPE_NEEDS_BONUS = (
    "the Escape! expansion needs its bonus: escape: {bonus: POINTS} "
    "(the sources give no number, so there is no default)"
)


class _EscapeModel(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    bonus: Annotated[StrictInt, Constraint(ge=0, le=10_000)] | None = Constraint(
        default=None, description="points added when the burglar escapes (no default)"
    )

    @model_validator(mode="after")
    def _needs_bonus(self) -> _EscapeModel:
        if self.bonus is None:
            raise ValueError(_ESCAPE_NEEDS_BONUS)
        return self


class _RingsModel(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    max: StrictInt = Constraint(
        default=MAX_RINGS, description=f"the most rings a record may declare, 1-{MAX_RINGS}"
    )

    @model_validator(mode="after")
    def _in_range(self) -> _RingsModel:
        if not 1 <= self.max <= MAX_RINGS:
            raise ValueError(f"a player may declare 1 to {MAX_RINGS} magic rings, not {self.max}")
        return self


class _ExpansionsModel(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    escape: _EscapeModel | None = None
    rings: _RingsModel | None = None
    in_and_out: StrictBool = False

    @field_validator("escape", mode="before")
    @classmethod
    def _escape_shorthand(cls, value: Any) -> Any:
        # `escape: true` cannot stand for a bonus: the sources give none.
        if value is True or (isinstance(value, int) and not isinstance(value, bool)):
            raise ValueError(_ESCAPE_NEEDS_BONUS)
        return None if value is False else value

    @field_validator("rings", mode="before")
    @classmethod
    def _rings_shorthand(cls, value: Any) -> Any:
        if value is True:
            return {}
        return None if value is False else value


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
    expansions: _ExpansionsModel = Constraint(
        default_factory=_ExpansionsModel, description="escape, rings and in_and_out"
    )

    def ruleset(self, default_name: str) -> Ruleset:
        switches: dict[str, Any] = {
            key: getattr(self, key)
            for key in ("pass_counting", "pass_limit", "scoring")
            if getattr(self, key) is not None
        }
        ex = self.expansions
        return replace(
            RULESETS[self.base],
            name=self.name or default_name,
            escape_bonus=ex.escape.bonus if ex.escape else None,
            max_rings=ex.rings.max if ex.rings else 0,
            in_and_out=ex.in_and_out,
            **switches,
        )


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
    for key in ("pass_counting", "pass_limit", "scoring"):
        if getattr(rules, key) != getattr(RULESETS[base], key):
            out[key] = getattr(rules, key)
    expansions: dict[str, Any] = {}
    if rules.escape_bonus is not None:
        expansions["escape"] = {"bonus": rules.escape_bonus}
    if rules.max_rings:
        expansions["rings"] = {"max": rules.max_rings}
    if rules.in_and_out:
        expansions["in_and_out"] = True
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

EXPANSION_SUMMARIES: dict[str, tuple[str, str]] = {
    "escape": (
        "+escape=BONUS",
        "Escape!: a move may leave through a free corner within the movement die (leftover "
        "steps ignored); the game ends and BONUS points are added. The bonus has no default.",
    ),
    "rings": (
        f"+rings[=N]  (N 1-{MAX_RINGS}, default {MAX_RINGS})",
        "The magic rings!: a record declares up to N rings (rings: N); instead of playing a "
        "roll where a field could be crossed out, a ring rerolls it (ring: true). Not a pass.",
    ),
    "in-and-out": (
        "+in-and-out",
        "In and Out!: a move may leave through a free corner (move: leave); the game goes on, "
        "and the next move re-enters through a free corner as the first move does.",
    ),
}


def describe(rules: Ruleset) -> list[Switch]:
    """Every switch of `rules`, with what its value means."""
    counting = (
        "only forced rerolls in a row count: a played round or a ring reroll resets the count"
        if rules.pass_counting == "in-a-row"
        else "every forced reroll of the game counts, in a row or not"
    )
    limit = f"the {_ordinal(rules.pass_limit)} counted forced reroll ends the game"
    scoring = (
        "every circled field scores, the last one included"
        if rules.scoring == "all-circles"
        else "only fields with both an X and a circle score: the last circle counts only when "
        "it got its X (the game ended by a move that could not be made, or by leaving)"
    )
    escape = (
        "not in play: no move may leave the board"
        if rules.escape_bonus is None
        else "a move may leave through a free corner within the movement die; the game ends "
        f"and {rules.escape_bonus} bonus points are added (record: move: escape)"
    )
    rings = (
        "not in play: a record may declare no rings"
        if not rules.max_rings
        else f"a record may declare 1-{rules.max_rings} ring(s) (rings: N); a ring rerolls a "
        "roll that could be played (ring: true); it is not a pass and resets the passes in a row"
    )
    in_and_out = (
        "not in play"
        if not rules.in_and_out
        else "a move may leave through a free corner (record: move: leave); the next move "
        "re-enters through a free corner, with no start-field X that round"
    )
    values: list[tuple[str, object, str]] = [
        ("pass_counting", rules.pass_counting, counting),
        ("pass_limit", rules.pass_limit, limit),
        ("scoring", rules.scoring, scoring),
        ("escape_bonus", rules.escape_bonus, escape),
        ("max_rings", rules.max_rings, rings),
        ("in_and_out", rules.in_and_out, in_and_out),
    ]
    return [
        Switch(
            key,
            _value_text(value),
            meaning,
            value != getattr(STANDARD, key),
        )
        for key, value, meaning in values
    ]


def _value_text(value: object) -> str:
    if value is None:
        return "off"
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def _ordinal(n: int) -> str:
    words = {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}
    return words.get(n, f"{n}th")
