"""House rules files: reading and checking one (every problem located by file, line and
column), its JSON Schema, and writing a ruleset back as one."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    StrictInt,
    ValidationError,
    create_model,
)
from pydantic import Field as Constraint

from validator.engine import RULESETS, Ruleset
from validator.errors import ReadError
from validator.records import yaml_source
from validator.rulesets.expansions import EXPANSIONS, RulesError

RULES_FILE_SUFFIXES = (".yaml", ".yml")
MAX_RULES_FILE_BYTES = 64 * 1024
"""A rules file is a dozen lines; anything far larger is not one."""
BASE_SWITCHES = ("pass_counting", "pass_limit", "scoring")
"""The switches that named rulesets and rules files set; the others belong to expansions."""


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
    return RulesFileModel.model_json_schema()


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
